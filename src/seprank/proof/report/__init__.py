"""Reports of a proof run: JSON (for machines) and Markdown / HTML (for people).

The JSON report is :func:`report_dict` (its schema, version 3, and the reader of
version-2 files: :mod:`seprank.proof.report.schema`); the Markdown and HTML
reports render it through the Jinja2 templates ``seprank/templates/proof_report.*``,
grouped by the papers of the checks (each check's ``paper``).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

from seprank.errors import SeprankError
from seprank.files.output_files import STDOUT, prepare_folder, write_text
from seprank.proof.claims import OUTCOMES, SEVERITIES
from seprank.proof.framework import VERDICTS, CheckResult
from seprank.proof.report.schema import (
    READABLE_VERSIONS,
    SCHEMA_VERSION,
    paper_of_check,
    report_papers,
    validate_report,
)
from seprank.proof.strength import argument_text, scope_text

__all__ = ["SCHEMA_VERSION", "READABLE_VERSIONS", "STANDING", "paper_of_check", "report_papers",
           "strength_text", "environment", "report_dict", "validate_report", "write_json",
           "write_markdown", "write_report_folder", "markdown", "markdown_from_dict",
           "html_from_dict", "load_report", "ProofReport"]


def _papers_dict(results: list[CheckResult]) -> dict[str, dict[str, Any]]:
    """``papers`` of a new report: registered papers first (their order), then the others."""
    from seprank.paper_hooks import papers

    found: dict[str, Any] = {}
    for r in results:
        if r.paper_key is not None:
            found.setdefault(r.paper_key, r.paper)
    order = [k for k in papers() if k in found] + [k for k in found if k not in papers()]
    return {k: found[k].to_dict() for k in order}


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
    (3, 'open', [])
    >>> data["checks"][0]["paper"], data["papers"]       # the demo declares no paper
    (None, {})
    """
    checks = [r.to_dict() for r in results]
    counts = Counter(r.verdict for r in results)
    outcomes = Counter(c["outcome"] for c in checks)
    severities = Counter(e["severity"] for c in checks for e in c["errata"])
    main = [{"paper": c["paper"], "id": c["id"], "kind": c["claim"]["kind"],
             "statement": c["claim"]["statement"], "outcome": c["outcome"],
             "strength": c["strength"], "binding": c["binding"]}
            for c in checks if c["claim"] is not None and c["claim"]["main_result"]]
    data = {
        "schema_version": SCHEMA_VERSION,
        "checks": checks,
        "summary": {v: counts.get(v, 0) for v in VERDICTS},
        "outcomes": {o: outcomes.get(o, 0) for o in OUTCOMES},
        "errata_by_severity": {s: severities.get(s, 0) for s in SEVERITIES},
        "main_results": main,
        "papers": _papers_dict(results),
        "environment": environment(),
    }
    from seprank.proof.citation import add_citations  # beside each source: its citation

    return add_citations(data)


