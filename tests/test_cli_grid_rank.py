"""`seprank grid-rank`: exact grid ranks from the command line, with clear errors."""

import json

import pytest

from seprank.cli import main


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_grid_rank_respects_bounds_and_engines_agree(capsys):
    base = ["grid-rank", "-L", "2", "--width", "4", "-H", "2", "-N", "2", "-M", "12", "--json"]
    code, out, err = run(base + ["--certify"], capsys)
    assert code == 0, err
    auto = json.loads(out)
    assert auto["rank"]["kind"] == "exact" and auto["certificate_verified"] is True
    assert auto["rank"]["value"] <= min(auto["grid_cap"], auto["thm3_bound"])
    code, out, _ = run(base + ["--method", "exact"], capsys)
    assert json.loads(out)["rank"]["value"] == auto["rank"]["value"]


@pytest.mark.parametrize("args, words", [
    (["-L", "1", "--width", "3", "-N", "3"], "odd"),
    (["-L", "1", "--width", "4", "-H", "3"], "does not divide"),
    (["-L", "1", "--width", "2", "-N", "4", "--partition", "0,x"], "comma"),
    (["-L", "1", "--width", "2", "-N", "2", "--partition", "0,5"], ""),
])
def test_grid_rank_errors(capsys, args, words):
    code, _, err = run(["grid-rank", *args], capsys)
    assert code == 2 and err.startswith("seprank: error:") and words in err
    assert "Traceback" not in err


def test_lemma6_command(tmp_path, capsys):
    # as printed, the templates name a row of V that does not exist (l.750)
    code, out, _ = run(["lemma6", "-L", "2", "-H", "1", "--da", "3", "--half", "1"], capsys)
    assert code == 1 and "FAILS" in out and "V[2, 1]" in out
    # corrected: one constant, equal to the closed form, exactly over Q(i)
    path = tmp_path / "l6.json"
    code, out, _ = run(["lemma6", "-L", "3", "-H", "2", "--da", "3", "--corrected",
                        "--json", str(path)], capsys)
    data = json.loads(path.read_text())
    assert code == 0 and "holds" in out
    assert data["identity_holds"] and data["constant_matches_formula"]
    code, _, err = run(["lemma6", "-L", "2", "--da", "4"], capsys)
    assert code == 2 and "d_a" in err and "odd" in err
