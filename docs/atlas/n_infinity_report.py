"""Tables and plots of the N -> infinity atlas (``docs/atlas/n_infinity.json``).

Called by ``n_infinity.py`` after a run (or ``python docs/atlas/n_infinity.py
--report-only``). Writes ``n_infinity.md`` (one section per part with its table, kinds
beside every number), ``n_infinity.png`` (log_3 sep against L per d_x, with levine2020's
regime boundary L = log_3 d_x, ``levine2020_depth_to_width_self_attention.txt`` sec. 4
l.120, and the corrected bound's boundary 3^L = d_x^2 + d_x + 1) and
``n_infinity_params.png`` (sep against the number of weights, deep-narrow against
shallow-wide). Only ``exact`` values are drawn as points; every other kind is drawn as its
certified range [lower, upper].
"""

from __future__ import annotations

import math
from pathlib import Path

#: what a non-exact row's range means, for the legends
RANGE_WORDS = "certified range [lower, upper] (not exact)"


def _res(r: dict) -> str:
    return "y" if r["residual"] else ""


def _bound(r: dict, name: str) -> str:
    b = r.get("bounds", {})
    if name not in b:
        return ""
    return b[name]["value"] + ("" if b[name]["respected"] is not False else " **VIOLATED**")


def _range(r: dict) -> str:
    return f"[{r['lower']}, {r['upper']}]"


def params(r: dict) -> int:
    """The number of weights 4 L H d_a d_x of the row's eq. (3) network (levine2020 l.81:
    W^Q, W^K, W^V of d_a x d_x and W^O of d_x x d_a per head and layer)."""
    from seprank.separation.core import parameter_count

    d_a = 1 if r["family"] == "onehot" else r["d_x"] // r["H"]
    return parameter_count(r["L"], r["d_x"], r["H"], d_a)


def _error_line(r: dict, width: int) -> str:
    return (f"| {r['family']} | {r['L']} | {r['d_x']} | {r['H']} | {_res(r)} | {r['seed']} "
            f"| error: {r['error']} |" + " |" * (width - 7))


