"""CITATION.cff, LICENSE and CHANGELOG.md: the conventions of the ecosystem (issue 22, item 4)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_citation_cff_parses_and_has_the_required_keys():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors"):           # required by CFF 1.2.0
        assert cff[key], key
    assert cff["authors"] == [{"name": "The seprank authors"}]
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cff["version"] == version and cff["license"] == "MIT"
    refs = {r["identifiers"][0]["value"]: r for r in cff["references"]}
    assert set(refs) == {"arXiv:2006.12467", "arXiv:2105.03928"}
    for ref in refs.values():                              # required keys of a reference
        assert ref["type"] and ref["title"] and ref["authors"] and ref["year"]
        assert all(set(a) == {"family-names", "given-names"} for a in ref["authors"])
    assert [a["family-names"] for a in refs["arXiv:2006.12467"]["authors"]] == [
        "Levine", "Wies", "Sharir", "Bata", "Shashua"]
    assert [a["family-names"] for a in refs["arXiv:2105.03928"]["authors"]] == [
        "Wies", "Levine", "Jannai", "Shashua"]
    assert refs["arXiv:2105.03928"]["volume"] == 139


def test_license_and_changelog():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 The seprank authors" in text
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["license"] in ({"text": "MIT"}, "MIT")
    log = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in log and f"## [{meta['version']}]" in log
