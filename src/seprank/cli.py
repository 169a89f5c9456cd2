"""The ``seprank`` command line.

    seprank [--version] COMMAND ...      (also: python -m seprank COMMAND ...)
    seprank prove [ID ...] [--package NAME] [--full] [--report-dir DIR | --no-report]
                  [--json [PATH]] [--list] [--strict]
    seprank rank FILE [--method auto|exact|modular|multimodular|float|cuda] [--prime P]
                 [--engine flint|numba|cuda] [--certify] [--explain] [--json [PATH]]
    seprank report REPORT.json|STORE.sqlite [--markdown PATH] [--html PATH]
    seprank errata PAPER [--from REPORT.json] [--output PATH] [--full]
    seprank papers [--json [PATH]]
    seprank sweep SPEC.toml|SPEC.yaml [--scheduler ADDRESS] [--workers N] [--store PATH] ...
    seprank lemma6 -L/--depth L [-H/--heads H] [-d_a/--head-dim D] [-N/--seq-len N]
                   [--printed | --corrected] [--json [PATH]]
    seprank grid-rank -L/--depth L -d_x/--width DX [-H/--heads H] [-N/--seq-len N]
                      [--templates M] ... [--json [PATH]]
    seprank sep-rank -L/--depth L -d_x/--width DX [-H/--heads H] [--residual] [-N N]
                     [--seed S | --weights FILE] [--points-seed S] [--explain] ...
                     [--json [PATH]]
    seprank hadamard-rank (FILE --lam LAM | --omega D LAMBDA | --lemma6 L H DA HALF
                          | --equal-norm D LAMBDA) [--method M] [--certify] [--json [PATH]]
    seprank float-vs-exact --out DIR [--family omega|random|file] [--d FROM:TO]
                           [--lam FROM:TO] [--matrix FILE] [--max-n N] ...

Shape options: the long names are spelled out, the short ones are the papers' symbols;
``--da`` and ``--dx`` are old spellings that still work (with a note on stderr).

``--json [PATH]`` means the same everywhere: write JSON to PATH; with no PATH
(or ``-``) print it to standard output and nothing else. Exit status: 0
success; 1 a failed outcome (``lemma6`` when the identity fails, ``prove
--strict`` when a claim is open or false, a step that raised, an incomplete
sweep); 2 a user's error.

Errors a user can cause (bad files, bad parameters) print one line starting
with ``seprank: error:`` and exit with status 2, without a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time

from seprank.errors import SeprankError

__all__ = ["main", "build_parser"]

_STDOUT = "-"


def _emit_json(data, where: str) -> None:
    """Print ``data`` as JSON (``where`` is '-') or write it to the file ``where``."""
    text = json.dumps(data, indent=2, default=str) + "\n"
    if where == _STDOUT:
        sys.stdout.write(text)
    else:
        from seprank.output_files import write_text

        write_text(where, text)


def _cmd_prove(args: argparse.Namespace) -> int:
    from rich.console import Console

    from seprank.output_files import STDOUT
    from seprank.proof import CheckRegistry, run_checks
    from seprank.proof.console import ConsoleReporter
    from seprank.proof.framework import ERROR
    from seprank.proof.report import (
        report_dict,
        write_json,
        write_markdown,
        write_report_folder,
    )
    from seprank.proof.runner import order_checks

    registry = CheckRegistry.from_plugins(None if args.package is None else [args.package])
    specs = registry.specs()
    wanted = args.ids or None
    if args.package is not None:
        wanted = wanted or sorted(specs)
        if any(dep not in specs for spec in specs.values() for dep in spec.depends):
            registry = CheckRegistry.from_plugins()  # it relies on checks of other packages
            specs = registry.specs()
    if args.list:
        for cid in order_checks(specs, wanted, with_dependencies=False):
            spec = specs[cid]
            deps = f"  (relies on {', '.join(spec.depends)})" if spec.depends else ""
            print(f"{cid:12s} {spec.title}{deps}  [{registry.package_of(cid)}]")
        return 0
    # A report sent to standard output keeps stdout clean: the console goes to stderr.
    to_stdout = STDOUT in (args.json, args.markdown)
    console = Console(highlight=False, stderr=to_stdout)
    wall, cpu = time.perf_counter(), time.process_time()
    results = run_checks(specs, wanted, full=args.full,
                         reporter=ConsoleReporter(console, verbose=not args.quiet),
                         with_dependencies=not args.no_deps)
    plural = "s" if len(results) != 1 else ""
    console.print(f"{len(results)} check{plural} ({'full' if args.full else 'fast'} tier) in "
                  f"{time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s "
                  "CPU of this process")
    folder = None
    if not args.no_report:
        paths = write_report_folder(results, args.report_dir, specs)
        folder = paths["json"].parent
        console.print(f"Reports: {paths['json']}, {paths['markdown']}, {paths['html']}")
    data = report_dict(results) if (args.json or args.markdown) else None
    if args.json:
        where = write_json(data, args.json)
        if where != STDOUT:
            console.print(f"JSON report: {where}")
    if args.markdown:
        figures = folder / "figures" if folder is not None else None
        where = write_markdown(data, args.markdown, figures_folder=figures, specs=specs)
        if where != STDOUT:
            console.print(f"Markdown report: {where}")
    errored = [r.id for r in results if any(s.status == ERROR for s in r.steps)]
    if errored:
        console.print(f"[magenta]checks with steps that raised: {', '.join(errored)}[/]")
        return 1
    if args.strict:
        unsettled = [f"{r.id} ({r.outcome})" for r in results
                     if r.outcome not in ("holds", "holds-corrected")]
        if unsettled:
            console.print(f"--strict: claims that do not hold: {', '.join(unsettled)}")
            return 1
    return 0


#: a spinner appears on stderr only for work that runs longer than this (seconds)
SPINNER_DELAY = 2.0


@contextlib.contextmanager
def _spinner(what: str, delay: float | None = None):
    """Show a rich spinner on stderr after ``delay`` seconds, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield
        return
    import threading

    from rich.console import Console

    status = Console(stderr=True).status(f"{what}...")
    lock = threading.Lock()
    state = {"started": False, "done": False}

    def start() -> None:
        with lock:
            if not state["done"]:
                status.start()
                state["started"] = True

    timer = threading.Timer(SPINNER_DELAY if delay is None else delay, start)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["started"]:
                status.stop()


