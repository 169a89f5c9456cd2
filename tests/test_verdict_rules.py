"""The rules that turn a check's conclusion into the outcome a report shows.

Each test builds small checks whose correct outcome follows from the rules of
the mission map (top section): sampling never proves a universal claim, a
correction must be verified, `false` needs a counterexample, a false
dependency blocks `holds`, every failed step carries an erratum, findings are
sorted most severe first, and the JSON report is schema version 2.
"""

from __future__ import annotations

import json

import pytest

from seprank.proof import (
    FALSE,
    HOLDS,
    HOLDS_CORRECTED,
    INSTANCES,
    OPEN,
    PROOF,
    CheckSpec,
    Claim,
    Paper,
    run_check,
    run_checks,
)
from seprank.proof.claims import SEVERITIES, Erratum
from seprank.proof.report import report_dict, validate_report, write_json

UNIVERSAL = Claim("lemma", "for every n >= 1: n^2 >= n", "test l.1")
FINITE = Claim("claim", "for n in 1..20: n^2 >= n", "test l.2", universal=False)


def spec(cid, body, claim=UNIVERSAL, depends=()):
    return CheckSpec(id=cid, title=cid, source="test", func=body, claim=claim,
                     depends=tuple(depends))


def sampled(binding):
    def body(ctx):
        with ctx.step("n^2 >= n on 20 values", source="t") as s:
            s.require(all(n * n >= n for n in range(1, 21)), "no")
        ctx.conclude(HOLDS, INSTANCES, "20 values", count=20, largest={"n": 20},
                     binding=binding)
    return body


@pytest.mark.parametrize("binding", [False, True])
def test_sampling_never_gives_holds_for_a_universal_claim(binding):
    res = run_check(spec("s", sampled(binding)))
    assert res.outcome == OPEN and res.strength == INSTANCES
    assert res.settled.binding is binding
    assert any("consistent on 20 instances" in v for v in res.violations)


def exhaustive(reduction=None):
    def body(ctx):
        with ctx.step("n^2 >= n for n = 1..20", source="t") as s:
            s.require(all(n * n >= n for n in range(1, 21)), "no")
        ctx.conclude(HOLDS, PROOF, "every case", basis="exhaustive", count=20,
                     reduction=reduction)
    return body


def test_exhaustive_check_is_a_proof_only_of_a_finite_claim():
    assert run_check(spec("f", exhaustive(), claim=FINITE)).outcome == HOLDS
    res = run_check(spec("u", exhaustive()))
    assert (res.outcome, res.strength) == (OPEN, INSTANCES)
    res = run_check(spec("r", exhaustive("n^2 - n = n(n-1) >= 0 once n >= 1; the "
                                         "finite range only illustrates")))
    assert (res.outcome, res.strength) == (HOLDS, PROOF)


def corrected(correction_holds):
    def body(ctx):
        with ctx.step("printed: n^2 > n for n >= 1", source="t") as s:
            err = s.erratum("l.1", "n^2 > n", "n^2 >= n", "false-statement",
                            instance={"n": 1})
        with ctx.step("corrected: n^2 >= n", source="t", corrected=True) as s:
            s.verifies(err)
            s.require(correction_holds, "the correction fails too", n=1)
            if not correction_holds:
                s.erratum("l.1", "n^2 >= n", "something else", "false-statement",
                          instance={"n": 1})
        ctx.conclude(HOLDS_CORRECTED, PROOF, "n^2 - n = n(n-1) >= 0", basis="argument")
    return body


def test_holds_corrected_needs_a_verified_correction():
    res = run_check(spec("c", corrected(True)))
    assert res.outcome == HOLDS_CORRECTED and res.errata[0].verified
    assert res.verdict == "refuted"          # the printed text is still wrong
    res = run_check(spec("c", corrected(False)))
    assert res.outcome == OPEN and not res.errata[0].verified


def test_holds_is_impossible_with_an_erratum_in_the_statement():
    def body(ctx):
        with ctx.step("printed", source="t") as s:
            s.erratum("l.1", "n > 0", "n >= 0", "missing-hypothesis", hypothesis="n >= 1",
                      instance={"n": 0})
        ctx.conclude(HOLDS, PROOF, "trust me", basis="argument")
    assert run_check(spec("h", body)).outcome == OPEN


def test_false_needs_a_counterexample():
    def without(ctx):
        with ctx.step("looked", source="t") as s:
            s.record(tried=3)
        ctx.conclude(FALSE, PROOF, "we think so", basis="argument")

    def with_one(ctx):
        with ctx.step("n^2 > n at n = 1", source="t") as s:
            s.erratum("l.1", "n^2 > n", "n^2 >= n", "false-statement",
                      instance={"n": 1, "n^2": 1})
        ctx.conclude(FALSE, PROOF, "n = 1 is a counterexample", basis="certificate")
    assert run_check(spec("a", without)).outcome == OPEN
    res = run_check(spec("b", with_one))
    assert res.outcome == FALSE and res.steps[0].evidence["counterexample"]["n"] == 1


