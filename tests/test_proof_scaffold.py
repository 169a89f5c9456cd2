"""seprank.proof.scaffold: the frame of a check, written once (issue 19 item 5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from seprank.paper_hooks.paper_record import Paper
from seprank.proof import Claim, check
from seprank.proof.framework import CheckContext, CheckSpec, Step, StepHandle, run_check
from seprank.proof.scaffold import (
    BoundTally,
    conclude_on_instances,
    erratum_if_failed,
    paper_check,
)

DEMO = Paper("demo.txt", "A demo paper", key="demo")


def test_paper_check_declares_the_same_spec_as_check_with_a_claim():
    def body(ctx):
        pass

    by_hand = check("demo-1", "a title", source=DEMO.cite("l.1-9"), depends=("x",),
                    claim=Claim("lemma", "a statement", DEMO.cite("l.1-2"), main_result=True),
                    paper=DEMO)(lambda ctx: None).__seprank_check__
    spec = paper_check(DEMO, "demo-1", "a title", where="l.1-9", claim_where="l.1-2",
                       depends=["x"], kind="lemma", statement="a statement",
                       main_result=True)(body).__seprank_check__
    assert spec.func is body
    for field in ("id", "title", "source", "depends", "claim", "figures", "paper"):
        assert getattr(spec, field) == getattr(by_hand, field), field


def test_paper_check_cites_the_checks_lines_for_the_claim_by_default():
    spec = paper_check(DEMO, "demo-2", "t", where="eq. (3)", kind="claim",
                       statement="s")(lambda ctx: None).__seprank_check__
    assert spec.claim.source == spec.source == "demo.txt eq. (3)"
    with pytest.raises(ValueError):
        paper_check(DEMO, "demo-3", "t", where="l.1", kind="guess", statement="s")


def _printed_then_corrected(fail_printed: bool):
    def body(ctx):
        with ctx.step("display (4) as printed") as s:
            if fail_printed:
                s.fail("2 != 3", smallest_instance={"n": 2})
        with ctx.step("display (4) corrected", corrected=True):
            pass
        erratum_if_failed(ctx, "display (4) as printed", "eq. (4)", "= 3", "= 2", "constant",
                          evidence_key="smallest_instance", verified_by="display (4) corrected")
        ctx.conclude("holds-corrected", "proof", "the corrected display is an identity",
                     basis="identity")
    return run_check(CheckSpec("demo", "demo", "demo", body,
                               claim=Claim("lemma", "demo", "demo")))


def test_erratum_if_failed_records_against_the_failed_step_and_its_verifier():
    res = _printed_then_corrected(True)
    (err,) = res.errata
    assert err.instance == {"n": 2} and err.step == "display (4) as printed"
    assert err.verified and err.verified_by == ["display (4) corrected"]


def test_erratum_if_failed_records_nothing_when_the_step_passed():
    assert _printed_then_corrected(False).errata == []


def test_erratum_if_failed_refuses_an_ambiguous_step():
    ctx = CheckContext()
    for claim in ("eq. (1) a", "eq. (1) b"):
        with ctx.step(claim):
            pass
    with pytest.raises(ValueError):
        erratum_if_failed(ctx, "eq. (1)", "l.1", "a", "b", "constant")


def test_bound_tally_keeps_the_first_largest_ratio_and_fails_above_the_bound():
    s = StepHandle(Step("ranks <= bound"))
    tally = BoundTally()
    tally.add(s, 2, 4, "a", "above")
    tally.add(s, 3, Fraction(6), "b", "above")  # ties with "a" (1/2): the first stays
    assert tally.largest_ratio() == {"ratio": "1/2 ~ 0.5", "case": "a"}
    assert s.step.status == "passed"
    tally.add(s, 7, Fraction(13, 2), "c", "7 above 13/2", counterexample={"rank": 7})
    assert tally.largest_ratio()["case"] == "c"
    assert s.step.status == "failed" and s.step.message == "7 above 13/2"
    assert s.step.evidence["counterexample"] == {"rank": 7}


def test_bound_tally_without_instances_refuses():
    with pytest.raises(ValueError):
        BoundTally().largest_ratio()


def test_conclude_on_instances_takes_binding_from_the_summary_unless_given():
    ctx = CheckContext()
    conclude_on_instances(ctx, "consistent", {"count": 2, "largest": {"L": 3},
                                              "binding": False})
    assert (ctx.conclusion.count, ctx.conclusion.binding) == (2, False)
    other = CheckContext()
    conclude_on_instances(other, "consistent", {"count": 2, "largest": {"L": 3},
                                                "binding": False}, binding=True)
    assert other.conclusion.binding is True
    with pytest.raises(ValueError):
        conclude_on_instances(other, "again", {"count": 1, "largest": {}, "binding": True})
