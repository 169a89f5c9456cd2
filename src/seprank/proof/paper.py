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

    def cite(self, where: str = "") -> str:
        """The source string of a passage: ``"<file> <where>"``."""
        return f"{self.file} {where}".strip()

    def __str__(self) -> str:
        return self.file
