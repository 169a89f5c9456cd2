"""The map of a paper's bundled text: its sections and numbered displays, by line.

Checks cite the papers by line numbers of their text files (``"<file> B.3 l.720-757"``,
:meth:`seprank.paper_hooks.paper_record.Paper.cite`). A reader who has not got those files still
needs to find the passage in the paper itself, so each wing ships an :class:`Outline`
of its text (``seprank.papers.<key>.sections``, written once by ``docs/paper_maps.py``
from the texts): the line range of every section, with its label and heading, and the
lines of every numbered display. :func:`render_where` turns the part of a citation
after the file name into words a reader can follow in any copy of the paper ("sec.
B.3, eqs. (28)-(30)"), keeping the line pointers in parentheses. Nothing here reads
a text file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Section", "Equation", "Outline", "render_where", "line_pointers", "split_top"]


class Section(NamedTuple):
    """A section of a text: ``label`` ("B.3"; "" for an unnumbered one), its heading,
    and its first and last line (1-based, inclusive).

    >>> Section("B.3", "Technical lemmas", 720, 853).label
    'B.3'
    """

    label: str
    title: str
    first: int
    last: int


class Equation(NamedTuple):
    """A numbered display: its ``number`` ("31", "7.11") and its lines (1-based).

    >>> Equation("7.11", 357, 357).number
    '7.11'
    """

    number: str
    first: int
    last: int


@dataclass(frozen=True)
class Outline:
    """The sections and numbered displays of one bundled text (facts only, no prose).

    ``file`` is the text's name, ``lines`` its length, ``digest`` the first 16 hex
    digits of its SHA-256 (to tell whether a copy found on disk is the mapped one),
    ``name`` how citations name the paper ("Levine et al. 2020"; empty: derived from
    the paper's authors and year), ``unit`` the word for an unnumbered section
    ("slide" for a talk; empty: its heading alone).

    Examples
    --------
    >>> o = Outline.from_rows("demo.txt", 40, [("1", "Intro", 1, 19), ("1.1", "Aim", 5, 19),
    ...                                        ("2", "Proofs", 20, 40)],
    ...                       [("1", 8, 8), ("2", 25, 26)], name="Demo 2001")
    >>> o.section_at(7).label, o.section_at(20).title, o.section_at(99)
    ('1.1', 'Proofs', None)
    >>> [e.number for e in o.equations_in(1, 30)]
    ['1', '2']
    """

    file: str
    lines: int
    sections: tuple[Section, ...] = ()
    equations: tuple[Equation, ...] = ()
    digest: str = ""
    name: str = ""
    unit: str = ""

    @classmethod
    def from_rows(cls, file: str, lines: int, sections, equations, **kw) -> Outline:
        """An outline from plain tuples: ``(label, title, first, last)`` per section and
        ``(number, first, last)`` per display (the form ``sections.py`` files use)."""
        return cls(file, lines, tuple(Section(*s) for s in sections),
                   tuple(Equation(*e) for e in equations), **kw)

    def section_at(self, line: int) -> Section | None:
        """The innermost section holding ``line`` (None before the first one)."""
        best = None
        for s in self.sections:
            if s.first <= line <= s.last and (best is None or s.first >= best.first):
                best = s
        return best

    def labelled_section_at(self, line: int) -> Section | None:
        """The innermost section holding ``line`` that has a label, else the innermost."""
        holding = [s for s in self.sections if s.first <= line <= s.last]
        labelled = [s for s in holding if s.label]
        pick = labelled or holding
        return max(pick, key=lambda s: s.first) if pick else None

    def equations_in(self, first: int, last: int) -> list[Equation]:
        """The numbered displays that share a line with ``first..last``, in text order."""
        return [e for e in self.equations if e.first <= last and e.last >= first]

    def has_label(self, label: str) -> bool:
        """Whether some section is labelled ``label``."""
        return any(s.label == label for s in self.sections)


# ``l.720``, ``l.720-757``; a group joins pointers with ",", ";", "and", "with" or "&"
_POINTER = r"l\.\s?(\d+)(?:\s?[-\u2013]\s?(\d+))?"
_GROUP = re.compile(_POINTER + r"(?:\s*(?:,|and|with|&)\s*" + _POINTER.replace("(\\d+)", "\\d+")
                    + r")*")
_ONE = re.compile(_POINTER)


def line_pointers(text: str) -> list[tuple[int, int]]:
    """Every line pointer in ``text`` as (first, last) line numbers.

    >>> line_pointers("Claim 2 l.652-655, l.660 and l.7")
    [(652, 655), (660, 660), (7, 7)]
    """
    return [(int(a), int(b or a)) for a, b in _ONE.findall(text)]


def _unwrap(text: str) -> str:
    """``text`` without one pair of parentheses that encloses all of it."""
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and i < len(text) - 1:
            return text  # the first parenthesis closes before the end
    return text[1:-1].strip()


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses.

    >>> split_top("a (b; c); d", "; ")
    ['a (b; c)', 'd']
    """
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    return out + [text[start:]]


def _residual(where: str) -> tuple[str, list[str]]:
    """``where`` without its pointer groups (cleaned), and the groups' texts."""
    groups = [m.group(0) for m in _GROUP.finditer(where)]
    rest = _GROUP.sub("\0", where)
    rest = re.sub(r"\s*\0[\s,;:]*(?=\()", " ", rest)  # "l.1 (note)" -> "(note)"
    rest = re.sub(r"[\s,;:]*\0[\s,;:]*(?=\)|$)", "", rest)
    rest = re.sub(r"[\s,;:]*\0[\s,;:]*", ", ", rest)
    rest = re.sub(r"\(\s*[,;:]?\s*\)", "", re.sub(r"\s+", " ", rest))
    rest = re.sub(r"^(?:and|with|&)\s+", "", rest.strip(" ,;:"))
    return ", ".join(_unwrap(seg.strip()) for seg in split_top(rest, ", ")), groups


def _compress(numbers: list[str]) -> str:
    """Display numbers as runs: ``["24", "25", "26", "31"]`` -> ``"(24)-(26), (31)"``."""
    runs: list[list[str]] = []
    for n in numbers:
        if runs:
            head, _, tail = runs[-1][-1].rpartition(".")
            h2, _, t2 = n.rpartition(".")
            if head == h2 and tail.isdigit() and t2.isdigit() and int(t2) == int(tail) + 1:
                runs[-1].append(n)
                continue
        runs.append([n])
    return ", ".join(f"({r[0]})" if len(r) == 1 else f"({r[0]})-({r[-1]})" for r in runs)


def _names_label(text: str, label: str) -> bool:
    return re.search(r"(?<![\w.(])" + re.escape(label) + r"(?![\w)]|\.\d)", text) is not None


def _section_words(outline: Outline, pointers: list[tuple[int, int]], rest: str) -> str:
    """"sec. B.3" (or "secs. B.2, B.3", or an unnumbered section's heading) for the
    sections the pointers start in that ``rest`` does not name already."""
    if re.search(r"\bAppendix\b|\bslides?\b", rest):
        return ""
    found: list = []
    for first, _ in pointers:
        s = outline.labelled_section_at(first)
        if s is not None and s not in found and not (s.label and _names_label(rest, s.label)):
            found.append(s)
    labels = [s.label for s in found if s.label]
    titles = [f'"{s.title}"' for s in found if not s.label]
    words = []
    if labels:
        words.append(("secs. " if len(labels) > 1 else "sec. ") + ", ".join(labels))
    if titles:
        unit = (outline.unit + ("s " if len(titles) > 1 else " ")) if outline.unit else ""
        words.append(unit + ", ".join(titles))
    return ", ".join(words)


def render_where(where: str, outline: Outline | None = None, name: str = "") -> str:
    """The part of a citation after the file name, for a reader without the file.

    Section labels and display numbers come from ``outline`` (none: the text is kept);
    other words of ``where`` are kept; the line pointers close the citation in
    parentheses. ``name`` (the paper's short name) opens it when given.

    Examples
    --------
    >>> o = Outline.from_rows("p.txt", 90, [("A", "Upper bounds", 1, 49),
    ...                                     ("A.3", "Theorem 2", 30, 49),
    ...                                     ("B", "Lower bounds", 50, 90)],
    ...                       [("18", 31, 31), ("19", 33, 35)])
    >>> render_where("l.30-40", o, "Levine et al. 2020")
    'Levine et al. 2020, sec. A.3, eqs. (18)-(19) (l.30-40 of the bundled text)'
    >>> render_where("A.3 Theorem 4 eq. (19) l.33-35", o)
    'sec. A.3, Theorem 4 eq. (19) (l.33-35 of the bundled text)'
    >>> render_where("l.55 (the remark)", o)
    'sec. B, the remark (l.55 of the bundled text)'
    >>> render_where("Claim 2", o, "P")
    'P, Claim 2'
    """
    where = where.strip()
    rest, groups = _residual(where)
    pointers = line_pointers(" ".join(groups))
    if outline is not None:
        m = re.match(r"([A-Z](?:\.\d+)*|\d+(?:\.\d+)+)(?:\s+|$)", rest)
        if m and outline.has_label(m.group(1)) and not rest.startswith("sec"):
            tail = _unwrap(rest[m.end():].strip(" ,"))
            rest = f"sec. {m.group(1)}" + (f", {tail}" if tail else "")
    parts = []
    if outline is not None and pointers:
        sec = _section_words(outline, pointers, rest)
        if sec:
            parts.append(sec)
    if rest:
        parts.append(rest)
    if outline is not None and pointers and not re.search(r"\beqs?\.", rest):
        eqs: list[str] = []
        for first, last in pointers:
            eqs += [e.number for e in outline.equations_in(first, last) if e.number not in eqs]
        if eqs:
            parts.append(("eqs. " if len(eqs) > 1 else "eq. ") + _compress(eqs))
    text = ", ".join(([name] if name else []) + parts)
    if groups:
        lines = "; ".join(groups) + " of the bundled text"
        text = f"{text} ({lines})" if text else lines
    return text
