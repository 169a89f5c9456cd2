"""levine2020's hook for the core: the bounds that apply to a network shape.

Registered in :data:`seprank.papers.levine2020.HOOKS` and called through
:func:`seprank.paper_hooks.network_bounds` (``seprank.separation.network_bounds``,
the ``bounds`` of every separation-rank result). Source:
``levine2020_depth_to_width_self_attention.txt`` (Theorems 1-2, sec. 4 l.126-156;
Theorems 3-6, A.2-A.4 l.380-536). Why: a separation-rank answer is shown beside the
paper's bounds for its shape, without the core importing this wing.
"""

from __future__ import annotations

from fractions import Fraction

from seprank.combinatorics import num_head_indices
from seprank.paper_hooks import bound_entry
from seprank.papers.levine2020 import bounds as lv
from seprank.scalars.enclosures import arb_le, log3

__all__ = ["network_bounds"]

_SRC = "levine2020_depth_to_width_self_attention.txt"


def _respects(value: int | None, bound) -> bool | None:
    return None if value is None else Fraction(value) <= bound


def _balanced_heads(out: dict, L: int, d_x: int, H: int, value: int) -> None:
    """Theorems 1 and 2 (d_a = d_x / H) through their log_3 forms (eq. (7), eq. (8))."""
    lv3 = log3(value)
    if lv.thm1_regime(L, d_x):
        up = lv.thm1_upper_pow3(L, d_x, H)
        out["L-Thm1-upper"] = bound_entry(up, "sep <= (d_x + H)^C(L)",
                                          f"{_SRC} eq. (7) l.130", "upper", value <= up)
        if d_x > H:
            ball = lv.thm1_lower_log3(L, d_x, H)
            out["L-Thm1-lower"] = bound_entry(
                f"3^({ball.str(5)})", "log_3 sep >= 3^(L-2) (log_3(d_x - H) + a) "
                "(almost all weights)", f"{_SRC} eq. (7) l.130", "lower", arb_le(ball, lv3))
    if lv.thm2_regime(L, d_x):
        ball = lv.thm2_upper_log3(L, d_x)
        out["L-Thm2-upper"] = bound_entry(f"3^({ball.str(5)})",
                                          "log_3 sep <= 2 d_x L + c_1 + c_2",
                                          f"{_SRC} eq. (8) l.154", "upper", arb_le(lv3, ball))
        if d_x > H:
            ball = lv.thm2_lower_log3(L, d_x, H)
            out["L-Thm2-lower"] = bound_entry(
                f"3^({ball.str(5)})", "log_3 sep >= d_x L / 2 + b_1 + b_2 "
                "(almost all weights)", f"{_SRC} eq. (8) l.154", "lower", arb_le(ball, lv3))


def network_bounds(L: int, d_x: int, H: int, d_a: int, N: int, residual: bool,
                   value: int | None = None) -> dict:
    """The levine2020 bounds that apply to this network shape, with whether ``value``
    respects them (None: not decided, or no value).

    Without residual connections: Theorem 3 (any d_a), Theorem 4, and with
    d_a = d_x / H Theorem 1 (3^L < d_x) or Theorem 2 (3^L > d_x) through their
    log_3 forms (arb balls; a comparison the ball cannot decide gives None).
    With residual connections: Theorem 5 as printed and Theorem 6. Theorems 1
    and 2's lower bounds hold for almost all weights, not for every integer draw.

    >>> b = network_bounds(1, 2, 1, 2, 2, False, value=3)
    >>> list(b), b["L-Thm3"]["value"], b["L-Thm3"]["respected"]   # 3^1 > d_x: Theorem 2
    (['L-Thm3', 'L-Thm4', 'L-Thm2-upper', 'L-Thm2-lower'], 3, True)
    """
    out: dict[str, dict] = {}
    if not residual:
        b3 = lv.thm3_bound(L, H, d_a)
        out["L-Thm3"] = bound_entry(b3, "sep <= (H (d_a + 1))^C(L)",
                                    f"{_SRC} A.2 eq. (18) l.388", "upper",
                                    None if value is None else value <= b3)
        b4 = lv.thm4_bound(L, d_x)
        out["L-Thm4"] = bound_entry(b4, "sep <= d_x (C+1) ((d_x, 2C)) (2C/d_x + 1)^d_x",
                                    f"{_SRC} A.3 eq. (19) l.432", "upper", _respects(value, b4))
        if d_x % H == 0 and d_a == d_x // H and value is not None and value > 0:
            _balanced_heads(out, L, d_x, H, value)
    else:
        if d_x % H == 0:
            b5 = L ** L * (N * d_x ** 4 // H) ** num_head_indices(L)
            out["L-Thm5"] = bound_entry(b5, "sep <= L^L (N d_x^4 / H)^C(L) (printed)",
                                        f"{_SRC} A.4 l.506", "upper",
                                        None if value is None else value <= b5)
        b6 = lv.thm6_bound(L, d_x)
        out["L-Thm6"] = bound_entry(b6, "sep <= d_x (C+1)^2 ((d_x, 2C)) (2C/d_x + 1)^d_x",
                                    f"{_SRC} A.4 l.528", "upper", _respects(value, b6))
    return out
