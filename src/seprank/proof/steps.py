"""A check's steps: what one step states, the evidence it records, and its handle.

A step (:class:`Step`) states a claim with its source, runs inside ``with
ctx.step(...) as s`` (:meth:`seprank.proof.framework.CheckContext.step`) and ends
*passed*, *failed*, *inconclusive* or *error*. The body talks to it through a
:class:`StepHandle`: ``s.record`` (evidence), ``s.require`` / ``s.fail``,
``s.erratum`` (what is wrong with the printed text), ``s.identity`` (a displayed
equality as an identity of functions), ``s.verifies`` (this step checks a corrected
text), ``s.least`` (a smallest failing size: least or least found) and
``s.set_scope`` / ``s.set_kind`` (what kind of evidence the step's computation is, and
for which sizes it verifies the claim; see :mod:`seprank.proof.strength`) and
``s.could_fail`` (a symbolic identity checked together with the changes of its data
under which it fails: the evidence that it could have failed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from seprank.proof.claims import Erratum
from seprank.proof.evidence import jsonable
from seprank.proof.statuses import FAILED, INCONCLUSIVE, PASSED
from seprank.proof.strength import (
    SYMBOLIC,
    check_scope,
    kind_of_scope,
    least_record,
    scope_of_kind,
)

__all__ = ["Step", "StepHandle"]


@dataclass
class Step:
    """One step of a check: a claim, its source, the evidence and a status.

    ``corrected`` marks a step that checks a corrected version of a statement
    whose printed form failed in an earlier step of the same check. ``kind``: what kind of
    evidence the step's computation is (symbolic, exhaustive, certificate, computation,
    prose); ``scope`` and ``sizes``: for which sizes it verifies its claim
    (:mod:`seprank.proof.strength`; None: not stated; a kind alone implies its scope);
    ``least``: the smallest failing sizes the step records (:meth:`StepHandle.least`).

    Examples
    --------
    >>> from fractions import Fraction
    >>> step = Step("1/2 + 1/2 = 1", source="arithmetic", evidence={"sum": Fraction(2, 2)})
    >>> step.status, step.to_dict()["evidence"]
    ('passed', {'sum': 1})
    >>> d = Step("x^2 - y^2 = (x - y)(x + y)", kind="symbolic").to_dict()
    >>> d["scope"], d["kind"]
    ('all-sizes', 'symbolic')
    >>> Step("the bound at L <= 3", scope="sizes", sizes="L <= 3").to_dict()["kind"]
    'computation'
    """

    claim: str
    source: str | None = None
    status: str = PASSED
    evidence: dict[str, Any] = field(default_factory=dict)
    message: str | None = None
    corrected: bool = False
    seconds: float = 0.0
    errata: list[Erratum] = field(default_factory=list)
    verifies: list[Erratum] = field(default_factory=list)
    scope: str | None = None
    sizes: str | None = None
    least: list[dict[str, Any]] = field(default_factory=list)
    kind: str | None = None

    def __post_init__(self) -> None:
        self.scope = scope_of_kind(self.kind, self.scope, self.sizes)
        check_scope(self.scope, self.sizes, self.kind)
        self.kind = kind_of_scope(self.scope, self.kind)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "claim": self.claim,
            "source": self.source,
            "status": self.status,
            "evidence": jsonable(self.evidence),
            "seconds": round(self.seconds, 6),
        }
        if self.message:
            out["message"] = self.message
        if self.corrected:
            out["corrected"] = True
        if self.errata:
            out["errata"] = [e.to_dict() for e in self.errata]
        if self.scope is not None:
            out["scope"] = self.scope
        if self.kind is not None:
            out["kind"] = self.kind
        if self.sizes is not None:
            out["sizes"] = self.sizes
        if self.least:
            out["least"] = [jsonable(r) for r in self.least]
        return out


class StepHandle:
    """What a check body talks to inside ``with ctx.step(...) as s``.

    Examples
    --------
    >>> s = StepHandle(Step("2 is odd"))
    >>> s.require(2 % 2 == 1, "2 is even", remainder=0)
    False
    >>> s.failed, s.step.message, s.step.evidence
    (True, '2 is even', {'remainder': 0})
    """

    def __init__(self, step: Step):
        self._step = step

    @property
    def step(self) -> Step:
        return self._step

    def record(self, **evidence: Any) -> None:
        """Add named evidence (numbers, shapes, rank results, certificates)."""
        self._step.evidence.update(evidence)

    def fail(self, message: str, **evidence: Any) -> None:
        """Mark the step failed: the claim does not hold; evidence = counterexample."""
        self._step.evidence.update(evidence)
        self._step.status = FAILED
        self._step.message = message if not self._step.message else (
            self._step.message + "; " + message)

    def require(self, condition: Any, message: str, **evidence: Any) -> bool:
        """Fail the step with ``message`` (and the evidence) unless ``condition`` holds."""
        if not condition:
            self.fail(message, **evidence)
            return False
        return True

    def inconclusive(self, message: str, **evidence: Any) -> None:
        """Mark the step undecided (a limit was hit, only a float answer exists, ...)."""
        self._step.evidence.update(evidence)
        if self._step.status == PASSED:
            self._step.status = INCONCLUSIVE
        self._step.message = message

    def erratum(self, location: str, printed: str, corrected: str, severity: str, *,
                message: str | None = None, **fields: Any) -> Erratum:
        """Record what is wrong with the printed text; this step becomes *failed*.

        The arguments are those of :class:`~seprank.proof.claims.Erratum`
        (``in_statement``, ``hypothesis``, ``survives``, ``repair``,
        ``instance``, ``verified``). ``instance`` defaults to the step's recorded
        ``counterexample`` (or ``smallest_counterexample``, ``smallest_instance``).
        ``message`` is the step's note (default: the erratum's summary).
        Returns the erratum, for :meth:`verifies`.

        Examples
        --------
        >>> s = StepHandle(Step("eq. (55) as printed"))
        >>> err = s.erratum("eq. (55)", "a_i = a_j", "a_i != a_j", "notation",
        ...                 instance={"a": [1, 1]})
        >>> s.failed, s.step.errata[0].severity, err.step
        (True, 'notation', 'eq. (55) as printed')
        """
        if fields.get("instance") is None:  # the step's recorded counterexample, if any
            for key in ("counterexample", "smallest_counterexample", "smallest_instance"):
                if self._step.evidence.get(key) is not None:
                    fields["instance"] = self._step.evidence[key]
                    break
        err = Erratum(location=location, printed=printed, corrected=corrected,
                      severity=severity, step=self._step.claim, **fields)
        self._step.errata.append(err)
        if fields.get("instance") is not None and "counterexample" not in self._step.evidence:
            self._step.evidence["counterexample"] = fields["instance"]
        if self._step.status != FAILED or message:
            self.fail(message or err.summary())
        return err

    def identity(self, name: str, lhs: Callable[..., Any], rhs: Callable[..., Any],
                 points: Any) -> bool:
        """Check a displayed equality as an identity of functions, exactly, at ``points``.

        ``lhs`` and ``rhs`` are the two sides as functions; each point is a tuple
        of arguments (exact numbers: ints, Fractions, Gaussian rationals, ...).
        Records under ``name`` how many points agreed and the first point where
        the sides differ (with both values). Returns True when they agree
        everywhere; on a difference the step is *failed*: record the erratum
        (``s.erratum(...)``) that says what the display should read.

        Examples
        --------
        A display of a proof, (a + b)^2 = a^2 + 2ab + b^2, and a misprint of it:

        >>> from fractions import Fraction as F
        >>> pts = [(F(1, 2), F(3)), (F(-2), F(5, 7)), (F(0), F(1))]
        >>> s = StepHandle(Step("eq. (5) as an identity"))
        >>> s.identity("eq5", lambda a, b: (a + b) ** 2, lambda a, b: a * a + 2 * a * b + b * b,
        ...            pts)
        True
        >>> s.identity("eq5_printed", lambda a, b: (a + b) ** 2, lambda a, b: a * a + b * b,
        ...            pts)
        False
        >>> s.failed, s.step.evidence["eq5_printed"]["first_difference"]["point"]
        (True, ['1/2', 3])
        """
        checked = 0
        for point in points:
            args = tuple(point) if isinstance(point, (tuple, list)) else (point,)
            left, right = lhs(*args), rhs(*args)
            if left != right:
                self._step.evidence[name] = {
                    "points_agreeing": checked,
                    "first_difference": jsonable({"point": list(args), "lhs": left,
                                                  "rhs": right})}
                self.fail(f"{name}: the two sides differ at {jsonable(list(args))}")
                return False
            checked += 1
        self._step.evidence[name] = {"points_agreeing": checked, "first_difference": None}
        return True

    def verifies(self, *errata: Erratum) -> None:
        """Say that this step checks the corrected text of ``errata``.

        The corrections count as verified when this step ends *passed*.

        Examples
        --------
        >>> err = Erratum("l.2", "x > 0", "x >= 0", "false-statement")
        >>> s = StepHandle(Step("x >= 0 for x in {0, 1}", corrected=True))
        >>> s.verifies(err)
        >>> s.step.verifies == [err]
        True
        """
        self._step.verifies.extend(errata)

    def set_scope(self, scope: str, sizes: str | None = None, kind: str | None = None) -> None:
        """State (or restate) for which sizes this step's computation verifies its claim.

        The same as ``ctx.step(..., scope=..., sizes=..., kind=...)``, for sizes known only
        inside the step (e.g. a range that depends on the tier): ``all-sizes`` (with its
        kind), ``sizes`` with ``sizes="L <= 3, H <= 2"``, or ``instance``.

        Examples
        --------
        >>> s = StepHandle(Step("the identity at L <= 3"))
        >>> s.set_scope("sizes", "L <= 3")
        >>> s.step.scope, s.step.sizes, s.step.kind
        ('sizes', 'L <= 3', 'computation')
        >>> s.set_scope("all-sizes", "L <= 3", kind="symbolic")
        Traceback (most recent call last):
        ...
        ValueError: sizes go with scope 'sizes' or 'instance' (or a prose or exhaustive step), \
