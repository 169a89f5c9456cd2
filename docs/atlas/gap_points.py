"""Decide, by certified rank computations, the points of Theorem 1's regime that the
proof check L-Thm1 reports as "not reached by B.2" (levine2020 B.2, l.666-690).

    python docs/atlas/gap_points.py          # fast-tier point list (L <= 5, 40 widths)
    python docs/atlas/gap_points.py --full   # the full-tier list

For each point (L, d_x, H) the script takes seeded random integer weights (no weight 0),
d_a = d_x / H, N = 2, I = {1}, and computes a certified lower bound on the separation
rank of y_1^1 by the grid route (:func:`seprank.separation.grid.route.grid_block_ranks`,
blocks of at most 200 points per side; a rank mod p of a grid matrix never exceeds the
rank over Q). Theorem 1's lower bound is a statement for almost all weights; a lower
bound r at one weight point holds on the non-empty Zariski-open set {rank >= r}, i.e. for
almost all weights, so ``lower bound >= 3^{Theorem 1 lower}`` (decided with arb balls)
settles the point. Output: gap_points.md and gap_points.json beside this file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from seprank_proofs.levine2020 import l_thm1_thm2 as T

from seprank.combinatorics import multiset
from seprank.models import SelfAttentionNetwork
from seprank.papers.levine2020.bounds import thm1_lower_log3, thm1_lower_pow3
from seprank.scalars.enclosures import arb_le, log3
from seprank.separation.grid.route import DEFAULT_GRID_PRIME, grid_block_ranks

HERE = Path(__file__).resolve().parent


def uncovered(full: bool) -> list[tuple[int, int, int]]:
    """The points of L-Thm1's step 'not reached by B.2', as that check computes them."""
    out = []
    for L, d_x, H in T._regime1(full):
        if H >= d_x or T._b2_defined(L, d_x, H):
            continue
        base, lam = thm1_lower_pow3(L, d_x, H)
        if T._pow_le(base, lam, 1):
            continue
        d_floor = (d_x - H) // 2
        if L >= 2 and d_floor >= 1 and T._pow_le(base, lam, multiset(d_floor, 3 ** (L - 2))):
            continue
        out.append((L, d_x, H))
    return out


def decide(L: int, d_x: int, H: int, seed: int = 0) -> dict:
    net = SelfAttentionNetwork.random(L, d_x, H, seed=seed, nonzero=True)
    g = grid_block_ranks(net, 2, (0,), (1,), 0, 0, p=DEFAULT_GRID_PRIME, seed=seed,
                         max_block_points=200)
    lb = g["lower_bound"]
    ball = thm1_lower_log3(L, d_x, H)
    reached = lb > 0 and arb_le(ball, log3(lb))
    return {"L": L, "d_x": d_x, "H": H, "seed": seed, "certified_lower_bound": lb,
            "thm1_lower_log3": ball.str(6), "log3_lower_bound": log3(lb).str(6) if lb else None,
            "decided": reached}


def main() -> int:
    full = "--full" in sys.argv
    pts = uncovered(full)
    rows = [decide(*p) for p in pts]
    ok = sum(r["decided"] is True for r in rows)
    (HERE / "gap_points.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = ["# L-Thm1 points not reached by B.2, decided by exact rank computations", "",
             __doc__.split("\n\n")[2].replace("\n", " "), "",
             f"{len(rows)} points ({'full' if full else 'fast'}-tier list of L-Thm1); "
             f"{ok} decided: certified rank lower bound >= 3^(Theorem 1 lower bound).", "",
             "| L | d_x | H | certified sep >= | log_3 of it | Thm 1 lower (log_3) | decided |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['L']} | {r['d_x']} | {r['H']} | {r['certified_lower_bound']} | "
                     f"{r['log3_lower_bound']} | {r['thm1_lower_log3']} | {r['decided']} |")
    (HERE / "gap_points.md").write_text("\n".join(lines) + "\n")
    print(f"{len(rows)} points, {ok} decided")
    return 0 if ok == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