def _cmd_errata(args: argparse.Namespace) -> int:
    from pathlib import Path

    from seprank.output_files import write_text
    from seprank.proof.errata import errata_markdown, known_papers, paper_key
    from seprank.proof.report import (
        READABLE_VERSIONS,
        load_report,
        paper_of_check,
        report_dict,
        report_papers,
    )

    if args.report:
        data = load_report(args.report)
        if data.get("schema_version") not in READABLE_VERSIONS:
            raise SeprankError(f"{args.report}: a schema-1 report has no errata; rerun "
                               "`seprank prove`")
        paper = paper_key(args.paper, [*report_papers(data), *known_papers()])
    else:
        from seprank.proof import registered_checks, run_checks

        specs = registered_checks()  # a plugin's paper may be known only by its checks
        paper = paper_key(args.paper, known_papers(specs))
        ids = [cid for cid, spec in specs.items() if getattr(spec.paper, "key", None) == paper]
        data = report_dict(run_checks(specs, ids, full=args.full))
    sheet = errata_markdown(data, paper)
    if args.output == "-":
        sys.stdout.write(sheet)
        return 0
    out = write_text(Path(args.output or f"errata-{paper}.md"), sheet)
    n = sum(len(c.get("errata") or []) for c in data["checks"] if paper_of_check(c) == paper)
    print(f"{n} errata of {paper}: {out}")
    return 0


def _cmd_papers(args: argparse.Namespace) -> int:
    from seprank.paper_hooks import papers, papers_text

    if args.json:
        _emit_json([p.to_dict() for p in papers().values()], args.json)
        if args.json == _STDOUT:
            return 0
    sys.stdout.write(papers_text())
    return 0


def _cmd_rank(args: argparse.Namespace) -> int:
    import seprank
    from seprank.matrix_io import load_matrix

    matrix = load_matrix(args.file, allow_float=args.method == "float", method=args.method)
    if args.explain:  # the plan only: checks and decisions, no rank work
        from seprank.linalg.planner import plan_rank

        plan = plan_rank(matrix, args.method, prime=args.prime, certify=args.certify,
                         engine=args.engine)
        if args.json:
            _emit_json(plan.to_dict(), args.json)
        if args.json != _STDOUT:
            print(plan.explain())
        return 0
    with _spinner(f"rank ({args.method})"):
        result = seprank.rank(matrix, args.method, prime=args.prime, certify=args.certify,
                              engine=args.engine)
    verified = None
    if args.certify and result.certificate is not None:
        with _spinner("verifying the certificate"):
            verified = seprank.verify(matrix, result)
    if args.json:
        out = result.to_dict()
        if verified is not None:
            out["certificate_verified"] = verified
        _emit_json(out, args.json)
    if args.json != _STDOUT:
        print(f"{result.value} {result.kind}")
        print(str(result))
        if verified is not None:
            print(f"certificate independently verified: {verified}")
    return 0


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    src = Path(args.report)
    md = Path(args.markdown) if args.markdown else src.with_suffix(".md")
    page = Path(args.html) if args.html else src.with_suffix(".html")
    if _is_sqlite(args.report):
        from seprank.sweep.report import write_sweep_report

        write_sweep_report(src, md, page)
    else:
        from seprank.output_files import write_text
        from seprank.proof.figures import write_figures
        from seprank.proof.report import html_from_dict, load_report, markdown_from_dict

        data = load_report(args.report)
        # figures the checks declare (of every installed check package) besides the built-in
        from seprank.proof import CheckRegistry

        ids = {c["id"] for c in data["checks"]}
        specs = [spec for cid, spec in CheckRegistry.from_plugins().specs().items()
                 if cid in ids]
        figures = write_figures(data, md.parent / f"{md.stem}-figures", specs)
        write_text(md, markdown_from_dict(data, figures, md.parent))
        write_text(page, html_from_dict(data, figures, page.parent))
    print(f"Markdown report: {md}")
    print(f"HTML report: {page}")
    return 0


