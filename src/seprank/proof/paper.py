"""A paper a check cites: its text file, title and a short key.

Steps and checks cite their sources as ``"<file> l.720"`` or ``"<file> eq. (12)"``;
a :class:`Paper` builds those strings so a plugin names its paper once.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Paper"]


@dataclass(frozen=True)
class Paper:
    """A cited paper: ``file`` (its text under ``papers/``, say), ``title``, ``key``.

    ``cite(where)`` gives the source string of a step ("file l.720");
    ``str(paper)`` is the file name (a check's ``source=`` accepts a Paper).

    Examples
    --------
    >>> schur = Paper("schur1911.txt", "Bemerkungen zur Theorie der beschraenkten "
    ...               "Bilinearformen", key="schur1911")
    >>> schur.cite("l.12"), schur.cite("Satz III"), str(schur)
    ('schur1911.txt l.12', 'schur1911.txt Satz III', 'schur1911.txt')
    """

    file: str
    title: str = ""
    key: str = ""

    def cite(self, where: str = "", *also: str) -> str:
        """The source string of a passage: ``"<file> <where>"``.

        ``also`` are further citations (other papers' ``cite``), joined with "; ":

        >>> a, b = Paper("a.txt"), Paper("b.txt")
        >>> a.cite("l.1-5", b.cite("eq. (3) l.71"))
        'a.txt l.1-5; b.txt eq. (3) l.71'
        """
        return "; ".join((f"{self.file} {where}".strip(), *also))

    def __str__(self) -> str:
        return self.file
