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
import json
import os
import platform
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

from seprank.proof.framework import VERDICTS, CheckResult

__all__ = ["environment", "report_dict", "write_json", "write_markdown", "markdown"]

_PACKAGES = ("seprank", "python-flint", "numpy", "sympy", "networkx", "numba", "mpmath")


def environment() -> dict[str, Any]:
    """Versions, machine and time: what a reader needs to reproduce a report."""
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
    counts = Counter(r.verdict for r in results)
    return {
        "checks": [r.to_dict() for r in results],
        "summary": {v: counts.get(v, 0) for v in VERDICTS},
        "environment": environment(),
    }


def write_json(results: list[CheckResult], path: str | os.PathLike) -> Path:
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
    data = report_dict(results)
    env = data["environment"]
    lines = ["# seprank proof report", ""]
    lines.append(f"Run {env['time_utc']} on {env['platform']} ({env['cpu_count']} CPUs), "
                 f"Python {env['python']}; packages: "
                 + ", ".join(f"{k} {v}" for k, v in env["packages"].items()) + ".")
    lines.append("")
    lines.append("Verdicts: " + ", ".join(f"{v} {n}" for v, n in data["summary"].items()) + ".")
    lines.append("")
    lines += ["| id | title | verdict | steps | seconds | findings |",
              "|---|---|---|---|---|---|"]
    for r in results:
        passed = sum(s.status == "passed" for s in r.steps)
        found = "<br>".join(_cell(f) for f in r.findings) or "-"
        lines.append(f"| {r.id} | {r.title} | **{r.verdict}** | {passed}/{len(r.steps)} passed "
                     f"| {r.seconds:.2f} | {found} |")
    for r in results:
        lines += ["", f"## {r.id}: {r.title}", "", f"Source: {r.source}. Verdict: **{r.verdict}**"
                  f" ({'full' if r.full else 'fast'} tier)."]
        if r.depends:
            lines.append(f"Relies on: {', '.join(r.depends)}.")
        lines.append("")
        for i, s in enumerate(r.steps, 1):
            tag = " (corrected statement)" if s.corrected else ""
            src = f" [{s.source}]" if s.source else ""
            lines.append(f"{i}. **{s.status}**{tag}: {s.claim}{src}")
            if s.message:
                lines.append(f"   - note: {s.message}")
            for key, value in s.to_dict()["evidence"].items():
                if key == "traceback":
                    continue
                lines.append(f"   - {key}: `{_short(value)}`")
    return "\n".join(lines) + "\n"


def write_markdown(results: list[CheckResult], path: str | os.PathLike) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(results))
    return path