not 'all-sizes'
        """
        scope = scope_of_kind(kind, scope, sizes)
        check_scope(scope, sizes, kind)
        self._step.scope, self._step.sizes = scope, sizes
        self._step.kind = kind_of_scope(scope, kind)

    def set_kind(self, kind: str, sizes: str | None = None) -> None:
        """State what kind of evidence this step is (its scope follows from the kind).

        Examples
        --------
        >>> s = StepHandle(Step("the induction step, argued; checked at s <= 12"))
        >>> s.set_kind("prose", "s <= 12")
        >>> s.step.scope, s.step.kind, s.step.sizes
        ('all-sizes', 'prose', 's <= 12')
        """
        self.set_scope(None, sizes, kind)

    def could_fail(self, name: str, identity: Callable[[Any], Any], data: Any,
                   mutants: dict[str, Any]) -> bool:
        """Check a symbolic identity on ``data``, and that it fails on each mutant of it.

        ``identity(data)`` is True when the identity holds (or a dict with ``holds``);
        ``mutants`` maps a description of a change of the data or hypothesis the identity
        claims to use ("stride 2m as printed", "without the guard phi <= d") to the changed
        data. The identity *could have failed* when it fails on every mutant; one it still
        holds on means the identity does not use what it claims (a tautology), which the
        evidence records under ``holds_without`` (the report audit flags it). The step
        becomes ``symbolic``; it fails when the identity does not hold on ``data``.
        Returns whether the identity holds on ``data``.

        Examples
        --------
        (a + b)^2 = a^2 + 2ab + b^2 uses the middle coefficient 2; with 1 it fails:

        >>> import sympy as sp
        >>> a, b = sp.symbols("a b")
        >>> square = lambda c: sp.expand((a + b) ** 2 - (a * a + c * a * b + b * b)) == 0
        >>> s = StepHandle(Step("(a + b)^2 expanded"))
        >>> s.could_fail("square", square, 2, {"middle coefficient 1": 1})
        True
        >>> s.step.kind, s.step.evidence["could_fail"]["square"]["holds_without"]
        ('symbolic', [])
        >>> tautology = lambda q: sp.expand(a * q + b - a * q) == b
        >>> s.could_fail("gap", tautology, 3, {"q = 4": 4})
        True
        >>> s.step.evidence["could_fail"]["gap"]["holds_without"]
        ['q = 4']
        """
        def verdict(value: Any) -> bool:
            out = identity(value)
            return bool(out.get("holds") if isinstance(out, dict) else out)

        holds = verdict(data)
        fails = {desc: not verdict(m) for desc, m in mutants.items()}
        record = {"holds": holds, "fails_without": fails,
                  "holds_without": [d for d, f in fails.items() if not f]}
        self._step.evidence.setdefault("could_fail", {})[name] = record
        if self._step.kind != SYMBOLIC:
            self.set_kind(SYMBOLIC)
        if not holds:
            self.fail(f"{name}: the symbolic identity does not hold")
        return holds

    def least(self, name: str, value: Any, proven_by: str | None = None) -> str:
        """Record a smallest failing size; return the words for it.

        With ``proven_by`` (the exhaustive search over every smaller size and every
        structure the statement quantifies over, whose evidence this step records)
        the size is *the least* ("least L = 7"); without, it is the *least found*
        ("least found L = 7"). Use the returned words in notes and in the
        conclusion's reason: reports accept "least" only from here.

        Examples
        --------
        >>> s = StepHandle(Step("eq. (19) against the one-hot family"))
        >>> s.least("L", 7)
        'least found L = 7'
        >>> s.least("L", 2, proven_by="every L < 2 and every weight over {-1, 0, 1}")
        'least L = 2'
        >>> [r["least"] for r in s.step.to_dict()["least"]]
        [False, True]
        """
        record = least_record(name, value, proven_by)
        self._step.least.append(record)
        return record["phrase"]

    @property
    def failed(self) -> bool:
        return self._step.status == FAILED
