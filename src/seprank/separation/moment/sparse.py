"""C_F from the terms of the polynomials g_j when they are few: compressed blocks, and
the span of their derivatives.

Compressed blocks
-----------------
Entry (j, alpha), gamma of a catalecticant block is c^(j)_{alpha+gamma} (alpha+gamma)!
(:mod:`seprank.separation.moment.blocks`): it is nonzero only when alpha + gamma is a
term beta of g_j. So the nonzero entries are the splittings beta = alpha + gamma of the
terms, a term beta having prod_e (beta_e + 1) of them over all blocks. Zero rows and
columns change no rank: the block's rank is the rank of its *compressed* matrix, the
rows (j, beta - gamma) and columns gamma that occur. When the g_j have few terms (the
one-hot family of :mod:`seprank.network_theory.one_hot`: one term, so one nonzero per row
and per column of every block) the compressed blocks are small even where the blocks
themselves have hundreds of thousands of rows, and their ranks are exact: a full rank mod
p meets the compressed matrix's smaller side, and a small deficient one is ranked over Q
whole (flint ``fmpz_mat.rank``).

:func:`splittings` counts the work first; the moment route takes this path when the
splittings are at most :data:`SPARSE_MAX_SPLITTINGS`
(:mod:`seprank.separation.moment.run`).

The span of the derivatives (:func:`derivative_rank`)
-----------------------------------------------------
rank_Q C_F is the dimension of the space of the g_j's partial derivatives.

By :mod:`~seprank.separation.moment.blocks`, C_F[(j, alpha), gamma] =
c^(j)_{alpha+gamma} prod_e binom(alpha_e + gamma_e, alpha_e). The coefficient of t^gamma
in the derivative d^alpha g_j is c^(j)_{alpha+gamma} (alpha + gamma)! / gamma!, which is
alpha! times that entry. So row (j, alpha) of C_F, times the nonzero integer alpha!, is
the coefficient vector of d^alpha g_j, and

    rank_Q C_F = dim_Q V,   V = span_Q { d^alpha g_j : j, alpha },

the smallest subspace of Q[t] that holds g_1, ..., g_r and is closed under d/dt_1, ...,
d/dt_D'. (The catalecticant of a polynomial and its space of derivatives are one
object: Iarrobino and Kanev, *Power sums, Gorenstein algebras, and determinantal loci*,
1999, Section 1.1.) This holds with or without residual connections; the route uses it
for the residual matrix, ranked whole (:func:`~seprank.separation.moment.blocks.
block_specs`), where a degenerate or structured network has a rank far below what the
sampled evaluation can certify from above.

The certificate: a breadth-first closure. Take g_1, ..., g_r, then d/dt_i of every
polynomial kept. A polynomial is kept (put in B) when its residues mod p are independent
of those kept before, else it is set aside (put in Z). Then

1. B is independent mod p, so over Q (a nonzero minor mod p is a nonzero integer minor):
   rank_Q C_F >= |B|, since B lies in V;
2. every z in Z (a g_j, or a d/dt_i b with b in B) is written z = sum_b y_b b over Q:
   the y solve the |B| x |B| system on B's pivot columns (nonsingular mod p, so over Q),
   and den z = sum_b (den y_b) b is then checked over Z on every column.

When 2 holds for all of Z, span_Q B holds every g_j and every d/dt_i b, so it is closed
under the derivatives and holds V: rank_Q C_F = |B|, exactly. (A z that is a combination
mod p but not over Q, p dividing a minor, fails the check: then the answer keeps |B| as
a certified lower bound.)

Cost: with m the monomials below some term of some g_j (the columns any derivative can
reach) and R the size of B, the closure reduces R D' + r candidates against at most R rows of m
residues: about (R D' + r) R m multiply-adds mod p (:func:`closure_work`, numpy int64);
the check solves an R x R system over Q for |Z| right-hand sides and multiplies
|Z| x R by R x m integer matrices (python-flint). Both are estimated before they run,
and the closure stops at the size its share of the time allows.
"""

from __future__ import annotations

import time
from collections import deque
from itertools import product

import flint
import numpy as np

from seprank.budget import RATES, bigint_factor
from seprank.separation.moment.blocks import BlockSpec, PolyData

__all__ = ["splittings", "sparse_block_ranks", "SPARSE_MAX_SPLITTINGS", "down_closure",
           "closure_work", "derivative_rank", "CLOSURE_RATE"]

#: The compressed path runs when the terms' splittings (entries to build) are at most this.
SPARSE_MAX_SPLITTINGS = 200_000
#: A deficient compressed block is ranked over Q whole up to this many entries.
SPARSE_EXACT_MAX_ENTRIES = 250_000


