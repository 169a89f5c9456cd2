"""Console output of a proof run: each step as it finishes, then a summary table."""

from __future__ import annotations

import json

from rich.console import Console
from rich.markup import escape
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

__all__ = ["ConsoleReporter", "summary_table"]

_MARK = {PASSED: "[green]ok[/]", FAILED: "[red]FAIL[/]", INCONCLUSIVE: "[yellow]??[/]",
         ERROR: "[magenta]ERROR[/]"}
_VERDICT = {VERIFIED: "[green]verified[/]", REFUTED: "[red]refuted[/]",
            INCONCLUSIVE: "[yellow]inconclusive[/]"}


def _evidence_line(step: Step, limit: int = 160) -> str:
    items = {k: v for k, v in step.evidence.items() if k != "traceback"}
    if not items:
        return ""
    text = json.dumps(jsonable(items), separators=(", ", "="))
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
          {"total"=4}
      => verified in ...s
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

    def check_started(self, spec: CheckSpec) -> None:
        self._progress.update(self._task, description=f"{spec.id}")
        self.console.print(f"[bold]{escape(spec.id)}[/]: {escape(spec.title)}  "
                           f"[dim]({escape(spec.source)})[/]")

    def step_done(self, spec: CheckSpec, step: Step) -> None:
        tag = " [cyan](corrected)[/]" if step.corrected else ""
        # Claims, sources and messages are plain text: escape them, or rich would read
        # "[levine2020 l.563]" as a style tag and drop it.
        source = escape(f"[{step.source}]") if step.source else ""
        self.console.print(f"  {_MARK.get(step.status, step.status)}{tag} {escape(step.claim)} "
                           f"[dim]{source} {step.seconds:.2f}s[/]", soft_wrap=True)
        if step.message:
            self.console.print(f"      note: {escape(step.message)}", soft_wrap=True)
        if self.verbose:
            line = _evidence_line(step)
            if line:
                self.console.print(Text("      " + line, style="dim"), soft_wrap=True)

    def check_done(self, result: CheckResult) -> None:
        self._progress.advance(self._task)
        self.console.print(f"  => {_VERDICT[result.verdict]} in {result.seconds:.2f}s\n")

    def finish(self, results: list[CheckResult]) -> None:
        if self._progress is not None:
            self._progress.stop()
        self.console.print(summary_table(results))


def summary_table(results: list[CheckResult]) -> Table:
    """A rich table with one row per check: verdict, steps passed, time, findings.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 < 2") as s:
    ...         s.require(1 < 2, "no")
    >>> table = summary_table([run_check(CheckSpec("demo", "a demo", "none", body))])
    >>> table.row_count, [col.header for col in table.columns]
    (1, ['id', 'verdict', 'steps passed', 'seconds', 'findings'])
    """
    table = Table(title="seprank prove: summary")
    for col in ("id", "verdict", "steps passed", "seconds", "findings"):
        table.add_column(col)
    for r in results:
        passed = sum(s.status == PASSED for s in r.steps)
        found = "\n".join(f if len(f) <= 140 else f[:137] + "..." for f in r.findings)
        table.add_row(r.id, _VERDICT[r.verdict], f"{passed}/{len(r.steps)}",
                      f"{r.seconds:.2f}", Text(found or "-"))
    return table