def _cmd_sweep(args: argparse.Namespace) -> int:
    from rich.console import Console

    from seprank.sweep import load_spec, run_sweep
    from seprank.sweep.runner import plan
    from seprank.sweep.store import ResultStore

    spec = load_spec(args.spec)
    store = args.store or spec.store
    console = Console(highlight=False, stderr=True)
    if args.dry_run:
        from pathlib import Path

        if Path(store).exists():  # read-only: a dry run changes no byte of the store
            with ResultStore(store, create=False, readonly=True) as db:
                todo, skipped = plan(spec, db)
        else:  # do not create a store just to say that nothing is in it
            todo, skipped = [(None, t) for t in spec.tasks()], 0
        print(f"{spec.computation}: {len(todo) + skipped} tasks, {skipped} already done in "
              f"{store}, {len(todo)} to run")
        left_out = spec.skipped()
        if left_out:
            print(f"  {len(left_out)} grid points left out, e.g. {left_out[0][1]}")
        for _, task in todo[:10]:
            print(f"  {task.params_json}")
        if len(todo) > 10:
            print(f"  ... and {len(todo) - 10} more")
        return 0
    import os

    where = args.scheduler or (f"a local Dask cluster of {args.workers or os.cpu_count()} "
                               "worker processes")
    console.print(f"sweep {spec.computation} on {where}; store {store}")
    left_out = spec.skipped()
    if left_out:
        console.print(f"{len(left_out)} grid points left out by the computation, e.g. "
                      f"{left_out[0][1]}")
    try:
        summary = run_sweep(spec, store=store, scheduler=args.scheduler, workers=args.workers,
                            retries=args.retries, progress=not args.no_progress,
                            console=console)
    except KeyboardInterrupt:
        print(f"seprank: interrupted; finished tasks are in {store}: rerun the same command "
              "to resume", file=sys.stderr)
        return 130
    print(summary.line())
    for params, error in summary.failures[:5]:
        print(f"  failed: {params}: {error}")
    if summary.failed:
        print(f"  ({summary.failed} failed in all; rerun to retry them; "
              f"`seprank report {store}` lists them)")
    return 0 if summary.complete else 1


def _renamed(args: argparse.Namespace, new: str, old: str, old_flag: str, new_flag: str) -> None:
    """An option's old spelling (``--da``, ``--dx``) still works, with a note on stderr;
    refused when given together with the new one."""
    from seprank.errors import ParameterError

    value = getattr(args, old, None)
    if value is None:
        return
    if getattr(args, new) is not None:
        raise ParameterError(f"give {new_flag} or {old_flag} (its old name), not both")
    print(f"seprank: note: {old_flag} is deprecated; use {new_flag}", file=sys.stderr)
    setattr(args, new, value)


def _shape_args(args: argparse.Namespace) -> argparse.Namespace:
    """The shape options after their old spellings are folded in."""
    _renamed(args, "head_dim", "da", "--da", "--head-dim")
    if hasattr(args, "dx"):
        _renamed(args, "width", "dx", "--dx", "--width")
    return args


def _cmd_lemma6(args: argparse.Namespace) -> int:
    from seprank.sweep.computations import lemma6_identity

    _shape_args(args)
    out = lemma6_identity(depth=args.depth, heads=args.heads,
                          da=3 if args.head_dim is None else args.head_dim,
                          seq_len=args.seq_len, half=args.half, seed=args.seed,
                          corrected=args.corrected)
    if args.json:
        _emit_json(out, args.json)
    # with the JSON on stdout, the human lines go to stderr
    text = sys.stderr if args.json == _STDOUT else sys.stdout
    verdict = "holds" if out.get("identity_holds") else "FAILS"
    print(f"Lemma 6 identity ({out['assignment']} assignment, L={out['depth']}, "
          f"H={out['heads']}, d_a={out['d_a']}, N={out['seq_len']}, M={out['M']}): {verdict}, "
          "exactly over Q(i)", file=text)
    for key in ("reason", "mismatch", "constants", "constant_formula_value",
                "constant_matches_formula"):
        if out.get(key) is not None:
            print(f"  {key}: {out[key]}", file=text)
    return 0 if out.get("identity_holds") else 1


def _cmd_grid_rank(args: argparse.Namespace) -> int:
    from seprank.separation.vocabulary import partition_from_text
    from seprank.sweep.computations import grid_rank

    _shape_args(args)
    if args.width is None:
        from seprank.errors import ParameterError

        raise ParameterError("give the embedding dimension: -d_x/--width DX")
    partition = None if args.partition is None else partition_from_text(args.partition)
    if isinstance(partition, tuple):
        partition = [partition[0], partition[1]]
    out = grid_rank(depth=args.depth, width=args.width, heads=args.heads, da=args.head_dim,
                    residual=args.residual, seq_len=args.seq_len, templates=args.templates,
                    template_bound=args.template_bound, position=args.position,
                    coordinate=args.coordinate, partition=partition, seed=args.seed,
                    method=args.method, certify=args.certify)
    if args.json:
        _emit_json(out, args.json)
    if args.json != _STDOUT:
        res = out["rank"]
        rows, cols = out["matrix_shape"]
        print(f"{res['value']} {res['kind']}")
        print(f"grid matricization {rows} x {cols} (I = {out['partition']['I']}, "
              f"J = {out['partition']['J']}): rank {res['value']} ({res['kind']}, "
              f"{res['method']}, over {res['field']})")
        if "thm3_bound" in out:
            print(f"Theorem 3 bound (H(d_a+1))^C(L) = {out['thm3_bound']}; Theorem 4 bound = "
                  f"{out['thm4_bound']}")
        if "certificate_verified" in out:
            print(f"certificate independently verified: {out['certificate_verified']}")
    return 0


