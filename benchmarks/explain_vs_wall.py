"""How close ``--explain``'s estimate comes to the wall time of the N -> infinity route.

    python benchmarks/explain_vs_wall.py              # warm cache, every case; cold, two
    python benchmarks/explain_vs_wall.py --cold-only
    python benchmarks/explain_vs_wall.py --widths 1,2,3      # the cases with d_x <= 3
    python benchmarks/explain_vs_wall.py --widths 4 --tag load10   # beside a load

For each case, in a fresh process: the plan's estimate (``plan_separation(...)``: the
route's plan seconds plus the compile seconds it announces, times this machine's speed
measured now, :func:`seprank.budget.calibration`, and its load,
:func:`seprank.budget.load_factor`: what ``--explain`` prints) and the wall time of
``execute`` on that plan. ``warm``: numba's cache as it is (kernels compiled before);
``cold``: an empty ``NUMBA_CACHE_DIR`` (every kernel compiled in the run). The target of
issue 28: the ratio wall / estimate within [1/3, 3] on every atlas case.

Results: ``benchmarks/results/explain_vs_wall.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).parent / "results"
CASES = [(L, d, H, res) for L in (1, 2, 3) for d in (1, 2, 3, 4)
         for H in range(1, d + 1) if d % H == 0 for res in (False, True)]
COLD = [(2, 2, 1, False), (3, 3, 1, False)]


def one(L: int, d: int, H: int, res: bool) -> dict:
    """The --case entry: plan, then run, in this process."""
    import math

    from seprank.separation import execute, plan_separation

    t0 = time.perf_counter()
    plan = plan_separation(L, d, H, N=math.inf, residual=res, weights_seed=0)
    t_plan = time.perf_counter() - t0
    from seprank.budget import calibration, load_factor

    est = plan.route_plan.estimate
    prep = plan.route_plan.data
    reference = prep.plan.seconds + est.fixed_seconds
    busy, load = load_factor()
    estimate = reference * calibration() * busy          # what --explain prints
    t1 = time.perf_counter()
    r = execute(plan)
    wall = time.perf_counter() - t1 + t_plan
    return {"L": L, "d_x": d, "H": H, "residual": res, "value": r.value, "kind": r.kind,
            "estimate_s": round(estimate, 3), "reference_s": round(reference, 3),
            "calibration": round(calibration(), 3), "load_factor": round(busy, 3),
            "load_at_plan": round(load, 2), "compile_s_estimated": est.fixed_seconds,
            "wall_s": round(wall, 3), "ratio": round(wall / max(estimate, 1e-3), 2)}


def run(case, cold: bool) -> dict:
    env = dict(os.environ)
    tmp = None
    if cold:
        tmp = tempfile.mkdtemp(prefix="seprank-cold-")
        env["NUMBA_CACHE_DIR"] = tmp
    cmd = [sys.executable, __file__, "--case", *map(str, case)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
    if proc.returncode:
        return {"case": case, "error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout) | {"cache": "cold" if cold else "warm",
                                      "load": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", nargs=4)
    ap.add_argument("--cold-only", action="store_true")
    ap.add_argument("--tag", default="",
                    help="results as explain_vs_wall_TAG.json and .md (a run under load)")
    ap.add_argument("--widths", default="1,2,3,4",
                    help="comma-separated d_x of the warm cases (default %(default)s)")
    args = ap.parse_args()
    if args.case:
        L, d, H = map(int, args.case[:3])
        print(json.dumps(one(L, d, H, args.case[3] == "True")))
        return
    rows = [run(c, True) for c in COLD]
    if not args.cold_only:
        widths = {int(w) for w in args.widths.split(",")}
        rows += [run(c, False) for c in CASES if c[1] in widths]
    for r in rows:
        print(json.dumps(r), file=sys.stderr, flush=True)
    name = "explain_vs_wall" + (f"_{args.tag}" if args.tag else "")
    OUT.joinpath(f"{name}.json").write_text(json.dumps(rows, indent=1) + "\n")
    ok = [r for r in rows if "ratio" in r]
    inside = [r for r in ok if 1 / 3 <= r["ratio"] <= 3]
    lines = ["# --explain's estimate against the wall time (N -> infinity, generic seed 0)", "",
             f"{len(inside)} of {len(ok)} runs within 3x either way "
             f"(generated {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores; the "
             "load of each run is in the JSON).", "",
             "| L | d_x | H | res | cache | value | kind | estimate s | wall s | wall / est |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in ok:
        lines.append(f"| {r['L']} | {r['d_x']} | {r['H']} | {'yes' if r['residual'] else 'no'} "
                     f"| {r['cache']} | {r['value']} | {r['kind']} | {r['estimate_s']} | "
                     f"{r['wall_s']} | {r['ratio']} |")
    OUT.joinpath(f"{name}.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
