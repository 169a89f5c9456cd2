#!/usr/bin/env python
"""Float rank versus exact rank on Gram Hadamard powers G = (U U^T)^(Hadamard lambda).

The research version of ``seprank float-vs-exact`` (the installed command, whose
computation is :mod:`seprank.float_vs_exact`; use that one for your own ranges
and your own V). This script adds what the study in benchmarks/README.md
reports: the rtol sweep, the windows of right tolerances, mpmath 30/60-digit
SVDs, the longdouble probe and best-of-k timings, over a fixed ladder of
(d, lambda). It draws U with :func:`seprank.float_vs_exact.family_V`, the
command's own families, and by default rewrites the committed results in
benchmarks/results/ (give ``--out DIR`` to write elsewhere).

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
* float ranks from the singular values s_1 >= ... >= s_n of one SVD per matrix,
  rank(rtol) = #{i : s_i > rtol * s_1}, for
  - rule ``default``: rtol = n * eps, numpy.linalg.matrix_rank's default
    (eps of the working precision);
  - the sweep rtol in RTOLS = 1e-15, 1e-13, 1e-11, 1e-9, 1e-7;
  on the float variants
  - ``float_int``: the exact integers correctly rounded to float64 (``overflow``
    when an entry exceeds the float64 range);
  - ``float_norm``: row-normalized V = U / ||U_i||, G = (V V^T)^lambda built in
    float64;
  - ``float_ld``: longdouble, only if numpy.linalg accepts it (it does not on
    the platforms we know; the JSON records the probe's error message);
  - ``mp30`` / ``mp60`` (n <= --mp-max-n): ``mpmath.svd_r`` of the exact integer
    G at 30 / 60 decimal digits. Higher-precision *float estimates*, not exact.
  For each variant and rule: rank, deficit (reference - float; negative means
  the float rank is too high, i.e. the tolerance is too small) and whether it is
  wrong; plus the window [lo, hi) of rtol values that would give the exact rank
  (lo = s_{r+1}/s_1, hi = s_r/s_1 for exact rank r).

Row scaling does not change the rank, so all float variants are compared with
the same reference rank. A float rank is called wrong when it differs from a
reference rank of kind ``exact``, or when it lies below a certified lower bound.

Timings (time.perf_counter) are build of G from U plus rank, per path. The
float_int path is timed as a float user would run it: (U U^T)**lambda built in
float64 directly, then the SVD that matrix_rank does; the rank reported is that
of the correctly rounded exact matrix, and ``float_build_maxrel_diff`` records
how far the two float64 matrices are apart (a few ulp).

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
import mpmath
import numpy as np

import seprank
from seprank.combinatorics import multiset
from seprank.constructions.omega import gram_hadamard_exact, gram_hadamard_mod_p
from seprank.float_vs_exact import family_V

PRIME = 2**31 - 1
OMEGA = 2
FAMILIES = ("omega", "random")
LAMBDAS = tuple(range(1, 10))
EPS = float(np.finfo(np.float64).eps)
RTOL_TAGS = ("1e-15", "1e-13", "1e-11", "1e-9", "1e-7")
RTOLS = tuple(float(t) for t in RTOL_TAGS)
RULES = ("default",) + RTOL_TAGS  # "default": rtol = n * eps of the working precision
MP_DPS = (30, 60)
FLOAT64_VARIANTS = ("float_int", "float_norm")

BASE_FIELDS = [
    "family", "d", "lam", "n", "omega", "seed",
    "exact_rank", "exact_kind", "exact_build_s", "exact_rank_s", "exact_seconds",
    "modular_prime", "modular_rank", "modular_kind_gfp", "modular_kind_q",
    "modular_build_s", "modular_rank_s", "modular_seconds",
    "ref_rank", "ref_kind", "ref_source",
    "float_int_log10_max_entry", "float_build_maxrel_diff",
    "float_tol_rel", "exact_over_float", "modular_over_float",
]
VARIANT_FIELDS = ["status", "rank", "deficit", "wrong", "sigma_min_rel",
                  "rtol_window_lo", "rtol_window_hi", "build_s", "rank_s", "seconds"]


def csv_fields(variants) -> list[str]:
    out = list(BASE_FIELDS)
    for v in variants:
        out += [f"{v}_{f}" for f in VARIANT_FIELDS]
        for tag in RTOL_TAGS:
            out += [f"{v}_rank@{tag}", f"{v}_deficit@{tag}"]
    return out


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
    """U of ``seprank float-vs-exact``'s families (Omega = 2; random in [-3, 3])."""
    return np.array(family_V(family, d, lam, seed), dtype=np.int64).reshape(-1, d)


