"""Every erratum cites the lines that hold what it names (issue 21, item 6).

An erratum's ``location`` names lines of the paper's text file and what is there
("l.568 (Lemma 4)", "A.3 eq. (19) l.428-432"). :func:`locate_errata` reads exactly the
cited lines (no neighbouring line counts) and looks for the erratum's ``anchor``, or,
without one, the equation, lemma or theorem number parsed from the location. The
default prove run's errata must all be found there, except the ones listed in
:data:`KNOWN_MISLOCATED` (found on main when the audit was added; the per-paper checks
will fix their locations or name an explicit ``anchor``, and then delete the entry).
A NEW mislocated erratum fails; an entry that is fixed fails too, until removed.
"""

from __future__ import annotations

import pytest

from seprank.proof.errata.audit import LOCATED, cited_lines, locate_errata, location_anchors

#: (check id, location) of the errata whose cited lines do not hold what they cite,
#: found when the audit was added; comments: what was looked for, and where it is
KNOWN_MISLOCATED: set[tuple[str, str]] = set()


@pytest.fixture(scope="module")
def located(default_report, papers_dir):
    return locate_errata(default_report, papers_dir)


def test_every_erratum_is_located_to_its_lines(located):
    bad = {(r["check"], r["location"]): r for r in located if r["status"] not in LOCATED}
    new = {k: (v["status"], v["anchors"], v["nearest"]) for k, v in bad.items()
           if k not in KNOWN_MISLOCATED}
    assert not new, f"errata whose cited lines do not hold what they cite: {new}"


def test_known_mislocated_list_is_current(located):
    """An entry whose erratum is fixed (or gone) must leave KNOWN_MISLOCATED."""
    bad = {(r["check"], r["location"]) for r in located if r["status"] not in LOCATED}
    assert not KNOWN_MISLOCATED - bad, f"fixed, remove: {sorted(KNOWN_MISLOCATED - bad)}"


def test_the_papers_of_every_erratum_are_read(located):
    assert located and not [r for r in located if r["status"] in ("no paper", "beyond the file")]


def test_parsing_of_locations():
    assert cited_lines("A.2 eq. (17) l.409 and l.415") == [409, 415]
    assert cited_lines("l.130-132") == [130, 131, 132]
    assert location_anchors("A.2 eq. (17) l.409 and l.415") == ["(17)"]
    assert location_anchors("A.4 l.516-518 (end of the proof of Theorem 5)") == []
    assert location_anchors("l.1", anchor="Lemma 4") == ["Lemma 4"]


def test_a_shifted_line_is_mislocated_and_an_anchor_decides(tmp_path):
    """Exact lines: the neighbour of the right line does not count."""
    (tmp_path / "p.txt").write_text("a\nLemma 4. x <= y\nproof: y = z (3)\nLemma 41.\n")
    report = {"papers": {"p": {"file": "p.txt"}}, "checks": [{"id": "X", "paper": "p", "errata": [
        {"location": "l.2 (Lemma 4)", "severity": "notation"},
        {"location": "l.3 (Lemma 4)", "severity": "notation"},
        {"location": "l.4 (Lemma 4)", "severity": "notation"},
        {"location": "l.3 (Lemma 4)", "severity": "notation", "anchor": "y = z"},
        {"location": "l.2, eq. (3)", "severity": "notation"},
        {"location": "l.9 (Lemma 4)", "severity": "notation"}]}]}
    rows = locate_errata(report, tmp_path)
    assert [r["status"] for r in rows] == ["found", "mislocated", "mislocated", "found",
                                           "mislocated", "beyond the file"]
    assert rows[1]["nearest"] == 2 and rows[4]["nearest"] == 3
