"""wies2021 Theorems 1 and 2 (checks W-Thm1, W-Thm2): W-Thm1's outcome and errata, and
facts worked by hand for the modules behind both rows.

Hand-worked facts (expectations derived on paper, not read off the code):

* W-Thm1 (one-hot family): with channel 1 reading (0, 0) and channel 2 reading (0, 1), one
  layer on x^1 = (1, 2), x^2 = (3, 1) (S = [[10, 5], [5, 5]]) outputs (1 * 10, 2 * 5) at
  position 1; a second layer where channel 1 reads (1, 1) multiplies g_1 by g_2^2 S_11, so
  g_1 = S_00 S_01^2 S_11, whose separation rank is 2 * 3 * 2 = 12.
* W-Thm1: with d_x = 1 and every weight 1, one layer gives y_i = v_i (v_1^2 + v_2^2). On
  values (1, 2): y_1 = 5, and on the swapped values y_1 = 2 * 5 = 10, so the output is not
  symmetric in the positions (the grouped display of A.2 is). Its separation rank is 2
  (v_1^3 + v_1 v_2^2), the moment bound s ((s(s+1)/2 + 1, C(1))) = 1 * ((2, 1)) = 2.
  With kernel (1, 2) on patches of 2 inputs and the partition splitting every patch,
  y = c u_i S with S containing 4 sum_j x_{2j-1} x_{2j}: sep = 2N + 2 (N terms from each
  of the two parts of u_i, plus two).
* W-Thm2: the one-coordinate network with H = 2 heads at L = 2 computes H^4 S^4 v_1: on
  values (1, 2), 2^4 * 5^4 * 1 = 10000.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from seprank.models import SelfAttentionNetwork
from seprank.network_theory.moment_form import moment_bound, moment_form_output
from seprank.network_theory.one_hot import (
    family_log2_lower_bound,
    moment_jacobian_rank,
    monomial_exponents,
    monomial_network,
    monomial_sep,
)
from seprank.papers.wies2021.moment_comparison import moment_vs_thm3, split_patch_rank
from seprank.papers.wies2021.scalar_chain import scalar_chain_network
from seprank.proof import registered_checks, run_check


@pytest.fixture(scope="module")
def results():
    return {"W-Thm1": run_check(registered_checks()["W-Thm1"])}


# ----------------------------------------------------------------------------- outcome

def test_w_thm1_is_decided_by_a_family_not_by_a_sample(results):
    res = results["W-Thm1"]
    # eq. (6) is a rate: only an argument whose every step holds for all widths refutes it
    assert (res.outcome, res.strength, res.settled.basis) == ("false", "proof", "argument")
    assert res.claim.asymptotic and res.settled.all_sizes and not res.violations
    first = res.errata[0]
    assert first.severity == "false-statement" and first.in_statement
    assert "eq. (6)" in first.location


def test_w_thm1_records_the_missing_patch_hypothesis_and_the_proof_error(results):
    sev = [e.severity for e in results["W-Thm1"].errata]
    assert {"missing-hypothesis", "proof-error", "notation"} <= set(sev)


# ----------------------------------------------------------------- hand-worked

def _unit_net(L=1):
    return SelfAttentionNetwork(L, 1, 1, 1, weights={k: [[[[1]]]] * L for k in "QKVO"})


def test_w_thm1_hand_worked_asymmetry_and_moment_bound():
    net = _unit_net()
    assert net.evaluate([[[1], [2]]], "ZZ")[0, 0, 0] == 5
    assert net.evaluate([[[2], [1]]], "ZZ")[0, 0, 0] == 10
    assert moment_bound(1, 1) == 2
    assert moment_bound(2, 2) == 2 * 35            # 2 * ((4, 4)) = 2 * C(7, 4)
    assert moment_vs_thm3(1)["difference_at_t=3"] == 80 - 2   # eq. (9) at L = 1 is 1*20*4
    X = [[Fraction(1, 2), 3], [2, -1], [0, 1]]
    net2 = SelfAttentionNetwork.random(2, 2, 2, 1, seed=9, kind="rational")
    assert moment_form_output(net2, X, 2).tolist() == net2.evaluate([X], "QQ")[0, 2].tolist()


def test_w_thm1_hand_worked_one_hot_family():
    # one layer, channel 1 reads (0, 0), channel 2 reads (0, 1): y^1 = (x_1 S_00, x_2 S_01)
    net = monomial_network(2, [[(0, 0), (0, 1)]])
    assert net.evaluate([[[1, 2], [3, 1]]], "ZZ")[0, 0].tolist() == [1 * 10, 2 * 5]
    # layer 2 for channel 1 reads (1, 1): g_1 = g_1 g_2 g_2 S_11 = S_00 S_01^2 S_11
    assert monomial_exponents(2, [[(0, 0), (0, 1)], [(1, 1), (0, 0)]])[0] == \
        {(0, 0): 1, (0, 1): 2, (1, 1): 1}
    assert monomial_sep({(0, 0): 1, (0, 1): 2, (1, 1): 1}) == 2 * 3 * 2
    assert family_log2_lower_bound(4, 10) == 10 * (10 - 2 - 4)
    assert moment_jacobian_rank(2, 2) == 3       # S_00, S_01, S_11 independent


def test_w_thm1_hand_worked_split_patch_rank():
    for N in (2, 3):
        assert split_patch_rank(N, seed=1)["rank"] == 2 * N + 2


def test_w_thm2_hand_worked_scalar_chain():
    net = scalar_chain_network(2, d_x=1, H=2, d_a=1)
    assert net.evaluate([[[1], [2]]], "ZZ")[0, 0, 0] == 2 ** 4 * 5 ** 4
