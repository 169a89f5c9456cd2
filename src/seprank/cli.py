"""The ``seprank`` command line.

    seprank prove [ID ...] [--full] [--json PATH] [--markdown PATH] [--list]
    seprank rank FILE [--method auto|exact|modular|float] [--prime P] [--certify] [--json]
    seprank report REPORT.json [--markdown PATH] [--html PATH]
    seprank lemma6 --depth L --heads H --da D --seq-len N [--printed | --corrected] [--json PATH]
    seprank grid-rank --depth L --width DX [--heads H] [--seq-len N] [--templates M] ...

Errors a user can cause (bad files, bad parameters) print one line starting
with ``seprank: error:`` and exit with status 2, without a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from seprank.errors import SeprankError

__all__ = ["main"]


def _cmd_prove(args: argparse.Namespace) -> int:
    from rich.console import Console

    from seprank.proof import registered_checks, run_checks
    from seprank.proof.console import ConsoleReporter
    from seprank.proof.framework import ERROR
    from seprank.proof.report import write_json, write_markdown
    from seprank.proof.runner import order_checks

    specs = registered_checks()
    console = Console(highlight=False)
    if args.list:
        for cid in order_checks(specs):
            spec = specs[cid]
            deps = f"  (relies on {', '.join(spec.depends)})" if spec.depends else ""
            print(f"{cid:12s} {spec.title}{deps}")
        return 0
    results = run_checks(specs, args.ids or None, full=args.full,
                         reporter=ConsoleReporter(console, verbose=not args.quiet),
                         with_dependencies=not args.no_deps)
    if args.json:
        console.print(f"JSON report: {write_json(results, args.json)}")
    if args.markdown:
        console.print(f"Markdown report: {write_markdown(results, args.markdown)}")
    errored = [r.id for r in results if any(s.status == ERROR for s in r.steps)]
    if errored:
        console.print(f"[magenta]checks with steps that raised: {', '.join(errored)}[/]")
        return 1
    if args.strict and any(r.verdict != "verified" for r in results):
        return 1
    return 0


def _cmd_rank(args: argparse.Namespace) -> int:
    import seprank
    from seprank.matrix_io import load_matrix

    matrix = load_matrix(args.file, allow_float=args.method == "float")
    result = seprank.rank(matrix, args.method, prime=args.prime, certify=args.certify)
    verified = None
    if args.certify and result.certificate is not None:
        verified = seprank.verify(matrix, result.certificate)
    if args.json:
        out = result.to_dict()
        if verified is not None:
            out["certificate_verified"] = verified
        print(json.dumps(out, indent=2, default=str))
    else:
        print(f"{result.value} {result.kind}")
        print(str(result))
        if verified is not None:
            print(f"certificate independently verified: {verified}")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from seprank.proof.figures import write_figures
    from seprank.proof.report import html_from_dict, load_report, markdown_from_dict

    data = load_report(args.report)
    src = Path(args.report)
    md = Path(args.markdown) if args.markdown else src.with_suffix(".md")
    page = Path(args.html) if args.html else src.with_suffix(".html")
    figures = write_figures(data, md.parent / f"{md.stem}-figures")
    md.write_text(markdown_from_dict(data, figures, md.parent))
    page.write_text(html_from_dict(data, figures, page.parent))
    print(f"Markdown report: {md}")
    print(f"HTML report: {page}")
    return 0


def _cmd_lemma6(args: argparse.Namespace) -> int:
    import numpy as np

    from seprank.constructions import lemma6 as l6
    from seprank.models.network import SelfAttentionNetwork
    from seprank.proof.evidence import jsonable
    from seprank.scalars.sphere import sphere_points

    L, H, d_a, N = args.depth, args.heads, args.da, args.seq_len
    l6.check_parameters(N=N, H=H, d_a=d_a, L=L)
    corrected = set(l6.CORRECTIONS) if args.corrected else set()
    d = H * (d_a - 1) // 2
    half = args.half
    if d == 1:
        V = np.empty((half, 1), dtype=object)
        V[:, 0] = [1 if k % 2 == 0 else -1 for k in range(half)]
    else:
        V = sphere_points(half, d, seed=args.seed)
    lam = 3 ** (L - 2)
    out = {"depth": L, "heads": H, "d_a": d_a, "d_x": H * d_a, "seq_len": N, "M": 2 * half,
           "assignment": "corrected" if args.corrected else "printed", "seed": args.seed,
           "V_rows_exactly_unit": True}
    try:
        T = l6.templates(V, H, d_a, printed="template" not in corrected,
                         printed_phi="phi" not in corrected)
        net = SelfAttentionNetwork(L, H * d_a, H, d_a,
                                   weights=l6.assignment(L, N, H, d_a, corrected=corrected))
        outputs = net.evaluate(l6.lemma6_inputs(T, N), "QQ(i)")
    except l6.PrintedFormulaUndefined as exc:
        out.update(identity_holds=False, reason=f"printed formula undefined: {exc}")
    else:
        G = l6.gram_hadamard(V, lam).ravel()
        ref = next(b for b in range(len(G)) if G[b] != 0)
        mismatch, constants = None, set()
        for i in range(outputs.shape[1]):
            for k in range(outputs.shape[2]):
                c = outputs[ref, i, k] / G[ref]
                constants.add(c)
                bad = next((b for b in range(len(G)) if outputs[b, i, k] != c * G[b]), None)
                if bad is not None and mismatch is None:
                    mismatch = {"position_0based": i, "coordinate_0based": k,
                                "entry_row_col_0based": (bad // half, bad % half),
                                "value": str(outputs[bad, i, k]), "c_times_G": str(c * G[bad])}
        one_constant = mismatch is None and len(constants) == 1
        out.update(identity_holds=one_constant, mismatch=mismatch,
                   constants=sorted(str(c) for c in constants)[:8])
        if args.corrected:
            formula = l6.lemma6_constant(L, N, d_a)
            out["constant_formula"] = ("i^(lam+1) 2^lam ((d_a-1)/2)^(lam-1) "
                                       "N^(-(lam+1)/2)")
            out["constant_formula_value"] = str(formula)
            out["constant_matches_formula"] = one_constant and constants == {formula}
    out["kind"] = "exact (evaluated over Q(i))"
    if args.json:
        from pathlib import Path

        Path(args.json).write_text(json.dumps(jsonable(out), indent=2) + "\n")
    verdict = "holds" if out.get("identity_holds") else "FAILS"
    print(f"Lemma 6 identity ({out['assignment']} assignment, L={L}, H={H}, d_a={d_a}, N={N}, "
          f"M={2 * half}): {verdict}, exactly over Q(i)")
    for key in ("reason", "mismatch", "constants", "constant_formula_value",
                "constant_matches_formula"):
        if out.get(key) is not None:
            print(f"  {key}: {out[key]}")
    return 0


def _cmd_grid_rank(args: argparse.Namespace) -> int:
    import numpy as np

    import seprank
    from seprank.bounds.levine2020 import thm3_bound, thm4_bound
    from seprank.errors import ParameterError
    from seprank.models.network import SelfAttentionNetwork
    from seprank.tensors.grid import check_partition, grid_matrix

    N = args.seq_len
    if args.partition:
        try:
            I = tuple(int(x) for x in args.partition.split(","))
        except ValueError:
            raise ParameterError(f"--partition {args.partition!r}: give 0-based positions "
                                 "separated by commas, e.g. 0,1") from None
    else:
        if N % 2:
            raise ParameterError(f"--seq-len N = {N} is odd: the default balanced partition "
                                 "needs N even (or give --partition)")
        I = tuple(range(N // 2))
    I, J = check_partition(N, I)
    net = SelfAttentionNetwork.random(args.depth, args.width, args.heads, args.da,
                                      residual=args.residual, seed=args.seed)
    rng = np.random.default_rng(args.seed + 1)
    templates = rng.integers(-args.template_bound, args.template_bound + 1,
                             size=(args.templates, args.width))
    f = net.as_function(args.position, args.coordinate, "ZZ")
    mat = grid_matrix(f, templates, N, I, J)
    res = seprank.rank(np.asarray(mat, dtype=object), args.method, certify=args.certify)
    out = {"depth": args.depth, "width": args.width, "heads": args.heads, "d_a": net.d_a,
           "residual": args.residual, "seq_len": N, "templates": args.templates,
           "seed": args.seed, "partition": {"I": list(I), "J": list(J)},
           "matrix_shape": list(mat.shape), "rank": res.to_dict(),
           "grid_cap": int(min(mat.shape))}
    if not args.residual:
        out["thm3_bound"] = thm3_bound(args.depth, args.heads, net.d_a)
        out["thm4_bound"] = str(thm4_bound(args.depth, args.width))
    if args.certify:
        out["certificate_verified"] = seprank.verify(np.asarray(mat, dtype=object),
                                                     res.certificate)
    if args.json:
        print(json.dumps(out, indent=2, default=str))
    else:
        print(f"{res.value} {res.kind}")
        print(f"grid matricization {mat.shape[0]} x {mat.shape[1]} (I = {list(I)}, "
              f"J = {list(J)}): {res}")
        if "thm3_bound" in out:
            print(f"Theorem 3 bound (H(d_a+1))^C(L) = {out['thm3_bound']}; Theorem 4 bound = "
                  f"{out['thm4_bound']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="seprank",
        description="Exact checks of the separation-rank theory of self-attention.")
    sub = parser.add_subparsers(dest="command", required=True)

    prove = sub.add_parser("prove", help="run the step-by-step proof checks")
    prove.add_argument("ids", nargs="*", metavar="ID", help="mission-map ids (default: all)")
    prove.add_argument("--list", action="store_true", help="list check ids and titles")
    prove.add_argument("--full", action="store_true", help="run the full (slow) tier")
    prove.add_argument("--json", metavar="PATH", default="seprank-report.json",
                       help="JSON report path (default: %(default)s)")
    prove.add_argument("--markdown", metavar="PATH", default="seprank-report.md",
                       help="Markdown report path (default: %(default)s)")
    prove.add_argument("--no-deps", action="store_true",
                       help="do not run the checks the named ones rely on")
    prove.add_argument("--quiet", action="store_true", help="do not print evidence lines")
    prove.add_argument("--strict", action="store_true",
                       help="exit 1 unless every check is verified")
    prove.set_defaults(func=_cmd_prove)

    rank = sub.add_parser("rank", help="rank of a matrix in a .npy, .json or text file")
    rank.add_argument("file")
    rank.add_argument("--method", default="auto",
                      choices=["auto", "exact", "modular", "float"])
    rank.add_argument("--prime", type=int, default=None)
    rank.add_argument("--certify", action="store_true",
                      help="attach certificates and verify them independently")
    rank.add_argument("--json", action="store_true", help="print the result as JSON")
    rank.set_defaults(func=_cmd_rank)

    report = sub.add_parser("report", help="Markdown and HTML from a proof JSON report")
    report.add_argument("report", help="the JSON written by `seprank prove --json`")
    report.add_argument("--markdown", metavar="PATH", default=None,
                        help="default: the JSON's path with .md")
    report.add_argument("--html", metavar="PATH", default=None,
                        help="default: the JSON's path with .html")
    report.set_defaults(func=_cmd_report)

    lem = sub.add_parser("lemma6", help="levine2020 Lemma 6's identity, exactly over Q(i)")
    lem.add_argument("--depth", "-L", type=int, required=True)
    lem.add_argument("--heads", "-H", type=int, default=1)
    lem.add_argument("--da", type=int, default=3, help="attention dimension (odd)")
    lem.add_argument("--seq-len", "-N", type=int, default=2)
    lem.add_argument("--half", type=int, default=3, help="M/2, the sub-matrix size")
    lem.add_argument("--seed", type=int, default=0, help="seed of the sphere points V")
    which = lem.add_mutually_exclusive_group()
    which.add_argument("--printed", dest="corrected", action="store_false",
                       help="the assignment as printed (default)")
    which.add_argument("--corrected", dest="corrected", action="store_true",
                       help="the corrected assignment (see constructions/lemma6.py)")
    lem.add_argument("--json", metavar="PATH", default=None)
    lem.set_defaults(func=_cmd_lemma6, corrected=False)

    grid = sub.add_parser("grid-rank", help="exact rank of a random network's grid "
                          "matricization")
    grid.add_argument("--depth", "-L", type=int, required=True)
    grid.add_argument("--width", "--dx", type=int, required=True, help="d_x")
    grid.add_argument("--heads", "-H", type=int, default=1)
    grid.add_argument("--da", type=int, default=None, help="attention dimension (d_x / H)")
    grid.add_argument("--residual", action="store_true")
    grid.add_argument("--seq-len", "-N", type=int, default=2)
    grid.add_argument("--templates", "-M", type=int, default=6)
    grid.add_argument("--template-bound", type=int, default=3,
                      help="template entries uniform in [-B, B]")
    grid.add_argument("--position", type=int, default=0, help="output position i (0-based)")
    grid.add_argument("--coordinate", type=int, default=0, help="output coordinate (0-based)")
    grid.add_argument("--partition", default=None,
                      help="positions of I, 0-based, comma-separated (default: first half)")
    grid.add_argument("--seed", type=int, default=0)
    grid.add_argument("--method", default="auto", choices=["auto", "exact", "modular"])
    grid.add_argument("--certify", action="store_true")
    grid.add_argument("--json", action="store_true")
    grid.set_defaults(func=_cmd_grid_rank)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except SeprankError as exc:
        print(f"seprank: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("seprank: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
