"""Certified lower bounds on the token separation rank at a finite N, through the moment form.

At N tokens with the output position i in I (|I| = a, |J| = b), the output is
y = F(x^i, S_I, S_J), S_I = sum_{j in I} x^j x^jT, S_J likewise. Evaluate it at R
random token tuples of I (rows) and R of J (columns), mod p:

* Without residual connections y is homogeneous of degree 2C + 1 in all tokens,
  and its part of J-degree 2b is y_{2b}(x_I, x_J) = F_b(x^i, S_I, S_J), F_b the part
  of F of degree b in W. Replacing S_J by mu S_J multiplies F_b by mu^b, so C + 1
  scales and the inverse Vandermonde matrix give the values of every y_{2b}
  (:func:`seprank.models.moment_mod_p.pair_block_values`), exactly as the grid
  route splits degrees by scaling the J tokens (mu = lambda^2).
* The coefficient matricization of y w.r.t. (x_I | x_J) is block diagonal by
  J-degree (homogeneity fixes the I-degree), so sep_N = sum_b rank(C_{y_{2b}}).
  The value matrix of y_{2b} on the sampled tuples is E C_{y_{2b}} N^T with E, N
  monomial evaluations, so rank_p of it is at most rank_Q(C_{y_{2b}}): the sum
  over b of the ranks mod p is a certified lower bound on sep_N, whatever the
  points. With residual connections the degrees mix: one matrix of values of y.
* Points per block: rank(C_{y_{2b}}) <= min(#I-monomials of degree 1 + 2(C - b) in
  a d variables, #J-monomials of degree 2b in b d variables) (the token size cap)
  and <= the moment block's upper bound, so no more points than the smaller of the
  two (or of the block's best value, the target) are used. Within a time limit the
  points per side are capped (:func:`~seprank.separation.moment.plan.points_within`):
  a block with fewer points than it needs is ``truncated``, its rank mod p still a
  certified lower bound (a product E C N^T as above, whatever the points).
"""

from __future__ import annotations

import time
from math import comb

import numpy as np

from seprank.linalg import rank as linalg_rank
from seprank.linalg import verify as linalg_verify
from seprank.linalg.residues import ResidueMatrix
from seprank.models.moment_mod_p import eval_ops, pair_block_values
from seprank.separation.moment.plan import points_within
from seprank.separation.moment.ranks import vandermonde_mix

__all__ = ["token_caps", "token_lower_bound"]


def _mono(n: int, k: int) -> int:
    return comb(n + k - 1, k) if n else int(k == 0)


def token_caps(d: int, C: int, a: int, b: int, residual: bool) -> list[int]:
    """The token size caps of the blocks (module docstring) at |I| = a, |J| = b.

    >>> token_caps(2, 4, 1, 1, False)   # L = 2, d = 2, N = 2: [min(C(10, 9), 1), ...]
    [1, 3, 5, 4, 2]
    """
    if residual:
        rows = sum(_mono(a * d, 1 + 2 * k) for k in range(C + 1))
        cols = sum(_mono(b * d, 2 * k) for k in range(C + 1))
        return [min(rows, cols)]
    return [min(_mono(a * d, 1 + 2 * (C - q)), _mono(b * d, 2 * q)) for q in range(C + 1)]


def _moments(rng, n: int, k: int, d: int, p: int, first=None) -> tuple[np.ndarray, np.ndarray]:
    """n random tuples of k tokens mod p: their S = sum x x^T (n, d, d) and first tokens."""
    S = np.zeros((n, d, d), dtype=np.int64)
    x0 = rng.integers(0, p, size=(n, d))
    for j in range(k):
        x = x0 if j == 0 else rng.integers(0, p, size=(n, d))
        S = (S + (x[:, :, None] * x[:, None, :]) % p) % p
    return S, x0


def token_lower_bound(fam, data: dict, targets: list[int], N: int, p: int, rng, *,
                      certify: bool = False, max_seconds: float = 600.0) -> dict:
    """A certified lower bound on sep at N tokens, |I| = ceil(N/2) (output in I), |J| = N - |I|.

    ``targets``: per block of C_F the value to reach (its best known value: its rank, or
    its upper bound where the rank is not known); the points per side are capped so that
    the estimated evaluations and ranks fit ``max_seconds`` (blocks that needed more are
    ``truncated``: still a certified lower bound; a block with no point is ``skipped``).
    Returns ``N``, ``I_size``, ``J_size``, ``lower_bound``, ``blocks`` (degree, points,
    token cap, rank, truncated), ``evaluations``, ``error_bound`` (Schwartz-Zippel: the chance
    that the sum is below sum_b rank_p(C_{y_2b}), at most sum_b points_b (2C + 1) / p),
    ``seconds``.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> from seprank.models.moment_mod_p import family_residues
    >>> one = [[[[1]]]]
    >>> fam = token_family(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one)), 0)
    >>> out = token_lower_bound(fam, family_residues(fam, 1000003), [1, 1], 2, 1000003,
    ...                         np.random.default_rng(0))
    >>> out["lower_bound"]                 # x1 (x1^2 + x2^2): 2 separable terms
    2
    """
    t0 = time.perf_counter()
    d, C = fam.d, fam.degree
    a = (N + 1) // 2
    b = N - a
    caps = token_caps(d, C, a, b, fam.residual)
    points = [min(t, c) for t, c in zip(targets, caps, strict=True)]
    m = 1 if fam.residual else C + 1
    R = points_within(max_seconds, points, m,
                      eval_ops(fam.net.L, fam.net.d_x, fam.net.H, fam.net.d_a))
    sizes = [min(k, R) for k in points]
    skipped = {q for q, k in enumerate(sizes) if points[q] and not k}
    S_I, x_i = _moments(rng, R, a, d, p)
    S_J, _ = _moments(rng, R, b, d, p)
    if fam.residual:
        mus, mix = np.array([1]), np.ones((1, 1), dtype=np.int64)
    else:
        mus = np.arange(1, C + 2)
        mix = vandermonde_mix(list(mus), list(range(C + 1)), p)
    mats = pair_block_values(fam, data, S_I, x_i, S_J, mus, mix, sizes) if R else \
        [np.zeros((0, 0), dtype=np.int64) for _ in sizes]
    t_eval = time.perf_counter() - t0
    blocks, total, ok = [], 0, True
    for q, mat in enumerate(mats):
        rank = 0
        if sizes[q]:
            rm = ResidueMatrix(mat, p)
            res = linalg_rank(rm, "modular", prime=p, certify=certify)
            rank = res.value
            if certify:
                ok = ok and bool(linalg_verify(rm, res.certificate))
        total += rank
        blocks.append({"degree": None if fam.residual else q, "points": sizes[q],
                       "token_cap": caps[q], "rank": rank, "skipped": q in skipped,
                       "truncated": 0 < sizes[q] < points[q]})
    out = {"N": N, "I_size": a, "J_size": b, "lower_bound": total, "blocks": blocks,
           "evaluations": R * R * m, "error_bound": sum(sizes) * (2 * C + 1) / p,
           "seconds": {"evaluation": round(t_eval, 4),
                       "rank": round(time.perf_counter() - t0 - t_eval, 4)}}
    if certify:
        out["certificates_verified"] = ok
    return out
