"""What a check says about its claim: outcome, strength, errata, and the rules.

A check answers two questions that must never be confused (see the top of
``../shared/MISSION_MAP.md``):

1. **What happens to the claim** (its *outcome*): ``holds`` as printed;
   ``holds-corrected`` (false as printed; a minimal correction is stated and
   verified); ``false`` (no reasonable reading saves it; a counterexample is
   attached); ``open`` (not decided). With a *strength*: ``proof`` (a symbolic
   identity, an exhaustive finite check of a finite claim, a certificate, or an
   argument the check states and verifies), ``instances`` (how many, the largest
   sizes, and ``binding``: whether at least one tested instance could have
   violated the claim), or ``none``.
2. **What is wrong with the printed text** (its *errata*), each with a severity
   in ``false-statement``, ``missing-hypothesis``, ``proof-error``, ``constant``,
   ``notation``.

How a check declares, records and concludes
-------------------------------------------
* **Declare** the claim in the decorator: ``@check(ID, title=..., source=...,
  claim=Claim(kind, statement, source, main_result=..., universal=...))``.
  ``universal=True`` (the default) means the statement quantifies over an
  infinite family (all N, all weights, ...), so no finite sample decides it.
* **Record an erratum** inside the step whose computation shows it:
  ``s.erratum(location, printed, corrected, severity, ...)``. This marks the
  step *failed* (a proof failure is always a failed step plus an erratum, never
  a note inside a passed step) and returns the :class:`Erratum`. A later step
  that checks the corrected text calls ``s.verifies(err)``: the correction
  counts as verified when that step passes. (``verified=True`` at creation says
  the same step's evidence already verifies the correction.)
* A displayed equality of a proof is checked as an identity of functions with
  ``s.identity(name, lhs, rhs, points)`` (both sides exactly at the points);
  when it fails, record the erratum in the same step. A body that decides
  after the fact (e.g. in closing lines) uses ``ctx.erratum(..., step=...,
  verified_by=...)`` against a finished step instead.
* **Conclude** once, at the end of the body: ``ctx.conclude(outcome, strength,
  reason, count=..., largest=..., binding=..., basis=...)``.

The rules (applied by :func:`settle`; a rule that changes what the check asked
for is listed in ``violations``, and the outcome becomes what the rule allows):

* sampling never gives ``holds`` for a universal claim: ``holds`` with strength
  ``instances`` (or ``none``) becomes ``open`` ("consistent on N instances");
* strength ``proof`` names its ``basis`` (``identity``, ``exhaustive``,
  ``certificate``, ``argument``); ``exhaustive`` counts as a proof only for a
  claim with ``universal=False`` or with a ``reduction`` (why the finite range
  covers every case); otherwise it is instance evidence;
* basis ``argument`` means: the conclusion's ``reason`` states a general
  argument (valid for every case of the claim), and every step of it is a
  step of the check that verifies it exactly (symbolically, or at instances
  where a symbolic check is out of reach); sampling the claim itself is not an
  argument;
* strength ``instances`` needs ``count >= 1`` and ``binding`` (True/False);
* ``holds`` is impossible with an erratum in the statement (``in_statement``):
  the printed statement is then false, at best ``holds-corrected``;
* ``holds-corrected`` needs at least one verified correction of an erratum in
  the statement;
* ``false`` needs a counterexample: a failed step with evidence, covered by a
  ``false-statement`` erratum in the statement;
* every failed step is covered by an erratum; a step that raised leaves the
  claim ``open``;
* a dependency whose outcome is ``false`` blocks ``holds``/``holds-corrected``
  unless the conclusion records ``own_argument`` (applied by the runner, see
  :func:`apply_dependencies`).

Example
-------
>>> from seprank.proof import CheckSpec, run_check
>>> claim = Claim("lemma", "n^2 >= n for every integer n", "demo l.1")
>>> def body(ctx):
...     with ctx.step("n^2 >= n for |n| <= 50", source="demo l.1") as s:
...         s.record(cases=101)
...         s.require(all(n * n >= n for n in range(-50, 51)), "no")
...     ctx.conclude("holds", "instances", "sampled", count=101,
...                  largest={"n": 50}, binding=False)
>>> res = run_check(CheckSpec("demo", "demo", "demo", body, claim=claim))
>>> res.outcome, res.strength, res.violations[0].split(":")[0]
('open', 'instances', 'sampling never gives holds for a universal claim')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seprank.proof.evidence import jsonable
from seprank.proof.statuses import ERROR, FAILED

__all__ = [
    "CLAIM_KINDS",
    "OUTCOMES",
    "STRENGTHS",
    "SEVERITIES",
    "BASES",
    "HOLDS",
    "HOLDS_CORRECTED",
    "FALSE",
    "OPEN",
    "PROOF",
    "INSTANCES",
    "NONE",
    "Claim",
    "Erratum",
    "Conclusion",
    "Settled",
    "settle",
    "apply_dependencies",
    "severity_rank",
]

CLAIM_KINDS = ("theorem", "lemma", "corollary", "proposition", "claim", "remark",
               "proof-step", "definition")

HOLDS = "holds"
HOLDS_CORRECTED = "holds-corrected"
FALSE = "false"
OPEN = "open"
OUTCOMES = (HOLDS, HOLDS_CORRECTED, FALSE, OPEN)

PROOF = "proof"
INSTANCES = "instances"
NONE = "none"
STRENGTHS = (PROOF, INSTANCES, NONE)

#: what a proof-strength conclusion rests on
BASES = ("identity", "exhaustive", "certificate", "argument")

#: most severe first
SEVERITIES = ("false-statement", "missing-hypothesis", "proof-error", "constant", "notation")


def severity_rank(severity: str) -> int:
    """0 for the most severe (``false-statement``) up to 4 (``notation``).

    Examples
    --------
    >>> sorted(["notation", "false-statement", "constant"], key=severity_rank)
    ['false-statement', 'constant', 'notation']
    """
    return SEVERITIES.index(severity)


@dataclass(frozen=True)
class Claim:
    """The claim a check decides, as printed (in our words) with its source lines.

    ``kind`` is one of :data:`CLAIM_KINDS`; ``main_result`` is True for the
    papers' theorems and corollaries; ``universal`` is True when the statement
    quantifies over an infinite family (then no sample of instances decides it).

    Examples
    --------
    >>> c = Claim("theorem", "sep <= (H(d_a+1))^C(L)", "levine2020 l.380", main_result=True)
    >>> c.to_dict()["kind"], c.universal
    ('theorem', True)
    >>> Claim("guess", "x", "y")
    Traceback (most recent call last):
    ...
    ValueError: claim kind 'guess' is not one of theorem, lemma, corollary, proposition, \
