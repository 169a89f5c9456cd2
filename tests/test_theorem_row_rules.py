"""The claim rules (seprank.proof.claims) on the theorem rows W-Thm1, W-Thm2, A-Thm2 and
R-collapse: each declares its claim and dependencies, no rule is violated, instances never
make an asymptotic or existential claim hold, a repaired proof error is verified by a
passing corrected step, and a false dependency keeps a claim from holding.

The outcome of each row and the hand-worked facts behind it are tested beside its paper:
tests/test_wies_theorems_1_2.py, tests/test_nn_reduction.py, tests/test_rank_collapse.py.
"""

from __future__ import annotations

import pytest

from seprank.proof import registered_checks, run_check
from seprank.proof.claims import Settled
from seprank.proof.rules import apply_dependencies

ROWS = ("W-Thm1", "W-Thm2", "A-Thm2", "R-collapse")
SPECS = registered_checks()


@pytest.fixture(scope="module")
def results():
    return {cid: run_check(SPECS[cid]) for cid in ROWS}


def test_rows_declare_claims_and_dependencies():
    for cid in ROWS:
        spec = SPECS[cid]
        assert spec.claim is not None
        # main results are the theorems; the notes' stated goal is a claim
        assert spec.claim.main_result == (spec.claim.kind == "theorem")
        assert spec.depends and all(dep in SPECS for dep in spec.depends)


def test_no_rule_was_violated_and_no_step_raised(results):
    for cid, res in results.items():
        assert res.violations == [], (cid, res.violations)
        assert all(st.status != "error" for st in res.steps), cid


def test_asymptotic_and_existential_claims_are_not_decided_by_instances(results):
    # eq. (7) and the talk's Theorem 2 quantify over infinite families (and unstated
    # constants): no sample of instances may make them hold
    for cid in ("W-Thm2", "A-Thm2"):
        assert results[cid].outcome == "open"
    assert SPECS["W-Thm2"].claim.asymptotic and SPECS["W-Thm1"].claim.asymptotic
    # W-Thm2's exact ranks meet their lower bounds with equality: each could have fallen below
    assert results["W-Thm2"].settled.binding is True
    assert results["A-Thm2"].settled.binding is None


def test_a_false_dependency_blocks_holds(results):
    settled = Settled("holds", "proof", "relies on the goal", basis="argument")
    assert apply_dependencies(settled, {"R-collapse": results["R-collapse"].outcome}).outcome \
        == "open"


def test_repairs_are_verified_by_passing_corrected_steps(results):
    for cid in ("W-Thm2", "A-Thm2"):
        repaired = [e for e in results[cid].errata if e.severity == "proof-error"]
        assert repaired and all(e.verified and e.survives for e in repaired), cid
