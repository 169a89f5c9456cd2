"""Console output of a proof run, as ``seprank prove`` prints it, at four levels.

* ``level 0`` (the default): one line per check as it finishes (id, outcome, strength,
  verdict on the printed text, errata, seconds), then a short summary (the checks by
  outcome, the worst finding of each check with errata), like pytest;
* ``level 1`` (``-v``): each check step by step instead (its steps with their
  citations and notes, its errata, its verdict and outcome with the reason);
* ``level 2`` (``-vv``, and the class's default): the steps' evidence too, as JSON;
* ``level -1`` (``--quiet``): nothing per check.

:func:`totals_lines` are the closing lines at every level (the outcome totals last).
Every line fits 80 columns and none ends in a space; wrapped text keeps its indent.
Citations are rendered for a reader without the bundled texts
(:func:`seprank.proof.citation.render`).
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from seprank.proof.citation import papers_by_file, render
from seprank.proof.claims import OUTCOMES, SEVERITIES
from seprank.proof.evidence import jsonable
from seprank.proof.framework import (
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PASSED,
    REFUTED,
    VERDICTS,
    VERIFIED,
    CheckResult,
    CheckSpec,
    Step,
)
from seprank.proof.runner import Reporter
from seprank.proof.strength import scope_text

__all__ = ["ConsoleReporter", "WIDTH", "check_line", "summary_lines", "totals_lines"]

_VERDICT = {VERIFIED: "[green]verified[/]", REFUTED: "[red]refuted[/]",
            INCONCLUSIVE: "[yellow]inconclusive[/]"}
_VERDICT_STYLE = {VERIFIED: "green", REFUTED: "red", INCONCLUSIVE: "yellow"}
_OUTCOME = {"holds": "green", "holds-corrected": "cyan", "false": "red", "open": "yellow"}

#: the widest line the console output uses
WIDTH = 80

#: what the one-line-per-check table's columns mean and how its rows are ordered
TABLE_FOOTER = ("(rows in dependency order: a check after the checks it relies on. outcome: "
                "what happens to the claim, holds / holds-corrected / false / open; "
                "verdict: on the printed text, verified / refuted k/n (k of n steps passed, "
                "each failed step an erratum) / inconclusive)")


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


def _verdict_text(r: CheckResult) -> str:
    """The verdict, with the steps passed when some did not: ``refuted 3/4``."""
    passed = sum(s.status == PASSED for s in r.steps)
    return r.verdict + ("" if passed == len(r.steps) else f" {passed}/{len(r.steps)}")


#: the longest id the check table pads to (the other columns take 64 of the 80: a
#: verdict of up to 99 steps, up to 999 errata, up to 999.9 s)
ID_MAX = 16


def check_line(r: CheckResult, id_width: int = 12) -> Text:
    """One check in one line: id, outcome, strength, verdict, errata, seconds.

    Examples
    --------
    >>> from seprank.proof.framework import run_check
    >>> def body(ctx):
    ...     with ctx.step("1 < 2") as s:
    ...         s.require(1 < 2, "no")
    >>> line = check_line(run_check(CheckSpec("demo", "a demo", "none", body))).plain
    >>> line.split()[:4], line.endswith("s"), line == line.rstrip()
    (['demo', 'open', 'none', 'verified'], True, True)
    """
    errata = str(len(r.errata)) if r.errata else ""
    line = Text(f"{r.id:<{id_width}}  ")
    line.append(f"{r.outcome:<15}", style=_OUTCOME.get(r.outcome, ""))
    line.append(f"  {r.strength:<9}  ")
    line.append(f"{_verdict_text(r):<18}", style=_VERDICT_STYLE.get(r.verdict, ""))
    line.append(f"  {errata:>6}  {r.seconds:5.1f}s")
    return line


def _ids_by_outcome(results: list[CheckResult], width: int) -> list[str]:
    lines = []
    for outcome in ("false", "holds-corrected", "open"):
        ids = [r.id for r in results if r.outcome == outcome]
        if ids:
            lines.append(_wrap(f"{outcome} ({len(ids)}): {', '.join(ids)}", "", width, "  "))
    return lines


def summary_lines(results: list[CheckResult], width: int = WIDTH) -> list[str]:
    """The summary after the checks: the ids by outcome (false, holds-corrected, open),
    then the most severe finding of each check that has one, cut to one line each.

    Examples
    --------
    >>> from seprank.proof import Claim
    >>> from seprank.proof.framework import run_check
    >>> def body(ctx):
    ...     with ctx.step("1 > 2") as s:
    ...         s.erratum("l.3", "1 > 2", "1 < 2", "false-statement", instance={"a": 1})
    ...     ctx.conclude("false", "proof", "1 < 2", basis="certificate")
    >>> spec = CheckSpec("demo", "a demo", "none", body, claim=Claim("lemma", "1 > 2", "l.3"))
    >>> print("\\n".join(summary_lines([run_check(spec)])))
    ----------------------------------- summary ------------------------------------
    false (1): demo
    worst finding of each check (-v: every step and erratum):
      demo  false-statement at l.3
    """
    head = " summary "
    lines = [head.center(width, "-")] + _ids_by_outcome(results, width)
    found = [(r.id, (f"{r.errata[0].severity} at {r.errata[0].location}" if r.errata
                     else r.findings[0]), len(r.findings) - 1)
             for r in results if r.findings]
    if found:
        lines.append("worst finding of each check (-v: every step and erratum):")
        pad = max(len(cid) for cid, _, _ in found)
        for cid, text, more in found:
            head, tail = f"  {cid:<{pad}}  ", f" (+{more} more)" if more > 0 else ""
            room = width - len(head) - len(tail)
            text = text if len(text) <= room else text[: room - 3].rstrip() + "..."
            lines.append(head + text + tail)
    return lines


def _wrap_items(head: str, items: list[str], width: int) -> list[str]:
    """``head`` then ``items`` joined with ", ", wrapped between items (never inside one)."""
    lines, line = [], head
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if line.strip() and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = "  " + piece
        else:
            line = f"{line} {piece}" if line else piece
    return lines + [line]


def totals_lines(results: list[CheckResult], tier: str | None = None,
                 wall: float | None = None, cpu: float | None = None,
                 width: int = WIDTH) -> list[str]:
    """The closing lines: the time taken (when given), the verdicts on the printed text,
    the errata by severity, and last the outcome totals (zero counts left out).

    Examples
    --------
    >>> from seprank.proof import Claim
    >>> from seprank.proof.framework import run_check
    >>> def body(ctx):
    ...     with ctx.step("1 < 2") as s:
    ...         s.require(1 < 2, "no")
    ...     ctx.conclude("holds", "proof", "evaluated", basis="exhaustive")
    >>> claim = Claim("claim", "1 < 2", "none", universal=False)
    >>> r = run_check(CheckSpec("demo", "a demo", "none", body, claim=claim))
    >>> for line in totals_lines([r, r], "fast", 1.25, 1.0):
    ...     print(line)
    2 checks (fast tier) in 1.2 s wall, 1.0 s CPU of this process
    verdicts on the printed text: verified 2
    errata: none
    2 checks: holds 2
    """
    n = len(results)
    checks = f"{n} check{'s' if n != 1 else ''}"
    lines = []
    if wall is not None:
        lines.append(f"{checks}{f' ({tier} tier)' if tier else ''} in {wall:.1f} s wall"
                     + (f", {cpu:.1f} s CPU of this process" if cpu is not None else ""))
    verdicts = Counter(r.verdict for r in results)
    lines += _wrap_items("verdicts on the printed text:",
                         [f"{v} {verdicts[v]}" for v in VERDICTS if verdicts[v]], width)
    severities = Counter(e.severity for r in results for e in r.errata)
    total = sum(severities.values())
    lines += _wrap_items(f"errata ({total}):" if total else "errata: none",
                         [f"{s} {severities[s]}" for s in SEVERITIES if severities[s]], width)
    outcomes = Counter(r.outcome for r in results)
    lines += _wrap_items(f"{checks}:", [f"{o} {outcomes[o]}" for o in OUTCOMES if outcomes[o]],
                         width)
    return lines


class ConsoleReporter(Reporter):
    """Prints a proof run as it goes (the levels of the module docstring), with a
    progress bar over the checks on a terminal.

    ``verbose`` (old spelling): level 2 when true, 1 when false; ``level`` wins.

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
      ok 2 + 2 = 4 [Levine et al. 2020 (l.1 of the bundled text)] ...s
          {"total": 4}
      => verified in ...s; claim open (none)
         why: the check does not conclude
    ...
    >>> out = io.StringIO()
    >>> console = Console(file=out, width=80, color_system=None, highlight=False)
    >>> _ = run_checks({"demo": CheckSpec("demo", "a demo", "Arithmetic", body)},
    ...                reporter=ConsoleReporter(console, level=0))
    >>> print(out.getvalue().splitlines()[1])
    demo  open             none       verified                     ...s
    """

    def __init__(self, console: Console | None = None, verbose: bool = True,
                 level: int | None = None):
        self.console = console or Console(highlight=False)
        self.level = (2 if verbose else 1) if level is None else level
        self.verbose = self.level >= 2
        self._progress: Progress | None = None
        self._task = None
        self._id_width = 12
        self._papers: dict = {}

    def start(self, ids: list[str], specs: dict[str, CheckSpec]) -> None:
        self._papers = papers_by_file(s.paper for s in specs.values() if s.paper is not None)
        self._id_width = min(max([len(i) for i in ids] or [2]), ID_MAX)
        if self.console.is_terminal:  # elsewhere a stopped bar would leave a blank line
            self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                      MofNCompleteColumn(), TimeElapsedColumn(),
                                      console=self.console, transient=True)
            self._progress.start()
            self._task = self._progress.add_task("checks", total=len(ids))
        if self.level == 0:
            head = f"{'id':<{self._id_width}}  {'outcome':<15}  {'strength':<9}  " \
                   f"{'verdict':<18}  {'errata':>6}  {'time':>6}"
            self.console.print(Text(head, style="bold"), soft_wrap=True)

    def _width(self) -> int:
        return min(self.console.width, WIDTH)

    def _print(self, text: str, indent: str = "", subsequent: str | None = None,
               style: str | None = None) -> None:
        wrapped = _wrap(text, indent, self._width(), subsequent)
        self.console.print(Text(wrapped, style=style or ""), soft_wrap=True)

    def _cite(self, source: str | None, spec_paper, name: bool = False) -> str:
        return render(source, self._papers, spec_paper, name=name)

    def check_started(self, spec: CheckSpec) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=f"{spec.id}")
        if self.level >= 1:
            self._print(f"{spec.id}: {spec.title}  ({self._cite(spec.source, None, True)})",
                        style="bold")

    def step_done(self, spec: CheckSpec, step: Step) -> None:
        if self.level < 1:
            return
        # Claims, sources and messages are plain text: printed as rich Text, never markup.
        mark = {PASSED: "ok", FAILED: "FAIL", INCONCLUSIVE: "??", ERROR: "ERROR"}.get(
            step.status, step.status)
        tag = " (corrected)" if step.corrected else ""
        cited = self._cite(step.source, spec.paper)
        source = f" [{cited}]" if cited else ""
        self._print(f"{mark}{tag} {step.claim}{source} {step.seconds:.2f}s", "  ", "      ")
        if step.message:
            self._print(f"note: {step.message}", "      ")
        scope = scope_text(step.scope, step.sizes, step.kind)
        if scope:
            self._print(f"evidence: {scope}", "      ", style="dim")
        if self.level >= 2:
            line = _evidence_line(step)
            if line:
                self._print(line, "      ", style="dim")

    def check_done(self, result: CheckResult) -> None:
        if self._progress is not None:
            self._progress.advance(self._task)
        if self.level == 0:
            self.console.print(check_line(result, self._id_width), soft_wrap=True)
        if self.level < 1:
            return
        for err in result.errata:
            where = self._cite(err.location, result.paper)
            self._print(f'erratum: {err.severity} at {where}: printed "{err.printed}"; '
                        f'corrected "{err.corrected}"', "  ", "      ", style="red")
        self.console.print(f"  => {_VERDICT[result.verdict]} in {result.seconds:.2f}s; "
                           f"claim [{_OUTCOME.get(result.outcome, 'white')}]"
                           f"{result.outcome}[/] ({result.strength})")
        if result.settled is not None:
            self._print(f"why: {result.settled.reason}", "     ", "     ", style="dim")
        self.console.print()

    def finish(self, results: list[CheckResult]) -> None:
        if self._progress is not None:
            self._progress.stop()
        if self.level >= 0:
            if self.level == 0:
                for line in _wrap(TABLE_FOOTER, "", self._width()).splitlines():
                    self.console.print(Text(line, style="dim"), soft_wrap=True)
                self.console.print()
            for line in summary_lines(results, self._width()):
                self.console.print(Text(line), soft_wrap=True)