def _sep_network(args: argparse.Namespace):
    """The network of ``sep-rank``, built once: from --weights FILE or the seeded draw."""
    from seprank.errors import ParameterError
    from seprank.separation import build_network, load_weights

    if args.weights:
        weights, dims = load_weights(args.weights)
        residual = args.residual or dims.get("residual", False)
        return build_network(args.depth, args.width, args.heads, args.head_dim,
                             residual=residual, weights=weights), None
    if args.depth is None or args.width is None:
        raise ParameterError("give -L/--depth and --width (and -H/--heads), or --weights FILE")
    seed = 0 if args.seed is None else args.seed
    return build_network(args.depth, args.width, args.heads, args.head_dim,
                         residual=args.residual, weights_seed=seed), seed


def _cmd_sep_rank(args: argparse.Namespace) -> int:
    from seprank.errors import ParameterError
    from seprank.separation import execute, plan_separation
    from seprank.separation.vocabulary import partition_from_text

    _shape_args(args)
    partition = None if args.partition is None else partition_from_text(args.partition)
    net, weights_seed = _sep_network(args)
    if args.embedding:
        if args.explain:
            raise ParameterError("--explain plans the network routes; it does not apply to "
                                 "--embedding")
        res = _embedded(args, net, partition)
    else:
        plan = plan_separation(network=net, weights_seed=weights_seed, N=args.seq_len,
                               partition=partition, position=args.position,
                               coordinate=args.coordinate, points_seed=args.points_seed,
                               route=args.route, prime=args.prime, certify=args.certify)
        if args.explain:  # the plan only: checks and decisions, no rank work
            if args.json:
                _emit_json(plan.to_dict(), args.json)
            if args.json != _STDOUT:
                print(plan.explain())
            return 0
        with _spinner(f"separation rank ({plan.route})"):
            res = execute(plan)
    if args.json:
        _emit_json(res.to_dict(), args.json)
        if args.json == _STDOUT:
            return 0
    print(f"{res.value} {res.kind}")
    print(res)
    return 0


def _embedded(args: argparse.Namespace, net, partition):
    """sep-rank behind a wies2021 embedding drawn from --embedding-seed."""
    from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding
    from seprank.separation import embedded_separation_rank

    r = net.d_x if args.emb_rank is None else args.emb_rank
    if args.embedding == "vocabulary":
        emb = VocabularyEmbedding.random(args.vocab, net.d_x, args.seq_len, r, args.pos_rank,
                                         seed=args.embedding_seed)
    else:
        emb = ConvolutionalEmbedding.random(args.patch, args.d_input, net.d_x, args.seq_len, r,
                                            args.pos_rank, seed=args.embedding_seed)
    return embedded_separation_rank(net, emb, partition=partition, position=args.position,
                                    coordinate=args.coordinate)


# ------------------------------------------------------------------ hadamard-rank

def _cmd_hadamard_rank(args: argparse.Namespace) -> int:
    """``seprank hadamard-rank``: rank of (V V^T)^(Hadamard lam) for a file or a construction."""
    from seprank.errors import ParameterError
    from seprank.gram_hadamard_rank import hadamard_rank, named_V

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
    with _spinner("rank of (V V^T)^(Hadamard lam)"):
        res = hadamard_rank(V, lam, method=args.method, prime=args.prime, certify=args.certify,
                            float_rank=not args.no_float, source=source)
    if args.json:
        _emit_json(res.to_dict(), args.json)
    if args.json != _STDOUT:
        print(f"{res.value} {res.kind}")
        print(str(res))
    return 0


