"""Checks, and how a check's verdict and outcome follow from its steps.

See the package docstring of :mod:`seprank.proof` for the model. This module
holds the check's context, spec and result and :func:`run_check`, which runs one
check body and collects its steps (:mod:`seprank.proof.steps`, re-exported here);
ordering many checks is :mod:`seprank.proof.runner`; the claim / erratum types are
:mod:`seprank.proof.claims` and the rules that settle an outcome
:mod:`seprank.proof.rules`.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from seprank.proof.claims import (
    Claim,
    Conclusion,
    Erratum,
    Settled,
    severity_rank,
)
from seprank.proof.rules import settle
from seprank.proof.statuses import (  # the vocabularies, re-exported here
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PASSED,
    REFUTED,
    STEP_STATUSES,
    VERDICTS,
    VERIFIED,
)
from seprank.proof.steps import Step, StepHandle

__all__ = ["VERDICTS", "STEP_STATUSES", "VERIFIED", "REFUTED", "INCONCLUSIVE", "PASSED", "FAILED",
           "ERROR", "Step", "StepHandle", "CheckContext", "CheckSpec", "CheckResult", "run_check"]


class _AbortCheck(Exception):
    """Raised after a step errored, to stop the rest of the check."""


class CheckContext:
    """Handed to every check body: makes steps and says which tier runs.

    Attributes
    ----------
    full : bool
        True for the full (slow, exhaustive) tier, False for the fast tier CI runs.

    Examples
    --------
    An exception inside a step marks it ``error`` and stops the check:

    >>> ctx = CheckContext()
    >>> with ctx.step("3 is prime") as s:
    ...     s.record(divisors=[1, 3])
    >>> try:
    ...     with ctx.step("division works"):
    ...         1 // 0
    ... except Exception:
    ...     print("check stopped")
    check stopped
    >>> [st.status for st in ctx.steps]
    ['passed', 'error']
    """

    def __init__(self, full: bool = False,
                 on_step: Callable[[Step], None] | None = None):
        self.full = full
        self.steps: list[Step] = []
        self._on_step = on_step
        self.conclusion: Conclusion | None = None

    @property
    def errata(self) -> list[Erratum]:
        """Every erratum recorded so far, in step order."""
        return [e for st in self.steps for e in st.errata]

    def find_step(self, ref: int | str | Step | None = None) -> Step:
        """A step of this check: by index, by the start of its claim, or the last one.

        Examples
        --------
        >>> ctx = CheckContext()
        >>> with ctx.step("first claim"):
        ...     pass
        >>> with ctx.step("second claim"):
        ...     pass
        >>> ctx.find_step("first").claim, ctx.find_step().claim, ctx.find_step(0).claim
        ('first claim', 'second claim', 'first claim')
        """
        if isinstance(ref, Step):
            return ref
        if not self.steps:
            raise ValueError("the check has no step yet")
        if ref is None:
            return self.steps[-1]
        if isinstance(ref, int):
            return self.steps[ref]
        found = [st for st in self.steps if st.claim.startswith(ref)]
        if len(found) != 1:
            raise ValueError(f"{len(found)} steps start with {ref!r}")
        return found[0]

    def failed(self, ref: int | str | Step | None = None) -> bool:
        """Whether a finished step (see :meth:`find_step`) failed."""
        return self.find_step(ref).status == FAILED

    def erratum(self, location: str, printed: str, corrected: str, severity: str, *,
                step: int | str | Step | None = None, verified_by: int | str | Step | None = None,
                message: str | None = None, **fields: Any) -> Erratum:
        """Record an erratum against a finished step (default: the last one).

        The same as ``s.erratum(...)`` inside the step (the step becomes *failed*;
        its evidence is the failing instance), for a body that decides what is
        wrong after the step ran, e.g. in closing lines. ``verified_by``: the
        step that checks the corrected text (it verifies the correction when it
        passed).

        Examples
        --------
        >>> ctx = CheckContext()
        >>> with ctx.step("display (12) as printed") as s:
        ...     s.record(lhs=3, rhs=4)
        >>> with ctx.step("display (12) corrected", corrected=True) as s:
        ...     s.record(lhs=3, rhs=3)
        >>> err = ctx.erratum("eq. (12)", "= 4", "= 3", "constant", step="display (12) as",
        ...                   verified_by="display (12) corrected")
        >>> ctx.steps[0].status, err.step, ctx.steps[1].verifies == [err]
        ('failed', 'display (12) as printed', True)
        """
        target = self.find_step(step)
        err = StepHandle(target).erratum(location, printed, corrected, severity,
                                         message=message, **fields)
        if verified_by is not None:
            self.find_step(verified_by).verifies.append(err)
        return err

    def conclude(self, outcome: str, strength: str, reason: str, *,
                 count: int | None = None, largest: dict[str, Any] | None = None,
                 binding: bool | None = None, basis: str | None = None,
                 reduction: str | None = None, own_argument: str | None = None,
                 argument_steps: tuple | list | None = None,
                 given: tuple | list = ()) -> None:
        """State the claim's outcome and the strength of the evidence (once, at the end).

        ``outcome``: ``holds``, ``holds-corrected``, ``false`` or ``open``;
        ``strength``: ``proof`` (name its ``basis``: ``identity``,
        ``exhaustive``, ``certificate`` or ``argument``), ``instances`` (give
        ``count``, ``largest`` sizes and ``binding``) or ``none``. ``reason``:
        one sentence a reader can check against the steps. ``reduction``: why an
        exhaustive finite range covers every case of a universal claim.
        ``own_argument``: why the claim holds even if a dependency is false (or
        differs from a claim it restates). ``argument_steps``: for basis
        ``argument``, the steps the argument consists of (indices or claim
        prefixes, as :meth:`find_step` takes them; default: every step); the
        report lists those verified only at some sizes. ``given``: ids of checks (among
        the declared ``depends``) whose claims the argument takes as given; the runner
        writes the "rests on" sentence from their outcomes in the same run and opens a
        conclusion resting on one that does not hold
        (:func:`seprank.proof.rules.apply_given`).
        The rules of :mod:`seprank.proof.rules` then decide what is reported.

        Examples
        --------
        >>> ctx = CheckContext()
        >>> ctx.conclude("open", "instances", "consistent on 3 instances", count=3,
        ...              largest={"N": 4}, binding=True)
        >>> ctx.conclusion.outcome, ctx.conclusion.binding
        ('open', True)
        """
        if self.conclusion is not None:
            raise ValueError("a check concludes once")
        chosen = None
        if argument_steps is not None:
            if isinstance(argument_steps, (str, int)):
                raise ValueError("argument_steps is a list of step indices or claim prefixes")
            chosen = tuple(sorted({self.steps.index(self.find_step(ref))
                                   for ref in argument_steps}))
        self.conclusion = Conclusion(outcome=outcome, strength=strength, reason=reason,
                                     count=count, largest=largest, binding=binding,
                                     basis=basis, reduction=reduction,
                                     own_argument=own_argument, argument_steps=chosen,
                                     given=tuple(given))

    @contextmanager
    def step(self, claim: str, source: str | None = None, *,
             corrected: bool = False, scope: str | None = None,
             sizes: str | None = None, kind: str | None = None) -> Iterator[StepHandle]:
        """Run one step. An exception inside marks it ``error`` and stops the check.

        ``scope``: for which sizes the step's computation verifies ``claim``:
        ``"all-sizes"`` (a symbolic identity with symbolic sizes, a general inequality
        proven symbolically, a finite claim checked exhaustively), ``"sizes"`` with
        the sizes verified (``sizes="L <= 3, H <= 2"``), or ``"instance"`` (one
        certified instance); default: not stated (see :mod:`seprank.proof.strength`).
        ``kind``: what kind of evidence the computation is (``symbolic``, ``exhaustive``,
        ``certificate``, ``computation``, ``prose``); a kind alone implies its scope, and
        scope ``all-sizes`` needs one.

        Examples
        --------
        >>> ctx = CheckContext()
        >>> with ctx.step("the recursion as an identity", scope="sizes", sizes="L <= 3") as s:
        ...     s.record(points=12)
        >>> ctx.steps[0].to_dict()["sizes"]
        'L <= 3'
        """
        step = Step(claim=claim, source=source, corrected=corrected, scope=scope, sizes=sizes,
                    kind=kind)
        handle = StepHandle(step)
        start = time.perf_counter()
        try:
            yield handle
        except _AbortCheck:
            raise
        except Exception as exc:  # a bug or an unexpected failure: record and stop
            step.status = ERROR
            step.message = f"{type(exc).__name__}: {exc}"
            step.evidence["traceback"] = traceback.format_exc(limit=8)
            raise _AbortCheck() from exc
        finally:
            step.seconds = time.perf_counter() - start
            self.steps.append(step)
            if self._on_step is not None:
                self._on_step(step)


@dataclass(frozen=True)
class CheckSpec:
    """A registered check: mission-map id, title, source and the body to run.

    Examples
    --------
    >>> spec = CheckSpec(id="demo", title="a demo", source="none", func=lambda ctx: None,
    ...                  depends=("base",))
    >>> spec.id, spec.depends
    ('demo', ('base',))
    """

    id: str
    title: str
    source: str
    func: Callable[[CheckContext], None]
    depends: tuple[str, ...] = ()
    claim: Claim | None = None
    #: figures drawn from this check's evidence in reports (seprank.proof.report.figures.Figure)
    figures: tuple[Any, ...] = ()
    #: the seprank.paper_hooks.paper_record.Paper whose claim the check decides (reports group
    #: by it)
    paper: Any = None


@dataclass
class CheckResult:
    """The result of one check: its steps, the verdict on the printed text, the outcome.

    ``verdict`` (verified / refuted / inconclusive) judges the printed text
    step by step; ``settled`` holds the claim's outcome and strength after the
    rules of :mod:`seprank.proof.claims`.

    Examples
    --------
    >>> steps = [Step("a", status=PASSED), Step("b", status=FAILED, message="b is false")]
    >>> res = CheckResult(id="demo", title="a demo", source="none",
    ...                   verdict=verdict_of(steps), steps=steps, seconds=0.0)
    >>> res.verdict, res.findings, len(res.counterexamples), res.outcome
    ('refuted', ['failed: b is false'], 1, 'open')
    """

    id: str
    title: str
    source: str
    verdict: str
    steps: list[Step]
    seconds: float
    depends: tuple[str, ...] = ()
    full: bool = False
    claim: Claim | None = None
    settled: Settled | None = None
    dependency_outcomes: dict[str, str] = field(default_factory=dict)
    #: the seprank.paper_hooks.paper_record.Paper of the check (None: no paper declared)
    paper: Any = None

    @property
    def paper_key(self) -> str | None:
        """The key of the check's paper (None without one), as the report writes it."""
        return getattr(self.paper, "key", None) or None

    @property
    def counterexamples(self) -> list[Step]:
        return [s for s in self.steps if s.status == FAILED]

    @property
    def errata(self) -> list[Erratum]:
        """The errata, most severe first (step order among equals)."""
        found = [e for s in self.steps for e in s.errata]
        return sorted(found, key=lambda e: severity_rank(e.severity))

    @property
    def outcome(self) -> str:
        return self.settled.outcome if self.settled is not None else "open"

    @property
    def strength(self) -> str:
        return self.settled.strength if self.settled is not None else "none"

    @property
    def violations(self) -> list[str]:
        return list(self.settled.violations) if self.settled is not None else []

    @property
    def findings(self) -> list[str]:
        """Most severe first: steps that raised, errata by severity, failed steps
        without an erratum, then undecided steps."""
        out = [f"error: {s.message or s.claim}" for s in self.steps if s.status == ERROR]
        out += [e.summary() for e in self.errata]
        out += [f"failed: {s.message or s.claim}" for s in self.steps
                if s.status == FAILED and not s.errata]
        out += [f"inconclusive: {s.message or s.claim}" for s in self.steps
                if s.status == INCONCLUSIVE]
        return out

    def __repr__(self) -> str:
        passed = sum(s.status == PASSED for s in self.steps)
        return (f"<CheckResult {self.id}: {self.verdict} ({passed}/{len(self.steps)} steps "
                f"passed); claim {self.outcome} ({self.strength}); {len(self.errata)} errata>")

    def _display(self) -> tuple[str, list[str], list[list[Any]]]:
        caption = (f"{self.id}: {self.title} -- claim {self.outcome} ({self.strength}), "
                   f"verdict {self.verdict}")
        rows = [[i, s.status + (" (corrected)" if s.corrected else ""), s.claim,
                 "; ".join(e.severity for e in s.errata) or "-", f"{s.seconds:.2f}"]
                for i, s in enumerate(self.steps, 1)]
        return caption, ["step", "status", "claim", "errata", "s"], rows

    def _repr_html_(self) -> str:
        """Jupyter's display: outcome and verdict in the caption, one row per step.

        >>> res = CheckResult("demo", "a demo", "none", "verified",
        ...                   [Step("1 < 2", status=PASSED)], 0.0)
        >>> res
        <CheckResult demo: verified (1/1 steps passed); claim open (none); 0 errata>
        >>> res._repr_html_()[:60]
        '<table><caption>demo: a demo -- claim open (none), verdict v'
        """
        from seprank._display import html_table

        return html_table(*self._display())

    def _repr_markdown_(self) -> str:
        """Markdown display: the same table as :meth:`_repr_html_`.

        >>> res = CheckResult("demo", "a demo", "none", "verified",
        ...                   [Step("1 < 2", status=PASSED)], 0.0)
        >>> print(res._repr_markdown_().splitlines()[-1])
        | 1 | passed | 1 < 2 | - | 0.00 |
        """
        from seprank._display import md_table

        return md_table(*self._display())

    def to_dict(self) -> dict[str, Any]:
        settled = self.settled or Settled("open", "none", "not settled")
        out = {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "paper": self.paper_key,
            "claim": self.claim.to_dict() if self.claim is not None else None,
            "verdict": self.verdict,
            **settled.to_dict(),
            "errata": [e.to_dict() for e in self.errata],
            "tier": "full" if self.full else "fast",
            "depends": list(self.depends),
            "dependency_outcomes": dict(self.dependency_outcomes),
            "findings": self.findings,
            "steps": [s.to_dict() for s in self.steps],
            "seconds": round(self.seconds, 6),
        }
        return out


