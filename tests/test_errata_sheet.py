"""Erratum sheets (`seprank errata PAPER`) and the console's layout (80 columns, JSON)."""

from __future__ import annotations

import io
import json

from rich.console import Console

from seprank.cli import main
from seprank.papers.levine2020 import PAPER as LEVINE2020
from seprank.papers.wies2021 import PAPER as WIES2021
from seprank.proof import CheckSpec, Claim, run_checks
from seprank.proof.report import write_json
from seprank.proof.report.console import ConsoleReporter


def _two_errata(ctx):
    with ctx.step("display (3) as printed, a long claim " + "word " * 30, source="l.3") as s:
        s.record(values=list(range(40)))
        s.erratum("eq. (3)", "a + b", "b + a", "notation", instance={"a": 1, "b": 2})
    with ctx.step("the statement as printed", source="l.1") as s:
        s.erratum("l.1", "x > 0", "x >= 0", "false-statement", instance={"x": 0})
    ctx.conclude("false", "proof", "x = 0", basis="certificate")


def _specs():
    claim = Claim("lemma", "x > 0 for all x", "l.1")
    return {"L-demo": CheckSpec("L-demo", "demo", LEVINE2020.cite("l.1"), _two_errata,
                                claim=claim, paper=LEVINE2020),
            "W-demo": CheckSpec("W-demo", "other paper", WIES2021.cite("l.1"), _two_errata,
                                claim=claim, paper=WIES2021)}


def test_errata_sheet_from_a_report(tmp_path, capsys):
    path = write_json(run_checks(_specs()), tmp_path / "r.json")
    out = tmp_path / "sheet.md"
    assert main(["errata", "levine2020", "--from", str(path), "--output", str(out)]) == 0
    assert capsys.readouterr().out.startswith("2 errata of levine2020: ")
    sheet = out.read_text()
    # the sheet opens with the paper's full reference, not its file name
    assert sheet.splitlines()[0] == f"# Errata: {LEVINE2020.reference()}"
    assert sheet.splitlines()[0].startswith("# Errata: Yoav Levine, Noam Wies")
    assert "W-demo" not in sheet                       # only the paper's own checks
    heads = [ln for ln in sheet.splitlines() if ln.startswith("### ")]
    assert heads == ["### 1. L-demo: false-statement at l.1", "### 2. L-demo: notation at eq. (3)"]
    assert sheet.count("`seprank prove L-demo`") == 2
    assert '{"x": 0}' in sheet and "**Printed**: x > 0" in sheet
    assert "**Corrected**: x >= 0" in sheet
    assert main(["errata", "levine2020", "--from", str(path), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("# Errata: Yoav Levine")


def test_errata_sheet_groups_by_the_checks_paper_not_the_id(tmp_path):
    """A check filed under wies2021 with an L- id belongs to wies2021's sheet (schema 3)."""
    specs = _specs()
    odd = CheckSpec("L-odd", "odd", WIES2021.cite("l.2"), _two_errata,
                    claim=specs["W-demo"].claim, paper=WIES2021)
    path = write_json(run_checks({**specs, "L-odd": odd}), tmp_path / "r.json")
    out = tmp_path / "w.md"
    assert main(["errata", "wies2021", "--from", str(path), "-o", str(out)]) == 0
    sheet = out.read_text()
    assert "L-odd" in sheet and "W-demo" in sheet and "L-demo" not in sheet


def test_errata_sheet_of_a_version_2_report_by_id_prefix(tmp_path):
    """Old files (schema 2) carry no paper: they are grouped by the id prefix, as before."""
    data = json.loads(write_json(run_checks(_specs()), tmp_path / "r.json").read_text())
    del data["papers"]
    for c in data["checks"]:
        del c["paper"]
    data["schema_version"] = 2
    old = tmp_path / "v2.json"
    old.write_text(json.dumps(data))
    out = tmp_path / "sheet.md"
    assert main(["errata", "wies2021", "--from", str(old), "-o", str(out)]) == 0
    sheet = out.read_text()
    assert sheet.startswith(f"# Errata: {WIES2021.reference()}")
    assert "W-demo" in sheet and "L-demo" not in sheet


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
