#!/usr/bin/env python
"""Float64 rank versus exact rank on Gram Hadamard powers G = (U U^T)^(Hadamard lambda).

Two families over a ladder of (d, lambda), n = ((d, lambda)) rows:

* ``omega``:  U = omega_rows(d, lambda, 2) (the Omega^q rows of levine2020 B.2);
* ``random``: U an n x d integer matrix, entries uniform in [-3, 3], drawn with
  ``numpy.random.default_rng([seed, d, lambda])``.

For each case the script computes

* the exact rank over Q with ``seprank.rank(gram_hadamard_exact(U, lam), "exact")``
  (python-flint fmpz, for n <= --exact-max-n);
* the rank of ``gram_hadamard_mod_p(U, lam, p)`` (an ``nmod_mat``, ranked over
  GF(p) with ``seprank.rank(..., "modular")``). Over Q this is exact only when it
  is full (n); otherwise it is only a lower bound, and it is recorded as such;
* ``numpy.linalg.matrix_rank`` (default tolerance) on float64 G, the exact
  integers correctly rounded to float64 ("float_int", or "overflow" when an
  entry exceeds the float64 range), and on the row-normalized
  V = U / ||U_i||, G = (V V^T)^lambda built in float64 ("float_norm").

Row scaling does not change the rank, so both float variants are compared with
the same reference rank. A float rank is called wrong when it differs from a
reference rank of kind ``exact``, or when it lies below a certified lower bound.

Timings (time.perf_counter) are build of G from U plus rank, per path. The
float_int path is timed as a float user would run it: (U U^T)**lambda built in
float64 directly, then matrix_rank; the rank reported is that of the correctly
rounded exact matrix, and ``float_build_maxrel_diff`` records how far the two
float64 matrices are apart (a few ulp).

Outputs (in --out, default benchmarks/results): float_vs_exact.csv, .json
(with the machine description) and .png.

Usage: python benchmarks/float_vs_exact.py [--quick] [--out DIR]
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import flint
import numpy as np

import seprank
from seprank.combinatorics import multiset
from seprank.constructions.omega import gram_hadamard_exact, gram_hadamard_mod_p, omega_rows

PRIME = 2**31 - 1
OMEGA = 2
FAMILIES = ("omega", "random")
LAMBDAS = tuple(range(1, 10))
EPS = float(np.finfo(np.float64).eps)

CSV_FIELDS = [
    "family", "d", "lam", "n", "omega", "seed",
    "exact_rank", "exact_kind", "exact_build_s", "exact_rank_s", "exact_seconds",
    "modular_prime", "modular_rank", "modular_kind_gfp", "modular_kind_q",
    "modular_build_s", "modular_rank_s", "modular_seconds",
    "ref_rank", "ref_kind", "ref_source",
    "float_int_status", "float_int_rank", "float_int_deficit", "float_int_wrong",
    "float_int_build_s", "float_int_rank_s", "float_int_seconds",
    "float_int_log10_max_entry", "float_int_sigma_min_rel", "float_build_maxrel_diff",
    "float_norm_status", "float_norm_rank", "float_norm_deficit", "float_norm_wrong",
    "float_norm_build_s", "float_norm_rank_s", "float_norm_seconds",
    "float_norm_sigma_min_rel",
    "float_tol_rel", "exact_over_float", "modular_over_float",
]


# --------------------------------------------------------------------------- ladder

def ladder(max_n: int, max_d: int, lams=LAMBDAS, min_n: int = 3,
           ratio: float = 1.25) -> list[tuple]:
    """(d, lam, n) with min_n <= n <= max_n, d = 2..max_d, thinned to n growing by >= ratio.

    The last d with n <= max_n is always kept, so each lambda reaches the top.
    max_d only bites for lambda = 1 (n = d): ``gram_hadamard_mod_p`` costs
    O(d n^2) and ``compositions`` recurses once per part (d ~ 1000 overflows
    Python's recursion limit).
    """
    cases = []
    for lam in lams:
        pts: list[tuple[int, int]] = []
        last_d = None
        d = 2
        while d <= max_d and (n := multiset(d, lam)) <= max_n:
            if n >= min_n:
                last_d = (d, n)
                if not pts or n >= ratio * pts[-1][1]:
                    pts.append((d, n))
            d += 1
        if last_d is not None and pts[-1] != last_d:
            pts.append(last_d)
        cases += [(d, lam, n) for d, n in pts]
    return cases


# --------------------------------------------------------------------------- helpers

def _timed(fn, repeat: int = 1):
    """(result, best seconds over ``repeat`` runs)."""
    best, out = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return out, best


def _make_u(family: str, d: int, lam: int, seed: int) -> np.ndarray:
    if family == "omega":
        return np.array(omega_rows(d, lam, OMEGA), dtype=np.int64).reshape(-1, d)
    n = multiset(d, lam)
    rng = np.random.default_rng([seed, d, lam])
    return rng.integers(-3, 4, size=(n, d), dtype=np.int64)


def _sigma_min_rel(g: np.ndarray) -> float:
    s = np.linalg.svd(g, compute_uv=False)
    return float(s[-1] / s[0]) if s[0] > 0 else float("nan")


def _wrong(ref_rank: int, ref_kind: str, float_rank: int | None):
    """True/False when decidable, None when not (float >= a mere lower bound)."""
    if float_rank is None:
        return None
    if ref_kind == "exact":
        return float_rank != ref_rank
    if float_rank < ref_rank:  # below a certified lower bound
        return True
    return None


def _float_int(u: np.ndarray, lam: int, repeat: int) -> dict:
    """float64 rank of the exact integer G correctly rounded, plus a float-user timing."""
    out: dict = {}
    bound = u.shape[1] * int(np.max(np.abs(u), initial=0)) ** 2
    if bound < 2**62:  # U U^T is exact in int64; only the Hadamard power needs big ints
        g_exact = (u @ u.T).astype(object) ** lam
    else:
        uo = u.astype(object)
        g_exact = (uo @ uo.T) ** lam  # python ints
    max_entry = max((abs(int(x)) for x in g_exact.ravel()), default=0)
    out["float_int_log10_max_entry"] = (round(math.log10(max_entry), 2) if max_entry else 0.0)
    try:
        g_conv = g_exact.astype(np.float64)
    except OverflowError:
        out["float_int_status"] = "overflow"
        return out
    uf = u.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        g_direct, t_build = _timed(lambda: (uf @ uf.T) ** lam, repeat)
    if not np.all(np.isfinite(g_direct)) or not np.all(np.isfinite(g_conv)):
        out["float_int_status"] = "overflow"
        return out
    r, t_rank = _timed(lambda: int(np.linalg.matrix_rank(g_conv)), repeat)
    scale = np.abs(g_conv)
    diff = np.abs(g_direct - g_conv)
    nz = scale > 0
    maxrel = float(np.max(diff[nz] / scale[nz])) if nz.any() else 0.0
    if np.any(diff[~nz] > 0):
        maxrel = float("inf")
    out.update({
        "float_int_status": "ok", "float_int_rank": r,
        "float_int_build_s": t_build, "float_int_rank_s": t_rank,
        "float_int_seconds": t_build + t_rank,
        "float_int_sigma_min_rel": _sigma_min_rel(g_conv),
        "float_build_maxrel_diff": maxrel,
    })
    return out


def _float_norm(u: np.ndarray, lam: int, repeat: int) -> dict:
    uf = u.astype(np.float64)

    def build():
        norms = np.linalg.norm(uf, axis=1)
        norms[norms == 0] = 1.0  # a zero row stays zero: the rank is unchanged
        v = uf / norms[:, None]
        return (v @ v.T) ** lam

    g, t_build = _timed(build, repeat)
    if not np.all(np.isfinite(g)):
        return {"float_norm_status": "overflow"}
    r, t_rank = _timed(lambda: int(np.linalg.matrix_rank(g)), repeat)
    return {"float_norm_status": "ok", "float_norm_rank": r, "float_norm_build_s": t_build,
            "float_norm_rank_s": t_rank, "float_norm_seconds": t_build + t_rank,
            "float_norm_sigma_min_rel": _sigma_min_rel(g)}


def run_case(family: str, d: int, lam: int, seed: int, exact_max_n: int) -> dict:
    u = _make_u(family, d, lam, seed)
    n = u.shape[0]
    assert n == multiset(d, lam)
    repeat = 3 if n <= 100 else 2 if n <= 400 else 1  # best-of-k: less noise on small n
    row: dict = {"family": family, "d": d, "lam": lam, "n": n,
                 "omega": OMEGA if family == "omega" else "",
                 "seed": seed if family == "random" else ""}
    u_list = u.tolist()

    # exact over Q (fmpz)
    if n <= exact_max_n:
        ge, tb = _timed(lambda: gram_hadamard_exact(u_list, lam), repeat)
        re, tr = _timed(lambda: seprank.rank(ge, "exact"), repeat)
        row.update({"exact_rank": re.value, "exact_kind": re.kind, "exact_build_s": tb,
                    "exact_rank_s": tr, "exact_seconds": tb + tr})

    # mod p (nmod): exact over GF(p); over Q exact only when full
    gm, tb = _timed(lambda: gram_hadamard_mod_p(u, lam, PRIME), repeat)
    rm, tr = _timed(lambda: seprank.rank(gm, "modular"), repeat)
    kind_q = "exact" if rm.value == n else "lower_bound"
    row.update({"modular_prime": PRIME, "modular_rank": rm.value, "modular_kind_gfp": rm.kind,
                "modular_kind_q": kind_q, "modular_build_s": tb, "modular_rank_s": tr,
                "modular_seconds": tb + tr})

    if "exact_rank" in row:
        if rm.value > row["exact_rank"] or (kind_q == "exact" and rm.value != row["exact_rank"]):
            raise AssertionError(f"mod-p rank {rm.value} contradicts exact rank "
                                 f"{row['exact_rank']} at {family} d={d} lam={lam}")
        row.update({"ref_rank": row["exact_rank"], "ref_kind": row["exact_kind"],
                    "ref_source": "flint-fmpz"})
    else:
        row.update({"ref_rank": rm.value, "ref_kind": kind_q, "ref_source": "flint-nmod"})

    row.update(_float_int(u, lam, repeat))
    row.update(_float_norm(u, lam, repeat))
    row["float_tol_rel"] = n * EPS
    for v in ("float_int", "float_norm"):
        fr = row.get(f"{v}_rank")
        row[f"{v}_deficit"] = row["ref_rank"] - fr if fr is not None else None
        row[f"{v}_wrong"] = _wrong(row["ref_rank"], row["ref_kind"], fr)
    if row.get("float_int_seconds"):
        if row.get("exact_seconds") is not None:
            row["exact_over_float"] = row["exact_seconds"] / row["float_int_seconds"]
        row["modular_over_float"] = row["modular_seconds"] / row["float_int_seconds"]
    return row


# --------------------------------------------------------------------------- summary

def summarize(rows: list[dict]) -> dict:
    first_wrong: dict = {}
    for fam in FAMILIES:
        for var in ("float_int", "float_norm"):
            per_lam = {}
            for lam in sorted({r["lam"] for r in rows}):
                sel = [r for r in rows if r["family"] == fam and r["lam"] == lam]
                wrong = [r["n"] for r in sel if r.get(f"{var}_wrong") is True]
                right = [r["n"] for r in sel if r.get(f"{var}_wrong") is False]
                per_lam[str(lam)] = {
                    "smallest_n_wrong": min(wrong) if wrong else None,
                    "largest_n_right": max(right) if right else None,
                    "n_wrong": len(wrong), "n_cases": len(sel),
                    "n_overflow": sum(r.get(f"{var}_status") == "overflow" for r in sel),
                }
            first_wrong[f"{fam}/{var}"] = per_lam

    def med(key, pred=lambda r: True):
        xs = [r[key] for r in rows if r.get(key) is not None and pred(r)]
        return statistics.median(xs) if xs else None

    big = lambda r: r["n"] >= 200  # noqa: E731
    timing = {
        "median_exact_over_float": med("exact_over_float"),
        "median_modular_over_float": med("modular_over_float"),
        "median_exact_over_float_n_ge_200": med("exact_over_float", big),
        "median_modular_over_float_n_ge_200": med("modular_over_float", big),
        "max_exact_seconds": max((r["exact_seconds"] for r in rows
                                  if r.get("exact_seconds") is not None), default=None),
        "max_float_int_seconds": max((r["float_int_seconds"] for r in rows
                                      if r.get("float_int_seconds") is not None), default=None),
    }
    kinds: dict = {}
    for r in rows:
        kinds[f"{r['ref_source']}:{r['ref_kind']}"] = kinds.get(
            f"{r['ref_source']}:{r['ref_kind']}", 0) + 1
    return {"first_wrong": first_wrong, "timing": timing, "reference_kinds": kinds}


def machine_info() -> dict:
    info = {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "cpu_count": os.cpu_count(),
        "numpy": np.__version__,
        "python_flint": flint.__version__,
        "seprank": getattr(seprank, "__version__", None),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }
    if hasattr(os, "getloadavg"):
        info["loadavg_1_5_15min"] = [round(x, 2) for x in os.getloadavg()]
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        if var in os.environ:
            info[var] = os.environ[var]
    if hasattr(os, "sched_getaffinity"):
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        info["numpy_blas"] = f"{blas.get('name')} {blas.get('version')}"
    except Exception:  # noqa: BLE001 - informational only
        pass
    return info


# --------------------------------------------------------------------------- plot

def plot(rows: list[dict], path: Path, meta: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    from matplotlib.lines import Line2D

    lams = sorted({r["lam"] for r in rows})
    cmap = plt.get_cmap("viridis", len(lams))
    norm = colors.BoundaryNorm(np.arange(min(lams) - 0.5, max(lams) + 1.5), cmap.N)
    styles = {  # (family, variant): marker, filled, x-jitter
        ("omega", "float_int"): ("o", True, 0.96),
        ("omega", "float_norm"): ("o", False, 0.99),
        ("random", "float_int"): ("^", True, 1.01),
        ("random", "float_norm"): ("^", False, 1.04),
    }
    labels = {
        ("omega", "float_int"): "Omega rows, float64 of exact integer G",
        ("omega", "float_norm"): "Omega rows, row-normalized V, (V V^T)^lam in float64",
        ("random", "float_int"): "random rows in [-3,3], float64 of exact integer G",
        ("random", "float_norm"): "random rows in [-3,3], row-normalized V",
    }
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(16, 7), gridspec_kw={"width_ratios": [3, 2]})

    for (fam, var), (mk, filled, jit) in styles.items():
        for exact_ref in (True, False):
            sel = [r for r in rows if r["family"] == fam and r.get(f"{var}_rank") is not None
                   and (r["ref_kind"] == "exact") == exact_ref]
            if not sel:
                continue
            x = np.array([r["n"] for r in sel], float) * jit
            y = np.array([r[f"{var}_deficit"] for r in sel], float)
            c = cmap(norm([r["lam"] for r in sel]))
            kw = {"marker": mk, "s": 46, "linewidths": 1.3, "alpha": 0.9 if exact_ref else 0.35}
            if filled:
                ax1.scatter(x, y, c=c, edgecolors="k", **kw)
            else:
                ax1.scatter(x, y, facecolors="none", edgecolors=c, **kw)
    ax1.set_xscale("log")
    ax1.set_yscale("symlog", linthresh=1)
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set_xlabel("n = ((d, lambda))  (matrix size, log scale)")
    ax1.set_ylabel("rank deficit = exact rank - numpy matrix_rank  (symlog)")
    ax1.set_title("numpy float64 matrix_rank vs exact rank of G = (U U^T)^(Hadamard lambda)")
    handles = [Line2D([], [], ls="", marker=mk, markersize=8,
                      markerfacecolor="grey" if filled else "none", markeredgecolor="k",
                      label=labels[key]) for key, (mk, filled, _) in styles.items()]
    n_lb = sum(r["ref_kind"] != "exact" for r in rows)
    kind_note = ("every reference rank has kind 'exact'" if n_lb == 0 else
                 f"faded: {n_lb} cases whose reference is only a lower bound")
    handles.append(Line2D([], [], ls="", label=kind_note))
    ax1.legend(handles=handles, loc="upper left", fontsize=8.5, framealpha=0.9)
    sm = cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, ax=ax1, ticks=lams, pad=0.01)
    cb.set_label("lambda (colour)")
    if max(r["n"] for r in rows) <= meta["exact_max_n"]:
        ref_note = "reference: seprank.rank(G, 'exact') (flint fmpz over Q) for every case"
    else:
        ref_note = (f"reference: flint fmpz over Q for n <= {meta['exact_max_n']}; "
                    f"above, rank mod p = {PRIME} (exact only when full)")
    ax1.text(0.99, 0.02, ref_note,
             transform=ax1.transAxes, ha="right", va="bottom", fontsize=8, color="0.3")

    paths = [("exact_seconds", "exact over Q (gram_hadamard_exact + fmpz rank)", "tab:red"),
             ("modular_seconds", "mod p (gram_hadamard_mod_p + nmod rank)", "tab:orange"),
             ("float_int_seconds", "float64 ((U U^T)**lam + matrix_rank)", "tab:blue")]
    for key, label, col in paths:
        for fam, mk in (("omega", "o"), ("random", "^")):
            sel = [r for r in rows if r["family"] == fam and r.get(key) is not None]
            ax2.scatter([r["n"] for r in sel], [r[key] for r in sel], marker=mk, s=22,
                        color=col, alpha=0.75, label=f"{label}, {fam}")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("n (log scale)")
    ax2.set_ylabel("seconds, build of G + rank (log scale)")
    ax2.set_title("time per path (o = Omega family, ^ = random family)")
    ax2.legend(fontsize=7.5, loc="upper left")
    ax2.grid(True, which="major", alpha=0.3)
    m = meta["machine"]
    fig.suptitle(f"float_vs_exact ({meta['mode']} run, {m['date']}, {m['cpu_count']} CPUs, "
                 f"BLAS threads {meta['blas_threads']}, numpy {m['numpy']}, "
                 f"python-flint {m['python_flint']})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --------------------------------------------------------------------------- main

_BLAS_LIMITER = None  # keeps the threadpoolctl limiter alive for the whole run


def _limit_blas(threads: int):
    """Limit numpy's BLAS to ``threads`` (0: unchanged); what was set, as recorded."""
    global _BLAS_LIMITER
    if threads <= 0:
        return "unchanged"
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        print("warning: threadpoolctl not installed; BLAS threads left unchanged "
              f"(set OPENBLAS_NUM_THREADS={threads} to limit them)", file=sys.stderr)
        return "unchanged (threadpoolctl missing)"
    _BLAS_LIMITER = threadpool_limits(limits=threads, user_api="blas")
    return threads


def _fmt_csv(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    return v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n up to ~220 instead of ~1000")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    ap.add_argument("--seed", type=int, default=20240601, help="seed of the random family")
    ap.add_argument("--max-n", type=int, default=None, help="largest n (default 1024; quick 220)")
    ap.add_argument("--exact-max-n", type=int, default=1024,
                    help="largest n ranked with fmpz over Q (default 1024: at n ~ 1000 the "
                         "fmpz build + rank takes about a second)")
    ap.add_argument("--max-d", type=int, default=256,
                    help="largest d (only limits lambda = 1, where n = d; default 256)")
    ap.add_argument("--blas-threads", type=int, default=1,
                    help="BLAS threads for numpy (default 1, like flint; 0 = leave as is). "
                         "Needs threadpoolctl; multi-threaded OpenBLAS on a loaded machine "
                         "can make a 100 x 100 SVD take a second")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)

    max_n = args.max_n or (220 if args.quick else 1024)
    cases = ladder(max_n, args.max_d)
    blas_limit = _limit_blas(args.blas_threads)
    load_start = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    t_start = time.perf_counter()
    rows = []
    total = len(cases) * len(FAMILIES)
    for fam in FAMILIES:
        for d, lam, n in cases:
            row = run_case(fam, d, lam, args.seed, args.exact_max_n)
            rows.append(row)
            print(f"[{len(rows):3d}/{total}] {fam:6s} d={d:4d} lam={lam} n={n:5d} "
                  f"ref={row['ref_rank']}({row['ref_kind']}) "
                  f"float_int={row.get('float_int_rank', row.get('float_int_status'))} "
                  f"float_norm={row.get('float_norm_rank', row.get('float_norm_status'))}",
                  flush=True)
    elapsed = time.perf_counter() - t_start

    machine = machine_info()
    machine["loadavg_at_start"] = load_start
    meta = {
        "benchmark": "float_vs_exact",
        "mode": "quick" if args.quick else "default",
        "machine": machine,
        "config": {"max_n": max_n, "max_d": args.max_d, "exact_max_n": args.exact_max_n,
                   "seed": args.seed,
                   "prime": PRIME, "omega": OMEGA, "lambdas": list(LAMBDAS),
                   "random_entries": [-3, 3],
                   "random_rng": "numpy.random.default_rng([seed, d, lam])",
                   "float_rank": "numpy.linalg.matrix_rank, default tolerance "
                                 "sigma_max * n * eps"},
        "exact_max_n": args.exact_max_n,
        "blas_threads": blas_limit,
        "total_seconds": elapsed,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "float_vs_exact.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS, extrasaction="raise")
        w.writeheader()
        for r in rows:
            w.writerow({k: _fmt_csv(r.get(k)) for k in CSV_FIELDS})
    summary = summarize(rows)
    with open(args.out / "float_vs_exact.json", "w") as fh:
        json.dump({**meta, "summary": summary, "rows": rows}, fh, indent=1, default=str)
    if not args.no_plot:
        plot(rows, args.out / "float_vs_exact.png", meta)

    print(f"\n{len(rows)} cases in {elapsed:.1f} s; results in {args.out}")
    print("smallest n where numpy float64 matrix_rank is wrong (per lambda):")
    for key, per_lam in summary["first_wrong"].items():
        cells = [f"l{lam}:{v['smallest_n_wrong'] or '-'}" for lam, v in per_lam.items()]
        print(f"  {key:18s} " + " ".join(cells))
    print("timing medians:", {k: (round(v, 3) if isinstance(v, float) else v)
                              for k, v in summary["timing"].items()})
    print("reference kinds:", summary["reference_kinds"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
