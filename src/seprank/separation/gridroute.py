"""The grid route: separation ranks from network evaluations mod p (numba kernels).

Why it works (the mathematics; see :mod:`seprank.separation.polynomial` for the
coefficient matricization C)
--------------------------------------------------------------------------------
Evaluate f = y_p^i on R points P_a of the I-variables and C points Q_b of the
J-variables: G[a, b] = f(P_a, Q_b) = (E C F^T)[a, b], with E[a, m] = m(P_a)
and F[b, m'] = m'(Q_b) the monomial-evaluation matrices (levine2020 Claim 1,
B.1.2 l.615-645, with arbitrary points instead of a product grid).

* Certified lower bound. G is the reduction mod p of an integer (or
  p-integral rational) matrix of rank <= rank(C) over Q, and reduction mod p
  can only lower a rank: rank_p(G) <= rank_Q(C) = sep. No assumption on the
  points is needed.
* Degree blocks (networks without residual connections). f(s x_I, x_J) =
  sum_k s^k f_k with f_k the part of I-degree k; evaluating at distinct
  scales s_j = j + 1 and inverting the Vandermonde matrix mod p gives
  f_k(P_a, Q_b) for every k. The matrix of f_k is E_k C_k F_k^T with C_k the
  k-th diagonal block of C (only the degrees that the parity lemma below
  allows are unknowns, one scale each), so rank(C) = sum_k rank(C_k) and each block is
  ranked on its own, on m_k = min(#I-monomials of degree k, #J-monomials of
  degree D - k) points per side (more cannot raise the rank). With residual
  connections f is not homogeneous: the route uses one block of all degrees
  <= D per side.
* Probabilistic equality (Schwartz-Zippel). With the points uniform in
  GF(p)^n, an r x r minor of G_k is a polynomial of degree <= r D in the point
  coordinates (r k from the rows, r (D - k) from the columns; <= 2 r D for the
  residual block), not identically zero when r <= rank_p(C_k) <= m_k. So
  P[rank_p(G_k) < rank_p(C_k)] <= r D / p (2 r D / p with residual
  connections): the grid value equals rank_p(C), the rank of the coefficient
  matrix mod p, except with probability at most D * (grid value) / p (union
  bound over blocks). Equality with rank over Q additionally needs p not to
  divide the relevant minors of C, which is *not* claimed here.
* Parity (a lemma proved here; tested against the coefficient route). Every
  monomial of the output at position i has I-degree = [i in I] mod 2 and
  J-degree = [i in J] mod 2. Induction over the layers: x^{1,n} = x_n has
  I-degree 1 or 0 by n in I; a term of eq. (3) at position i is linear in
  x^{l,i} and quadratic in x^{l,j}, so its I-degree has the parity of
  x^{l,i}'s (linear maps W keep the degrees), and the skip connection
  x^{l,i} + y^{l,i} (A.4) adds terms of the same parity. So the blocks of the
  other parity are zero: their rank is 0, certified without evaluation.
* Certified upper bound: rank(C_k) <= min(#I-monomials, #J-monomials), the
  trivial cap (0 for a block that parity rules out); a block whose grid rank
  meets its cap is exact.

Evaluation is :func:`seprank.models.network_mod_p.grid_values_mod_p`
(parallel numba, first-layer projections once per template); every row point
and scale is its own template, so no Python objects are built.
"""

from __future__ import annotations

import time
from math import comb

import flint
import numpy as np

import seprank
from seprank.errors import ParameterError
from seprank.linalg.residues import ResidueMatrix
from seprank.models.network_mod_p import grid_values_mod_p

__all__ = ["grid_block_ranks", "monomial_count", "size_cap"]


def monomial_count(n_vars: int, degree: int, *, up_to: bool = False) -> int:
    """Monomials of exactly ``degree`` (or of degree <= ``degree`` with ``up_to``) in n_vars.

    >>> monomial_count(4, 2), monomial_count(4, 2, up_to=True)   # C(5, 3), C(6, 4)
    (10, 15)
    """
    if up_to:
        return comb(n_vars + degree, degree)
    return comb(n_vars + degree - 1, degree) if n_vars else int(degree == 0)


