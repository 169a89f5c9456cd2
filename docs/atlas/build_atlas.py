"""Build docs/atlas/README.md and its plots from the sweep stores beside this file.

    seprank sweep docs/atlas/random_n2.toml        # (resumable; one per spec)
    seprank sweep docs/atlas/structured_n2.toml
    seprank sweep docs/atlas/random_n4.toml
    python docs/atlas/build_atlas.py

Reads every ``*.sqlite`` store of the ``separation_rank`` computation here and writes
the Markdown tables (every instance beside the bounds that apply), two plots
(``log3_sep_vs_L.png``: log_3 sep against L per d_x, H = 1, with Theorems 3 and 4
overlaid; ``sep_vs_parameters.png``: separation rank against the number of weights
4 L H d_a d_x, deep-narrow vs shallow-wide) and a list of findings: any value above an
upper bound or below a lower bound that the result itself marks as not respected.
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path

from seprank.separation.grid.route import size_cap
from seprank.sweep.store import ResultStore

HERE = Path(__file__).resolve().parent
STORES = ("random_n2", "structured_n2", "random_n4")


def load(name: str) -> list[dict]:
    path = HERE / f"{name}.sqlite"
    if not path.exists():
        return []
    out = []
    with ResultStore(path, create=False) as db:
        for row in db.rows(computation="separation_rank"):
            if row.ok:
                out.append(row.result)
            else:
                out.append({"failed": row.error, **row.params})
    return out


def _bound(r: dict, name: str) -> str:
    b = r.get("bounds", {}).get(name)
    if b is None:
        return ""
    mark = {True: "", False: " **VIOLATED**", None: " (undecided)"}[b["respected"]]
    return f"{b['value']}{mark}"


def _cap(r: dict) -> int:
    n = r["network"]
    return size_cap(n["L"], n["d_x"], r["seq_len"], tuple(r["partition"]["I"]), r["position"],
                    r["residual"])


def table(rows: list[dict]) -> list[str]:
    lines = ["| L | d_x | H | d_a | res | family | seed | sep | kind | size cap | route | Thm3 | "
             "Thm4 | Thm5 | Thm6 | s |", "|" + "---|" * 16]
    def key(r):
        return (r["network"]["L"], r["network"]["d_x"], r["network"]["H"], r["residual"],
                r["family"], r["seed"])

    for r in sorted((r for r in rows if "failed" not in r), key=key):
        n = r["network"]
        lines.append(
            f"| {n['L']} | {n['d_x']} | {n['H']} | {n['d_a']} | {'y' if r['residual'] else ''} "
            f"| {r['family']} | {r['seed']} | {r['value']} | {r['kind']} | {_cap(r)} | "
            f"{r['route']} | "
            f"{_bound(r, 'L-Thm3')} | {_bound(r, 'L-Thm4')} | {_bound(r, 'L-Thm5')} | "
            f"{_bound(r, 'L-Thm6')} | {r['details']['seconds']} |")
    failed = [r for r in rows if "failed" in r]
    if failed:
        lines += ["", f"{len(failed)} tasks failed:"] + [f"- {r}" for r in failed]
    return lines


def findings(rows: list[dict]) -> list[str]:
    out = []
    for r in rows:
        for name, b in r.get("bounds", {}).items():
            if b["respected"] is False:
                n = r["network"]
                out.append(f"- {name} {b['kind']} bound {b['value']} vs sep {r['value']} "
                           f"({r['kind']}): L={n['L']} d_x={n['d_x']} H={n['H']} "
                           f"residual={r['residual']} family={r['family']} seed={r['seed']}; "
                           f"reproduce: `seprank sep-rank -L {n['L']} --width {n['d_x']} "
                           f"-H {n['H']}{' --residual' if r['residual'] else ''} "
                           f"-N {r['seq_len']} --seed {r['seed']}` (family {r['family']}: "
                           "weights in the store)")
    return out


def plots(rows: list[dict]) -> list[str]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover
        return ["(matplotlib not installed: no plots)"]
    from seprank.papers.levine2020.bounds import thm3_bound, thm4_bound

    exact = [r for r in rows if "failed" not in r and r["kind"] == "exact" and r["value"] > 0]
    # 1. log_3 sep vs L per d_x (H = 1, no residual, max over seeds)
    best = defaultdict(int)
    for r in exact:
        n = r["network"]
        if n["H"] == 1 and not r["residual"] and r["family"] == "random":
            best[(n["d_x"], n["L"])] = max(best[(n["d_x"], n["L"])], r["value"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for d_x in sorted({d for d, _ in best}):
        Ls = sorted(L for d, L in best if d == d_x)
        line, = ax.plot(Ls, [math.log(best[(d_x, L)], 3) for L in Ls], "o-",
                        label=f"d_x={d_x}")
        ax.plot(Ls, [math.log(thm3_bound(L, 1, d_x), 3) for L in Ls], ":",
                color=line.get_color())
        ax.plot(Ls, [math.log(float(thm4_bound(L, d_x)), 3) for L in Ls], "--",
                color=line.get_color(), alpha=0.5)
    ax.set_xlabel("depth L")
    ax.set_ylabel("log_3 sep (random weights, max over seeds)")
    ax.set_title("N = 2, H = 1: exact sep (solid), Thm 3 (dotted), Thm 4 (dashed)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(HERE / "log3_sep_vs_L.png", dpi=110)
    plt.close(fig)
    # 2. sep vs parameter count: deep-narrow (L >= 2) vs shallow-wide (L = 1)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for L, marker in ((1, "s"), (2, "o"), (3, "^")):
        pts = [(r["parameters"], r["value"]) for r in exact
               if r["network"]["L"] == L and not r["residual"] and r["family"] == "random"]
        if pts:
            ax.scatter(*zip(*pts, strict=True), marker=marker, label=f"L={L}", alpha=0.7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("weights 4 L H d_a d_x")
    ax.set_ylabel("exact separation rank")
    ax.set_title("N = 2, random weights: depth vs width at equal parameter count")
    ax.legend()
    fig.tight_layout()
    fig.savefig(HERE / "sep_vs_parameters.png", dpi=110)
    plt.close(fig)
    return ["![log_3 sep vs L](log3_sep_vs_L.png)", "",
            "![sep vs parameters](sep_vs_parameters.png)"]


#: the files of docs/atlas/ (listed at the top of README.md)
FILES = [
    "## Files", "",
    "- `random_n2.toml`, `structured_n2.toml`, `random_n4.toml` and their `*.sqlite` stores: "
    "the N = 2 and N = 4 sweeps (this page, `build_atlas.py`; plots `log3_sep_vs_L.png`, "
    "`sep_vs_parameters.png`). Limited by the instance size.",
    "- `n_infinity.py` (runs the cases, writes `n_infinity.json` and `n_infinity_runs.json`) and "
    "`n_infinity_report.py` (writes `n_infinity.md`, `n_infinity.png`: log_3 sep against L with "
    "the regime boundaries, `n_infinity_params.png`: sep against parameter count): the atlas "
    "as N -> infinity (the moment route), random weights, the one-hot counterexample "
    "against its closed form, repeated heads, permutation weights, and certified lower "
    "bounds at L = 3, d_x = 5, 6.",
    "- `gap_points.py` -> `gap_points.json`, `gap_points.md`: certified lower bounds at the "
    "points of levine2020 Theorem 1's regime that the check L-Thm1 leaves open.",
    ""]


def main() -> int:
    data = {name: load(name) for name in STORES}
    every = [r for rows in data.values() for r in rows]
    lines = ["# Atlas of exact separation ranks", "",
             "Generated by `python docs/atlas/build_atlas.py` from the sweep stores here "
             "(specs: `random_n2.toml`, `structured_n2.toml`, `random_n4.toml`; rerun "
             "`seprank sweep SPEC` to resume or extend them). Every value is the separation "
             "rank of y_1^1 (position 0, coordinate 0, 0-based) w.r.t. I = the first half of "
             "the positions, computed by `seprank.separation_rank` (kind `exact` unless "
             "marked). Grid points that `seprank.separation.sizes.feasible` rejects (L = 3 with "
             "d_x >= 6; residual L = 3 with d_x >= 3, residual L = 2 with d_x >= 6) are left "
             "out by the specs and listed by `seprank sweep SPEC --dry-run`.", "",
             "The *size cap* is the certified upper bound that the instance size alone "
             "allows (sum over the degree blocks of min(#I-monomials, #J-monomials), "
             "`seprank.separation.grid.route.size_cap`); where sep equals it, the size, not "
             "the network, limits the rank (at N = 2 this is the case for most L = 3 "
             "entries), and a paper bound above the cap cannot be tested there (the bound "
             "checks L-Thm3..L-Thm6 use binding sizes instead).", "",
             f"{len(every)} instances; {sum(1 for r in every if r.get('kind') == 'exact')} "
             "exact, the others certified lower bounds (the grid route's value below its "
             "cap, with the coefficient route too large).", "", *FILES, "## Findings", ""]
    found = findings(every)
    lines += found or ["No measured rank is above an upper bound or below a lower bound that "
                       "applies (Theorems 1 and 2's lower bounds are for almost all weights)."]
    lines += ["", "## Plots", ""] + plots(every)
    for name, rows in data.items():
        lines += ["", f"## {name}", ""] + (table(rows) if rows else ["(not run yet)"])
    (HERE / "README.md").write_text("\n".join(lines) + "\n")
    print(f"{HERE / 'README.md'}: {len(every)} instances, {len(found)} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
