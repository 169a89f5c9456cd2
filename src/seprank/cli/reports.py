"""Reports of proof runs: ``seprank report``, ``seprank errata`` and ``seprank papers``.

``report`` turns a JSON proof report (:mod:`seprank.proof.report`) or a sweep store
(:mod:`seprank.sweep.report`) into Markdown and self-contained HTML; ``errata`` writes
one paper's erratum sheet (:func:`seprank.proof.errata.errata_markdown`); ``papers``
lists the registered papers (:mod:`seprank.paper_hooks`).
"""

from __future__ import annotations

import argparse
import sys

from seprank.cli.common import STDOUT, emit_json, json_option, say, subparser
from seprank.errors import SeprankError

__all__ = ["add_parsers"]


def _cmd_errata(args: argparse.Namespace) -> int:
    from pathlib import Path

    from seprank.files.output_files import write_text
    from seprank.proof.errata import errata_markdown, known_papers, paper_key
    from seprank.proof.report import (
        READABLE_VERSIONS,
        paper_of_check,
        report_dict,
        report_papers,
    )

    if args.report:
        data = _checked_report(args.report)
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
        emit_json([p.to_dict() for p in papers().values()], args.json)
        if args.json == STDOUT:
            return 0
    say(papers_text().rstrip("\n"))
    return 0


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _report_file(path: str):
    """The input of ``seprank report``, refused in one line unless it is a file."""
    from pathlib import Path

    src = Path(path)
    if not src.exists():
        raise SeprankError(f"{src}: no such file")
    if src.is_dir():
        raise SeprankError(f"{src}: is a folder; give a proof report (REPORT.json) or a sweep "
                           "store (STORE.sqlite)")
    if not src.is_file():
        raise SeprankError(f"{src}: is not a regular file")
    return src


def _checked_report(path) -> dict:
    """A proof report read and, for the schema versions it declares (2, 3), validated
    (:func:`seprank.proof.report.schema.validate_report`): a bad one is one line."""
    from seprank.proof.report import READABLE_VERSIONS, load_report, validate_report

    data = load_report(path)
    if data.get("schema_version") in READABLE_VERSIONS:
        problems = validate_report(data)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise SeprankError(f"{path}: not a valid proof report: {problems[0]}{more}")
    return data


def _cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from seprank.files.bounded_read import check_regular_file

    src = _report_file(args.report)
    # a JSON report is parsed whole: its size is checked against the budget first
    check_regular_file(src, "report or store", text=not _is_sqlite(args.report))
    md = Path(args.markdown) if args.markdown else src.with_suffix(".md")
    page = Path(args.html) if args.html else src.with_suffix(".html")
    if _is_sqlite(args.report):
        from seprank.sweep.report import write_sweep_report

        write_sweep_report(src, md, page)
    else:
        from seprank.files.output_files import write_text
        from seprank.proof.report import html_from_dict, markdown_from_dict
        from seprank.proof.report.figures import write_figures

        data = _checked_report(src)
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



def add_parsers(sub) -> None:
    """Declare ``seprank report``, ``seprank errata`` and ``seprank papers``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['errata', 'papers', 'report']
    """
    report = subparser(sub, "report", "Markdown and HTML from a proof JSON report or a "
                        "sweep store", "seprank report seprank-report/report.json --html r.html")
    report.add_argument("report", help="the JSON written by `seprank prove --json`, or the "
                        ".sqlite store of `seprank sweep`")
    report.add_argument("--markdown", metavar="PATH", default=None,
                        help="default: the input's path with .md")
    report.add_argument("--html", metavar="PATH", default=None,
                        help="default: the input's path with .html")
    report.set_defaults(func=_cmd_report)

    errata = subparser(sub, "errata", "Markdown erratum sheet of one paper (runs its "
                        "checks, or reads a proof JSON report)", "seprank errata wies2021 -o -")
    errata.add_argument("paper", help="a paper key: levine2020, wies2021, chapter7, "
                        "rank_collapse, amsel, or an installed plugin's (`seprank papers`)")
    errata.add_argument("--from", dest="report", metavar="REPORT.json", default=None,
                        help="take the errata from this `seprank prove` JSON report")
    errata.add_argument("--output", "-o", metavar="PATH", default=None,
                        help="default: errata-PAPER.md; '-' prints to stdout")
    errata.add_argument("--full", action="store_true", help="run the full (slow) tier")
    errata.set_defaults(func=_cmd_errata)

    papers = subparser(sub, "papers", "the registered papers: key, full reference and text "
                        "file of each (the project's wings and installed plugins')",
                        "seprank papers --json -")
    json_option(papers, "the papers (a list of their fields)")
    papers.set_defaults(func=_cmd_papers)
