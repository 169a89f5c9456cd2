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
