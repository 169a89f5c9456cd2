"""Fixtures shared by tests/: the default prove run, once per session, and the papers.

``default_report`` runs every registered check of the project (fast tier, as
``seprank prove`` does by default) once per test session and returns the JSON
report's dictionary; the audits of its errata and wording (issue 21) read it.
``papers_dir`` is ``../shared/papers`` beside the checkout (or above a worktree),
or ``$SEPRANK_PAPERS``; tests that need the papers skip without them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def find_papers_dir() -> Path | None:
    """``$SEPRANK_PAPERS``, else the first ``shared/papers`` beside or above the checkout."""
    if os.environ.get("SEPRANK_PAPERS"):
        path = Path(os.environ["SEPRANK_PAPERS"])
        return path if path.is_dir() else None
    for parent in ROOT.parents:
        if (parent / "shared" / "papers").is_dir():
            return parent / "shared" / "papers"
    return None


@pytest.fixture(scope="session")
def papers_dir() -> Path:
    found = find_papers_dir()
    if found is None:
        pytest.skip("../shared/papers (the papers' text files) is not beside the checkout")
    return found


@pytest.fixture(scope="session")
def default_report() -> dict:
    """The JSON report of the default ``seprank prove`` run (every check, fast tier)."""
    from seprank.proof import CheckRegistry, run_checks
    from seprank.proof.report import report_dict

    registry = CheckRegistry.from_plugins(["seprank_proofs"])
    return report_dict(run_checks(registry.specs()))