def random_table(rows: list[dict]) -> list[str]:
    """The random-weights rows beside the bounds that apply (the first atlas's table)."""
    from seprank.network_theory.corrected_bounds import corrected_upper
    from seprank.network_theory.one_hot import family_seps_by_layer

    head = ["family", "L", "d_x", "H", "res", "seed", "sep", "kind", "exact from N",
            "certified range", "C(C+D,D)", "one-hot family", "L-Thm3", "L-Thm4", "L-Thm6", "s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if "error" in r:
            lines.append(_error_line(r, len(head)))
            continue
        lines.append("| " + " | ".join(str(x) for x in (
            r["family"], r["L"], r["d_x"], r["H"], _res(r), r["seed"], r["sep"], r["kind"],
            r["exact_from_N"] or "", _range(r), corrected_upper(r["L"], r["d_x"]),
            max(family_seps_by_layer(r["d_x"], r["L"])[r["L"] - 1]),
            _bound(r, "L-Thm3"), _bound(r, "L-Thm4"), _bound(r, "L-Thm6"), r["seconds"])) + " |")
    return lines


def family_table(rows: list[dict]) -> list[str]:
    """Structured rows: value, kind, range, the one-hot closed form where it applies."""
    from seprank.network_theory.corrected_bounds import corrected_upper

    head = ["family", "L", "d_x", "H", "res", "seed", "sep", "kind", "exact from N",
            "certified range", "closed form (exact, theory)", "sep = closed form",
            "C(C+D,D)", "s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if "error" in r:
            lines.append(_error_line(r, len(head)))
            continue
        cf = r.get("closed_form", "")
        same = "" if cf == "" else ("yes" if r["sep"] == cf else "**no**") + f" ({r['kind']})"
        lines.append("| " + " | ".join(str(x) for x in (
            r["family"], r["L"], r["d_x"], r["H"], _res(r), r["seed"], r["sep"], r["kind"],
            r["exact_from_N"] or "", _range(r), cf, same, corrected_upper(r["L"], r["d_x"]),
            r["seconds"])) + " |")
    return lines


def best_by_shape(rows: list[dict]) -> dict:
    """(L, d_x) -> the largest exact sep of plain random rows, and the widest certified range
    of the others: {"exact": int | None, "lower": int, "upper": int}."""
    out: dict = {}
    for r in rows:
        if r["family"] != "random" or r["residual"] or "error" in r:
            continue
        e = out.setdefault((r["L"], r["d_x"]), {"exact": None, "lower": 0, "upper": 0})
        if r["kind"] == "exact":
            e["exact"] = max(e["exact"] or 0, r["sep"])
        e["lower"] = max(e["lower"], r["lower"])
        e["upper"] = max(e["upper"], r["upper"])
    return out


def increments(rows: list[dict]) -> list[dict]:
    """Per d_x: log_3 of the best exact plain random sep per L and its increments
    Delta_L = log_3 sep(L) - log_3 sep(L - 1) (both exact), with the paper's boundary."""
    from seprank.network_theory.corrected_bounds import moment_boundary

    best, out = best_by_shape(rows), []
    for d in sorted({d for _, d in best}):
        logs = {L: math.log(v["exact"], 3) for (L, dd), v in best.items()
                if dd == d and v["exact"]}
        deltas = {L: logs[L] - logs[L - 1] for L in logs if L - 1 in logs}
        ratios = {L: deltas[L] / deltas[L - 1] for L in deltas if L - 1 in deltas}
        # the kink: the first L whose next increment is < BEND_RATIO x the one before
        bend = min((L - 1 for L, q in ratios.items() if q < BEND_RATIO), default=None)
        out.append({"d_x": d, "log3": logs, "delta": deltas, "ratio": ratios, "bend": bend,
                    "paper_L": math.log(d, 3),
                    "moment_L": math.log(moment_boundary(d)["threshold_3^L"], 3)})
    return out


#: the curve kinks at L when Delta_(L+1) / Delta_L < this: in the double exponential
#: regime log_3 sep grows like C(L) = (3^L - 1)/2 and its increments nearly triple
BEND_RATIO = 2.0


def depth_lines(rows: list[dict]) -> list[str]:
    """The table of increments under plot (a)."""
    lines = ["| d_x | log_3 d_x (levine2020) | log_3(d_x^2+d_x+1) (corrected bound) | "
             "log_3 sep at L = 1, 2, 3, 4 (exact) | increments Delta_2, Delta_3, Delta_4 | "
             "ratios Delta_3/Delta_2, Delta_4/Delta_3 | kink at L (next ratio < 2) |",
             "|---|---|---|---|---|---|---|"]

    def fmt(values: dict, keys: tuple) -> str:
        return ", ".join(f"{values[k]:.2f}" if k in values else "-" for k in keys)

    for e in increments(rows):
        lines.append(f"| {e['d_x']} | {e['paper_L']:.2f} | {e['moment_L']:.2f} | "
                     f"{fmt(e['log3'], (1, 2, 3, 4))} | {fmt(e['delta'], (2, 3, 4))} | "
                     f"{fmt(e['ratio'], (3, 4))} | {e['bend'] or 'not measurable'} |")
    return lines


def params_lines(rows: list[dict]) -> list[str]:
    """Shapes sorted by parameter count with the best exact value or the certified range."""
    from seprank.network_theory.corrected_bounds import corrected_upper
    from seprank.separation.core import parameter_count

    lines = ["| params 4 L d_x^2 | L | d_x | best exact sep (plain random) | kind | "
             "largest certified lower, largest certified upper (all plain random rows) | "
             "C(C+D,D) |",
             "|---|---|---|---|---|---|---|"]
    best = best_by_shape(rows)
    for (L, d), v in sorted(best.items(), key=lambda kv: (parameter_count(*kv[0], 1), kv[0])):
        lines.append(f"| {parameter_count(L, d, 1)} | {L} | {d} | {v['exact'] or '-'} | "
                     f"{'exact' if v['exact'] else '-'} | [{v['lower']}, {v['upper']}] | "
                     f"{corrected_upper(L, d)} |")
    return lines


def _interval(ax, x: float, lo: float, hi: float, color: str) -> None:
    ax.plot([x, x], [lo, hi], color=color, lw=1.5, alpha=0.6)
    ax.plot([x - 0.04, x + 0.04], [hi, hi], color=color, lw=1, alpha=0.6)


def plot_depth(rows: list[dict], path: Path) -> None:
    """(a) log_3 sep against L per d_x (random weights): exact values (dots; squares with
    residual), certified ranges (bars), the corrected upper bound (line), levine2020's
    boundary L = log_3 d_x (dotted) and the corrected bound's 3^L = d^2 + d + 1 (dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from seprank.network_theory.corrected_bounds import corrected_upper

    fig, ax = plt.subplots(figsize=(7.5, 5))
    rand = [r for r in rows if r["family"] == "random" and "error" not in r and r["sep"] >= 1]
    marks = {e["d_x"]: e for e in increments(rows)}
    for n, d in enumerate(sorted({r["d_x"] for r in rand})):
        color = f"C{n}"
        Ls = sorted({r["L"] for r in rand if r["d_x"] == d})
        ax.plot(Ls, [math.log(corrected_upper(L, d), 3) for L in Ls], "-", color=color, lw=0.8)
        if d > 1:
            ax.axvline(math.log(d, 3), color=color, ls=":", lw=1)
        if d in marks:
            ax.axvline(marks[d]["moment_L"], color=color, ls="--", lw=0.7, alpha=0.6)
            if marks[d]["bend"]:
                L = marks[d]["bend"]
                ax.plot(L, marks[d]["log3"][L], "*", color=color, ms=13, mfc="none")
        for r in (r for r in rand if r["d_x"] == d):
            x = r["L"] + (0.08 if r["residual"] else -0.08)
            if r["kind"] == "exact":
                ax.plot(x, math.log(r["sep"], 3), "s" if r["residual"] else "o", color=color,
                        ms=3.5)
            else:
                _interval(ax, x, math.log(max(r["lower"], 1), 3), math.log(r["upper"], 3), color)
        ax.plot([], [], "o", color=color, label=f"d_x = {d}")
    ax.plot([], [], "-", color="k", lw=0.8, label="C(C(L)+D, D) (corrected upper bound)")
    ax.plot([], [], "s", color="k", ms=3.5, label="exact, residual (squares)")
    ax.plot([], [], "|", color="k", label=RANGE_WORDS)
    ax.plot([], [], ":", color="k", label="levine2020's transition L = log_3 d_x")
    ax.plot([], [], "--", color="k", lw=0.7, label="corrected bound's bend 3^L = d_x^2+d_x+1")
    ax.plot([], [], "*", color="k", ms=10, mfc="none",
            label="measured kink: the next increment < 2x the previous one")
    ax.set(xlabel="depth L", ylabel="log_3 sep as N -> infinity", xlim=(0.4, 4.4),
           title="separation rank as N -> infinity, random integer weights")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_params(rows: list[dict], path: Path) -> None:
    """(b) sep (log scale) against the number of weights 4 L d_x^2, plain random weights:
    exact values as points coloured by depth, other kinds as certified ranges."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 5))
    rand = [r for r in rows if r["family"] == "random" and not r["residual"] and "error" not in r
            and r["sep"] >= 1]
    markers = {1: "v", 2: "o", 3: "s", 4: "D", 5: "P", 6: "X"}
    for r in rand:
        color, x = f"C{r['L'] - 1}", params(r) * (1 + 0.02 * (r["H"] - 1))
        if r["kind"] == "exact":
            ax.plot(x, r["sep"], markers[r["d_x"]], color=color, ms=5, alpha=0.8)
        else:
            ax.plot([x, x], [max(r["lower"], 1), r["upper"]], color=color, lw=1.5, alpha=0.6)
            ax.plot(x, r["upper"], "_", color=color, ms=8)
            ax.plot(x, max(r["lower"], 1), "_", color=color, ms=8)
    for L in sorted({r["L"] for r in rand}):
        ax.plot([], [], "-", color=f"C{L - 1}", lw=4, label=f"L = {L}")
    for d in sorted({r["d_x"] for r in rand}):
        ax.plot([], [], markers[d], color="k", label=f"d_x = {d} (exact)")
    ax.plot([], [], "|", color="k", label=RANGE_WORDS)
    ax.set(xscale="log", yscale="log", xlabel="weights 4 L H d_a d_x = 4 L d_x^2",
           ylabel="sep as N -> infinity",
           title="deep-narrow vs shallow-wide at N -> infinity (plain, random weights)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


INTRO = (
    "Each value is the separation rank of y_1^1 for every partition with >= d_x + 1 positions "
    "on the output's side and >= d_x on the other (the moment route's Proposition 2), computed "
    "by `seprank.separation_rank(..., N=math.inf)`; `exact` values hold for every balanced "
    "N >= the 'exact from N' column. `lower_bound` rows were cut by the budget and "
    "`probabilistic` rows are ranks mod a random prime with a stated error bound: for both "
    "the certified range is [lower, upper]. Beside each value: the corrected upper bound "
    "C(C(L) + D, D), D = d_x(d_x+1)/2, that holds for every weight, and the bounds that "
    "apply. The N = 2 atlas (README.md here) is limited by the instance size; this one by "
    "the network.")


def _runs_table(runs: dict) -> list[str]:
    lines = ["| part | cases | budget s per case | lift max | wall s per case | s in all | "
             "load at start |", "|---|---|---|---|---|---|---|"]
    for part, m in runs.items():
        lines.append(f"| {part} | {m['cases']} | {m['budget_s']} | {m['lift_max']} | "
                     f"{m['wall_s'] or '-'} | {m['seconds']} | {m['load']} |")
    return lines


def _counts(rows: list[dict]) -> str:
    from collections import Counter

    c = Counter((r["family"], r.get("kind", "error")) for r in rows)
    return ", ".join(f"{f} {k}: {n}" for (f, k), n in sorted(c.items()))


def one_hot_summary(rows: list[dict]) -> str:
    """One sentence: how the one-hot rows compare with their closed form."""
    oh = [r for r in rows if r["family"] == "onehot" and "error" not in r]
    ex = [r for r in oh if r["kind"] == "exact"]
    bad = [r for r in ex if r["sep"] != r["closed_form"]]
    other = [r for r in oh if r["kind"] != "exact"]
    inside = [r for r in other if r["lower"] <= r["closed_form"] <= r["upper"]]
    same = [r for r in other if r["sep"] == r["closed_form"]]
    text = (f"Of {len(oh)} one-hot rows, {len(ex)} are exact and "
            f"{len(ex) - len(bad)} of them equal the closed form prod(e + 1)")
    if bad:
        text += " (**differing: " + "; ".join(
            f"L={r['L']} d_x={r['d_x']}: {r['sep']} vs {r['closed_form']}" for r in bad) + "**)"
    text += (f"; of the {len(other)} others ({', '.join(sorted({r['kind'] for r in other}))}), "
             f"{len(same)} have the closed form as their value and {len(inside)} have it inside "
             "their certified range.")
    return text


def write(rows: list[dict], runs: dict, folder: Path) -> None:
    """Write n_infinity.md, n_infinity.png and n_infinity_params.png into ``folder``."""
    part = {name: [r for r in rows if r["family"] == name] for name in
            ("onehot", "repeated", "permutation")}
    rand = [r for r in rows if r["family"] == "random"]
    beyond = [r for r in rand if r["d_x"] >= 5]
    lines = ["# Separation ranks as N -> infinity (the moment route)", "",
             "Generated by `python docs/atlas/n_infinity.py` (module docstring: the parts, the "
             "budgets). " + INTRO, "", "Runs (each part's last run):", "", *_runs_table(runs),
             "", f"Rows per family and kind: {_counts(rows)}.", "",
             "## Random weights (L <= 3, d_x <= 4; L = 4, d_x <= 3)", "",
             "The 'one-hot family' column is the counterexample family's best output at the "
             "same width (H = d_x one-dimensional heads), for scale; L-Thm3, L-Thm4 (plain) "
             "and L-Thm6 (residual) are levine2020's bounds, marked when violated.", "",
             *random_table([r for r in rand if r["d_x"] <= 4]), "",
             "## Structured families", "", PARAGRAPHS["structured"], "",
             one_hot_summary(rows), "",
             *family_table(part["onehot"] + part["repeated"] + part["permutation"]), "",
             "## Certified lower bounds beyond (L = 3, d_x = 5, 6)", "", PARAGRAPHS["beyond"],
             "", *random_table(beyond), "",
             "## log_3 sep against L: where the curves bend", "",
             "![log_3 sep vs L](n_infinity.png)", "", PARAGRAPHS["depth"], "",
             *depth_lines(rows), "",
             "## sep against parameter count: deep-narrow vs shallow-wide", "",
             "![sep vs parameters](n_infinity_params.png)", "", PARAGRAPHS["params"], "",
             *params_lines(rows), ""]
    (folder / "n_infinity.md").write_text("\n".join(lines))
    plot_depth(rows, folder / "n_infinity.png")
    plot_params(rows, folder / "n_infinity_params.png")


#: the paragraph of each section (written from the rows of the run committed beside them;
#: the numbers in the tables are generated, these sentences are not: rewrite them after a rerun)
PARAGRAPHS = {
    "structured": (
        "The one-hot rows are the counterexample's network itself (H = d_x heads of dimension "
        "1 whose output is a monomial x_p prod S_bc^e_bc in the moment entries); their "
        "closed form prod(e + 1) is a theorem (`network_theory/one_hot.py`), so it is the "
        "expectation: every exact one-hot value equals it (exact at L = 1, 2 for every "
        "d_x <= 4 and at L = 3 for d_x <= 2). Where the route stops short of `exact` the "
        "closed form is its value and inside the certified range: L = 3, d_x = 3 is 400 "
        "(probabilistic; certified range [400, 3086]) and L = 3, d_x = 4 has the certified "
        "lower bound 1080, the closed form itself (range [1080, 31460]). Repeated heads (H "
        "copies of one random head) stay far below random weights of the same shape "
        "(L = 2, d_x = 4, H = 2: 46 against 107 for both random seeds, all exact), as H "
        "equal heads act as one head scaled by H. Permutation weights with H = 1 reach or "
        "pass the random seeds' best values (L = 2, d_x = 2, 3, 4: 18, 49, 110 against 17, "
        "49, 110; L = 3, d_x = 3: 3102 against 3102; all exact; 18 is the block-form bound "
        "`block_upper(2, 2, 3)`); with H > 1 they often give y_1^1 = 0 identically (the "
        "one-hot output columns never reach coordinate 0; sep 0 exact, and an evaluation of "
        "the network at random integer points gives 0), so their plain rows say nothing "
        "about depth. Residual L = 3 rows at d_x >= 3 now get certified lower bounds within "
        "the 15 s budget (sampled blocks and truncated token ranks: 51 to 3349), against "
        "certified upper bounds of C(C+D, D) or the cap; none is exact."),
    "beyond": (
        "With 15 estimated seconds per case (8.2 s and 7.9 s measured) the moment route "
        "certifies sep >= 5016 at d_x = 5 and >= 5389 at d_x = 6 for L = 3, H = 1 (random "
        "weights, seed 0), with certified upper bounds 248064 and 1578720 (the route's, far "
        "below C(C+D, D)). These lower bounds say how far the budget went, not the network: "
        "most of their blocks are sampled at fewer points than their caps and every sample "
        "came out full rank. The benchmark (`benchmarks/results/sep_rank_moment.md`) reaches "
        "17934 at d_x = 6, H = 2 in 127 s, and the exact L = 3 values at d_x = 3 and 4 "
        "(3102; 31095) show that the true values are larger."),
    "depth": (
        "log_3 sep of random weights grows linearly in L from the start at d_x = 1 "
        "(increments 0.83, 0.94, 0.98, tending to D = 1) and at d_x = 2 its increments "
        "(1.58, 2.31, 2.78) approach the slope D = 3 of the corrected bound's linear "
        "regime by L = 4. At d_x = 3 and 4 the increments grow (2.28 then 3.78; 2.81 then "
        "5.14, the exact L = 3, d_x = 4, H = 2 value 31095 of the `deep` part, 1035 s with "
        "the docs' sweeps running beside it), faster than "
        "at d_x = 2 but never tripling (the signature of the double exponential regime "
        "log_3 sep ~ C(L)): by the ratio criterion every curve with three exact depths "
        "kinks at L = 2 (stars; ratio 1.83 at d_x = 4, the closest to 2). levine2020 puts "
        "the transition at L = log_3 d_x (dotted), at most 1.26 for d_x <= 4, so every "
        "measured depth but L = 1 at d_x = 4 lies in its second regime; the corrected "
        "bound's own bend (3^L = d_x^2 + d_x + 1, dashed: L = 1.77, 2.33, 2.77 for d_x = 2, "
        "3, 4) lies later. With one exact depth past it at d_x = 3 and 4 (L = 3) and L = 4 "
        "only a certified range there, whether the curves follow the corrected bound's bend "
        "is open beyond d_x = 2."),
    "params": (
        "Parameters counted as the weights of eq. (3): per layer and head W^Q, W^K, W^V "
        "(d_a x d_x) and W^O (d_x x d_a), 4 L H d_a d_x = 4 L d_x^2 as H d_a = d_x "
        "(`seprank.separation.core.parameter_count`). At equal counts the deep-narrow "
        "network has the larger exact separation rank every time: 16 weights, L = 4, "
        "d_x = 1: 41 against L = 1, d_x = 2: 3; 64 weights, L = 4, d_x = 2: 4538 against "
        "L = 1, d_x = 4: 5 (and L = 2, d_x = 3 with 72 weights: 49); 108 weights, L = 3, "
        "d_x = 3: 3102 against 128 weights, L = 2, d_x = 4: 110; and L = 3, d_x = 4 with "
        "192 weights reaches 31095. At these sizes width buys little at fixed depth and "
        "depth buys much at fixed width, as levine2020's first regime would have it, "
        "although by its boundary L = log_3 d_x these shapes are in the second (depth and "
        "width alike); the N = 2 atlas could not show this, as its values are capped by the "
        "instance size."),
}
