"""Reports of a proof run: JSON (for machines) and Markdown (for people).

JSON shape, schema version 2 (checked by :func:`validate_report`)::

    {"schema_version": 2,
     "checks": [{"id", "title", "source", "verdict", "tier", "depends", "findings",
                 "claim": {"kind", "main_result", "statement", "source", "universal"},
                 "outcome", "strength", "binding", "basis", "reason",
                 "instances": {"count", "largest"} | null,
                 "requested_outcome", "violations", "dependency_outcomes",
                 "errata": [{"location", "printed", "corrected", "severity",
                             "in_statement", "verified", "instance", "step", ...}],
                 "steps": [{"claim", "source", "status", "evidence", "seconds", ...}],
                 "seconds"}],
     "summary": {"verified": n, "refuted": n, "inconclusive": n},
     "outcomes": {"holds": n, "holds-corrected": n, "false": n, "open": n},
     "errata_by_severity": {"false-statement": n, ...},
     "main_results": [{"paper", "id", "kind", "statement", "outcome", "strength",
                       "binding"}],
     "environment": {...}}

``verdict`` is the verdict on the printed text (verified / refuted /
inconclusive); ``outcome`` is what happens to the claim (see
:mod:`seprank.proof.claims`).
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
from seprank.proof.claims import CLAIM_KINDS, OUTCOMES, SEVERITIES, STRENGTHS
from seprank.proof.framework import STEP_STATUSES, VERDICTS, CheckResult

__all__ = ["SCHEMA_VERSION", "PAPERS", "paper_of", "environment", "report_dict",
           "validate_report", "write_json", "write_markdown", "markdown",
           "markdown_from_dict", "html_from_dict", "load_report"]

SCHEMA_VERSION = 2

#: paper key (as `seprank errata` takes it) -> (id prefix, source file)
PAPERS = {
    "levine2020": ("L-", "levine2020_depth_to_width_self_attention.txt"),
    "wies2021": ("W-", "wies2021_vocabulary_bottleneck.txt"),
    "chapter7": ("C7-", "tensors_for_dl_theory_chapter7.txt"),
    "rank_collapse": ("R-", "rank_collapse_notes.txt"),
    "amsel": ("A-", "amsel_benefits_of_rank_talk.txt"),
}


def paper_of(check_id: str) -> str | None:
    """The paper key of a mission-map id (by its prefix), or None.

    Examples
    --------
    >>> paper_of("L-Thm1"), paper_of("C7-claims"), paper_of("demo")
    ('levine2020', 'chapter7', None)
    """
    for key, (prefix, _) in PAPERS.items():
        if check_id.startswith(prefix):
            return key
    return None

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
    >>> data["schema_version"], data["checks"][0]["outcome"], validate_report(data)
    (2, 'open', [])
    """
    checks = [r.to_dict() for r in results]
    counts = Counter(r.verdict for r in results)
    outcomes = Counter(c["outcome"] for c in checks)
    severities = Counter(e["severity"] for c in checks for e in c["errata"])
    main = [{"paper": paper_of(c["id"]), "id": c["id"], "kind": c["claim"]["kind"],
             "statement": c["claim"]["statement"], "outcome": c["outcome"],
             "strength": c["strength"], "binding": c["binding"]}
            for c in checks if c["claim"] is not None and c["claim"]["main_result"]]
    return {
        "schema_version": SCHEMA_VERSION,
        "checks": checks,
        "summary": {v: counts.get(v, 0) for v in VERDICTS},
        "outcomes": {o: outcomes.get(o, 0) for o in OUTCOMES},
        "errata_by_severity": {s: severities.get(s, 0) for s in SEVERITIES},
        "main_results": main,
        "environment": environment(),
    }


def _type_errors(where: str, obj: Any, spec: dict[str, Any]) -> list[str]:
    out = []
    if not isinstance(obj, dict):
        return [f"{where}: expected an object"]
    for key, want in spec.items():
        if key not in obj:
            out.append(f"{where}: missing {key!r}")
            continue
        value = obj[key]
        if isinstance(want, tuple) and all(isinstance(w, str) for w in want):
            if value not in want:
                out.append(f"{where}.{key}: {value!r} is not one of {', '.join(want)}")
        elif not isinstance(value, want):
            out.append(f"{where}.{key}: {type(value).__name__} is not {want}")
    return out