def splittings(pd: PolyData) -> int:
    """Number of nonzero entries of C_F over all blocks: sum over terms of prod(beta_e + 1).

    >>> import flint
    >>> (t0, t1) = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex").gens()
    >>> from seprank.separation.moment.blocks import poly_data
    >>> splittings(poly_data([t0**2 * t1], 2, 3))     # (2 + 1)(1 + 1)
    6
    """
    return int(sum(int(np.prod(e + 1, axis=1, dtype=np.int64).sum()) if len(e) else 0
                   for e in pd.exps))


def _entries(pd: PolyData, spec: BlockSpec, p: int):
    """(row keys, column keys, values mod p, exact values) of the block's nonzero entries."""
    rows, cols, vals, exact = [], [], [], []
    w = pd.weights()
    for j in range(len(pd.keys)):
        res = pd.residue_terms(j, p) if len(pd.keys[j]) else None
        for t, beta in enumerate(pd.exps[j]):
            for gamma in product(*(range(int(b) + 1) for b in beta)):
                g = np.array(gamma, dtype=np.int64)
                if spec.degree is not None and int(g.sum()) != spec.degree:
                    continue
                rows.append((j, int((beta - g).dot(w))))
                cols.append(int(g.dot(w)))
                vals.append(int(res[t]))
                exact.append(t)
    return rows, cols, vals, exact


def sparse_block_ranks(pd: PolyData, specs: list[BlockSpec], r: int, p: int) -> list[dict]:
    """Per block: rank of the compressed matrix (module docstring), exact when it is full or
    when the compressed matrix is small enough to rank over Q; records like
    :func:`~seprank.separation.moment.ranks.catalecticant_rank`'s.

    >>> import flint
    >>> (t,) = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex").gens()
    >>> from seprank.separation.moment.blocks import poly_data, block_specs
    >>> pd = poly_data([t**2], 1, 2)                  # xi (u + w)^2: blocks 1, 1, 1
    >>> [(b["rank"], b["kind"]) for b in sparse_block_ranks(pd, block_specs(1, 1, 2, False),
    ...                                                    1, 1000003)]
    [(1, 'exact'), (1, 'exact'), (1, 'exact')]
    """
    out = []
    for spec in specs:
        t0 = time.perf_counter()
        rows, cols, vals, terms = _entries(pd, spec, p)
        rindex = {k: i for i, k in enumerate(dict.fromkeys(rows))}
        cindex = {k: i for i, k in enumerate(dict.fromkeys(cols))}
        m, n = len(rindex), len(cindex)
        rec = {"degree": spec.degree, "shape": list(spec.shape), "cap": spec.cap,
               "method": "sparse", "compressed_shape": [m, n]}
        if not vals:
            rec.update(rank=0, upper=0, kind="exact", seconds=0.0,
                       how="compressed: no nonzero entry")
            out.append(rec)
            continue
        M = np.zeros((m, n), dtype=np.int64)
        for (key_r, key_c, v) in zip(rows, cols, vals, strict=True):
            M[rindex[key_r], cindex[key_c]] = v
        from seprank.linalg import rank as linalg_rank
        from seprank.linalg.residues import ResidueMatrix

        rank = linalg_rank(ResidueMatrix(M, p), "modular", prime=p).value
        how = (f"compressed to the {m} x {n} rows and columns with a nonzero entry "
               f"({len(vals)} nonzeros), rank mod {p}")
        kind, upper = ("exact", rank) if rank == min(m, n) else ("lower_bound", min(m, n))
        if kind != "exact" and m * n <= SPARSE_EXACT_MAX_ENTRIES:
            rank = _exact_rank(pd, spec, rows, cols, terms, rindex, cindex, m, n)
            kind, upper = "exact", rank
            how += "; exact rank over Q of the compressed matrix (flint fmpz_mat.rank)"
        rec.update(rank=rank, upper=upper, kind=kind, how=how,
                   seconds=round(time.perf_counter() - t0, 4))
        out.append(rec)
    return out


def _exact_rank(pd, spec, rows, cols, terms, rindex, cindex, m: int, n: int) -> int:
    """Rank over Q of the compressed catalecticant (exact entries c_beta beta!)."""
    M = [[0] * n for _ in range(m)]
    for (key_r, key_c, t) in zip(rows, cols, terms, strict=True):
        M[rindex[key_r]][cindex[key_c]] = int(pd.exact_terms(key_r[0])[t])
    return flint.fmpz_mat(M).rank()

#: Multiply-adds mod p a second of the closure's reductions (numpy int64 vector-matrix
#: products and the echelon update, with the Python loop over candidates): 4.5e8 measured
#: on the permutation network L = 3, d_x = 3, H = 3 with residual connections (m = 542,
#: |B| = 248) and 6e8 on generic residual L = 3, d_x = 2 (2 cores, idle, 2026-11-29); halved.
CLOSURE_RATE = 2e8


