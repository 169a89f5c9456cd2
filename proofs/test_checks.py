"""Run every registered check and test that it reaches a consistent verdict.

A refuted check is a finding about a paper, not a failing test: what is tested
is that the check reaches a verdict, that no step raised, and that the verdict
agrees with its steps' evidence.
"""

import pytest

from seprank.proof import ERROR, FAILED, PASSED, REFUTED, VERIFIED, registered_checks, run_check
from seprank.proof.framework import VERDICTS

SPECS = registered_checks()


@pytest.mark.parametrize("check_id", sorted(SPECS))
def test_check_reaches_consistent_verdict(check_id, full):
    result = run_check(SPECS[check_id], full=full)
    errors = [f"{s.claim}: {s.message}\n{s.evidence.get('traceback', '')}"
              for s in result.steps if s.status == ERROR]
    assert not errors, "steps raised:\n" + "\n".join(errors)
    assert result.verdict in VERDICTS
    assert result.steps, "a check must have at least one step"
    for step in result.steps:
        assert step.claim and step.source, f"step without claim or source: {step}"
    if result.verdict == VERIFIED:
        assert all(s.status == PASSED for s in result.steps)
    if result.verdict == REFUTED:
        failed = [s for s in result.steps if s.status == FAILED]
        assert failed and all(s.message and s.evidence for s in failed), \
            "a refutation must carry a message and its counterexample as evidence"
    result.to_dict()  # the report serializes


def test_ids_are_mission_map_ids():
    from pathlib import Path

    mission_map = Path(__file__).resolve().parents[2] / "shared" / "MISSION_MAP.md"
    if not mission_map.exists():
        mission_map = Path(__file__).resolve().parents[1].parent / "shared" / "MISSION_MAP.md"
    if not mission_map.exists():
        pytest.skip("../shared/MISSION_MAP.md not beside the checkout")
    text = mission_map.read_text()
    for cid in SPECS:
        assert cid in text, f"{cid} is not an id of the mission map"
