"""The one-hot monomial family against levine2020's upper bounds, exactly.

Source: ``levine2020_depth_to_width_self_attention.txt``: Theorem 2's upper bound
(eq. (8), l.150-156), Theorem 4 (eq. (19), l.424-432) and Theorem 6 (l.520-528).
Why: these bounds are false; a certified instance above each one decides it (checks
L-Thm2, L-Thm4, L-Thm6).

The family, its padded variant and the search for the least exceeding depth are
generic (:mod:`seprank.network_theory.one_hot`: width s, one 1-dimensional head per
channel, y_p^i = x^i_p prod_{b <= c} S_bc^{e_bc} and, for N >= 2s and a balanced
partition, sep(y_p^i) = prod (e_bc + 1) exactly). This module holds levine2020's side
of the comparison: predicates ``exceeds(sep, L, d_x)`` for
:func:`seprank.network_theory.one_hot.first_exceeding`, each decided exactly:

* Theorem 4, eq. (19) (:func:`seprank.papers.levine2020.bounds.thm4_bound`);
* Theorem 6, eq. (20) = (C + 1) eq. (19) (residual networks): the residual network's
  top homogeneous part is the plain network, and sep(f) >= sep(top part of f);
* Theorem 2's upper bound 3^(2 d_x L + c_1 + c_2) = q e^{d_x}, q rational
  (:func:`seprank.papers.levine2020.bounds.thm2_upper_pow3`), compared with e's
  rational enclosure (:func:`seprank.scalars.enclosures.e_bounds`).

wies2021's eq. (9)/(11) has its predicate in its own wing
(:func:`seprank.papers.wies2021.bounds.exceeds_eq9`); the table of both papers' bounds
lives beside the checks that use it (``proofs/levine2020/levine_counterexample.py``).
"""

from __future__ import annotations

from fractions import Fraction

from seprank.papers.levine2020.bounds import thm2_upper_pow3, thm4_bound, thm6_bound
from seprank.scalars.enclosures import compare_e_monomials, e_bounds

__all__ = ["exceeds_thm2_upper", "exceeds_eq19", "exceeds_eq20", "exceeds_eq8_upper"]


def exceeds_thm2_upper(sep: int, L: int, d_x: int) -> bool | None:
    """Whether sep > 3^(2 d_x L + c_1 + c_2) (levine2020 eq. (8)), decided exactly.

    3^(upper) = q e^{d_x} with q rational; e is replaced by its certified rational
    enclosure. True: sep exceeds the bound; False: it does not; None: undecided.

    Examples
    --------
    >>> exceeds_thm2_upper(216 * 3, 1, 1), exceeds_thm2_upper(216 * 2, 1, 1)  # 216 e ~ 587
    (True, False)
    """
    q, m = thm2_upper_pow3(L, d_x)
    verdict = compare_e_monomials((Fraction(sep), 0), (q, m), e_bounds(20))
    return None if verdict is None else not verdict


def exceeds_eq19(sep: int, L: int, d_x: int) -> bool:
    """Whether sep > Theorem 4's eq. (19) bound at (L, d_x) (A.3 l.428-432), exactly.

    >>> exceeds_eq19(1, 1, 1), exceeds_eq19(10**6, 1, 1)
    (False, True)
    """
    return sep > thm4_bound(L, d_x)


def exceeds_eq20(sep: int, L: int, d_x: int) -> bool:
    """Whether sep > Theorem 6's eq. (20) bound at (L, d_x) (A.4 l.524-528), exactly.

    >>> exceeds_eq20(1, 1, 1), exceeds_eq20(10**6, 1, 1)
    (False, True)
    """
    return sep > thm6_bound(L, d_x)


def exceeds_eq8_upper(sep: int, L: int, d_x: int) -> bool:
    """Whether, in Theorem 2's regime 3^L > d_x, sep exceeds eq. (8)'s upper bound (exactly).

    False outside the regime and when e's enclosure cannot decide.

    >>> exceeds_eq8_upper(216 * 3, 1, 1), exceeds_eq8_upper(216 * 3, 1, 3)
    (True, False)
    """
    return 3 ** L > d_x and exceeds_thm2_upper(sep, L, d_x) is True
