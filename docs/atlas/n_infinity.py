"""The atlas in the papers' regime: separation ranks as N -> infinity (issue 20 item 3).

    python docs/atlas/n_infinity.py                          # every part (about 10 minutes)
    python docs/atlas/n_infinity.py --parts onehot,permutation --budget 5
    python docs/atlas/n_infinity.py --parts repeated --depths 3 --budget 15
    python docs/atlas/n_infinity.py --report-only            # tables and plots from the JSON

Parts (``--parts``; the rows of the parts not run are kept from the JSON, so a part can be
rerun alone):

``random``
    every L <= 3, d_x <= 4, every H dividing d_x, with and without residual connections,
    seeds 0 and 1 of random integer weights (``SelfAttentionNetwork.random(..., nonzero=True)``,
    d_a = d_x / H), L = 4 for d_x <= 2, and L = 4, d_x = 3 (H = 1 and 3, plain and
    residual, seed 0; mostly certified lower bounds: 41 blocks, the middle ones sampled).
``onehot``
    the counterexample's one-hot one-dimensional heads
    (:func:`seprank.network_theory.one_hot.monomial_network` on the shift schedule, H = d_x,
    d_a = 1, plain only: its closed form is for the plain network) for L <= 3, d_x <= 4;
    each row carries the closed form prod(e + 1) of coordinate 0
    (:func:`~seprank.network_theory.one_hot.family_seps_by_layer`) and whether the moment
    route's value equals it.
``repeated``, ``permutation``
    the N = 2 atlas's structured weights (:func:`seprank.separation.structured.structured_weights`,
    the builder of ``structured_n2.toml``), L <= 3, d_x <= 4, every H dividing d_x (repeated:
    H >= 2 only, its H = 1 network is the random one), plain and residual, seed 0.
``beyond``
    L = 3, d_x = 5 and 6, H = 1, random weights seed 0: certified lower bounds with a short
    budget (``lower_bound`` with the certified upper bound where the budget cuts).
``deep``
    L = 3, d_x = 4, H = 2, random weights seed 0 with a long budget (``--budget 600 --wall
    1500``: every block planned, about 12 minutes on 2 cores); its row replaces the
    ``random`` part's, so run it after that part.

Each case runs ``seprank.separation_rank(..., N=math.inf)`` (the moment route) under a
per-case budget: ``budget_seconds`` for the plan (blocks past it are sampled at fewer
points or skipped) and for the exact kernel lifting of deficient blocks (output-sensitive,
so stopped at the budget left rather than estimated: unbounded, L = 3, d_x = 3, H = 1
block 7, 792 columns, took 553 s and 18.9 GB), and no lifting at all of blocks whose
short side exceeds ``--lift-max``. A case cut by any of them is a certified
``lower_bound`` (or ``probabilistic``) with its certified ``upper``, never ``exact``.
Each case also runs in a child process with a wall-clock limit (``--wall``); a case past
it is recorded as an ``error`` row (no value).

Writes ``docs/atlas/n_infinity.json`` (rows ``family, L, d_x, H, residual, seed, sep, kind,
exact_from_N, upper, lower, seconds``, plus ``closed_form``, ``equals_closed_form`` (the
value, of whatever kind, equals it) and ``closed_form_in_range`` (lower <= it <= upper) on
one-hot rows; the reader
:func:`seprank.network_theory.corrected_bounds.atlas_n_infinity_points` takes the exact
random rows for the figures of L-Thm2-corrected and W-Thm1-corrected),
``n_infinity_runs.json`` (budget, time and load of each part's last run) and, through
``n_infinity_report.py``, ``n_infinity.md`` and the plots ``n_infinity.png`` (log_3 sep
against L) and ``n_infinity_params.png`` (sep against parameter count).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = ("random", "onehot", "repeated", "permutation", "beyond", "deep")
JSON_FILE, RUNS_FILE = HERE / "n_infinity.json", HERE / "n_infinity_runs.json"
KEY = ("family", "L", "d_x", "H", "residual", "seed")


def _divisors(d: int) -> list[int]:
    return [h for h in range(1, d + 1) if d % h == 0]


def cases(part: str) -> list[tuple[str, int, int, int, bool, int]]:
    """(family, L, d_x, H, residual, seed) of one part of the atlas (module docstring),
    cheapest first."""
    out = []
    grid = [(L, d) for L in (1, 2, 3) for d in (1, 2, 3, 4)]
    if part == "random":
        out = [("random", L, d, H, res, s) for L, d in grid for H in _divisors(d)
               for res in (False, True) for s in (0, 1)]
        out += [("random", 4, d, H, res, s) for d in (1, 2) for H in (1, d)
                for res in (False, True) for s in (0, 1)]
        out += [("random", 4, 3, H, res, 0) for H in (1, 3) for res in (False, True)]
    elif part == "onehot":
        out = [("onehot", L, d, d, False, 0) for L, d in grid]
    elif part in ("repeated", "permutation"):
        low = 2 if part == "repeated" else 1
        out = [(part, L, d, H, res, 0) for L, d in grid for H in _divisors(d) if H >= low
               for res in (False, True)]
    elif part == "beyond":
        out = [("random", 3, d, 1, False, 0) for d in (5, 6)]
    elif part == "deep":
        out = [("random", 3, 4, 2, False, 0)]
    return sorted(set(out), key=lambda c: (c[1], c[2], c[3], c[4], c[5]))


def network(family: str, L: int, d: int, H: int, residual: bool, seed: int):
    """The network of one atlas case (module docstring)."""
    from seprank.models import SelfAttentionNetwork

    if family == "random":
        return SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, nonzero=True)
    if family == "onehot":
        from seprank.network_theory.one_hot import monomial_network, shift_schedule

        return monomial_network(d, shift_schedule(d, L))
    from seprank.separation.structured import structured_weights

    return SelfAttentionNetwork(L, d, H, residual=residual,
                                weights=structured_weights(family, L, d, H, seed=seed))


def closed_form(L: int, d: int) -> int:
    """The one-hot family's exact sep of y_1^1 (coordinate 0): prod(e + 1)."""
    from seprank.network_theory.one_hot import family_seps_by_layer

    return family_seps_by_layer(d, L)[L - 1][0]


