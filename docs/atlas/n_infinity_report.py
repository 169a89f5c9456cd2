"""Tables, plots and sentences of the N -> infinity atlas (``docs/atlas/n_infinity.json``).

Called by ``n_infinity.py`` after a run (or ``python docs/atlas/n_infinity.py
--report-only``). Writes ``n_infinity.md`` (one section per part, kinds beside every
number), ``n_infinity.png`` (log_3 sep against L, one panel per d_x: the generic values
beside the proven bounds: the corrected upper bound C(C(L) + D, D), D = d_x(d_x+1)/2, valid
for every weight, and the one-hot family's exact values, lower bounds of the generic value
at H = d_x), ``n_infinity_params.png`` (sep against the number of weights) and the
generated summary of the atlas section of ``docs/separation-ranks.md``.

The sentences are generated from the rows where they state a count or a comparison
(:func:`seed_sentence`, :func:`depth_sentence`, :func:`width_sentence`); the remaining
prose (``PARAGRAPHS``) was written from the committed rows and names the numbers it
rests on, which the tables beside it show.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

#: what a non-exact row's range means, for the legends
RANGE_WORDS = "certified range [lower, upper] (not exact)"
#: the markers of the generated block in docs/separation-ranks.md
DOCS_BEGIN, DOCS_END = "<!-- atlas-n-infinity:begin -->", "<!-- atlas-n-infinity:end -->"


def _res(r: dict) -> str:
    return "y" if r["residual"] else ""


def _bound(r: dict, name: str) -> str:
    b = r.get("bounds", {})
    if name not in b:
        return ""
    return b[name]["value"] + ("" if b[name]["respected"] is not False else " **VIOLATED**")


def _range(r: dict) -> str:
    return f"[{r['lower']}, {r['upper']}]"


def _ok(r: dict) -> bool:
    return "error" not in r


def params(r: dict) -> int:
    """The number of weights 4 L H d_a d_x of the row's eq. (3) network (levine2020 l.81:
    W^Q, W^K, W^V of d_a x d_x and W^O of d_x x d_a per head and layer)."""
    from seprank.separation.sizes import parameter_count

    d_a = 1 if r["family"] == "onehot" else r["d_x"] // r["H"]
    return parameter_count(r["L"], r["d_x"], r["H"], d_a)


def one_hot_value(L: int, d: int) -> int:
    """The one-hot family's exact sep at width d, depth L, largest over the output
    coordinate: a lower bound of the generic sep at H = d_x, d_a = 1 (the generic rank
    is the largest rank over the weights, and a coordinate permutation of the weights
    moves any coordinate to coordinate 0)."""
    from seprank.network_theory.one_hot import family_seps_by_layer

    return max(family_seps_by_layer(d, L)[L - 1])


# -- the generic part, per shape -------------------------------------------------------------

def shapes(rows: list[dict], part: str = "generic") -> dict:
    """(L, d_x, H, residual) -> the part's rows of that shape, by seed."""
    out: dict = {}
    for r in rows:
        if r.get("part") == part:
            out.setdefault((r["L"], r["d_x"], r["H"], r["residual"]), []).append(r)
    return {k: sorted(v, key=lambda r: r["seed"]) for k, v in sorted(out.items())}


def agreement(group: list[dict]) -> str:
    """Whether a shape's seeds agree: ``yes`` (every seed exact, one value), ``NO`` (two
    exact values differ, or certified ranges that cannot hold a common value: a draw
    was not generic), ``open`` (some seed not exact, the ranges share a value),
    ``one seed`` (only one seed was run: nothing to agree) or ``error`` (a seed has no
    value)."""
    if any(not _ok(r) for r in group):
        return "error"
    if len(group) == 1:
        return "one seed"
    exact = {r["sep"] for r in group if r["kind"] == "exact"}
    if len(exact) > 1:
        return "NO"
    if max(r["lower"] for r in group) > min(r["upper"] for r in group):
        return "NO"
    if len(exact) == 1 and all(r["kind"] == "exact" for r in group):
        return "yes"
    return "open"


def generic_value(group: list[dict]) -> dict:
    """What a shape's seeds say of the generic value: ``value`` (the exact value where every
    seed is exact and they agree, or the one seed run is exact; else None), ``lower``
    (the largest certified lower bound: every draw's rank is at most the generic rank)
    and ``upper`` (the smallest certified upper bound of a draw: not a bound of the
    generic value unless it holds for every weight, see ``upper_all``), ``upper_all``
    (the smallest bound valid for every weight that the rows state)."""
    ok = [r for r in group if _ok(r)]
    if not ok:
        return {"value": None, "lower": 0, "upper": None, "upper_all": None}
    agree = agreement(group) == "yes" or (agreement(group) == "one seed"
                                          and ok[0]["kind"] == "exact")
    alls = [r["generic"]["upper_bound_all_weights"] for r in ok if r.get("generic")]
    return {"value": ok[0]["sep"] if agree else None, "lower": max(r["lower"] for r in ok),
            "upper": min(r["upper"] for r in ok), "upper_all": min(alls) if alls else None}


_CLAIMS = {"exact for almost every weight": "exact a.e. (meets the every-weight bound)",
           "lower bound for almost every weight; equal with probability >= 1 - epsilon":
               "lower bound a.e.; equal w.p. >= 1 - eps",
           "lower bound for almost every weight": "lower bound a.e."}


def _claim(r: dict) -> str:
    g = r.get("generic") or {}
    return _CLAIMS.get(g.get("claim"), str(g.get("claim")))


def _eps(r: dict) -> str:
    e = (r.get("generic") or {}).get("epsilon")
    return "" if e is None else ("0" if e == 0 else f"{e:.2g}")


