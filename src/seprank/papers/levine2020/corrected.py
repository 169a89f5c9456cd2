"""levine2020's Theorem 2 and its corollaries against the corrected bounds, exactly.

The corrected bounds are generic (:mod:`seprank.network_theory.corrected_bounds`:
sep <= C(C(L) + D, D), D = d_x(d_x+1)/2, and the one-hot family's log_3 sep >=
D (L - floor(d_x/2) - d_x)); this module holds levine2020's side of the comparison, for
the check ``L-Thm2-corrected``:

* eq. (8)'s upper bound 2 d_x L + c_1 + c_2 (sec 4.2 l.154-156) against both: the rates
  2 d_x + 1 and D, the widths where eq. (8) holds at every L, and the depth from which
  the family's proven lower bound exceeds it (:func:`eq8_small_width_holds`,
  :func:`eq8_refuted_from`);
* eq. (8)'s lower bound d_x L/2 + b_1 + b_2, b_1 = -L (H/2 + 1) (l.156), against the
  one-hot family on H channels: the rates (d_x - H - 2)/2 and D_H = H(H + 1)/2, and for
  each (d_x, H) whose family rate is at least eq. (8)'s the decision at every L of
  Theorem 2's regime, with certified margins (:func:`eq8_lower_rate_gap_twice`,
  :func:`eq8_lower_by_family`);
* the depth where the paper puts the transition (L = log_3 d_x, l.120) against where the
  corrected upper bound bends (3^L = d_x^2 + d_x + 1) (:func:`regime_row`);
* Corollary 1 (l.140-144) with the corrected bound for the shallow network
  (:func:`cor1_width_factors`) and Corollary 2 (l.164-170) redone with the corrected
  upper bound of the deep network, as printed in shape (depth log_3 d_x + beta_2, width
  3^beta_2 d_x = 3^(L_s), one head: an odd width, where B.2's rank is proven)
  (:func:`cor2_odd_width`; :func:`cor2_corrected` keeps the earlier variant of width
  3^(L_s+1) + 1 for comparison);
* the figure's printed curve (:func:`eq8_log3`; the corrected curves and the drawing are
  :func:`seprank.network_theory.corrected_bounds.figure_series` and ``draw_figure``).

Every comparison is exact (integers, Fractions, e by its certified rational enclosure);
floats appear only in the figure's series.
"""

from __future__ import annotations

from fractions import Fraction

from seprank.combinatorics import num_head_indices
from seprank.network_theory.corrected_bounds import (
    corrected_upper,
    family_log3_lower,
    moment_boundary,
    moment_entries,
)
from seprank.network_theory.one_hot import family_seps_by_layer
from seprank.papers.levine2020.bounds import (
    thm1_lower_pow3,
    thm2_lower_pow3_squared,
    thm2_upper_log3,
    thm2_upper_pow3,
    thm3_bound,
)
from seprank.papers.levine2020.lemma_bounds import b2_rank
from seprank.scalars.enclosures import (
    arb_le,
    arb_of,
    compare_e_monomials,
    e_bounds,
    int_at_least,
    log3,
)

__all__ = [
    "eq8_rate_gap_twice",
    "eq8_small_width_holds",
    "eq8_refuted_from",
    "eq8_lower_rate_gap_twice",
    "eq8_lower_by_family",
    "regime_row",
    "cor1_width_factors",
    "deep_upper",
    "cor2_corrected",
    "cor2_odd_width",
    "cor2_shallower_from",
    "eq8_log3",
    "least_root",
]


def eq8_rate_gap_twice(d_x: int) -> int:
    """2 (D - (2 d_x + 1)) = d_x^2 - 3 d_x - 2: the corrected rate minus eq. (8)'s, doubled.

    Positive exactly for d_x >= 4 (roots (3 +- sqrt 17)/2, 3.56 < 4).

    Examples
    --------
    >>> [eq8_rate_gap_twice(d) for d in (1, 2, 3, 4, 8)]
    [-4, -4, -2, 2, 38]
    """
    d_x = int_at_least("d_x", d_x, 1)
    return 2 * moment_entries(d_x) - 2 * (2 * d_x + 1)


def eq8_small_width_holds(L: int, d_x: int) -> bool | None:
    """Whether C(C(L) + D, D) <= 3^(2 d_x L + c_1 + c_2) (eq. (8)), exactly (None: undecided).

    Examples
    --------
    >>> eq8_small_width_holds(5, 3), eq8_small_width_holds(40, 4)
    (True, False)
    """
    return compare_e_monomials((Fraction(corrected_upper(L, d_x)), 0), thm2_upper_pow3(L, d_x),
                               e_bounds(20))


