"""Console output of a proof run: each step as it finishes, then a summary table.

Text is wrapped at word boundaries to at most 80 columns (continuation lines
keep their indent); evidence is printed as JSON.
"""

from __future__ import annotations

import json
import textwrap

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from seprank.proof.evidence import jsonable
from seprank.proof.framework import (
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PASSED,
    REFUTED,
    VERIFIED,
    CheckResult,
    CheckSpec,
    Step,
)
from seprank.proof.runner import Reporter
from seprank.proof.strength import scope_text

__all__ = ["ConsoleReporter", "summary_table"]

_VERDICT = {VERIFIED: "[green]verified[/]", REFUTED: "[red]refuted[/]",
            INCONCLUSIVE: "[yellow]inconclusive[/]"}
_OUTCOME = {"holds": "green", "holds-corrected": "cyan", "false": "red", "open": "yellow"}

#: the widest line the console output uses
WIDTH = 80


def _evidence_line(step: Step, limit: int = 400) -> str:
    items = {k: v for k, v in step.evidence.items() if k != "traceback"}
    if not items:
        return ""
    text = json.dumps(jsonable(items), separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _wrap(text: str, indent: str, width: int, subsequent: str | None = None) -> str:
    """Wrap plain text at word boundaries (long words such as JSON are broken too)."""
    return textwrap.fill(text, width=width, initial_indent=indent,
                         subsequent_indent=subsequent if subsequent is not None else indent,
                         break_on_hyphens=False)


class ConsoleReporter(Reporter):
    """Prints steps as they finish, with a progress bar over the checks.

    Examples
    --------
    >>> import io
    >>> from seprank.proof.framework import CheckSpec
    >>> from seprank.proof.runner import run_checks
    >>> def body(ctx):
    ...     with ctx.step("2 + 2 = 4", "levine2020 l.1") as s:
    ...         s.record(total=2 + 2)
    >>> out = io.StringIO()
    >>> console = Console(file=out, width=80, color_system=None, highlight=False)
    >>> _ = run_checks({"demo": CheckSpec("demo", "a demo", "Arithmetic", body)},
    ...                reporter=ConsoleReporter(console))
    >>> print(out.getvalue())
    demo: a demo  (Arithmetic)
      ok 2 + 2 = 4 [levine2020 l.1] ...s
          {"total": 4}
      => verified in ...s; claim open (none)
         why: the check does not conclude
    ...
    """

    def __init__(self, console: Console | None = None, verbose: bool = True):
        self.console = console or Console(highlight=False)
        self.verbose = verbose
        self._progress: Progress | None = None
        self._task = None

    def start(self, ids: list[str], specs: dict[str, CheckSpec]) -> None:
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(),
                                  console=self.console, transient=True)
        self._progress.start()
        self._task = self._progress.add_task("checks", total=len(ids))

    def _width(self) -> int:
        return min(self.console.width, WIDTH)

    def _print(self, text: str, indent: str = "", subsequent: str | None = None,
               style: str | None = None) -> None:
        wrapped = _wrap(text, indent, self._width(), subsequent)
        self.console.print(Text(wrapped, style=style or ""), soft_wrap=True)

    def check_started(self, spec: CheckSpec) -> None:
        self._progress.update(self._task, description=f"{spec.id}")
        self._print(f"{spec.id}: {spec.title}  ({spec.source})", style="bold")

    def step_done(self, spec: CheckSpec, step: Step) -> None:
        # Claims, sources and messages are plain text: printed as rich Text, never markup.
        mark = {PASSED: "ok", FAILED: "FAIL", INCONCLUSIVE: "??", ERROR: "ERROR"}.get(
            step.status, step.status)
        tag = " (corrected)" if step.corrected else ""
        source = f" [{step.source}]" if step.source else ""
        self._print(f"{mark}{tag} {step.claim}{source} {step.seconds:.2f}s", "  ", "      ")
        if step.message:
            self._print(f"note: {step.message}", "      ")
        if self.verbose:
            scope = scope_text(step.scope, step.sizes)
            if scope:
                self._print(f"scope: {scope}", "      ", style="dim")
            line = _evidence_line(step)
            if line:
                self._print(line, "      ", style="dim")

    def check_done(self, result: CheckResult) -> None:
        self._progress.advance(self._task)
        for err in result.errata:
            self._print(f"erratum: {err.summary()}", "  ", "      ", style="red")
        self.console.print(f"  => {_VERDICT[result.verdict]} in {result.seconds:.2f}s; "
                           f"claim [{_OUTCOME.get(result.outcome, 'white')}]"
                           f"{result.outcome}[/] ({result.strength})")
        if result.settled is not None:
            self._print(f"why: {result.settled.reason}", "     ", "     ", style="dim")
        self.console.print()

    def finish(self, results: list[CheckResult]) -> None:
        if self._progress is not None:
            self._progress.stop()
        self.console.print(summary_table(results, width=self._width()))


def _strength(result: CheckResult) -> str:
    """The summary's strength: an argument says whether every step holds for all sizes.

    >>> from seprank.proof.claims import Settled
    >>> res = CheckResult("demo", "demo", "none", "verified", [], 0.0,
    ...                   settled=Settled("holds", "proof", "x", basis="argument",
    ...                                   steps_at_sizes=[{"step": 1, "scope": None}]))
    >>> _strength(res)
    'proof (at sizes)'
    """
    s = result.settled
    if s is None or s.strength != "proof" or s.basis != "argument" or s.steps_at_sizes is None:
        return result.strength
    return "proof (at sizes)" if s.steps_at_sizes else "proof (all sizes)"


def summary_table(results: list[CheckResult], width: int = WIDTH) -> Table:
    """A rich table, one row per check: outcome, strength, verdict (with the steps
    passed when some did not), and the most severe finding.

    The finding of a check with errata is its most severe erratum's severity and
    location (the console printed each erratum in full above); cells wrap at word
    boundaries within ``width`` columns.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 < 2") as s:
    ...         s.require(1 < 2, "no")
    >>> table = summary_table([run_check(CheckSpec("demo", "a demo", "none", body))])
    >>> table.row_count, [col.header for col in table.columns]
    (1, ['id', 'outcome', 'strength', 'verdict', 'worst finding'])
    """
    table = Table(title="seprank prove: summary", width=width, box=box.SIMPLE_HEAD,
                  pad_edge=False, padding=(0, 1), collapse_padding=True,
                  show_edge=False)
    for col in ("id", "outcome", "strength", "verdict"):
        table.add_column(col, no_wrap=True)
    table.add_column("worst finding", overflow="fold", ratio=1)
    for r in results:
        passed = sum(s.status == PASSED for s in r.steps)
        if r.errata:  # the most severe erratum, by severity and place (details are above)
            found = f"{r.errata[0].severity} at {r.errata[0].location}"
        else:
            found = r.findings[0] if r.findings else "-"
            found = found if len(found) <= 60 else found[:57] + "..."
        more = len(r.findings) - 1
        if more > 0:
            found += f" (+{more} more)"
        verdict = _VERDICT[r.verdict] + ("" if passed == len(r.steps)
                                         else f" {passed}/{len(r.steps)}")
        table.add_row(r.id, Text(r.outcome, style=_OUTCOME.get(r.outcome, "")),
                      _strength(r), verdict, Text(found))
    return table