def write_json(results: list[CheckResult] | dict[str, Any],
               path: str | os.PathLike) -> Path | str:
    """Write the JSON report to ``path`` (``-``: standard output) and return the path.

    ``results`` is a list of check results or an already built report dictionary.
    The file is written by :func:`seprank.files.output_files.write_text`: a regular file
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


def _passed(check: dict[str, Any]) -> str:
    steps = check["steps"]
    return f"{sum(s['status'] == 'passed' for s in steps)}/{len(steps)} passed"


#: how the reports word each outcome of a main result: as the console and the JSON do
#: (one vocabulary: holds / holds-corrected / false / open)
STANDING = {"holds": "holds", "holds-corrected": "holds-corrected", "false": "false",
            "open": "open"}


def strength_text(check: dict[str, Any], short: bool = False) -> str:
    """The strength of a check's evidence in words: proof basis, or instance count and binding.

    An argument says whether every step holds for all sizes, or which steps were
    verified only at listed sizes (``steps_at_sizes``, :mod:`seprank.proof.strength`).
    ``short``: the few words a summary table has room for.

    Examples
    --------
    >>> strength_text({"strength": "instances", "binding": False,
    ...                "instances": {"count": 24, "largest": {"L": 3}}})
    'instances (24, not binding; largest L=3)'
    >>> strength_text({"strength": "proof", "basis": "identity"})
    'proof (identity)'
    >>> strength_text({"strength": "proof", "basis": "argument",
    ...                "steps_at_sizes": [{"step": 3, "scope": "sizes"}]})
    'proof (argument; step 3 verified only at listed sizes)'
    >>> strength_text({"strength": "proof", "basis": "argument", "steps_at_sizes": []})
    'proof (argument, every step for all sizes)'
    >>> strength_text({"verdict": "verified"})     # a schema-1 report has no strength
    'none'
    """
    strength = check.get("strength", "none")
    if strength == "proof":
        basis = check.get("basis") or "argument"
        if basis == "argument":
            how = argument_text(check.get("steps_at_sizes"), short, check.get("argument_kinds"))
            return f"proof ({how})"
        return f"proof ({basis})"
    if strength == "instances":
        inst = check.get("instances") or {}
        bind = "binding" if check.get("binding") else "not binding"
        largest = ", ".join(f"{k}={v}" for k, v in (inst.get("largest") or {}).items())
        if short or not largest:
            return f"instances ({inst.get('count', '?')}, {bind})"
        return f"instances ({inst.get('count', '?')}, {bind}; largest {largest})"
    return "none"


def survival_text(erratum: dict[str, Any], outcome: str) -> str | None:
    """Whether the statement survives a ``proof-error``, in words (None for other severities).

    ``outcome``: the claim's outcome in the same report. A proof error without a repaired
    argument says "no" when the claim is false (the statement does not survive: it is
    false), "not shown" when the claim is open, and for a claim that holds only in a
    corrected form, that the printed statement is not shown.

    Examples
    --------
    >>> survival_text({"severity": "proof-error", "survives": True, "repair": "the count"},
    ...               "holds")
    'yes, by the count'
    >>> survival_text({"severity": "proof-error", "survives": False}, "false")
    "no: the statement is false (the claim's outcome is false)"
    >>> survival_text({"severity": "proof-error", "survives": False}, "open")
    'not shown (no repaired argument; the claim is open)'
    >>> survival_text({"severity": "proof-error", "survives": False}, "holds-corrected")
    'not shown for the printed statement (its corrected form holds)'
    >>> survival_text({"severity": "notation"}, "holds") is None
    True
    """
    if erratum.get("severity") != "proof-error":
        return None
    if erratum.get("survives"):
        return f"yes, by {erratum.get('repair')}"
    if outcome == "false":
        return "no: the statement is false (the claim's outcome is false)"
    if outcome == "holds-corrected":
        return "not shown for the printed statement (its corrected form holds)"
    if outcome == "holds":
        return "not by this route (the claim holds by the check's own argument)"
    return "not shown (no repaired argument; the claim is open)"


def _tier(data: dict[str, Any]) -> str:
    tiers = sorted({c.get("tier", "fast") for c in data["checks"]})
    return "/".join(tiers) or "fast"


def _view(data: dict[str, Any], figures: list[tuple[str, Path]] | None,
          base: Path | None) -> dict[str, Any]:
    """What the report templates show (``seprank/templates/proof_report.*.j2``)."""
    from seprank.proof.citation import with_citations  # a report read from an older file

    data = with_citations(data)
    checks = data["checks"]
    by_id = {c["id"]: c for c in checks}
    papers = report_papers(data)
    order = list(papers)
    main = []
    for m in sorted(data.get("main_results") or [],
                    key=lambda m: (order.index(m["paper"]) if m["paper"] in order
                                   else len(order), m["id"])):
        c = by_id.get(m["id"], m)
        main.append({"paper": m["paper"], "id": m["id"], "statement": m["statement"],
                     "outcome": STANDING.get(m["outcome"], m["outcome"]),
                     "strength": strength_text(c), "n_errata": len(c.get("errata", []))})
    ran = {paper_of_check(c) for c in checks}
    with_main = {m["paper"] for m in data.get("main_results") or []}
    sev = data.get("errata_by_severity") or {}
    severities = [{"name": name, "count": n,
                   "ids": sorted({c["id"] for c in checks for e in c.get("errata", [])
                                  if e["severity"] == name})}
                  for name, n in sev.items()] if any(sev.values()) else []
    outcome_of = {c["id"]: c.get("outcome", "open") for c in checks}
    env = data["environment"]
    return {
        "env": {"time_utc": env.get("time_utc"), "platform": env.get("platform"),
                "cpu_count": env.get("cpu_count"), "python": env.get("python"),
                "packages": ", ".join(f"{k} {v}" for k, v in env.get("packages", {}).items())},
        "tier": _tier(data), "schema_version": data.get("schema_version", 1),
        "main": main, "without": [p for p in order if p in ran and p not in with_main],
        "papers": [{"key": k, "reference": p.get("reference") or k} for k, p in papers.items()
                   if k in ran],
        "severities": severities,
        "outcomes": ", ".join(f"{o} {n}" for o, n in (data.get("outcomes") or {}).items()),
        "verdicts": ", ".join(f"{v} {n}" for v, n in data["summary"].items()),
        "figures": [_figure_view(cid, path, base) for cid, path in figures or []],
        "checks": [_check_view(c, outcome_of) for c in checks],
    }


def _figure_view(check_id: str, path: Path, base: Path | None) -> dict[str, str]:
    rel = (Path(path).relative_to(base) if base is not None else Path(path)).as_posix()
    return {"id": check_id, "src": rel, "data_uri": _image_src(rel, base)}


def _check_view(c: dict[str, Any], outcome_of: dict[str, str]) -> dict[str, Any]:
    known = c.get("dependency_outcomes") or {}
    errata = []
    for e in c.get("errata", []):
        survives = survival_text(e, c.get("outcome", "open"))
        elsewhere = [b[len("check "):].split(",")[0] for b in e.get("verified_by") or []
                     if b.startswith("check ")]
        verified = "yes" if e["verified"] else "no"
        if elsewhere:
            verified += f" (in {', '.join(elsewhere)})"
        errata.append({"severity": e["severity"], "location": e["location"],
                       "printed": e["printed"], "corrected": e["corrected"],
                       "verified": verified,
                       "hypothesis": e.get("hypothesis"), "survives": survives,
                       "instance": _short(e.get("instance")),
                       "citation": e.get("citation") or e["location"]})
    steps = [{"status": s["status"], "corrected": bool(s.get("corrected")),
              "claim": s["claim"], "source": s.get("source"), "message": s.get("message"),
              "scope": scope_text(s.get("scope"), s.get("sizes"), s.get("kind")),
              "kind": s.get("kind"),
              "least": [r["phrase"] + (f" (by {r['proven_by']})" if r.get("proven_by") else "")
                        for r in s.get("least") or []],
              "citation": s.get("citation") or s.get("source"),
              "evidence": [(k, _short(v)) for k, v in s["evidence"].items()
                           if k != "traceback"]}
             for s in c["steps"]]
    return {"id": c["id"], "title": c["title"], "outcome": c.get("outcome", "open"),
            "strength": strength_text(c), "verdict": c["verdict"], "passed": _passed(c),
            "seconds": f"{c['seconds']:.2f}", "findings": c.get("findings", []),
            "claim": c.get("claim"), "tier": c.get("tier", "fast"), "source": c["source"],
            "citation": c.get("citation") or c["source"],
            "reason": (c.get("reason") or "").rstrip("."), "violations": c.get("violations") or [],
            "relies": [f"{d} ({known.get(d) or outcome_of.get(d, 'not run')})"
                       for d in c.get("depends") or []],
            "given": list((c.get("given_outcomes") or {}).values()),
            "restates": [f"{d} ({o})" for d, o in (c.get("restated_outcomes") or {}).items()],
            "errata": errata, "steps": steps}


def markdown_from_dict(data: dict[str, Any], figures: list[tuple[str, Path]] | None = None,
                       base: Path | None = None) -> str:
    """Markdown from a report dictionary (the JSON report's content).

    The summary comes first: the main results of each paper with their standing
    and strength, the errata counted by severity, then one row per check with
    its outcome, strength, verdict on the printed text and findings (most
    severe first); then one section per check. ``figures``: (check id, image
    path) pairs to embed, paths relative to ``base``. The layout is the
    Jinja2 template ``seprank/templates/proof_report.md.j2``.

    Examples
    --------
    >>> data = {"environment": {}, "summary": {"verified": 1},
    ...         "checks": [{"id": "demo", "title": "a demo", "source": "none",
    ...                     "verdict": "verified", "seconds": 0.5, "steps": []}]}
    >>> text = markdown_from_dict(data)
    >>> [line for line in text.splitlines() if line.startswith("| demo")]
    ['| demo | a demo | **open** | none | verified | 0/0 passed | 0.50 | - |']
    """
    from seprank._templates import render

    return render("proof_report.md.j2", **_view(data, figures, base))


_HTML_STYLE = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
               "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;"
               "vertical-align:top}th{cursor:pointer;background:#f4f4f4}"
               ".verified,.holds,.passed{color:#176b17}"
               ".refuted,.false,.failed{color:#b00020}"
               ".inconclusive,.open{color:#9a6700}.holds-corrected{color:#1f5fa8}"
               "a{white-space:nowrap}code{font-size:85%;overflow-wrap:anywhere}")


def html_from_dict(data: dict[str, Any], figures: list[tuple[str, Path]] | None = None,
                   base: Path | None = None) -> str:
    """A self-contained HTML page from a report dictionary (no links out, no files).

    Figures (PNG files, ``base``-relative) are embedded as ``data:`` URIs, so
    the page can be mailed or moved alone; its tables sort by a click on a
    column header (a few lines of inline JavaScript). Mathematics stays plain
    text, as the papers' text files write it.

    The same content as :func:`markdown_from_dict`, from the Jinja2 template
    ``seprank/templates/proof_report.html.j2``; every piece of report text is
    escaped.

    Examples
    --------
    Text from the report is escaped:

    >>> data = {"environment": {}, "summary": {"verified": 1},
    ...         "checks": [{"id": "demo", "title": "x < y", "source": "none",
    ...                     "verdict": "verified", "seconds": 0.5, "steps": []}]}
    >>> page = html_from_dict(data)
    >>> page.startswith("<!DOCTYPE html>"), "x &lt; y" in page, "src=" in page
    (True, True, False)
    """
    from seprank._templates import render

    return render("proof_report.html.j2", style=_HTML_STYLE, **_view(data, figures, base))


def _image_src(src: str, images_from: Path | None) -> str:
    """A ``data:`` URI of the PNG at ``src`` (relative to ``images_from``), else ``src``."""
    import base64

    path = Path(images_from) / src if images_from is not None else Path(src)
    if path.suffix.lower() == ".png" and path.is_file():
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
    return src


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
    from seprank.files.matrix_io import read_json

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
                   figures_folder: str | os.PathLike | None = None,
                   specs: Any = None) -> Path | str:
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
        from seprank.proof.report.figures import write_figures

        here = os.path.abspath(Path(path).parent)  # links relative to the Markdown file
        figures = [(cid, Path(os.path.relpath(os.path.abspath(p), here)))
                   for cid, p in write_figures(data, figures_folder, specs)]
    return write_text(path, markdown_from_dict(data, figures))


def write_report_folder(results: list[CheckResult], folder: str | os.PathLike,
                        specs: Any = None) -> dict[str, Path]:
    """Write the whole report of a run into one folder; return the paths written.

    The folder gets ``report.json``, ``report.md``, ``report.html`` and, when a
    check's evidence has a figure, ``figures/*.png`` (the figures the checks of
    ``specs`` declare, and the built-in ones); the HTML embeds them. Nothing is
    written outside it.

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
    from seprank.proof.report.figures import write_figures

    folder = prepare_folder(folder)
    data = report_dict(results)
    figures = write_figures(data, folder / "figures", specs)
    return {
        "json": write_json(data, folder / "report.json"),
        "markdown": write_text(folder / "report.md", markdown_from_dict(data, figures, folder)),
        "html": write_text(folder / "report.html", html_from_dict(data, figures, folder)),
    }


