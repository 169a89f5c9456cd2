"""The one-hot monomial family against levine2020's and wies2021's upper bounds, exactly.

The family (:mod:`seprank.constructions.monomial_chain`, built for the W-Thm1 row):
width s, one 1-dimensional head per channel (H = s, d_a = 1); in layer l the head of
channel a has W^Q = e_a^T, W^K = e_c^T, W^V = e_b^T, W^O = e_a with (b, c) =
(a, a + delta_l mod s) (``shift_schedule``). Then

    y_p^i = x^i_p prod_{b <= c} S_bc^{e_bc},   S = sum_j x^j (x^j)^T,

with integer exponents e (a recursion), and for N >= 2s and a balanced partition
sep(y_p^i) = prod (e_bc + 1) exactly: the entries of S^P and of S^Q are algebraically
independent (Jacobian rank s(s+1)/2 at a rational point), so the P-side and Q-side
monomials of the binomial expansion are linearly independent.

*Padded variant* (for statements that need H < d_x, d_a >= 2): width d_x = 2s, H = s
heads of dimension d_a = 2; head a uses only the first of its two dimensions, with the
same one-hot rows on channels 0..s-1; channels s..2s-1 are read by no head. The output
coordinates p < s are the same monomials (in the moments of the first s coordinates),
so the separation ranks are the same (:func:`padded_network`).

Why one weight point decides "almost everywhere" bounds: if sep(y) > B at a weight
point w0, some (B+1) x (B+1) grid matrix of values of y (fixed P- and Q-points) is
invertible at w0 (linearly independent functions have an invertible evaluation matrix
at some points). Its determinant is a polynomial in the weights, nonzero at w0, hence
nonzero outside a proper algebraic set (a null set): sep > B for almost every weight.

The bounds compared (exact integers / Fractions):

* levine2020 Theorem 4, eq. (19) (:func:`seprank.bounds.levine2020.thm4_bound`);
* Theorem 6, eq. (20) = (C + 1) eq. (19) (residual networks): the residual network's
  top homogeneous part is the plain network, and sep(f) >= sep(top part of f);
* Theorem 2's upper bound 3^(2 d_x L + c_1 + c_2) = q e^{d_x}, q rational
  (:func:`seprank.bounds.levine2020.thm2_upper_pow3`), compared with e's rational
  enclosure (:func:`seprank.bounds.levine2020.e_bounds`);
* wies2021 eq. (9)/(11) with r = s, r_e = 0 (:func:`seprank.bounds.wies2021.thm3_bound`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import prod

import numpy as np

from seprank.bounds.levine2020 import (
    compare_e_monomials,
    e_bounds,
    thm2_upper_pow3,
    thm4_bound,
    thm6_bound,
)
from seprank.bounds.wies2021 import thm3_bound as wies_thm3_bound
from seprank.constructions.monomial_chain import exponents_by_layer, shift_schedule

__all__ = [
    "family_seps_by_layer",
    "padded_network",
    "exceeds_thm2_upper",
    "first_exceeding",
    "BOUNDS",
]


def _exponents_by_layer(s: int, L_max: int) -> Iterator[list[Counter]]:
    return exponents_by_layer(s, shift_schedule(s, L_max))


def family_seps_by_layer(s: int, L_max: int) -> list[list[int]]:
    """For L = 1..L_max, the list over p of prod(e_bc + 1) for y_p (shift schedule of width s).

    Examples
    --------
    >>> family_seps_by_layer(2, 2)   # L = 1: x_p S_pp; L = 2: x_1 S_00^2 S_01 S_11: 3*2*2
    [[2, 2], [12, 12]]
    """
    return [[prod(v + 1 for v in e.values()) for e in g]
            for g in _exponents_by_layer(s, L_max)]


def padded_network(s: int, L: int):
    """The padded variant (module docstring): d_x = 2s, H = s, d_a = 2, one dimension used.

    Examples
    --------
    >>> net = padded_network(2, 1)
    >>> X = [[1, 2, 5, 7], [3, 1, -1, 2]]     # S_00 = 10, S_11 = 5 on the first 2 channels
    >>> net.evaluate([X], "ZZ")[0, 0].tolist()
    [10, 10, 0, 0]
    """
    from seprank.models import SelfAttentionNetwork

    d_x = 2 * s
    W = {k: np.zeros((L, s, 2, d_x) if k != "O" else (L, s, d_x, 2), dtype=object)
         for k in "QKVO"}
    for layer, pairs in enumerate(shift_schedule(s, L)):
        for a, (b, c) in enumerate(pairs):
            W["Q"][layer, a, 0, a] = 1
            W["K"][layer, a, 0, c] = 1
            W["V"][layer, a, 0, b] = 1
            W["O"][layer, a, a, 0] = 1
    return SelfAttentionNetwork(L, d_x, s, 2, weights=W)


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


def _thm4(sep: int, L: int, d_x: int) -> bool:
    return sep > thm4_bound(L, d_x)


def _thm6(sep: int, L: int, d_x: int) -> bool:
    return sep > thm6_bound(L, d_x)


def _wies9(sep: int, L: int, d_x: int) -> bool:
    return sep > wies_thm3_bound(L, d_x, 0)


def _thm2(sep: int, L: int, d_x: int) -> bool:
    return 3 ** L > d_x and exceeds_thm2_upper(sep, L, d_x) is True


#: name -> (sep, L, d_x) -> True when sep exceeds the bound (exactly)
BOUNDS: dict[str, Callable[[int, int, int], bool]] = {
    "levine2020 eq. (19)": _thm4, "levine2020 eq. (20)": _thm6,
    "levine2020 eq. (8) upper": _thm2, "wies2021 eq. (9)/(11), r_e = 0": _wies9}


def first_exceeding(bound: str, s: int, L_max: int, padded: bool = False) -> dict | None:
    """The least L <= L_max where some y_p of the width-s family exceeds ``bound`` (exact).

    ``bound`` is a key of :data:`BOUNDS`; ``padded``: compare at d_x = 2s (H = s,
    d_a = 2) instead of d_x = s. Returns L, d_x, H, d_a, p (1-based), sep and the
    exponents, or None.

    Examples
    --------
    >>> first_exceeding("levine2020 eq. (19)", 4, 12)["L"]
    12
    >>> first_exceeding("levine2020 eq. (19)", 3, 20) is None
    True
    """
    d_x = 2 * s if padded else s
    for L, g in enumerate(_exponents_by_layer(s, L_max), start=1):
        seps = [prod(v + 1 for v in e.values()) for e in g]
        p = max(range(s), key=lambda k: seps[k])
        if BOUNDS[bound](seps[p], L, d_x):
            return {"L": L, "d_x": d_x, "H": s, "d_a": d_x // s, "s": s, "p": p + 1,
                    "sep": seps[p], "exponents": {f"S_{b + 1}{c + 1}": v
                                                  for (b, c), v in sorted(g[p].items())}}
    return None
