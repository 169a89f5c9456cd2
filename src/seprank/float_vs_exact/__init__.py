"""Where numpy's float64 rank of G = (U U^T)^(Hadamard lam) goes wrong, against the exact rank.

G is the Gram Hadamard power of levine2020_depth_to_width_self_attention.txt
B.2, l.700-712 (eq. (27)); its entries grow like ``|u|^(2 lam)``, so its singular
values spread over many orders of magnitude and a float64 SVD loses the small
ones. For one U, :func:`compare_ranks` computes

* the exact rank over Q (``seprank.rank(G, "auto")`` on the exact G; its kind
  travels with it);
* ``raw``: numpy's float64 SVD rank of the exact G rounded to float64 (the
  best float64 can do for G itself; ``raw_overflow`` when an entry passes 2^1023),
  with how many of G's entries float64 could not hold and by how much at most
  (``raw_entries_rounded``, ``raw_max_relative_error``:
  :func:`seprank.linalg.coerce.float64_rounding`);
* ``normalized``: the same of G built in float64 from the unit rows
  ``u_i / |u_i|`` (row scaling leaves the rank unchanged, and keeps G bounded);

each float rank a ``float_estimate``, with its tolerance and singular-value
gap, marked ``wrong`` when it differs from an ``exact`` rank; and the seconds
of each path (build of the exact G, exact rank, each float rank).

:func:`run_study` runs it over a grid of (d, lam) for the Omega rows
(levine2020 B.2), random integer rows, or the user's own V (``seprank
float-vs-exact``); the sweep computation ``float_vs_exact``
(:mod:`seprank.sweep.computations`) calls :func:`compare_ranks` too.
:mod:`seprank.float_vs_exact.files` writes a study's CSV, JSON and plot.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from seprank.budget import format_count, make_budget
from seprank.errors import OutputError, ParameterError
from seprank.runtime.package import PACKAGE_DIR

__all__ = ["compare_ranks", "family_V", "parse_range", "plan_cases", "study_row",
           "run_study", "summarize", "check_output_folder", "FAMILIES", "ROW_FIELDS"]

#: the families of U a study can run over
FAMILIES = ("omega", "random", "file")
#: the columns of a study's rows (CSV order)
ROW_FIELDS = (
    "family", "d", "lam", "n", "seed", "bound",
    "exact_rank", "exact_kind", "exact_method",
    "raw_rank", "raw_kind", "raw_wrong", "raw_tolerance", "raw_gap", "raw_overflow",
    "raw_entries_rounded", "raw_max_relative_error",
    "normalized_rank", "normalized_kind", "normalized_wrong", "normalized_tolerance",
    "normalized_gap",
    "build_s", "exact_s", "float_raw_s", "float_normalized_s",
)


def _judged(exact: dict[str, Any], r: int | None, details: dict) -> dict[str, Any]:
    wrong = None if r is None or exact["kind"] != "exact" else r != exact["value"]
    return {"value": r, "kind": "float_estimate", "wrong": wrong,
            "tolerance": details.get("tolerance"), "gap": details.get("gap")}


def _exact_G(U: list[list[int | Fraction]], lam: int) -> tuple[Any, list]:
    """The exact G (fmpz_mat for integer U, rows of Fractions otherwise) and its entries."""
    from seprank.constructions.gram_hadamard import gram_hadamard

    if all(not isinstance(x, Fraction) for row in U for x in row):
        from seprank.constructions.omega import gram_hadamard_exact

        G = gram_hadamard_exact(U, lam)
        return G, [int(x) for x in G.entries()]
    G = gram_hadamard(U, lam, domain="QQ", backend="numpy").tolist()
    return G, [x for row in G for x in row]


def _normalized(U, lam: int, exact: dict, rtol) -> dict[str, Any]:
    from seprank.linalg.engines.float_engine import float_rank

    try:
        V = np.asarray(U, dtype=float)
    except OverflowError:
        return {"value": None, "kind": "float_estimate", "wrong": None}
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    norms[norms == 0] = 1.0  # a zero row stays zero: the rank is unchanged
    V = V / norms
    return _judged(exact, *float_rank((V @ V.T) ** lam, rtol=rtol))


def compare_ranks(U: list[list[int | Fraction]], lam: int, *,
                  rtol: float | None = None) -> dict[str, Any]:
    """Exact rank of G = (U U^T)^(Hadamard lam) beside numpy's float64 ranks, with times.

    levine2020_depth_to_width_self_attention.txt B.2, l.700-712 (the matrix);
    see the module docstring for the three paths. ``rtol``: the float ranks
    count singular values above rtol * sigma_max (default: numpy's n * eps).

    Returns
    -------
    dict
        ``n``, ``exact`` (a RankResult dict), ``rtol``, ``raw`` and
        ``normalized`` ({value, kind, wrong, tolerance, gap}; ``raw`` also
        ``entries_rounded`` and ``max_relative_error``), ``raw_overflow``,
        and ``times`` {build_s, exact_s, float_raw_s, float_normalized_s}.

    Examples
    --------
    The Omega rows for d = 2, lam = 8: G is 9 x 9 of rank ((2, 8)) = 9, where
    float64 of the rounded G already loses singular values:

    >>> from seprank.constructions import omega_rows
    >>> r = compare_ranks(omega_rows(2, 8, 2), 8)
    >>> r["exact"]["value"], r["exact"]["kind"], r["raw"]["kind"], r["raw"]["wrong"]
    (9, 'exact', 'float_estimate', True)
    >>> sorted(r["times"])
    ['build_s', 'exact_s', 'float_normalized_s', 'float_raw_s']
    """
    from seprank.budget import checkpoint
    from seprank.linalg import rank
    from seprank.linalg.engines.float_engine import float_rank

    n = len(U)
    t0 = time.perf_counter()
    G, entries = _exact_G(U, lam)
    checkpoint("building G")
    t1 = time.perf_counter()
    exact = rank(G, "auto").to_dict()
    checkpoint("the exact rank of G")
    t2 = time.perf_counter()
    out: dict[str, Any] = {"n": n, "exact": exact, "rtol": rtol}
    if max((abs(x) for x in entries), default=0) >= 2.0 ** 1023:
        out["raw"] = {"value": None, "kind": "float_estimate", "wrong": None}
        out["raw_overflow"] = True
    else:
        from seprank.linalg.coerce import float64_rounding

        raw = np.array([float(x) for x in entries]).reshape(n, n)
        out["raw"] = _judged(exact, *float_rank(raw, rtol=rtol))
        out["raw_overflow"] = False
        rounding = float64_rounding([entries]) or {}
        out["raw"]["entries_rounded"] = rounding.get("entries_rounded", 0)
        out["raw"]["max_relative_error"] = rounding.get("max_relative_error", 0.0)
    t3 = time.perf_counter()
    out["normalized"] = _normalized(U, lam, exact, rtol)
    out["times"] = {"build_s": t1 - t0, "exact_s": t2 - t1, "float_raw_s": t3 - t2,
                    "float_normalized_s": time.perf_counter() - t3}
    return out


def family_V(family: str, d: int, lam: int, seed: int = 0) -> list[list[int]]:
    """U of a study's family: n = ((d, lam)) rows, d columns.

    ``"omega"``: the Omega rows, Omega = 2 (levine2020_depth_to_width_self_attention.txt
    B.2, l.684-700; rank G = ((d, lam))). ``"random"``: integers uniform in
    [-3, 3] from ``numpy.random.default_rng([seed, d, lam])``.

    >>> family_V("omega", 2, 2)
    [[4, 1], [2, 2], [1, 4]]
    >>> len(family_V("random", 3, 2, seed=1))      # ((3, 2)) rows
    6
    """
    from seprank.combinatorics import check_d_lam

    check_d_lam(d, lam)
    if family == "omega":
        from seprank.constructions.omega import omega_rows

        return omega_rows(d, lam, 2)
    if family == "random":
        n = math.comb(d + lam - 1, lam)
        return np.random.default_rng([seed, d, lam]).integers(-3, 4, size=(n, d)).tolist()
    raise ParameterError(f"unknown family {family!r}; choose omega or random (or give V)")



_RANGE = re.compile(r"\s*([0-9]+)\s*(?::\s*([0-9]+)\s*)?")   # ASCII digits only


def parse_range(text: str, name: str) -> list[int]:
    """``"FROM:TO"`` (inclusive) or ``"K"`` as a list of integers >= 1.

    >>> parse_range("2:5", "--d"), parse_range("3", "--lam")
    ([2, 3, 4, 5], [3])
    >>> parse_range("5:2", "--d")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: --d '5:2': FROM must not exceed TO
    """
    m = _RANGE.fullmatch(str(text))
    if not m:
        raise ParameterError(f"{name} {text!r}: give FROM:TO (inclusive) or one integer, "
                             "e.g. 2:6")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if lo < 1:
        raise ParameterError(f"{name} {text!r}: values must be >= 1")
    if lo > hi:
        raise ParameterError(f"{name} {text!r}: FROM must not exceed TO")
    if hi - lo >= 10_000:
        raise ParameterError(f"{name} {text!r}: more than 10000 values")
    return list(range(lo, hi + 1))


# ------------------------------------------------------------------ a study over a grid

def _check_study(family: str, V, seed, max_n, rtol) -> None:
    if family not in FAMILIES:
        raise ParameterError(f"unknown family {family!r}; choose one of {', '.join(FAMILIES)}")
    if (family == "file") != (V is not None):
        raise ParameterError("family 'file' takes the user's V (--matrix FILE), and only it does")
    for name, value, low in (("seed", seed, 0), ("max_n", max_n, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ParameterError(f"{name} must be an integer >= {low}, got {value!r}")
    if rtol is not None and (isinstance(rtol, bool) or not isinstance(rtol, (int, float))
                             or not 0 < rtol < 1):
        raise ParameterError(f"rtol must be a number in (0, 1), got {rtol!r}")


def plan_cases(family: str, ds: list[int] | None, lams: list[int], *, V=None,
               max_n: int = 1000) -> tuple[list[tuple[int, int, int]], list[dict[str, Any]]]:
    """The grid points (d, lam, n) to run, and those left out (n > max_n), with why.

    n is the size of G: ((d, lam)) for the omega and random families, the rows
    of V for ``"file"`` (whose d is V's number of columns: ``ds`` must be None).
    Refuses (MemoryLimitError, one line) when the largest case's exact G and
    float64 SVD (:func:`seprank.hadamard.estimates.check_path`) do not fit the budget
    in force (one line, naming the largest lambda that fits).

    >>> cases, skipped = plan_cases("omega", [2, 3], [2, 9], max_n=20)
    >>> cases, [(s["d"], s["lam"], s["reason"]) for s in skipped]
    ([(2, 2, 3), (2, 9, 10), (3, 2, 6)], [(3, 9, 'n = 55 > max_n = 20')])
    """
    from seprank.budget import checkpoint
    from seprank.hadamard.estimates import check_path
    from seprank.hadamard.rank import integer_rows

    n_file, max_abs = 0, 0
    if family == "file":
        if ds is not None:
            raise ParameterError("family 'file': d is the number of columns of V; do not give d")
        ds, n_file = [len(V[0])], len(V)
        max_abs = max(abs(x) for row in integer_rows(V)[0] for x in row)
    _check_grid(ds, lams)
    # The cases first: n(d, lam) grows with lam (d >= 2), so along ascending lams every
    # point after the first one past max_n is left out without computing its n.
    ascending = family != "file" and all(a < b for a, b in zip(lams, lams[1:], strict=False))
    cases, cut = [], {}
    for d in ds:
        for k, lam in enumerate(lams):
            checkpoint("planning the grid")
            n = n_file if family == "file" else math.comb(d + lam - 1, lam)
            if n <= max_n:
                cases.append((d, lam, n))
            elif ascending and d >= 2:
                cut[d] = k
                break
    for d, lam, n in sorted(cases, key=lambda c: -c[2] * c[1])[:3]:
        entry = {"omega": 2 ** lam, "random": 3}.get(family, max_abs)
        grows = (lambda k, d=d: math.comb(d + k - 1, k)) if family != "file" else None
        for path in ("exact", "float"):
            check_path(path, n, d, lam, entry, n_of_lam=grows)
    _check_total(family, cases, max_abs)
    # Then the points left out, each with its n (the grid's cost: _check_grid), in order.
    planned = {(d, lam) for d, lam, _ in cases}
    skipped = []
    for d in ds:
        for k, lam in enumerate(lams):
            if k < cut.get(d, len(lams)) and (d, lam) in planned:
                continue
            checkpoint("listing the points left out")
            n = n_file if family == "file" else math.comb(d + lam - 1, lam)
            skipped.append({"d": d, "lam": lam, "n": n, "reason": f"n = {n} > max_n = {max_n}"})
    return cases, skipped


#: Bytes the plan holds per grid point at most (a left-out point's entry: a dict, its
#: reason and its n); measured 844 MB for the 10^6 points of --d 1:1000 --lam 1:1000.
PLAN_BYTES_PER_POINT = 1000


def _check_grid(ds: list[int], lams: list[int]) -> None:
    """The plan's own cost, from the grid's size alone, against the budget in force: each
    point may compute n = C(d + lam - 1, lam), an integer of up to d + lam bits, in about
    16 + 1.5 ((d + lam) / 64)^2 Python operations (measured: 45 us a point over
    1:1000 x 1:1000), and be kept in the list of points left out
    (:data:`PLAN_BYTES_PER_POINT`).

    >>> from seprank.budget import Budget
    >>> with Budget(max_seconds=5).active():
    ...     _check_grid(list(range(1, 1001)), list(range(1, 1001)))
    Traceback (most recent call last):
    ...
    seprank.errors.TimeLimitError: planning the grid of 1.0M points (d, lambda) needs about ...
    """
    from seprank.budget import Estimate, current

    points = len(ds) * len(lams)
    # sum over the grid of (d + lam)^2, in closed form (the grid may hold 10^8 points)
    squares = (len(lams) * sum(d * d for d in ds) + 2 * sum(ds) * sum(lams)
               + len(ds) * sum(lam * lam for lam in lams))
    current().check(Estimate(f"planning the grid of {format_count(points)} points (d, lambda)",
                             nbytes=points * PLAN_BYTES_PER_POINT,
                             work=((16 * points + 1.5 * squares / 64**2, "python"),),
                             detail=f"{len(ds)} values of d x {len(lams)} of lambda"))


def _check_total(family: str, cases: list[tuple[int, int, int]], max_abs: int) -> None:
    """The whole study's time (every case's exact and float paths) against the budget."""
    from seprank.budget import Estimate, current
    from seprank.hadamard.estimates import path_estimate

    total = Estimate(f"the study of {len(cases)} grid points")
    for d, lam, n in cases:
        entry = {"omega": 2 ** lam, "random": 3}.get(family, max_abs)
        for path in ("exact", "float"):
            total = total.plus(path_estimate(path, n, d, lam, entry), total.what)
    current().check(Estimate(total.what, total.nbytes, total.work,
                             detail=f"largest n = {max((c[2] for c in cases), default=0)}"))


def study_row(family: str, d: int, lam: int, *, seed: int = 0, V=None,
              rtol: float | None = None) -> dict[str, Any]:
    """One flat row of a study (:data:`ROW_FIELDS`): ranks with kinds, wrong marks, seconds.

    >>> row = study_row("omega", 2, 8)
    >>> row["n"], row["exact_rank"], row["exact_kind"], row["raw_wrong"]
    (9, 9, 'exact', True)
    """
    U = V if family == "file" else family_V(family, d, lam, seed)
    r = compare_ranks(U, lam, rtol=rtol)
    row: dict[str, Any] = {
        "family": family, "d": d, "lam": lam, "n": r["n"],
        "seed": seed if family == "random" else None,
        "bound": math.comb(d + lam - 1, lam),
        "exact_rank": r["exact"]["value"], "exact_kind": r["exact"]["kind"],
        "exact_method": r["exact"]["method"], "raw_overflow": r["raw_overflow"],
        "raw_entries_rounded": r["raw"].get("entries_rounded"),
        "raw_max_relative_error": r["raw"].get("max_relative_error"),
    }
    for variant in ("raw", "normalized"):
        for key in ("value", "kind", "wrong", "tolerance", "gap"):
            row[f"{variant}_{'rank' if key == 'value' else key}"] = r[variant].get(key)
    row.update(r["times"])
    return row


def run_study(family: str, ds: list[int] | None, lams: list[int], *, V=None, seed: int = 0,
              max_n: int = 1000, rtol: float | None = None, blas_threads: int = 1,
              progress: Callable[[int, int, str], None] | None = None,
              max_memory: int | str | None = None, max_seconds: float | str | None = None
              ) -> dict[str, Any]:
    """Run :func:`study_row` over the grid; ``progress(done, total, label)`` after each case.

    ``V`` (rows of ints or Fractions, e.g. from :func:`seprank.hadamard.rank.read_V`)
    only with ``family="file"``. numpy's BLAS runs ``blas_threads`` threads
    during the study (default 1, like flint's rank; 0 leaves it as it is): a
    multi-threaded SVD on a busy machine can take a second at n = 100 and
    would distort the times; more threads than :func:`usable_cpus` are refused.
    Returns ``parameters``, ``rows``, ``skipped``, ``summary`` (:func:`summarize`) and
    ``seconds``. ``max_memory``, ``max_seconds`` (:mod:`seprank.budget`; default the
    machine's memory): the largest cases and the whole study are estimated and checked
    before any case runs (:func:`plan_cases`), and the budget is held between cases.

    >>> s = run_study("omega", [2], [2, 8])
    >>> [(r["n"], r["exact_rank"], r["raw_wrong"]) for r in s["rows"]]
    [(3, 3, False), (9, 9, True)]
    """
    import contextlib

    from threadpoolctl import threadpool_limits

    _check_study(family, V, seed, max_n, rtol)
    if isinstance(blas_threads, bool) or not isinstance(blas_threads, int) or blas_threads < 0:
        raise ParameterError(f"blas_threads must be an integer >= 0, got {blas_threads!r}")
    cpus = usable_cpus()
    if blas_threads > cpus:
        raise ParameterError(f"blas_threads = {blas_threads} is more than the {cpus} CPUs this "
                             f"process may use; give 1 to {cpus} (0 leaves BLAS as it is)")
    budget = make_budget(max_memory, max_seconds)
    with budget.active():
        cases, skipped = plan_cases(family, ds, lams, V=V, max_n=max_n)
    start, rows = time.perf_counter(), []
    limit = (threadpool_limits(limits=blas_threads, user_api="blas") if blas_threads
             else contextlib.nullcontext())
    with limit, budget.active():
        for k, (d, lam, n) in enumerate(cases):
            budget.checkpoint(f"the study (at d = {d}, lambda = {lam})")
            rows.append(study_row(family, d, lam, seed=seed, V=V, rtol=rtol))
            if progress is not None:
                progress(k + 1, len(cases), f"d={d} lam={lam} n={n}")
    params = {"family": family, "d": ds, "lam": lams, "seed": seed, "max_n": max_n,
              "rtol": rtol, "blas_threads": blas_threads or "unchanged"}
    return {"parameters": params, "rows": rows, "skipped": skipped,
            "summary": summarize(rows), "seconds": time.perf_counter() - start}


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else
    ``os.cpu_count()``): the most BLAS threads a study may ask for.

    >>> 1 <= usable_cpus() <= (os.cpu_count() or 1)
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per float variant: cases decided, how many wrong, the smallest n wrong per lam; seconds.

    >>> summarize([{"lam": 8, "n": 9, "exact_kind": "exact", "raw_wrong": True,
    ...             "normalized_wrong": False, "build_s": 0.1, "exact_s": 0.2,
    ...             "float_raw_s": 0.0, "float_normalized_s": 0.0}])["raw"]
    {'decided': 1, 'wrong': 1, 'smallest_n_wrong_per_lam': {'8': 9}}
    """
    out: dict[str, Any] = {}
    for variant in ("raw", "normalized"):
        decided = [r for r in rows if r.get(f"{variant}_wrong") is not None]
        smallest: dict[str, int] = {}
        for r in decided:
            if r[f"{variant}_wrong"]:
                key = str(r["lam"])
                smallest[key] = min(smallest.get(key, r["n"]), r["n"])
        out[variant] = {"decided": len(decided),
                        "wrong": sum(bool(r[f"{variant}_wrong"]) for r in decided),
                        "smallest_n_wrong_per_lam": dict(sorted(smallest.items(),
                                                                key=lambda kv: int(kv[0])))}
    kinds: dict[str, int] = {}
    for r in rows:
        kinds[r["exact_kind"]] = kinds.get(r["exact_kind"], 0) + 1
    out["exact_kinds"] = kinds
    out["seconds"] = {k: sum(r.get(k) or 0.0 for r in rows)
                      for k in ("build_s", "exact_s", "float_raw_s", "float_normalized_s")}
    return out


# ------------------------------------------------------------------ where results may go

def _is_seprank_tree(root: Path) -> bool:
    try:
        text = (root / "pyproject.toml").read_text()
    except OSError:
        return False
    return re.search(r'^name\s*=\s*"seprank"\s*$', text, re.MULTILINE) is not None


def _git(root: Path, *args: str) -> str | None:
    """Output of ``git -C root ARGS``, or None when git cannot say."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _source_trees(target: Path) -> list[Path]:
    """The seprank source trees that ``target`` could lie in: the one the package was
    installed from (editable installs), and the git work tree around ``target``."""
    roots = []
    for parent in PACKAGE_DIR.parents:
        if (parent / "pyproject.toml").is_file():
            if _is_seprank_tree(parent):
                roots.append(parent)
            break
    existing = next((p for p in (target, *target.parents) if p.is_dir()), None)
    top = _git(existing, "rev-parse", "--show-toplevel") if existing else None
    if top and _is_seprank_tree(Path(top.strip())):
        roots.append(Path(top.strip()).resolve())
    return roots


def check_output_folder(folder: str | os.PathLike) -> Path:
    """Refuse an output folder inside the installed package or a tracked part of the source.

    Results must not land among seprank's own files: a folder inside the
    installed package, or inside a git-tracked folder of a seprank source tree
    (``docs/``, ``benchmarks/``, ``src/``, ...; the tree's root itself too), is
    refused with one :class:`~seprank.errors.OutputError` line. A new top-level
    folder of a checkout (untracked, or ignored by git) and any folder outside
    it are accepted. Nothing is created here.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     check_output_folder(Path(tmp) / "study").name
    'study'
    >>> import seprank
    >>> check_output_folder(Path(seprank.__file__).parent / "results")
    Traceback (most recent call last):
    ...
    seprank.errors.OutputError: ...: inside the installed seprank package ...
    """
    path = Path(folder).expanduser()
    target = path.resolve()
    package = PACKAGE_DIR
    if target == package or package in target.parents:
        raise OutputError(f"{folder}: inside the installed seprank package ({package}); give "
                          "a folder of your own")
    for root in _source_trees(target):
        if target != root and root not in target.parents:
            continue
        rel = target.relative_to(root).parts
        top = rel[0] if rel else ""
        listed = _git(root, "ls-files", "--", top) if top and top != ".git" else "root"
        if listed is None:  # git cannot say: refuse only what already exists there
            listed = "unknown" if (root / top).exists() else ""
        if listed.strip():
            where = root / top if top else root
            raise OutputError(f"{folder}: inside {where}, a git-tracked part of the seprank "
                              "source tree; write results to a folder of your own (outside "
                              "the tree, or a new top-level folder of it)")
    return path