def size_cap(L: int, d_x: int, N: int, I, position: int, residual: bool = False) -> int:
    """A certified upper bound on the separation rank that the instance size alone allows.

    The sum over the degree blocks that the parity lemma allows of
    min(#I-monomials, #J-monomials) (module docstring); with residual
    connections min(#I-monomials, #J-monomials) over all allowed degrees <= 3^L.
    A paper bound above this cap cannot be reached at this size: an instance
    *binds* a bound when its cap is at least the bound.

    >>> size_cap(1, 1, 2, (0,), 0)   # x0^3 * 1 and x0 * x1^2: blocks k = 1, 3
    2
    >>> size_cap(1, 3, 2, (0,), 0)   # min(3, 6) + min(10, 1)
    4
    """
    I = tuple(I)
    nI, nJ = len(I) * d_x, (N - len(I)) * d_x
    D = 3 ** L
    pI = int(position in I)
    pJ = 1 - pI
    if residual:
        return min(sum(monomial_count(nI, a) for a in range(pI, D + 1, 2)),
                   sum(monomial_count(nJ, b) for b in range(pJ, D + 1, 2)))
    return sum(min(monomial_count(nI, k), monomial_count(nJ, D - k))
               for k in range(pI, D + 1, 2) if (D - k) % 2 == pJ)


def _inverse_vandermonde(scales: list[int], powers: list[int], p: int) -> np.ndarray:
    n = len(scales)
    V = flint.nmod_mat(n, n, [pow(s, k, p) for s in scales for k in powers], p)
    inv = V.inv()
    return np.array([[int(inv[i, j]) for j in range(n)] for i in range(n)], dtype=np.int64)


