"""Blocks of C_F when the polynomials g_j have few terms: only the rows and columns that
hold a nonzero entry.

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
"""

from __future__ import annotations

import time
from itertools import product

import flint
import numpy as np

from seprank.separation.moment.blocks import BlockSpec, PolyData

__all__ = ["splittings", "sparse_block_ranks", "SPARSE_MAX_SPLITTINGS"]

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