_CHECK_FIELDS = {"id": str, "title": str, "source": str, "verdict": VERDICTS,
                 "tier": ("fast", "full"), "depends": list, "findings": list,
                 "claim": (dict, type(None)), "outcome": OUTCOMES, "strength": STRENGTHS,
                 "binding": (bool, type(None)), "reason": str,
                 "instances": (dict, type(None)), "violations": list,
                 "dependency_outcomes": dict, "errata": list, "steps": list,
                 "seconds": (int, float)}
_CLAIM_FIELDS = {"kind": CLAIM_KINDS, "main_result": bool, "statement": str, "source": str,
                 "universal": bool}
_ERRATUM_FIELDS = {"location": str, "printed": str, "corrected": str,
                   "severity": SEVERITIES, "in_statement": bool, "verified": bool}
_STEP_FIELDS = {"claim": str, "status": STEP_STATUSES, "evidence": dict,
                "seconds": (int, float)}


def validate_report(data: Any) -> list[str]:
    """The ways ``data`` departs from schema version 2 (an empty list: valid).

    A hand-written validator (no jsonschema dependency): field presence, types,
    the closed vocabularies, and cross-field rules (``binding`` is a bool
    exactly for instance evidence, a ``proof-error`` says whether the
    statement survives, a ``missing-hypothesis`` names the hypothesis).

    Examples
    --------
    >>> problems = validate_report({"schema_version": 1, "checks": [], "environment": {}})
    >>> problems[:2]
    ['schema_version: 1, expected 2', "missing 'summary'"]
    """
    if not isinstance(data, dict):
        return ["the report is not an object"]
    out = []
    if data.get("schema_version") != SCHEMA_VERSION:
        out.append(f"schema_version: {data.get('schema_version')!r}, expected {SCHEMA_VERSION}")
    for key in ("checks", "environment", "summary", "outcomes", "errata_by_severity",
                "main_results"):
        if key not in data:
            out.append(f"missing {key!r}")
    for i, c in enumerate(data.get("checks") or []):
        where = f"checks[{i}]" + (f" ({c.get('id')})" if isinstance(c, dict) else "")
        errs = _type_errors(where, c, _CHECK_FIELDS)
        out += errs
        if errs:
            continue
        if c["claim"] is not None:
            out += _type_errors(where + ".claim", c["claim"], _CLAIM_FIELDS)
        if c["strength"] == "instances":
            if not isinstance(c["binding"], bool):
                out.append(f"{where}: instance evidence without a binding flag")
            if not isinstance(c["instances"], dict) or "count" not in c["instances"]:
                out.append(f"{where}: instance evidence without a count")
        for j, e in enumerate(c["errata"]):
            w = f"{where}.errata[{j}]"
            out += _type_errors(w, e, _ERRATUM_FIELDS)
            if isinstance(e, dict) and e.get("severity") == "proof-error" and \
                    not isinstance(e.get("survives"), bool):
                out.append(f"{w}: a proof-error says whether the statement survives")
            if isinstance(e, dict) and e.get("severity") == "missing-hypothesis" and \
                    not e.get("hypothesis"):
                out.append(f"{w}: a missing-hypothesis names the hypothesis")
        for j, s in enumerate(c["steps"]):
            out += _type_errors(f"{where}.steps[{j}]", s, _STEP_FIELDS)
    return out


def write_json(results: list[CheckResult], path: str | os.PathLike) -> Path:
    """Write the JSON report to ``path`` (through a temporary file) and return the path.

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
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(report_dict(results), indent=2) + "\n")
    tmp.replace(path)
    return path


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
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise SeprankError(f"{path}: no such file") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise SeprankError(f"{path}: not valid JSON ({exc})") from None
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


def write_markdown(results: list[CheckResult], path: str | os.PathLike) -> Path:
    """Write the Markdown report, with its figures in ``<stem>-figures/`` beside it.

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
    ...     path.read_text().startswith("# seprank proof report")
    True
    """
    from seprank.proof.figures import write_figures

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = report_dict(results)
    figures = write_figures(data, path.parent / f"{path.stem}-figures")
    path.write_text(markdown_from_dict(data, figures, path.parent))
    return path