def probe_longdouble() -> dict:
    """What numpy offers beyond float64: finfo(longdouble) and whether linalg.svd takes it."""
    fi = np.finfo(np.longdouble)
    info = {"dtype": str(np.dtype(np.longdouble)), "eps": float(fi.eps),
            "precision_digits": int(fi.precision), "mantissa_bits": int(fi.nmant) + 1}
    try:
        s = np.linalg.svd(np.eye(3, dtype=np.longdouble), compute_uv=False)
    except Exception as e:  # noqa: BLE001 - the message is the finding
        info["supported"] = False
        info["note"] = (f"numpy.linalg has no longdouble SVD on this platform: "
                        f"{type(e).__name__}: {e}")
        return info
    info["supported"] = s.dtype == np.longdouble and fi.eps < EPS
    info["note"] = (f"numpy.linalg.svd accepted longdouble (result dtype {s.dtype}, "
                    f"eps {float(fi.eps):.3g})")
    return info


def _wrong(ref_rank: int, ref_kind: str, float_rank: int | None):
    """True/False when decidable, None when not (float >= a mere lower bound)."""
    if float_rank is None:
        return None
    if ref_kind == "exact":
        return float_rank != ref_rank
    if float_rank < ref_rank:  # below a certified lower bound
        return True
    return None


def _rank_at(s, rel_tol) -> int:
    """#{i : s_i > rel_tol * s_1}; s sorted descending (numpy array or list of mpf)."""
    if isinstance(s, np.ndarray):
        return int(np.count_nonzero(s > rel_tol * s[0])) if s.size and s[0] > 0 else 0
    if not s or s[0] <= 0:
        return 0
    cut = mpmath.mpf(rel_tol) * s[0]
    return sum(1 for x in s if x > cut)


def _profile(v: str, s, eps: float, n: int, ref_rank: int, ref_kind: str) -> dict:
    """Ranks under every rule, deficits, wrong flags and the right-rtol window of variant v."""
    out: dict = {}
    for rule in RULES:
        rel = n * eps if rule == "default" else float(rule)
        r = _rank_at(s, rel)
        sfx = "" if rule == "default" else f"@{rule}"
        out[f"{v}_rank{sfx}"] = r
        out[f"{v}_deficit{sfx}"] = ref_rank - r
        out[f"{v}_wrong{sfx}"] = _wrong(ref_rank, ref_kind, r)
    s0 = s[0]
    if s0 > 0:
        out[f"{v}_sigma_min_rel"] = float(s[-1] / s0)
        if ref_kind == "exact":  # rank(rtol) == ref_rank  iff  lo <= rtol < hi
            out[f"{v}_rtol_window_lo"] = float(s[ref_rank] / s0) if ref_rank < n else 0.0
            out[f"{v}_rtol_window_hi"] = float(s[ref_rank - 1] / s0) if ref_rank else math.inf
    return out


def _exact_int_matrix(u: np.ndarray, lam: int) -> np.ndarray:
    """G = (U U^T)^lam as an object array of python ints."""
    bound = u.shape[1] * int(np.max(np.abs(u), initial=0)) ** 2
    if bound < 2**62:  # U U^T is exact in int64; only the Hadamard power needs big ints
        return (u @ u.T).astype(object) ** lam
    uo = u.astype(object)
    return (uo @ uo.T) ** lam


def _svd(g: np.ndarray) -> np.ndarray:
    return np.linalg.svd(g, compute_uv=False)