def _add_hadamard_rank_parser(sub) -> None:
    from seprank.gram_hadamard_rank import METHODS

    p = _subparser(sub, "hadamard-rank", "exact rank of (V V^T)^(Hadamard lam) for your V or a "
                   "named construction, beside its float64 rank and ((d, lam))",
                   "seprank hadamard-rank V.csv --lam 3 --certify\n"
                   "seprank hadamard-rank --omega 6 7\n"
                   "seprank hadamard-rank --equal-norm 3 4 --certify --json out.json")
    p.add_argument("file", nargs="?", default=None, metavar="FILE",
                   help="V, n x d: .npy (integer dtype), .json (rows of integers or 'p/q'), "
                   ".csv or whitespace-separated text (integers or p/q; never floats)")
    p.add_argument("--lam", type=int, default=None, metavar="LAM",
                   help="the Hadamard power lambda >= 1 (needed with FILE; a construction "
                   "brings its own, which --lam overrides)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--omega", type=int, nargs=2, metavar=("D", "LAMBDA"), default=None,
                       help="V = the Omega rows of levine2020 B.2 (one row Omega^q per "
                       "composition q of LAMBDA into D parts); rank = ((D, LAMBDA))")
    which.add_argument("--lemma6", type=int, nargs=4, metavar=("L", "H", "DA", "HALF"),
                       default=None, help="V = the HALF unit rows of levine2020 Lemma 6 for "
                       "depth L, H heads, d_a = DA (odd); lambda = 3^(L-2)")
    which.add_argument("--equal-norm", dest="equal_norm", type=int, nargs=2,
                       metavar=("D", "LAMBDA"), default=None,
                       help="V = the equal-norm witness of wies2021 Lemma 8 (natural rows of "
                       "one norm); rank = ((D, LAMBDA))")
    p.add_argument("--base", type=int, default=None, metavar="B",
                   help="the Omega of --omega (default 2)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of --lemma6's sphere points and --equal-norm's search (default 0)")
    p.add_argument("--method", default="auto", choices=list(METHODS),
                   help="auto: G mod a random prime, exact when decisive, else exact integers; "
                   "exact / multimodular: G as exact integers; modular: one prime (a lower "
                   "bound unless it meets n or ((d, lam)))")
    p.add_argument("--prime", type=int, default=None, metavar="P",
                   help="the prime of --method modular (default 2^31 - 1, or 2^20 - 3 from 600 "
                   "rows), or the first prime of auto")
    p.add_argument("--certify", action="store_true",
                   help="attach a certificate and verify it independently (seprank.verify)")
    p.add_argument("--no-float", action="store_true",
                   help="skip the float64 rank (numpy SVD of G built in float64)")
    _json_option(p, "the result")
    p.set_defaults(func=_cmd_hadamard_rank)


# ------------------------------------------------------------------ float-vs-exact

