"""Both HTML reports stand alone: figures embedded as data URIs, no Markdown syntax left."""

from __future__ import annotations

import re

from seprank.proof.report import html_from_dict
from seprank.proof.report.figures import write_figures
from seprank.sweep.report import write_sweep_report
from seprank.sweep.spec import Task
from seprank.sweep.store import ResultStore


def test_proof_html_embeds_its_figures(tmp_path):
    # A-harm's evidence: N(3, l) = 2l + 1, the dimension of degree-l harmonics in 3 dimensions
    harm = {"id": "A-harm", "title": "harmonics", "source": "amsel", "verdict": "verified",
            "seconds": 0.1, "steps": [{"claim": "N(3, l) = 2l + 1", "status": "passed",
                                       "evidence": {"table_N_by_d": {"d=3": [1, 3, 5, 7]}}}]}
    data = {"environment": {}, "summary": {"verified": 1}, "checks": [harm]}
    figures = write_figures(data, tmp_path / "figures")
    assert [cid for cid, _ in figures] == ["A-harm"]
    page = html_from_dict(data, figures, tmp_path)
    sources = re.findall(r"<img src='([^']*)'", page)
    assert sources and all(src.startswith("data:image/png;base64,") for src in sources)


def test_sweep_html_has_no_literal_backticks(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.record("a", Task("check", {"id": "L-Lemma4"}), "v", "done",
                     result={"verdict": "verified", "tier": "fast", "findings": []})
    _, page = write_sweep_report(tmp_path / "s.sqlite", tmp_path / "s.md", tmp_path / "s.html")
    text = page.read_text()
    assert "`" not in text and "<code>s.sqlite</code>" in text and "<code>exact</code>" in text
