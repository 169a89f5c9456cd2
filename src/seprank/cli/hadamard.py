"""Gram Hadamard powers: ``seprank hadamard-rank`` and ``seprank float-vs-exact``.

``hadamard-rank`` ranks G = (V V^T)^(Hadamard lambda) for a V of the user's or of the
papers' constructions (:func:`seprank.hadamard.rank.hadamard_rank`), beside
numpy's float64 rank and the bound ((d, lambda)) of levine2020 eq. (27);
``float-vs-exact`` maps where that float64 rank is wrong
(:func:`seprank.float_vs_exact.run_study`), into CSV, JSON and a plot.
"""

from __future__ import annotations

import argparse

from seprank.cli.common import (
    STDOUT,
    budget_options,
    emit_json,
    json_option,
    progress_bar,
    say,
    spinner,
    subparser,
    wrap_lines,
)
from seprank.cli.values import integer, real

__all__ = ["add_parsers", "study_lines"]


def _cmd_hadamard_rank(args: argparse.Namespace) -> int:
    """``seprank hadamard-rank``: rank of (V V^T)^(Hadamard lam) for a file or a construction."""
    from seprank.errors import ParameterError
    from seprank.hadamard.rank import hadamard_rank, named_V

    named = [k for k in ("omega", "lemma6", "equal_norm") if getattr(args, k) is not None]
    if (args.file is None) == (not named):
        raise ParameterError("give V: a FILE, or one of --omega D LAMBDA, --lemma6 L H DA HALF, "
                             "--equal-norm D LAMBDA")
    if args.base is not None and named != ["omega"]:
        raise ParameterError("--base is the Omega of --omega")
    V, lam, source = args.file, args.lam, None
    if named:
        values = getattr(args, named[0])
        keys = {"omega": ("d", "lam"), "lemma6": ("depth", "heads", "da", "half"),
                "equal_norm": ("d", "lam")}[named[0]]
        params = dict(zip(keys, values, strict=True), seed=args.seed,
                      base=2 if args.base is None else args.base)
        V, own_lam, source = named_V(named[0], **params)
        lam = own_lam if lam is None else lam
    elif lam is None:
        raise ParameterError("--lam LAM is needed with a FILE (the Hadamard power)")
    with spinner("rank of (V V^T)^(Hadamard lam)"):
        res = hadamard_rank(V, lam, method=args.method, prime=args.prime, certify=args.certify,
                            float_rank=not args.no_float, source=source)
    if args.json:
        emit_json(res.to_dict(), args.json)
    if args.json != STDOUT:
        print(f"{res.value} {res.kind}")
        say(res)
    return 0


def _add_hadamard_rank_parser(sub) -> None:
    from seprank.hadamard.rank import METHODS

    p = subparser(sub, "hadamard-rank", "exact rank of (V V^T)^(Hadamard lam) for your V or a "
                   "named construction, beside its float64 rank and ((d, lam))",
                   "seprank hadamard-rank V.csv --lam 3 --certify\n"
                   "seprank hadamard-rank --omega 6 7\n"
                   "seprank hadamard-rank --equal-norm 3 4 --certify --json out.json")
    p.usage = ("%(prog)s (FILE --lam LAM | --omega D LAMBDA\n"
               "                             | --lemma6 L H DA HALF | --equal-norm D LAMBDA)\n"
               "                             [options]")
    p.add_argument("file", nargs="?", default=None, metavar="FILE",
                   help="V, n x d: .npy (integer dtype), .json (rows of integers or 'p/q'), "
                   ".csv or whitespace-separated text (integers or p/q; never floats)")
    p.add_argument("--lam", type=integer("lam"), default=None, metavar="LAM",
                   help="the Hadamard power lambda >= 1 (needed with FILE; a construction "
                   "brings its own, which --lam overrides)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--omega", type=integer("omega"), nargs=2, metavar=("D", "LAMBDA"),
                       default=None,
                       help="V = the Omega rows of levine2020 B.2 (one row Omega^q per "
                       "composition q of LAMBDA into D parts); rank = ((D, LAMBDA))")
    which.add_argument("--lemma6", type=integer("lemma6"), nargs=4,
                       metavar=("L", "H", "DA", "HALF"), default=None,
                       help="V = the HALF unit rows of levine2020 Lemma 6 for depth L, H "
                       "heads, d_a = DA (odd); lambda = 3^(L-2)")
    which.add_argument("--equal-norm", dest="equal_norm", type=integer("omega"), nargs=2,
                       metavar=("D", "LAMBDA"), default=None,
                       help="V = the equal-norm witness of wies2021 Lemma 8 (natural rows of "
                       "one norm); rank = ((D, LAMBDA))")
    p.add_argument("--base", type=integer("base"), default=None, metavar="B",
                   help="the Omega of --omega (default 2)")
    p.add_argument("--seed", type=integer("seed"), default=0, metavar="S",
                   help="seed of --lemma6's sphere points and --equal-norm's search (default 0)")
    p.add_argument("--method", default="auto", choices=list(METHODS),
                   help="auto: G mod a random prime, exact when decisive, else exact integers; "
                   "exact / multimodular: G as exact integers; modular: one prime (a lower "
                   "bound unless it meets n or ((d, lam)))")
    p.add_argument("--prime", type=integer("prime"), default=None, metavar="P",
                   help="the prime of --method modular (default 2^31 - 1, or 2^20 - 3 from 600 "
                   "rows), or the first prime of auto")
    p.add_argument("--certify", action="store_true",
                   help="attach a certificate and verify it independently (seprank.verify)")
    p.add_argument("--no-float", action="store_true",
                   help="skip the float64 rank (numpy SVD of G built in float64)")
    json_option(p, "the result")
    budget_options(p)
    p.set_defaults(func=_cmd_hadamard_rank)


