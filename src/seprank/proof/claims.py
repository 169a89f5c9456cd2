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
  infinite family (all N, all weights, ...), so no finite sample decides it;
  ``asymptotic=True`` that it is a rate or a limit (O~(...), "as L -> infinity"),
  which no finite instance decides either way; ``restates=("L-Thm2",)`` that it
  says again what those checks decide (their ``false`` becomes its ``false``).
* **Run steps** with ``ctx.step(claim, source, scope=..., sizes=...)``: the scope
  says for which sizes the step's computation verifies its statement
  (``all-sizes``, ``sizes`` with the sizes listed, or ``instance``; see
  :mod:`seprank.proof.strength`). A smallest failing size is recorded with
  ``s.least(name, value, proven_by=...)``: "least" only with the exhaustive search
  that proves it, else "least found".
* **Record an erratum** inside the step whose computation shows it:
  ``s.erratum(location, printed, corrected, severity, ...)``. This marks the
  step *failed* (a proof failure is always a failed step plus an erratum, never
  a note inside a passed step) and returns the :class:`Erratum`. A later step
  that checks the corrected text calls ``s.verifies(err)``: the correction
  counts as verified when that step passes. (``verified=True`` at creation says
  the same step's evidence already verifies the correction.) ``anchor`` names
  what the cited lines show (``"(19)"``, ``"Lemma 4"``), ``slip`` the kind of
  slip (:data:`SLIPS`), ``correction_id`` a correction shared with other errata.
* A displayed equality of a proof is checked as an identity of functions with
  ``s.identity(name, lhs, rhs, points)`` (both sides exactly at the points);
  when it fails, record the erratum in the same step. A body that decides
  after the fact (e.g. in closing lines) uses ``ctx.erratum(..., step=...,
  verified_by=...)`` against a finished step instead.
* **Conclude** once, at the end of the body: ``ctx.conclude(outcome, strength,
  reason, count=..., largest=..., binding=..., basis=..., argument_steps=...)``.

The rules that turn a conclusion into the reported outcome are
:mod:`seprank.proof.rules` (:func:`~seprank.proof.rules.settle`).

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
    "SLIPS",
    "Conclusion",
    "Settled",
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

#: the kinds of slip an erratum may be tagged with (``Erratum(slip=...)``): errata of the
#: same kind and the same effect carry the same severity (docs/checks.md, "Severity of a slip")
SLIPS = {
    "index": "a wrong index, subscript or superscript",
    "range": "a wrong range of a sum, product or index",
    "sign": "a wrong sign",
    "constant": "a wrong constant or factor",
    "direction": "an inequality or inclusion the wrong way round",
    "order": "factors or operations in the wrong order",
    "symbol": "one symbol written for another",
    "term": "a term or factor missing or extra",
}


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
    quantifies over an infinite family (then no sample of instances decides it);
    ``asymptotic`` is True when the statement is a rate or a limit (O~(...), "as
    L -> infinity"): finite instances neither prove nor refute it, so ``false``
    needs an argument whose steps hold for all sizes; ``restates``: the ids of the
    checks whose claims this one states again (a ``false`` there makes this one
    ``false``, see :func:`seprank.proof.rules.apply_restatements`).

    Examples
    --------
    >>> c = Claim("theorem", "sep <= (H(d_a+1))^C(L)", "levine2020 l.380", main_result=True)
    >>> c.to_dict()["kind"], c.universal, c.asymptotic
    ('theorem', True, False)
    >>> Claim("claim", "log sep = O(L)", "notes l.3", restates=("W-Thm1",)).to_dict()["restates"]
    ['W-Thm1']
    >>> Claim("guess", "x", "y")
    Traceback (most recent call last):
    ...
    ValueError: claim kind 'guess' is not one of theorem, lemma, corollary, proposition, \
claim, remark, proof-step, definition
    >>> Claim("claim", "x = O(L)", "y", universal=False, asymptotic=True)
    Traceback (most recent call last):
    ...
    ValueError: an asymptotic claim (a rate or a limit) is universal
    """

    kind: str
    statement: str
    source: str
    main_result: bool = False
    universal: bool = True
    asymptotic: bool = False
    restates: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in CLAIM_KINDS:
            raise ValueError(f"claim kind {self.kind!r} is not one of {', '.join(CLAIM_KINDS)}")
        for name in ("main_result", "universal", "asymptotic"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"Claim.{name} is True or False")
        if self.asymptotic and not self.universal:
            raise ValueError("an asymptotic claim (a rate or a limit) is universal")
        if isinstance(self.restates, str) or not all(
                isinstance(r, str) and r for r in self.restates):
            raise ValueError("restates is a tuple of check ids, e.g. ('L-Thm2',)")
        object.__setattr__(self, "restates", tuple(self.restates))

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "main_result": self.main_result,
               "statement": self.statement, "source": self.source,
               "universal": self.universal, "asymptotic": self.asymptotic}
        if self.restates:
            out["restates"] = list(self.restates)
        return out


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
    ``anchor``: a short token the cited lines contain (an equation number ``"(19)"``,
    ``"Lemma 4"``, a symbol), checked by :func:`seprank.proof.errata.audit.locate_errata`.
    ``slip``: the kind of slip (a key of :data:`SLIPS`), for the severity rule.
    ``correction_id``: names a correction several errata share; one verified copy
    verifies the others (:func:`seprank.proof.rules.share_verified_corrections`, which
    also matches equal ``corrected`` texts).

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
    >>> Erratum("l.9 (eq. (3))", "i", "j", "notation", anchor="(3)", slip="index").to_dict()["slip"]
    'index'
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
    anchor: str | None = None
    slip: str | None = None
    correction_id: str | None = None

    def __post_init__(self) -> None:
        self._check_tags()
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

    def _check_tags(self) -> None:
        if self.slip is not None and self.slip not in SLIPS:
            raise ValueError(f"erratum slip {self.slip!r} is not one of {', '.join(SLIPS)}")
        for name in ("anchor", "correction_id"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise ValueError(f"an erratum's {name} is a non-empty string")

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
        for name in ("anchor", "slip", "correction_id"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
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
    #: 0-based indices of the steps the argument consists of (None: every step)
    argument_steps: tuple[int, ...] | None = None
    #: ids of the checks whose outcomes this conclusion takes as given (the runner reads
    #: them in the same run: :func:`seprank.proof.rules.apply_given`)
    given: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.given, str) or not all(isinstance(g, str) and g for g in self.given):
            raise ValueError("given is a tuple of check ids, e.g. ('L-Omega',)")
        self.given = tuple(self.given)
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
    #: for basis ``argument``: the passed steps of the argument not verified for all
    #: sizes (:func:`seprank.proof.strength.steps_at_sizes`); None for other bases
    steps_at_sizes: list[dict[str, Any]] | None = None
    #: outcomes of the checks the claim restates (set by the runner)
    restated_outcomes: dict[str, str] = field(default_factory=dict)
    #: ids of the checks the conclusion takes as given, and (set by the runner) what each
    #: of them settled to in the same run, in words (:func:`seprank.proof.rules.apply_given`)
    given: tuple[str, ...] = ()
    given_outcomes: dict[str, str] = field(default_factory=dict)
    #: for basis ``argument``: how many all-sizes steps of the argument are of each
    #: evidence kind (:func:`seprank.proof.strength.argument_kinds`)
    argument_kinds: dict[str, int] | None = None

    @property
    def all_sizes(self) -> bool:
        """True for an argument every step of which holds for all sizes.

        >>> Settled("holds", "proof", "x", basis="argument", steps_at_sizes=[]).all_sizes
        True
        >>> Settled("holds", "proof", "x", basis="argument",
        ...         steps_at_sizes=[{"step": 2, "scope": "sizes"}]).all_sizes
        False
        """
        return (self.strength == PROOF and self.basis == "argument"
                and self.steps_at_sizes is not None and not self.steps_at_sizes)

    def to_dict(self) -> dict[str, Any]:
        out = {"outcome": self.outcome, "strength": self.strength, "reason": self.reason,
               "binding": self.binding, "basis": self.basis,
               "requested_outcome": self.requested, "violations": list(self.violations)}
        out["instances"] = (None if self.count is None
                            else {"count": self.count, "largest": jsonable(self.largest or {})})
        if self.own_argument:
            out["own_argument"] = self.own_argument
        if self.steps_at_sizes is not None:
            out["steps_at_sizes"] = [dict(e) for e in self.steps_at_sizes]
        if self.restated_outcomes:
            out["restated_outcomes"] = dict(self.restated_outcomes)
        if self.given:
            out["given"] = list(self.given)
            out["given_outcomes"] = dict(self.given_outcomes)
        if self.argument_kinds is not None:
            out["argument_kinds"] = dict(self.argument_kinds)
        return out
