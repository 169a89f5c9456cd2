"""Write each paper wing's map of its bundled text: ``src/seprank/papers/<key>/sections.py``.

    python docs/paper_maps.py [--papers DIR] [--check]

reads the texts (``DIR``, default: ``$SEPRANK_PAPERS``, else ``../shared/papers`` beside
the checkout), finds in each its section headings and its numbered displays, applies
the corrections of :data:`FIXES` (what the parser cannot know: headings that are figure
panels, a tag that is not one), and writes one ``sections.py`` per wing holding an
:class:`seprank.paper_hooks.outline.Outline`: for every section its label, heading and line
range, for every numbered display its number and lines, and the text's length and
SHA-256 prefix. Only these facts are written, never a sentence of a paper, so nothing
at run time needs the texts. ``--check`` writes nothing and exits 1 when a committed
map differs from what the texts give (``tests/test_citations.py`` runs it when the
texts are there).

How headings are found: in the plain-text paper (levine2020), a line that is a section
number and a heading ("B.3 Technical lemmas", "Appendix A ..."); in the Markdown ones,
a ``#`` line whose words start with a section number ("### B.2.1. ..."), the depth
coming from the number, not from the count of ``#``. Unnumbered headings are kept only
when :data:`FIXES` lists them (Abstract, References, ...); the talk (amsel) has no
numbers: its slide titles are its sections, repeated titles of consecutive slides merged.
A display's number is a tag "(n)" or "(7.11)" that ends a line after a space; a tag
alone on its line belongs to the display on the line before.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WINGS = ("levine2020", "wies2021", "chapter7", "rank_collapse", "amsel")

#: per wing: ``keep`` unnumbered headings kept, ``drop_tags`` (line numbers whose "(n)" is
#: not a display tag), ``name`` how citations name the paper when the authors' surnames
#: do not say it, ``unit`` the word for an unnumbered section, ``slides`` (a talk)
FIXES: dict[str, dict] = {
    "levine2020": {"keep": {"Abstract", "Acknowledgments", "References"}},
    "wies2021": {"keep": {"Abstract", "Acknowledgments", "References", "Contents"}},
    "chapter7": {"keep": set()},
    "rank_collapse": {"keep": {"Contents"}, "drop_tags": {88},  # o(1) ends l.88
                      "name": "Xie 2021"},
    "amsel": {"slides": True, "name": "Amsel (talk)", "unit": "slide"},
}

_NUMBER = r"(?:[A-Z](?:\.\d+)+|[A-Z](?=\.\s)|\d+(?:\.\d+)*)"
_PLAIN = re.compile(r"^(?:Appendix ([A-Z]) (.+)|(" + _NUMBER + r") ([^\d\s-].*))$")
_MD = re.compile(r"^#+\s+(?:\*\*)?(?:Appendix\s+)?(" + _NUMBER + r")\.?\s+(.+?)(?:\*\*)?\s*$")
_TAG = re.compile(r"(?:^|\s)\((\d+(?:\.\d+)?)\)\s*\$*\s*$")


def _plain_title(title: str) -> str:
    """A heading as words: LaTeX simplified, words in capitals lowered, first letter up."""
    title = re.sub(r"\\(?:text|mathbf|mathbb|mathrm)\{([^}]*)\}", r"\1", title)
    title = title.replace("^\\top", "^T").replace("\\times", "x")
    title = re.sub(r"\s+", " ", title.replace("$", "").replace("**", "")).strip().rstrip(".")
    words = title.split(" ")
    def word(w: str) -> bool:
        return w.replace("-", "").isalpha() and len(w) > 1

    caps = [w for w in words if word(w)]
    if caps and all(w.isupper() for w in caps):
        title = " ".join(w.lower() if word(w) else w for w in words)
    return title[:1].upper() + title[1:]


def _depth(label: str) -> int:
    return label.count(".") + 1


def _headings(lines: list[str], fixes: dict) -> list[tuple[str, str, int]]:
    """(label, heading, line) of each section start, in text order."""
    out = []
    markdown = any(ln.startswith("#") for ln in lines)
    for i, line in enumerate(lines, 1):
        text = line.rstrip()
        if fixes.get("slides"):
            m = re.match(r"^#+\s+(.+)$", text)
            if m and not m.group(1).startswith("**"):
                title = _plain_title(m.group(1))
                if not out or out[-1][1] != title:
                    out.append(("", title, i))
            continue
        m = _MD.match(text) if markdown else _PLAIN.match(text)
        if m:
            label = m.group(1) if markdown else (m.group(1) or m.group(3))
            title = m.group(2) if markdown else (m.group(2) or m.group(4))
            out.append((label, _plain_title(title), i))
            continue
        bare = _plain_title(re.sub(r"^#+\s+", "", text)) if (text.startswith("#")
                                                             or not markdown) else ""
        if bare in fixes.get("keep", ()):
            out.append(("", bare, i))
    return out


def _sections(heads: list[tuple[str, str, int]], n_lines: int) -> list[tuple]:
    """Each heading's line range: up to the next heading of the same or a lower depth."""
    out = []
    for k, (label, title, first) in enumerate(heads):
        depth = _depth(label) if label else 1
        last = n_lines
        for label2, _, first2 in heads[k + 1:]:
            if (_depth(label2) if label2 else 1) <= depth:
                last = first2 - 1
                break
        out.append((label, title, first, last))
    return out