def _float_int(u: np.ndarray, g_exact: np.ndarray, lam: int, repeat: int) -> tuple[dict, object]:
    """float64 singular values of the exact integer G correctly rounded, plus a user timing."""
    out: dict = {}
    max_entry = max((abs(int(x)) for x in g_exact.ravel()), default=0)
    out["float_int_log10_max_entry"] = (round(math.log10(max_entry), 2) if max_entry else 0.0)
    try:
        g_conv = g_exact.astype(np.float64)
    except OverflowError:
        out["float_int_status"] = "overflow"
        return out, None
    uf = u.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        g_direct, t_build = _timed(lambda: (uf @ uf.T) ** lam, repeat)
    if not np.all(np.isfinite(g_direct)) or not np.all(np.isfinite(g_conv)):
        out["float_int_status"] = "overflow"
        return out, None
    s, t_rank = _timed(lambda: _svd(g_conv), repeat)
    scale = np.abs(g_conv)
    diff = np.abs(g_direct - g_conv)
    nz = scale > 0
    maxrel = float(np.max(diff[nz] / scale[nz])) if nz.any() else 0.0
    if np.any(diff[~nz] > 0):
        maxrel = float("inf")
    out.update({"float_int_status": "ok", "float_int_build_s": t_build,
                "float_int_rank_s": t_rank, "float_int_seconds": t_build + t_rank,
                "float_build_maxrel_diff": maxrel})
    if g_conv.shape[0] <= 120:  # the count rule is numpy's matrix_rank rule
        assert _rank_at(s, g_conv.shape[0] * EPS) == int(np.linalg.matrix_rank(g_conv))
    return out, s


def _float_norm(u: np.ndarray, lam: int, repeat: int) -> tuple[dict, object]:
    uf = u.astype(np.float64)

    def build():
        norms = np.linalg.norm(uf, axis=1)
        norms[norms == 0] = 1.0  # a zero row stays zero: the rank is unchanged
        v = uf / norms[:, None]
        return (v @ v.T) ** lam

    g, t_build = _timed(build, repeat)
    if not np.all(np.isfinite(g)):
        return {"float_norm_status": "overflow"}, None
    s, t_rank = _timed(lambda: _svd(g), repeat)
    return {"float_norm_status": "ok", "float_norm_build_s": t_build,
            "float_norm_rank_s": t_rank, "float_norm_seconds": t_build + t_rank}, s


def _float_ld(g_exact: np.ndarray) -> tuple[dict, object]:
    """longdouble SVD of the exact integer G (only called when numpy.linalg supports it)."""
    try:
        g = np.array([[np.longdouble(str(x)) for x in row] for row in g_exact.tolist()],
                     dtype=np.longdouble)
    except OverflowError:
        return {"float_ld_status": "overflow"}, None
    s, t = _timed(lambda: _svd(g))
    return {"float_ld_status": "ok", "float_ld_rank_s": t, "float_ld_seconds": t}, s


def _mp(g_exact: np.ndarray, dps: int) -> tuple[dict, object, float]:
    """mpmath.svd_r of the exact integer G at ``dps`` digits: a float estimate, not exact."""
    v = f"mp{dps}"
    with mpmath.workdps(dps):
        eps = float(mpmath.mp.eps)
        t0 = time.perf_counter()
        try:
            a = mpmath.matrix(g_exact.tolist())
            s = mpmath.svd_r(a, compute_uv=False)
        except Exception as e:  # noqa: BLE001 - recorded, not fatal
            return {f"{v}_status": f"error: {type(e).__name__}: {e}"}, None, eps
        t = time.perf_counter() - t0
        s = sorted((s[i] for i in range(len(s))), reverse=True)
    return {f"{v}_status": "ok", f"{v}_rank_s": t, f"{v}_seconds": t}, s, eps


def run_case(family: str, d: int, lam: int, seed: int, exact_max_n: int, mp_max_n: int,
             longdouble: bool) -> dict:
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
    ref = (row["ref_rank"], row["ref_kind"])

    g_exact = _exact_int_matrix(u, lam)
    out, s = _float_int(u, g_exact, lam, repeat)
    row.update(out)
    if s is not None:
        row.update(_profile("float_int", s, EPS, n, *ref))
    out, s = _float_norm(u, lam, repeat)
    row.update(out)
    if s is not None:
        row.update(_profile("float_norm", s, EPS, n, *ref))
    if longdouble:
        out, s = _float_ld(g_exact)
        row.update(out)
        if s is not None:
            row.update(_profile("float_ld", s, float(np.finfo(np.longdouble).eps), n, *ref))
    if n <= mp_max_n:
        for dps in MP_DPS:
            out, s, eps = _mp(g_exact, dps)
            row.update(out)
            if s is not None:
                row.update(_profile(f"mp{dps}", s, eps, n, *ref))

    row["float_tol_rel"] = n * EPS
    if row.get("float_int_seconds"):
        if row.get("exact_seconds") is not None:
            row["exact_over_float"] = row["exact_seconds"] / row["float_int_seconds"]
        row["modular_over_float"] = row["modular_seconds"] / row["float_int_seconds"]
    return row


