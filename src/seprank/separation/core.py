"""Helpers of the bound checks beside the separation front door, and the old import paths.

:func:`binding_seq_len` and :func:`binding_evidence` size and report the
instances at which a paper bound can be reached (used by
:mod:`seprank.separation.checks`); :func:`parameter_count` and :func:`feasible`
serve the sweeps. The front door itself is :mod:`seprank.separation.frontdoor`
(``separation_rank``), :mod:`seprank.separation.planner` (``plan_separation``) and
the routes (:mod:`seprank.separation.routes`); their names are re-exported here so
that ``from seprank.separation.core import separation_rank`` keeps working.
"""

from __future__ import annotations

from fractions import Fraction

from seprank.separation.bounds import network_bounds
from seprank.separation.coefficient import AUTO_COEFFICIENT_MAX_TERMS, AUTO_FALLBACK_MAX_TERMS
from seprank.separation.frontdoor import separation_rank
from seprank.separation.gridroute import DEFAULT_GRID_PRIME
from seprank.separation.monomials import monomial_count, size_cap
from seprank.separation.result import SeparationRankResult

__all__ = ["separation_rank", "SeparationRankResult", "network_bounds",
           "AUTO_COEFFICIENT_MAX_TERMS", "AUTO_FALLBACK_MAX_TERMS", "DEFAULT_GRID_PRIME",
           "binding_seq_len", "binding_evidence", "parameter_count", "feasible"]


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


def binding_evidence(result: SeparationRankResult, bound, name: str, **extra) -> dict:
    """One evidence row of a bound check: the instance, the rank with its kind, the bound,
    rank/bound, the size cap and ``binding`` (size cap >= bound: the instance is large
    enough for the bound to be reached or exceeded), and ``violates`` (a certified lower
    bound above the bound) / ``respects`` (an exact value or certified upper bound <= bound).

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


def parameter_count(L: int, d_x: int, H: int, d_a: int | None = None) -> int:
    """Number of weights: 4 L H d_a d_x (levine2020 l.81: 4LH matrices of d_a x d_x entries).

    >>> parameter_count(2, 4, 2)   # 4 * 2 * 2 * 2 * 4
    128
    """
    d_a = d_x // H if d_a is None else d_a
    return 4 * L * H * d_a * d_x


#: Largest grid block (points per side) and coefficient expansion (possible monomials)
#: that :func:`feasible` accepts: a 3060-point block is about 10^8 evaluations and a
#: 3060 x 3060 rank mod p, tens of seconds on 2 cores.
FEASIBLE_GRID_POINTS = 3100
#: residual networks go by coefficients: L = 2, d_x = 5 (92378 possible monomials) took
#: 32 s, d_x = 6 (293930) several minutes on 2 shared cores
FEASIBLE_TERMS = 100_000


def feasible(L: int, d_x: int, N: int = 2, residual: bool = False) -> str | None:
    """None when an exact (or certified) answer is expected in well under a few minutes on
    2 cores, else why not (for sweeps that leave such points out).

    >>> feasible(3, 4), feasible(3, 8) is None
    (None, False)
    """
    D = 3 ** L
    n = (N // 2) * d_x
    terms = monomial_count(N * d_x, D, up_to=residual)
    if residual:
        return None if terms <= FEASIBLE_TERMS else (
            f"residual: {terms} possible monomials > {FEASIBLE_TERMS}")
    block = max(min(monomial_count(n, k), monomial_count(N * d_x - n, D - k))
                for k in range(1, D + 1, 2))
    if block <= FEASIBLE_GRID_POINTS:
        return None
    return f"grid block of {block} points > {FEASIBLE_GRID_POINTS}"