def _family_beats_eq8(L: int, d_x: int) -> bool:
    """3^(family's proven lower bound) > 3^(eq. (8) upper), exactly."""
    low = Fraction(3) ** family_log3_lower(d_x, L)
    return compare_e_monomials((low, 0), thm2_upper_pow3(L, d_x), e_bounds(20)) is False


def eq8_refuted_from(d_x: int, L_max: int = 10_000) -> int | None:
    """The least L from which the family's *proven* bound D (L - floor(d_x/2) - d_x) exceeds
    eq. (8)'s upper bound at H = d_x (exactly), for d_x >= 4; None for d_x <= 3.

    Past it the gap grows by (D - 2 d_x - 1) >= 1 per layer (in log_3), so it exceeds
    at every larger L too. (The exact family values exceed eq. (8) earlier:
    :func:`seprank.network_theory.one_hot.first_exceeding`.)

    Examples
    --------
    >>> eq8_refuted_from(3) is None, eq8_refuted_from(4), eq8_refuted_from(8)
    (True, 63, 23)
    """
    d_x = int_at_least("d_x", d_x, 1)
    if eq8_rate_gap_twice(d_x) <= 0:
        return None
    lo, hi = 1, 1
    while not _family_beats_eq8(hi, d_x):
        lo, hi = hi, 2 * hi
        if hi > L_max:
            return None
    while lo < hi:  # monotone in L: the gap grows with L
        mid = (lo + hi) // 2
        if _family_beats_eq8(mid, d_x):
            hi = mid
        else:
            lo = mid + 1
    return hi


def eq8_lower_rate_gap_twice(d_x: int, H: int) -> int:
    """2 D_H - (d_x - H - 2) = H^2 + 2 H + 2 - d_x: the family's rate minus eq. (8)'s lower
    rate (d_x/2 - H/2 - 1 per layer, b_1 = -L (H/2 + 1) of l.156 included), doubled.

    Non-negative exactly when (H + 1)^2 + 1 >= d_x. Without b_1 the comparison would be
    H (H + 1) against d_x, which differs at (d_x, H) = (4, 1), (8, 2), (12, 3).

    Examples
    --------
    >>> [eq8_lower_rate_gap_twice(d, h) for d, h in ((4, 1), (8, 2), (12, 3), (12, 2))]
    [1, 2, 5, -2]
    """
    d_x, H = int_at_least("d_x", d_x, 2), int_at_least("H", H, 1)
    return 2 * moment_entries(H) - (d_x - H - 2)


def _margin(ratio_sq: Fraction) -> str:
    """log_3 of a squared ratio, halved, as a certified interval (arb ball)."""
    return str(log3(ratio_sq) / 2)