@contextlib.contextmanager
def _progress_bar(what: str, enabled: bool):
    """A rich progress bar on stderr (a terminal only); yields its update(done, total, label)."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)

        def update(done: int, total: int, label: str) -> None:
            bar.update(task, completed=done, total=total, description=f"{what}: {label}")

        yield update


def _study_lines(study: dict) -> list[str]:
    """The console summary of a float-vs-exact study: one line per case, then the totals."""
    def mark(r: dict, v: str) -> str:
        if r[f"{v}_rank"] is None:
            return "overflow"
        return f"{r[f'{v}_rank']}{' WRONG' if r[f'{v}_wrong'] else ''}"

    rows, s = study["rows"], study["summary"]
    lines = [f"{'d':>4} {'lam':>4} {'n':>6}  {'exact (kind)':<18} {'float64 raw':<14} "
             f"{'normalized':<14} {'build s':>8} {'exact s':>8} {'raw s':>8} {'norm s':>8}"]
    for r in rows:
        lines.append(f"{r['d']:>4} {r['lam']:>4} {r['n']:>6}  "
                     f"{str(r['exact_rank']) + ' ' + r['exact_kind']:<18} "
                     f"{mark(r, 'raw'):<14} {mark(r, 'normalized'):<14} {r['build_s']:>8.4f} "
                     f"{r['exact_s']:>8.4f} {r['float_raw_s']:>8.4f} "
                     f"{r['float_normalized_s']:>8.4f}")
    lines.append(f"float64 wrong: {s['raw']['wrong']} of {s['raw']['decided']} (exact G rounded "
                 f"to float64), {s['normalized']['wrong']} of {s['normalized']['decided']} "
                 "(row-normalized, built in float64)")
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
    from seprank.float_vs_exact_files import write_study
    from seprank.gram_hadamard_rank import read_V

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
    with _progress_bar("float vs exact", not args.no_progress) as update:
        study = run_study(family, ds, lams, V=V, seed=args.seed, max_n=args.max_n,
                          rtol=args.rtol, blas_threads=args.blas_threads, progress=update)
    paths = write_study(args.out, study, plot=not args.no_plot)
    skipped = study["skipped"]
    left = (f" ({len(skipped)} left out: n > max_n = {args.max_n})" if skipped else "")
    print(f"float vs exact, family {family}: {len(study['rows'])} cases{left}, "
          f"{study['seconds']:.1f} s")
    print("\n".join(_study_lines(study)))
    for kind, path in paths.items():
        print(f"{kind.upper()}: {path}")
    return 0


def _add_float_vs_exact_parser(sub) -> None:
    p = _subparser(sub, "float-vs-exact", "where numpy's float64 rank of (U U^T)^(Hadamard lam) "
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
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the random family (default %(default)s)")
    p.add_argument("--max-n", type=int, default=1000, metavar="N",
                   help="leave out grid points whose G has more than N rows (default "
                   "%(default)s; the exact rank and the SVD grow as n^3)")
    p.add_argument("--rtol", type=float, default=None, metavar="R",
                   help="float rank = singular values above R * sigma_max (default: numpy's "
                   "n * eps)")
    p.add_argument("--blas-threads", type=int, default=1, metavar="N",
                   help="threads of numpy's BLAS during the study (default %(default)s, like "
                   "flint's rank, so that the times compare; 0 leaves them as they are)")
    p.add_argument("--no-plot", action="store_true", help="write no PNG")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is drawn on stderr, on a terminal only)")
    p.set_defaults(func=_cmd_float_vs_exact)


def _json_option(parser: argparse.ArgumentParser, what: str, note: str = "") -> None:
    """``--json [PATH]``: one meaning in every subcommand (no value or '-': stdout)."""
    parser.add_argument("--json", nargs="?", const=_STDOUT, default=None, metavar="PATH",
                        help=f"write {what} as JSON to PATH; with no PATH, or '-', print it "
                        "to standard output (and nothing else)." + note)


def _subparser(sub, name: str, help: str, example: str) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".",
                          epilog="example:\n  " + example.replace("\n", "\n  "),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every ``seprank`` subcommand.

    Examples
    --------
    >>> args = build_parser().parse_args(["rank", "m.json", "--method", "exact"])
    >>> args.command, args.file, args.method, args.json
    ('rank', 'm.json', 'exact', None)
    >>> build_parser().parse_args(["lemma6", "-L", "2", "--json"]).json
    '-'
    """
    from seprank import __version__

    parser = argparse.ArgumentParser(
        prog="seprank",
        description="Exact checks of the separation-rank theory of self-attention.",
        epilog="examples:\n  seprank rank m.json --certify\n  seprank prove --list\n"
        "  seprank hadamard-rank --omega 3 4 --certify\n"
        "  seprank prove L-Omega --strict\n\nexit status: 0 success; 1 a check or "
        "identity failed (prove --strict, lemma6) or a sweep is incomplete; 2 a user's error",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"seprank {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    prove = _subparser(sub, "prove", "run the step-by-step proof checks",
                       "seprank prove L-Omega W-Lemma4 --quiet --report-dir out")
    prove.add_argument("ids", nargs="*", metavar="ID", help="mission-map ids (default: all)")
    prove.add_argument("--list", action="store_true",
                       help="list check ids, titles and packages, run nothing")
    prove.add_argument("--package", metavar="NAME", default=None,
                       help="only the checks of this installed check package (entry-point "
                       "group seprank.checks; default: every installed package)")
    prove.add_argument("--full", action="store_true", help="run the full (slow) tier")
    prove.add_argument("--report-dir", metavar="DIR", default="seprank-report",
                       help="folder for the reports: report.json, report.md, report.html and "
                       "figures/ (default: %(default)s)")
    prove.add_argument("--no-report", action="store_true",
                       help="write no report files (the console output only)")
    _json_option(prove, "the report", " Put it after the ids: in `--json L-Omega`, "
                 "L-Omega is the PATH.")
    prove.add_argument("--markdown", metavar="PATH", default=None,
                       help="also write the Markdown report to PATH ('-': standard output)")
    prove.add_argument("--no-deps", action="store_true",
                       help="do not run the checks the named ones rely on")
    prove.add_argument("--quiet", action="store_true", help="do not print evidence lines")
    prove.add_argument("--strict", action="store_true",
                       help="exit 1 unless every check's claim holds or holds-corrected "
                       "(an open or false outcome fails the run)")
    prove.set_defaults(func=_cmd_prove)

    rank = _subparser(sub, "rank", "rank of a matrix in a .npy, .json or text file",
                      "seprank rank m.json --certify --json out.json")
    rank.add_argument("file", help="the matrix: .npy (integer dtype), .json (rows of integers "
                      "or 'p/q' strings) or whitespace-separated text")
    from seprank.linalg.engines import METHOD_REGISTRY, REGISTRY

    rank.add_argument("--method", default="auto", choices=list(METHOD_REGISTRY),
                      help="how to compute the rank (README, Methods): " + "; ".join(
                          f"{m.name}: {m.kind.replace('`', '')}"
                          for m in METHOD_REGISTRY.values()))
    rank.add_argument("--engine", default=None, choices=list(REGISTRY),
                      help="engine for the modular work (default: by size): " + "; ".join(
                          f"{e.name}: {e.description}" for e in REGISTRY.values()))
    rank.add_argument("--prime", type=int, default=None, metavar="P",
                      help="the prime of --method modular (default: 2^31 - 1)")
    rank.add_argument("--certify", action="store_true",
                      help="attach certificates and verify them independently")
    rank.add_argument("--explain", action="store_true",
                      help="print the plan (method, field, engine, primes, fallbacks, "
                      "certificate, answer kinds) and exit without computing; with --json, "
                      "the plan as JSON")
    _json_option(rank, "the result")
    rank.set_defaults(func=_cmd_rank)

    report = _subparser(sub, "report", "Markdown and HTML from a proof JSON report or a "
                        "sweep store", "seprank report seprank-report/report.json --html r.html")
    report.add_argument("report", help="the JSON written by `seprank prove --json`, or the "
                        ".sqlite store of `seprank sweep`")
    report.add_argument("--markdown", metavar="PATH", default=None,
                        help="default: the input's path with .md")
    report.add_argument("--html", metavar="PATH", default=None,
                        help="default: the input's path with .html")
    report.set_defaults(func=_cmd_report)

    errata = _subparser(sub, "errata", "Markdown erratum sheet of one paper (runs its "
                        "checks, or reads a proof JSON report)", "seprank errata wies2021 -o -")
    errata.add_argument("paper", help="a paper key: levine2020, wies2021, chapter7, "
                        "rank_collapse, amsel, or an installed plugin's (`seprank papers`)")
    errata.add_argument("--from", dest="report", metavar="REPORT.json", default=None,
                        help="take the errata from this `seprank prove` JSON report")
    errata.add_argument("--output", "-o", metavar="PATH", default=None,
                        help="default: errata-PAPER.md; '-' prints to stdout")
    errata.add_argument("--full", action="store_true", help="run the full (slow) tier")
    errata.set_defaults(func=_cmd_errata)

    papers = _subparser(sub, "papers", "the registered papers: key, full reference and text "
                        "file of each (the project's wings and installed plugins')",
                        "seprank papers --json -")
    _json_option(papers, "the papers (a list of their fields)")
    papers.set_defaults(func=_cmd_papers)

    sweep = _subparser(sub, "sweep", "run a grid of computations on Dask, resumably",
                       "seprank sweep docs/sweeps/float_vs_exact.toml --workers 2 --dry-run")
    sweep.add_argument("spec", help="a .toml or .yaml sweep specification")
    sweep.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: "
                       "start a local cluster on 127.0.0.1)")
    sweep.add_argument("--workers", type=int, default=None, metavar="N",
                       help="local cluster size (default: one worker process per core)")
    sweep.add_argument("--store", metavar="PATH", default=None,
                       help="result store (default: from the spec, else SPEC.sqlite)")
    sweep.add_argument("--retries", type=int, default=3, metavar="N",
                       help="Dask retries of a task that raised (default: %(default)s)")
    sweep.add_argument("--dry-run", action="store_true",
                       help="say what would run, run nothing")
    sweep.add_argument("--no-progress", action="store_true", help="no progress bar")
    sweep.set_defaults(func=_cmd_sweep)

    _lemma6_parser(sub)
    _grid_rank_parser(sub)
    _sep_rank_parser(sub)
    _add_hadamard_rank_parser(sub)
    _add_float_vs_exact_parser(sub)
    return parser


