"""levine2020's Lemmas 3 and 4 (A.5) and the counts of B.2's lower bound, exactly.

Source: ``levine2020_depth_to_width_self_attention.txt`` (line numbers of that file):
Lemma 3 (A.5 l.540-565), Lemma 4 (A.5 l.567-576), B.2's multiset bound and rank
((d, 3^(L-2))) (l.666-690). Why: Theorems 2 and 4 use Lemmas 3-4 (l.463-476), and
Theorems 1-2's lower bounds are B.2's counts; the checks L-Lemma3, L-Lemma4, L-Thm1
and L-Thm2 evaluate them exactly.

Values follow :mod:`seprank.papers.levine2020.bounds` (ints, Fractions, e-monomials
``(q, m)`` = q e^m decided by :mod:`seprank.scalars.enclosures`, arb balls for logs).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb, factorial, prod

import flint

from seprank.combinatorics import multiset
from seprank.errors import ParameterError
from seprank.papers.levine2020.bounds import check_heads
from seprank.scalars.enclosures import (
    arb_of,
    compare_e_monomials,
    int_at_least,
    log3,
    multiset_e_bound,
    multiset_e_bound_holds,
)

__all__ = [
    "lemma3_lhs",
    "lemma3_rhs",
    "lemma3_equal_split_printed",
    "lemma4_rhs",
    "lemma4_rhs_log3",
    "lemma4_holds",
    "binomial_upper_e",
    "b2_multiset_lower",
    "b2_dims",
    "b2_rank",
]


# ---------------------------------------------------------------------------
# Lemmas 3 and 4 (A.5, l.540-576)


def _lemma3_args(n: int, rs: Sequence[int]) -> tuple[int, list[int]]:
    n = int_at_least("n", n, 1)
    rs = [int_at_least("r_j", r, 0) for r in rs]
    if not rs:
        raise ParameterError("Lemma 3 needs k >= 1 numbers r_1, ..., r_k")
    return n, rs


def lemma3_lhs(n: int, rs: Sequence[int]) -> int:
    """``phi(r_1, ..., r_k) = prod_j ((n, r_j))`` (levine2020 Lemma 3, l.544).

    Examples
    --------
    >>> lemma3_lhs(2, [1, 2])   # ((2, 1)) ((2, 2)) = 2 * 3
    6
    """
    n, rs = _lemma3_args(n, rs)
    return prod(multiset(n, r) for r in rs)


def lemma3_rhs(n: int, rs: Sequence[int]) -> Fraction:
    """Lemma 3's bound ``(prod_{t=1}^{n-1} (M/k + t))^k / ((n-1)!)^k``, ``M = sum r_j`` (l.546).

    >>> lemma3_rhs(2, [0, 2])   # (2/2 + 1)^2
    Fraction(4, 1)
    """
    n, rs = _lemma3_args(n, rs)
    k, M = len(rs), sum(rs)
    mean = Fraction(M, k)
    return prod((mean + t for t in range(1, n)), start=Fraction(1)) ** k \
        / Fraction(factorial(n - 1)) ** k


def lemma3_equal_split_printed(n: int, k: int, M: int) -> Fraction:
    """The value the proof of Lemma 3 prints for ``phi(M/k, ..., M/k)``: ``(prod_t (M/k + t))^k``.

    levine2020 l.563, last member of the chain (printed without the factor
    ``((n-1)!)^{-k}`` that its previous members carry).

    Examples
    --------
    >>> lemma3_equal_split_printed(3, 1, 0)   # (0 + 1)(0 + 2), without the 1/2! factor
    Fraction(2, 1)
    >>> lemma3_rhs(3, [0])
    Fraction(1, 1)
    """
    n = int_at_least("n", n, 1)
    k = int_at_least("k", k, 1)
    M = int_at_least("M", M, 0)
    mean = Fraction(M, k)
    return prod((mean + t for t in range(1, n)), start=Fraction(1)) ** k


def lemma4_rhs(n: int, k: int) -> tuple[Fraction, int]:
    """Lemma 4's bound ``(2e(n+k)/n)^n`` as the e-monomial ``((2(n+k)/n)^n, n)`` (l.569).

    The inequality is shared with wies2021 (its Lemma 3):
    :func:`seprank.scalars.enclosures.multiset_e_bound`.

    Examples
    --------
    >>> lemma4_rhs(2, 2)   # (2e * 4/2)^2 = 16 e^2
    (Fraction(16, 1), 2)
    """
    return multiset_e_bound(n, k)


def lemma4_rhs_log3(n: int, k: int) -> flint.arb:
    """``log_3`` of Lemma 4's bound, ``n log_3(2e(n+k)/n)``, as an arb ball.

    Examples
    --------
    >>> lemma4_rhs_log3(1, 1).overlaps(log3(4) + 1 / flint.arb(3).log())   # log_3(4e)
    True
    """
    q, m = lemma4_rhs(n, k)
    return log3(q) + arb_of(m) / flint.arb(3).log()


def lemma4_holds(n: int, k: int, bounds: tuple[Fraction, Fraction] | None = None
                 ) -> bool | None:
    """Decide ``((n, k)) <= (2e(n+k)/n)^n`` exactly (levine2020 Lemma 4, l.569).

    Uses the rational enclosure of e; None only if the enclosure cannot decide
    (:func:`seprank.scalars.enclosures.multiset_e_bound_holds`, shared with wies2021's
    Lemma 3).

    Examples
    --------
    >>> lemma4_holds(2, 2)   # ((2, 2)) = 3 <= 16 e^2
    True
    """
    return multiset_e_bound_holds(n, k, bounds)


def binomial_upper_e(N: int, K: int, bounds: tuple[Fraction, Fraction] | None = None
                     ) -> bool | None:
    """Decide the textbook bound ``C(N, K) <= (e N / K)^K`` (used in Lemma 4's proof, l.573).

    Needs ``1 <= K <= N``.

    Examples
    --------
    >>> binomial_upper_e(4, 2)   # C(4, 2) = 6 <= (2e)^2
    True
    """
    N = int_at_least("N", N, 1)
    K = int_at_least("K", K, 1)
    if K > N:
        raise ParameterError(f"need K <= N, got N={N}, K={K}")
    return compare_e_monomials((Fraction(comb(N, K)), 0), (Fraction(N, K) ** K, K), bounds)


# ---------------------------------------------------------------------------
# B.2: the multiset lower bound and the rank of the construction (l.666-718)


def b2_multiset_lower(n: int, k: int) -> Fraction:
    """``max{((n-1)/k + 1)^k, (k/(n-1) + 1)^{n-1}}``, B.2's lower bound on ((n, k)) (l.684).

    Needs ``n >= 2`` and ``k >= 1`` (both fractions must be defined).

    >>> b2_multiset_lower(3, 2)
    Fraction(4, 1)
    """
    n = int_at_least("n", n, 2)
    k = int_at_least("k", k, 1)
    return max(Fraction(n - 1 + k, k) ** k, Fraction(k + n - 1, n - 1) ** (n - 1))


def b2_dims(L: int, d_x: int, H: int) -> tuple[int, int]:
    """``(d, lambda) = ((d_x - H)/2, 3^{L-2})``, the sizes of B.2's construction (l.692).

    The construction needs both to be integers with ``d >= 1``: ``L >= 2`` and
    ``d_x - H`` even and at least 2. ParameterError otherwise.

    Examples
    --------
    >>> b2_dims(3, 10, 2)   # ((10 - 2)/2, 3^1)
    (4, 3)
    """
    L = int_at_least("L", L, 2)
    d_x, H = check_heads(d_x, H)
    if (d_x - H) % 2 or d_x - H < 2:
        raise ParameterError(
            f"B.2 needs d = (d_x - H)/2 to be an integer >= 1, got d_x={d_x}, H={H}")
    return (d_x - H) // 2, 3 ** (L - 2)


def b2_rank(L: int, d_x: int, H: int) -> int:
    """``(((d_x - H)/2, 3^{L-2}))``, the rank B.2's construction certifies (l.682, l.688).

    >>> b2_rank(3, 10, 2)   # ((4, 3)) = C(6, 3)
    20
    """
    d, lam = b2_dims(L, d_x, H)
    return multiset(d, lam)