def eq8_lower_by_family(d_x: int, H: int, L_exact_max: int = 120) -> dict:
    """Whether eq. (8)'s lower bound holds at every L with 3^L > d_x, by the one-hot family.

    For 1 <= H < d_x, H | d_x, the family on H channels (L-Thm2-corrected) has, for almost
    every weight and |I|, |J| >= H, sep >= F(L) (its exact value, the largest over the
    channels: a permutation of the coordinates puts any output there) and log_3 sep > D_H
    (L - floor(H/2) - H) for L >= floor(H/2) + H. Going up from the first L of the regime:
    at each L the exact value is compared with 3^(lower) (squared: exact Fractions,
    :func:`seprank.papers.levine2020.bounds.thm2_lower_pow3_squared`); once the floor
    reaches it, it does so at every larger L, since floor minus lower grows by
    :func:`eq8_lower_rate_gap_twice` / 2 >= 0 per layer. ``decided`` is True when that
    happens with no exact value falling short on the way; ``margins`` are the certified
    log_3 (value / 3^lower) per L (interval balls), ``smallest_margin`` the least of them
    and of the floor's margin at ``floor_from_L`` (beyond it margins only grow).

    Examples
    --------
    >>> row = eq8_lower_by_family(8, 2)
    >>> row["decided"], row["regime_from_L"], row["floor_from_L"]
    (True, 2, 3)
    >>> eq8_lower_by_family(12, 2)["decided"], eq8_lower_by_family(12, 2)["why"][:24]
    (False, "the family's rate D_H = ")
    """
    d_x, H = int_at_least("d_x", d_x, 2), int_at_least("H", H, 1)
    if d_x % H or H >= d_x:
        raise ValueError(f"eq. (8)'s lower bound needs H a proper divisor of d_x, got "
                         f"d_x = {d_x}, H = {H}")
    gap, D_H, f = eq8_lower_rate_gap_twice(d_x, H), moment_entries(H), H // 2 + H
    start = 1
    while 3 ** start <= d_x:
        start += 1
    out = {"d_x": d_x, "H": H, "D_H": D_H, "eq8_lower_rate": str(Fraction(d_x - H - 2, 2)),
           "rate_gap_doubled": gap, "regime_from_L": start}
    if gap < 0:
        return out | {"decided": False,
                      "why": f"the family's rate D_H = {D_H} is below eq. (8)'s lower rate "
                             f"{Fraction(d_x - H - 2, 2)}: no bound of the family's rate "
                             "reaches it at every L"}
    seps, margins = family_seps_by_layer(H, max(start, f) + 1), []
    for L in range(start, L_exact_max + 1):
        target_sq = thm2_lower_pow3_squared(L, d_x, H)
        if L >= f:
            floor_sq = Fraction(3) ** (2 * D_H * (L - f))
            if floor_sq >= target_sq:
                smallest = min(margins + [(_margin(floor_sq / target_sq), L, "floor")],
                               key=lambda m: _mid(m[0]))
                return out | {"decided": True, "floor_from_L": L,
                              "exact_values_at_L": [m[1] for m in margins],
                              "margins": [{"L": m[1], "log3_margin": m[0], "by": m[2]}
                                          for m in margins]
                              + [{"L": L, "log3_margin": _margin(floor_sq / target_sq),
                                  "by": "floor"}],
                              "smallest_margin": {"L": smallest[1], "log3": smallest[0],
                                                  "by": smallest[2]}}
        if L > len(seps):
            seps = family_seps_by_layer(H, 2 * L)
        value = max(seps[L - 1])
        if value * value < target_sq:
            return out | {"decided": False, "why": f"the family's exact value at L = {L} is "
                                                   "below 3^(lower)", "at_L": L}
        margins.append((_margin(Fraction(value * value) / target_sq), L, "exact value"))
    return out | {"decided": False, "why": f"the floor does not reach it by L = {L_exact_max}"}


def _mid(ball: str) -> float:
    """The midpoint of an arb ball written as '[m +/- r]' (for choosing the smallest)."""
    return float(ball.strip("[]").split("+/-")[0])


def regime_row(d_x: int) -> dict:
    """Theorem 2's regime start (least L with 3^L > d_x) against the corrected bend
    (least L with 3^L >= d_x^2 + d_x + 1, i.e. C(L) >= D), with rigorous logs.

    Examples
    --------
    >>> row = regime_row(8)
    >>> row["paper_L_start"], row["corrected_L_bend"], row["threshold_3^L"]
    (2, 4, 73)
    """
    b = moment_boundary(d_x)
    paper = 1
    while 3 ** paper <= d_x:
        paper += 1
    return {"d_x": d_x, "D": b["D"], "paper_L_start": paper,
            "corrected_L_bend": b["least_L_with_C(L)>=D"], "threshold_3^L": b["threshold_3^L"],
            "log3_d_x": f"{float(log3(d_x).mid()):.4f}",
            "log3_threshold": f"{float(log3(b['threshold_3^L']).mid()):.4f}",
            "2_log3_d_x": f"{2 * float(log3(d_x).mid()):.4f}"}


