"""Where levine2020's false upper bounds can first fail: proven limits and the one-hot class.

Theorem 4 (eq. (19), A.3 l.428-432), Theorem 6 (A.4 l.524-528) and the upper bound of
Theorem 2 (eq. (8), sec 4.2 l.154-156) are false (checks L-Thm4, L-Thm6, L-Thm2): a
one-hot schedule exceeds each at some (d_x, L). This module says how small a failing
size can be, exactly, so that a check can tell a *least* failing size from a *least
found* one (issue 21):

* **no network fails** at (L, d_x) when the proven upper bound (the block form of
  :func:`seprank.network_theory.corrected_bounds.block_upper`, which holds for every
  weight, N and partition; check L-Thm2-corrected) is <= the printed bound
  (:func:`block_never_exceeds`). For eq. (19) and Theorem 6 at a fixed L this is decided
  for every d_x: exactly below :func:`block_tail_width`, by an argument above it;
  eq. (8) lives in the regime d_x < 3^L, a finite range;
* **no one-hot schedule fails** when the ceiling of every schedule
  (:func:`seprank.network_theory.one_hot.one_hot_ceiling`) is <= the bound
  (:func:`one_hot_never_exceeds`; for d_x >= C(L) the ceiling is 2^C(L) <= 3^C(L) <= the
  bound);
* :func:`least_depth_row` puts these limits beside the first depth at which the shift
  schedule exceeds the bound, per width.

The tail argument (eq. (19); Theorem 6 alike). With k = floor(C/2) and s = 1 for the
residual network (else 0), every block of the block form is at most d_x ((k, D + s)):
for g <= k the J-side count ((g, D)) <= ((k, D)), for g > k the I-side count
d_x ((C - g, D + s)) has C - g <= k. So block <= (C + 1) d_x ((k, D + s)) <=
(C + 1) d_x (2 d_x^2)^k / k! once d_x^2 >= k (k + D + s <= 2 d_x^2, D + 1 <= d_x^2 for
d_x >= 2). The printed bound is >= (C + 1)^(1+s) d_x ((d_x, 2C)) >= (C + 1) d_x
d_x^(2C)/(2C)! (each factor (d_x - 1 + t)/t of ((d_x, 2C)) is >= d_x/t). So block <= bound
when d_x^(2C - 2k) >= 2^k (2C)!/k!; :func:`block_tail_width` is the least such d_x (and at
least sqrt(k), 2).
"""

from __future__ import annotations

from collections.abc import Callable
from math import factorial, isqrt

from seprank.combinatorics import num_head_indices
from seprank.network_theory.corrected_bounds import block_upper, moment_entries
from seprank.network_theory.one_hot import first_exceeding, one_hot_ceiling
from seprank.papers.levine2020.corrected import least_root
from seprank.papers.levine2020.counterexample import (
    exceeds_eq8_upper,
    exceeds_eq19,
    exceeds_eq20,
)

__all__ = ["BOUNDS", "block_tail_width", "block_never_exceeds", "one_hot_never_exceeds",
           "least_depth_row"]

#: the printed bounds: name -> (exceeds(sep, L, d_x), residual network?)
BOUNDS: dict[str, tuple[Callable[[int, int, int], bool], bool]] = {
    "eq. (19)": (exceeds_eq19, False),
    "Theorem 6": (exceeds_eq20, True),
    "eq. (8) upper": (exceeds_eq8_upper, False),
}


def _bound(name: str) -> tuple[Callable[[int, int, int], bool], bool]:
    if name not in BOUNDS:
        raise ValueError(f"unknown bound {name!r}; known: {', '.join(BOUNDS)}")
    return BOUNDS[name]


def block_tail_width(L: int) -> int:
    """The least d_x from which the block form is <= eq. (19) (and Theorem 6's bound) at L.

    The argument is the module docstring's: d_x^(2C - 2k) >= 2^k (2C)!/k!, d_x^2 >= k,
    d_x >= 2, with k = floor(C/2), C = C(L).

    Examples
    --------
    >>> block_tail_width(1), block_tail_width(2)
    (2, 17)
    """
    C = num_head_indices(L)
    k = C // 2
    target = 2 ** k * factorial(2 * C) // factorial(k)
    return max(2, isqrt(k - 1) + 1 if k > 1 else 1, least_root(target, 2 * C - 2 * k))