def study_lines(study: dict) -> list[str]:
    """The console summary of a float-vs-exact study: one line per case, then the totals,
    within 80 columns (every field of every row is in the CSV and JSON).

    >>> row = {"d": 2, "lam": 3, "n": 4, "exact_rank": 4, "exact_kind": "exact",
    ...        "raw_rank": 4, "raw_wrong": False, "normalized_rank": 3,
    ...        "normalized_wrong": True, "raw_entries_rounded": 8, "build_s": 0.001,
    ...        "exact_s": 0.002, "float_raw_s": 0.0, "float_normalized_s": 0.0}
    >>> summary = {"raw": {"wrong": 0, "decided": 1, "smallest_n_wrong_per_lam": {}},
    ...            "normalized": {"wrong": 1, "decided": 1,
    ...                           "smallest_n_wrong_per_lam": {3: 4}}}
    >>> lines = study_lines({"rows": [row], "summary": summary})
    >>> lines[1].split()
    ['2', '3', '4', '4', 'exact', '4', '50%', '3', 'WRONG', '0.0030', '0.0000']
    >>> lines[-1]
    '  smallest n wrong per lam (normalized): lam=3: 4'
    >>> max(map(len, lines)) <= 80
    True
    """
    def mark(r: dict, v: str) -> str:
        if r[f"{v}_rank"] is None:
            return "overflow"
        return f"{r[f'{v}_rank']}{' WRONG' if r[f'{v}_wrong'] else ''}"

    def exact(r: dict) -> str:
        return (f"{r['exact_rank']} exact" if r["exact_kind"] == "exact"
                else f">= {r['exact_rank']}")

    def rounded(r: dict) -> str:
        k = r.get("raw_entries_rounded")
        return "-" if k is None else f"{100 * k / max(1, r['n'] ** 2):.0f}%"

    rows, s = study["rows"], study["summary"]
    lines = [f"{'d':>3} {'lam':>4} {'n':>6}  {'exact rank':<13} {'float64 raw':<12} "
             f"{'rounded':>7}  {'normalized':<10} {'exact s':>7} {'float s':>7}"]
    for r in rows:
        lines.append(f"{r['d']:>3} {r['lam']:>4} {r['n']:>6}  {exact(r):<13} "
                     f"{mark(r, 'raw'):<12} {rounded(r):>7}  {mark(r, 'normalized'):<10} "
                     f"{r['build_s'] + r['exact_s']:>7.4f} "
                     f"{r['float_raw_s'] + r['float_normalized_s']:>7.4f}")
    lines += wrap_lines("exact rank: over Q, or >= r for a certified lower bound r; float64 raw: "
                        "the rank of the exact G rounded to float64, 'rounded' the share of "
                        "G's entries float64 could not hold (each by at most 2^-53 relative); "
                        "normalized: of G built in float64 from the unit rows")
    lines.append(f"float64 wrong: {s['raw']['wrong']} of {s['raw']['decided']} (raw), "
                 f"{s['normalized']['wrong']} of {s['normalized']['decided']} (normalized)")
    for v in ("raw", "normalized"):
        first = s[v]["smallest_n_wrong_per_lam"]
        if first:
            lines.append(f"  smallest n wrong per lam ({v}): "
                         + ", ".join(f"lam={k}: {n}" for k, n in first.items()))
    return lines