def down_closure(pd: PolyData) -> np.ndarray:
    """The sorted keys of every monomial that divides a term of some g_j (the monomials a
    derivative of the g_j can have; keys as in :class:`~seprank.separation.moment.blocks.
    PolyData`).

    >>> import flint
    >>> from seprank.separation.moment.blocks import poly_data
    >>> t0, t1 = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex").gens()
    >>> pd = poly_data([t0**2 * t1], 2, 3)      # radix 7: 1, t0, t0^2, t1, t0 t1, t0^2 t1
    >>> down_closure(pd).tolist()
    [0, 1, 2, 7, 8, 9]
    """
    w = pd.weights()
    keys = np.unique(np.concatenate([k for k in pd.keys if len(k)] or [np.zeros(0, np.int64)]))
    seen, frontier = keys, keys
    while len(frontier):
        digits = pd.key_exponents(frontier)
        lower = np.concatenate([frontier[digits[:, v] > 0] - w[v] for v in range(pd.n_vars)])
        frontier = np.setdiff1d(np.unique(lower), seen, assume_unique=True)
        seen = np.union1d(seen, frontier)
    return seen


def closure_work(n_rows: int, n_vars: int, rank: int, columns: int) -> int:
    """Multiply-adds mod p of a closure that keeps ``rank`` polynomials of ``columns``
    monomials: (rank D' + r) candidates, each reduced against at most ``rank`` rows.

    >>> closure_work(3, 6, 248, 542)
    200414256
    """
    return (rank * n_vars + n_rows) * rank * columns


def _derivative(exps: np.ndarray, coeffs: np.ndarray, v: int):
    """d/dt_v of the polynomial with these exponent rows and exact coefficients."""
    keep = exps[:, v] > 0
    e = exps[keep].copy()
    c = coeffs[keep] * e[:, v].astype(object)
    e[:, v] -= 1
    return e, c


def _columns(cols: np.ndarray, w: np.ndarray, exps: np.ndarray) -> np.ndarray:
    """The positions of a polynomial's terms among the sorted monomial keys ``cols``."""
    return np.searchsorted(cols, exps @ w)


