"""``seprank prove``'s console output: a person reads it (issue 22, item 4).

The default prints one line per check and a summary that close with the totals, every
line within 80 columns and none ending in a space; ``-v`` prints the steps, ``-vv`` their
evidence, ``--quiet`` only the totals; a check id after ``--json`` is refused before
anything runs. The checks run here are small ones (A-nn, R-norm, W-Lemma4: under a
second each), with ``--no-deps``.
"""

from __future__ import annotations

import json
import re
import time

import pytest

import seprank.proof
from seprank.cli import main
from seprank.proof.claims import OUTCOMES

IDS = ["A-nn", "R-norm", "W-Lemma4"]


def _prove(extra, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: the lines stay within 80 anyway
    status = main(["prove", *IDS, "--no-deps", "--no-report", "--json", "r.json", *extra])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), json.loads((tmp_path / "r.json").read_text())


def _totals(report: dict) -> str:
    """The last line the report's outcome counts imply (zero counts left out)."""
    counts = [f"{o} {report['outcomes'][o]}" for o in OUTCOMES if report["outcomes"][o]]
    n = len(report["checks"])
    return f"{n} checks: " + ", ".join(counts)


def test_default_output_is_one_line_per_check_then_a_summary(tmp_path, monkeypatch, capsys):
    status, lines, report = _prove([], tmp_path, monkeypatch, capsys)
    assert status == 0
    assert all(len(ln) <= 80 for ln in lines), max(lines, key=len)
    assert all(ln == ln.rstrip() for ln in lines)
    for c in report["checks"]:          # one line per check: id, outcome, strength, verdict
        row = [ln for ln in lines if ln.startswith(c["id"] + " ")]
        assert len(row) == 1 and row[0].split()[1:4] == [c["outcome"], c["strength"],
                                                          c["verdict"]]
        assert re.search(r"\d+\.\ds$", row[0])
    assert not any(ln.startswith(("  ok ", "  FAIL ")) for ln in lines)   # no steps
    assert lines[-1] == _totals(report)     # the outcome totals close the output
    assert len(lines) < 40


def test_totals_count_what_the_report_counts(tmp_path, monkeypatch, capsys):
    _, lines, report = _prove([], tmp_path, monkeypatch, capsys)
    errata = sum(report["errata_by_severity"].values())
    line = next(ln for ln in lines if ln.startswith("errata ("))
    assert line.startswith(f"errata ({errata}): ")
    for severity, n in report["errata_by_severity"].items():
        assert (f"{severity} {n}" in " ".join(lines)) == (n > 0)
    verdicts = next(ln for ln in lines if ln.startswith("verdicts on the printed text:"))
    assert all((f"{v} {n}" in verdicts) == (n > 0) for v, n in report["summary"].items())


def test_verbose_prints_the_steps_and_very_verbose_their_evidence(tmp_path, monkeypatch,
                                                                   capsys):
    _, lines, report = _prove(["-v"], tmp_path, monkeypatch, capsys)
    steps = [ln for ln in lines if ln.startswith(("  ok ", "  FAIL ", "  ?? "))]
    assert len(steps) == sum(len(c["steps"]) for c in report["checks"])
    assert any("of the bundled text)" in ln for ln in lines)     # citations, rendered
    assert not any(ln.lstrip().startswith("{") for ln in lines)  # no evidence at -v
    assert all(len(ln) <= 80 and ln == ln.rstrip() for ln in lines)
    assert lines[-1] == _totals(report)
    _, lines, _ = _prove(["-vv"], tmp_path, monkeypatch, capsys)
    assert any(ln.startswith("      {") for ln in lines)           # evidence as JSON


def test_quiet_prints_only_the_totals(tmp_path, monkeypatch, capsys):
    _, lines, report = _prove(["--quiet"], tmp_path, monkeypatch, capsys)
    assert len(lines) <= 5 and lines[-1] == _totals(report)
    assert not any(ln.startswith(c["id"]) for c in report["checks"] for ln in lines)


def test_a_check_id_is_never_taken_for_the_json_path(tmp_path, monkeypatch, capsys):
    """`seprank prove --json L-Omega` ran all 47 checks and wrote a file named L-Omega."""
    def must_not_run(*args, **kwargs):
        raise AssertionError("no check may run")

    monkeypatch.setattr(seprank.proof, "run_checks", must_not_run)
    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    assert main(["prove", "--json", "L-Omega"]) == 2
    assert time.perf_counter() - start < 60
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("seprank: error: --json L-Omega: ")
    assert "seprank prove L-Omega --json -" in err[0]
    assert list(tmp_path.iterdir()) == []                      # nothing written
    assert main(["prove", "A-nn", "--markdown", "R-norm"]) == 2
    assert "--markdown R-norm" in capsys.readouterr().err


@pytest.mark.parametrize("flags", [["-v", "--quiet"], ["--quiet", "-vv"]])
def test_verbose_and_quiet_exclude_each_other(flags, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["prove", "A-nn", *flags])
    assert exc.value.code == 2


def test_the_widest_check_line_fits_80_columns():
    """The longest registered id with the widest field of every column fits in 80."""
    from types import SimpleNamespace

    from seprank.proof import CheckRegistry
    from seprank.proof.report.console import ID_MAX, check_line

    ids = list(CheckRegistry.from_plugins().specs())
    width = max(len(i) for i in ids)
    assert width <= ID_MAX, f"an id of {width} characters: widen the budget of the table"
    steps = [SimpleNamespace(status="failed")] * 89 + [SimpleNamespace(status="passed")] * 10
    r = SimpleNamespace(id="x" * width, outcome="holds-corrected", strength="instances",
                        verdict="inconclusive", steps=steps, errata=[None] * 999,
                        seconds=999.9)
    line = check_line(r, width).plain
    assert len(line) <= 80 and line == line.rstrip(), line
