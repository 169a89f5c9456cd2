"""A check's steps: what one step states, the evidence it records, and its handle.

A step (:class:`Step`) states a claim with its source, runs inside ``with
ctx.step(...) as s`` (:meth:`seprank.proof.framework.CheckContext.step`) and ends
*passed*, *failed*, *inconclusive* or *error*. The body talks to it through a
:class:`StepHandle`: ``s.record`` (evidence), ``s.require`` / ``s.fail``,
``s.erratum`` (what is wrong with the printed text), ``s.identity`` (a displayed
equality as an identity of functions), ``s.verifies`` (this step checks a corrected
text), ``s.least`` (a smallest failing size: least or least found) and
``s.set_scope`` (for which sizes the step's computation verifies it; see
:mod:`seprank.proof.strength`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from seprank.proof.claims import Erratum
from seprank.proof.evidence import jsonable
from seprank.proof.statuses import FAILED, INCONCLUSIVE, PASSED
from seprank.proof.strength import check_scope, least_record

__all__ = ["Step", "StepHandle"]


@dataclass
class Step:
    """One step of a check: a claim, its source, the evidence and a status.

    ``corrected`` marks a step that checks a corrected version of a statement
    whose printed form failed in an earlier step of the same check. ``scope`` and
    ``sizes``: for which sizes the step's computation verifies its claim
    (:mod:`seprank.proof.strength`; None: not stated); ``least``: the smallest failing
    sizes the step records (:meth:`StepHandle.least`).

    Examples
    --------
    >>> from fractions import Fraction
    >>> step = Step("1/2 + 1/2 = 1", source="arithmetic", evidence={"sum": Fraction(2, 2)})
    >>> step.status, step.to_dict()["evidence"]
    ('passed', {'sum': 1})
    >>> Step("x^2 - y^2 = (x - y)(x + y)", scope="all-sizes").to_dict()["scope"]
    'all-sizes'
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

    def __post_init__(self) -> None:
        check_scope(self.scope, self.sizes)

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

    def set_scope(self, scope: str, sizes: str | None = None) -> None:
        """State (or restate) for which sizes this step's computation verifies its claim.

        The same as ``ctx.step(..., scope=..., sizes=...)``, for sizes known only
        inside the step (e.g. a range that depends on the tier): ``all-sizes``,
        ``sizes`` with ``sizes="L <= 3, H <= 2"``, or ``instance``.

        Examples
        --------
        >>> s = StepHandle(Step("the identity at L <= 3"))
        >>> s.set_scope("sizes", "L <= 3")
        >>> s.step.scope, s.step.sizes
        ('sizes', 'L <= 3')
        >>> s.set_scope("all-sizes", "L <= 3")
        Traceback (most recent call last):
        ...
        ValueError: sizes go with scope 'sizes' or 'instance', not 'all-sizes'
        """
        check_scope(scope, sizes)
        self._step.scope, self._step.sizes = scope, sizes

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
