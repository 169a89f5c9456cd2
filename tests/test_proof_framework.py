"""The proof framework: verdicts follow from steps, ordering refuses cycles, reports."""

import json

import pytest

from seprank.errors import SeprankError
from seprank.proof import (
    ERROR,
    INCONCLUSIVE,
    REFUTED,
    VERIFIED,
    CheckSpec,
    order_checks,
    run_check,
    run_checks,
)
from seprank.proof.report import report_dict, write_json, write_markdown


def spec(cid, body, depends=()):
    return CheckSpec(id=cid, title=f"title {cid}", source="test", func=body,
                     depends=tuple(depends))


def passing(ctx):
    with ctx.step("true", source="t") as s:
        s.record(x=1)


def failing(ctx):
    with ctx.step("printed statement", source="t") as s:
        s.require(1 > 2, "1 is not greater than 2", counterexample={"a": 1, "b": 2})
    with ctx.step("corrected statement", source="t", corrected=True) as s:
        s.require(2 > 1, "never")


def undecided(ctx):
    with ctx.step("maybe", source="t") as s:
        s.inconclusive("only a float estimate")


def raising(ctx):
    with ctx.step("boom", source="t"):
        raise RuntimeError("bug")
    with ctx.step("never reached", source="t"):
        pass


def test_verdicts_follow_from_steps():
    assert run_check(spec("a", passing)).verdict == VERIFIED
    r = run_check(spec("b", failing))
    assert r.verdict == REFUTED
    assert r.steps[0].evidence["counterexample"] == {"a": 1, "b": 2}
    assert r.steps[1].corrected and r.steps[1].status == "passed"
    assert run_check(spec("c", undecided)).verdict == INCONCLUSIVE
    r = run_check(spec("d", raising))
    assert r.verdict == INCONCLUSIVE and len(r.steps) == 1 and r.steps[0].status == ERROR
    assert "RuntimeError: bug" in r.steps[0].message
    assert run_check(spec("e", lambda ctx: None)).verdict == INCONCLUSIVE


def test_ordering_and_cycles():
    specs = {"a": spec("a", passing), "b": spec("b", passing, ["a"]),
             "c": spec("c", passing, ["b"])}
    assert order_checks(specs) == ["a", "b", "c"]
    assert order_checks(specs, ["c"]) == ["a", "b", "c"]
    assert order_checks(specs, ["c"], with_dependencies=False) == ["c"]
    with pytest.raises(SeprankError, match="unknown check id"):
        order_checks(specs, ["zz"])
    cyclic = {"a": spec("a", passing, ["c"]), "b": spec("b", passing, ["a"]),
              "c": spec("c", passing, ["b"])}
    with pytest.raises(SeprankError, match="cycle"):
        order_checks(cyclic)
    with pytest.raises(SeprankError, match="unknown check"):
        order_checks({"a": spec("a", passing, ["nope"])})


def test_report_shape(tmp_path):
    specs = {"a": spec("a", passing), "b": spec("b", failing)}
    results = run_checks(specs)
    data = report_dict(results)
    assert set(data) >= {"checks", "environment"}
    for c in data["checks"]:
        assert set(c) >= {"id", "title", "source", "verdict", "steps", "seconds"}
        for s in c["steps"]:
            assert set(s) >= {"claim", "status", "evidence"}
    assert data["summary"] == {"verified": 1, "refuted": 1, "inconclusive": 0}
    path = write_json(results, tmp_path / "r.json")
    assert json.loads(path.read_text())["checks"][1]["verdict"] == "refuted"
    md = write_markdown(results, tmp_path / "r.md").read_text()
    assert "| b | title b | **open** | none | refuted |" in md and "corrected statement" in md
    # the summary comes first: main results, then errata by severity
    assert md.index("## Main results") < md.index("## Errata by severity") < md.index(
        "## All checks")


def test_evidence_is_exact_in_json():
    from fractions import Fraction

    import seprank
    from seprank.proof.evidence import jsonable

    assert jsonable(Fraction(1, 3)) == "1/3"
    assert jsonable(2**70) == str(2**70)
    res = seprank.rank([[1, 2], [3, 4]])
    assert jsonable({"r": res})["r"]["kind"] == "exact"


def test_report_command_round_trip(tmp_path, capsys):
    from seprank.cli import main

    specs = {"a": spec("a", passing), "b": spec("b", failing)}
    results = run_checks(specs)
    path = write_json(results, tmp_path / "r.json")
    assert main(["report", str(path)]) == 0
    md = (tmp_path / "r.md").read_text()
    page = (tmp_path / "r.html").read_text()
    direct = write_markdown(results, tmp_path / "direct.md").read_text()
    # the same report apart from the run's time stamp (first paragraph)
    assert md.split("Tier:", 1)[1] == direct.split("Tier:", 1)[1]
    assert "refuted" in page and "1 is not greater than 2" in page
    assert "<table>" in page and "<h2 id='Main results'>" in page
    (tmp_path / "bad.json").write_text('{"checks": 3}')
    assert main(["report", str(tmp_path / "bad.json")]) == 2
    assert "not a seprank proof report" in capsys.readouterr().err


def test_report_figures_from_evidence(tmp_path):
    from seprank.proof.report.figures import write_figures

    data = {"checks": [
        {"id": "W-Thm3", "steps": [{"evidence": {"table": [
            {"L": 1, "d_x": 2, "H": 1, "V": 4, "seed": 0, "inner_r": r, "grid_rank": min(r, 2)}
            for r in (1, 2, 3)]}}]},
        {"id": "A-harm", "steps": [{"evidence": {"table_N_by_d": {"d=3": [1, 3, 5]}}}]},
        {"id": "other", "steps": [{"evidence": {}}]}]}
    out = write_figures(data, tmp_path / "figs")
    assert [cid for cid, _ in out] == ["W-Thm3", "A-harm"]
    assert all(p.exists() and p.stat().st_size > 1000 for _, p in out)
