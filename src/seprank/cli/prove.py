"""``seprank prove [ID ...]``: run the step-by-step proof checks and write their reports.

The checks come from the installed check packages (:class:`seprank.proof.CheckRegistry`)
and run in the order of their dependencies (:func:`seprank.proof.run_checks`). The
console (:mod:`seprank.proof.report.console`) prints one line per check and a summary;
``-v`` each step, ``-vv`` the evidence too, ``--quiet`` the totals only; the totals
close the output at every level. The reports go into one folder
(:func:`seprank.proof.report.write_report_folder`), and ``--json`` / ``--markdown``
write one more each. A check id given as the PATH of ``--json`` or ``--markdown`` is
refused before anything runs (``seprank prove --json L-Omega`` would otherwise run
every check and write a file named L-Omega). When the paper texts are not at hand, one
line on stderr says so at the end (:func:`seprank.proof.citation.missing_texts_note`).
"""

from __future__ import annotations

import argparse
import sys
import time

from seprank.cli.common import STDOUT, json_option, subparser
from seprank.errors import SeprankError

__all__ = ["add_parsers", "refuse_ids_as_paths"]


def refuse_ids_as_paths(args: argparse.Namespace, ids) -> None:
    """Refuse, in one line, a ``--json`` or ``--markdown`` PATH that is a check id.

    >>> ns = argparse.Namespace(json="L-Omega", markdown=None)
    >>> refuse_ids_as_paths(ns, {"L-Omega"})
    Traceback (most recent call last):
    ...
    seprank.errors.SeprankError: --json L-Omega: L-Omega is a check id, not a file; write \
`seprank prove L-Omega --json -` (standard output) or `--json PATH` (a file, e.g. \
./L-Omega.json)
    """
    for flag, path in (("--json", args.json), ("--markdown", args.markdown)):
        if path is not None and path != STDOUT and path in ids:
            raise SeprankError(f"{flag} {path}: {path} is a check id, not a file; write "
                               f"`seprank prove {path} {flag} -` (standard output) or "
                               f"`{flag} PATH` (a file, e.g. ./{path}."
                               f"{'json' if flag == '--json' else 'md'})")


def _specs(args: argparse.Namespace):
    """The registry's checks (of ``--package`` and what they rely on) and the ids asked."""
    from seprank.proof import CheckRegistry

    registry = CheckRegistry.from_plugins(None if args.package is None else [args.package])
    specs = registry.specs()
    wanted = args.ids or None
    if args.package is not None:
        wanted = wanted or sorted(specs)
        if any(dep not in specs for spec in specs.values() for dep in spec.depends):
            registry = CheckRegistry.from_plugins()  # it relies on checks of other packages
            specs = registry.specs()
    return registry, specs, wanted


def _list(registry, specs, wanted) -> int:
    import textwrap

    from seprank.cli.common import WIDTH
    from seprank.proof.runner import order_checks

    ids = order_checks(specs, wanted, with_dependencies=False)
    pad = min(max((len(cid) for cid in ids), default=0), 16)
    for cid in ids:
        spec = specs[cid]
        deps = f" (relies on {', '.join(spec.depends)})" if spec.depends else ""
        print(textwrap.fill(f"{cid:<{pad}}  {spec.title}{deps} [{registry.package_of(cid)}]",
                            WIDTH, subsequent_indent=" " * (pad + 4),
                            break_long_words=False, break_on_hyphens=False))
    return 0


def _note_missing_texts(specs, ids) -> None:
    """One line on stderr when the texts of the papers cited are not at hand."""
    from seprank.proof.citation import missing_texts_note

    papers = {specs[cid].paper.file: specs[cid].paper for cid in ids
              if getattr(specs[cid].paper, "file", "")}
    note = missing_texts_note(papers.values())
    if note:
        sys.stdout.flush()
        print(note, file=sys.stderr)


