"""Erratum sheets (`seprank errata PAPER`) and the console's layout (80 columns, JSON)."""

from __future__ import annotations

import io
import json

from rich.console import Console

from seprank.cli import main
from seprank.proof import CheckSpec, Claim, run_checks
from seprank.proof.console import ConsoleReporter
from seprank.proof.report import write_json


def _two_errata(ctx):
    with ctx.step("display (3) as printed, a long claim " + "word " * 30, source="l.3") as s:
        s.record(values=list(range(40)))
        s.erratum("eq. (3)", "a + b", "b + a", "notation", instance={"a": 1, "b": 2})
    with ctx.step("the statement as printed", source="l.1") as s:
        s.erratum("l.1", "x > 0", "x >= 0", "false-statement", instance={"x": 0})
    ctx.conclude("false", "proof", "x = 0", basis="certificate")


def _specs():
    claim = Claim("lemma", "x > 0 for all x", "l.1")
    return {"L-demo": CheckSpec("L-demo", "demo", "levine2020 l.1", _two_errata, claim=claim),
            "W-demo": CheckSpec("W-demo", "other paper", "wies2021 l.1", _two_errata,
                                claim=claim)}


def test_errata_sheet_from_a_report(tmp_path, capsys):
    path = write_json(run_checks(_specs()), tmp_path / "r.json")
    out = tmp_path / "sheet.md"
    assert main(["errata", "levine2020", "--from", str(path), "--output", str(out)]) == 0
    assert capsys.readouterr().out.startswith("2 errata of levine2020_")
    sheet = out.read_text()
    assert "W-demo" not in sheet                       # only the paper's own checks
    heads = [ln for ln in sheet.splitlines() if ln.startswith("### ")]
    assert heads == ["### 1. L-demo: false-statement at l.1", "### 2. L-demo: notation at eq. (3)"]
    assert sheet.count("`seprank prove L-demo`") == 2
    assert '{"x": 0}' in sheet and "**Printed**: x > 0" in sheet
    assert "**Corrected**: x >= 0" in sheet
    assert main(["errata", "levine2020", "--from", str(path), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("# Errata: levine2020_")


def test_errata_refuses_bad_input(tmp_path, capsys):
    assert main(["errata", "nature2024"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown paper 'nature2024'" in err[0]
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"checks": [], "environment": {}}))
    assert main(["errata", "amsel", "--from", str(old)]) == 2
    assert "schema-1" in capsys.readouterr().err


def test_console_wraps_at_80_columns_and_prints_json():
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None, highlight=False)
    run_checks(_specs(), ["L-demo"], reporter=ConsoleReporter(console))
    lines = buf.getvalue().splitlines()
    assert max(len(ln) for ln in lines) <= 80
    # the evidence line is JSON (wrapped lines joined back)
    start = next(i for i, ln in enumerate(lines) if ln.startswith('      {"values"'))
    text = lines[start].strip()
    i = start + 1
    while not text.endswith("}"):
        text += " " + lines[i].strip()
        i += 1
    assert json.loads(text)["values"][:3] == [0, 1, 2]
    # no word is cut: every claim word survives intact
    assert sum(ln.count("word") for ln in lines) >= 30