def _largest_size(r: int, n: int, m: int, seconds: float, max_bytes: float) -> int:
    """The most polynomials the closure may keep: its residues (m int64 each) within
    ``max_bytes`` and its work (:func:`closure_work`) within ``seconds``."""
    most, budget = min(m, int(max_bytes // (8 * m))), seconds * CLOSURE_RATE
    lo, hi = 0, most
    while lo < hi:                              # the largest size whose work fits (bisection)
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if closure_work(r, n, mid, m) <= budget else (lo, mid - 1)
    return lo


def _closure(pd: PolyData, cols: np.ndarray, p: int, most: int, deadline: float):
    """Step 1 of the certificate (module docstring): (kept, set aside, pivot columns,
    stopped), stopped when more than ``most`` would be kept or at ``deadline``."""
    w, m = pd.weights(), len(cols)
    E = np.zeros((most, m), dtype=np.int64)     # the kept rows mod p, reduced echelon form
    pivots: list[int] = []
    kept, aside = [], []
    queue = deque((pd.exps[j], np.asarray(pd.coeffs[j], dtype=object))
                  for j in range(len(pd.keys)))
    # Invariants: E[:k] is in reduced echelon form with pivot columns pivots (E[:k, pivots]
    # is the identity), and its rows span the residues of the polynomials in kept.
    while queue:
        if time.perf_counter() > deadline:
            return kept, aside, pivots, True
        exps, coeffs = queue.popleft()
        if not len(coeffs):
            continue
        v = np.zeros(m, dtype=np.int64)
        v[_columns(cols, w, exps)] = np.array([int(c) % p for c in coeffs], np.int64)
        k = len(pivots)
        if k:
            v = (v - (v[pivots] @ E[:k]) % p) % p
        nz = np.flatnonzero(v)
        if not len(nz):
            aside.append((exps, coeffs))
            continue
        if k == most:
            return kept, aside, pivots, True
        c = int(nz[0])
        v = v * pow(int(v[c]), -1, p) % p
        E[:k] = (E[:k] - np.outer(E[:k, c], v) % p) % p
        E[k] = v
        pivots.append(c)
        kept.append((exps, coeffs))
        queue.extend(_derivative(exps, coeffs, i) for i in range(pd.n_vars))
    return kept, aside, pivots, False


def derivative_rank(pd: PolyData, p: int, *, seconds: float,
                    max_bytes: float = 2**30) -> dict | None:
    """rank_Q C_F of the polynomials ``pd`` (exact coefficients) by the closure of their
    derivatives (module docstring), within about ``seconds`` (the closure stops at the
    size its estimate allows, or at the time) and ``max_bytes`` for its residues and the
    exact check's matrices.

    Returns a dict: ``rank`` (|B|), ``kind`` ("exact" when every set-aside polynomial was
    checked a rational combination of B, else "lower_bound": |B| is certified from
    below), ``columns`` (m), ``kept`` and ``set_aside`` (|B|, |Z|), ``seconds``, ``how``;
    None when even the closure's first step is over the time (the caller keeps what it
    has). ``p`` must be below 2^31 (residue products fit int64).

    >>> import flint
    >>> from seprank.separation.moment.blocks import poly_data
    >>> t0, t1 = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex").gens()
    >>> out = derivative_rank(poly_data([(t0 + 2 * t1)**3, t0**2], 2, 3), 1000003, seconds=10)
    >>> out["rank"], out["kind"]       # (t0 + 2 t1)^k, k = 0..3, and t0^2, t0: 6
    (6, 'exact')
    """
    t0 = time.perf_counter()
    if pd.coeffs[0] is None:
        raise ValueError("derivative_rank needs the exact coefficients of the g_j")
    cols = down_closure(pd)
    m = len(cols)
    if m == 0:
        return {"rank": 0, "kind": "exact", "columns": 0, "kept": 0, "set_aside": 0,
                "seconds": 0.0, "how": "derivative closure: every g_j is 0"}
    most = _largest_size(len(pd.keys), pd.n_vars, m, seconds, max_bytes)
    if most == 0:
        return None
    kept, aside, pivots, stopped = _closure(pd, cols, p, most, t0 + seconds)
    base = {"rank": len(kept), "columns": m, "kept": len(kept), "set_aside": len(aside)}
    if stopped:
        return dict(base, kind="lower_bound", seconds=round(time.perf_counter() - t0, 4),
                    how=f"derivative closure: {len(kept)} derivatives of the g_j independent "
                        f"mod {p} (a certified lower bound); stopped there by the time or "
                        f"memory allowed ({m} monomials)")
    ok = _combinations_hold(kept, aside, cols, pd.weights(), pivots,
                            seconds - (time.perf_counter() - t0), max_bytes)
    why = {True: f"every one of the {len(aside)} others checked a rational combination of "
                 "them over Z, so they span the derivatives: rank_Q C_F = "
                 f"{len(kept)} (moment.sparse)",
           False: "some other one is a combination mod p only (p divides a minor): a "
                  "certified lower bound",
           None: "the exact check of the others is over the time or memory: a certified "
                 "lower bound"}
    return dict(base, kind="exact" if ok else "lower_bound",
                seconds=round(time.perf_counter() - t0, 4),
                how=f"derivative closure: {len(kept)} derivatives of the g_j independent mod "
                    f"{p} over {m} monomials; " + why[ok])


#: Bytes a dense exact matrix entry takes while the check builds it (a Python int in a list,
#: then an fmpz): the estimate of :func:`_combinations_hold`'s memory.
_DENSE_ENTRY_BYTES = 48


def _combinations_hold(kept, aside, cols, w, pivots, seconds: float,
                       max_bytes: float) -> bool | None:
    """Step 2 of the certificate (module docstring): every set-aside polynomial is a
    rational combination of the kept ones, checked over Z; None when its estimate is over
    ``seconds`` or ``max_bytes``."""
    if not aside:
        return True
    R, m = len(kept), len(cols)

    def dense(polys) -> flint.fmpz_mat:
        out = [[0] * m for _ in polys]
        for row, (exps, coeffs) in zip(out, polys, strict=True):
            for i, c in zip(_columns(cols, w, exps).tolist(), coeffs, strict=True):
                row[i] = int(c)
        return flint.fmpz_mat(out)

    t0 = time.perf_counter()
    entries = (R + len(aside)) * m                                     # the dense matrices
    if entries / RATES["python"].per_second > seconds or \
            entries * _DENSE_ENTRY_BYTES > max_bytes:
        return None
    B, Z = dense(kept), dense(aside)
    BP = flint.fmpz_mat([[B[i, c] for c in pivots] for i in range(R)]).transpose()
    ZP = flint.fmpz_mat([[Z[i, c] for c in pivots] for i in range(len(aside))]).transpose()
    # the solve's cost depends on the size of its output: one right-hand side first
    t1 = time.perf_counter()
    BP.solve(flint.fmpz_mat([[ZP[i, 0]] for i in range(R)]))
    if (time.perf_counter() - t1) * len(aside) > seconds - (t1 - t0):
        return None
    num, den = BP.solve(ZP).numer_denom()
    bits = max(abs(int(x)).bit_length() for x in num.entries()) + max(
        abs(int(c)).bit_length() for _, co in kept for c in co) + R.bit_length()
    ops = len(aside) * R * m * bigint_factor(bits)
    if ops / RATES["flint"].per_second > seconds - (time.perf_counter() - t0):
        return None
    return num.transpose() * B == Z * den
