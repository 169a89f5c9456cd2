"""The JSON proof report's schema: its shape, the versions read, the validator.

JSON shape, schema version 3 (checked by :func:`validate_report`, declared as the
pydantic models of :mod:`seprank.proof.report.model`; ``seprank schema report``)::

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
:class:`~seprank.paper_hooks.paper_record.Paper` (``@check(..., paper=...)``; null without one)
and ``papers`` describes the papers of the checks that ran, in the order of the
registered papers (:mod:`seprank.paper_hooks`). Reports group checks by that key.

Schema version 2 (no ``paper``, no ``papers``) is still read: such an old file is
grouped by the prefix of its check ids (``L-`` levine2020, ``W-`` wies2021, ``C7-``
chapter7, ``R-`` rank_collapse, ``A-`` amsel), the rule version 2 used, here and
nowhere else (:func:`paper_of_check`).
"""

from __future__ import annotations

from typing import Any

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


def _label(reached: Any) -> str:
    """A check's id after its index: ``checks[2] (L-Thm1)``."""
    from seprank.schemas.validation import plain

    if not (isinstance(reached, dict) and "id" in reached):
        return ""
    return f" ({plain(reached.get('id'), punctuation='')})"


def validate_report(data: Any) -> list[str]:
    """The ways ``data`` departs from schema version 3, or 2 (an empty list: valid).

    The schema is declared once, as the pydantic models of :mod:`seprank.proof.report.model`
    (``seprank schema report`` prints it as JSON Schema): field presence, types, the
    closed vocabularies, and the cross-field rules (``binding`` is a bool exactly for
    instance evidence, a ``proof-error`` says whether the statement survives, a
    ``missing-hypothesis`` names the hypothesis, a check's paper is described). Each
    problem is one line naming its place: ``checks[2] (L-Thm1).claim: missing 'kind'``.

    Examples
    --------
    >>> problems = validate_report({"schema_version": 1, "checks": [], "environment": {}})
    >>> problems[:2]
    ['schema_version: 1, expected 3 (or 2)', "missing 'summary'"]
    """
    from pydantic import ValidationError

    from seprank.proof.report.model import report_model
    from seprank.schemas.validation import describe, error_lines

    if not isinstance(data, dict):
        return ["the report is not an object"]
    out, version = [], data.get("schema_version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        said = repr(version) if version is None or type(version) is int else describe(version)
        out.append(f"schema_version: {said}, expected {SCHEMA_VERSION} (or 2)")
        data, version = {**data, "schema_version": SCHEMA_VERSION}, SCHEMA_VERSION
    try:
        report_model(version).model_validate(data)
    except ValidationError as exc:
        out += error_lines(exc, data, label=_label)
    return out