def _seq_len(text: str) -> int | float:
    """``-N``: an integer, or ``inf`` for the limit N -> infinity."""
    import math

    if text.strip().lower() in ("inf", "infinity"):
        return math.inf
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be an integer or 'inf', got {text!r}") from None


def _shape_options(p: argparse.ArgumentParser, *, depth_required: bool, width: bool,
                   width_required: bool = False, heads: int | None = None,
                   head_dim: int | None = None, seq_len=int) -> None:
    """One vocabulary: the long options spell the names out, the short ones are the papers'
    symbols (-L, -d_x, -H, -d_a, -N); --dx and --da are the old spellings (a note on use)."""
    p.add_argument("--depth", "-L", type=int, required=depth_required, default=None,
                   metavar="L", help="number of self-attention layers L")
    if width:
        p.add_argument("--width", "-d_x", type=int, required=False, default=None,
                       metavar="DX", help="embedding dimension d_x"
                       + (" (required)" if width_required else ""))
        p.add_argument("--dx", type=int, default=None, metavar="DX",
                       help="old name of --width (deprecated)")
    p.add_argument("--heads", "-H", type=int, default=heads, metavar="H",
                   help=f"heads per layer (default: {1 if heads is None else heads})")
    p.add_argument("--head-dim", "-d_a", dest="head_dim", type=int, default=None,
                   metavar="DA", help="attention dimension d_a (default: "
                   + ("d_x / H)" if head_dim is None else f"{head_dim})"))
    p.add_argument("--da", type=int, default=None, metavar="DA",
                   help="old name of --head-dim (deprecated)")
    p.add_argument("--seq-len", "-N", type=seq_len, default=2, metavar="N",
                   help="sequence length N (default: %(default)s)"
                   + ("; 'inf': the limit N -> infinity" if seq_len is not int else ""))


def _lemma6_parser(sub) -> None:
    lem = _subparser(sub, "lemma6", "levine2020 Lemma 6's identity, exactly over Q(i); "
                     "exit 1 when it fails", "seprank lemma6 -L 3 --corrected --json l6.json")
    _shape_options(lem, depth_required=True, width=False, heads=1, head_dim=3)
    lem.add_argument("--half", type=int, default=3, metavar="M2",
                     help="M/2, the sub-matrix size (default: %(default)s)")
    lem.add_argument("--seed", type=int, default=0, help="seed of the sphere points V")
    which = lem.add_mutually_exclusive_group()
    which.add_argument("--printed", dest="corrected", action="store_false",
                       help="the assignment as printed (default)")
    which.add_argument("--corrected", dest="corrected", action="store_true",
                       help="the corrected assignment (see constructions/lemma6.py)")
    _json_option(lem, "the result")
    lem.set_defaults(func=_cmd_lemma6, corrected=False)