def _equations(lines: list[str], fixes: dict) -> list[tuple[str, int, int]]:
    """(number, first line, last line) of every tagged display, merged by number."""
    found: dict[str, list[int]] = {}
    for i, line in enumerate(lines, 1):
        m = _TAG.search(line.rstrip())
        if not m or i in fixes.get("drop_tags", ()):
            continue
        first = i
        if not line[: m.start()].strip():  # a tag alone on its line: the display above
            first = next(j for j in range(i - 1, 0, -1) if lines[j - 1].strip())
        span = found.setdefault(m.group(1), [first, i])
        span[0], span[1] = min(span[0], first), max(span[1], i)
    return [(n, a, b) for n, (a, b) in found.items()]


def _row(section: tuple) -> str:
    """One section's line of ``sections.py`` (two when it would pass 100 columns)."""
    label, title, first, last = section
    row = f"        ({label!r}, {title!r}, {first}, {last}),"
    return row if len(row) <= 100 else f"        ({label!r}, {title!r},\n         {first}, {last}),"


def outline_source(key: str, file: str, text: str) -> str:
    """The text of ``sections.py`` for the wing ``key`` whose bundled text is ``text``."""
    fixes = FIXES[key]
    lines = text.splitlines()
    sections = _sections(_headings(lines, fixes), len(lines))
    equations = _equations(lines, fixes)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    extra = "".join(f",\n    {k}={fixes[k]!r}" for k in ("name", "unit") if fixes.get(k))
    rows = "\n".join(_row(s) for s in sections)
    eqs = "".join(f"\n        ({e[0]!r}, {e[1]}, {e[2]})," for e in equations)
    return f'''"""Map of the bundled text of {key}: its sections and numbered displays, by line.

Written by ``docs/paper_maps.py`` from ``{file}``
({len(lines)} lines); do not edit by hand (fix the script's ``FIXES`` and rerun it).
Facts only: section labels and headings, display numbers, line numbers (1-based,
inclusive). Used by citations (:meth:`seprank.paper_hooks.paper_record.Paper.locate`), never to read
the text.
"""

from seprank.paper_hooks.outline import Outline

__all__ = ["OUTLINE"]

OUTLINE = Outline.from_rows(
    {file!r},
    {len(lines)},
    [  # (label, heading, first line, last line)
{rows}
    ],
    [  # (display number, first line, last line){eqs}
    ],
    digest={digest!r}{extra},
)
'''


def papers_folder(given: str | None) -> Path:
    """The folder of the texts: ``given``, else where seprank looks for them
    (:func:`seprank.proof.citation.texts_folder`: ``$SEPRANK_PAPERS``, ``../shared/papers``)."""
    from seprank.proof.citation import texts_folder

    folder = Path(given) if given else texts_folder()
    if folder is None or not folder.is_dir():
        sys.exit("paper_maps: the paper texts are not found: give --papers DIR")
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", metavar="DIR", default=None, help="folder of the paper texts")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a committed map differs from the texts")
    args = ap.parse_args(argv)
    folder = papers_folder(args.papers)
    stale = []
    for key in WINGS:
        file = importlib.import_module(f"seprank.papers.{key}").PAPER.file
        source = outline_source(key, file, (folder / file).read_text(encoding="utf-8"))
        target = ROOT / "src" / "seprank" / "papers" / key / "sections.py"
        if args.check:
            if not target.is_file() or target.read_text() != source:
                stale.append(str(target.relative_to(ROOT)))
        else:
            target.write_text(source)
            print(f"wrote {target.relative_to(ROOT)}")
    for path in stale:
        print(f"stale: {path} (rerun python docs/paper_maps.py)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
