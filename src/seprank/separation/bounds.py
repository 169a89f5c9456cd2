"""The paper bounds that apply to a network's shape, beside a computed separation rank.

One function, :func:`network_bounds`, called by every route's result (and the
proof checks). The core never imports a paper: the bounds come from the paper
wings through :func:`seprank.paper_hooks.network_bounds` (today levine2020's
Theorems 1-6; see :mod:`seprank.papers.levine2020.hooks`). :func:`binding_seq_len` and
:func:`binding_evidence` size and report the instances at which a bound can be reached
(used by :mod:`seprank.papers.levine2020.binding`).
"""

from __future__ import annotations

from fractions import Fraction

from seprank.separation.monomials import size_cap

__all__ = ["network_bounds", "binding_seq_len", "binding_evidence"]


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


def binding_seq_len(L: int, d_x: int, bound, *, residual: bool = False, N_max: int = 64,
                    bound_of_N=None) -> int | None:
    """The smallest even N <= N_max at which the size cap of the balanced partition (I = the
    first N/2 positions, output at position 0) reaches ``bound`` (or ``bound_of_N(N)``), i.e.
    the first size at which the bound, not the size, limits the rank; None if none.

    >>> binding_seq_len(1, 1, 2), binding_seq_len(2, 2, 81)   # caps 2 (N = 2), 210 (N = 6)
    (2, 6)
    """
    for N in range(2, N_max + 1, 2):
        b = bound if bound_of_N is None else bound_of_N(N)
        if size_cap(L, d_x, N, tuple(range(N // 2)), 0, residual) >= b:
            return N
    return None


def binding_evidence(result, bound, name: str, **extra) -> dict:
    """One evidence row of a bound check: the instance, the rank with its kind, the bound,
    rank/bound, the size cap and ``binding`` (size cap >= bound: the instance is large
    enough for the bound to be reached or exceeded), and ``violates`` (a certified lower
    bound above the bound) / ``respects`` (an exact value or certified upper bound <= bound).

    >>> from seprank.separation import separation_rank
    >>> r = separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"})
    >>> row = binding_evidence(r, 2, "thm3")
    >>> row["binding"], row["ratio"], row["respects"], row["violates"]
    (True, '1 ~ 1', True, False)
    """
    n = result.network
    cap = size_cap(n["L"], n["d_x"], result.seq_len, tuple(result.partition["I"]),
                   result.position, result.residual)
    ratio = Fraction(result.value) / Fraction(bound)
    return {"L": n["L"], "d_x": n["d_x"], "H": n["H"], "d_a": n["d_a"], "N": result.seq_len,
            "I": result.partition["I"], "position": result.position,
            "residual": result.residual, **extra, "rank": result.value, "kind": result.kind,
            "certified_upper": result.upper_bound, "route": result.route,
            name: str(bound), "ratio": f"{ratio} ~ {float(ratio):.4g}", "size_cap": cap,
            "binding": cap >= bound, "violates": result.value > bound,
            "respects": result.upper_bound <= bound}
