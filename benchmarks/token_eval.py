"""Benchmark of the grid route's evaluators (issue 20 item 2): the network kernel against the
moment form, and the share of evaluation in the grid route's time.

    python benchmarks/token_eval.py            # writes benchmarks/results/token_eval.{json,md}
    python benchmarks/token_eval.py --quick    # fewer points, prints only

* Evaluations per second of :func:`seprank.models.network_mod_p.grid_values_mod_p` (the
  network, layer by layer on the N positions) and
  :func:`seprank.separation.grid.moment_values.grid_values_moment` (y^{L,i} = G_L(S) x^i) on the
  same grid points (the grid route's own point table, p = 2^31 - 1), in the same process,
  compiled first, best of 3: L = 3, d_x = 4, H = 2 at N = 2 (issue 20's target: >= 10x) and
  at N = 4, 8, 16 (where the moment form's cost, independent of N, pays).
* The grid route at N = 2, L = 3, d_x = 4, H = 2 (``grid_block_ranks``): seconds in
  evaluation, interpolation and rank, with the evaluator the route chooses and with the
  other one forced; the ranks must be equal.

The machine's 2 cores are shared with other jobs: the load averages (``os.getloadavg``)
before and after every measurement are recorded; the ratios are from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "results"
P = 2**31 - 1


def _rate(fn, args, kwargs, n_values: int, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args, **kwargs)
        times.append(time.perf_counter() - t)
    return n_values / min(times)


def evaluator_rates(Ns=(2, 4, 8, 16), R: int = 240, n_scales: int = 14) -> list[dict]:
    """Evaluations per second of both evaluators on the grid route's points."""
    from seprank.models import SelfAttentionNetwork
    from seprank.models.network_mod_p import grid_values_mod_p
    from seprank.separation.grid.moment_values import grid_values_moment, prefer_moment_form
    from seprank.separation.grid.route import _points

    net = SelfAttentionNetwork.random(3, 4, 2, seed=0, nonzero=True)
    rows = []
    for N in Ns:
        I, J = tuple(range(N // 2)), tuple(range(N // 2, N))
        T, r, c, _ = _points(np.random.default_rng(N), P, R, I, J, 4,
                             list(range(1, n_scales + 1)))
        kw = {"position": 0, "coordinate": 0}
        same = bool((grid_values_mod_p(net, T, I, J, r[:64], c[:64], P, **kw)
                     == grid_values_moment(net, T, I, J, r[:64], c[:64], P, **kw)).all())
        load0 = os.getloadavg()
        n = len(r) * len(c)
        old = _rate(grid_values_mod_p, (net, T, I, J, r, c, P), kw, n)
        new = _rate(grid_values_moment, (net, T, I, J, r, c, P), kw, n)
        rows.append({"L": 3, "d_x": 4, "H": 2, "N": N, "prime": P, "values": n,
                     "network_per_s": round(old), "moment_per_s": round(new),
                     "ratio": round(new / old, 3), "equal": same,
                     "route_uses_moment": prefer_moment_form(net, N, P),
                     "load_before": load0, "load_after": os.getloadavg()})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def route_share() -> list[dict]:
    """The grid route at N = 2, L = 3, d_x = 4, H = 2 with each evaluator: seconds per phase."""
    from seprank.models import SelfAttentionNetwork
    from seprank.separation.grid import route as gridroute

    net = SelfAttentionNetwork.random(3, 4, 2, seed=0, nonzero=True)
    chosen = gridroute.prefer_moment_form
    out = []
    try:
        for forced in (None, True, False):
            if forced is not None:
                gridroute.prefer_moment_form = lambda *a, m=forced: m
            load0 = os.getloadavg()
            t = time.perf_counter()
            g = gridroute.grid_block_ranks(net, 2, (0,), (1,), 0, 0, p=P, seed=0)
            wall = time.perf_counter() - t
            sec = g["seconds"]
            out.append({"forced": forced, "evaluator": g["evaluator"],
                        "lower_bound": g["lower_bound"], "cap": g["cap"],
                        "evaluations": g["evaluations"], "wall_s": round(wall, 3),
                        **{f"{k}_s": round(v, 3) for k, v in sec.items()},
                        "evaluation_share": round(sec["evaluation"] / wall, 3),
                        "evaluation_over_rank": round(sec["evaluation"] / sec["rank"], 3),
                        "load_before": load0, "load_after": os.getloadavg()})
            print(json.dumps(out[-1]), flush=True)
    finally:
        gridroute.prefer_moment_form = chosen
    return out


def _markdown(rates: list[dict], share: list[dict]) -> str:
    lines = ["# Grid route evaluators: network kernel against the moment form (issue 20 item 2)",
             "", "`python benchmarks/token_eval.py`; L = 3, d_x = 4, H = 2, random nonzero "
             "integer weights (seed 0), p = 2^31 - 1, the grid route's points (14 scales). "
             "2 shared cores: load averages (1, 5, 15 min) before and after each row.", "",
             "| N | network evals/s | moment evals/s | moment / network | equal | route uses "
             "| load before | load after |", "|---|---|---|---|---|---|---|---|"]
    for r in rates:
        lines.append(f"| {r['N']} | {r['network_per_s']:,} | {r['moment_per_s']:,} | "
                     f"{r['ratio']} | {r['equal']} | "
                     f"{'moment' if r['route_uses_moment'] else 'network'} | "
                     f"{', '.join(f'{x:.1f}' for x in r['load_before'])} | "
                     f"{', '.join(f'{x:.1f}' for x in r['load_after'])} |")
    lines += ["", "Grid route, N = 2 (`grid_block_ranks`, position 0, coordinate 0):", "",
              "| evaluator | lower bound / cap | evaluations | wall s | evaluation s | "
              "interpolation s | rank s | evaluation share | evaluation / rank |",
              "|---|---|---|---|---|---|---|---|---|"]
    for s in share:
        name = s["evaluator"] + (" (route's choice)" if s["forced"] is None else " (forced)")
        lines.append(f"| {name} | {s['lower_bound']} / {s['cap']} | {s['evaluations']:,} | "
                     f"{s['wall_s']} | {s['evaluation_s']} | {s['interpolation_s']} | "
                     f"{s['rank_s']} | {s['evaluation_share']} | {s['evaluation_over_rank']} |")
    n2 = next((r for r in rates if r["N"] == 2), None)
    route = next((s for s in share if s["forced"] is None), None)
    if n2 and route:
        lines += ["", "## Targets (issue 20 item 2)", "",
                  f"* >= 10x evaluations per second at N = 2: **not met**, the moment form "
                  f"runs {n2['ratio']}x the network kernel's rate. Cause: per value the "
                  "moment form costs "
                  "`moment_plan.eval_ops(3, 4, 2, 2)` = 800 modular multiply-adds, "
                  "independent of N; the network kernel costs L H N (4 d_a d_x + 2 d_a^2) = "
                  "240 N = 480 at N = 2 (its first layer once per template, so less). The "
                  "moment matrix S (d_x (d_x + 1) / 2 = 10 numbers) carries more than the "
                  "N = 2 tokens (8 numbers); its advantage grows linearly in N: "
                  + ", ".join(f"{r['ratio']}x at N = {r['N']}" for r in rates) + ". "
                  "The route chooses by operation count (`moment_grid.prefer_moment_form`); "
                  "at N = 2 the two kernels' rates are equal within the noise of the shared "
                  "machine (0.6-1.0x over repeated runs).",
                  f"* evaluation no more than the rank's time: **not met**, evaluation is "
                  f"{route['evaluation_over_rank']}x the rank's time "
                  f"({route['evaluation_share']:.0%} of the route's wall time).", ""]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer points; print only")
    args = ap.parse_args(argv)
    rates = evaluator_rates(R=80 if args.quick else 240)
    share = [] if args.quick else route_share()
    if args.quick:
        return 0
    OUT.mkdir(exist_ok=True)
    (OUT / "token_eval.json").write_text(json.dumps({"rates": rates, "grid_route": share},
                                                    indent=1) + "\n")
    (OUT / "token_eval.md").write_text(_markdown(rates, share))
    print(f"wrote {OUT / 'token_eval.json'} and {OUT / 'token_eval.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