def least_root(target: int | Fraction, C: int) -> int:
    """The least integer X >= 1 with X^C >= target (exact; integer Newton iteration).

    The one home of this root for the levine2020 checks (L-Cor1, L-Cor2 and the least
    sizes of :mod:`seprank.papers.levine2020.least_sizes`). ``target``: an int or a
    Fraction (X^C >= target iff X^C >= ceil(target)); ``C >= 1``.

    Examples
    --------
    >>> least_root(27, 3), least_root(28, 3), least_root(Fraction(1, 2), 5)
    (3, 4, 1)
    """
    t = -(-Fraction(target).numerator // Fraction(target).denominator)
    if t <= 1:
        return 1
    x = 1 << (-(-t.bit_length() // C))  # x^C >= t
    while True:
        y = ((C - 1) * x + t // x ** (C - 1)) // C
        if y >= x:
            break
        x = y
    return x if x ** C >= t else x + 1  # x = floor(t^(1/C)) here


def cor1_width_factors(L: int, d: int, d_x: int, H: int) -> dict:
    """Corollary 1's necessary width factor, from Theorem 3 alone and with the corrected bound.

    The deep network (L, d_x, H) has Theorem 1's lower bound (d/lambda)^lambda; a
    network of depth L/d and width w d_x can equal it only if its upper bound reaches
    it. w_thm3: least w with (w d_x + H)^C(L/d) >= it; w_corrected: least w with
    min(that, C(C(L/d) + D_w, D_w)) >= it, D_w = w d_x (w d_x + 1)/2. The corrected
    bound can only raise w; they agree when C(C + D_w, D_w) >= the target at w_thm3.

    Examples
    --------
    >>> row = cor1_width_factors(4, 2, 2 * 3 ** 4 + 2, 2)
    >>> row["w_thm3"] == row["w_corrected"]
    True
    """
    base, lam = thm1_lower_pow3(L, d_x, H)
    lam = int(lam)
    target = -(-base.numerator ** lam // base.denominator ** lam)  # ceil((d/lambda)^lambda)
    Ls = L // d
    C = num_head_indices(Ls)
    w = max(1, -(-(least_root(target, C) - H) // d_x))
    same = corrected_upper(Ls, w * d_x) >= target
    return {"L_deep": L, "d": d, "L_shallow": Ls, "d_x_deep": d_x, "H": H,
            "w_thm3": w if w < 10 ** 12 else f"~3^{float(log3(w).mid()):.6g}",
            "w_corrected": (w if w < 10 ** 12 else f"~3^{float(log3(w).mid()):.6g}")
            if same else "larger", "corrected_bound_reaches_target_at_w_thm3": same}


def _shallow_lower(L_s: int) -> Fraction:
    """3^(Theorem 1 lower bound) at depth L_s, width 3^(L_s+1) + 1, H = 1: (27/2)^(3^(L_s-2))."""
    base, lam = thm1_lower_pow3(L_s, 3 ** (L_s + 1) + 1, 1)
    return base ** int(lam)


def _least_shallow(beats) -> int:
    L_s = 2
    while not beats(_shallow_lower(L_s)):
        L_s += 1
    return L_s


def deep_upper(L: int, d_x: int, H: int) -> int:
    """min(Theorem 3's (H (d_a + 1))^C(L), C(C(L) + D, D)), exactly, d_a = d_x / H.

    Theorem 3's power is formed only when its size does not certainly exceed the
    corrected bound (C(L) (bits(H (d_a + 1)) - 1) >= bits(C(C + D, D)) decides it).

    Examples
    --------
    >>> deep_upper(1, 4, 1), deep_upper(8, 2, 1)    # Thm 3 at L = 1; C(C + 3, 3) at L = 8
    (5, 5892023081)
    """
    corrected = corrected_upper(L, d_x)
    base = H * (d_x // H + 1)
    if num_head_indices(L) * (base.bit_length() - 1) >= corrected.bit_length():
        return corrected
    return min(corrected, thm3_bound(L, H, d_x // H))


def cor2_corrected(L: int, d_x: int, H: int) -> dict:
    """Corollary 2 redone: the least depth L_s of a shallow network (width d_s = 3^(L_s+1) + 1,
    one head, inside Theorem 1's regime) whose Theorem 1 lower bound (27/2)^(3^(L_s-2))
    exceeds the deep network's upper bound: the corrected min(Thm 3, C(C + D, D)) and,
    for comparison, eq. (8) as printed. Conditional on Theorem 1's lower bound.

    Examples
    --------
    >>> row = cor2_corrected(12, 27, 3)
    >>> row["L_shallow_corrected"] >= row["L_shallow_printed"], row["shallower_corrected"]
    (True, True)
    """
    upper = deep_upper(L, d_x, H)
    q, m = thm2_upper_pow3(L, d_x)
    Lc = _least_shallow(lambda low: low > upper)
    Lp = _least_shallow(lambda low: compare_e_monomials((q, m), (low, 0), e_bounds(20))
                        is True and low != q)
    dc, dp = 3 ** (Lc + 1) + 1, 3 ** (Lp + 1) + 1
    return {"L_deep": L, "d_x_deep": d_x, "H": H, "D": moment_entries(d_x),
            "L_shallow_corrected": Lc, "d_x_shallow_corrected": dc,
            "width_factor_corrected": f"{dc / d_x:.4g}",
            "d_s_over_(d_x^2 L)": f"{dc / (d_x * d_x * L):.4g}",
            "shallower_corrected": Lc < L,
            "L_shallow_printed": Lp, "width_factor_printed": f"{dp / d_x:.4g}",
            "d_s_over_(d_x L)_printed": f"{dp / (d_x * L):.4g}"}


def _four_beats(lam: int, exponent: int) -> bool:
    """4^lam > 3^exponent, exactly (bit lengths first, the powers only when they are close)."""
    three = 3 ** exponent
    if 2 * lam >= three.bit_length():
        return True
    if 2 * lam < three.bit_length() - 1:
        return False
    return 4 ** lam > three


def cor2_odd_width(L: int, d_x: int, H: int = 1) -> dict:
    """Corollary 2 in its printed shape with an odd shallow width, for a deep (L, d_x, H).

    The shallow network has depth L_s, width 3^(L_s) (= 3^beta_2 d_x with beta_2 = L_s -
    log_3 d_x, the printed shape) and one head, so d_a = 3^(L_s) is odd and B.2's rank
    ((d, lambda)), d = (3^(L_s) - 1)/2, lambda = 3^(L_s - 2), holds for almost every weight
    (no appeal to Theorem 1's open cases). Since d/lambda = 9/2 - 1/(2 lambda) >= 4, its
    sep >= 4^lambda; the deep network's sep <= C(C + D, D) < 3^(D L) for every weight
    (L-Thm2-corrected). ``L_s`` is the least L_s >= 2 with 4^(3^(L_s - 2)) > 3^(D L) (exact
    integers); ``L_s_exact`` the least with ((d, lambda)) > min(Thm 3, C(C + D, D)) itself.

    Examples
    --------
    >>> row = cor2_odd_width(12, 27, 3)
    >>> row["L_s"], row["width"] == 3 ** row["L_s"], row["shallower"]
    (10, True, True)
    >>> row["L_s_exact"] <= row["L_s"], row["beta_2_within_bound"]
    (True, True)
    """
    D = moment_entries(d_x)
    L_s = 2
    while not _four_beats(3 ** (L_s - 2), D * L):
        L_s += 1
    upper = deep_upper(L, d_x, H)
    exact = 2
    while b2_rank(exact, 3 ** exact, 1) <= upper:
        exact += 1
    beta2 = arb_of(L_s) - log3(d_x)
    bound = 3 + log3(Fraction((d_x + 1) * L, 2)) - log3(log3(4))
    return {"L_deep": L, "d_x_deep": d_x, "H": H, "D": D, "L_s": L_s, "width": 3 ** L_s,
            "beta_2": str(beta2), "beta_2_bound_3+log3((d_x+1)L/(2 log3 4))": str(bound),
            "beta_2_within_bound": arb_le(beta2, bound) is True,
            "width_over_d_x^2_L": f"{3 ** L_s / (d_x * d_x * L):.4g}",
            "shallower": L_s < L, "L_s_exact": exact}


def cor2_shallower_from(d_x: int, L_max: int = 200) -> int | None:
    """The least deep depth L (in Theorem 2's regime) from which :func:`cor2_odd_width`'s
    shallow depth L_s is below L, for every larger L (L_s grows by at most 1 per layer).

    Examples
    --------
    >>> cor2_shallower_from(3), cor2_shallower_from(27)
    (7, 11)
    """
    D = moment_entries(d_x)
    start = 1
    while 3 ** start <= d_x:
        start += 1
    for L in range(start, L_max + 1):
        # L_s < L iff 4^(3^(L - 3)) > 3^(D L) (L_s is the least with 4^(3^(L_s-2)) > 3^(DL))
        if L >= 3 and _four_beats(3 ** (L - 3), D * L):
            return L
    return None


def eq8_log3(L: int, d_x: int) -> float | None:
    """eq. (8)'s upper bound 2 d_x L + c_1 + c_2 as a float (for the figure), None outside
    Theorem 2's regime 3^L > d_x.

    Examples
    --------
    >>> eq8_log3(1, 3) is None, round(eq8_log3(1, 1), 3)       # log_3(216 e)
    (True, 5.803)
    """
    return float(thm2_upper_log3(L, d_x).mid()) if 3 ** L > d_x else None