def run_case(family: str, L: int, d: int, H: int, residual: bool, seed: int,
             budget: float) -> dict:
    """One N -> infinity separation rank through the front door, as an atlas row."""
    from seprank.separation import separation_rank

    net = network(family, L, d, H, residual, seed)
    t0 = time.perf_counter()
    res = separation_rank(network=net, N=math.inf, points_seed=seed,
                          options={"budget_seconds": budget})
    f = res.facts
    row = {"family": family, "L": L, "d_x": d, "H": H, "residual": residual, "seed": seed,
           "sep": res.value, "kind": res.kind, "exact_from_N": f["exact_from_N"],
           "upper": res.upper_bound, "lower": f["lower_bound"], "lower_N": f["lower_bound_N"],
           "seconds": round(time.perf_counter() - t0, 2), "budget_s": budget,
           "bounds": {k: {"value": str(v["value"]), "respected": v["respected"]}
                      for k, v in res.bounds.items()}}
    if family == "onehot":
        row["closed_form"] = closed_form(L, d)
        row["equals_closed_form"] = row["sep"] == row["closed_form"]
        row["closed_form_in_range"] = row["lower"] <= row["closed_form"] <= row["upper"]
    return row


def _child(conn, case, budget, lift_max) -> None:
    import seprank.separation.moment_ranks as ranks

    ranks.CERTIFY_MAX_SHORT = lift_max      # lifting is not in the plan's estimate
    try:
        conn.send(run_case(*case, budget=budget))
    except Exception as exc:  # noqa: BLE001 - recorded in the table, the sweep goes on
        conn.send({"error": f"{type(exc).__name__}: {exc}"})


def guarded(case: tuple, budget: float, lift_max: int, wall: float) -> dict:
    """run_case in a child process, stopped after ``wall`` seconds (an ``error`` row)."""
    ctx = multiprocessing.get_context("fork")
    here, there = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(there, case, budget, lift_max))
    t0 = time.perf_counter()
    proc.start()
    row = here.recv() if here.poll(wall) else None
    if row is None:
        proc.kill()
        row = {"error": f"stopped at the wall-clock limit {wall} s"}
    proc.join()
    row = dict(zip(KEY, case, strict=True)) | row
    row.setdefault("seconds", round(time.perf_counter() - t0, 2))
    return row


def merge(old: list[dict], new: list[dict]) -> list[dict]:
    """The old rows (``family`` defaulting to ``random``) with the new ones replacing equal keys."""
    table = {}
    for r in old + new:
        r = {"family": "random"} | r
        table[tuple(r[k] for k in KEY)] = r
    return sorted(table.values(), key=lambda r: (PARTS.index(r["family"]) if r["family"] in
                                                 PARTS else 9, *(r[k] for k in KEY[1:])))


def _parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise SystemExit(f"n_infinity.py: unknown part(s) {bad}; parts: {', '.join(PARTS)}")
    return parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated (%(default)s)")
    ap.add_argument("--budget", type=float, default=10.0,
                    help="estimated seconds per case (default %(default)s)")
    ap.add_argument("--lift-max", type=int, default=500,
                    help="largest short side of a block lifted exactly (default %(default)s)")
    ap.add_argument("--wall", type=float, default=120.0,
                    help="wall-clock seconds per case before it is stopped (default %(default)s)")
    ap.add_argument("--depths", default="",
                    help="comma-separated L: run only these depths of the parts (default all)")
    ap.add_argument("--report-only", action="store_true", help="rewrite the tables and plots")
    args = ap.parse_args()
    depths = {int(x) for x in args.depths.split(",") if x.strip()}
    rows = json.loads(JSON_FILE.read_text()) if JSON_FILE.exists() else []
    runs = json.loads(RUNS_FILE.read_text()) if RUNS_FILE.exists() else {}
    import seprank.separation  # noqa: F401 - imported once, before the children fork
    for part in ([] if args.report_only else _parts(args.parts)):
        t0, load, new = time.perf_counter(), os.getloadavg(), []
        todo = [c for c in cases(part) if not depths or c[1] in depths]
        for c in todo:
            new.append(guarded(c, args.budget, args.lift_max, args.wall))
            r = new[-1]
            print(part, c[1:], r.get("sep"), r.get("kind"), r.get("seconds"),
                  r.get("error", ""), file=sys.stderr, flush=True)
        rows = merge([r for r in rows if not _in(r, todo)], new)
        name = part + (f" (L in {sorted(depths)})" if depths else "")
        runs[name] = {"budget_s": args.budget, "lift_max": args.lift_max, "wall_s": args.wall,
                      "seconds": round(time.perf_counter() - t0, 1),
                      "load": [round(x, 2) for x in load], "cases": len(new)}
        JSON_FILE.write_text(json.dumps(rows, indent=1) + "\n")
        RUNS_FILE.write_text(json.dumps(runs, indent=1) + "\n")
    sys.path.insert(0, str(HERE))
    import n_infinity_report

    n_infinity_report.write(merge(rows, []), runs, HERE)
    print(json.dumps(runs))


def _in(row: dict, todo: list[tuple]) -> bool:
    keys = {tuple(c) for c in todo}
    return tuple(({"family": "random"} | row)[k] for k in KEY) in keys


if __name__ == "__main__":
    main()
