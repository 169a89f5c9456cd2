"""Monomial counts of the sides of a matricization, and the degree blocks they make.

The output y_p^i of an eq. (3) network is a polynomial of degree D = 3^L
(levine2020 l.75; with residual connections, of degree <= D). For a partition
(I, J) with n_I = |I| d_x and n_J = |J| d_x variables, its coefficient
matricization has at most ((n_I, k)) rows of I-degree k and ((n_J, D - k))
columns of J-degree D - k ((n, k) = C(n + k - 1, k)); the parity lemma (see
:mod:`seprank.separation.grid.route`) leaves only the I-degrees k = [i in I] mod 2.
These counts size every route's blocks before anything is evaluated, so they live
here once: :func:`degree_blocks` is what the grid route evaluates and what
:func:`seprank.separation.plan_separation` shows.
"""

from __future__ import annotations

import math
from math import comb

__all__ = ["monomial_count", "size_cap", "degree_blocks", "approx_monomial_count",
           "block_sizes"]


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


def degree_blocks(n_I: int, n_J: int, D: int, position_in_I: bool, residual: bool
                  ) -> list[tuple[int | str, int, int]]:
    """(I-degree label, #I-monomials, #J-monomials) of each block the parity lemma allows.

    Without residual connections one block per I-degree k = 0..D (both counts 0
    where parity rules the block out); with them one block ``"<=D"`` of every
    allowed degree on each side.

    >>> degree_blocks(1, 1, 3, True, False)   # x0^3 * 1 and x0 * x1^2
    [(0, 0, 0), (1, 1, 1), (2, 0, 0), (3, 1, 1)]
    >>> degree_blocks(1, 1, 3, True, True)
    [('<=3', 2, 2)]
    """
    par_I, par_J = int(position_in_I), int(not position_in_I)
    if residual:
        return [(f"<={D}", sum(monomial_count(n_I, a) for a in range(par_I, D + 1, 2)),
                 sum(monomial_count(n_J, b) for b in range(par_J, D + 1, 2)))]
    return [(k, monomial_count(n_I, k) if k % 2 == par_I else 0,
             monomial_count(n_J, D - k) if (D - k) % 2 == par_J else 0)
            for k in range(D + 1)]


def approx_monomial_count(n_vars: int, degree: int, *, up_to: bool = False) -> float:
    """:func:`monomial_count` as a float, in time independent of the sizes (log-gamma);
    ``math.inf`` past the float range. For budgets, where 3^L may have millions of digits.

    >>> approx_monomial_count(4, 2), approx_monomial_count(2, 3**60) > 1e28
    (10.0, True)
    >>> approx_monomial_count(64 * 64, 3**50) == math.inf
    True
    """
    if up_to:
        n_vars, degree = n_vars + 1, degree
    if n_vars <= 0:
        return float(degree == 0)
    top, small = n_vars + degree - 1, min(n_vars - 1, degree)
    if small <= 64 and top < 2**200:
        return _as_float(comb(top, small))
    # log C(top, small) = sum_{j < small} log(top - j) - log(small!), the sum without
    # the cancellation of lgamma(top + 1) - lgamma(top - small + 1) when top >> small
    ratio = small / top
    falling = (small * math.log(top) + small * math.log1p(-ratio / 2) if ratio < 1e-3 else
               math.lgamma(top + 1.0) - math.lgamma(top - small + 1.0))
    logc = falling - math.lgamma(small + 1.0)
    return math.exp(logc) if logc < 700 else math.inf


def _as_float(n: int) -> float:
    try:
        return float(n)
    except OverflowError:
        return math.inf


#: Degree blocks scanned one by one in an estimate; past this many the Vandermonde
#: solve alone (its S x S inverse) is what the estimate counts.
SCAN_MAX_BLOCKS = 200_000
def block_sizes(request) -> tuple[int, float, float, float]:
    """(S scales, R points per side of the largest block, sum of m^2, sum of m^3) of the
    grid route, from log-gamma counts: in time independent of how large 3^L is. Past
    :data:`SCAN_MAX_BLOCKS` blocks, R and the sums are ``math.inf`` (unknown, huge).

    >>> from seprank.separation import plan_separation
    >>> block_sizes(plan_separation(2, 2, 1).request)   # blocks 2, 4, 5, 3, 1 (k = 1, 3, .., 9)
    (5, 5.0, 55.0, 225.0)
    """
    net = request.network
    nI, nJ = len(request.I) * net.d_x, len(request.J) * net.d_x
    D, par = request.degree, int(request.position in request.I)
    if net.residual:
        a = sum(approx_monomial_count(nI, k) for k in range(par, D + 1, 2)) \
            if D < SCAN_MAX_BLOCKS else math.inf
        b = sum(approx_monomial_count(nJ, k) for k in range(1 - par, D + 1, 2)) \
            if D < SCAN_MAX_BLOCKS else math.inf
        m = min(a, b)
        return 1, m, m * m, m ** 3 if m < 1e100 else math.inf
    S = (D + 1) // 2  # the I-degrees k = par mod 2 (D = 3^L is odd): both sides nonempty
    if S > SCAN_MAX_BLOCKS:
        return S, math.inf, math.inf, math.inf
    sizes = [min(approx_monomial_count(nI, k), approx_monomial_count(nJ, D - k))
             for k in range(par, D + 1, 2)]
    big = max(sizes)
    if big > 1e100:
        return S, big, math.inf, math.inf
    return S, big, sum(m * m for m in sizes), sum(m ** 3 for m in sizes)
