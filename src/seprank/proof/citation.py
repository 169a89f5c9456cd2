"""Citations a reader can follow: source strings rendered with sections and displays.

A check cites the papers by their bundled text files and line numbers
(:meth:`seprank.paper_hooks.paper_record.Paper.cite`:
``"levine2020_depth_to_width_self_attention.txt B.3 l.720-757"``, several passages joined
with "; "). :func:`render` rewrites such a string for a person who has the paper but not the
file: "Levine et al. 2020, sec. B.3, eqs. (28)-(30) (l.720-757 of the bundled text)", from
each paper's map of its text (:mod:`seprank.paper_hooks.outline`, shipped by its wing). The
console, the Markdown and HTML reports and the erratum sheets print the rendered form; the
JSON report keeps ``source`` and adds it as ``citation`` (:func:`add_citations`).
:func:`texts_folder` says where the texts themselves are, if anywhere (``$SEPRANK_PAPERS``,
else ``../shared/papers``), and :func:`missing_texts_note` the one line ``seprank prove``
prints when they are not.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from seprank.paper_hooks.outline import split_top
from seprank.paper_hooks.paper_record import Paper

__all__ = ["PAPERS_ENV", "render", "papers_by_file", "add_citations", "with_citations",
           "texts_folder",
           "missing_texts", "missing_texts_note"]

#: the environment variable that names the folder of the paper texts
PAPERS_ENV = "SEPRANK_PAPERS"


def papers_by_file(extra: Iterable[Any] = ()) -> dict[str, Paper]:
    """File name -> :class:`Paper`: the registered papers (with their text maps), then
    ``extra`` (Papers, or a report's ``papers`` dictionaries) for the files they lack.

    >>> papers_by_file()["wies2021_vocabulary_bottleneck.txt"].key
    'wies2021'
    >>> papers_by_file([{"file": "s.txt", "key": "s", "authors": ["I. Schur"], "year": 1911}]
    ...                )["s.txt"].short_name()
    'Schur 1911'
    """
    from seprank.paper_hooks import papers

    out = {p.file: p for p in papers().values()}
    for p in extra:
        if isinstance(p, Mapping):
            fields = {k: p[k] for k in ("file", "title", "key", "venue", "year", "arxiv", "url",
                                        "doi", "note") if p.get(k) is not None}
            p = Paper(**fields, authors=tuple(p.get("authors") or ()))
        if isinstance(p, Paper) and p.file and p.file not in out:
            out[p.file] = p
    return out


def render(source: str | None, papers: Mapping[str, Paper] | None = None,
           default: Paper | None = None, name: bool = True) -> str:
    """``source`` (a check's, a step's or an erratum's location) in words a reader can
    follow without the bundled texts.

    Each "; "-separated part that starts with a paper's file or key (``papers``: file ->
    Paper, default :func:`papers_by_file`) is located in that paper's text map; a part without a
    file belongs to the paper of the part before it, or to ``default`` (an erratum's
    location belongs to its check's paper). ``name``: open each part that names a file
    with the paper's short name (False: only parts of another paper than ``default``).
    A string that cites no known paper comes back unchanged.

    Examples
    --------
    >>> render("levine2020_depth_to_width_self_attention.txt B.3 l.720-757")
    'Levine et al. 2020, sec. B.3, eqs. (28)-(30) (l.720-757 of the bundled text)'
    >>> render("wies2021_vocabulary_bottleneck.txt l.570; l.137")
    'Wies et al. 2021, sec. B.2 (l.570 of the bundled text); sec. 4 (l.137 of the bundled text)'
    >>> from seprank.paper_hooks import paper
    >>> render("Theorem 2, eq. (8), upper bound, l.154-156", default=paper("levine2020"))
    'sec. 4.2, Theorem 2, eq. (8), upper bound (l.154-156 of the bundled text)'
    >>> render("arithmetic"), render(None)
    ('arithmetic', '')
    """
    if not source:
        return ""
    papers = papers_by_file() if papers is None else papers
    index = {**{p.key: p for p in papers.values() if p.key}, **papers}  # key or file
    current, out = default, []
    for part in split_top(source, "; "):
        part = part.strip()
        file = next((f for f in index if part == f or part.startswith(f + " ")), None)
        if file is not None:
            current = index[file]
            where = part[len(file):]
            named = name or default is None or current.file != default.file
            out.append(current.locate(where, name=named))
        elif current is not None:
            out.append(current.locate(part, name=False))
        else:
            out.append(part)
    return "; ".join(out)


def add_citations(data: dict[str, Any]) -> dict[str, Any]:
    """Add ``citation`` (the rendered ``source``, or an erratum's ``location``) to every
    check, claim, step and erratum of a report dictionary; return it (changed in place).

    >>> data = {"checks": [{"source": "rank_collapse_notes.txt l.76", "paper": None,
    ...                     "claim": None, "steps": [], "errata": []}], "papers": {}}
    >>> add_citations(data)["checks"][0]["citation"]
    'Xie 2021, sec. 2.2 (l.76 of the bundled text)'
    """
    from seprank.proof.report.schema import paper_of_check

    described = data.get("papers") or {}
    papers = papers_by_file(described.values())
    by_key = {p.key: p for p in papers.values() if p.key}
    for c in data.get("checks") or []:
        own = by_key.get(paper_of_check(c) or "")
        c["citation"] = render(c.get("source"), papers, own)
        if isinstance(c.get("claim"), dict):
            c["claim"]["citation"] = render(c["claim"].get("source"), papers, own)
        for s in c.get("steps") or []:
            s["citation"] = render(s.get("source"), papers, own)
        for e in c.get("errata") or []:
            e["citation"] = render(e.get("location"), papers, own)
    return data


def with_citations(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` when every check has its ``citation``, else a copy with them added (a
    report written before citations existed; the file's dictionary is not changed).

    >>> old = {"checks": [{"source": "rank_collapse_notes.txt l.76", "steps": [],
    ...                    "errata": [], "claim": None}]}
    >>> new = with_citations(old)
    >>> "citation" in old["checks"][0], new["checks"][0]["citation"]
    (False, 'Xie 2021, sec. 2.2 (l.76 of the bundled text)')
    >>> with_citations(new) is new
    True
    """
    if all("citation" in c for c in data.get("checks") or []):
        return data
    import copy

    return add_citations(copy.deepcopy(data))


def texts_folder() -> Path | None:
    """The folder of the paper texts: ``$SEPRANK_PAPERS``, else ``../shared/papers`` beside
    the working directory or beside the source checkout; None when there is none.

    >>> import os
    >>> old = os.environ.pop(PAPERS_ENV, None)
    >>> os.environ[PAPERS_ENV] = "/no/such/folder"
    >>> texts_folder() is None or texts_folder().name == "papers"
    True
    >>> _ = os.environ.pop(PAPERS_ENV) if old is None else os.environ.update({PAPERS_ENV: old})
    """
    env = os.environ.get(PAPERS_ENV)
    if env:
        return Path(env) if Path(env).is_dir() else None
    here = Path(__file__).resolve()
    for base in (Path.cwd(), here.parents[3]):  # src/seprank/proof/citation.py -> checkout
        folder = base.parent / "shared" / "papers"
        if folder.is_dir():
            return folder
    return None


def missing_texts(papers: Iterable[Paper]) -> list[str]:
    """The bundled texts of ``papers`` that :func:`texts_folder` does not hold as mapped
    (absent, or another version than the one the paper's map was made from); a paper
    without a map (a plugin's, say) has no bundled text to miss.

    >>> from seprank.paper_hooks.outline import Outline
    >>> missing_texts([Paper("nowhere.txt", outline=Outline("nowhere.txt", 3)),
    ...                Paper("plugin.txt")])
    ['nowhere.txt']
    """
    folder = texts_folder()
    out = []
    for p in papers:
        if p.outline is None:
            continue
        path = None if folder is None else folder / p.file
        if path is None or not path.is_file():
            out.append(p.file)
        elif p.outline.digest:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
            if digest != p.outline.digest:
                out.append(f"{p.file} (another version)")
    return out


def missing_texts_note(papers: Iterable[Paper]) -> str | None:
    """One line for ``seprank prove`` when the texts of ``papers`` are not at hand (None
    when they all are): what is missing and what is lost (only the line pointers).

    >>> from seprank.paper_hooks.outline import Outline
    >>> text = Paper("no-such-text.txt", key="x", outline=Outline("no-such-text.txt", 9))
    >>> missing_texts_note([text]).startswith("seprank: note: 1 paper text not found")
    True
    >>> missing_texts_note([Paper("plugin.txt", key="p")]) is None    # no map, no text
    True
    """
    missing = missing_texts(papers)
    if not missing:
        return None
    where = texts_folder()
    n = len(missing)
    return (f"seprank: note: {n} paper text{'s' if n != 1 else ''} not found "
            f"({where if where else f'set ${PAPERS_ENV} or use ../shared/papers'}); "
            "citations name sections and equations, only their l.N pointers need the texts")
