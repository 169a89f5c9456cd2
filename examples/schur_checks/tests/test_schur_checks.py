"""The package's own tests: each check is consistent, with the outcome theory predicts."""

import pytest
from schur_checks._exact import ldl_pivots

from seprank.proof import CheckRegistry
from seprank.proof.testing import run_and_assert

REG = CheckRegistry()
REG.load_package("schur_checks")

EXPECTED = {"Schur-PSD": "holds", "Schur-rank": "holds", "Schur-sum": "false"}


@pytest.mark.parametrize("check_id", sorted(EXPECTED))
def test_check(check_id):
    run_and_assert(REG[check_id], outcome=EXPECTED[check_id])


def test_ldl_refuses_matrices_that_are_not_psd():
    # [[1, 2], [2, 1]] has eigenvalue -1; [[0, 1], [1, 0]] has a zero pivot above a nonzero
    assert ldl_pivots([[1, 2], [2, 1]]) == ([1, -3], False)
    assert ldl_pivots([[0, 1], [1, 0]])[1] is False
    assert ldl_pivots([[2, 1], [1, 2]])[1] is True


def test_every_check_is_filed_under_the_package_paper():
    from schur_checks import PAPER

    assert {REG[cid].paper for cid in EXPECTED} == {PAPER}
    assert PAPER.key == "schur1911" and PAPER.reference().startswith("I. Schur. Bemerkungen")


def test_the_installed_plugin_paper_is_listed_and_has_an_erratum_sheet(tmp_path, capsys):
    """With the package installed (its entry points), `seprank papers` lists its paper and
    `seprank errata schur1911` writes the sheet of its checks."""
    from importlib.metadata import entry_points

    from seprank.cli import main

    if not any(ep.value == "schur_checks" for ep in entry_points(group="seprank.papers")):
        pytest.skip("schur_checks is not installed (pip install -e examples/schur_checks)")
    assert main(["papers"]) == 0
    assert "\nschur1911\n  I. Schur." in capsys.readouterr().out
    out = tmp_path / "schur.md"
    assert main(["errata", "schur1911", "-o", str(out)]) == 0
    sheet = out.read_text()
    assert sheet.startswith("# Errata: I. Schur. Bemerkungen")
    assert "### 1. Schur-sum: false-statement at statement" in sheet
    assert "L-" not in sheet.split("## What happens to each claim")[1]   # only its own checks
