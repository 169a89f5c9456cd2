"""Schema ``report``: the JSON proof report, schema version 3 (and version 2, still read).

The shape is written out in :mod:`seprank.proof.report.schema` (whose
:func:`~seprank.proof.report.schema.validate_report` uses these models): the report's
top level, each check, its claim, errata and steps, with the closed vocabularies of
:mod:`seprank.proof.claims`, :mod:`seprank.proof.statuses` and
:mod:`seprank.proof.strength` as enumerations. Records carry evidence whose members
vary from check to check, so members beyond the declared ones are allowed (a step's
``evidence``, an erratum's ``repair``, the ``citation`` beside each ``source``);
declared members are checked strictly.

The rules that tie fields together are model validators here: ``binding`` is a bool
exactly for instance evidence, which also gives a count; a ``proof-error`` says
whether the statement survives; a ``missing-hypothesis`` names the hypothesis; a
check's ``paper`` is described in ``papers`` (version 3).
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model, model_validator

from seprank.proof.claims import CLAIM_KINDS, OUTCOMES, SEVERITIES, SLIPS, STRENGTHS
from seprank.proof.statuses import STEP_STATUSES, VERDICTS
from seprank.proof.strength import EVIDENCE_KINDS, SCOPES
from seprank.schemas.validation import custom_error, plain

__all__ = ["report_model", "report_adapter"]

_OPEN = ConfigDict(strict=True, extra="allow")
Outcome = Literal[OUTCOMES]
Seconds = Annotated[float, Field(ge=0)]


class Claim(BaseModel):
    """What a check's claim is: its kind, statement and source.

    >>> Claim.model_validate({"kind": "lemma", "main_result": False, "statement": "s",
    ...                       "source": "l.1", "universal": True}).kind
    'lemma'
    """

    model_config = _OPEN
    kind: Literal[CLAIM_KINDS]
    main_result: bool
    statement: str
    source: str
    universal: bool
    asymptotic: bool = Field(None, description="the claim is a rate or a limit")
    restates: list[str] = Field(None, description="ids of the checks it states again")


class Erratum(BaseModel):
    """One erratum of the printed text.

    >>> Erratum.model_validate({"location": "l.5", "printed": "a", "corrected": "b",
    ...     "severity": "proof-error", "in_statement": False, "verified": True})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for Erratum
    ...
    """

    model_config = _OPEN
    location: str
    printed: str
    corrected: str
    severity: Literal[SEVERITIES]
    in_statement: bool
    verified: bool
    anchor: str = None
    slip: Literal[tuple(SLIPS)] = None
    correction_id: str = None

    @model_validator(mode="after")
    def _severity_rules(self) -> Erratum:
        extra = self.model_extra or {}
        if self.severity == "proof-error" and not isinstance(extra.get("survives"), bool):
            raise custom_error("erratum", "a proof-error says whether the statement survives")
        if self.severity == "missing-hypothesis" and not extra.get("hypothesis"):
            raise custom_error("erratum", "a missing-hypothesis names the hypothesis")
        return self


class Least(BaseModel):
    """A smallest failing size of a step.

    >>> Least.model_validate({"least": True, "phrase": "n = 3 is the least"}).least
    True
    """

    model_config = _OPEN
    least: bool
    phrase: str


class Step(BaseModel):
    """One step of a check.

    >>> Step.model_validate({"claim": "c", "status": "passed", "evidence": {},
    ...                      "seconds": 0.5, "scope": "all-sizes"}).scope
    'all-sizes'
    """

    model_config = _OPEN
    claim: str
    status: Literal[STEP_STATUSES]
    evidence: dict[str, Any]
    seconds: Seconds
    scope: Literal[SCOPES] = None
    kind: Literal[EVIDENCE_KINDS] = None
    sizes: str = None
    least: list[Least] = None


class StepAtSizes(BaseModel):
    """A passed step of an argument not verified for all sizes.

    >>> StepAtSizes.model_validate({"step": 2, "sizes": "n <= 20"}).step
    2
    """

    model_config = _OPEN
    step: int


class Check(BaseModel):
    """One check: its verdict on the printed text, the claim's outcome, steps, errata.

    >>> sorted(Check.model_json_schema()["properties"]["verdict"]["enum"])
    ['inconclusive', 'refuted', 'verified']
    """

    model_config = _OPEN
    id: str
    title: str
    source: str
    verdict: Literal[VERDICTS]
    tier: Literal["fast", "full"]
    depends: list[str]
    findings: list[str]
    claim: Claim | None
    outcome: Outcome
    strength: Literal[STRENGTHS]
    binding: bool | None
    reason: str
    instances: dict[str, Any] | None
    violations: list[Any]
    dependency_outcomes: dict[str, Any]
    errata: list[Erratum]
    steps: list[Step]
    seconds: Seconds
    steps_at_sizes: list[StepAtSizes] = None
    restated_outcomes: dict[str, Outcome] = None
    own_argument: str = None

    @model_validator(mode="after")
    def _instance_rules(self) -> Check:
        if self.strength == "instances":
            if not isinstance(self.binding, bool):
                raise custom_error("check", "instance evidence without a binding flag")
            if not isinstance(self.instances, dict) or "count" not in self.instances:
                raise custom_error("check", "instance evidence without a count")
        return self


class CheckV3(Check):
    """A check of schema version 3: it names its paper (null without one).

    >>> "paper" in CheckV3.model_json_schema()["required"]
    True
    """

    paper: str | None


def _papers_described(report: Any) -> Any:
    papers = report.papers
    for i, check in enumerate(report.checks):
        if check.paper is not None and check.paper not in papers:
            raise custom_error("paper", f"checks[{i}] ({plain(check.id, punctuation='')}): paper "
                               f"{check.paper!r} is not described in 'papers'")
    return report


@cache
def report_model(version: int = 3) -> type[BaseModel]:
    """The model of a report of schema ``version`` (3, or 2: no paper fields).

    >>> sorted(report_model(3).model_json_schema()["required"])[:3]
    ['checks', 'environment', 'errata_by_severity']
    """
    counts = dict[str, int]
    fields: dict[str, Any] = {
        "schema_version": (Literal[version], ...),
        "checks": (list[CheckV3 if version == 3 else Check], ...),
        "summary": (counts, ...), "outcomes": (counts, ...),
        "errata_by_severity": (counts, ...), "main_results": (list[dict[str, Any]], ...),
        "environment": (dict[str, Any], ...)}
    validators = {}
    if version == 3:
        fields["papers"] = (dict[str, dict[str, Any]], ...)
        validators["papers_described"] = model_validator(mode="after")(_papers_described)
    return create_model(f"ReportV{version}", __config__=ConfigDict(
        strict=True, extra="allow", title=f"proof report (schema version {version})"),
        __validators__=validators, **fields)


@cache
def report_adapter() -> TypeAdapter:
    """The schema ``report``: version 3 (what ``seprank prove --json`` writes) or 2.

    >>> schema = report_adapter().json_schema()
    >>> [schema["$defs"][b["$ref"].split("/")[-1]]["properties"]["schema_version"]["const"]
    ...  for b in schema["anyOf"]]
    [3, 2]
    """
    return TypeAdapter(report_model(3) | report_model(2))
