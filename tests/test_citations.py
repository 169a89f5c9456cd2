"""Citations a reader can follow without the bundled texts (issue 22, item 3).

Each wing ships a map of its text (``seprank.papers.<key>.sections``); the renderer
(:mod:`seprank.proof.citation`) turns "file l.N" into section, equation and the line
pointer. The expectations below were read off the texts by hand (levine2020's B.3
heading is its l.720, eq. (31) its l.761; wies2021's B.2 runs from l.548), and where
the texts are at hand the maps are regenerated from them and compared.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from seprank.cli import main
from seprank.paper_hooks import paper, papers
from seprank.paper_hooks.outline import line_pointers
from seprank.proof import CheckRegistry, CheckSpec, Claim, run_checks
from seprank.proof.citation import (
    PAPERS_ENV,
    missing_texts_note,
    render,
    texts_folder,
)
from seprank.proof.report import markdown_from_dict, report_dict

ROOT = Path(__file__).resolve().parents[1]
LEVINE = paper("levine2020")


def test_cite_is_unchanged_and_locate_names_section_and_equation():
    assert LEVINE.cite("B.3 l.720-757") == f"{LEVINE.file} B.3 l.720-757"
    assert LEVINE.locate("l.761") == ("Levine et al. 2020, sec. B.3, eq. (31) "
                                      "(l.761 of the bundled text)")
    assert render(LEVINE.cite("B.3 l.720-757")).startswith("Levine et al. 2020, sec. B.3, ")
    wies = paper("wies2021")
    assert render(wies.cite("l.568")) == ("Wies et al. 2021, sec. B.2 "
                                          "(l.568 of the bundled text)")
    # a part without a file belongs to the part before it; a key names a paper too
    assert render(f"{wies.file} l.612; levine2020 l.761") == (
        "Wies et al. 2021, sec. B.2.2 (l.612 of the bundled text); Levine et al. 2020, "
        "sec. B.3, eq. (31) (l.761 of the bundled text)")
    # an erratum's location belongs to its check's paper
    assert render("l.761 (the first display)", default=LEVINE) == (
        "sec. B.3, the first display, eq. (31) (l.761 of the bundled text)")
    assert render("arithmetic") == "arithmetic"


@pytest.mark.parametrize("key", ["levine2020", "wies2021", "chapter7", "rank_collapse",
                                 "amsel"])
def test_the_maps_are_well_formed(key):
    outline = papers()[key].outline
    assert outline is not None and outline.file == papers()[key].file
    labels = [s.label for s in outline.sections if s.label]
    assert len(labels) == len(set(labels))
    for s in outline.sections:
        assert 1 <= s.first <= s.last <= outline.lines, s
        for t in outline.sections:       # sections nest or are apart, never overlap
            assert (t.last < s.first or t.first > s.last or (s.first <= t.first and
                    t.last <= s.last) or (t.first <= s.first and s.last <= t.last)), (s, t)
    lines = [e.first for e in outline.equations]
    assert lines == sorted(lines) and all(1 <= e.first <= e.last <= outline.lines
                                          for e in outline.equations)


def test_every_cited_line_is_inside_its_text_and_every_file_is_known():
    specs = CheckRegistry.from_plugins(["seprank_proofs"]).specs()
    by_file = {p.file: p for p in papers().values()}
    for spec in specs.values():
        for part in spec.source.split("; "):
            file = part.split(" ")[0]
            if file in by_file:
                assert all(b <= by_file[file].outline.lines
                           for _, b in line_pointers(part)), (spec.id, part)
        assert ".txt" not in render(spec.source), spec.id


def test_the_json_report_keeps_the_source_and_adds_the_citation():
    def body(ctx):
        with ctx.step("the display", source=LEVINE.cite("l.761")) as s:
            s.erratum("l.761", "x", "y", "notation", instance={"x": 1})

    spec = CheckSpec("demo", "demo", LEVINE.cite("B.3 l.720-757"), body,
                     claim=Claim("lemma", "x", LEVINE.cite("l.761")), paper=LEVINE)
    data = report_dict(run_checks({"demo": spec}))
    c = data["checks"][0]
    assert c["source"] == LEVINE.cite("B.3 l.720-757")
    assert c["citation"].startswith("Levine et al. 2020, sec. B.3")
    assert c["steps"][0]["source"] == LEVINE.cite("l.761")
    assert "eq. (31)" in c["steps"][0]["citation"] and "eq. (31)" in c["claim"]["citation"]
    assert c["errata"][0]["location"] == "l.761"
    assert c["errata"][0]["citation"] == "sec. B.3, eq. (31) (l.761 of the bundled text)"
    text = markdown_from_dict(data)
    assert "at sec. B.3, eq. (31) (l.761 of the bundled text)" in text
    del c["citation"]           # a report written before citations: rendered on reading
    assert "Source: Levine et al. 2020, sec. B.3" in markdown_from_dict(data)


def test_the_erratum_sheet_cites_sections_and_equations(tmp_path, capsys):
    def body(ctx):
        with ctx.step("the display", source=LEVINE.cite("l.761")) as s:
            s.erratum("l.761", "x", "y", "notation", instance={"x": 1})

    spec = CheckSpec("L-x", "demo", LEVINE.cite("l.761"), body, paper=LEVINE)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report_dict(run_checks({"L-x": spec}))))
    assert main(["errata", "levine2020", "--from", str(path), "-o", "-"]) == 0
    sheet = capsys.readouterr().out
    assert sheet.startswith(f"# Errata: {LEVINE.reference()}")
    assert "- **Where**: sec. B.3, eq. (31) (l.761 of the bundled text)" in sheet
    assert f"`{LEVINE.file}`" in sheet


def test_prove_says_once_when_the_texts_are_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(PAPERS_ENV, str(tmp_path))          # an empty folder: no texts
    monkeypatch.chdir(tmp_path)
    assert main(["prove", "A-nn", "R-norm", "--no-deps", "--no-report", "--quiet"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("seprank: note: 2 paper texts not found")
    assert "only their l.N pointers need the texts" in err[0]
    assert missing_texts_note([LEVINE]) is not None


TEXTS = texts_folder()


@pytest.mark.skipif(TEXTS is None or not (TEXTS / LEVINE.file).is_file(),
                    reason="the paper texts are not beside the checkout ($SEPRANK_PAPERS)")
def test_the_committed_maps_are_what_the_texts_give(monkeypatch, capsys):
    spec = importlib.util.spec_from_file_location("paper_maps", ROOT / "docs" / "paper_maps.py")
    maps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maps)
    assert maps.main(["--papers", str(TEXTS), "--check"]) == 0, capsys.readouterr().out
    assert missing_texts_note(papers().values()) is None
    text = (TEXTS / LEVINE.file).read_text().splitlines()
    for s in LEVINE.outline.sections:        # each labelled section starts at its heading
        if s.label:
            assert re.search(rf"\b{re.escape(s.label)}\b", text[s.first - 1]), s