def basis_tag(r: dict) -> str:
    """A short name for what the value rests on (the row's ``basis`` sentence)."""
    b = r.get("basis", "")
    if b.startswith("Proposition 2' with blocks ranked mod p"):
        return "Prop. 2', blocks mod p (range)"
    if b.startswith("Proposition 2'"):
        return "Prop. 2', rank_Q C_F certified"
    m = re.match(r"(.{0,60})", b)
    return m.group(1) + ("..." if len(b) > 60 else "") if m else ""


def generic_table(rows: list[dict], part: str = "generic") -> list[str]:
    """One line per shape: the three seeds' values and kinds, their agreement, the
    certified range, the claim for almost every weight, the times and the load."""
    head = ["L", "d_x", "H", "res", "sep (seeds 0, 1, 2)", "kind", "seeds agree",
            "certified range", "exact from N", "every-weight bound", "claim for almost "
            "every weight", "max epsilon", "rests on", "s per seed", "load at start"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (L, d, H, res), g in shapes(rows, part).items():
        ok = [r for r in g if _ok(r)]
        agree = agreement(g)
        vals = ", ".join(str(r["sep"]) if _ok(r) else "error" for r in g)
        kinds = ", ".join(sorted({r["kind"] for r in ok})) or "-"
        rng = "; ".join(_range(r) for r in ok if r["kind"] != "exact") or "-"
        efn = ", ".join(sorted({str(r["exact_from_N"]) for r in ok if r["exact_from_N"]}))
        alls = ", ".join(sorted({str(r["generic"]["upper_bound_all_weights"]) for r in ok
                                 if r.get("generic")}))
        claims = "; ".join(sorted({_claim(r) for r in ok}))
        eps = [r["generic"]["epsilon"] for r in ok if r.get("generic")
               and r["generic"].get("epsilon") is not None]
        tags = "; ".join(sorted({basis_tag(r) for r in ok}))
        secs = ", ".join(str(r["seconds"]) for r in g)
        loads = ", ".join(str(r.get("load_start", ["?"])[0]) for r in g)
        errs = "; ".join(r["error"] for r in g if not _ok(r))
        agree_cell = {"NO": "**NO: a draw is not generic**"}.get(agree, agree)
        lines.append("| " + " | ".join(str(x) for x in (
            L, d, H, "y" if res else "", vals, kinds + (f" (error: {errs})" if errs else ""),
            agree_cell, rng, efn, alls, claims, f"{max(eps):.2g}" if eps else "", tags,
            secs, loads)) + " |")
    return lines


def seed_sentence(rows: list[dict]) -> str:
    """How many shapes' seeds agree (and which do not), generated from the rows."""
    groups = shapes(rows)
    c = Counter(agreement(g) for g in groups.values())
    text = (f"Of {len(groups)} shapes, the three seeds agree on an exact value in "
            f"{c['yes']}")
    few = [(k, g) for k, g in groups.items() if len(g) < 3]
    if few:
        text += (f"; in {len(few)} not every seed was run yet ("
                 + ", ".join(f"L={L} d_x={d} H={H}{' residual' if res else ''}: seed(s) "
                             + ", ".join(str(r["seed"]) for r in g)
                             for (L, d, H, res), g in few)
                 + "; a single seed has nothing to agree with)")
    if c["open"]:
        text += f"; in {c['open']} not every seed is exact and their certified ranges overlap"
    if c["error"]:
        text += f"; in {c['error']} a seed has no value (stopped)"
    bad = [k for k, g in groups.items() if agreement(g) == "NO"]
    if bad:
        text += (f". **The seeds DISAGREE in {len(bad)} shape(s): "
                 + "; ".join(f"L={L} d_x={d} H={H}{' residual' if res else ''}: "
                             + ", ".join(f"{r['sep']} ({r['kind']})" for r in groups[k])
                             for k in bad for (L, d, H, res) in [k])
                 + ": a draw that is not generic (its rank is below the generic rank)**")
    else:
        text += "; no two seeds disagree"
    return text + "."


def claim_sentence(rows: list[dict]) -> str:
    """How many generic rows are exact for almost every weight without any probability,
    how many with probability >= 1 - epsilon, generated from the rows."""
    g = [r for r in rows if r.get("part") == "generic" and _ok(r)]
    c = Counter((r.get("generic") or {}).get("claim") for r in g)
    meet = c["exact for almost every weight"]
    prob = [r for r in g if (r.get("generic") or {}).get("claim", "").endswith("1 - epsilon")]
    useful = [r for r in prob if r["generic"]["epsilon"] < 1]
    text = (f"Of {len(g)} generic rows, {meet} meet a bound valid for every weight, so "
            "their value is the generic value with no probability involved (the bound is "
            "the route's count or, with residual connections, its layered staircase, for "
            "every weight)")
    top = max((r["generic"]["epsilon"] for r in useful), default=None)
    if prob:
        text += (f"; {len(prob)} are exact for the drawn network below that bound, so "
                 "their value is a certified lower bound of the generic value and equals it "
                 f"with probability >= 1 - epsilon over the draw: epsilon < 1 in "
                 f"{len(useful)} of them (largest {top:.2g})" if useful else "")
        if len(useful) < len(prob):
            text += (f"; in {len(prob) - len(useful)} the Schwartz-Zippel bound is >= 1 "
                     "(no information: there the seeds' agreement is the evidence, not a "
                     "proof)")
    rest = len(g) - meet - len(prob)
    if rest:
        text += f"; {rest} are not exact (only their lower bound is claimed)"
    return text + "."


# -- structured families, beyond, plan4 ------------------------------------------------------

def family_table(rows: list[dict]) -> list[str]:
    """Structured rows: value, kind, range, the one-hot closed form where it applies."""
    from seprank.network_theory.corrected_bounds import corrected_upper

    head = ["family", "L", "d_x", "H", "res", "seed", "sep", "kind", "exact from N",
            "certified range", "closed form (exact, theory)", "sep = closed form",
            "generic sep (same shape)", "C(C+D,D)", "s"]
    gen = {k: generic_value(g) for k, g in shapes(rows).items()}
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if not _ok(r):
            lines.append(f"| {r['family']} | {r['L']} | {r['d_x']} | {r['H']} | {_res(r)} | "
                         f"{r['seed']} | error: {r['error']} |" + " |" * (len(head) - 7))
            continue
        cf = r.get("closed_form", "")
        same = "" if cf == "" else ("yes" if r["sep"] == cf else "**no**") + f" ({r['kind']})"
        gv = gen.get((r["L"], r["d_x"], r["H"], r["residual"]), {}).get("value")
        lines.append("| " + " | ".join(str(x) for x in (
            r["family"], r["L"], r["d_x"], r["H"], _res(r), r["seed"], r["sep"], r["kind"],
            r["exact_from_N"] or "", _range(r), cf, same, "" if gv is None else gv,
            corrected_upper(r["L"], r["d_x"]), r["seconds"])) + " |")
    return lines


def one_hot_summary(rows: list[dict]) -> str:
    """One sentence: how the one-hot rows compare with their closed form."""
    oh = [r for r in rows if r["family"] == "onehot" and _ok(r)]
    ex = [r for r in oh if r["kind"] == "exact"]
    bad = [r for r in ex if r["sep"] != r["closed_form"]]
    other = [r for r in oh if r["kind"] != "exact"]
    inside = [r for r in other if r["lower"] <= r["closed_form"] <= r["upper"]]
    text = (f"Of {len(oh)} one-hot rows, {len(ex)} are exact and "
            f"{len(ex) - len(bad)} of them equal the closed form prod(e + 1)")
    if bad:
        text += " (**differing: " + "; ".join(
            f"L={r['L']} d_x={r['d_x']}: {r['sep']} vs {r['closed_form']}" for r in bad) + "**)"
    if other:
        text += (f"; the {len(other)} others are {', '.join(sorted({r['kind'] for r in other}))}"
                 f" and {len(inside)} of them hold the closed form in their certified range")
    return text + "."


def beyond_table(rows: list[dict]) -> list[str]:
    """The beyond rows: certified range, the bound for every weight, time."""
    from seprank.network_theory.corrected_bounds import corrected_upper

    head = ["L", "d_x", "H", "seed", "sep", "kind", "certified range", "C(C+D,D)",
            "blocks not exact", "budget s", "s", "load at start"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in (r for r in rows if r.get("part") == "beyond"):
        if not _ok(r):
            lines.append(f"| {r['L']} | {r['d_x']} | {r['H']} | {r['seed']} | error: "
                         f"{r['error']} |" + " |" * (len(head) - 5))
            continue
        lines.append("| " + " | ".join(str(x) for x in (
            r["L"], r["d_x"], r["H"], r["seed"], r["sep"], r["kind"], _range(r),
            corrected_upper(r["L"], r["d_x"]), len(r.get("short_blocks", [])), r["budget_s"],
            r["seconds"], r.get("load_start", ["?"])[0])) + " |")
    return lines


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"


def _hours(s: float) -> str:
    if s >= 3 * 86400:
        return f"{s / 86400:.3g} days"
    if s >= 3 * 3600:
        return f"{s / 3600:.3g} h"
    return f"{s:.3g} s"


def plan4_lines(rows: list[dict]) -> list[str]:
    """Per plan4 row: the run's certified range, the plan's blocks and the projection."""
    out = []
    for r in (r for r in rows if r.get("part") == "plan4"):
        out += [f"### L = {r['L']}, d_x = {r['d_x']}, H = {r['H']}, plain, generic seed "
                f"{r['seed']}", ""]
        if _ok(r):
            out.append(f"Reached on this machine (2 cores, load {r.get('load_start', ['?'])[0]} "
                       f"at the start) with `budget_seconds = {r['budget_s']}`: sep = "
                       f"{r['sep']} ({r['kind']}), certified range {_range(r)}, in "
                       f"{r['seconds']} s; {len(r.get('short_blocks', []))} blocks not exact.")
        else:
            out.append(f"The budgeted run gave no value: {r['error']} (after {r['seconds']} s).")
        p = r.get("plan")
        if not p:
            out.append("")
            continue
        exp = p["expansion"]
        first = (f"an expansion of G_L into {exp.get('terms')} terms ("
                 f"{_hours(exp.get('seconds', 0))}, {_bytes(exp.get('bytes', 0))}), then "
                 if p["expand"] else "")
        out += ["", "The whole computation, as the route plans it with no time or memory "
                f"limit: {first}{len(p['blocks'])} blocks, "
                f"{_hours(p['sum_block_seconds'])} of block work in all (estimated), the "
                f"largest block {_hours(p['largest_block_seconds'])} "
                f"and {_bytes(p['largest_block_bytes'])}; peak {_bytes(p['peak_bytes'])} in "
                "one process. Projected wall time (" + p["projection"] + "): "
                + ", ".join(f"{w} workers: {_hours(s)}"
                            for w, s in p["projected_seconds"].items()) + ".", "",
                "| block degree | shape | cap | method | estimated s | peak bytes |",
                "|---|---|---|---|---|---|"]
        for b in p["blocks"]:
            out.append(f"| {b['degree']} | {b['shape'][0]} x {b['shape'][1]} | {b['cap']} | "
                       f"{b['method']} | {b['seconds']:.3g} | {_bytes(b['bytes'])} |")
        out.append("")
    return out


# -- depth and width -------------------------------------------------------------------------

def values_by_shape(rows: list[dict]) -> dict:
    """(L, d_x, H, residual) -> generic_value(...) of the generic part."""
    return {k: generic_value(g) for k, g in shapes(rows).items()}


def increments(rows: list[dict]) -> list[dict]:
    """Per (d_x, H, residual): log_3 of the generic value per L (exact, seeds agreeing)
    and the increments Delta_L = log_3 sep(L) - log_3 sep(L - 1), against the proven slope
    D = d_x(d_x+1)/2 of the corrected upper bound's linear regime."""
    vals = values_by_shape(rows)
    out = []
    for d, H, res in sorted({(k[1], k[2], k[3]) for k in vals}):
        logs = {L: math.log(v["value"], 3) for (L, dd, hh, rr), v in vals.items()
                if (dd, hh, rr) == (d, H, res) and v["value"]}
        deltas = {L: logs[L] - logs[L - 1] for L in logs if L - 1 in logs}
        out.append({"d_x": d, "H": H, "residual": res, "log3": logs, "delta": deltas,
                    "D": d * (d + 1) // 2})
    return out


def depth_lines(rows: list[dict]) -> list[str]:
    """The table of increments beside plot (a)."""
    lines = ["| d_x | H | res | D = d_x(d_x+1)/2 | log_3 sep at L = 1, 2, 3, 4 (generic, exact) | "
             "increments Delta_2, Delta_3, Delta_4 | Delta / D |", "|---|---|---|---|---|---|---|"]

    def fmt(values: dict, keys: tuple, scale: float = 1.0) -> str:
        return ", ".join(f"{values[k] / scale:.2f}" if k in values else "-" for k in keys)

    for e in increments(rows):
        lines.append(f"| {e['d_x']} | {e['H']} | {'y' if e['residual'] else ''} | {e['D']} | "
                     f"{fmt(e['log3'], (1, 2, 3, 4))} | {fmt(e['delta'], (2, 3, 4))} | "
                     f"{fmt(e['delta'], (2, 3, 4), e['D'])} |")
    return lines


def depth_sentence(rows: list[dict]) -> str:
    """Increments against the slope D, generated from the rows (exact generic values)."""
    incs = [e for e in increments(rows) if e["delta"]]
    if not incs:
        return "No shape has two exact generic depths yet."
    pairs = [(e, L, v) for e in incs for L, v in e["delta"].items()]
    below = [p for p in pairs if p[2] <= p[0]["D"] + 1e-9]
    top = max(pairs, key=lambda p: p[2] / p[0]["D"])
    text = (f"Of {len(pairs)} measured increments Delta_L = log_3 sep(L) - log_3 sep(L-1) "
            f"(exact generic values, same d_x, H and residual), {len(below)} are at most "
            "the proven slope D = d_x(d_x+1)/2 of the corrected bound's linear regime")
    if len(below) < len(pairs):
        over = [p for p in pairs if p not in below]
        text += ("; " + str(len(over)) + " exceed it (" + "; ".join(
            f"d_x={e['d_x']} H={e['H']}{' res' if e['residual'] else ''} L={L}: "
            f"{v:.2f} > {e['D']}" for e, L, v in over) + ")")
    text += (f"; the largest ratio Delta/D is {top[2] / top[0]['D']:.2f} (d_x = "
             f"{top[0]['d_x']}, H = {top[0]['H']}{', residual' if top[0]['residual'] else ''}, "
             f"L = {top[1]})")
    return text + "."


def width_pairs(rows: list[dict]) -> list[dict]:
    """Pairs of plain shapes (L, d) deeper-narrower against (L', d') shallower-wider
    (L > L', d < d') where the deeper one has no more weights 4 L d^2 than the other, with
    the generic values at H = 1 (exact, seeds agreeing) and the largest over H."""
    vals = values_by_shape(rows)
    best: dict = {}
    for (L, d, H, res), v in vals.items():
        if res or v["value"] is None:
            continue
        e = best.setdefault((L, d), {"H1": None, "max": 0, "H_max": None})
        if H == 1:
            e["H1"] = v["value"]
        if v["value"] > e["max"]:
            e["max"], e["H_max"] = v["value"], H
    out = []
    for (L, d), a in best.items():
        for (L2, d2), b in best.items():
            if L > L2 and d < d2 and 4 * L * d * d <= 4 * L2 * d2 * d2:
                out.append({"deep": (L, d), "wide": (L2, d2), "params": (4 * L * d * d,
                            4 * L2 * d2 * d2), "H1": (a["H1"], b["H1"]),
                            "max": (a["max"], b["max"])})
    return sorted(out, key=lambda p: (p["params"], p["deep"]))


def width_sentence(rows: list[dict]) -> str:
    """Deep-narrow against shallow-wide, generated from :func:`width_pairs`."""
    pairs = width_pairs(rows)
    if not pairs:
        return "No pair of exact generic shapes to compare yet."
    h1 = [p for p in pairs if None not in p["H1"]]
    win_h1 = [p for p in h1 if p["H1"][0] > p["H1"][1]]
    win_max = [p for p in pairs if p["max"][0] > p["max"][1]]
    lose = [p for p in pairs if p["max"][0] <= p["max"][1]]
    text = (f"Among {len(pairs)} pairs of plain shapes where the deeper, narrower network "
            "has no more weights than the shallower, wider one, the deeper one has the "
            f"larger generic separation rank in {len(win_max)} (largest value over H) and "
            f"in {len(win_h1)} of {len(h1)} at H = 1")
    if lose:
        text += (" (not in: " + "; ".join(
            f"L={p['deep'][0]}, d_x={p['deep'][1]} ({p['max'][0]}) against L={p['wide'][0]}, "
            f"d_x={p['wide'][1]} ({p['max'][1]})" for p in lose) + ")")
    return text + "."


def width_lines(rows: list[dict]) -> list[str]:
    lines = ["| deeper-narrower (L, d_x) | weights | shallower-wider (L, d_x) | weights | "
             "generic sep at H = 1 | largest generic sep over H | deeper larger |",
             "|---|---|---|---|---|---|---|"]
    for p in width_pairs(rows):
        lines.append(f"| {p['deep']} | {p['params'][0]} | {p['wide']} | {p['params'][1]} | "
                     f"{p['H1'][0]} vs {p['H1'][1]} | {p['max'][0]} vs {p['max'][1]} | "
                     f"{'yes' if p['max'][0] > p['max'][1] else '**no**'} |")
    return lines


# -- plots -----------------------------------------------------------------------------------

def _interval(ax, x: float, lo: float, hi: float, color: str) -> None:
    ax.plot([x, x], [lo, hi], color=color, lw=1.5, alpha=0.6)
    ax.plot([x - 0.04, x + 0.04], [hi, hi], color=color, lw=1, alpha=0.6)
    ax.plot([x - 0.04, x + 0.04], [lo, lo], color=color, lw=1, alpha=0.6)


def plot_depth(rows: list[dict], path: Path) -> None:
    """log_3 sep against L, one panel per d_x: the generic values per H (plain: dots,
    residual: squares; a shape whose seeds are not all exact: its certified range as a
    bar), the corrected upper bound log_3 C(C(L) + D, D) (line, every weight), the one-hot
    family's exact values (crosses: a lower bound of the generic value at H = d_x) and a
    short segment of slope D from the last exact H = 1 value (the slope of the corrected
    bound's linear regime, for the eye)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from seprank.network_theory.corrected_bounds import corrected_upper

    groups = shapes(rows)
    widths = sorted({k[1] for k in groups})
    if not widths:
        return
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.5))
    for ax, d in zip(axes.ravel(), widths, strict=False):
        Ls = sorted({k[0] for k in groups if k[1] == d})
        Lgrid = list(range(1, max(Ls) + 1))
        ax.plot(Lgrid, [math.log(corrected_upper(L, d), 3) for L in Lgrid], "-", color="k",
                lw=1, label="C(C(L)+D, D): upper, every weight")
        ax.plot(Lgrid, [math.log(one_hot_value(L, d), 3) for L in Lgrid], "x--", color="0.4",
                lw=0.8, label="one-hot family (exact): lower at H = d_x")
        Hs = sorted({k[2] for k in groups if k[1] == d})
        for n, H in enumerate(Hs):
            color = f"C{n}"
            for res in (False, True):
                for L in Ls:
                    g = groups.get((L, d, H, res))
                    if not g:
                        continue
                    v = generic_value(g)
                    x = L + (n - (len(Hs) - 1) / 2) * 0.09 + (0.03 if res else -0.03)
                    if v["value"]:
                        ax.plot(x, math.log(v["value"], 3), "s" if res else "o", color=color,
                                ms=4, mfc="none" if res else color)
                    elif v["upper"]:
                        _interval(ax, x, math.log(max(v["lower"], 1), 3),
                                  math.log(v["upper"], 3), color)
            ax.plot([], [], "o", color=color, label=f"H = {H}")
        exact = [(L, math.log(generic_value(groups[(L, d, 1, False)])["value"], 3))
                 for L in Ls if (L, d, 1, False) in groups
                 and generic_value(groups[(L, d, 1, False)])["value"]]
        if exact:
            L0, y0 = exact[-1]
            D = d * (d + 1) // 2
            ax.plot([L0, L0 + 0.5], [y0, y0 + D / 2], ":", color="C3", lw=1.2,
                    label=f"slope D = {D} from the last exact H = 1 value")
        ax.set(title=f"d_x = {d}", xlabel="depth L", ylabel="log_3 sep (N -> infinity)",
               xticks=Lgrid, xlim=(0.6, max(Ls) + 0.7))
        ax.legend(fontsize=6.5)
    for ax in axes.ravel()[len(widths):]:
        ax.axis("off")
    fig.suptitle("generic separation rank as N -> infinity: dots plain, open squares "
                 "residual, bars certified ranges", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_params(rows: list[dict], path: Path) -> None:
    """sep (log scale) against the number of weights 4 L d_x^2, plain generic shapes:
    exact values as points coloured by depth, marker by width; certified ranges as bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 5))
    markers = {1: "v", 2: "o", 3: "s", 4: "D", 5: "P", 6: "X"}
    Ls, ds = set(), set()
    for (L, d, H, res), g in shapes(rows).items():
        if res:
            continue
        v = generic_value(g)
        color, x = f"C{L - 1}", 4 * L * d * d * (1 + 0.03 * (H - 1))
        Ls.add(L)
        ds.add(d)
        if v["value"]:
            ax.plot(x, v["value"], markers[d], color=color, ms=5, alpha=0.8)
        elif v["upper"]:
            ax.plot([x, x], [max(v["lower"], 1), v["upper"]], color=color, lw=1.5, alpha=0.6)
    for L in sorted(Ls):
        ax.plot([], [], "-", color=f"C{L - 1}", lw=4, label=f"L = {L}")
    for d in sorted(ds):
        ax.plot([], [], markers[d], color="k", label=f"d_x = {d}")
    ax.plot([], [], "|", color="k", label=RANGE_WORDS)
    ax.set(xscale="log", yscale="log", xlabel="weights 4 L H d_a d_x = 4 L d_x^2 (H "
           "offset slightly to the right)", ylabel="generic sep as N -> infinity",
           title="sep against the number of weights (plain, generic weights, every H)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- the page ----------------------------------------------------------------------------------

INTRO = (
    "Each value is the separation rank of y_1^1 as N -> infinity: by the moment route's "
    "Proposition 2' it is rank_Q(C_F), the separation rank of every partition with >= d_x "
    "positions on each side, so an `exact` value holds for every balanced N >= 2 d_x (the "
    "'exact from N' column), computed by `seprank.separation_rank(..., N=math.inf)`. The "
    "generic part draws its weights with `weights_seed` "
    "(`seprank.models.generic_weights`): a drawn network's certified rank is a certified "
    "lower bound of the generic separation rank (the rank of almost every weight); it is "
    "the generic value when it meets a bound valid for every weight, and otherwise with "
    "probability >= 1 - epsilon over the draw. `lower_bound` rows were cut by the budget; "
    "their certified range is [lower, upper] for that draw.")


def _runs_table(runs: dict) -> list[str]:
    lines = ["| part | cases | budget s per case | wall s per case | s in all | "
             "load at start | load at end | code |", "|---|---|---|---|---|---|---|---|"]
    for part, m in runs.items():
        lines.append(f"| {part} | {m['cases']} | {m['budget_s']} | {m['wall_s'] or '-'} | "
                     f"{m['seconds']} | {m.get('load_start', m.get('load'))} | "
                     f"{m.get('load_end', '')} | {m.get('code', '')} |")
    return lines


def counts(rows: list[dict]) -> str:
    """Rows per part and kind, in words."""
    c = Counter((r.get("part"), r.get("kind", "error")) for r in rows)
    return ", ".join(f"{p} {k}: {n}" for (p, k), n in sorted(c.items()))


def slowest(rows: list[dict], n: int = 5) -> str:
    """The n slowest rows, in words."""
    top = sorted((r for r in rows if r.get("part") != "plan4"), key=lambda r: -r["seconds"])
    return "; ".join(f"{r['part']} L={r['L']} d_x={r['d_x']} H={r['H']}"
                     f"{' residual' if r['residual'] else ''} seed {r['seed']}: {r['seconds']} s "
                     f"({r.get('kind', 'error')}, load {r.get('load_start', ['?'])[0]})"
                     for r in top[:n])


def planned_shapes() -> list[tuple[int, int, int, bool]]:
    """(L, d_x, H, residual) of the generic part's plan: L <= 3, d_x <= 4 and L = 4,
    d_x <= 2, every H dividing d_x, plain and residual (``n_infinity.cases``)."""
    grid = [(L, d) for L in (1, 2, 3) for d in (1, 2, 3, 4)] + [(4, 1), (4, 2)]
    return [(L, d, H, res) for L, d in grid for H in range(1, d + 1) if d % H == 0
            for res in (False, True)]


def missing_sentence(rows: list[dict]) -> str:
    """The planned generic shapes with no row yet (empty when every one has a row)."""
    have = {(r["L"], r["d_x"], r["H"], r["residual"]) for r in rows
            if r.get("part") == "generic"}
    planned = planned_shapes()
    gone = [s for s in planned if s not in have]
    if not gone:
        return ""
    return (f"Not run yet: {len(gone)} of the {len(planned)} planned shapes ("
            + ", ".join(f"L={L} d_x={d} H={H}{' residual' if res else ''}"
                        for L, d, H, res in gone) + "); no statement here covers them.")


def residual_sentence(rows: list[dict]) -> str:
    """Plain against residual where both generic values are exact (computed from the rows)."""
    vals = values_by_shape(rows)
    pairs = [(k, vals[k]["value"], vals[k[:3] + (True,)]["value"]) for k in vals
             if not k[3] and k[:3] + (True,) in vals and vals[k]["value"]
             and vals[k[:3] + (True,)]["value"]]
    if not pairs:
        return ""
    differ = [f"L={L} d_x={d} H={H}: {a} vs {b}" for (L, d, H, _), a, b in pairs if a != b]
    return (f"Residual connections: of {len(pairs)} shapes whose plain and residual values "
            f"are both exact, {len(pairs) - len(differ)} have the same value"
            + (f"; they differ at {'; '.join(differ)}" if differ else "")
            + " (proven for every weight where the plain network meets its counted bound: "
            "the plain blocks bound the residual rank from below and the layered staircase, "
            "equal to that count, from above; `seprank prove L-Generic4`).")


def law_sentence(rows: list[dict]) -> str:
    """L = 2, H = 1: the exact generic values against C(D + 2, 2) + d_x (D + 1), D =
    d_x(d_x + 1)/2 (a closed form read off the data, issue 34; computed here, not read)."""
    vals = values_by_shape(rows)
    got = sorted((d, v["value"]) for (L, d, H, res), v in vals.items()
                 if L == 2 and H == 1 and not res and v["value"])
    if not got:
        return ""

    def law(d: int) -> int:
        D = d * (d + 1) // 2
        return math.comb(D + 2, 2) + d * (D + 1)

    same = [d for d, v in got if v == law(d)]
    text = ("At L = 2, H = 1 the generic values for d_x = "
            + ", ".join(str(d) for d, _ in got) + " are " + ", ".join(str(v) for _, v in got)
            + "; C(D + 2, 2) + d_x (D + 1), D = d_x(d_x+1)/2, gives "
            + ", ".join(str(law(d)) for d, _ in got) + ": equal at "
            + (f"all {len(got)}" if len(same) == len(got) else f"{len(same)} of {len(got)}")
            + ".")
    return text


def exact_sentence(rows: list[dict]) -> str:
    """Whether every generic row with L <= 3, d_x <= 4 is exact, and which are not."""
    g = [r for r in rows if r.get("part") == "generic" and r["L"] <= 3]
    bad = [r for r in g if not _ok(r) or r["kind"] != "exact"]
    if not bad:
        return f"All {len(g)} generic rows with L <= 3, d_x <= 4 are exact."
    return (f"{len(g) - len(bad)} of {len(g)} generic rows with L <= 3, d_x <= 4 are exact; "
            "not exact: " + "; ".join(
                f"L={r['L']} d_x={r['d_x']} H={r['H']}{' residual' if r['residual'] else ''} "
                f"seed {r['seed']}: " + (f"error ({r['error']})" if not _ok(r) else
                                         f"{r['kind']} {_range(r)}") for r in bad) + ".")


def short_lines(rows: list[dict], parts: tuple = ("generic",)) -> list[str]:
    """Per row of ``parts`` that is not exact: its blocks left short of exact (shape,
    certified rank and upper bound, kind, why), or why it has no value."""
    head = ["L", "d_x", "H", "res", "seed", "sep", "kind", "certified range",
            "blocks not exact: shape, rank (kind) <= upper, how"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if r.get("part") not in parts or (_ok(r) and r["kind"] == "exact"):
            continue
        if not _ok(r):
            lines.append(f"| {r['L']} | {r['d_x']} | {r['H']} | {_res(r)} | {r['seed']} | - | "
                         f"error | - | {r['error']} |")
            continue
        blocks = "<br>".join(
            f"{b['shape'][0]} x {b['shape'][1]}: {b.get('rank')} ({b.get('kind')}) <= "
            f"{b.get('upper')}; {b.get('how', '')}" for b in r.get("short_blocks", []))
        lines.append(f"| {r['L']} | {r['d_x']} | {r['H']} | {_res(r)} | {r['seed']} | "
                     f"{r['sep']} | {r['kind']} | {_range(r)} | {blocks} |")
    return lines if len(lines) > 2 else []


def write(rows: list[dict], runs: dict, folder: Path) -> None:
    """Write n_infinity.md, n_infinity.png, n_infinity_params.png into ``folder`` and the
    generated block of docs/separation-ranks.md (when its markers are there)."""
    structured = [r for r in rows if r.get("part") in ("onehot", "repeated", "permutation")]
    lines = ["# Separation ranks as N -> infinity, generic weights (the moment route)", "",
             "Generated by `python docs/atlas/n_infinity.py` (module docstring: the parts, the "
             "budgets; `n_infinity_report.py` writes this page). " + INTRO, "",
             "Runs (each part's last run; load: the 1, 5 and 15 minute load averages of a "
             "2-core machine shared with other work):", "", *_runs_table(runs), "",
             f"Rows per part and kind: {counts(rows)}. Slowest rows: {slowest(rows)}.", "",
             "## Generic weights (L <= 3, d_x <= 4; L = 4, d_x <= 2)", "",
             " ".join(x for x in (missing_sentence(rows), seed_sentence(rows),
                                  exact_sentence(rows), claim_sentence(rows)) if x),
             "", " ".join(x for x in (PARAGRAPHS["generic"], residual_sentence(rows),
                                  law_sentence(rows)) if x), "",
             "'every-weight bound': the smallest upper bound valid for every weight that the "
             "route states (its count bound or, with residual connections, its layered "
             "staircase); 'rests on': Proposition 2' with the rank of C_F certified over Q block "
             "by block.", "", *generic_table(rows), "",
             "The generic rows that are not exact, and why (the blocks of C_F whose rank "
             "the route did not certify over Q within the budget):", "",
             *(short_lines(rows) or ["(none)"]), "",
             "## Structured families", "", PARAGRAPHS["structured"], "",
             one_hot_summary(rows), "", *family_table(structured), "",
             "## Certified lower bounds beyond (L = 3, d_x = 5, 6)", "", PARAGRAPHS["beyond"],
             "", *beyond_table(rows), "",
             "## L = 4, d_x = 3: the plan", "", PARAGRAPHS["plan4"], "",
             *(plan4_lines(rows) or ["(not run yet)", ""]),
             "## log_3 sep against L", "", "![log_3 sep vs L](n_infinity.png)", "",
             depth_sentence(rows) + " " + PARAGRAPHS["depth"], "", *depth_lines(rows), "",
             "## sep against the number of weights: deep-narrow against shallow-wide", "",
             "![sep vs parameters](n_infinity_params.png)", "",
             width_sentence(rows) + " " + PARAGRAPHS["params"], "", *width_lines(rows), ""]
    (folder / "n_infinity.md").write_text("\n".join(lines))
    plot_depth(rows, folder / "n_infinity.png")
    plot_params(rows, folder / "n_infinity_params.png")
    write_docs_block(rows, folder.parent / "separation-ranks.md")


def docs_block(rows: list[dict]) -> list[str]:
    """The generated summary in docs/separation-ranks.md's atlas section."""
    groups = shapes(rows)
    c = Counter(agreement(g) for g in groups.values())
    g_rows = [r for r in rows if r.get("part") == "generic"]
    kinds = Counter(r.get("kind", "error") for r in g_rows)
    vals = values_by_shape(rows)
    ex = [(k, v["value"]) for k, v in vals.items() if v["value"] and not k[3]]
    top = max(ex, key=lambda kv: kv[1], default=None)
    beyond = [r for r in rows if r.get("part") == "beyond" and _ok(r)]
    plan = [r for r in rows if r.get("part") == "plan4" and r.get("plan")]
    text = (f"Generic weights for L <= 3, d_x <= 4 and L = 4, d_x <= 2, every H dividing "
            f"d_x, plain and residual, seeds 0, 1, 2: {len(g_rows)} rows ("
            + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + f"), {len(groups)} "
            f"shapes, the seeds agreeing on an exact value in {c['yes']}"
            + (f" and **disagreeing in {c['NO']}**" if c["NO"] else "") + ".")
    missing = missing_sentence(rows)
    if missing:
        text += " " + missing
    few = [k for k, g in groups.items() if len(g) < 3]
    if few:
        text += (f" {len(few)} shapes have fewer than three seeds so far ("
                 + ", ".join(f"L={L} d_x={d} H={H}{' residual' if res else ''}"
                             for L, d, H, res in few) + ").")
    proven = [(k, v) for k, v in ex if all(
        (r.get("generic") or {}).get("claim") == "exact for almost every weight"
        for r in groups[k])]
    best = max(proven, key=lambda kv: kv[1], default=None)
    if best:
        (L, d, H, _), v = best
        text += (f" The largest value proven generic (a certified draw meets a bound valid "
                 f"for every weight): {v} (L = {L}, d_x = {d}, H = {H}).")
    if top and top != best:
        (L, d, H, _), v = top
        text += (f" The largest exact value of a draw: {v} (L = {L}, d_x = {d}, H = {H}; a "
                 "certified lower bound of the generic value).")
    text += (" Beside them: the one-hot counterexample against its closed form prod(e + 1), "
             "repeated heads, permutation weights")
    if beyond:
        text += (", certified lower bounds at L = 3, d_x = 5, 6 ("
                 + ", ".join(f"d_x = {r['d_x']}: >= {r['lower']}" for r in beyond) + ")")
    if plan:
        p = plan[0]["plan"]
        text += (f", and the plan of L = 4, d_x = 3 ({len(p['blocks'])} blocks, projected "
                 + ", ".join(f"{_hours(s)} on {w} workers" for w, s in
                             p["projected_seconds"].items()) + ")")
    text += ("; plots of log_3 sep against L with the proven corrected bounds and of sep "
             "against the number of weights.")
    out, line = [], " "
    for w in text.split(" "):
        if len(line) + len(w) + 1 > 90 and line.strip():
            out.append(line)
            line = " "
        line += " " + w
    return out + [line]


def write_docs_block(rows: list[dict], page: Path) -> None:
    """Replace the lines between DOCS_BEGIN and DOCS_END in ``page`` (if both are there)."""
    if not page.is_file():
        return
    text = page.read_text()
    if DOCS_BEGIN not in text or DOCS_END not in text:
        return
    head, rest = text.split(DOCS_BEGIN, 1)
    _, tail = rest.split(DOCS_END, 1)
    indent = head[len(head.rstrip(" ")):]          # the markers' indentation (a list item)
    page.write_text(head + DOCS_BEGIN + "\n" + "\n".join(docs_block(rows)) + "\n" + indent
                    + DOCS_END + tail)


#: the prose of each section, written from the committed rows (the numbers it names are in
#: the tables beside it; the counts and comparisons are generated above): rewrite after a rerun
PARAGRAPHS = {
    "generic": (
        "Where every seed of a shape is exact, the seeds give one value (the 'seeds agree' "
        "column). More heads at a fixed d_x lower it (L = 2, d_x = 4: 110, 107, 85 for H = "
        "1, 2, 4). A `lower_bound` row's range is that draw's; the "
        "table after the main one names the blocks left short and why."),
    "structured": (
        "Particular weights, not generic ones: the generic value is the largest over the "
        "weights, so no row here exceeds the generic value of its shape "
        "(tests/test_atlas_n_infinity.py checks it). The one-hot rows are compared with "
        "the closed form prod(e + 1) (`seprank.network_theory.one_hot`). Permutation "
        "weights can make the output coordinate identically zero (sep 0): a degenerate "
        "network, which `seprank sep-rank` names in its answer."),
    "beyond": (
        "L = 3, d_x = 5 and 6, H = 1, generic seed 0, with a 30 s budget: the blocks past "
        "the budget are ranked at sampled points, so the value is a certified lower bound; "
        "the certified upper bound is the route's count bound, far below C(C + D, D)."),
    "plan4": (
        "The plan of L = 4, d_x = 3 (every block's shape, method, estimated seconds and "
        "peak bytes, and the projected wall time on 2, 16 and 64 workers) and the range "
        "reached under a 600 s budget; `python docs/atlas/n_infinity.py --parts plan4` runs "
        "it (about 20 minutes on 2 cores)."),
    "depth": (
        "Delta_L is the measured growth of log_3 sep from L - 1 to L layers, beside D = "
        "d_x(d_x+1)/2, the slope per layer of the corrected upper bound's linear regime "
        "(levine2020 Theorem 2 corrected; `seprank prove L-Thm2-corrected`)."),
    "params": (
        "Weights: 4 L H d_a d_x for the eq. (3) network (levine2020 l.81). A pair compares "
        "a deeper, narrower plain shape with a shallower, wider one that has at least as "
        "many weights, at H = 1 and at the best H."),
}
