"""The JSON proof report's schema: its shape, the versions read, the validator.

JSON shape, schema version 3 (checked by :func:`validate_report`)::

    {"schema_version": 3,
     "checks": [{"id", "title", "source", "paper", "verdict", "tier", "depends", "findings",
                 "claim": {"kind", "main_result", "statement", "source", "universal",
                           "asymptotic"?, "restates"?},
                 "outcome", "strength", "binding", "basis", "reason",
                 "instances": {"count", "largest"} | null,
                 "steps_at_sizes"?: [{"step", "claim", "scope", "sizes"}],
                 "requested_outcome", "violations", "dependency_outcomes",
                 "restated_outcomes"?,
                 "errata": [{"location", "printed", "corrected", "severity",
                             "in_statement", "verified", "instance", "step",
                             "anchor"?, "slip"?, "correction_id"?, ...}],
                 "steps": [{"claim", "source", "status", "evidence", "seconds",
                            "scope"?, "sizes"?, "least"?, ...}],
                 "seconds"}],
     "summary": {"verified": n, "refuted": n, "inconclusive": n},
     "outcomes": {"holds": n, "holds-corrected": n, "false": n, "open": n},
     "errata_by_severity": {"false-statement": n, ...},
     "main_results": [{"paper", "id", "kind", "statement", "outcome", "strength",
                       "binding"}],
     "papers": {key: {"key", "file", "title", "authors", "venue", "year", "arxiv", "url",
                      "doi", "note", "reference"}},
     "environment": {...}}

Fields marked ``?`` are optional (added within version 3, issue 21): ``asymptotic``
(the claim is a rate or a limit), ``restates`` (ids of the checks it states again) and
``restated_outcomes`` (their outcomes); ``steps_at_sizes`` (for basis ``argument``: the
passed steps of the argument not verified for all sizes, see
:mod:`seprank.proof.strength`); a step's ``scope`` (``all-sizes``, ``sizes``,
``instance``), ``sizes`` and ``least`` (smallest failing sizes: ``name``, ``value``,
``least`` (True: proven least; False: least found), ``proven_by``, ``phrase``); an
erratum's ``anchor``, ``slip`` and ``correction_id``.

``verdict`` is the verdict on the printed text (verified / refuted /
inconclusive); ``outcome`` is what happens to the claim (see
:mod:`seprank.proof.claims`). ``paper`` is the key of the check's
:class:`~seprank.proof.paper.Paper` (``@check(..., paper=...)``; null without one)
and ``papers`` describes the papers of the checks that ran, in the order of the
registered papers (:mod:`seprank.paper_hooks`). Reports group checks by that key.

Schema version 2 (no ``paper``, no ``papers``) is still read: such an old file is
grouped by the prefix of its check ids (``L-`` levine2020, ``W-`` wies2021, ``C7-``
chapter7, ``R-`` rank_collapse, ``A-`` amsel), the rule version 2 used, here and
nowhere else (:func:`paper_of_check`).
"""

from __future__ import annotations

from typing import Any

from seprank.proof.claims import CLAIM_KINDS, OUTCOMES, SEVERITIES, SLIPS, STRENGTHS
from seprank.proof.statuses import STEP_STATUSES, VERDICTS
from seprank.proof.strength import SCOPES

__all__ = ["SCHEMA_VERSION", "READABLE_VERSIONS", "paper_of_check", "report_papers",
           "validate_report"]

SCHEMA_VERSION = 3
#: the versions :func:`validate_report` and the readers accept (2: the fallback below)
READABLE_VERSIONS = (2, 3)

#: schema 2 only (its checks carry no paper): id prefix -> paper key, as version 2 grouped
_V2_PREFIXES = {"L-": "levine2020", "W-": "wies2021", "C7-": "chapter7", "R-": "rank_collapse",
                "A-": "amsel"}


def paper_of_check(check: dict[str, Any]) -> str | None:
    """The paper key of one check of a report dictionary (None: no paper).

    A schema-3 check names it (``paper``); a schema-2 check has no such field and is
    given the paper its id prefix named in version 2 (the fallback of the module
    docstring, for old files).

    Examples
    --------
    >>> paper_of_check({"id": "Schur-PSD", "paper": "schur1911"})
    'schur1911'
    >>> paper_of_check({"id": "L-Thm1"}), paper_of_check({"id": "demo"})   # schema 2
    ('levine2020', None)
    """
    if "paper" in check:
        return check["paper"]
    cid = check.get("id", "")
    return next((key for prefix, key in _V2_PREFIXES.items() if cid.startswith(prefix)), None)