def _widths(name: str, L: int, tail: int) -> range:
    """The widths an exact check covers: the regime d_x < 3^L for eq. (8), else below the
    tail width."""
    return range(1, 3 ** L) if name == "eq. (8) upper" else range(1, tail)


def block_never_exceeds(name: str, L: int) -> dict:
    """Whether no network of depth L (any width, weights, N, partition) exceeds the bound.

    ``never``: True when the block form is <= the bound at every width (exactly on the
    widths listed, by the tail argument above them), so no failure exists at this L;
    False with ``first_width`` where the block form exceeds it (a failure is then not
    excluded, nor shown).

    Examples
    --------
    >>> block_never_exceeds("eq. (19)", 3)["never"], block_never_exceeds("eq. (19)", 5)["never"]
    (True, False)
    """
    exceeds, residual = _bound(name)
    tail = block_tail_width(L)
    for d_x in _widths(name, L, tail):
        if exceeds(block_upper(L, d_x, moment_entries(d_x), residual), L, d_x):
            return {"L": L, "never": False, "first_width": d_x}
    checked = f"d_x < {3 ** L} (the regime)" if name == "eq. (8) upper" else \
        f"d_x < {tail} exactly, d_x >= {tail} by the tail argument"
    return {"L": L, "never": True, "checked": checked}


def one_hot_never_exceeds(name: str, L: int, max_width: int | None = None) -> dict:
    """Whether no one-hot schedule of depth L (any width) exceeds the bound.

    Exactly for d_x < C(L) (eq. (8): d_x < 3^L); for d_x >= C(L) the ceiling is 2^C and
    the bound is >= (1 + 2C/d_x)^d_x >= 3^C ((1 + x/n)^n increases with n). ``widths``:
    the widths where a schedule could exceed it (the ceiling does), if any.
    ``max_width``: check only d_x <= max_width; ``never`` is then None (undecided) unless
    that covers the whole exact range.

    Examples
    --------
    >>> one_hot_never_exceeds("eq. (19)", 5)["never"]
    True
    >>> one_hot_never_exceeds("eq. (19)", 6)["widths"][:3]
    [7, 8, 9]
    >>> one_hot_never_exceeds("eq. (19)", 6, max_width=8)["widths"]
    [7, 8]
    >>> one_hot_never_exceeds("eq. (19)", 6, max_width=6)["never"] is None
    True
    """
    exceeds, _ = _bound(name)
    C = num_head_indices(L)
    top = 3 ** L if name == "eq. (8) upper" else C
    partial = max_width is not None and max_width < top - 1
    stop = max_width + 1 if partial else top
    widths = [d for d in range(1, stop) if exceeds(one_hot_ceiling(L, d), L, d)]
    if partial:
        return {"L": L, "never": None if not widths else False, "widths": widths,
                "checked": f"d_x <= {max_width} only"}
    return {"L": L, "never": not widths, "widths": widths,
            "checked": f"d_x < {top} exactly" + ("" if name == "eq. (8) upper" else
                                                  f", d_x >= {top}: ceiling 2^C <= 3^C")}


def least_depth_row(name: str, d_x: int, L_max: int) -> dict:
    """Per width: the depths below which nothing (resp. no one-hot schedule) can fail, and
    the first depth where the shift schedule fails, up to ``L_max``.

    ``L_no_network_below``: every L below it has block form <= bound (no failure exists);
    ``L_no_one_hot_below``: likewise for the one-hot ceiling; ``L_shift``: first failing L of
    the shift schedule (None up to L_max). The shift's L is the least failing L at this
    width only when it equals ``L_no_network_below``.

    Examples
    --------
    >>> row = least_depth_row("eq. (19)", 4, 12)
    >>> row["L_no_network_below"], row["L_no_one_hot_below"], row["L_shift"]
    (10, 11, 12)
    """
    exceeds, residual = _bound(name)
    D = moment_entries(d_x)

    def first(value: Callable[[int], int]) -> int | None:
        return next((L for L in range(1, L_max + 1) if exceeds(value(L), L, d_x)), None)

    found = first_exceeding(exceeds, d_x, L_max)
    return {"bound": name, "d_x": d_x,
            "L_no_network_below": first(lambda L: block_upper(L, d_x, D, residual)),
            "L_no_one_hot_below": first(lambda L: one_hot_ceiling(L, d_x)),
            "L_shift": found and found["L"]}