claim, remark, proof-step, definition
    """

    kind: str
    statement: str
    source: str
    main_result: bool = False
    universal: bool = True

    def __post_init__(self) -> None:
        if self.kind not in CLAIM_KINDS:
            raise ValueError(f"claim kind {self.kind!r} is not one of {', '.join(CLAIM_KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "main_result": self.main_result,
                "statement": self.statement, "source": self.source,
                "universal": self.universal}


@dataclass
class Erratum:
    """One thing wrong with the printed text, with its correction.

    ``location``: line and equation; ``printed`` / ``corrected``: the text as
    printed and as it should read; ``severity``: one of :data:`SEVERITIES`.
    ``in_statement``: the erratum is in the claim's statement itself (default:
    True for ``false-statement`` and ``missing-hypothesis``, False otherwise).
    ``hypothesis``: the hypothesis a ``missing-hypothesis`` erratum adds.
    ``survives`` / ``repair``: for a ``proof-error``, True with the repaired
    argument that saves the statement, or False when no repaired argument is
    shown (the statement is then open or false, as the conclusion says).
    ``instance``: the failing instance.
    ``verified``: the correction is verified (see :meth:`StepHandle.verifies`).

    Examples
    --------
    >>> e = Erratum("l.56", "W_1 W_2", "W_2 W_1", "proof-error", survives=True,
    ...             repair="reverse the order of the products", instance={"L": 2})
    >>> e.in_statement, e.to_dict()["severity"]
    (False, 'proof-error')
    >>> Erratum("l.1", "a", "b", "missing-hypothesis")
    Traceback (most recent call last):
    ...
    ValueError: a missing-hypothesis erratum names the hypothesis (hypothesis=...)
    """

    location: str
    printed: str
    corrected: str
    severity: str
    in_statement: bool | None = None
    hypothesis: str | None = None
    survives: bool | None = None
    repair: str | None = None
    instance: Any = None
    verified: bool = False
    step: str | None = None
    verified_by: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"erratum severity {self.severity!r} is not one of "
                             f"{', '.join(SEVERITIES)}")
        if self.in_statement is None:
            self.in_statement = self.severity in ("false-statement", "missing-hypothesis")
        if self.severity == "missing-hypothesis" and not self.hypothesis:
            raise ValueError("a missing-hypothesis erratum names the hypothesis (hypothesis=...)")
        if self.severity == "proof-error":
            if self.survives is None:
                raise ValueError("a proof-error erratum says whether the statement survives "
                                 "(survives=True/False)")
            if self.survives and not self.repair:
                raise ValueError("a proof-error whose statement survives names the repaired "
                                 "argument (repair=...)")
        if not isinstance(self.verified_by, list):
            raise ValueError("verified_by is the list of passing steps that verify the "
                             "correction (use StepHandle.verifies or ctx.erratum(verified_by=))")
        for name in ("location", "printed", "corrected"):
            if not getattr(self, name):
                raise ValueError(f"an erratum needs a non-empty {name}")

    def summary(self) -> str:
        """One line: severity, location, printed and corrected text.

        Examples
        --------
        >>> Erratum("eq. (7)", "d = w d", "d' = w d", "notation").summary()
        'notation (eq. (7)): printed "d = w d"; corrected "d\\' = w d"'
        """
        return f'{self.severity} ({self.location}): printed "{self.printed}"; ' \
               f'corrected "{self.corrected}"'

    def to_dict(self) -> dict[str, Any]:
        out = {"location": self.location, "printed": self.printed,
               "corrected": self.corrected, "severity": self.severity,
               "in_statement": bool(self.in_statement), "verified": bool(self.verified),
               "instance": jsonable(self.instance), "step": self.step}
        if self.hypothesis:
            out["hypothesis"] = self.hypothesis
        if self.severity == "proof-error":
            out["survives"] = self.survives
            out["repair"] = self.repair
        if self.verified_by:
            out["verified_by"] = list(self.verified_by)
        return out


@dataclass
class Conclusion:
    """What a check body concludes about its claim (before the rules apply).

    Made by :meth:`CheckContext.conclude`; see the module docstring for the
    fields' meaning.

    Examples
    --------
    >>> Conclusion("holds", "proof", "a symbolic identity", basis="identity").basis
    'identity'
    >>> Conclusion("fine", "proof", "x")
    Traceback (most recent call last):
    ...
    ValueError: outcome 'fine' is not one of holds, holds-corrected, false, open
    """

    outcome: str
    strength: str
    reason: str
    count: int | None = None
    largest: dict[str, Any] | None = None
    binding: bool | None = None
    basis: str | None = None
    reduction: str | None = None
    own_argument: str | None = None

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome {self.outcome!r} is not one of {', '.join(OUTCOMES)}")
        if self.strength not in STRENGTHS:
            raise ValueError(f"strength {self.strength!r} is not one of "
                             f"{', '.join(STRENGTHS)}")
        if self.basis is not None and self.basis not in BASES:
            raise ValueError(f"basis {self.basis!r} is not one of {', '.join(BASES)}")
        if not self.reason:
            raise ValueError("a conclusion states its reason")


@dataclass
class Settled:
    """The outcome after the rules: what the report shows.

    Examples
    --------
    >>> Settled("open", "none", "no conclusion").to_dict()["binding"] is None
    True
    """

    outcome: str
    strength: str
    reason: str
    binding: bool | None = None
    count: int | None = None
    largest: dict[str, Any] | None = None
    basis: str | None = None
    own_argument: str | None = None
    requested: str | None = None
    violations: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = {"outcome": self.outcome, "strength": self.strength, "reason": self.reason,
               "binding": self.binding, "basis": self.basis,
               "requested_outcome": self.requested, "violations": list(self.violations)}
        out["instances"] = (None if self.count is None
                            else {"count": self.count, "largest": jsonable(self.largest or {})})
        if self.own_argument:
            out["own_argument"] = self.own_argument
        return out


def _downgrade(s: Settled, outcome: str, why: str) -> None:
    if s.outcome != outcome:
        s.violations.append(why)
        s.outcome = outcome


def settle(claim: Claim | None, conclusion: Conclusion | None, steps: list,
           errata: list[Erratum]) -> Settled:
    """Apply the rules of the module docstring to a check's conclusion.

    ``steps`` are the check's :class:`~seprank.proof.framework.Step` objects (a
    status, evidence and the errata they carry).

    Examples
    --------
    ``holds-corrected`` without a verified correction is not allowed:

    >>> from seprank.proof.framework import Step
    >>> err = Erratum("l.3", "x > 0", "x >= 0", "false-statement")
    >>> failed = Step("printed", status="failed", evidence={"x": 0}, errata=[err])
    >>> c = Conclusion("holds-corrected", "proof", "x = 0 is allowed", basis="argument")
    >>> s = settle(Claim("lemma", "x > 0", "l.3"), c, [failed], [err])
    >>> s.outcome, s.violations
    ('open', ['holds-corrected needs a verified correction of an erratum in the statement'])
    """
    if conclusion is None:
        return Settled(OPEN, NONE, "the check does not conclude",
                       violations=["the check body does not call ctx.conclude(...)"])
    c = conclusion
    s = Settled(c.outcome, c.strength, c.reason, binding=c.binding, count=c.count,
                largest=c.largest, basis=c.basis, own_argument=c.own_argument,
                requested=c.outcome)
    universal = claim.universal if claim is not None else True
    if claim is None:
        s.violations.append("the check declares no claim (@check(..., claim=Claim(...)))")

    # strength: what evidence of each kind must say
    if s.strength == PROOF:
        if s.basis is None:
            s.violations.append("strength proof names its basis")
            s.strength = INSTANCES if s.count else NONE
        elif s.basis == "exhaustive" and universal and not c.reduction:
            s.violations.append("an exhaustive check of a universal claim is instance evidence "
                                "unless a reduction says why the range covers every case")
            s.strength = INSTANCES
            if s.binding is None:
                s.binding = True
    if s.strength == INSTANCES:
        if not s.count or s.count < 1:
            s.violations.append("instance evidence states how many instances (count >= 1)")
        if s.binding is None:
            s.violations.append("instance evidence states whether it is binding")
            s.binding = False
    if s.strength != INSTANCES and s.strength != PROOF:
        s.binding = None

    failed = [st for st in steps if st.status == FAILED]
    uncovered = [st for st in failed if not st.errata]
    for st in uncovered:
        s.violations.append(f"failed step without an erratum: {st.claim[:80]}")
    in_statement = [e for e in errata if e.in_statement]

    if any(st.status == ERROR for st in steps):
        _downgrade(s, OPEN, "a step raised: the claim stays open")
        s.strength = NONE if s.strength == PROOF else s.strength
        return s
    if uncovered and s.outcome != OPEN:
        _downgrade(s, OPEN, "a failed step is not covered by an erratum")
    if s.outcome == HOLDS:
        if universal and s.strength != PROOF:
            n = s.count or 0
            _downgrade(s, OPEN, f"sampling never gives holds for a universal claim: "
                                f"consistent on {n} instances")
        elif s.strength == NONE:
            _downgrade(s, OPEN, "holds needs evidence")
        if s.outcome == HOLDS and in_statement:
            _downgrade(s, OPEN, "holds is impossible with an erratum in the statement "
                                "(at best holds-corrected)")
    if s.outcome == HOLDS_CORRECTED:
        if not any(e.verified for e in in_statement):
            _downgrade(s, OPEN, "holds-corrected needs a verified correction of an erratum "
                                "in the statement")
        elif universal and s.strength != PROOF:
            _downgrade(s, OPEN, f"sampling never gives holds-corrected for a universal claim: "
                                f"consistent on {s.count or 0} instances")
    if s.outcome == FALSE:
        ok = any(st.evidence and any(e.severity == "false-statement" and e.in_statement
                                     for e in st.errata) for st in failed)
        if not ok:
            _downgrade(s, OPEN, "false needs a counterexample: a failed step with evidence "
                                "and a false-statement erratum in the statement")
    return s


def apply_dependencies(settled: Settled, dependency_outcomes: dict[str, str]) -> Settled:
    """Block ``holds``/``holds-corrected`` when a dependency is ``false``.

    Unless the conclusion records ``own_argument`` (the check's own reason the
    claim holds without the false dependency), the outcome becomes ``open``.

    Examples
    --------
    >>> s = Settled("holds", "proof", "by Lemma 2", basis="argument")
    >>> apply_dependencies(s, {"L-Lemma2": "false"}).outcome
    'open'
    >>> s = Settled("holds", "proof", "by Lemma 2", basis="argument",
    ...             own_argument="a direct count, not Lemma 2")
    >>> apply_dependencies(s, {"L-Lemma2": "false"}).outcome
    'holds'
    """
    bad = sorted(d for d, o in dependency_outcomes.items() if o == FALSE)
    if bad and settled.outcome in (HOLDS, HOLDS_CORRECTED) and not settled.own_argument:
        _downgrade(settled, OPEN, f"relies on {', '.join(bad)}, whose outcome is false, and "
                                  "records no argument of its own")
    return settled
