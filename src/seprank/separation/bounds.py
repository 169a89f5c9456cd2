"""The paper bounds that apply to a network's shape, beside a computed separation rank.

One function, :func:`network_bounds`, called by every route's result (and the
proof checks): it reads the levine2020 bounds (Theorems 1-6) from
:mod:`seprank.bounds.levine2020`, and is the one place of the separation package
that imports a paper's bounds (the wings of DESIGN.md will register them as a hook).
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["network_bounds"]


def _bound_entry(value, statement, source, kind, holds) -> dict:
    v = value if isinstance(value, int) else str(value)
    return {"value": v, "kind": kind, "statement": statement, "source": source,
            "respected": holds}


def network_bounds(L: int, d_x: int, H: int, d_a: int, N: int, residual: bool,
                   value: int | None = None) -> dict:
    """The levine2020 bounds that apply to this network shape, with whether ``value`` respects
    them (None: not decided, or no value).

    Without residual connections: Theorem 3 (any d_a), Theorem 4, and with
    d_a = d_x / H Theorem 1 (3^L < d_x) or Theorem 2 (3^L > d_x) through their
    log_3 forms (arb balls; a comparison the ball cannot decide gives None).
    With residual connections: Theorem 5 as printed and Theorem 6. Theorems 1
    and 2's lower bounds hold for almost all weights, not for every integer draw.

    >>> b = network_bounds(1, 2, 1, 2, 2, False, value=3)
    >>> b["L-Thm3"]["value"], b["L-Thm3"]["respected"]   # (1 (2 + 1))^1
    (3, True)
    """
    from seprank.bounds import levine2020 as lv
    from seprank.combinatorics import num_head_indices

    out: dict[str, dict] = {}
    src = "levine2020_depth_to_width_self_attention.txt"
    C = num_head_indices(L)

    def le(a, b):
        return None if value is None else a <= b

    if not residual:
        b3 = lv.thm3_bound(L, H, d_a)
        out["L-Thm3"] = _bound_entry(b3, "sep <= (H (d_a + 1))^C(L)", f"{src} A.2 eq. (18) l.388",
                                     "upper", le(value, b3) if value is not None else None)
        b4 = lv.thm4_bound(L, d_x)
        out["L-Thm4"] = _bound_entry(b4, "sep <= d_x (C+1) ((d_x, 2C)) (2C/d_x + 1)^d_x",
                                     f"{src} A.3 eq. (19) l.432", "upper",
                                     None if value is None else Fraction(value) <= b4)
        if d_x % H == 0 and d_a == d_x // H and value is not None and value > 0:
            lv3 = lv.log3(value)
            if lv.thm1_regime(L, d_x):
                up = lv.thm1_upper_pow3(L, d_x, H)
                out["L-Thm1-upper"] = _bound_entry(up, "sep <= (d_x + H)^C(L)",
                                                   f"{src} eq. (7) l.130", "upper", value <= up)
                if d_x > H:
                    ball = lv.thm1_lower_log3(L, d_x, H)
                    out["L-Thm1-lower"] = _bound_entry(
                        f"3^({ball.str(5)})", "log_3 sep >= 3^(L-2) (log_3(d_x - H) + a) "
                        "(almost all weights)", f"{src} eq. (7) l.130", "lower",
                        lv.arb_le(ball, lv3))
            if lv.thm2_regime(L, d_x):
                ball = lv.thm2_upper_log3(L, d_x)
                out["L-Thm2-upper"] = _bound_entry(f"3^({ball.str(5)})",
                                                   "log_3 sep <= 2 d_x L + c_1 + c_2",
                                                   f"{src} eq. (8) l.154", "upper",
                                                   lv.arb_le(lv3, ball))
                if d_x > H:
                    ball = lv.thm2_lower_log3(L, d_x, H)
                    out["L-Thm2-lower"] = _bound_entry(
                        f"3^({ball.str(5)})", "log_3 sep >= d_x L / 2 + b_1 + b_2 "
                        "(almost all weights)", f"{src} eq. (8) l.154", "lower",
                        lv.arb_le(ball, lv3))
    else:
        if d_x % H == 0:
            b5 = L ** L * (N * d_x ** 4 // H) ** C
            out["L-Thm5"] = _bound_entry(b5, "sep <= L^L (N d_x^4 / H)^C(L) (printed)",
                                         f"{src} A.4 l.506", "upper", le(value, b5))
        b6 = lv.thm6_bound(L, d_x)
        out["L-Thm6"] = _bound_entry(b6, "sep <= d_x (C+1)^2 ((d_x, 2C)) (2C/d_x + 1)^d_x",
                                     f"{src} A.4 l.528", "upper",
                                     None if value is None else Fraction(value) <= b6)
    return out