def _cmd_float_vs_exact(args: argparse.Namespace) -> int:
    """``seprank float-vs-exact``: the study over the user's ranges, written to --out."""
    from seprank.errors import ParameterError
    from seprank.float_vs_exact import check_output_folder, parse_range, run_study
    from seprank.float_vs_exact.files import write_study
    from seprank.hadamard.rank import read_V

    family = args.family or ("file" if args.matrix else "omega")
    if (family == "file") != (args.matrix is not None):
        raise ParameterError("--matrix FILE is the V of --family file (and --family file "
                             "needs it)")
    if family == "file" and args.d is not None:
        raise ParameterError("--d: with --family file, d is the number of columns of --matrix")
    check_output_folder(args.out)  # refuse before any work
    V = read_V(args.matrix)[0] if family == "file" else None
    ds = None if family == "file" else parse_range(args.d or "2:6", "--d")
    lams = parse_range(args.lam, "--lam")
    with progress_bar("float vs exact", not args.no_progress) as update:
        study = run_study(family, ds, lams, V=V, seed=args.seed, max_n=args.max_n,
                          rtol=args.rtol, blas_threads=args.blas_threads, progress=update)
    paths = write_study(args.out, study, plot=not args.no_plot)
    skipped = study["skipped"]
    left = (f" ({len(skipped)} left out: n > max_n = {args.max_n})" if skipped else "")
    print(f"float vs exact, family {family}: {len(study['rows'])} cases{left}, "
          f"{study['seconds']:.1f} s")
    print("\n".join(study_lines(study)))
    for kind, path in paths.items():
        print(f"{kind.upper()}: {path}")
    return 0


def _add_float_vs_exact_parser(sub) -> None:
    p = subparser(sub, "float-vs-exact", "where numpy's float64 rank of (U U^T)^(Hadamard lam) "
                   "is wrong, against the exact rank; CSV, JSON and a plot in --out",
                   "seprank float-vs-exact --d 2:5 --lam 2:8 --out fve\n"
                   "seprank float-vs-exact --matrix V.csv --lam 1:6 --out fve-mine --no-plot")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for float_vs_exact.csv, .json and .png (created; refused inside "
                   "the installed package or a git-tracked folder of the seprank source)")
    p.add_argument("--family", choices=["omega", "random", "file"], default=None,
                   help="U: the Omega rows of levine2020 B.2 (default), random integers in "
                   "[-3, 3], or your own V (file, with --matrix)")
    p.add_argument("--d", default=None, metavar="FROM:TO",
                   help="columns of U, inclusive range or one value (default 2:6; not with "
                   "--family file)")
    p.add_argument("--lam", default="2:8", metavar="FROM:TO",
                   help="Hadamard powers, inclusive range or one value (default %(default)s)")
    p.add_argument("--matrix", default=None, metavar="FILE",
                   help="your V (.npy, .json, .csv or text; integers or p/q): --family file")
    p.add_argument("--seed", type=integer("seed"), default=0, metavar="S",
                   help="seed of the random family (default %(default)s)")
    p.add_argument("--max-n", type=integer("max_n"), default=1000, metavar="N",
                   help="leave out grid points whose G has more than N rows (default "
                   "%(default)s; the exact rank and the SVD grow as n^3)")
    p.add_argument("--rtol", type=real("R", "the relative tolerance"), default=None, metavar="R",
                   help="float rank = singular values above R * sigma_max (default: numpy's "
                   "n * eps)")
    p.add_argument("--blas-threads", type=integer("threads"), default=1, metavar="N",
                   help="threads of numpy's BLAS during the study (default %(default)s, like "
                   "flint's rank, so that the times compare; 0 leaves them as they are)")
    p.add_argument("--no-plot", action="store_true", help="write no PNG")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is drawn on stderr, on a terminal only)")
    budget_options(p)
    p.set_defaults(func=_cmd_float_vs_exact)



def add_parsers(sub) -> None:
    """Declare ``seprank hadamard-rank`` and ``seprank float-vs-exact``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['float-vs-exact', 'hadamard-rank']
    """
    _add_hadamard_rank_parser(sub)
    _add_float_vs_exact_parser(sub)
