"""Jinja2 environments for the reports' templates (``seprank/templates/*.j2``).

The Markdown environment does not escape; the HTML one escapes every value
(autoescape), so report text can never inject markup. Both strip the newline
after a block tag, so a template's lines are the output's lines.
"""

from __future__ import annotations

from functools import cache
from typing import Any


def _clip(text: Any, limit: int = 220) -> str:
    """One line, at most ``limit`` characters (an ellipsis marks a cut)."""
    text = str(text).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cell(text: Any, limit: int = 220) -> str:
    """A Markdown table cell: ``|`` escaped, one line, at most ``limit`` characters."""
    return _clip(str(text).replace("|", "\\|"), limit)


@cache
def _environment(kind: str):
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("seprank", "templates"),
        autoescape=kind == "html", trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["clip"] = _clip
    env.filters["cell"] = _cell
    return env


def render(name: str, **context: Any) -> str:
    """Render ``templates/<name>`` (``*.html.j2`` escaped, ``*.md.j2`` not).

    Examples
    --------
    >>> render("sortable.js.j2").startswith("<script>")
    True
    """
    kind = "html" if name.endswith(".html.j2") else "md"
    return _environment(kind).get_template(name).render(**context)
