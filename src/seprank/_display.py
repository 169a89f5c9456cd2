"""Short rich displays for Jupyter (``_repr_html_`` / ``_repr_markdown_``).

One small table per object, the answer kind (or outcome) always visible; all
text HTML-escaped. Private: the public face is the ``_repr_*_`` methods of
RankResult, CheckResult, ProofReport and ResultStore.
"""

from __future__ import annotations

import html
from collections.abc import Sequence


def html_table(caption: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A small HTML table; every cell escaped.

    >>> html_table("a < b", ["x"], [["<1>"]])
    '<table><caption>a &lt; b</caption><tr><th>x</th></tr><tr><td>&lt;1&gt;</td></tr></table>'
    """
    out = [f"<table><caption>{html.escape(caption)}</caption>",
           "<tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    return "".join(out) + "</table>"


def _md_cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def md_table(caption: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A small Markdown table under a bold caption.

    >>> print(md_table("ranks", ["value", "kind"], [[2, "exact"]]))
    **ranks**
    <BLANKLINE>
    | value | kind |
    |---|---|
    | 2 | exact |
    """
    lines = [f"**{_md_cell(caption)}**", "", "| " + " | ".join(map(_md_cell, header)) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