def report_papers(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The papers of a report dictionary, by key, in report order.

    Schema 3: its ``papers``. Schema 2: the keys its checks fall under (by prefix), each
    described by the registered paper of that key when there is one, else by its key.

    Examples
    --------
    >>> report_papers({"checks": [{"id": "W-Thm1"}]})["wies2021"]["arxiv"]   # schema 2
    '2105.03928'
    """
    if isinstance(data.get("papers"), dict):
        return data["papers"]
    from seprank.paper_hooks import papers

    registered = papers()
    keys = [k for k in _V2_PREFIXES.values()
            if any(paper_of_check(c) == k for c in data.get("checks") or [])]
    return {k: registered[k].to_dict() if k in registered else {"key": k, "reference": k}
            for k in keys}


def _type_errors(where: str, obj: Any, spec: dict[str, Any]) -> list[str]:
    out = []
    if not isinstance(obj, dict):
        return [f"{where}: expected an object"]
    for key, want in spec.items():
        if key not in obj:
            out.append(f"{where}: missing {key!r}")
            continue
        value = obj[key]
        if isinstance(want, tuple) and all(isinstance(w, str) for w in want):
            if value not in want:
                out.append(f"{where}.{key}: {value!r} is not one of {', '.join(want)}")
        elif not isinstance(value, want):
            out.append(f"{where}.{key}: {type(value).__name__} is not {want}")
    return out


_CHECK_FIELDS = {"id": str, "title": str, "source": str, "verdict": VERDICTS,
                 "tier": ("fast", "full"), "depends": list, "findings": list,
                 "claim": (dict, type(None)), "outcome": OUTCOMES, "strength": STRENGTHS,
                 "binding": (bool, type(None)), "reason": str,
                 "instances": (dict, type(None)), "violations": list,
                 "dependency_outcomes": dict, "errata": list, "steps": list,
                 "seconds": (int, float)}
_CLAIM_FIELDS = {"kind": CLAIM_KINDS, "main_result": bool, "statement": str, "source": str,
                 "universal": bool}
_ERRATUM_FIELDS = {"location": str, "printed": str, "corrected": str,
                   "severity": SEVERITIES, "in_statement": bool, "verified": bool}
_STEP_FIELDS = {"claim": str, "status": STEP_STATUSES, "evidence": dict,
                "seconds": (int, float)}
#: optional fields (absent in older version-3 files): where -> {key: type or vocabulary}
_OPTIONAL = {
    "check": {"steps_at_sizes": list, "restated_outcomes": dict, "own_argument": str},
    "claim": {"asymptotic": bool, "restates": list},
    "erratum": {"anchor": str, "slip": tuple(SLIPS), "correction_id": str},
    "step": {"scope": SCOPES, "sizes": str, "least": list},
}


def _optional_errors(where: str, obj: Any, kind: str) -> list[str]:
    """Type errors of the optional fields of ``obj`` (a check, claim, erratum or step)."""
    if not isinstance(obj, dict):
        return []
    spec = {k: v for k, v in _OPTIONAL[kind].items() if k in obj}
    out = _type_errors(where, obj, spec)
    if kind == "check":
        for e in obj.get("steps_at_sizes") or []:
            if not isinstance(e, dict) or not isinstance(e.get("step"), int):
                out.append(f"{where}.steps_at_sizes: each entry names its step (an int)")
        for d, o in (obj.get("restated_outcomes") or {}).items():
            if o not in OUTCOMES:
                out.append(f"{where}.restated_outcomes.{d}: {o!r} is not an outcome")
    if kind == "step":
        for r in obj.get("least") or []:
            if not isinstance(r, dict) or not isinstance(r.get("least"), bool) \
                    or not isinstance(r.get("phrase"), str):
                out.append(f"{where}.least: each record has least (bool) and phrase")
    return out


def validate_report(data: Any) -> list[str]:
    """The ways ``data`` departs from schema version 3, or 2 (an empty list: valid).

    A hand-written validator (no jsonschema dependency): field presence, types,
    the closed vocabularies, and cross-field rules (``binding`` is a bool
    exactly for instance evidence, a ``proof-error`` says whether the
    statement survives, a ``missing-hypothesis`` names the hypothesis).

    Examples
    --------
    >>> problems = validate_report({"schema_version": 1, "checks": [], "environment": {}})
    >>> problems[:2]
    ['schema_version: 1, expected 3 (or 2)', "missing 'summary'"]
    """
    if not isinstance(data, dict):
        return ["the report is not an object"]
    out = []
    version = data.get("schema_version")
    if version not in READABLE_VERSIONS:
        out.append(f"schema_version: {version!r}, expected {SCHEMA_VERSION} (or 2)")
    keys = ("checks", "environment", "summary", "outcomes", "errata_by_severity",
            "main_results") + (("papers",) if version == 3 else ())
    for key in keys:
        if key not in data:
            out.append(f"missing {key!r}")
    papers = data.get("papers") if version == 3 else None
    if version == 3 and not isinstance(papers, dict):
        out.append("papers: expected an object")
        papers = {}
    fields = _CHECK_FIELDS | ({"paper": (str, type(None))} if version == 3 else {})
    for i, c in enumerate(data.get("checks") or []):
        where = f"checks[{i}]" + (f" ({c.get('id')})" if isinstance(c, dict) else "")
        errs = _type_errors(where, c, fields)
        out += errs
        if errs:
            continue
        if papers is not None and c["paper"] is not None and c["paper"] not in papers:
            out.append(f"{where}: paper {c['paper']!r} is not described in 'papers'")
        out += _optional_errors(where, c, "check")
        if c["claim"] is not None:
            out += _type_errors(where + ".claim", c["claim"], _CLAIM_FIELDS)
            out += _optional_errors(where + ".claim", c["claim"], "claim")
        if c["strength"] == "instances":
            if not isinstance(c["binding"], bool):
                out.append(f"{where}: instance evidence without a binding flag")
            if not isinstance(c["instances"], dict) or "count" not in c["instances"]:
                out.append(f"{where}: instance evidence without a count")
        for j, e in enumerate(c["errata"]):
            w = f"{where}.errata[{j}]"
            out += _type_errors(w, e, _ERRATUM_FIELDS) + _optional_errors(w, e, "erratum")
            if isinstance(e, dict) and e.get("severity") == "proof-error" and \
                    not isinstance(e.get("survives"), bool):
                out.append(f"{w}: a proof-error says whether the statement survives")
            if isinstance(e, dict) and e.get("severity") == "missing-hypothesis" and \
                    not e.get("hypothesis"):
                out.append(f"{w}: a missing-hypothesis names the hypothesis")
        for j, s in enumerate(c["steps"]):
            out += _type_errors(f"{where}.steps[{j}]", s, _STEP_FIELDS)
            out += _optional_errors(f"{where}.steps[{j}]", s, "step")
    return out
