"""Audits of the default prove run's wording and severities (issue 21, items 4 and 7).

* "least", "smallest", "minimal" as a size claim in a conclusion's reason, a step's
  claim or its note must come from ``s.least(...)`` (with the search that proves it)
  or read "least found" (:func:`seprank.proof.strength.unqualified_least`).
* Errata tagged with the same kind of slip and the same effect (in the statement or
  not; the statement survives or not) carry the same severity (docs/checks.md, "Severity of a
  slip"); today's exceptions are listed in :data:`KNOWN_INCONSISTENT` for the per-paper
  checks to clear. A NEW inconsistency fails.
"""

from __future__ import annotations

from seprank.proof.errata_audit import inconsistent_severities
from seprank.proof.strength import unqualified_least

#: (slip, check id, location) of errata in today's inconsistent groups (none are tagged yet)
KNOWN_INCONSISTENT: set[tuple[str, str, str]] = set()


def test_size_claims_say_least_found_unless_proven(default_report):
    found = {c["id"]: unqualified_least(c) for c in default_report["checks"]}
    found = {cid: hits for cid, hits in found.items() if hits}
    assert not found, f"unqualified size claims: {found}"


def test_same_slip_same_effect_same_severity(default_report):
    groups = inconsistent_severities(default_report)
    new = [g for g in groups
           if any((g["slip"], e["check"], e["location"]) not in KNOWN_INCONSISTENT
                  for e in g["errata"])]
    assert not new, f"errata of the same slip and effect with different severities: {new}"


def test_default_report_is_valid_and_scoped(default_report):
    """The run the audits read is a valid report; every argument lists its at-size steps."""
    from seprank.proof.report import validate_report

    assert validate_report(default_report) == []
    for c in default_report["checks"]:
        if c["strength"] == "proof" and c["basis"] == "argument":
            assert isinstance(c["steps_at_sizes"], list), c["id"]