def grid_block_ranks(net, N: int, I, J, position: int, coordinate: int, *, p: int,
                     seed: int = 0, certify: bool = False,
                     max_block_points: int | None = None) -> dict:
    """Ranks mod p of the degree blocks of the grid matricization (module docstring).

    Returns a dict with ``blocks`` (one per I-degree k, or one "all degrees"
    block with residual connections: rows, cap, grid rank, whether the rank is
    certified exact because it meets the cap), ``lower_bound`` (their sum, a
    certified lower bound on the separation rank), ``cap`` (sum of caps, a
    certified upper bound), ``error_bound`` (the Schwartz-Zippel bound on
    grid value != rank_p(C)), ``evaluations``, and seconds spent in
    evaluation, interpolation and rank. ``max_block_points``: blocks needing more
    points per side are not evaluated (rank counted 0, ``skipped``): the sum is
    still a certified lower bound, the cap still counts them.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> out = grid_block_ranks(net, 2, (0,), (1,), 0, 0, p=1000003)
    >>> out["lower_bound"], [b["rank"] for b in out["blocks"]]   # x0^3 + x0 x1^2
    (2, [0, 1, 0, 1])
    >>> out["cap"], [b["zero_by_parity"] for b in out["blocks"]]   # even I-degrees vanish
    (2, [True, False, True, False])
    """
    I, J = tuple(I), tuple(J)
    d_x = net.d_x
    nI, nJ = len(I) * d_x, len(J) * d_x
    D = 3 ** net.L
    rng = np.random.default_rng(seed)
    par_I, par_J = int(position in I), int(position in J)
    if net.residual:
        specs = [(f"<={D}",
                  sum(monomial_count(nI, a) for a in range(par_I, D + 1, 2)),
                  sum(monomial_count(nJ, b) for b in range(par_J, D + 1, 2)))]
        powers = [0]
    else:
        specs = [(k, monomial_count(nI, k) if k % 2 == par_I else 0,
                  monomial_count(nJ, D - k) if (D - k) % 2 == par_J else 0)
                 for k in range(D + 1)]
        # only the I-degrees the parity lemma allows are unknowns: one scale per allowed
        # degree; V[j, t] = s_j^(k_t) = s_j^par (s_j^2)^(k_t // 2) is invertible when the
        # s_j are nonzero with distinct squares (s_j = 1, 2, ..., far below p / 2)
        powers = [k for k, a, b in specs if a and b]
    scales = list(range(1, len(powers) + 1))
    if 2 * len(scales) >= p:
        raise ParameterError(f"p = {p} is too small to separate {len(scales)} degrees by "
                             "scaling (the scales 1..m need distinct squares mod p); use a "
                             "larger prime")
    sizes = [min(a, b) for _, a, b in specs]
    skipped = [max_block_points is not None and m > max_block_points for m in sizes]
    R = max([m for m, sk in zip(sizes, skipped, strict=True) if not sk], default=0)
    S = len(scales)
    P = rng.integers(0, p, size=(R, len(I), d_x), dtype=np.int64)
    Qp = rng.integers(0, p, size=(R, len(J), d_x), dtype=np.int64)
    # templates: every scaled row point (S R |I| of them), then every column point (R |J|)
    T_rows = np.concatenate([(P * s) % p for s in scales]).reshape(-1, d_x)
    T = np.concatenate([T_rows, Qp.reshape(-1, d_x)])
    rows = np.arange(S * R * len(I), dtype=np.int64).reshape(S * R, len(I))
    cols = (S * R * len(I) + np.arange(R * len(J), dtype=np.int64)).reshape(R, len(J))
    t0 = time.perf_counter()
    F = grid_values_mod_p(net, T, I, J, rows, cols, p, position=position,
                          coordinate=coordinate).reshape(S, R, R)
    t_eval = time.perf_counter() - t0
    t_interp = t_rank = 0.0
    Vinv = _inverse_vandermonde(scales, powers, p) if powers != [0] else None
    row_of = {k: t for t, k in enumerate(powers)}
    blocks, lower, cap = [], 0, 0
    certificates_ok = True if certify else None
    for idx, (label, mI, mJ) in enumerate(specs):
        m = sizes[idx]
        if skipped[idx]:
            blocks.append({"I_degree": label, "J_degree": (D - label) if isinstance(label, int)
                           else label, "monomials": [mI, mJ], "points": 0, "rank": 0,
                           "cap": m, "exact": False, "skipped": True,
                           "zero_by_parity": False})
            cap += m
            continue
        t1 = time.perf_counter()
        if m == 0:
            G = None
        elif Vinv is None:
            G = F[0]
        else:
            G = np.zeros((m, m), dtype=np.int64)
            t = row_of[label]
            for j in range(S):
                G = (G + (int(Vinv[t, j]) * F[j, :m, :m]) % p) % p
        t2 = time.perf_counter()
        t_interp += t2 - t1
        if m == 0:
            r = 0
        else:
            res = seprank.rank(ResidueMatrix(G, p), "modular", prime=p, certify=certify)
            r = res.value
            if certify:
                ok = bool(seprank.verify(ResidueMatrix(G, p), res.certificate))
                certificates_ok = certificates_ok and ok
        t_rank += time.perf_counter() - t2
        blocks.append({"I_degree": label, "J_degree": (D - label) if isinstance(label, int)
                       else label, "monomials": [mI, mJ], "points": m, "rank": r,
                       "cap": m, "exact": r == m,
                       "zero_by_parity": not net.residual and (mI == 0 or mJ == 0)})
        lower += r
        cap += m
    factor = 2 if net.residual else 1
    out = {"prime": p, "lower_bound": lower, "cap": cap, "blocks": blocks,
           "error_bound": float(factor * D * lower) / p, "evaluations": S * R * R,
           "seconds": {"evaluation": t_eval, "interpolation": t_interp, "rank": t_rank}}
    if certify:
        out["certificates_verified"] = certificates_ok
    return out