def test_a_false_dependency_blocks_holds_unless_the_check_argues_itself():
    def false_dep(ctx):
        with ctx.step("n^2 > n at n = 1", source="t") as s:
            s.erratum("l.1", "n^2 > n", "n^2 >= n", "false-statement", instance={"n": 1})
        ctx.conclude(FALSE, PROOF, "n = 1", basis="certificate")

    def user(own):
        def body(ctx):
            with ctx.step("uses the dependency", source="t") as s:
                s.record(ok=True)
            ctx.conclude(HOLDS, PROOF, "by the dependency", basis="argument",
                         own_argument=own)
        return body

    specs = {"dep": spec("dep", false_dep), "use": spec("use", user(None), depends=["dep"]),
             "own": spec("own", user("a direct argument"), depends=["dep"])}
    res = {r.id: r for r in run_checks(specs)}
    assert res["use"].outcome == OPEN and res["use"].dependency_outcomes == {"dep": FALSE}
    assert any("dep, whose outcome is false" in v for v in res["use"].violations)
    assert res["own"].outcome == HOLDS


def test_every_failed_step_needs_an_erratum():
    def body(ctx):
        with ctx.step("a display", source="t") as s:
            s.require(False, "it fails")
        ctx.conclude(HOLDS, PROOF, "the statement is fine", basis="argument")
    res = run_check(spec("x", body))
    assert res.outcome == OPEN
    assert any("failed step without an erratum" in v for v in res.violations)


def test_proof_errors_and_missing_hypotheses_say_what_they_must():
    with pytest.raises(ValueError, match="survives"):
        Erratum("l.1", "a", "b", "proof-error")
    with pytest.raises(ValueError, match="repair"):
        Erratum("l.1", "a", "b", "proof-error", survives=True)
    Erratum("l.1", "a", "b", "proof-error", survives=False)
    with pytest.raises(ValueError, match="hypothesis"):
        Erratum("l.1", "a", "b", "missing-hypothesis")


def test_no_conclusion_is_open_and_a_raising_step_stays_open():
    assert run_check(spec("n", lambda ctx: None)).outcome == OPEN

    def raising(ctx):
        with ctx.step("boom", source="t"):
            raise RuntimeError("bug")
    res = run_check(spec("r", raising))
    assert res.outcome == OPEN and res.findings[0].startswith("error:")


def test_findings_most_severe_first():
    def body(ctx):
        for sev in reversed(SEVERITIES):
            with ctx.step(f"a {sev}", source="t") as s:
                kw = {"hypothesis": "h"} if sev == "missing-hypothesis" else {}
                if sev == "proof-error":
                    kw = {"survives": True, "repair": "another argument"}
                s.erratum("l.1", "p", "c", sev, **kw)
        with ctx.step("undecided", source="t") as s:
            s.inconclusive("float only")
        ctx.conclude(OPEN, "none", "a demo")
    res = run_check(spec("f", body))
    assert [f.split(" ")[0] for f in res.findings] == list(SEVERITIES) + ["inconclusive:"]
    assert [e["severity"] for e in res.to_dict()["errata"]] == list(SEVERITIES)


def test_report_is_schema_version_3(tmp_path):
    specs = {"a": spec("a", sampled(True)), "b": spec("b", corrected(True)),
             "c": spec("c", exhaustive(), claim=Claim("theorem", "x", "t", main_result=True,
                                                      universal=False))}
    results = run_checks(specs)
    data = json.loads(write_json(results, tmp_path / "r.json").read_text())
    assert validate_report(data) == []
    assert data["schema_version"] == 3
    assert data["papers"] == {} and data["checks"][0]["paper"] is None   # no paper declared
    assert data["outcomes"] == {"holds": 1, "holds-corrected": 1, "false": 0, "open": 1}
    assert data["errata_by_severity"]["false-statement"] == 1
    assert [m["id"] for m in data["main_results"]] == ["c"]
    a = data["checks"][0]
    assert (a["strength"], a["binding"], a["instances"]["count"]) == ("instances", True, 20)
    # the validator catches what it must
    bad = json.loads(json.dumps(data))
    bad["checks"][0]["outcome"] = "verified"
    bad["checks"][1]["errata"][0]["severity"] = "typo"
    del bad["checks"][2]["claim"]["kind"]
    bad["checks"][0]["binding"] = None
    problems = validate_report(bad)
    assert any("outcome" in p for p in problems)
    assert any("typo" in p for p in problems)
    assert any("claim: missing 'kind'" in p for p in problems)
    assert validate_report(report_dict(results)) == []


def test_report_carries_the_checks_papers_and_reads_version_2(tmp_path):
    a_paper = Paper("a.txt", "On a", key="pa", authors=("A. Author",), year=2000)
    specs = {"a": CheckSpec("a", "A", a_paper.cite("l.1"), sampled(True), paper=a_paper,
                            claim=Claim("lemma", "x", "t")),
             "b": spec("b", corrected(True))}
    data = report_dict(run_checks(specs))
    assert [c["paper"] for c in data["checks"]] == ["pa", None]
    assert data["papers"] == {"pa": a_paper.to_dict()}
    assert data["papers"]["pa"]["reference"] == "A. Author. On a. 2000."
    assert validate_report(data) == []
    unknown = json.loads(json.dumps(data))
    unknown["checks"][0]["paper"] = "zz"
    assert validate_report(unknown) == ["checks[0] (a): paper 'zz' is not described in 'papers'"]
    # version 2 (no paper fields) still validates; version 3 without them does not
    old = json.loads(json.dumps(data))
    del old["papers"]
    for c in old["checks"]:
        del c["paper"]
    assert validate_report({**old, "schema_version": 2}) == []
    assert "missing 'papers'" in validate_report(old)