# --------------------------------------------------------------------------- summary

def _sfx(rule: str) -> str:
    return "" if rule == "default" else f"@{rule}"


def _variant_eps(var: str) -> float:
    if var.startswith("mp"):
        with mpmath.workdps(int(var[2:])):
            return float(mpmath.mp.eps)
    return float(np.finfo(np.longdouble if var == "float_ld" else np.float64).eps)


def summarize(rows: list[dict], variants) -> dict:
    lams = sorted({r["lam"] for r in rows})
    first_wrong: dict = {}  # numpy's default rule, per lambda (as in earlier runs)
    sweep: dict = {}        # every rule: counts and smallest n wrong per lambda
    for fam in FAMILIES:
        for var in variants:
            per_lam = {}
            per_rule = {}
            for rule in RULES:
                key = f"{var}_wrong{_sfx(rule)}"
                dkey = f"{var}_deficit{_sfx(rule)}"
                sel = [r for r in rows if r["family"] == fam and r.get(key) is not None]
                smallest = {}
                for lam in lams:
                    ws = [r["n"] for r in sel if r["lam"] == lam and r[key]]
                    smallest[str(lam)] = min(ws) if ws else None
                per_rule[rule] = {
                    "n_cases": len(sel),
                    "n_wrong": sum(bool(r[key]) for r in sel),
                    "n_too_low": sum(bool(r[key]) and r[dkey] > 0 for r in sel),
                    "n_too_high": sum(bool(r[key]) and r[dkey] < 0 for r in sel),
                    "max_deficit": max((r[dkey] for r in sel), default=None),
                    "min_deficit": min((r[dkey] for r in sel), default=None),
                    "smallest_n_wrong_per_lambda": smallest,
                }
            for lam in lams:
                sel = [r for r in rows if r["family"] == fam and r["lam"] == lam]
                wrong = [r["n"] for r in sel if r.get(f"{var}_wrong") is True]
                right = [r["n"] for r in sel if r.get(f"{var}_wrong") is False]
                per_lam[str(lam)] = {
                    "smallest_n_wrong": min(wrong) if wrong else None,
                    "largest_n_right": max(right) if right else None,
                    "n_wrong": len(wrong), "n_cases": len(sel),
                    "n_overflow": sum(r.get(f"{var}_status") == "overflow" for r in sel),
                }
            if any(v["n_cases"] for v in per_rule.values()):
                first_wrong[f"{fam}/{var}"] = per_lam
                sweep[f"{fam}/{var}"] = per_rule

    right_everywhere: dict = {}
    windows: dict = {}
    for var in variants:
        for scope in (*FAMILIES, "all"):
            fams = FAMILIES if scope == "all" else (scope,)
            sel = [r for r in rows if r["family"] in fams and r.get(f"{var}_rank") is not None]
            if not sel:
                continue
            right_everywhere[f"{scope}/{var}"] = [
                rule for rule in RULES
                if all(r.get(f"{var}_wrong{_sfx(rule)}") is False for r in sel)]
            ws = [r for r in sel if r.get(f"{var}_rtol_window_lo") is not None]
            if not ws:
                continue
            lo = max(ws, key=lambda r: r[f"{var}_rtol_window_lo"])
            hi = min(ws, key=lambda r: r[f"{var}_rtol_window_hi"])
            lo_v, hi_v = lo[f"{var}_rtol_window_lo"], hi[f"{var}_rtol_window_hi"]
            eps = _variant_eps(var)
            windows[f"{scope}/{var}"] = {
                "max_lo": lo_v, "max_lo_at": f"{lo['family']} d={lo['d']} lam={lo['lam']} "
                                             f"n={lo['n']}",
                "min_hi": hi_v, "min_hi_at": f"{hi['family']} d={hi['d']} lam={hi['lam']} "
                                             f"n={hi['n']}",
                "a_single_rtol_works": lo_v < hi_v,
                # hi below eps: only a tolerance under the rounding unit gives the exact rank
                "eps": eps, "min_hi_below_eps": hi_v < eps,
                "n_cases": len(ws),
                "n_max": max(r["n"] for r in ws),
            }

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
    for dps in MP_DPS:
        xs = [r for r in rows if r.get(f"mp{dps}_seconds") is not None]
        if xs:
            timing[f"max_mp{dps}_seconds"] = max(r[f"mp{dps}_seconds"] for r in xs)
            timing[f"total_mp{dps}_seconds"] = sum(r[f"mp{dps}_seconds"] for r in xs)
    kinds: dict = {}
    for r in rows:
        kinds[f"{r['ref_source']}:{r['ref_kind']}"] = kinds.get(
            f"{r['ref_source']}:{r['ref_kind']}", 0) + 1
    return {"first_wrong": first_wrong, "rtol_sweep": sweep,
            "rules_right_everywhere": right_everywhere, "right_rtol_window": windows,
            "timing": timing, "reference_kinds": kinds}


