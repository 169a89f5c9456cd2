"""Erratum sheets: every erratum the checks found in one paper, as Markdown.

``seprank errata PAPER`` runs the paper's checks (fast tier; with ``--from`` it
reads a JSON proof report instead) and writes one sheet that opens with the paper's
full reference (:meth:`seprank.paper_hooks.paper_record.Paper.reference`) and has one entry per
erratum, most severe first: where (section and equation of the paper, then the lines
of the bundled text: :mod:`seprank.proof.citation`), printed, corrected, severity,
evidence (the failing instance, as JSON), whether the correction is verified, the
outcome of the claim it belongs to, and the command that reproduces it. A check belongs
to the paper its ``@check(..., paper=...)`` names (``paper`` in the JSON report); a paper
key is any registered paper (:mod:`seprank.paper_hooks`) or the paper of an
installed check.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from seprank.errors import SeprankError
from seprank.proof.claims import SEVERITIES, severity_rank
from seprank.proof.report import paper_of_check, report_papers, strength_text, survival_text

__all__ = ["errata_markdown", "paper_key", "known_papers", "SEVERITY_MEANING"]

#: one line per severity, for the sheets and the manual
SEVERITY_MEANING = {
    "false-statement": "the printed statement is false; no reading of the text saves it",
    "missing-hypothesis": "false only in a case the authors evidently exclude (the hypothesis "
                          "is named)",
    "proof-error": "a step of the argument is wrong; the entry says whether the statement "
                   "survives and by which repaired argument",
    "constant": "only a constant or a factor changes",
    "notation": "a typo, index or notation slip; the intended reading is clear",
}


def known_papers(specs: dict | None = None) -> dict[str, Any]:
    """Paper key -> :class:`~seprank.paper_hooks.paper_record.Paper`: the registered papers
    (:func:`seprank.paper_hooks.papers`), then the papers of the checks in ``specs``
    (check id -> CheckSpec) that no wing registers.

    Examples
    --------
    >>> from seprank.proof import CheckSpec, Paper
    >>> spec = CheckSpec("x", "x", "none", lambda ctx: None, paper=Paper("x.txt", key="x9"))
    >>> papers = known_papers({"x": spec})
    >>> list(papers)[0], papers["x9"].file
    ('levine2020', 'x.txt')
    """
    from seprank.paper_hooks import papers

    out = dict(papers())
    for spec in (specs or {}).values():
        key = getattr(spec.paper, "key", "")
        if key and key not in out:
            out[key] = spec.paper
    return out


def paper_key(name: str, known: Iterable[str] | None = None) -> str:
    """``name`` if it is a known paper key (``known``; default: the registered papers).

    Raises
    ------
    SeprankError
        for an unknown name (one line, with the known keys).

    Examples
    --------
    >>> paper_key("levine2020")
    'levine2020'
    >>> paper_key("nope")
    Traceback (most recent call last):
    ...
    seprank.errors.SeprankError: unknown paper 'nope'; known: levine2020, wies2021, chapter7, \