def _partition_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--partition", default=None, metavar="I",
                   help="positions of I, 0-based, comma-separated (e.g. 0,1), or I|J (e.g. "
                   "0,2|1,3) (default: the first half)")
    p.add_argument("--position", type=int, default=0, help="output position i (0-based)")
    p.add_argument("--coordinate", type=int, default=0, help="output coordinate (0-based)")


def _grid_rank_parser(sub) -> None:
    grid = _subparser(sub, "grid-rank", "exact rank of a random network's grid matricization",
                      "seprank grid-rank -L 2 --width 4 -H 2 -N 2 -M 12 --certify")
    _shape_options(grid, depth_required=True, width=True, width_required=True, heads=1)
    grid.add_argument("--residual", action="store_true", help="add the residual connections")
    grid.add_argument("--templates", "-M", type=int, default=6, metavar="M",
                      help="number of templates M (default: %(default)s)")
    grid.add_argument("--template-bound", type=int, default=3, metavar="B",
                      help="template entries uniform in [-B, B] (default: %(default)s)")
    _partition_option(grid)
    grid.add_argument("--seed", type=int, default=0,
                      help="seed of the random weights (the templates: seed + 1)")
    grid.add_argument("--method", default="auto", choices=["auto", "exact", "modular"],
                      help="exact rank, or one prime (modular: a lower bound)")
    grid.add_argument("--certify", action="store_true",
                      help="attach certificates and verify them independently")
    _json_option(grid, "the result")
    grid.set_defaults(func=_cmd_grid_rank)


def _sep_rank_parser(sub) -> None:
    from seprank.separation.routes import AUTO, route_names

    sep = _subparser(sub, "sep-rank", "separation rank of one output of an eq. (3) network",
                     "seprank sep-rank -L 2 --width 4 -H 2 -N 2 --certify")
    _shape_options(sep, depth_required=False, width=True, seq_len=_seq_len)
    sep.add_argument("--residual", action="store_true",
                     help="add the skip connections (levine2020 A.4)")
    _partition_option(sep)
    src = sep.add_mutually_exclusive_group()
    src.add_argument("--seed", "--weights-seed", dest="seed", type=int, default=None,
                     metavar="S", help="seed of the random integer weights (default 0)")
    src.add_argument("--weights", metavar="FILE", default=None,
                     help="weights JSON {Q, K, V, O} (e.g. a saved --json answer)")
    sep.add_argument("--points-seed", type=int, default=None, metavar="S",
                     help="seed of the grid route's random points (default: the weights seed)")
    sep.add_argument("--route", default=AUTO, choices=[AUTO, *route_names()],
                     help="exact coefficient matricization, grid blocks mod p, ... (default: "
                     "by the number of output monomials; --explain says why)")
    sep.add_argument("--prime", type=int, default=None, metavar="P",
                     help="prime of the grid route")
    sep.add_argument("--certify", action="store_true",
                     help="certify every block's rank and verify the certificates")
    sep.add_argument("--explain", action="store_true",
                     help="print the plan (route and why, prime, seeds, blocks, estimated work "
                     "and memory, answer kinds) and exit without computing; with --json, the "
                     "plan as JSON")
    _json_option(sep, "the result")
    emb = sep.add_argument_group("wies2021 input embeddings (random, from --embedding-seed)")
    emb.add_argument("--embedding", choices=["vocabulary", "convolution"], default=None,
                     help="the network's input is a vocabulary or convolution embedding; the "
                     "partition is of the tokens (vocabulary) or of the M raw inputs")
    emb.add_argument("--vocab", type=int, default=8, help="vocabulary size V (default 8)")
    emb.add_argument("--emb-rank", type=int, default=None, help="inner rank r (default d_x)")
    emb.add_argument("--pos-rank", type=int, default=1, help="positional rank r_e (default 1)")
    emb.add_argument("--patch", type=int, default=2, help="convolution: k = M/N (default 2)")
    emb.add_argument("--d-input", type=int, default=1, help="convolution: d_input")
    emb.add_argument("--embedding-seed", type=int, default=0,
                     help="seed of the random embedding (default 0)")
    sep.set_defaults(func=_cmd_sep_rank)


def main(argv: list[str] | None = None) -> int:
    """Run one ``seprank`` command; return its exit status (2 for a user's error).

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = pathlib.Path(tmp) / "m.json"
    ...     _ = f.write_text(json.dumps([[1, 2], [2, 4]]))    # second row = 2 x first
    ...     status = main(["rank", str(f), "--json"])
    {
      "value": 1,
      "kind": "exact",
    ...
    >>> status
    0
    >>> main(["rank", "/no/such/file.json"])                    # one line on stderr, no traceback
    2
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    # Printing exact answers (kernel vectors, big entries) must not stop at Python's
    # 4300-digit limit for int <-> str. Input digits are parsed by python-flint
    # (seprank.matrix_io.parse_integer), which has no quadratic-time risk to guard.
    sys.set_int_max_str_digits(0)
    try:
        return args.func(args)
    except SeprankError as exc:
        print(f"seprank: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("seprank: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `seprank ... | head`: the reader left, not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
