"""The table of laws of the generic separation rank (issue 34): run, resume, report.

    python docs/atlas/laws.py                      # run what is missing, then report
    python docs/atlas/laws.py --depths 2 --widths 6,7,8 --wall 600
    python docs/atlas/laws.py --report-only        # the page from the JSON, and print it

Cases: plain networks at L = 1 and L = 2 for every d_x <= 8 and every H dividing d_x
(d_a = d_x / H), generic weights of seeds 0, 1 and 2, each through the front door as
N -> infinity (the atlas's ``run_case`` in a child process stopped after ``--wall``
seconds: :func:`n_infinity.guarded`). L = 3 at d_x <= 4 and L = 4 at d_x <= 2 are read
from the atlas (``n_infinity.json``, its plain generic rows), not run again.

Writes ``docs/atlas/laws.json`` (the rows, as we go: a stopped run resumes where it
was) and the generated part of ``docs/generic-laws.md`` (between its markers): per
shape the generic value and what it rests on, the caps and the deficit per block, the
number of weights; per depth and head pattern the law fitted in d_x
(:func:`seprank.network_theory.generic_laws.fit_law`) with the sizes it was fitted on
and re-checked at.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import n_infinity  # noqa: E402 - the atlas's runner, beside this file

JSON_FILE = HERE / "laws.json"
ATLAS_FILE = HERE / "n_infinity.json"
PAGE = HERE.parent / "generic-laws.md"
DOCS_BEGIN, DOCS_END = "<!-- generic-laws:begin -->", "<!-- generic-laws:end -->"
SEEDS = (0, 1, 2)
WIDTHS = tuple(range(1, 9))
#: depths run here (the others come from the atlas)
DEPTHS = (1, 2)


def cases() -> list[tuple]:
    """(part, family, L, d_x, H, residual, seed) of every case run here, cheapest first."""
    return [("laws", "generic", L, d, H, False, s) for L in DEPTHS for d in WIDTHS
            for H in n_infinity._divisors(d) for s in SEEDS]


def atlas_rows() -> list[dict]:
    """The atlas's plain generic rows at L = 3 (d_x <= 4) and L = 4 (d_x <= 2)."""
    if not ATLAS_FILE.exists():
        return []
    return [r for r in json.loads(ATLAS_FILE.read_text())
            if r.get("family") == "generic" and r.get("part") == "generic"
            and not r["residual"] and r["L"] >= 3 and "error" not in r]


def shape_summary(rows: list[dict]) -> dict:
    """What the seeds of one shape say of its generic value (module docstring of
    :mod:`seprank.network_theory.generic_laws`):

    ``proven``: a seed's certified value meets a bound valid for every weight (the caps and
    the first layer's counted bound, :func:`~seprank.network_theory.generic_laws.generic_caps`):
    the generic value, no probability;
    ``agreeing``: every seed exact and all equal, at least two seeds (a certified lower
    bound of the generic value that independent draws reach; equal to it with probability
    >= 1 - epsilon per draw); ``one draw``: a single seed, exact (a certified lower bound);
    ``lower``: otherwise the largest certified lower bound.

    >>> r = {"L": 2, "d_x": 4, "H": 4, "residual": False, "sep": 84, "kind": "exact",
    ...      "lower": 84, "generic": {"epsilon": 0.17}}          # below the bound 85
    >>> shape_summary([r, r])["status"], shape_summary([r])["status"]
    ('agreeing', 'one draw')
    >>> shape_summary([r | {"H": 2, "sep": 107}])["status"]
    'proven'
    >>> shape_summary([r | {"sep": 85, "lower": 85, "kind": "lower_bound"}])["status"]
    'proven'
    """
    from seprank.network_theory.generic_laws import generic_caps_sum

    ok = [r for r in rows if "error" not in r]
    for r in ok:                  # a certified value (or lower bound) at an every-weight bound
        certified = r["sep"] if r["kind"] == "exact" else r.get("lower")
        if (r.get("generic") or {}).get("claim") == "exact for almost every weight" or (
                not r["residual"] and certified is not None
                and certified == generic_caps_sum(r["L"], r["d_x"], r["H"])):
            return {"status": "proven", "value": certified, "seeds": len(ok)}
    exact = [r for r in ok if r["kind"] == "exact"]
    if len(exact) == 1 and len(ok) == 1:     # one draw: nothing to agree with
        eps = (exact[0].get("generic") or {}).get("epsilon")
        return {"status": "one draw", "value": exact[0]["sep"], "seeds": 1, "epsilon": eps}
    if exact and len(exact) == len(ok) and len({r["sep"] for r in exact}) == 1:
        eps = [r.get("generic", {}).get("epsilon") for r in exact]
        return {"status": "agreeing", "value": exact[0]["sep"], "seeds": len(ok),
                "epsilon": max((e for e in eps if e is not None), default=None)}
    lower = max((r.get("lower") or 0 for r in ok), default=0)
    upper = min((r.get("upper") for r in ok if r.get("upper") is not None), default=None)
    return {"status": "lower", "value": lower, "upper": upper, "seeds": len(ok),
            "errors": len(rows) - len(ok)}


