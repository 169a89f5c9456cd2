"""Polynomial functions of N vectors whose separation rank is known exactly.

For a polynomial y(x_I, x_J) write y = sum_{a, b} C[a, b] m_a(x_I) m'_b(x_J)
with monomials m_a of the variables of the positions in I and m'_b of those
in J. Its separation rank w.r.t. (I, J) equals rank(C):

* sep <= rank(C): factor C = F^T G and regroup the sum;
* sep >= rank(C): with templates whose monomial evaluation matrices V_I, V_J
  (one row per assignment of templates to the positions of a side, one column
  per monomial) have full column rank, the grid matricization equals
  V_I C V_J^T, whose rank is rank(C); the grid rank is a lower bound of the
  separation rank (levine2020 Claim 1, B.1.2 l.615-645).

:func:`monomial_certificate` checks the full-column-rank condition exactly, so
that an exact grid rank becomes the exact separation rank; it and the monomial
matrices live with the template-grid route of the separation front door
(:mod:`seprank.separation.grid.template`) and are re-exported here.
:func:`network_sep_ranks` asks that front door (``route="template-grid"``) for the
ranks of a network; :func:`coefficient_rank` stays an independent reference (the
rank of the coefficient matrix of sum_r f_r g_r, built here from the definition),
so that the Claim 1 checks compare two computations, not one with itself.
Everything here is integer arithmetic on Python ints (object arrays).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from seprank.linalg import rank
from seprank.separation.grid.template import (
    monomial_certificate,
    monomial_exponents,
    monomial_matrix,
    side_points,
)

__all__ = [
    "monomial_exponents",
    "eval_poly",
    "random_poly",
    "side_points",
    "monomial_matrix",
    "monomial_certificate",
    "poly_product_function",
    "coefficient_rank",
    "certified_templates",
    "min_templates",
    "network_sep_ranks",
]

Poly = dict[tuple[int, ...], int]


def eval_poly(poly: Poly, Z: np.ndarray) -> np.ndarray:
    """Evaluate ``poly`` (exponent tuple -> int) at each row of Z (batch, n_vars), exactly.

    Examples
    --------
    >>> eval_poly({(1, 0): 1, (0, 2): 1}, [[2, 3]]).tolist()   # x + y^2 at (2, 3)
    [11]
    """
    Z = np.asarray(Z, dtype=object)
    out = np.zeros(Z.shape[0], dtype=object)
    for b in range(Z.shape[0]):
        row = [int(v) for v in Z[b]]
        total = 0
        for e, c in poly.items():
            term = c
            for v, k in zip(row, e, strict=True):
                if k:
                    term *= v ** k
            total += term
        out[b] = total
    return out


def random_poly(rng: np.random.Generator, n_vars: int, max_deg: int, bound: int = 3,
                min_deg: int = 0) -> Poly:
    """A polynomial with random integer coefficients in [-bound, bound] on all monomials
    of degree min_deg..max_deg (zero coefficients dropped).

    Examples
    --------
    >>> p = random_poly(np.random.default_rng(0), 2, 1)
    >>> set(p) <= set(monomial_exponents(2, 1)), all(0 < abs(c) <= 3 for c in p.values())
    (True, True)
    """
    poly = {}
    for e in monomial_exponents(n_vars, max_deg):
        if sum(e) < min_deg:
            continue
        c = int(rng.integers(-bound, bound + 1))
        if c:
            poly[e] = c
    return poly


def poly_product_function(fs: Sequence[Poly], gs: Sequence[Poly], N: int,
                          I: Sequence[int]) -> Callable[[np.ndarray], np.ndarray]:
    """The batched function X -> sum_r f_r(x_I) g_r(x_J), x_I the concatenation of the
    vectors at the positions of I (increasing), x_J likewise for the complement J.

    Examples
    --------
    >>> f = poly_product_function([{(1,): 1}], [{(1,): 1}], 2, [0])   # x_1 * x_2
    >>> f(np.array([[[2], [3]]])).tolist()
    [6]
    """
    I = tuple(sorted(I))
    J = tuple(n for n in range(N) if n not in I)

    def f(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=object)
        ZI = X[:, list(I)].reshape(X.shape[0], -1)
        ZJ = X[:, list(J)].reshape(X.shape[0], -1)
        out = np.zeros(X.shape[0], dtype=object)
        for fr, gr in zip(fs, gs, strict=True):
            out = out + eval_poly(fr, ZI) * eval_poly(gr, ZJ)
        return out

    return f


def coefficient_rank(fs: Sequence[Poly], gs: Sequence[Poly]) -> int:
    """rank of the coefficient matrix of sum_r f_r g_r: its exact separation rank.

    Examples
    --------
    >>> coefficient_rank([{(1, 0): 1}, {(0, 1): 1}], [{(1, 0): 1}, {(0, 1): 1}])   # x1 y1 + x2 y2
    2
    >>> coefficient_rank([{(1,): 1}, {(1,): 2}], [{(1,): 1}, {(1,): 1}])   # x y + 2 x y = 3 x y
    1
    """
    ei = sorted({e for p in fs for e in p})
    ej = sorted({e for p in gs for e in p})
    if not ei or not ej:
        return 0
    F = [[p.get(e, 0) for e in ei] for p in fs]
    G = [[p.get(e, 0) for e in ej] for p in gs]
    C = [[sum(F[r][a] * G[r][b] for r in range(len(fs))) for b in range(len(ej))]
         for a in range(len(ei))]
    return rank(C, "exact").value


def certified_templates(rng: np.random.Generator, d: int, M: int, N: int, max_deg: int,
                        attempts: int = 20) -> tuple[np.ndarray, dict, int]:
    """M distinct integer templates in Q^d (entries in [-max(6, M), max(6, M)]) that pass
    :func:`monomial_certificate` for the balanced partition of N positions; returns
    (templates, certificate, attempts used). RuntimeError if none is found.

    Examples
    --------
    >>> T, cert, used = certified_templates(np.random.default_rng(0), 1, 2, 2, 1)
    >>> T.shape, len({tuple(r) for r in T}), cert["ok"]
    ((2, 1), 2, True)
    """
    for attempt in range(attempts):
        R = max(6, M)
        rows: set[tuple[int, ...]] = set()
        while len(rows) < M:
            rows.add(tuple(int(v) for v in rng.integers(-R, R + 1, size=d)))
        T = np.array(sorted(rows, key=lambda r: rng.random()), dtype=object)
        cert = monomial_certificate(T, N, tuple(range(N // 2)), max_deg)
        if cert["ok"]:
            return T, cert, attempt + 1
    raise RuntimeError("no certified template set found")


# ---------------------------------------------------------------------------
# exact separation ranks of small random networks (levine2020 Thms 3-6)

_NET_CACHE: dict[tuple, dict] = {}


def min_templates(d_x: int, max_deg: int) -> int:
    """The number of monomials of degree <= max_deg in d_x variables.

    One side of a matricization sees the product set S^P of the template set S
    (P positions), so the monomial matrix of the side can only have full column
    rank if the monomials of one position's d_x variables are independent on S:
    M = ``|S|`` must be at least their number (and that suffices for generic S).

    Examples
    --------
    >>> min_templates(2, 3)   # monomials of degree <= 3 in 2 variables: C(5, 2)
    10
    """
    return len(monomial_exponents(d_x, max_deg))


def network_sep_ranks(L: int, d_x: int, H: int, N: int, *, residual: bool = False,
                      seed: int = 0, position: int = 0, coordinate: int = 0) -> dict:
    """Exact separation ranks of y_p^i of a random integer network, all balanced partitions.

    Templates: M = :func:`min_templates` (d_x, 3^L) distinct integer vectors
    (entries in [-max(6, M), max(6, M)]), redrawn until
    :func:`monomial_certificate` certifies that grid rank = coefficient rank =
    separation rank (the output is a polynomial of degree <= 3^L in each side).
    Cached by its arguments.

    Examples
    --------
    >>> r = network_sep_ranks(1, 1, 1, 2)
    >>> list(r["sep_ranks"]), r["max_rank"] <= 2   # levine2020 Thm 3: (1 * (1 + 1))^1
    (['{1}|{2}'], True)
    """
    from seprank.models import SelfAttentionNetwork
    from seprank.separation import separation_rank
    from seprank.tensors import balanced_partitions

    key = (L, d_x, H, N, residual, seed, position, coordinate)
    if key in _NET_CACHE:
        return _NET_CACHE[key]
    deg = 3 ** L
    M = min_templates(d_x, deg)
    rng = np.random.default_rng(seed)
    T, cert, attempt = certified_templates(rng, d_x, M, N, deg)
    net = SelfAttentionNetwork.random(L, d_x, H, residual=residual, seed=seed, nonzero=True)
    ranks = {}
    for I, J in balanced_partitions(N):
        label = "{" + ",".join(str(x + 1) for x in I) + "}|{" + ",".join(
            str(x + 1) for x in J) + "}"
        # the separation front door's template-grid route: the exact rank of the grid
        # matricization, exact as a separation rank because the templates are certified
        ranks[label] = separation_rank(network=net, N=N, partition=(list(I), list(J)),
                                       position=position, coordinate=coordinate,
                                       route="template-grid", templates=T,
                                       rank_method="exact").value
    out = {"L": L, "d_x": d_x, "H": H, "d_a": net.d_a, "N": N, "residual": residual,
           "seed": seed, "position_i": position + 1, "coordinate_p": coordinate + 1,
           "M": M, "grid_cap": M ** (N // 2), "template_attempts": attempt,
           "certificate": cert, "sep_ranks": ranks, "max_rank": max(ranks.values()),
           "templates": T.tolist(),
           "weights": {q: net.weights[q].tolist() for q in "QKVO"}}
    _NET_CACHE[key] = out
    return out
