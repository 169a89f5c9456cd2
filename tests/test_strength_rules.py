"""Strengths that say exactly what was proven (issue 21): the rules and their display.

* a step states its scope (all sizes, listed sizes, one instance); an argument lists the
  passed steps it did not verify for all sizes, and says "every step for all sizes"
  only when there are none;
* a certificate proves an instance: it cannot make a universal claim hold, nor refute a
  rate or a limit (an asymptotic claim), which needs an argument valid for all sizes;
* a smallest failing size is "least" only with the search that proves it;
* a claim that restates a false claim is false;
* a correction verified in one erratum is verified wherever the same correction recurs.

Each expected outcome follows from the rule stated in seprank.proof.rules, on toy
claims whose truth is plain (n^2 >= n, a rate that fails or holds by hand).
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from seprank.proof import (
    FALSE,
    HOLDS,
    INSTANCES,
    OPEN,
    PROOF,
    CheckSpec,
    Claim,
    run_check,
    run_checks,
)
from seprank.proof.claims import Erratum
from seprank.proof.errata.audit import effect_of, inconsistent_severities
from seprank.proof.report import markdown_from_dict, report_dict, strength_text, validate_report
from seprank.proof.report.console import ConsoleReporter
from seprank.proof.strength import size_claims, unqualified_least

UNIVERSAL = Claim("lemma", "for every n >= 1: n^2 >= n", "test l.1")
ONE = Claim("claim", "7^2 >= 7", "test l.2", universal=False)
RATE = Claim("theorem", "log f(L) = O(L)", "test l.3", asymptotic=True)
RATE_BOUND = Claim("claim", "f(L) <= 2^L for every L", "test l.4")


def spec(cid, body, claim=UNIVERSAL, depends=()):
    return CheckSpec(id=cid, title=cid, source="test", func=body, claim=claim,
                     depends=tuple(depends))


def argument(*scopes):
    """A holds-by-argument check with one passed step per (scope, sizes) given."""
    def body(ctx):
        for i, (scope, sizes) in enumerate(scopes):
            kind = "prose" if scope == "all-sizes" and sizes is None else None
            with ctx.step(f"link {i + 1} of n^2 - n = n(n-1) >= 0", source="t", scope=scope,
                          sizes=sizes, kind=kind) as s:
                s.record(link=i + 1)
        ctx.conclude(HOLDS, PROOF, "n^2 - n = n(n-1), a product of non-negatives",
                     basis="argument")
    return body


# --- 1, 2: step scopes and the argument's strength -----------------------------------

def test_scope_is_recorded_in_the_step_json():
    res = run_check(spec("a", argument(("all-sizes", None), ("sizes", "n <= 20"),
                                       ("instance", "n = 7"), (None, None))))
    steps = res.to_dict()["steps"]
    assert [(s.get("scope"), s.get("sizes")) for s in steps] == [
        ("all-sizes", None), ("sizes", "n <= 20"), ("instance", "n = 7"), (None, None)]


@pytest.mark.parametrize("scope, sizes", [("everything", None), ("sizes", None),
                                          ("all-sizes", "n <= 3"), (None, "n <= 3"),
                                          ("sizes", "")])
def test_a_bad_scope_is_refused(scope, sizes):
    res = run_check(spec("bad", argument((scope, sizes))))
    assert res.steps[-1].status == "error" and "ValueError" in res.steps[-1].message
    assert res.outcome == OPEN


def test_an_argument_with_every_step_for_all_sizes():
    res = run_check(spec("a", argument(("all-sizes", None), ("all-sizes", None))))
    assert res.outcome == HOLDS and res.settled.all_sizes
    data = res.to_dict()
    assert data["steps_at_sizes"] == []
    assert strength_text(data) == "proof (argument, every step for all sizes (prose 2))"


def test_an_argument_with_steps_at_sizes_says_which():
    res = run_check(spec("a", argument(("all-sizes", None), ("sizes", "n <= 20"),
                                       ("instance", "n = 7"))))
    assert res.outcome == HOLDS and not res.settled.all_sizes   # the outcome is kept
    data = res.to_dict()
    assert [(e["step"], e["sizes"]) for e in data["steps_at_sizes"]] == [(2, "n <= 20"),
                                                                         (3, "n = 7")]
    assert strength_text(data) == ("proof (argument; steps 2, 3 verified only at listed sizes; "
                                   "all-sizes steps: prose 1)")


def test_a_step_without_scope_counts_as_at_sizes():
    res = run_check(spec("a", argument(("all-sizes", None), (None, None))))
    assert res.to_dict()["steps_at_sizes"] == [
        {"step": 2, "claim": "link 2 of n^2 - n = n(n-1) >= 0", "scope": None,
         "sizes": "scope not stated"}]
    assert strength_text(res.to_dict()) == ("proof (argument; step 2 with no stated scope; "
                                            "all-sizes steps: prose 1)")


def test_argument_steps_name_the_steps_of_the_argument():
    def body(ctx):
        with ctx.step("sampled n^2 >= n for n <= 50 (illustration)", source="t", scope="sizes",
                      sizes="n <= 50") as s:
            s.record(cases=50)
        with ctx.step("n^2 - n = n(n-1) as polynomials", source="t", kind="symbolic") as s:
            s.record(identity=True)
        ctx.conclude(HOLDS, PROOF, "n(n-1) >= 0", basis="argument",
                     argument_steps=["n^2 - n"])
    res = run_check(spec("a", body))
    assert res.settled.all_sizes and res.settled.steps_at_sizes == []


def test_scope_set_inside_the_step():
    def body(ctx):
        with ctx.step("the identity on the tier's range", source="t") as s:
            s.set_scope("sizes", "n <= 50" if ctx.full else "n <= 20")
        ctx.conclude(HOLDS, PROOF, "n(n-1) >= 0", basis="argument")
    assert run_check(spec("a", body)).to_dict()["steps_at_sizes"][0]["sizes"] == "n <= 20"


def test_other_bases_are_unchanged():
    def body(ctx):
        with ctx.step("n^2 - n = n(n-1)", source="t") as s:
            s.record(identity=True)
        ctx.conclude(HOLDS, PROOF, "a symbolic identity", basis="identity")
    data = run_check(spec("i", body)).to_dict()
    assert "steps_at_sizes" not in data and strength_text(data) == "proof (identity)"


def test_report_markdown_and_console_show_the_scope():
    results = run_checks({"a": spec("a", argument(("all-sizes", None), ("sizes", "n <= 20")))})
    data = report_dict(results)
    assert validate_report(data) == []
    text = markdown_from_dict(data)
    assert "proof (argument; step 2 verified only at listed sizes; all-sizes steps: prose 1)" \
        in text
    assert "   - evidence: computation, verified only at n <= 20" in text
    assert "   - evidence: prose argument, all sizes" in text
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system=None, highlight=False)
    run_checks({"a": spec("a", argument(("sizes", "n <= 20")))},
               reporter=ConsoleReporter(console, verbose=True))
    assert "evidence: computation, verified only at n <= 20" in buf.getvalue()


def test_schema_flags_a_bad_scope():
    data = report_dict(run_checks({"a": spec("a", argument(("sizes", "n <= 20")))}))
    data["checks"][0]["steps"][0]["scope"] = "most sizes"
    assert any("scope" in p for p in validate_report(data))


# --- 3: certificates prove instances -------------------------------------------------

def certified(outcome, claim_statement="7^2 >= 7"):
    def body(ctx):
        with ctx.step(f"{claim_statement}, exactly", source="t", scope="instance",
                      sizes="n = 7") as s:
            s.record(lhs=49, rhs=7)
        ctx.conclude(outcome, PROOF, "one exact evaluation", basis="certificate")
    return body


def test_a_certificate_proves_an_instance_not_a_universal_claim():
    assert run_check(spec("one", certified(HOLDS), claim=ONE)).outcome == HOLDS
    res = run_check(spec("all", certified(HOLDS)))
    assert (res.outcome, res.strength, res.settled.count) == (OPEN, INSTANCES, 1)
    assert res.violations[0].startswith("a certificate proves an instance")


def rate_refuted(basis, scope):
    """'log f(L) = O(L)' refuted by f(L) = 2^(L^2) at L = 9 (one instance), or by the
    general argument log f(L) = L^2 (all sizes)."""
    def body(ctx):
        kind = "prose" if scope == "all-sizes" else None
        with ctx.step("log2 f(L) = L^2 for f(L) = 2^(L^2)", source="t", scope=scope,
                      sizes="L = 9" if scope == "instance" else None, kind=kind) as s:
            s.erratum("l.3", "log f(L) = O(L)", "log f(L) = Theta(L^2)", "false-statement",
                      instance={"L": 9, "log2 f": 81})
        with ctx.step("L^2 / L = L is unbounded", source="t", scope=scope,
                      sizes="L = 9" if scope == "instance" else None, kind=kind) as s:
            s.record(ratio_at_9=9)
        ctx.conclude(FALSE, PROOF, "log f(L) = L^2 grows faster than any K L", basis=basis)
    return body


def test_a_certificate_refutes_a_universal_claim():
    assert run_check(spec("u", rate_refuted("certificate", "instance"),
                          claim=RATE_BOUND)).outcome == FALSE


def test_a_certificate_cannot_refute_a_rate():
    res = run_check(spec("r", rate_refuted("certificate", "instance"), claim=RATE))
    assert res.outcome == OPEN and res.strength == INSTANCES
    assert "finite instances cannot refute a rate" in res.violations[0]
    assert "basis certificate" in res.violations[0]


def test_a_rate_is_refuted_only_by_an_argument_for_all_sizes():
    res = run_check(spec("r", rate_refuted("argument", "instance"), claim=RATE))
    assert res.outcome == OPEN and "not valid for all sizes" in res.violations[0]
    res = run_check(spec("r", rate_refuted("argument", "all-sizes"), claim=RATE))
    assert res.outcome == FALSE and res.settled.all_sizes and not res.violations


def test_claim_flags_are_strict():
    with pytest.raises(ValueError, match="universal"):
        Claim("claim", "x = O(L)", "t", universal=False, asymptotic=True)
    with pytest.raises(ValueError, match="True or False"):
        Claim("claim", "x", "t", asymptotic="yes")
    with pytest.raises(ValueError, match="tuple of check ids"):
        Claim("claim", "x", "t", restates="L-Thm2")
    assert RATE.to_dict()["asymptotic"] is True and "restates" not in RATE.to_dict()


# --- 4: least and least found --------------------------------------------------------

def test_least_is_least_only_with_its_proof():
    def body(ctx):
        with ctx.step("2^n > n^2 from some n on: search n = 1..10", source="t",
                      scope="sizes", sizes="n <= 10") as s:
            fails = [n for n in range(1, 11) if not 2 ** n > n * n]
            s.record(fails=fails)
            found = s.least("n", 5)
            proven = s.least("n from which 2^n > n^2 for good", 5,
                             proven_by="every n < 5 evaluated; 2^(n+1) > (n+1)^2 follows "
                                       "from 2^n > n^2 for n >= 5")
        ctx.conclude(HOLDS, PROOF, f"{proven}; {found}", basis="argument")
    res = run_check(spec("l", body))
    step = res.to_dict()["steps"][0]
    assert [r["phrase"] for r in step["least"]] == [
        "least found n = 5", "least n from which 2^n > n^2 for good = 5"]
    assert [r["least"] for r in step["least"]] == [False, True]
    assert unqualified_least(res.to_dict()) == []


def test_the_wording_lint_finds_an_unqualified_least():
    check = {"reason": "eq. (19) fails from d_x = 8 (least L = 7)",
             "steps": [{"claim": "searched one-hot schedules", "message": None}]}
    assert unqualified_least(check) == ["reason: fails from d_x = 8 (least L = 7)"]
    assert size_claims("at least 3; least found L = 7; the least depth found; "
                       "a minimal correction") == []
    assert size_claims("the smallest counterexample") == ["the smallest counterexample"]


# --- 5: a restated false claim is false ----------------------------------------------

def false_check(ctx):
    with ctx.step("n^2 > n at n = 1", source="t") as s:
        s.erratum("l.1", "n^2 > n", "n^2 >= n", "false-statement", instance={"n": 1})
    ctx.conclude(FALSE, PROOF, "n = 1", basis="certificate")


def restating(outcome, own=None):
    def body(ctx):
        with ctx.step("the notes restate l.1", source="t") as s:
            s.record(restated="l.1")
        ctx.conclude(outcome, PROOF if outcome == HOLDS else "none", "as l.1",
                     basis="argument" if outcome == HOLDS else None, own_argument=own)
    return body


def test_a_claim_that_restates_a_false_claim_is_false():
    claim = Claim("remark", "n^2 > n for n >= 1 (as l.1)", "notes l.9", restates=("T",))
    specs = {"N": spec("N", restating(OPEN), claim=claim),     # runs after T: no depends
             "T": spec("T", false_check)}
    res = {r.id: r for r in run_checks(specs, ["N"])}
    n = res["N"].to_dict()
    assert n["outcome"] == FALSE and n["reason"].startswith("restates T, whose outcome is false")
    assert (n["strength"], n["basis"], n["violations"]) == (PROOF, "certificate", [])
    assert n["restated_outcomes"] == {"T": FALSE} and n["claim"]["restates"] == ["T"]
    assert "Restates: T (false)" in markdown_from_dict(report_dict(list(res.values())))


def test_restating_overrules_holds_unless_the_check_argues_the_difference():
    claim = Claim("remark", "as l.1", "notes l.9", restates=("T",))
    res = {r.id: r for r in run_checks({"T": spec("T", false_check),
                                        "N": spec("N", restating(HOLDS), claim=claim)})}
    assert res["N"].outcome == FALSE and "becomes false" in res["N"].violations[0]
    own = "the notes assume n >= 2, where n^2 > n holds"
    res = {r.id: r for r in run_checks({"T": spec("T", false_check),
                                        "N": spec("N", restating(OPEN, own), claim=claim)})}
    assert res["N"].outcome == OPEN


# --- 8: a correction verified anywhere is verified wherever it recurs ----------------

def with_correction(verify, correction_id=None, corrected="n^2 >= n  for n >= 1"):
    def body(ctx):
        with ctx.step("printed: n^2 > n", source="t") as s:
            err = s.erratum("l.1", "n^2 > n", corrected, "notation", instance={"n": 1},
                            correction_id=correction_id)
        if verify:
            with ctx.step("n^2 >= n: n(n-1) >= 0", source="t", corrected=True) as s:
                s.verifies(err)
        ctx.conclude(OPEN, "none", "not decided")
    return body


def test_a_correction_verified_in_one_check_is_verified_in_another():
    specs = {"A": spec("A", with_correction(True)),
             "B": spec("B", with_correction(False, corrected="n^2 >=  n for n >= 1")),
             "C": spec("C", with_correction(False, corrected="something else")),
             "D": spec("D", with_correction(False, "sq", corrected="other words")),
             "E": spec("E", with_correction(False, "sq", corrected="n^2 >= n for n >= 1"))}
    res = {r.id: r.errata[0] for r in run_checks(specs)}
    assert res["B"].verified and res["B"].verified_by == ["check A, step: n^2 >= n: n(n-1) >= 0"]
    assert not res["C"].verified
    assert res["D"].verified and res["E"].verified     # D shares E's id, E shares A's text
    data = report_dict(run_checks(specs))
    assert "Correction verified: yes (in A)" in markdown_from_dict(data)


# --- 7: severities of the same slip and effect ---------------------------------------

def test_slip_vocabulary_and_severity_groups():
    with pytest.raises(ValueError, match="slip"):
        Erratum("l.1", "a", "b", "notation", slip="typo")
    assert effect_of({"severity": "false-statement", "in_statement": True}) == (True, False)
    report = {"checks": [
        {"id": "A", "errata": [Erratum("l.1", "W_1 W_2", "W_2 W_1", "notation",
                                       slip="order").to_dict()]},
        {"id": "B", "errata": [Erratum("l.2", "P_1 P_2", "P_2 P_1", "proof-error", slip="order",
                                       survives=True, repair="reverse").to_dict(),
                               Erratum("l.3", "i", "j", "notation", slip="index").to_dict(),
                               Erratum("l.4", "i", "j", "notation", slip="index",
                                       in_statement=True).to_dict()]}]}
    groups = inconsistent_severities(report)
    assert [(g["slip"], len(g["errata"])) for g in groups] == [("order", 2)]


# --- issue 30: evidence kinds, identities that could have failed, "rests on" ---------

def test_a_kind_implies_its_scope_and_all_sizes_names_its_kind():
    def body(ctx):
        with ctx.step("n^2 - n = n(n-1)", source="t", kind="symbolic") as s:
            s.record(identity=True)
        with ctx.step("induction, argued in words; cross-checked at n <= 9", source="t",
                      kind="prose", sizes="n <= 9") as s:
            s.record(cross_check=True)
        with ctx.step("every n <= 9 evaluated", source="t", kind="computation",
                      sizes="n <= 9") as s:
            s.record(cases=9)
        with ctx.step("rank 7 certified at n = 7", source="t", kind="certificate") as s:
            s.record(rank=7)
        ctx.conclude(HOLDS, PROOF, "n(n-1) >= 0", basis="argument")
    data = run_check(spec("k", body)).to_dict()
    assert [(s["kind"], s["scope"]) for s in data["steps"]] == [
        ("symbolic", "all-sizes"), ("prose", "all-sizes"), ("computation", "sizes"),
        ("certificate", "instance")]
    assert data["argument_kinds"] == {"symbolic": 1, "prose": 1}
    assert [e["step"] for e in data["steps_at_sizes"]] == [3, 4]


@pytest.mark.parametrize("scope, sizes, kind", [("all-sizes", None, None),
                                                ("all-sizes", None, "computation"),
                                                ("sizes", "n <= 3", "symbolic"),
                                                ("all-sizes", "n <= 3", "symbolic"),
                                                (None, None, "guess")])
def test_a_kind_that_does_not_fit_is_refused(scope, sizes, kind):
    def body(ctx):
        with ctx.step("a step", source="t", scope=scope, sizes=sizes, kind=kind) as s:
            s.record(x=1)
        ctx.conclude(HOLDS, PROOF, "x", basis="argument")
    res = run_check(spec("bad", body))
    assert res.steps[-1].status == "error" and "ValueError" in res.steps[-1].message


def test_could_fail_records_the_mutants_and_flags_a_tautology():
    import sympy as sp

    h, q, D = sp.symbols("h q D", integer=True)

    def floor_part(shift):       # floor((hD + q)/D) = h needs 0 <= q < D: here q = shift
        return sp.floor((h * D + shift) / D).subs({D: 5, h: 3}) == 3

    def tautology(_):             # hD + q - hD = q uses nothing
        return sp.expand(h * D + q - h * D) == q

    def body(ctx):
        with ctx.step("division with remainder", source="t") as s:
            s.could_fail("floor", floor_part, 2, {"q = D": 5, "q = -1": -1})
            s.could_fail("gap", tautology, None, {"q < 0": -1})
        ctx.conclude(HOLDS, PROOF, "x", basis="argument")
    step = run_check(spec("t", body)).steps[0]
    assert step.kind == "symbolic" and step.status == "passed"
    ev = step.evidence["could_fail"]
    assert ev["floor"]["fails_without"] == {"q = D": True, "q = -1": True}
    assert ev["floor"]["holds_without"] == [] and ev["gap"]["holds_without"] == ["q < 0"]


def test_could_fail_fails_the_step_when_the_identity_does_not_hold():
    def body(ctx):
        with ctx.step("2 + 2 = 5", source="t") as s:
            s.could_fail("sum", lambda c: 2 + 2 == c, 5, {"4": 4})
        ctx.conclude(OPEN, "none", "x")
    assert run_check(spec("f", body)).steps[0].status == "failed"


def dep(outcome):
    """A dependency whose outcome is ``outcome`` (holds by an argument, or open)."""
    def body(ctx):
        with ctx.step("n^2 - n = n(n-1)", source="t", kind="symbolic") as s:
            s.record(identity=True)
        if outcome == HOLDS:
            ctx.conclude(HOLDS, PROOF, "n(n-1) >= 0", basis="argument")
        else:
            ctx.conclude(OPEN, "none", "not decided")
    return body


def resting(ctx):
    with ctx.step("n^4 >= n^2 follows from A applied to n^2", source="t", kind="prose") as s:
        s.record(substitution="n -> n^2")
    ctx.conclude(HOLDS, PROOF, "apply A to n^2", basis="argument", given=("A",))


def test_the_rests_on_sentence_follows_the_dependency_outcome():
    """Changing A's outcome changes B's sentence and outcome; nothing is written by hand."""
    for outcome in (HOLDS, OPEN):
        specs = {"A": spec("A", dep(outcome)), "B": spec("B", resting, depends=("A",))}
        res = {r.id: r for r in run_checks(specs)}
        b = res["B"].to_dict()
        if outcome == HOLDS:
            assert b["outcome"] == HOLDS and b["violations"] == []
            assert b["reason"] == ("apply A to n^2; rests on A (holds, proof: argument, every "
                                   "step for all sizes)")
        else:
            assert b["outcome"] == OPEN and b["strength"] == "none"
            assert b["reason"] == "apply A to n^2; rests on A (open, none)"
            assert b["violations"][0].startswith("rests on A, whose outcome is open")
        assert b["given_outcomes"] == {"A": b["reason"].split("rests on ")[1]}
        html = markdown_from_dict(report_dict(list(res.values())))
        assert "Takes as given (outcomes in this run): " + b["given_outcomes"]["A"] in html


def test_kinds_show_in_the_json_markdown_html_and_console():
    from seprank.proof.report import html_from_dict

    specs = {"A": spec("A", dep(HOLDS))}
    data = report_dict(run_checks(specs))
    assert data["checks"][0]["steps"][0]["kind"] == "symbolic" and validate_report(data) == []
    assert "1. **passed** *[symbolic]*: n^2 - n = n(n-1)" in markdown_from_dict(data)
    html = html_from_dict(data)
    assert "<i class='kind'>[symbolic]</i>" in html
    assert "evidence: symbolic identity, all sizes (could have failed)" in html
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system=None, highlight=False)
    run_checks(specs, reporter=ConsoleReporter(console, verbose=True))
    assert "evidence: symbolic identity, all sizes (could have failed)" in buf.getvalue()
    assert max(len(line) for line in buf.getvalue().splitlines()) <= 80
