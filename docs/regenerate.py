"""Regenerate what the repository commits about the default run, from one run.

    python docs/regenerate.py

runs every registered check (fast tier) once and writes, from that run:

* ``docs/report/`` -- the report folder of ``seprank prove --report-dir docs/report``
  (``report.json``, ``report.md``, ``report.html``, ``figures/``);
* ``docs/errata/PAPER.md`` -- the erratum sheet of each paper (as ``seprank errata
  PAPER --from docs/report/report.json -o docs/errata/PAPER.md`` would);
* ``docs/report/screenshot.png`` -- the HTML report as headless Chromium renders it
  (when one is installed);
* the manual's outcome table (``docs/checks.md``, section "The outcomes of the default
  run"), between the markers ``<!-- outcomes:start -->`` and ``<!-- outcomes:end -->``
  (nothing else on the page changes).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from seprank.files.output_files import write_text
from seprank.proof import CheckRegistry, run_checks
from seprank.proof.errata import errata_markdown
from seprank.proof.report import report_dict, strength_text, write_report_folder

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- outcomes:start -->", "<!-- outcomes:end -->"
SEVERITIES = ("false-statement", "missing-hypothesis", "proof-error", "constant", "notation")


def _worst(check: dict) -> str:
    errata = check.get("errata") or []
    if errata:
        found = f"{errata[0]['severity']} at {errata[0]['location']}"
    elif check.get("findings"):
        found = check["findings"][0]
        found = found if len(found) <= 90 else found[:87] + "..."
    else:
        return "-"
    return found.replace("|", "\\|")


def outcome_table(data: dict) -> str:
    """The outcome block of docs/checks.md: totals, then one row per check."""
    checks = data["checks"]
    outcomes = Counter(c["outcome"] for c in checks)
    verdicts = Counter(c["verdict"] for c in checks)
    severities = Counter(e["severity"] for c in checks for e in c.get("errata") or [])
    lines = [
        f"Outcomes of that run ({len(checks)} checks, fast tier): "
        + ", ".join(f"{k} {outcomes.get(k, 0)}" for k in ("holds", "holds-corrected", "false",
                                                          "open")) + ";",
        "verdicts on the printed text: "
        + ", ".join(f"{k} {verdicts.get(k, 0)}" for k in ("verified", "refuted",
                                                          "inconclusive")) + ";",
        "errata: " + ", ".join(f"{k} {severities.get(k, 0)}" for k in SEVERITIES) + ".",
        "",
        "| id | outcome | strength | verdict | errata | worst finding |",
        "|---|---|---|---|---|---|",
    ]
    for c in checks:
        lines.append(f"| {c['id']} | {c['outcome']} | {strength_text(c).split(';')[0]}"
                     f"{')' if ';' in strength_text(c) else ''} | {c['verdict']} | "
                     f"{len(c.get('errata') or [])} | {_worst(c)} |")
    return "\n".join(lines)


def main() -> int:
    registry = CheckRegistry.from_plugins(["seprank_proofs"])
    specs = registry.specs()
    results = run_checks(specs, None, full=False)
    paths = write_report_folder(results, ROOT / "docs" / "report", specs)
    data = report_dict(results)
    for paper in data["papers"]:  # the papers of the checks that ran, in registered order
        write_text(ROOT / "docs" / "errata" / f"{paper}.md", errata_markdown(data, paper))
    page = ROOT / "docs" / "checks.md"
    text = page.read_text()
    if START not in text or END not in text:
        print(f"docs/checks.md has no {START} ... {END} block", file=sys.stderr)
        return 1
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    write_text(page, f"{head}{START}\n{outcome_table(data)}\n{END}{tail}")
    print(f"wrote {paths['json'].parent}, docs/errata/*.md, docs/checks.md outcome table")
    _screenshot(paths["html"])
    return 0


def _screenshot(page: Path) -> None:
    """docs/report/screenshot.png, rendered as tests/test_report_browser.py renders it."""
    import importlib.util
    import shutil

    if not any(shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")):
        print("no Chromium: docs/report/screenshot.png left as it is", file=sys.stderr)
        return
    where = ROOT / "tests" / "test_report_browser.py"
    spec = importlib.util.spec_from_file_location("_report_browser", where)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print("wrote", module.render_screenshot(page, page.with_name("screenshot.png")))


if __name__ == "__main__":
    sys.exit(main())