def machine_info() -> dict:
    info = {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "cpu_count": os.cpu_count(),
        "numpy": np.__version__,
        "python_flint": flint.__version__,
        "mpmath": mpmath.__version__,
        "mpmath_backend": mpmath.libmp.BACKEND,
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

VARIANT_TITLES = {
    "float_int": "float64 of the exact integer G",
    "float_norm": "float64, row-normalized V: (V V^T)^lam",
    "float_ld": "longdouble of the exact integer G",
    "mp30": "mpmath 30 digits (float estimate)",
    "mp60": "mpmath 60 digits (float estimate)",
}
# deficit bins: (upper edge of the bin, colour, label); 0 is neutral grey
DEFICIT_BINS = [
    (-99.5, "#08306b", "<= -100"), (-9.5, "#2171b5", "-99..-10"), (-1.5, "#6baed6", "-9..-2"),
    (-0.5, "#c6dbef", "-1"), (0.5, "#e0e0e0", "0 (right)"), (1.5, "#fdd0a2", "1"),
    (9.5, "#fd8d3c", "2..9"), (99.5, "#d94801", "10..99"), (1e9, "#7f2704", ">= 100"),
]


def _cell_edges(ns: list[int]) -> list[tuple[float, float]]:
    """Log-space cells around sorted n values: split at geometric midpoints."""
    edges = []
    for i, n in enumerate(ns):
        lo = math.sqrt(ns[i - 1] * n) if i else n / 1.12
        hi = math.sqrt(ns[i + 1] * n) if i + 1 < len(ns) else n * 1.12
        edges.append((lo, hi))
    return edges


def plot(rows: list[dict], path: Path, meta: dict, variants) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colors
    from matplotlib.colorbar import ColorbarBase
    from matplotlib.patches import Rectangle
    from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

    variants = [v for v in variants if any(r.get(f"{v}_rank") is not None for r in rows)]
    lams = sorted({r["lam"] for r in rows})
    bounds = [-1e9] + [b for b, _, _ in DEFICIT_BINS]
    cmap = colors.ListedColormap([c for _, c, _ in DEFICIT_BINS])
    norm = colors.BoundaryNorm(bounds, cmap.N)
    n_sub = len(RULES)
    h = 1.0 / n_sub
    rule_labels = ["default: n * eps\nof the precision"] + [f"rtol {t}" for t in RTOL_TAGS]

    wide = [3.3 if v.startswith("float") else 1.5 for v in variants]
    fig = plt.figure(figsize=(5.2 + sum(wide) * 1.45 + 5.5, 11.5))
    gs = fig.add_gridspec(2, len(variants) + 2, width_ratios=[*wide, 0.55, 3.4],
                          wspace=0.12, hspace=0.16, left=0.04, right=0.962, top=0.9,
                          bottom=0.07)
    n_all = [r["n"] for r in rows]
    x_float = (min(n_all) / 1.2, max(n_all) * 1.2)
    for i, fam in enumerate(FAMILIES):
        for j, var in enumerate(variants):
            ax = fig.add_subplot(gs[i, j])
            sel = [r for r in rows if r["family"] == fam]
            for lam in lams:
                lr = sorted((r for r in sel if r["lam"] == lam), key=lambda r: r["n"])
                lr = [r for r in lr if r.get(f"{var}_status") is not None]
                for r, (x0, x1) in zip(lr, _cell_edges([r["n"] for r in lr]), strict=True):
                    for k, rule in enumerate(RULES):
                        y0 = lam - 0.5 + k * h
                        dfc = r.get(f"{var}_deficit{_sfx(rule)}")
                        if dfc is None:  # overflow / error: black cell
                            fc, hatch = "k", None
                        else:
                            fc = cmap(norm(dfc))
                            hatch = "////" if r["ref_kind"] != "exact" else None
                        ax.add_patch(Rectangle((x0, y0), x1 - x0, h, facecolor=fc,
                                               edgecolor="white", lw=0.3, hatch=hatch))
            for lam in lams:
                ax.axhline(lam - 0.5, color="0.35", lw=0.8)
            ax.axhline(max(lams) + 0.5, color="0.35", lw=0.8)
            ax.set_xscale("log")
            mp_var = var.startswith("mp")
            if mp_var:
                ns = [r["n"] for r in rows if r.get(f"{var}_status") is not None]
                ax.set_xlim(min(ns) / 1.2, max(ns) * 1.2)
                ticks = [t for t in (3, 5, 10, 20, 30, 50, 100) if min(ns) / 1.2 <= t
                         <= max(ns) * 1.2]
                ax.xaxis.set_major_locator(FixedLocator(ticks))
                ax.xaxis.set_major_formatter(ScalarFormatter())
                ax.xaxis.set_minor_formatter(NullFormatter())
            else:
                ax.set_xlim(*x_float)
            ax.set_ylim(min(lams) - 0.5, max(lams) + 0.5)
            ax.set_yticks(lams)
            ax.set_yticklabels([f"lam={lam}" for lam in lams] if j == 0 else [])
            ax.tick_params(axis="y", length=0)
            ax.grid(True, axis="x", which="major", color="0.6", lw=0.4, alpha=0.6)
            ax.set_axisbelow(False)
            if i == 0:
                ax.set_title(VARIANT_TITLES.get(var, var), fontsize=9.5)
            if i == len(FAMILIES) - 1:
                ax.set_xlabel("n = ((d, lambda)) (log)" + (" , n <= mp-max-n" if mp_var else ""),
                              fontsize=8.5)
            if j == 0:
                fam_label = ("Omega rows (omega_rows(d, lam, 2))" if fam == "omega"
                             else "random rows, entries in [-3, 3]")
                ax.set_ylabel(fam_label, fontsize=10, fontweight="bold")

    # colour bar and sub-row key
    host = fig.add_subplot(gs[0, len(variants)])
    host.axis("off")
    cax = host.inset_axes([0.0, 0.0, 0.28, 1.0])
    ColorbarBase(cax, cmap=cmap, norm=colors.BoundaryNorm(range(len(DEFICIT_BINS) + 1),
                                                          cmap.N),
                 ticks=np.arange(len(DEFICIT_BINS)) + 0.5)
    cax.set_yticklabels([lab for _, _, lab in DEFICIT_BINS], fontsize=8)
    cax.set_ylabel("deficit = exact rank - float rank\n(red: float too low = tolerance too "
                   "big; blue: float too high = tolerance too small)", fontsize=8)
    kax = fig.add_subplot(gs[1, len(variants)])
    kax.set_xlim(0, 1)
    kax.set_ylim(0, 1)
    kax.axis("off")
    kax.text(0.0, 0.98, "each lam band,\nsub-rows\nbottom to top:", fontsize=8, va="top")
    for k, lab in enumerate(rule_labels):
        y = 0.25 + k * 0.08
        kax.add_patch(Rectangle((0.0, y), 0.25, 0.075, facecolor="#e0e0e0", edgecolor="0.3",
                                lw=0.6))
        kax.text(0.3, y + 0.037, lab, fontsize=7.5, va="center")
    kax.text(0.0, 0.2, "white: no case\nblack: overflow\nhatched: ref. only\na lower bound",
             fontsize=7, va="top")

    # timing panel
    tax = fig.add_subplot(gs[:, len(variants) + 1])
    paths = [("exact_seconds", "exact over Q (gram_hadamard_exact + fmpz rank)", "tab:red"),
             ("modular_seconds", "mod p (gram_hadamard_mod_p + nmod rank)", "tab:orange"),
             ("float_int_seconds", "float64 ((U U^T)**lam + SVD)", "tab:blue"),
             ("float_norm_seconds", "float64 row-normalized (build + SVD)", "tab:cyan"),
             ("mp30_seconds", "mpmath svd_r, 30 digits", "tab:green"),
             ("mp60_seconds", "mpmath svd_r, 60 digits", "tab:purple")]
    for key, label, col in paths:
        for fam, mk in (("omega", "o"), ("random", "^")):
            sel = [r for r in rows if r["family"] == fam and r.get(key) is not None]
            if sel:
                tax.scatter([r["n"] for r in sel], [r[key] for r in sel], marker=mk, s=18,
                            color=col, alpha=0.75, label=label if fam == "omega" else None)
    tax.set_xscale("log")
    tax.set_yscale("log")
    tax.set_xlabel("n (log scale)")
    tax.set_ylabel("seconds, build of G + rank (log scale)")
    tax.yaxis.set_label_position("right")
    tax.yaxis.tick_right()
    tax.set_title("time per path (o = Omega, ^ = random)", fontsize=9.5)
    tax.legend(fontsize=7.5, loc="lower right")
    tax.grid(True, which="major", alpha=0.3)

    kinds = meta["reference_kinds"]
    if set(k.split(":")[1] for k in kinds) == {"exact"}:
        ref = (f"reference ranks are EXACT for all {len(rows)} cases "
               f"(kind 'exact': " + ", ".join(f"{k.split(':')[0]} {v}" for k, v in
                                               kinds.items()) + ")")
    else:
        ref = "reference ranks: " + ", ".join(f"{k} {v}" for k, v in kinds.items())
    dkeys = [f"{v}_deficit{_sfx(rule)}" for v in variants for rule in RULES]
    if not any((r.get(k) or 0) < 0 for r in rows for k in dkeys):
        ref += "; no cell is blue: no float rank is above the exact rank"
    m = meta["machine"]
    fig.suptitle(
        "Where float rank (#singular values > rtol * sigma_max) is wrong on "
        "G = (U U^T)^(Hadamard lam), against the exact rank over Q\n"
        f"{ref}.\nGrey = float rank right.  {meta['float128_short']}.  "
        f"{meta['mode']} run, {m['date']}, {m['cpu_count']} CPUs, BLAS threads "
        f"{meta['blas_threads']}, numpy {m['numpy']}, python-flint {m['python_flint']}, "
        f"mpmath {m['mpmath']}", fontsize=10.5)
    fig.savefig(path, dpi=110)
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


def _fmt_n(v):
    return "-" if v is None else str(v)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n up to ~220 instead of ~1000")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results",
                    help="folder for float_vs_exact.csv, .json and .png (default: "
                    "benchmarks/results, i.e. it REWRITES the committed results; for your own "
                    "study use `seprank float-vs-exact --out DIR`)")
    ap.add_argument("--seed", type=int, default=20240601, help="seed of the random family")
    ap.add_argument("--max-n", type=int, default=None, help="largest n (default 1024; quick 220)")
    ap.add_argument("--exact-max-n", type=int, default=1024,
                    help="largest n ranked with fmpz over Q (default 1024: at n ~ 1000 the "
                         "fmpz build + rank takes about a second)")
    ap.add_argument("--mp-max-n", type=int, default=None,
                    help="largest n for the mpmath 30/60-digit SVDs (default 60; quick 25; "
                         "0 = none). A 60 x 60 svd_r takes about a second")
    ap.add_argument("--max-d", type=int, default=256,
                    help="largest d (only limits lambda = 1, where n = d; default 256)")
    ap.add_argument("--blas-threads", type=int, default=1,
                    help="BLAS threads for numpy (default 1, like flint; 0 = leave as is). "
                         "Needs threadpoolctl; multi-threaded OpenBLAS on a loaded machine "
                         "can make a 100 x 100 SVD take a second")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)

    max_n = args.max_n or (220 if args.quick else 1024)
    mp_max_n = args.mp_max_n if args.mp_max_n is not None else (25 if args.quick else 60)
    cases = ladder(max_n, args.max_d)
    blas_limit = _limit_blas(args.blas_threads)
    ld = probe_longdouble()
    variants = [*FLOAT64_VARIANTS, *(["float_ld"] if ld["supported"] else []),
                *(f"mp{dps}" for dps in MP_DPS)]
    load_start = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    t_start = time.perf_counter()
    rows = []
    total = len(cases) * len(FAMILIES)
    for fam in FAMILIES:
        for d, lam, n in cases:
            row = run_case(fam, d, lam, args.seed, args.exact_max_n, mp_max_n, ld["supported"])
            rows.append(row)
            sweep = "/".join(_fmt_n(row.get(f"float_int_rank@{t}")) for t in RTOL_TAGS)
            mp = (f" mp60={row.get('mp60_rank@1e-15', row.get('mp60_status'))}"
                  if n <= mp_max_n else "")
            print(f"[{len(rows):3d}/{total}] {fam:6s} d={d:4d} lam={lam} n={n:5d} "
                  f"ref={row['ref_rank']}({row['ref_kind']}) "
                  f"float_int={row.get('float_int_rank', row.get('float_int_status'))} "
                  f"[rtol sweep {sweep}] "
                  f"float_norm={row.get('float_norm_rank', row.get('float_norm_status'))}"
                  f"{mp}", flush=True)
    elapsed = time.perf_counter() - t_start

    machine = machine_info()
    machine["loadavg_at_start"] = load_start
    summary = summarize(rows, variants)
    meta = {
        "benchmark": "float_vs_exact",
        "mode": "quick" if args.quick else "default",
        "machine": machine,
        "config": {"max_n": max_n, "max_d": args.max_d, "exact_max_n": args.exact_max_n,
                   "mp_max_n": mp_max_n, "mp_dps": list(MP_DPS),
                   "seed": args.seed,
                   "prime": PRIME, "omega": OMEGA, "lambdas": list(LAMBDAS),
                   "random_entries": [-3, 3],
                   "random_rng": "numpy.random.default_rng([seed, d, lam])",
                   "float_rank": "#singular values > rtol * sigma_max, one SVD per matrix "
                                 "(numpy.linalg.svd; mpmath.svd_r for mp30/mp60)",
                   "rules": {"default": "rtol = n * eps of the working precision "
                                        "(numpy.linalg.matrix_rank's default for float64)",
                             **{t: f"rtol = {t}" for t in RTOL_TAGS}},
                   "variants": {v: VARIANT_TITLES[v] for v in variants},
                   "mp_note": "mp30/mp60 are higher-precision float estimates (mpmath SVD "
                              "of the exact integer G at 30/60 digits), not exact ranks"},
        "float128": ld["note"],
        "longdouble": ld,
        "float128_short": ("numpy longdouble: " + ("used (float_ld)" if ld["supported"] else
                                                   "no numpy.linalg SVD, not used")),
        "exact_max_n": args.exact_max_n,
        "blas_threads": blas_limit,
        "total_seconds": elapsed,
        "reference_kinds": summary["reference_kinds"],
    }
    args.out.mkdir(parents=True, exist_ok=True)
    fields = csv_fields(variants)
    with open(args.out / "float_vs_exact.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: _fmt_csv(r.get(k)) for k in fields})
    with open(args.out / "float_vs_exact.json", "w") as fh:
        json.dump({**meta, "summary": summary, "rows": rows}, fh, indent=1, default=str)
    if not args.no_plot:
        plot(rows, args.out / "float_vs_exact.png", meta, variants)

    print(f"\n{len(rows)} cases in {elapsed:.1f} s; results in {args.out}")
    print(ld["note"])
    print("smallest n where the float rank is wrong, per lambda (l1 .. l9), and wrong counts "
          "(too low / too high):")
    for key, per_rule in summary["rtol_sweep"].items():
        for rule, v in per_rule.items():
            cells = " ".join(f"{_fmt_n(x):>4s}" for x in v["smallest_n_wrong_per_lambda"]
                             .values())
            print(f"  {key:18s} {rule:8s} {cells}   wrong {v['n_wrong']:3d}/{v['n_cases']:3d}"
                  f" ({v['n_too_low']} low / {v['n_too_high']} high)")
    print("rules right on every case:", summary["rules_right_everywhere"])
    print("right-rtol window (a single rtol works iff max_lo < min_hi):")
    for key, w in summary["right_rtol_window"].items():
        print(f"  {key:18s} max_lo {w['max_lo']:.3g} ({w['max_lo_at']})  "
              f"min_hi {w['min_hi']:.3g} ({w['min_hi_at']})  -> "
              f"{'a single rtol works' if w['a_single_rtol_works'] else 'NO single rtol'}"
              f"{' (min_hi < eps: only below the rounding unit)' if w['min_hi_below_eps'] else ''}"
              )
    print("timing:", {k: (round(v, 3) if isinstance(v, float) else v)
                      for k, v in summary["timing"].items()})
    print("reference kinds:", summary["reference_kinds"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
