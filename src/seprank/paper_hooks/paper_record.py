"""A paper a check cites: its text file, title, key and full bibliographic reference.

Steps and checks cite their sources as ``"<file> l.720"`` or ``"<file> eq. (12)"``;
a :class:`Paper` builds those strings so a plugin names its paper once. The
optional bibliographic fields (authors, venue, year, arXiv id, URL or DOI, a
note) give :meth:`Paper.reference`, the one-line reference that erratum sheets
open with and ``seprank papers`` prints. The optional ``outline``
(:class:`seprank.paper_hooks.outline.Outline`, the map of the bundled text's sections and
numbered displays) lets :meth:`Paper.locate` say where a line is in words a reader
of any copy of the paper can follow; it never changes :meth:`Paper.cite`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seprank.paper_hooks.outline import Outline, render_where

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
    outline: Outline | None = field(default=None, compare=False, repr=False)

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

    def short_name(self) -> str:
        """How a citation names the paper: the outline's ``name``, else the first
        author's surname ("et al." from three authors on) and the year, else the key.

        >>> Paper("a.txt", authors=("Ann Author", "Bo Bee", "C. Sea"), year=2020).short_name()
        'Author et al. 2020'
        >>> Paper("a.txt", authors=("Ann Author", "Bo Bee")).short_name()
        'Author and Bee'
        >>> Paper("a.txt", key="a1").short_name(), Paper("a.txt").short_name()
        ('a1', 'a.txt')
        """
        if self.outline is not None and self.outline.name:
            return self.outline.name
        if not self.authors:
            return self.key or self.file
        last = [a.split()[-1] for a in self.authors]
        who = (f"{last[0]} et al." if len(last) > 2 else " and ".join(last))
        return f"{who} {self.year}" if self.year else who

    def locate(self, where: str = "", name: bool = True) -> str:
        """The passage ``where`` (what :meth:`cite` takes) in words a reader can follow
        without the bundled text: section, displays, then the line pointers.

        ``name`` puts the paper's :meth:`short_name` first. Without an outline the
        words of ``where`` are kept as they are.

        >>> from seprank.paper_hooks.outline import Outline
        >>> o = Outline.from_rows("p.txt", 50, [("B.3", "Technical lemmas", 20, 50)],
        ...                       [("31", 30, 30)])
        >>> p = Paper("p.txt", "P", key="p", authors=("Y. Levine", "N. Wies", "O. Sharir"),
        ...           year=2020, outline=o)
        >>> p.locate("l.20-40")
        'Levine et al. 2020, sec. B.3, eq. (31) (l.20-40 of the bundled text)'
        >>> p.cite("l.20-40")                       # the source string is unchanged
        'p.txt l.20-40'
        """
        return render_where(where, self.outline, self.short_name() if name else "")

    def __str__(self) -> str:
        return self.file
