"""The four rows added for issue 10 (W-Thm1, W-Thm2, A-Thm2, R-collapse): the rules, and
one hand-worked fact per row.

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
* A-Thm2: the best rank-2 approximation of I_3 leaves ||I_3 - A||_F^2 = 1; regime 2 is
  empty at d = 5, r = 1 because 5 < 2e (the base d / (2e r) < 1).
* R-collapse: one layer on [1, -1]^T with W_QK = 1, W_V = 2 gives 2 tanh(1) = 1.5231...
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
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
from seprank.papers.amsel.nn_reduction import frobenius_gap
from seprank.papers.rank_collapse.collapse_family import (
    collapse_regime,
    iv_digits,
    layer_closed_form,
)
from seprank.papers.rank_collapse.pure_attention import mp_san
from seprank.papers.wies2021.moment_comparison import moment_vs_thm3, split_patch_rank
from seprank.papers.wies2021.scalar_chain import scalar_chain_network
from seprank.proof import registered_checks, run_check
from seprank.proof.claims import Settled
from seprank.proof.rules import apply_dependencies

NEW = ("W-Thm1", "W-Thm2", "A-Thm2", "R-collapse")
SPECS = registered_checks()


@pytest.fixture(scope="module")
def results():
    return {cid: run_check(SPECS[cid]) for cid in NEW}


# ----------------------------------------------------------------------------- the rules

def test_rows_declare_claims_and_dependencies():
    for cid in NEW:
        spec = SPECS[cid]
        assert spec.claim is not None
        # main results are the theorems; the notes' stated goal is a claim
        assert spec.claim.main_result == (spec.claim.kind == "theorem")
        assert spec.depends and all(dep in SPECS for dep in spec.depends)


def test_no_rule_was_violated_and_no_step_raised(results):
    for cid, res in results.items():
        assert res.violations == [], (cid, res.violations)
        assert all(st.status != "error" for st in res.steps), cid


def test_asymptotic_and_existential_claims_are_not_decided_by_instances(results):
    # eq. (7) and the talk's Theorem 2 quantify over infinite families (and unstated
    # constants): no sample of instances may make them hold
    for cid in ("W-Thm2", "A-Thm2"):
        assert results[cid].outcome == "open"
        assert results[cid].settled.binding in (False, None)


def test_w_thm1_is_decided_by_a_family_not_by_a_sample(results):
    res = results["W-Thm1"]
    assert (res.outcome, res.strength, res.settled.basis) == ("false", "proof", "certificate")
    first = res.errata[0]
    assert first.severity == "false-statement" and first.in_statement
    assert "eq. (6)" in first.location


def test_rank_collapse_goal_is_false_with_a_certified_counterexample(results):
    res = results["R-collapse"]
    assert (res.outcome, res.strength) == ("false", "proof")
    worst = res.errata[0]
    assert worst.severity == "false-statement" and worst.in_statement
    assert res.findings[0].startswith("false-statement")   # most severe first


def test_a_false_dependency_blocks_holds(results):
    settled = Settled("holds", "proof", "relies on the goal", basis="argument")
    assert apply_dependencies(settled, {"R-collapse": results["R-collapse"].outcome}).outcome \
        == "open"


def test_w_thm1_records_the_missing_patch_hypothesis_and_the_proof_error(results):
    sev = [e.severity for e in results["W-Thm1"].errata]
    assert {"missing-hypothesis", "proof-error", "notation"} <= set(sev)


def test_repairs_are_verified_by_passing_corrected_steps(results):
    for cid in ("W-Thm2", "A-Thm2"):
        repaired = [e for e in results[cid].errata if e.severity == "proof-error"]
        assert repaired and all(e.verified and e.survives for e in repaired), cid


# ----------------------------------------------------------------- hand-worked, per row

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


def test_a_thm2_hand_worked_rank_gap_and_empty_regime():
    assert frobenius_gap([[1, 0, 0], [0, 1, 0], [0, 0, 0]]) == 1
    assert frobenius_gap([[1, 0], [0, 1]], Fraction(1)) == 0
    from seprank.scalars.enclosures import e_bounds

    lo, _hi = e_bounds(14)
    assert 5 < 2 * lo * 1          # d = 5, r = 1: d / (2 e r) < 1


def test_r_collapse_hand_worked_one_layer():
    with iv_digits(30):
        x = layer_closed_form(1, 2, 1)
        assert x.a > mpmath.mpf("1.5231") and x.b < mpmath.mpf("1.5232")
        _y, R = mp_san(mpmath.iv, mpmath.iv.matrix([[1], [-1]]),
                       [(mpmath.iv.matrix([[1]]), mpmath.iv.matrix([[2]]))], 1)
        assert R[0, 0].a > mpmath.mpf("1.5231") and R[0, 0].b < mpmath.mpf("1.5232")
    assert collapse_regime(1, Fraction(1, 2), 1)["regime"] == "tends to 0"
    assert collapse_regime(1, 2, 1)["regime"] == "grows without bound"
