"""Reports of a proof run: JSON (for machines) and Markdown (for people).

JSON shape::

    {"checks": [{"id", "title", "source", "verdict", "tier", "depends",
                 "steps": [{"claim", "source", "status", "evidence", "seconds", ...}],
                 "seconds"}],
     "summary": {"verified": n, "refuted": n, "inconclusive": n},
     "environment": {...}}
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import os
import platform
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

from seprank.errors import SeprankError
from seprank.output_files import STDOUT, prepare_folder, write_text
from seprank.proof.framework import VERDICTS, CheckResult

__all__ = ["environment", "report_dict", "write_json", "write_markdown", "write_report_folder",
           "markdown",
           "markdown_from_dict", "html_from_dict", "load_report"]

_PACKAGES = ("seprank", "python-flint", "numpy", "sympy", "networkx", "numba", "mpmath")


def environment() -> dict[str, Any]:
    """Versions, machine and time: what a reader needs to reproduce a report.

    Examples
    --------
    >>> env = environment()
    >>> env["python"] == platform.python_version(), "numpy" in env["packages"]
    (True, True)
    """
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "packages": versions,
        "time_utc": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "argv": sys.argv,
    }


def report_dict(results: list[CheckResult]) -> dict[str, Any]:
    """The JSON report's content: the checks, a count per verdict and the environment.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.record(total=1 + 1)
    >>> results = [run_check(CheckSpec("demo", "a demo", "none", body))]
    >>> data = report_dict(results)
    >>> data["summary"], data["checks"][0]["steps"][0]["evidence"]
    ({'verified': 1, 'refuted': 0, 'inconclusive': 0}, {'total': 2})
    """
    counts = Counter(r.verdict for r in results)
    return {
        "checks": [r.to_dict() for r in results],
        "summary": {v: counts.get(v, 0) for v in VERDICTS},
        "environment": environment(),
    }


def write_json(results: list[CheckResult] | dict[str, Any],
               path: str | os.PathLike) -> Path | str:
    """Write the JSON report to ``path`` (``-``: standard output) and return the path.

    ``results`` is a list of check results or an already built report dictionary.
    The file is written by :func:`seprank.output_files.write_text`: a regular file
    is replaced atomically, a device or pipe is written in place, a link is refused.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.record(total=1 + 1)
    >>> results = [run_check(CheckSpec("demo", "a demo", "none", body))]
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_json(results, Path(folder) / "sub" / "report.json")
    ...     load_report(path)["checks"][0]["verdict"]
    'verified'
    """
    data = results if isinstance(results, dict) else report_dict(results)
    return write_text(path, json.dumps(data, indent=2) + "\n")


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cell(text: str, limit: int = 220) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def markdown(results: list[CheckResult]) -> str:
    """The Markdown report of a run (see :func:`markdown_from_dict`).

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.record(total=1 + 1)
    >>> results = [run_check(CheckSpec("demo", "a demo", "none", body))]
    >>> text = markdown(results)
    >>> text.splitlines()[0], "1. **passed**: 1 + 1 = 2 [arithmetic]" in text
    ('# seprank proof report', True)
    """
    return markdown_from_dict(report_dict(results))


def _figure_links(figures: list[tuple[str, Path]] | None, base: Path | None) -> list[tuple]:
    out = []
    for check_id, path in figures or []:
        rel = Path(path).relative_to(base) if base is not None else Path(path)
        out.append((check_id, rel.as_posix()))
    return out


def _passed(check: dict[str, Any]) -> str:
    steps = check["steps"]
    return f"{sum(s['status'] == 'passed' for s in steps)}/{len(steps)} passed"


def markdown_from_dict(data: dict[str, Any], figures: list[tuple[str, Path]] | None = None,
                       base: Path | None = None) -> str:
    """Markdown from a report dictionary (the JSON report's content).

    ``figures``: (check id, image path) pairs to embed, paths relative to ``base``.

    Examples
    --------
    >>> data = {"environment": {}, "summary": {"verified": 1},
    ...         "checks": [{"id": "demo", "title": "a demo", "source": "none",
    ...                     "verdict": "verified", "seconds": 0.5, "steps": []}]}
    >>> for line in markdown_from_dict(data).splitlines()[6:9]:
    ...     print(line)
    | id | title | verdict | steps | seconds | findings |
    |---|---|---|---|---|---|
    | demo | a demo | **verified** | 0/0 passed | 0.50 | - |
    """
    env = data["environment"]
    lines = ["# seprank proof report", ""]
    lines.append(f"Run {env.get('time_utc')} on {env.get('platform')} "
                 f"({env.get('cpu_count')} CPUs), Python {env.get('python')}; packages: "
                 + ", ".join(f"{k} {v}" for k, v in env.get("packages", {}).items()) + ".")
    lines.append("")
    lines.append("Verdicts: " + ", ".join(f"{v} {n}" for v, n in data["summary"].items()) + ".")
    lines.append("")
    lines += ["| id | title | verdict | steps | seconds | findings |",
              "|---|---|---|---|---|---|"]
    for c in data["checks"]:
        found = "<br>".join(_cell(f) for f in c.get("findings", [])) or "-"
        lines.append(f"| {c['id']} | {c['title']} | **{c['verdict']}** | {_passed(c)} "
                     f"| {c['seconds']:.2f} | {found} |")
    links = _figure_links(figures, base)
    if links:
        lines += ["", "## Figures", ""]
        for check_id, rel in links:
            lines += [f"![{check_id}]({rel})", ""]
    for c in data["checks"]:
        lines += ["", f"## {c['id']}: {c['title']}", "",
                  f"Source: {c['source']}. Verdict: **{c['verdict']}** "
                  f"({c.get('tier', 'fast')} tier)."]
        if c.get("depends"):
            lines.append(f"Relies on: {', '.join(c['depends'])}.")
        lines.append("")
        for i, s in enumerate(c["steps"], 1):
            tag = " (corrected statement)" if s.get("corrected") else ""
            src = f" [{s['source']}]" if s.get("source") else ""
            lines.append(f"{i}. **{s['status']}**{tag}: {s['claim']}{src}")
            if s.get("message"):
                lines.append(f"   - note: {s['message']}")
            for key, value in s["evidence"].items():
                if key == "traceback":
                    continue
                lines.append(f"   - {key}: `{_short(value)}`")
    return "\n".join(lines) + "\n"


_HTML_STYLE = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
               "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;"
               "vertical-align:top}.verified{color:#176b17}.refuted{color:#b00020}"
               ".inconclusive{color:#9a6700}code{font-size:85%}")


def html_from_dict(data: dict[str, Any], figures: list[tuple[str, Path]] | None = None,
                   base: Path | None = None) -> str:
    """An HTML page from a report dictionary (no scripts; figures as relative images).

    Examples
    --------
    Text from the report is escaped:

    >>> data = {"environment": {}, "summary": {"verified": 1},
    ...         "checks": [{"id": "demo", "title": "x < y", "source": "none",
    ...                     "verdict": "verified", "seconds": 0.5, "steps": []}]}
    >>> page = html_from_dict(data)
    >>> page.startswith("<!DOCTYPE html>"), "x &lt; y" in page, "<script" in page
    (True, True, False)
    """
    esc = html.escape
    env = data["environment"]
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
           f"<title>seprank proof report</title><style>{_HTML_STYLE}</style></head><body>",
           "<h1>seprank proof report</h1>",
           f"<p>Run {esc(str(env.get('time_utc')))} on {esc(str(env.get('platform')))}; "
           + esc(", ".join(f"{k} {v}" for k, v in env.get("packages", {}).items())) + "</p>",
           "<p>Verdicts: " + esc(", ".join(f"{v} {n}" for v, n in data["summary"].items()))
           + "</p>",
           "<table><tr><th>id</th><th>title</th><th>verdict</th><th>steps</th>"
           "<th>seconds</th><th>findings</th></tr>"]
    for c in data["checks"]:
        found = "<br>".join(esc(f) for f in c.get("findings", [])) or "-"
        out.append(f"<tr><td><a href='#{esc(c['id'])}'>{esc(c['id'])}</a></td>"
                   f"<td>{esc(c['title'])}</td><td class='{esc(c['verdict'])}'>"
                   f"<b>{esc(c['verdict'])}</b></td><td>{_passed(c)}</td>"
                   f"<td>{c['seconds']:.2f}</td><td>{found}</td></tr>")
    out.append("</table>")
    for check_id, rel in _figure_links(figures, base):
        out.append(f"<p><img src='{esc(rel)}' alt='{esc(check_id)}'></p>")
    for c in data["checks"]:
        out.append(f"<h2 id='{esc(c['id'])}'>{esc(c['id'])}: {esc(c['title'])}</h2>")
        out.append(f"<p>Source: {esc(c['source'])}. Verdict: <b class='{esc(c['verdict'])}'>"
                   f"{esc(c['verdict'])}</b> ({esc(c.get('tier', 'fast'))} tier).</p><ol>")
        for s in c["steps"]:
            tag = " (corrected statement)" if s.get("corrected") else ""
            out.append(f"<li><b>{esc(s['status'])}</b>{tag}: {esc(s['claim'])} "
                       f"<i>[{esc(str(s.get('source')))}]</i>")
            if s.get("message"):
                out.append(f"<br>note: {esc(s['message'])}")
            items = [f"<li>{esc(k)}: <code>{esc(_short(v))}</code></li>"
                     for k, v in s["evidence"].items() if k != "traceback"]
            if items:
                out.append("<ul>" + "".join(items) + "</ul>")
            out.append("</li>")
        out.append("</ol>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def load_report(path: str | os.PathLike) -> dict[str, Any]:
    """Read a JSON proof report, refusing files that are not one (one-line error).

    Examples
    --------
    A report without a summary gets one, counted from the verdicts:

    >>> import tempfile
    >>> check = {"id": "a", "title": "A", "source": "none", "verdict": "refuted",
    ...          "steps": [], "seconds": 0.0}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "r.json"
    ...     _ = path.write_text(json.dumps({"checks": [check], "environment": {}}))
    ...     load_report(path)["summary"]
    {'verified': 0, 'refuted': 1, 'inconclusive': 0}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "r.json"
    ...     _ = path.write_text("[1, 2]")
    ...     load_report(path)
    Traceback (most recent call last):
    ...
    seprank.errors.SeprankError: ...r.json: not a seprank proof report ...
    """
    from seprank.matrix_io import read_json

    path = Path(path)
    data = read_json(path)
    ok = (isinstance(data, dict) and isinstance(data.get("checks"), list)
          and isinstance(data.get("environment"), dict)
          and all(isinstance(c, dict) and {"id", "title", "source", "verdict", "steps",
                                           "seconds"} <= set(c) for c in data["checks"]))
    if not ok:
        raise SeprankError(f"{path}: not a seprank proof report (expected 'checks' with id, "
                           "title, source, verdict, steps, seconds, and 'environment')")
    if "summary" not in data:
        counts = Counter(c["verdict"] for c in data["checks"])
        data["summary"] = {v: counts.get(v, 0) for v in VERDICTS}
    return data


def write_markdown(results: list[CheckResult] | dict[str, Any], path: str | os.PathLike,
                   figures_folder: str | os.PathLike | None = None) -> Path | str:
    """Write the Markdown report to ``path`` (``-``: standard output); return the path.

    Figures are drawn only when ``figures_folder`` is given (into that folder,
    linked relative to the Markdown file's folder); nothing else is created.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.record(total=1 + 1)
    >>> results = [run_check(CheckSpec("demo", "a demo", "none", body))]
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_markdown(results, Path(folder) / "report.md")
    ...     path.read_text().startswith("# seprank proof report"), len(list(Path(folder).iterdir()))
    (True, 1)
    """
    data = results if isinstance(results, dict) else report_dict(results)
    figures = None
    if figures_folder is not None and str(path) != STDOUT:
        from seprank.proof.figures import write_figures

        here = os.path.abspath(Path(path).parent)  # links relative to the Markdown file
        figures = [(cid, Path(os.path.relpath(os.path.abspath(p), here)))
                   for cid, p in write_figures(data, figures_folder)]
    return write_text(path, markdown_from_dict(data, figures))


def write_report_folder(results: list[CheckResult], folder: str | os.PathLike
                        ) -> dict[str, Path]:
    """Write the whole report of a run into one folder; return the paths written.

    The folder gets ``report.json``, ``report.md``, ``report.html`` and, when a
    check's evidence has a figure, ``figures/*.png``. Nothing is written
    outside it.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.record(total=1 + 1)
    >>> results = [run_check(CheckSpec("demo", "a demo", "none", body))]
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     paths = write_report_folder(results, Path(tmp) / "out")
    ...     sorted(p.name for p in (Path(tmp) / "out").iterdir()), sorted(paths)
    (['report.html', 'report.json', 'report.md'], ['html', 'json', 'markdown'])
    """
    from seprank.proof.figures import write_figures

    folder = prepare_folder(folder)
    data = report_dict(results)
    figures = write_figures(data, folder / "figures")
    return {
        "json": write_json(data, folder / "report.json"),
        "markdown": write_text(folder / "report.md", markdown_from_dict(data, figures, folder)),
        "html": write_text(folder / "report.html", html_from_dict(data, figures, folder)),
    }