def verdict_of(steps: list[Step]) -> str:
    """The verdict that follows from the steps.

    Any failed step refutes the check (a printed statement that fails stays a
    refutation even when a corrected statement passes in a later step). With no
    failure, an errored or undecided step leaves it inconclusive; a check with
    no steps at all is inconclusive too.

    Examples
    --------
    >>> verdict_of([Step("a"), Step("b")]), verdict_of([])
    ('verified', 'inconclusive')
    >>> verdict_of([Step("a", status=INCONCLUSIVE), Step("b", status=FAILED)])
    'refuted'
    """
    statuses = {s.status for s in steps}
    if FAILED in statuses:
        return REFUTED
    if not steps or ERROR in statuses or INCONCLUSIVE in statuses:
        return INCONCLUSIVE
    return VERIFIED


def run_check(spec: CheckSpec, *, full: bool = False,
              on_step: Callable[[Step], None] | None = None) -> CheckResult:
    """Run one check body and return its result (never raises for a failing step).

    Examples
    --------
    >>> def body(ctx):
    ...     with ctx.step("4 is a square") as s:
    ...         s.require(2 * 2 == 4, "it is not")
    ...     with ctx.step("5 is a square") as s:
    ...         s.require(any(k * k == 5 for k in range(6)), "no k with k^2 = 5")
    >>> res = run_check(CheckSpec(id="squares", title="squares", source="none", func=body))
    >>> res.verdict, [s.status for s in res.steps]
    ('refuted', ['passed', 'failed'])
    """
    ctx = CheckContext(full=full, on_step=on_step)
    start = time.perf_counter()
    try:
        spec.func(ctx)
    except _AbortCheck:
        pass
    except Exception as exc:  # raised outside any step
        step = Step(claim="(check body outside any step)", status=ERROR,
                    message=f"{type(exc).__name__}: {exc}",
                    evidence={"traceback": traceback.format_exc(limit=8)})
        ctx.steps.append(step)
        if on_step is not None:
            on_step(step)
    seconds = time.perf_counter() - start
    for step in ctx.steps:  # a correction is verified by a step that passed
        for err in step.verifies:
            if step.status == PASSED:
                err.verified = True
                err.verified_by.append(step.claim)
    settled = settle(spec.claim, ctx.conclusion, ctx.steps, ctx.errata)
    return CheckResult(id=spec.id, title=spec.title, source=spec.source,
                       verdict=verdict_of(ctx.steps), steps=ctx.steps,
                       seconds=seconds, depends=spec.depends, full=full,
                       claim=spec.claim, settled=settled, paper=spec.paper)
