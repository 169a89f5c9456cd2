"""An audit of a report's errata: cited lines that hold what they cite, consistent severities.

Two checks over a JSON proof report (:func:`seprank.proof.report.report_dict`), for the
test suite and for authors of checks (issue 21):

* :func:`locate_errata`: every erratum's ``location`` names lines of the paper's text
  file (``l.568``, ``l.428-432``, ``l.741, l.743``); the erratum's ``anchor`` (or,
  without one, the equation, lemma or theorem number parsed from the location) must
  appear in exactly those lines;
* :func:`inconsistent_severities`: errata tagged with the same kind of slip
  (``Erratum(slip=...)``) and the same effect (in the statement or not; the statement
  survives or not) must carry the same severity.

Line numbers are those of the text files in ``../shared/papers/`` (1-based, as an
editor shows them); the paper of an erratum is its check's ``paper``, whose file the
report's ``papers`` names.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "demo.txt").write_text("intro\\n**Lemma 4.** a >= b\\n\\nproof (19)\\n")
>>> report = {"papers": {"demo": {"file": "demo.txt"}}, "checks": [{"id": "D", "paper": "demo",
...           "errata": [{"location": "l.2 (Lemma 4)", "severity": "notation"},
...                      {"location": "l.3, eq. (19)", "severity": "notation"}]}]}
>>> [(row["location"], row["status"]) for row in locate_errata(report, folder)]
[('l.2 (Lemma 4)', 'found'), ('l.3, eq. (19)', 'mislocated')]
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

__all__ = ["cited_lines", "location_anchors", "locate_errata", "effect_of",
           "inconsistent_severities"]

_LINES = re.compile(r"\bl\.\s?(\d+)(?:\s?[-\u2013]\s?(\d+))?")
_EQUATION = re.compile(r"\beqs?\.\s?\((\d+(?:\.\d+)?)\)")
_NAMED = re.compile(r"\b(Lemma|Theorem|Corollary|Claim|Definition|Proposition|Remark)\s+"
                    r"(\d+(?:\.\d+)?)\b")

#: words before a number that make it a reference, not what the lines show
_REFERENCE = re.compile(r"(proof of|via|used for|follows from|from|reuses|as in)\s*$", re.I)

#: statuses of :func:`locate_errata` that the tests accept (the rest need a fix)
LOCATED = ("found", "no anchor")


def cited_lines(location: str) -> list[int]:
    """The line numbers a location cites (``l.N``, ``l.N-M``), in order, without repeats.

    Examples
    --------
    >>> cited_lines("A.3 Theorem 4, eq. (19), l.428-432")
    [428, 429, 430, 431, 432]
    >>> cited_lines("l.741, l.743 (W^{O,L,h})"), cited_lines("eq. (34)")
    ([741, 743], [])
    """
    out: list[int] = []
    for m in _LINES.finditer(location):
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        out += [n for n in range(first, max(first, last) + 1) if n not in out]
    return out


def location_anchors(location: str, anchor: str | None = None) -> list[str]:
    """What the cited lines must contain: ``anchor``, else what the location names.

    Without an explicit anchor: the first equation number (``eq. (19)`` -> ``(19)``),
    else the first named result (``Lemma 4``), skipping references ("proof of Theorem
    5", "used for eq. (7)", "via Theorem 1"); nothing when the location names neither
    (the lines are then not checked).

    Examples
    --------
    >>> location_anchors("A.3 Theorem 4, eq. (19), l.428-432")
    ['(19)']
    >>> location_anchors("l.568 (Lemma 4)"), location_anchors("l.56 (second line)")
    (['Lemma 4'], [])
    >>> location_anchors("l.56", anchor="P_{h_1}")
    ['P_{h_1}']
    >>> location_anchors("l.566-568 (Lemma 4, used for eq. (7))")
    ['Lemma 4']
    """
    if anchor:
        return [anchor]
    for pattern, form in ((_EQUATION, "({})"), (_NAMED, "{} {}")):
        for m in pattern.finditer(location):
            if not _REFERENCE.search(location[:m.start()]):
                return [form.format(*m.groups())]
    return []


def _contains(text: str, token: str) -> bool:
    """``token`` in ``text``, whitespace-insensitive; a number not followed by a digit."""
    flat = " ".join(text.split()).lower()
    tok = " ".join(token.split()).lower()
    if re.fullmatch(r"\(\d+(\.\d+)?\)", tok):  # an equation number, also as \tag{19}
        number = tok[1:-1]
        return tok in flat or re.search(r"\\tag\{" + re.escape(number) + r"\}", flat) is not None
    pattern = re.escape(tok) + (r"(?!\d)(?!\.\d)" if tok[-1:].isdigit() else "")
    return re.search(pattern, flat) is not None


def _nearest(lines: list[str], token: str, cited: list[int]) -> int | None:
    """The line nearest to the cited ones that contains ``token`` (None: nowhere)."""
    hits = [n for n, text in enumerate(lines, 1) if _contains(text, token)]
    if not hits or not cited:
        return hits[0] if hits else None
    return min(hits, key=lambda n: (min(abs(n - c) for c in cited), n))


def _locate_one(location: str, anchor: str | None, lines: list[str] | None) -> dict[str, Any]:
    cited = cited_lines(location)
    anchors = location_anchors(location, anchor)
    row: dict[str, Any] = {"lines": cited, "anchors": anchors, "nearest": None}
    if lines is None:
        return row | {"status": "no paper"}
    if not cited:
        return row | {"status": "no lines"}
    if any(n > len(lines) for n in cited):
        return row | {"status": "beyond the file"}
    if not anchors:
        return row | {"status": "no anchor"}
    text = "\n".join(lines[n - 1] for n in cited)
    missing = [a for a in anchors if not _contains(text, a)]
    if not missing:
        return row | {"status": "found"}
    return row | {"status": "mislocated", "nearest": _nearest(lines, missing[0], cited)}


def locate_errata(report: dict[str, Any], papers_dir: str | os.PathLike) -> list[dict[str, Any]]:
    """For every erratum of ``report``: do its cited lines hold what it cites?

    ``papers_dir``: the folder of the papers' text files (``../shared/papers``).
    Returns one row per erratum: ``check``, ``location``, ``severity``, ``lines`` (cited),
    ``anchors`` (what must appear), ``status`` (``found``; ``mislocated`` with
    ``nearest``, the closest line that holds the anchor; ``no anchor`` when the
    location names nothing to look for; ``no lines`` when it cites no line;
    ``beyond the file``; ``no paper`` when the paper's file is not in ``papers_dir``).
    The match is exact (no tolerance of neighbouring lines), case- and
    whitespace-insensitive.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "p.txt").write_text("Theorem 2.\\nsep <= 3^L (8)\\n")
    >>> report = {"papers": {"p": {"file": "p.txt"}}, "checks": [{"id": "T", "paper": "p",
    ...           "errata": [{"location": "l.1, eq. (8)", "severity": "constant"}]}]}
    >>> row = locate_errata(report, folder)[0]
    >>> row["status"], row["nearest"]
    ('mislocated', 2)
    """
    folder = Path(papers_dir)
    files = {k: p.get("file") for k, p in (report.get("papers") or {}).items()}
    cache: dict[str, list[str] | None] = {}
    rows = []
    for c in report.get("checks") or []:
        name = files.get(c.get("paper"))
        if name not in cache:
            path = folder / name if name else None
            cache[name] = (path.read_text(encoding="utf-8").splitlines()
                           if path is not None and path.is_file() else None)
        for e in c.get("errata") or []:
            row = _locate_one(e["location"], e.get("anchor"), cache[name])
            rows.append({"check": c["id"], "location": e["location"],
                         "severity": e["severity"]} | row)
    return rows


def effect_of(erratum: dict[str, Any]) -> tuple[bool, bool]:
    """An erratum's effect: (in the statement, the statement survives).

    A ``proof-error`` says whether the statement survives (``survives``); a
    ``false-statement`` or ``missing-hypothesis`` means it does not as printed; a
    ``constant`` or ``notation`` slip leaves it standing under the intended reading.

    Examples
    --------
    >>> effect_of({"severity": "notation", "in_statement": False})
    (False, True)
    >>> effect_of({"severity": "proof-error", "in_statement": False, "survives": False})
    (False, False)
    """
    severity = erratum["severity"]
    if severity == "proof-error":
        survives = bool(erratum.get("survives"))
    else:
        survives = severity in ("constant", "notation")
    return bool(erratum.get("in_statement")), survives


def inconsistent_severities(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Groups of errata with the same slip and effect but different severities.

    Only errata tagged with a ``slip`` are compared. Each group: ``slip``,
    ``in_statement``, ``survives`` and ``errata`` (check id, location, severity), for
    every (slip, effect) whose errata carry more than one severity.

    Examples
    --------
    >>> report = {"checks": [
    ...     {"id": "A", "errata": [{"location": "l.1", "severity": "notation",
    ...                             "in_statement": False, "slip": "index"}]},
    ...     {"id": "B", "errata": [{"location": "l.2", "severity": "proof-error",
    ...                             "in_statement": False, "survives": True,
    ...                             "slip": "index"}]}]}
    >>> [(g["slip"], [e["check"] for e in g["errata"]]) for g in inconsistent_severities(report)]
    [('index', ['A', 'B'])]
    """
    groups: dict[tuple[str, bool, bool], list[dict[str, Any]]] = defaultdict(list)
    for c in report.get("checks") or []:
        for e in c.get("errata") or []:
            if e.get("slip"):
                groups[(e["slip"], *effect_of(e))].append(
                    {"check": c["id"], "location": e["location"], "severity": e["severity"]})
    return [{"slip": slip, "in_statement": ins, "survives": surv, "errata": members}
            for (slip, ins, surv), members in sorted(groups.items())
            if len({m["severity"] for m in members}) > 1]
