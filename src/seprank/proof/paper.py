"""A paper a check cites: its text file, title, key and full bibliographic reference.

Steps and checks cite their sources as ``"<file> l.720"`` or ``"<file> eq. (12)"``;
a :class:`Paper` builds those strings so a plugin names its paper once. The
optional bibliographic fields (authors, venue, year, arXiv id, URL or DOI, a
note) give :meth:`Paper.reference`, the one-line reference that erratum sheets
open with and ``seprank papers`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Paper"]


@dataclass(frozen=True)
class Paper:
    """A cited paper: ``file`` (its text under ``papers/``, say), ``title``, ``key``.

    ``cite(where)`` gives the source string of a step ("file l.720");
    ``str(paper)`` is the file name (a check's ``source=`` accepts a Paper).
    ``authors`` (a tuple of names), ``venue``, ``year``, ``arxiv`` (an id such as
    ``"2006.12467"``), ``url``, ``doi`` and ``note`` are optional; they only feed
    :meth:`reference` and :meth:`to_dict`, never a citation.

    Examples
    --------
    >>> schur = Paper("schur1911.txt", "Bemerkungen zur Theorie der beschraenkten "
    ...               "Bilinearformen", key="schur1911")
    >>> schur.cite("l.12"), schur.cite("Satz III"), str(schur)
    ('schur1911.txt l.12', 'schur1911.txt Satz III', 'schur1911.txt')
    >>> Paper("a.txt", "A title", key="a", authors=("A. Author", "B. Author"),
    ...       venue="Some Journal 1", year=2020, arxiv="2001.00001").reference()
    'A. Author, B. Author. A title. Some Journal 1, 2020. arXiv:2001.00001.'
    """

    file: str
    title: str = ""
    key: str = ""
    authors: tuple[str, ...] = ()
    venue: str = ""
    year: int | None = None
    arxiv: str = ""
    url: str = ""
    doi: str = ""
    note: str = ""

    def cite(self, where: str = "", *also: str) -> str:
        """The source string of a passage: ``"<file> <where>"``.

        ``also`` are further citations (other papers' ``cite``), joined with "; ":

        >>> a, b = Paper("a.txt"), Paper("b.txt")
        >>> a.cite("l.1-5", b.cite("eq. (3) l.71"))
        'a.txt l.1-5; b.txt eq. (3) l.71'
        """
        return "; ".join((f"{self.file} {where}".strip(), *also))

    def reference(self) -> str:
        """One line: authors, title, venue, year, arXiv id, note (each only when known).

        A paper without bibliographic data falls back to its title, else its file:

        >>> Paper("notes.txt").reference(), Paper("n.txt", "Notes").reference()
        ('notes.txt.', 'Notes.')
        """
        parts = []
        if self.authors:
            parts.append(", ".join(self.authors))
        parts.append(self.title or self.file)
        where = ", ".join(str(p) for p in (self.venue, self.year) if p)
        if where:
            parts.append(where)
        if self.arxiv:
            parts.append(f"arXiv:{self.arxiv}")
        if self.note:
            parts.append(self.note)
        return ". ".join(p.rstrip(".") for p in parts) + "."

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values, plus ``reference`` (the report's ``papers``).

        >>> d = Paper("a.txt", "A", key="a", year=2021).to_dict()
        >>> d["key"], d["year"], d["authors"], d["reference"]
        ('a', 2021, [], 'A. 2021.')
        """
        return {"key": self.key, "file": self.file, "title": self.title,
                "authors": list(self.authors), "venue": self.venue, "year": self.year,
                "arxiv": self.arxiv, "url": self.url, "doi": self.doi, "note": self.note,
                "reference": self.reference()}

    def __str__(self) -> str:
        return self.file