class ProofReport:
    """A run's report as one object: from results or a report dict (``load_report``).

    In Jupyter it shows one row per check (outcome, strength, verdict, worst
    finding); ``.data`` is the JSON dictionary, ``.markdown()`` the full report.

    Examples
    --------
    >>> from seprank.proof.framework import CheckSpec, run_check
    >>> def body(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.require(1 + 1 == 2, "no")
    >>> report = ProofReport([run_check(CheckSpec("demo", "a demo", "none", body))])
    >>> report
    <ProofReport: 1 check; outcomes open 1>
    >>> print(report._repr_markdown_().splitlines()[-1])
    | demo | open | none | verified | - |
    >>> "<caption>" in report._repr_html_(), report.markdown().startswith("# seprank")
    (True, True)
    """

    _HEADER = ("id", "outcome", "strength", "verdict", "worst finding")

    def __init__(self, results: list[CheckResult] | dict[str, Any]):
        self.data = results if isinstance(results, dict) else report_dict(results)

    def _rows(self) -> list[list[Any]]:
        return [[c["id"], c.get("outcome", "open"), c.get("strength", "none"), c["verdict"],
                 (c.get("findings") or ["-"])[0]] for c in self.data["checks"]]

    def _caption(self) -> str:
        counts: dict[str, int] = {}
        for c in self.data["checks"]:
            counts[c.get("outcome", "open")] = counts.get(c.get("outcome", "open"), 0) + 1
        n = len(self.data["checks"])
        return (f"{n} check{'s' if n != 1 else ''}; outcomes "
                + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))

    def __repr__(self) -> str:
        return f"<ProofReport: {self._caption()}>"

    def _repr_html_(self) -> str:
        from seprank._display import html_table

        return html_table(self._caption(), self._HEADER, self._rows())

    def _repr_markdown_(self) -> str:
        from seprank._display import md_table

        return md_table(self._caption(), self._HEADER, self._rows())

    def markdown(self) -> str:
        """The full Markdown report (:func:`markdown_from_dict`)."""
        return markdown_from_dict(self.data)
