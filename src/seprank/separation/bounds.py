"""The paper bounds that apply to a network's shape, beside a computed separation rank.

One function, :func:`network_bounds`, called by every route's result (and the
proof checks). The core never imports a paper: the bounds come from the paper
wings through :func:`seprank.paper_hooks.network_bounds` (today levine2020's
Theorems 1-6; see :mod:`seprank.papers.levine2020.hooks`).
"""

from __future__ import annotations

__all__ = ["network_bounds"]


def network_bounds(L: int, d_x: int, H: int, d_a: int, N: int, residual: bool,
                   value: int | None = None) -> dict:
    """The papers' bounds that apply to this network shape, with whether ``value`` respects
    them (None: not decided, or no value).

    Asked of the registered paper wings (:func:`seprank.paper_hooks.network_bounds`);
    today levine2020's: without residual connections Theorem 3 (any d_a), Theorem 4,
    and with d_a = d_x / H Theorem 1 (3^L < d_x) or Theorem 2 (3^L > d_x) through their
    log_3 forms (arb balls; a comparison the ball cannot decide gives None); with
    residual connections Theorem 5 as printed and Theorem 6. Theorems 1 and 2's lower
    bounds hold for almost all weights, not for every integer draw.

    >>> b = network_bounds(1, 2, 1, 2, 2, False, value=3)
    >>> b["L-Thm3"]["value"], b["L-Thm3"]["respected"]   # (1 (2 + 1))^1
    (3, True)
    """
    from seprank.paper_hooks import network_bounds as from_wings

    return from_wings(L, d_x, H, d_a, N, residual, value)
