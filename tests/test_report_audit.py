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

from seprank.proof.errata.audit import inconsistent_severities
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


# --- issue 30: evidence that says what it is, reasons read from the run -------------------

def test_symbolic_steps_could_have_failed(default_report):
    """A step of kind ``symbolic`` checks identities that fail once the data or hypothesis
    they use is changed (``s.could_fail``): none holds without what it claims to use."""
    flagged = []
    for c in default_report["checks"]:
        for i, st in enumerate(c["steps"], 1):
            if st.get("kind") != "symbolic" or st["status"] != "passed":
                continue
            found = st["evidence"].get("could_fail") or {}
            if not found:
                flagged.append((c["id"], i, "no identity checked with its data changed"))
            for name, rec in found.items():
                if not rec.get("fails_without") or rec.get("holds_without"):
                    flagged.append((c["id"], i, name, rec.get("holds_without")))
    assert not flagged, f"symbolic steps whose identities hold without their data: {flagged}"


def test_all_sizes_steps_name_their_kind(default_report):
    """'verified for all sizes' is said only of symbolic, exhaustive and prose steps."""
    bad = [(c["id"], i) for c in default_report["checks"]
           for i, st in enumerate(c["steps"], 1)
           if st.get("scope") == "all-sizes" and st.get("kind") not in
           ("symbolic", "exhaustive", "prose")]
    assert not bad, bad


def _own_reason(check: dict) -> str:
    """The reason without the sentences the runner derives (restated and given outcomes)."""
    reason = check.get("reason") or ""
    if check.get("given"):
        reason = reason.split("; rests on ")[0]
    if check.get("restated_outcomes"):
        reason = reason.split("whose outcome is false; ", 1)[-1]
    return reason


def test_reasons_name_no_dependency_outcome_by_hand(default_report):
    """A conclusion's reason never states a dependency's outcome itself (issue 30: 'L-Lemma6,
    whose outcome is open' went stale); the runner writes it from the same run (``given``)."""
    import re

    found = []
    for c in default_report["checks"]:
        reason = _own_reason(c)
        for dep in c.get("depends") or []:
            pattern = rf"\b{re.escape(dep)}\b[^;.]{{0,12}}\b(holds|open|false|outcome)\b"
            if re.search(pattern, reason):
                found.append((c["id"], dep))
    assert not found, f"reasons that state a dependency's outcome by hand: {found}"