rank_collapse, amsel...
    """
    keys = list(known_papers() if known is None else known)
    if name not in keys:
        raise SeprankError(f"unknown paper {name!r}; known: {', '.join(keys)}")
    return name


def _json_block(value: Any, limit: int = 1500) -> str:
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _entry(n: int, c: dict[str, Any], e: dict[str, Any]) -> list[str]:
    """The lines of the sheet's n-th entry: erratum ``e`` of check ``c`` (its ``citation``
    added by :func:`seprank.proof.citation.add_citations`)."""
    sev = e["severity"]
    lines = [f"### {n}. {c['id']}: {sev} at {e['location']}", "",
             f"- **Where**: {e.get('citation') or e['location']}; found by the step "
             f"\"{e.get('step')}\"",
             f"- **Printed**: {e['printed']}",
             f"- **Corrected**: {e['corrected']}",
             f"- **Severity**: {sev}"
             + (f" (missing hypothesis: {e['hypothesis']})" if e.get("hypothesis") else "")
             + (f"; in the statement of the {c['claim']['kind']}" if e.get("in_statement")
                and c.get("claim") else "")]
    if sev == "proof-error":
        lines.append("- **Statement survives**: " + survival_text(e, c.get("outcome", "open")))
    by = e.get("verified_by") or []
    where = (f", {by[0]}" if by and by[0].startswith("check ") else
             f", by the step \"{by[0]}\"" if by else "")
    lines.append("- **Correction verified**: " + ("yes" + where if e["verified"] else "no"))
    lines.append(f"- **Claim's outcome**: {c.get('outcome', 'open')} "
                 f"({strength_text(c)})")
    lines += ["- **Evidence** (the failing instance):", "", "  ```json"]
    lines += ["  " + ln for ln in _json_block(e.get("instance")).splitlines()]
    return lines + ["  ```", f"- **Reproduce**: `seprank prove {c['id']}`", ""]


def errata_markdown(data: dict[str, Any], paper: str) -> str:
    """The erratum sheet of ``paper`` (a key) from a proof report dictionary.

    The checks are those whose ``paper`` is ``paper`` (schema 3; a schema-2 report is
    read by the id prefixes of version 2); the sheet opens with the paper's reference
    from the report's ``papers`` (else the registered paper's).

    Examples
    --------
    >>> from seprank.proof import Claim, CheckSpec, Paper, run_check
    >>> from seprank.proof.report import report_dict
    >>> def body(ctx):
    ...     with ctx.step("n^2 > n for n >= 1", source="l.3") as s:
    ...         s.erratum("l.3", "n^2 > n", "n^2 >= n", "false-statement",
    ...                   instance={"n": 1})
    ...     ctx.conclude("false", "proof", "n = 1", basis="certificate")
    >>> demo = Paper("demo.txt", "On squares", key="demo1", authors=("A. Author",), year=2001)
    >>> spec = CheckSpec("demo", "demo", demo.cite("l.3"), body,
    ...                  claim=Claim("lemma", "n^2 > n", "l.3"), paper=demo)
    >>> sheet = errata_markdown(report_dict([run_check(spec)]), "demo1")
    >>> sheet.splitlines()[0]
    '# Errata: A. Author. On squares. 2001.'
    >>> "seprank prove demo" in sheet, "### 1. demo: false-statement at l.3" in sheet
    (True, True)
    """
    from seprank.proof.citation import with_citations

    data = with_citations(data)
    described = report_papers(data).get(paper) or {}
    if not described:
        described = getattr(known_papers().get(paper), "to_dict", dict)()
    reference = described.get("reference") or paper
    source_file = described.get("file") or paper
    checks = [c for c in data["checks"] if paper_of_check(c) == paper]
    entries = []
    for order, c in enumerate(checks):
        for k, e in enumerate(c.get("errata") or []):
            entries.append((severity_rank(e["severity"]), order, k, c, e))
    entries.sort(key=lambda t: t[:3])
    env = data.get("environment", {})
    tiers = sorted({c.get("tier", "fast") for c in checks}) or ["fast"]
    counts = {s: sum(1 for *_, e in entries if e["severity"] == s) for s in SEVERITIES}
    lines = [f"# Errata: {reference}", "",
             "Each place is given by section and equation of the paper, then by its lines "
             f"(l.N) in the bundled text `{source_file}`.", "",
             f"Generated by `seprank errata {paper}` from the {'/'.join(tiers)} tier of "
             f"seprank's checks ({env.get('time_utc', 'time not recorded')}; seprank "
             f"{(env.get('packages') or {}).get('seprank', '?')}). Every entry was found by "
             "an exact computation; its last line is the command that reproduces it.", "",
             f"{len(entries)} errata in {len({id(c) for *_, c, _ in entries})} of "
             f"{len(checks)} checks: "
             + ", ".join(f"{s} {n}" for s, n in counts.items()) + ".", "",
             "Severities (most severe first):", ""]
    lines += [f"- **{s}**: {SEVERITY_MEANING[s]}" for s in SEVERITIES]
    lines += ["", "## What happens to each claim", "",
              "| id | claim | outcome | strength | errata |", "|---|---|---|---|---|"]
    for c in checks:
        claim = (c.get("claim") or {}).get("statement", c["title"]).replace("|", "\\|")
        lines.append(f"| {c['id']} | {claim} | **{c.get('outcome', 'open')}** | "
                     f"{strength_text(c)} | {len(c.get('errata') or [])} |")
    lines += ["", "## Errata, most severe first", ""]
    if not entries:
        lines.append("None found.")
    for n, (_, _, _, c, e) in enumerate(entries, 1):
        lines += _entry(n, c, e)
    return "\n".join(lines).rstrip("\n") + "\n"
