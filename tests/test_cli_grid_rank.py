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