def _write_reports(args, results, specs) -> list[str]:
    """Write the report folder and the ``--json`` / ``--markdown`` reports; the lines
    that say where they went."""
    from seprank.proof.report import (
        report_dict,
        write_json,
        write_markdown,
        write_report_folder,
    )

    said, folder = [], None
    if not args.no_report:
        paths = write_report_folder(results, args.report_dir, specs)
        folder = paths["json"].parent
        said.append(f"Reports in {folder}{'' if str(folder).endswith('/') else '/'}: "
                    f"{paths['json'].name}, {paths['markdown'].name}, {paths['html'].name}")
    data = report_dict(results) if (args.json or args.markdown) else None
    if args.json:
        where = write_json(data, args.json)
        if where != STDOUT:
            said.append(f"JSON report: {where}")
    if args.markdown:
        figures = folder / "figures" if folder is not None else None
        where = write_markdown(data, args.markdown, figures_folder=figures, specs=specs)
        if where != STDOUT:
            said.append(f"Markdown report: {where}")
    return said


def _failures(args, results) -> list[str]:
    """What makes the exit status 1: steps that raised, and with ``--strict`` claims
    that do not hold."""
    from seprank.proof.framework import ERROR

    out = []
    errored = [r.id for r in results if any(s.status == ERROR for s in r.steps)]
    if errored:
        out.append(f"[magenta]checks with steps that raised: {', '.join(errored)}[/]")
    if args.strict:
        unsettled = [f"{r.id} ({r.outcome})" for r in results
                     if r.outcome not in ("holds", "holds-corrected")]
        if unsettled:
            out.append(f"--strict: claims that do not hold: {', '.join(unsettled)}")
    return out


def _cmd_prove(args: argparse.Namespace) -> int:
    """``seprank prove``: run, report, and exit 1 on a step that raised (or ``--strict``)."""
    from rich.console import Console
    from rich.text import Text

    from seprank.proof import run_checks
    from seprank.proof.report.console import ConsoleReporter, totals_lines
    from seprank.proof.runner import order_checks

    registry, specs, wanted = _specs(args)
    if args.list:
        return _list(registry, specs, wanted)
    refuse_ids_as_paths(args, specs)
    ids = order_checks(specs, wanted, with_dependencies=not args.no_deps)
    # A report sent to standard output keeps stdout clean: the console goes to stderr.
    console = Console(highlight=False, stderr=STDOUT in (args.json, args.markdown))
    level = -1 if args.quiet else min(args.verbose, 2)
    wall, cpu = time.perf_counter(), time.process_time()
    results = run_checks(specs, wanted, full=args.full, reporter=ConsoleReporter(
        console, level=level), with_dependencies=not args.no_deps)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    said = _write_reports(args, results, specs)
    failures = _failures(args, results)
    from seprank.cli.common import wrap_lines

    for line in ([] if args.quiet else said):
        for part in wrap_lines(line):
            console.print(Text(part), soft_wrap=True)
    for line in failures:
        console.print(line)
    for line in totals_lines(results, "full" if args.full else "fast", wall, cpu):
        console.print(Text(line), soft_wrap=True)
    _note_missing_texts(specs, ids)  # last: an error stays the one line on stderr
    return 1 if failures else 0


def add_parsers(sub) -> None:
    """Declare ``seprank prove``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['prove']
    """
    prove = subparser(sub, "prove", "run the step-by-step proof checks",
                      "seprank prove L-Omega W-Lemma4 -v --report-dir out")
    prove.epilog += ("\n\nThe output: one line per check, in dependency order (a check after "
                     "the checks\nit relies on): its outcome, what happens to the claim "
                     "(holds, holds-corrected,\nfalse, open), with the strength of the "
                     "evidence; its verdict on the printed text\n(verified, refuted k/n: k "
                     "of n steps passed, each failed step an erratum;\ninconclusive); its "
                     "errata and time. Then the summary and the totals.")
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
    json_option(prove, "the report", " A check id is never taken for the PATH: `--json "
                "L-Omega` is refused; write `seprank prove L-Omega --json -`.")
    prove.add_argument("--markdown", metavar="PATH", default=None,
                       help="also write the Markdown report to PATH ('-': standard output)")
    prove.add_argument("--no-deps", action="store_true",
                       help="do not run the checks the named ones rely on")
    how = prove.add_mutually_exclusive_group()
    how.add_argument("--verbose", "-v", action="count", default=0,
                     help="print each check step by step, with its citations, errata and "
                     "reason (-v); with the evidence of each step too (-vv)")
    how.add_argument("--quiet", "-q", action="store_true",
                     help="print only the totals (no line per check, no summary)")
    prove.add_argument("--strict", action="store_true",
                       help="exit 1 unless every check's claim holds or holds-corrected "
                       "(an open or false outcome fails the run)")
    prove.set_defaults(func=_cmd_prove)