def group(rows: list[dict]) -> dict[tuple[int, int, int], list[dict]]:
    out: dict = {}
    for r in rows:
        out.setdefault((r["L"], r["d_x"], r["H"]), []).append(r)
    return dict(sorted(out.items()))


def _deficits(rows: list[dict], L: int, d: int) -> str:
    """Cap minus rank per block g where nonzero (from a seed with every block exact)."""
    from seprank.network_theory.generic_laws import block_caps

    for r in rows:
        blocks = r.get("blocks")
        if blocks and all(b[4] == "exact" for b in blocks):
            caps = block_caps(L, d)
            gaps = [f"g{g}: {caps[g] - b[1]}" for g, b in enumerate(blocks) if caps[g] > b[1]]
            return ", ".join(gaps) or "none"
    return "n/a"


def table_lines(groups: dict, summaries: dict) -> list[str]:
    """One row per shape: the generic value and its evidence, the caps, the deficits."""
    from seprank.network_theory.generic_laws import caps_sum, generic_caps_sum
    from seprank.separation.sizes import parameter_count

    lines = ["| L | d_x | H | generic sep | evidence | shape caps | every-weight bound | "
             "deficit | per block (shape cap - rank) | weights | seeds |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (L, d, H), rs in groups.items():
        s = summaries[(L, d, H)]
        shape_cap, cap = caps_sum(L, d), generic_caps_sum(L, d, H)
        if s["status"] == "proven":
            value, ev = str(s["value"]), "proven (meets the every-weight bound)"
        elif s["status"] == "agreeing":
            value, ev = str(s["value"]), (f"{s['seeds']} draws agree (lower bound; eps <= "
                                          f"{s['epsilon']:.2g} each)" if s.get("epsilon")
                                          is not None else f"{s['seeds']} draws agree")
        elif s["status"] == "one draw":
            value, ev = f">= {s['value']}", "one draw, exact (a certified lower bound)"
        else:
            value, ev = f">= {s['value']}", "certified lower bound" + (
                f", <= {s['upper']}" if s.get("upper") is not None else "")
        gap = shape_cap - s["value"]
        deficit = gap if s["status"] in ("proven", "agreeing") else f"<= {gap}"
        lines.append(f"| {L} | {d} | {H} | {value} | {ev} | {shape_cap} | {cap} | {deficit} | "
                     f"{_deficits(rs, L, d) if s['status'] != 'lower' else 'n/a'} | "
                     f"{parameter_count(L, d, H)} | {len(rs)} |")
    return lines


def law_lines(summaries: dict) -> list[str]:
    """One line per (L, head pattern): the law fitted in d_x, or why there is none."""
    from seprank.network_theory.generic_laws import (
        PATTERNS,
        fit_law,
        generic_caps_sum,
        pattern_heads,
    )

    out = ["| L | heads | sizes decided (d_x) | law in d_x | status | fitted on | "
           "re-checked at | every-weight bound met at d_x |", "|---|---|---|---|---|---|---|---|"]
    for L in sorted({k[0] for k in summaries}):
        for pattern in PATTERNS:
            pts, met = {}, []
            for d in range(1, 9):
                H = pattern_heads(pattern, d)
                s = summaries.get((L, d, H)) if H else None
                if s and s["status"] in ("proven", "agreeing"):
                    pts[d] = s["value"]
                    if s["value"] == generic_caps_sum(L, d, H):
                        met.append(d)
            if len(pts) < 3:
                if pts:
                    out.append(f"| {L} | {pattern} | {_ranges(pts)} | - | too few sizes "
                               f"({len(pts)}) to fit with a spare point | - | - | "
                               f"{_ranges(met) or '-'} |")
                continue
            fit = fit_law(pts, hold_out=1 if len(pts) >= 4 else 0)
            checked = ", ".join(f"{x} ({'agrees' if ok else f'differs: {v}'})"
                                for x, v, ok in fit.held_out) or "-"
            out.append(f"| {L} | {pattern} | {_ranges(pts)} | {fit.formula()} | {fit.status} "
                       f"| {_ranges(fit.fitted_on)} | {checked} | {_ranges(met) or '-'} |")
    return out


def _ranges(xs) -> str:
    xs = sorted(xs)
    return ", ".join(str(x) for x in xs)


def slope_lines(summaries: dict) -> list[str]:
    """log_3 of the generic value against L per (d_x, H) where at least two depths are
    decided, the growth per layer (successive differences), beside the corrected theorem's
    slope D = d_x (d_x + 1)/2 (levine2020 Theorem 2 corrected: log_3 sep < D L)."""
    import math

    out = ["| d_x | H | D | generic sep at L = 1, 2, 3, 4 | log_3 | growth per layer |",
           "|---|---|---|---|---|---|"]
    for d, H in sorted({(k[1], k[2]) for k in summaries}):
        vals = []
        for L in range(1, 5):
            s = summaries.get((L, d, H))
            vals.append(s["value"] if s and s["status"] in ("proven", "agreeing") else None)
        known = [(L, v) for L, v in zip(range(1, 5), vals, strict=True) if v]
        if len(known) < 2 or any(known[i + 1][0] != known[i][0] + 1
                                 for i in range(len(known) - 1)):
            continue
        logs = [math.log(v, 3) for _, v in known]
        steps = [f"{b - a:.2f}" for a, b in zip(logs, logs[1:], strict=False)]
        out.append(f"| {d} | {H} | {d * (d + 1) // 2} | "
                   f"{', '.join(str(v) if v else '-' for v in vals)} | "
                   f"{', '.join(f'{x:.2f}' for x in logs)} | {', '.join(steps)} |")
    return out


def docs_block(rows: list[dict]) -> list[str]:
    """The generated part of docs/generic-laws.md."""
    groups = group(rows + atlas_rows())
    summaries = {k: shape_summary(v) for k, v in groups.items()}     # once, for every table
    return ["### The laws, fitted in d_x", "", *law_lines(summaries), "",
            "### Depth: log_3 of the generic value against L", "",
            "Where the generic value is decided (proven, or three draws agree) at consecutive "
            "depths; the corrected Theorem 2 bounds the growth per layer by D for every "
            "weight (log_3 sep < D L).", "", *slope_lines(summaries), "",
            "### Every shape", "", *table_lines(groups, summaries)]


def write_page(rows: list[dict]) -> None:
    text = PAGE.read_text()
    head, rest = text.split(DOCS_BEGIN, 1)
    _, tail = rest.split(DOCS_END, 1)
    PAGE.write_text(head + DOCS_BEGIN + "\n" + "\n".join(docs_block(rows)) + "\n" + DOCS_END
                    + tail)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=120.0,
                    help="the route's budget_seconds per case (default %(default)s)")
    ap.add_argument("--wall", type=float, default=600.0,
                    help="wall-clock seconds per case before it is stopped (default %(default)s)")
    ap.add_argument("--depths", default="", help="comma-separated L among 1, 2 (default both)")
    ap.add_argument("--widths", default="", help="comma-separated d_x (default 1..8)")
    ap.add_argument("--rerun", action="store_true", help="run the cases already in the JSON")
    ap.add_argument("--report-only", action="store_true", help="rewrite the page only")
    args = ap.parse_args()
    depths, widths = n_infinity._depths(args.depths), n_infinity._depths(args.widths)
    rows = json.loads(JSON_FILE.read_text()) if JSON_FILE.exists() else []
    key = n_infinity.KEY
    import seprank.separation  # noqa: F401 - imported once, before the children fork
    if not args.report_only:
        have = {tuple(r[k] for k in key) for r in rows if "error" not in r}
        todo = [c for c in cases() if (not depths or c[2] in depths)
                and (not widths or c[3] in widths) and (args.rerun or c not in have)]
        for c in todo:
            t0 = time.perf_counter()
            row = n_infinity.guarded(c, args.budget, None, args.wall)
            row["code"] = n_infinity.source_state()
            rows = [r for r in rows if tuple(r[k] for k in key) != c] + [row]
            rows.sort(key=lambda r: tuple(r[k] for k in key[2:]))
            JSON_FILE.write_text(json.dumps(rows, indent=1) + "\n")
            print(c[2:], row.get("sep"), row.get("kind"), row.get("seconds"),
                  row.get("error", ""), f"{time.perf_counter() - t0:.1f} s",
                  file=sys.stderr, flush=True)
    write_page(rows)
    print("\n".join(docs_block(rows)))


if __name__ == "__main__":
    main()
