"""The atlas in the papers' regime: generic separation ranks as N -> infinity (issue 28 item 6).

    python docs/atlas/n_infinity.py --parts generic --depths 1,2 --wall 300
    python docs/atlas/n_infinity.py --parts onehot,repeated,permutation --budget 60
    python docs/atlas/n_infinity.py --parts generic --depths 3 --budget 120 --wall 900
    python docs/atlas/n_infinity.py --parts beyond --budget 30
    python docs/atlas/n_infinity.py --parts plan4 --budget 600 --wall 900
    python docs/atlas/n_infinity.py --report-only            # tables and plots from the JSON

Parts (``--parts``; the rows of the parts not run are kept from the JSON, so a part, or
some depths of it (``--depths``), can be rerun alone):

``generic``
    every L <= 3, d_x <= 4, every H dividing d_x (d_a = d_x / H), plain and residual, and
    L = 4 for d_x <= 2, each with the weights of seeds 0, 1 and 2 drawn for generic
    values (:func:`seprank.models.generic_weights.seeded_network`: nonzero integers from
    [-G, G], G = 2^20, 2^12, 2^3 at L = 1, 2, >= 3), through ``separation_rank(L, d_x, H,
    N=math.inf, residual=..., weights_seed=seed, points_seed=seed)``. A drawn network's
    certified rank is a certified lower bound of the generic rank; it *is* the generic
    rank when it meets the bound valid for every weight (``claim`` "exact for almost every
    weight"), and otherwise with probability >= 1 - epsilon over the draw
    (Schwartz-Zippel; the row's ``epsilon``). The three seeds are three independent
    draws: a shape whose seeds disagree has a draw that is not generic (the report says so
    per shape).
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
    H >= 2 only), plain and residual, seed 0. Particular weights, not generic ones: their
    values bound the generic value from below.
``beyond``
    L = 3, d_x = 5 and 6, H = 1, plain, generic weights seed 0: certified lower bounds
    with a short budget.
``plan4``
    L = 4, d_x = 3, H = 1 and 3, plain, generic weights seed 0: not finished here. The row
    holds the route's plan for the whole computation (every block's shape, method,
    estimated seconds and peak bytes, from
    :func:`seprank.separation.moment.prepare_moment` with no time or memory limit), the
    projected wall time on 2, 16 and 64 workers (:func:`projected_seconds`), and the
    certified range the route reaches under ``--budget`` (600 s: blocks past it are
    sampled) within ``--wall``.

Each case runs the front door with ``options={"budget_seconds": --budget}`` (the plan's
budget: blocks estimated past it are sampled at fewer points, a certified lower bound)
in a child process stopped after ``--wall`` seconds (an ``error`` row, no value). A row
records the value, its kind, the certified range [lower, upper], the N from which an
exact value holds, what the value rests on (``basis``), for generic weights what it says
of almost every weight (``generic``: claim, epsilon, the bound valid for every weight),
the blocks left short of exact, every block as [degree, rank, upper, cap, kind] (rows
run since issue 34), the seconds and the load average at its start and end.

Writes ``docs/atlas/n_infinity.json`` (the rows), ``n_infinity_runs.json`` (per part:
budget, wall limit, cases, seconds, load at start and end of its last run) and, through
``n_infinity_report.py``, ``n_infinity.md``, the plots ``n_infinity.png`` (log_3 sep
against L with the proven bounds) and ``n_infinity_params.png`` (sep against parameter
count), and the generated summary in ``docs/separation-ranks.md`` (between the markers
``<!-- atlas-n-infinity:begin -->`` and ``<!-- atlas-n-infinity:end -->``).
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
PARTS = ("generic", "onehot", "repeated", "permutation", "beyond", "plan4")
JSON_FILE, RUNS_FILE = HERE / "n_infinity.json", HERE / "n_infinity_runs.json"
KEY = ("part", "family", "L", "d_x", "H", "residual", "seed")
SEEDS = (0, 1, 2)
#: worker counts of plan4's projection
WORKERS = (2, 16, 64)


def _divisors(d: int) -> list[int]:
    return [h for h in range(1, d + 1) if d % h == 0]


def cases(part: str) -> list[tuple[str, str, int, int, int, bool, int]]:
    """(part, family, L, d_x, H, residual, seed) of one part of the atlas (module
    docstring), cheapest first (by L, d_x, then residual, H, seed)."""
    out = []
    grid = [(L, d) for L in (1, 2, 3) for d in (1, 2, 3, 4)]
    if part == "generic":
        shapes = grid + [(4, 1), (4, 2)]
        out = [(part, "generic", L, d, H, res, s) for L, d in shapes for H in _divisors(d)
               for res in (False, True) for s in SEEDS]
    elif part == "onehot":
        out = [(part, "onehot", L, d, d, False, 0) for L, d in grid]
    elif part in ("repeated", "permutation"):
        low = 2 if part == "repeated" else 1
        out = [(part, part, L, d, H, res, 0) for L, d in grid for H in _divisors(d)
               if H >= low for res in (False, True)]
    elif part == "beyond":
        out = [(part, "generic", 3, d, 1, False, 0) for d in (5, 6)]
    elif part == "plan4":
        out = [(part, "generic", 4, 3, H, False, 0) for H in (1, 3)]
    return sorted(set(out), key=lambda c: (c[2], c[3], c[5], c[4], c[6]))


def network(family: str, L: int, d: int, H: int, residual: bool, seed: int):
    """The network of one atlas case (module docstring)."""
    from seprank.models import SelfAttentionNetwork

    if family == "generic":
        from seprank.models.generic_weights import seeded_network

        return seeded_network(L, d, H, residual=residual, seed=seed)
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


def source_state() -> str:
    """The code a run used: the commit of the checkout, and a digest of its uncommitted
    changes under src/ when there are any (``git``; "unknown" without it)."""
    import hashlib
    import subprocess

    root = HERE.parents[1]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        diff = subprocess.run(["git", "-C", str(root), "diff", "HEAD", "--", "src"],
                              capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (f" + uncommitted src changes {hashlib.sha1(diff).hexdigest()[:10]}"
                   if diff else "")


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _short_blocks(blocks: list[dict]) -> list[dict]:
    """The blocks whose rank is not exact: shape, cap, method, certified rank and upper."""
    keep = ("degree", "shape", "cap", "method", "rank", "upper", "kind", "points", "how")
    return [{k: b[k] for k in keep if k in b} for b in blocks if b.get("kind") != "exact"]


def _slow_blocks(blocks: list[dict], n: int = 3) -> list[dict]:
    """The n slowest blocks: shape, rank, kind, seconds and how (where the time went)."""
    keep = ("shape", "rank", "upper", "kind", "seconds", "how")
    top = sorted(blocks, key=lambda b: -(b.get("seconds") or 0))[:n]
    return [{k: b[k] for k in keep if k in b} for b in top]


def run_case(part: str, family: str, L: int, d: int, H: int, residual: bool, seed: int,
             budget: float) -> dict:
    """One N -> infinity separation rank through the front door, as an atlas row."""
    from seprank.separation import separation_rank

    load0, t0 = _load(), time.perf_counter()
    opts = {"budget_seconds": budget}
    if family == "generic":       # the front door draws seeded_network(...) itself
        res = separation_rank(L, d, H, N=math.inf, residual=residual, weights_seed=seed,
                              points_seed=seed, options=opts)
    else:
        res = separation_rank(network=network(family, L, d, H, residual, seed), N=math.inf,
                              points_seed=seed, options=opts)
    f = res.facts
    row = {"part": part, "family": family, "L": L, "d_x": d, "H": H, "residual": residual,
           "seed": seed, "sep": res.value, "kind": res.kind,
           "exact_from_N": f["exact_from_N"], "lower": f["lower_bound"],
           "upper": res.upper_bound, "lower_N": f["lower_bound_N"], "basis": f["basis"],
           "seconds": round(time.perf_counter() - t0, 2), "budget_s": budget,
           "load_start": load0, "load_end": _load(),
           "short_blocks": _short_blocks(res.blocks), "slow_blocks": _slow_blocks(res.blocks),
           "blocks": [[b.get("degree"), b["rank"], b["upper"], b["cap"], b["kind"]]
                      for b in res.blocks],
           "timings": {k: round(v, 2) for k, v in (getattr(res, "timings", None) or {}).items()
                       if isinstance(v, (int, float))},
           "bounds": {k: {"value": str(v["value"]), "respected": v["respected"]}
                      for k, v in res.bounds.items()}}
    g = f.get("generic")
    if family == "generic" and g:
        row["generic"] = {k: g.get(k) for k in ("claim", "epsilon", "upper_bound_all_weights",
                                                "weight_bound")}
    if family == "onehot":
        row["closed_form"] = closed_form(L, d)
        row["equals_closed_form"] = row["sep"] == row["closed_form"]
        row["closed_form_in_range"] = row["lower"] <= row["closed_form"] <= row["upper"]
    return row


def projected_seconds(expansion_s: float, block_s: list[float], workers: int) -> float:
    """Projected wall time of a plan on ``workers`` workers: the expansion of G_L (one
    process, before any block) plus the blocks' total estimated time divided by the
    workers, but never less than the largest single block (a block is one worker's task).

    >>> projected_seconds(10.0, [100.0, 1.0, 1.0], 2), projected_seconds(0.0, [4.0] * 4, 2)
    (110.0, 8.0)
    """
    return expansion_s + max(sum(block_s) / workers, max(block_s, default=0.0))


def plan_record(L: int, d: int, H: int, residual: bool, seed: int) -> dict:
    """The moment route's plan of the whole computation (no time or memory limit) with its
    projection on :data:`WORKERS` workers (:func:`projected_seconds`)."""
    from seprank.models.generic_weights import generic_bound, seeded_network
    from seprank.separation.moment import prepare_moment

    net = seeded_network(L, d, H, residual=residual, seed=seed)
    prep = prepare_moment(net, seed=seed, max_memory=2**62, budget_seconds=1e12,
                          weight_bound=generic_bound(L))
    plan = prep.plan
    blocks = []
    for b in plan.blocks:
        est = b.get("estimates", {}).get(b["method"], {})
        blocks.append({"degree": b.get("degree"), "shape": b["shape"], "cap": b["cap"],
                       "method": b["method"], "seconds": est.get("seconds", 0.0),
                       "bytes": est.get("bytes", 0)})
    block_s = [b["seconds"] for b in blocks]
    expansion_s = plan.expansion.get("seconds", 0.0) if plan.expand else 0.0
    return {"expand": plan.expand, "expansion": plan.expansion,
            "estimated_seconds": round(plan.seconds, 1), "peak_bytes": plan.peak_bytes,
            "blocks": blocks, "sum_block_seconds": round(sum(block_s), 1),
            "largest_block_seconds": round(max(block_s), 1),
            "largest_block_bytes": max(b["bytes"] for b in blocks),
            "projected_seconds": {w: round(projected_seconds(expansion_s, block_s, w), 1)
                                  for w in WORKERS},
            "projection": "expansion + max(total block seconds / workers, largest block "
                          "seconds); seconds as the plan estimates them at this machine's "
                          "measured rates, one block per worker"}


def _child(conn, case, budget, lift_max) -> None:
    if lift_max is not None:
        import seprank.separation.moment.ranks as ranks

        ranks.CERTIFY_MAX_SHORT = lift_max
    try:
        conn.send(run_case(*case, budget=budget))
    except Exception as exc:  # noqa: BLE001 - recorded in the table, the sweep goes on
        conn.send({"error": f"{type(exc).__name__}: {exc}"})


def guarded(case: tuple, budget: float, lift_max: int | None, wall: float) -> dict:
    """run_case in a child process, stopped after ``wall`` seconds (an ``error`` row)."""
    ctx = multiprocessing.get_context("fork")
    here, there = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(there, case, budget, lift_max))
    load0, t0 = _load(), time.perf_counter()
    proc.start()
    row = here.recv() if here.poll(wall) else None
    if row is None:
        proc.kill()
        row = {"error": f"stopped at the wall-clock limit {wall} s"}
    proc.join()
    row = dict(zip(KEY, case, strict=True)) | row
    row.setdefault("seconds", round(time.perf_counter() - t0, 2))
    row.setdefault("load_start", load0)
    row.setdefault("load_end", _load())
    return row


def _order(r: dict) -> tuple:
    return (PARTS.index(r["part"]) if r.get("part") in PARTS else 9,
            *(r[k] for k in KEY[1:]))


def merge(old: list[dict], new: list[dict]) -> list[dict]:
    """The old rows with the new ones replacing equal keys (:data:`KEY`)."""
    table = {}
    for r in old + new:
        if "part" in r:        # rows of the random-weights atlas before issue 28 are dropped
            table[tuple(r[k] for k in KEY)] = r
    return sorted(table.values(), key=_order)


def _parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise SystemExit(f"n_infinity.py: unknown part(s) {bad}; parts: {', '.join(PARTS)}")
    return parts


def _depths(text: str) -> set[int]:
    """--depths / --widths / --heads: comma-separated positive integers."""
    try:
        out = {int(x) for x in text.split(",") if x.strip()}
    except ValueError:
        out = {0}
    if any(x < 1 for x in out):
        raise SystemExit(f"n_infinity.py: --depths, --widths and --heads take comma-separated "
                         f"positive integers; got {text!r}")
    return out


def _seeds(text: str) -> set[int]:
    """--seeds: comma-separated integers >= 0 (decimal digits only: 017 is refused)."""
    words = [x.strip() for x in text.split(",") if x.strip()]
    if any(not (w.isdigit() and (w == "0" or not w.startswith("0"))) for w in words):
        raise SystemExit(f"n_infinity.py: --seeds takes comma-separated integers >= 0; "
                         f"got {text!r}")
    return {int(w) for w in words}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated (%(default)s)")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="the route's budget_seconds per case (default %(default)s)")
    ap.add_argument("--lift-max", type=int, default=None,
                    help="largest short side of a block lifted exactly (default: the "
                         "route's CERTIFY_MAX_SHORT)")
    ap.add_argument("--wall", type=float, default=900.0,
                    help="wall-clock seconds per case before it is stopped (default %(default)s)")
    ap.add_argument("--depths", default="",
                    help="comma-separated L: run only these depths of the parts (default all)")
    ap.add_argument("--widths", default="",
                    help="comma-separated d_x: run only these widths of the parts (default all)")
    ap.add_argument("--heads", default="",
                    help="comma-separated H: run only these head counts of the parts (default all)")
    ap.add_argument("--plain-only", action="store_true",
                    help="run only the networks without residual connections")
    ap.add_argument("--residual-only", action="store_true",
                    help="run only the networks with residual connections")
    ap.add_argument("--seeds", default="",
                    help="comma-separated seeds: run only these seeds of the parts (default all)")
    ap.add_argument("--report-only", action="store_true", help="rewrite the tables and plots")
    args = ap.parse_args()
    depths, widths, heads = _depths(args.depths), _depths(args.widths), _depths(args.heads)
    seeds = _seeds(args.seeds)
    rows = merge(json.loads(JSON_FILE.read_text()) if JSON_FILE.exists() else [], [])
    runs = json.loads(RUNS_FILE.read_text()) if RUNS_FILE.exists() else {}
    import seprank.separation  # noqa: F401 - imported once, before the children fork
    for part in ([] if args.report_only else _parts(args.parts)):
        t0, load, new, code = time.perf_counter(), _load(), [], source_state()
        todo = [c for c in cases(part) if (not depths or c[2] in depths)
                and (not widths or c[3] in widths) and (not seeds or c[6] in seeds)
                and (not heads or c[4] in heads) and not (args.plain_only and c[5])
                and not (args.residual_only and not c[5])]
        for c in todo:
            row = guarded(c, args.budget, args.lift_max, args.wall)
            if part == "plan4":
                row["plan"] = plan_record(*c[2:])
            new.append(row)
            print(part, c[2:], row.get("sep"), row.get("kind"),
                  f"[{row.get('lower')}, {row.get('upper')}]", row.get("seconds"),
                  row.get("load_start"), row.get("error", ""), file=sys.stderr, flush=True)
            done = {tuple(r[k] for k in KEY) for r in new}
            rows = merge([r for r in rows if tuple(r[k] for k in KEY) not in done], new)
            JSON_FILE.write_text(json.dumps(rows, indent=1) + "\n")     # as we go
        name = part + (f" (L in {sorted(depths)})" if depths else "") + (
            f" (d_x in {sorted(widths)})" if widths else "") + (
            f" (seeds {sorted(seeds)})" if seeds else "") + (
            f" (H in {sorted(heads)})" if heads else "") + (
            " (plain)" if args.plain_only else "") + (
            " (residual)" if args.residual_only else "")
        runs[name] = {"budget_s": args.budget, "lift_max": args.lift_max, "wall_s": args.wall,
                      "seconds": round(time.perf_counter() - t0, 1), "load_start": load,
                      "load_end": _load(), "cases": len(new), "code": code}
        RUNS_FILE.write_text(json.dumps(runs, indent=1) + "\n")
    sys.path.insert(0, str(HERE))
    import n_infinity_report

    n_infinity_report.write(rows, runs, HERE)
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
