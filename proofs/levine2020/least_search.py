"""How small a counterexample to a false upper bound can be: proven limits, then a search.

Not a check: L-Thm4 (eq. (19)), L-Thm6 (Theorem 6) and L-Thm2 (eq. (8)'s upper bound)
call :func:`least_steps` after their COUNTEREXAMPLE steps. Two steps:

1. the proven limits (scope ``all-sizes``): the depths at which no network of any width,
   weight, N or partition can exceed the bound (the block form, an upper bound proven for
   all of them in L-Thm2-corrected, is <= it: exactly below a tail width, by the argument
   of :mod:`seprank.papers.levine2020.least_sizes` above it), the depths at which no
   one-hot schedule can (its ceiling is <= the bound), and the least failing width (d_x <= 3
   never fails: the closed forms of the REPAIRED steps, L-Thm2-corrected for eq. (8));
2. the search (scope ``sizes``): simulated annealing over one-hot schedules
   (:func:`seprank.network_theory.one_hot.anneal_schedule`, seeded) at the smallest
   (d_x, L) below the counterexample where a schedule could still fail. Finding nothing
   there is no proof, so the smallest failing depth stays the *least found* unless the
   proven limit meets it.

Permutation weights, repeated heads and other 1-dimensional heads are not searched at
these depths: their exact separation ranks (C(L) >= 121 factors) are out of reach, and the
block form already bounds every weight.
"""

from __future__ import annotations

from seprank.network_theory.one_hot import anneal_schedule
from seprank.papers.levine2020.least_sizes import (
    BOUNDS,
    block_never_exceeds,
    least_depth_row,
    one_hot_never_exceeds,
)

__all__ = ["least_steps"]


def _limits(name: str, found_L: int, max_width: int | None) -> tuple[int, list[dict]]:
    """(the least depth at which a network could fail, the per-depth rows below found_L)."""
    rows, no_network = [], 0
    for L in range(1, found_L):
        block = block_never_exceeds(name, L)
        row = {"L": L, "no_network_fails": block["never"]}
        if block["never"]:
            no_network = L
            row["checked"] = block["checked"]
        else:
            row["block_form_exceeds_from_width"] = block["first_width"]
            hot = one_hot_never_exceeds(name, L, max_width)
            row["no_one_hot_schedule_fails"] = hot["never"]
            row["one_hot_could_fail_at_widths"] = hot["widths"][:12]
            row["one_hot_checked"] = hot["checked"]
        rows.append(row)
    return no_network + 1, rows


def _proven_step(ctx, name: str, found: dict, source: str, widths: range,
                 least_width_proof: str, max_width: int | None) -> int:
    found_L, found_dx = found["L"], found["d_x"]
    with ctx.step(f"how small a counterexample to {name} can be, proven part: at every depth L "
                  "below the "
                  "first one listed no network (any d_x, weights, N, partition) exceeds it, "
                  "since the block form, proven for all of them in L-Thm2-corrected, is <= "
                  "it (exact below the tail width, by the tail argument above it); at the "
                  "depths marked so, no one-hot schedule exceeds it (its ceiling, the evenly "
                  "spread exponents, is <= it); per width, the same limits beside the first "
                  "failing L of the shift schedule. d_x <= 3 never fails (closed forms), so "
                  "the least failing width is 4",
                  source, kind="prose", sizes="exact below the tail width") as s:
        lowest, rows = _limits(name, found_L, max_width)
        per_width = [least_depth_row(name, d_x, found_L + 5) for d_x in widths]
        s.record(depth_rows=rows, per_width=per_width, least_possible_depth=lowest,
                 counterexample_at={"d_x": found_dx, "L": found_L},
                 partitions="the block form and the one-hot ceiling bound sep for every "
                            "partition (I, J), so these limits hold for every partition")
        s.least("d_x", 4, proven_by=least_width_proof)
        s.require(lowest <= found_L, "a proven limit lies above the counterexample: "
                  "contradiction", lowest=lowest)
    return lowest


def _search_step(ctx, name: str, found: dict, source: str, lowest: int,
                 sizes: list[tuple[int, int]], iterations: int) -> None:
    exceeds, _ = BOUNDS[name]
    listed = ", ".join(f"({d}, {L})" for d, L in sizes)
    with ctx.step(f"how small a counterexample to {name} can be, search: simulated annealing "
                  f"over one-hot schedules ({iterations} moves each, seeded) at the (d_x, L) "
                  f"below the counterexample where a schedule could still fail: {listed}. A "
                  "search, not a proof: the failing depth is the least found unless the proven "
                  "limit of the previous step meets it",
                  source, scope="sizes", sizes=f"(d_x, L) in {listed}") as s:
        runs = []
        for k, (d_x, L) in enumerate(sizes):
            out = anneal_schedule(d_x, L, exceeds, iterations=iterations, seed=2100 + k)
            runs.append({"d_x": d_x, "L": L, "found": out["found"], "best_sep": str(out["sep"]),
                         "moves": out["iterations"],
                         **({"schedule": out["schedule"]} if out["found"] else {})})
        better = [r for r in runs if r["found"] and r["L"] < found["L"]]
        best = min(better, key=lambda r: (r["L"], r["d_x"])) if better else found
        proven = lowest == best["L"]
        phrase = s.least("(d_x, L)", {"d_x": best["d_x"], "L": best["L"]},
                         proven_by=(f"the proven limit: no network fails below L = {lowest}")
                         if proven else None)
        s.record(runs=runs, least_possible_depth=lowest, result=phrase,
                 undecided=f"depths {lowest}..{best['L'] - 1}: the block form allows a "
                           "failure there and no failing weights were found"
                 if not proven else None)


def least_steps(ctx, name: str, found: dict, source: str, *, widths: range,
                least_width_proof: str, search: list[tuple[int, int]],
                max_width: int | None = None) -> None:
    """The proven limits and the one-hot search for the bound ``name`` (a key of BOUNDS).

    ``found``: the least failing (d_x, L) found so far ({"d_x", "L"}); ``widths``: the
    widths of the per-width table; ``least_width_proof``: why d_x <= 3 never fails;
    ``search``: the (d_x, L) to search, smallest first; ``max_width``: cap of the exact
    one-hot check where the full range is too slow (eq. (8): d_x < 3^L).
    """
    lowest = _proven_step(ctx, name, found, source, widths, least_width_proof, max_width)
    _search_step(ctx, name, found, source, lowest, search,
                 iterations=20000 if ctx.full else 1000)
