"""The displays of levine2020's proofs (seprank.papers.levine2020.identities) on hand-worked cases.

Each identity is checked on a tiny case worked out by hand (weights 1 or identity
matrices, where the network output has a closed form), and a deliberately wrong
right-hand side is shown to be detected, so that the proof steps could fail.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest

from seprank.models import SelfAttentionNetwork
from seprank.papers.levine2020 import identities as idl
from seprank.proof import CheckSpec, run_check
from seprank.proof.claims import Claim


def _ones_net(L, residual=False):
    """d_x = H = d_a = 1, every weight 1: one layer maps x_i to x_i * sum_j x_j^2."""
    w = [[[[1]]] for _ in range(L)]
    return SelfAttentionNetwork(L, 1, 1, residual=residual,
                                weights={"Q": w, "K": w, "V": w, "O": w})


def _identity_net(L, d_x=2):
    """H = 1, d_a = d_x, every weight the identity: layer 1 is S x_i, so F_2(S) = S^4."""
    eye = np.eye(d_x, dtype=int).tolist()
    w = [[eye] for _ in range(L)]
    return SelfAttentionNetwork(L, d_x, 1, weights={"Q": w, "K": w, "V": w, "O": w})


# --- Theorem 3 (A.2) -----------------------------------------------------------------------


def test_chain_output_matches_closed_form():
    # L = 1: y_1 = x_1 (x_1^2 + x_2^2); L = 2: y_1 = x_1 s^4 with s = x_1^2 + x_2^2
    X = [[2], [3]]
    assert idl.chain_output(idl.lemma1_chains(_ones_net(1)), X, 0, 0) == 2 * 13
    assert idl.chain_output(idl.lemma1_chains(_ones_net(2)), X, 0, 0) == 2 * 13 ** 4
    assert len(idl.lemma1_chains(_ones_net(2))[0].pairs) == 4   # C(2) = 4 units


def test_separated_terms_hand_worked():
    # y_1 = x_1^3 * 1 + x_1 * x_2^2 for P = {1}, Q = {2}: terms (8, 1) and (2, 9) at (2, 3)
    terms = idl.thm3_separated_terms(idl.lemma1_chains(_ones_net(1)), [[2], [3]], 0, 0, [0])
    assert sorted(terms) == [(2, 9), (8, 1)]


def test_swap_tuples_hand_enumerated():
    assert idl.swap_tuples(2, "l403") == [(), (1,), (1, 1)]
    assert sorted(idl.swap_tuples(2, "eq17")) == sorted([(), (2,), (1,), (2, 2), (2, 1), (1, 1)])
    assert sorted(idl.swap_tuples(2, "corrected")) == sorted([(), (2,), (1,), (2, 1)])
    assert idl.swap_blocks((2, 1), 3) == [(2, 3, "P"), (1, 2, "Q"), (0, 1, "P")]
    for C in range(1, 6):
        for r in ("l403", "eq17", "corrected"):
            assert idl.swap_tuple_count(C, r) == len(idl.swap_tuples(C, r))


def test_swap_sum_printed_ranges_are_detected():
    # all-ones network, L = 2, X = (1, 1): every side sequence contributes 1, y = 2^4 = 16
    ch, X = idl.lemma1_chains(_ones_net(2)), [[1], [1]]
    assert idl.chain_output(ch, X, 0, 0) == 16
    assert idl.thm3_swap_sum(ch, X, 0, 0, [0], "corrected") == 16
    assert idl.thm3_swap_sum(ch, X, 0, 0, [0], "l403") == len(idl.swap_tuples(4, "l403")) != 16
    assert idl.thm3_swap_sum(ch, X, 0, 0, [0], "eq17") == len(idl.swap_tuples(4, "eq17")) != 16
    with pytest.raises(ValueError, match="ranges must be one of"):
        idl.swap_tuples(2, "other")


# --- Theorem 4 (A.3) -----------------------------------------------------------------------


def test_grouping_by_powers_fails_on_identity_network():
    # F_2(S) = S^4; at X = (e1, e2), S = I and y_1 = e1. The chi grouping of l.448 gives 8:
    # T = 1 exactly for alpha_1 = p, beta_c = alpha_{c+1}, beta_4 = alpha_5 (8 arrangements
    # for p = alpha_5 = 1), every count vector is even-even and each chi is 1 at (e1, e2).
    net = _identity_net(2)
    X = [[1, 0], [0, 1]]
    ch = idl.lemma1_chains(net)
    assert idl.chain_output(ch, X, 0, 0) == 1
    assert idl.thm4_grouped(ch, X, 0, 0) == 8
    S = idl.gram([[1, 2], [3, -1]])
    assert (idl.gram_form(net, S) == np.linalg.matrix_power(S.astype(int), 4)).all()


def test_coordinate_expansion_printed_index():
    # d_a = 1: r_c = r_{c+1} = 1, printed and corrected coincide
    X = [[1, Fraction(1, 2)], [-1, 2]]
    ch = idl.lemma1_chains(SelfAttentionNetwork.random(1, 2, 2, seed=7, nonzero=True))
    assert idl.thm4_expansion(ch, X, 0, 0, printed=True) == idl.thm4_expansion(ch, X, 0, 0)
    # identity weights, L = 1: y = S x_1. Corrected T = [alpha_1 = p][beta_1 = alpha_2];
    # printed (B_{r_1, beta_1}) T = [alpha_1 = p][beta_1 = p], so it gives S_pp sum_a x_1[a].
    # X = ((1, 2), (0, 1)): S = ((1, 2), (2, 5)); (S x_1)_1 = 5, printed S_11 (1 + 2) = 3
    ch = idl.lemma1_chains(_identity_net(1))
    X = [[1, 2], [0, 1]]
    assert idl.thm4_expansion(ch, X, 0, 0) == idl.chain_output(ch, X, 0, 0) == 5
    assert idl.thm4_expansion(ch, X, 0, 0, printed=True) == 3


def test_chi_and_its_split_hand_worked():
    X = [[1, 2], [3, 5]]
    # n = (2, 0): x^(1)_1^2 + x^(2)_1^2 = 1 + 9; n = (1, 1): x^(1)_1 x^(1)_2 + x^(2)_1 x^(2)_2
    assert idl.thm4_chi((2, 0), None, X, 0) == 10
    assert idl.thm4_chi((1, 1), None, X, 0) == 2 + 15
    assert idl.thm4_chi((1, 1), 1, X, 0) == 2 * 17
    value, count = idl.thm4_chi_split((1, 1), 1, X, 0, [0], 1)
    assert value == 34 and count == 2 * 2 * 2   # (C + 1) prod (n_m + 1)


def test_symmetric_monomial_counts_and_repaired_count():
    assert idl.sym_monomial_count((2, 2)) == 2          # S11 S22, S12^2
    assert idl.sym_monomial_count((1, 1, 1, 1)) == 3    # the three perfect matchings
    assert idl.sym_monomial_count((4,)) == 1
    assert idl.sym_monomial_count((1,)) == 0
    # d_x = 1: one S-monomial per degree, min(1, 1) per split: C + 1 terms
    assert [idl.thm4_repaired_count(k, 1) for k in range(5)] == [1, 2, 3, 4, 5]
    assert idl.thm4_shape(1, 2) == 48
    # monomials of degree <= k in S11, S12, S22 (d_x = 2): 1 + 3 for k = 1, 1 + 3 + 6 for k = 2
    assert [idl.gram_monomial_count(k, 2) for k in (0, 1, 2)] == [1, 4, 10]
    assert idl.gram_monomial_count(13, 1) == 14   # 1, s, ..., s^13
    # split by the Q-degree E, d_x = 2, degree 1: E = 0 pairs 2*3 P-functions with 1 Q-function,
    # E = 1 pairs 2 P-functions (x_a) with 3 (S_Q entries): 1 + 2 = 3 (= H(d_a+1) at H = 1)
    assert idl.gram_split_count(1, 2) == 3
    assert idl.gram_split_count(1, 2, residual=True) == 3   # E = 0: min(2*4, 1); E = 1: min(2, 3)


# --- Lemma 2, Theorems 5-6 (A.4) ------------------------------------------------------------


def test_lemma2_eq21_hand_worked():
    G = [[2, 3]]            # d_x = 1, N = 2: y_1 = g_1 (g_1^2 + g_2^2) = 26
    net = _ones_net(1)
    assert idl.lemma2_eq21(net, 0, G, 0, 0) == 26
    assert idl.lemma2_regrouped(net, 0, G, 0, 0) == (26, 2)   # N d_x^3 = 2 products


def test_unraveled_and_top_degree_hand_worked():
    net = _ones_net(1, residual=True)     # y_1 = x_1 + x_1 (x_1^2 + x_2^2)
    assert idl.unraveled_output(net, [[2], [3]]).tolist() == [[28], [42]]
    assert idl.top_degree_part(net, [[2], [3]]).tolist() == [[26], [39]]
    wrong = idl.unraveled_output(_ones_net(1), [[2], [3]])   # not residual: X counted twice
    assert wrong.tolist() != _ones_net(1).evaluate([[[2], [3]]])[0].tolist()


# --- B.2 ------------------------------------------------------------------------------------


def test_hadamard_power_expansion_hand_worked():
    lhs, rhs, n = idl.hadamard_power_terms([[1, 2], [3, -1]], 2)
    assert lhs.tolist() == [[25, 1], [1, 100]] == rhs.tolist() and n == 3
    assert idl.multinomial_expansion_is_identity(3, 2)


def test_omega_rows_hand_worked():
    # q = (2, 0), k = (1, 1), Omega = 3: s = 82, v^2 = (81/82, 1/82)
    lhs, rhs, norm = idl.omega_power_squares((2, 0), (1, 1), 3)
    assert lhs == rhs == Fraction(81, 82 ** 2) and norm == 1
    # a wrong right side (exponent lambda instead of lambda/2 before squaring) is detected
    assert lhs != Fraction(82) ** -4 * 3 ** 4


def test_omega_det_hand_worked():
    det, leib = idl.omega_det_and_leibniz(2, 2)
    x = flint.fmpz_poly([0, 1])
    assert det == leib == x ** 10 - 2 * x ** 8 + 2 * x ** 4 - x ** 2


# --- the proof steps ---------------------------------------------------------------------------


def _run(fn):
    spec = CheckSpec("demo", "demo", "demo", fn, claim=Claim("theorem", "demo", "demo"))
    return run_check(spec)


def test_thm3_steps_record_errata_and_verify_corrections():
    from seprank_proofs.levine2020.levine_proof_displays import thm3_displays

    res = _run(thm3_displays)
    failed = [s for s in res.steps if s.status == "failed"]
    assert [e.location for s in failed for e in s.errata] == [
        "A.2 l.403 (index ranges of the sum over swap indices)",
        "A.2 eq. (17) l.409 and l.415 (index ranges)"]
    # index-range slips whose corrected ranges the same step verifies: notation
    # (docs/checks.md, "Severity of a slip"; the same kind as the other range slips)
    assert all(e.verified and e.severity == "notation" for e in res.errata)
    assert all(s.status in ("passed", "failed") for s in res.steps)


def test_a_wrong_right_side_fails_the_step(monkeypatch):
    from seprank_proofs.levine2020 import levine_proof_displays as m

    real = idl.chain_output
    monkeypatch.setattr(m.idl, "chain_output", lambda *a: real(*a) + 1)
    res = _run(m.thm3_displays)
    step = next(s for s in res.steps if s.claim.startswith("l.397"))
    assert step.status == "failed" and "differs" in step.message


def test_residual_and_lower_bound_steps_decide():
    from seprank_proofs.levine2020.levine_residual_displays import (
        lower_bound_displays,
        thm56_displays,
    )

    res5 = _run(lambda ctx: thm56_displays(ctx, part=5))
    assert sorted((e.severity, e.verified) for e in res5.errata) == [
        ("notation", True), ("proof-error", True)]
    res6 = _run(lambda ctx: thm56_displays(ctx, part=6))
    assert [(e.severity, e.verified) for e in res6.errata] == [("proof-error", True)]
    low = _run(lower_bound_displays)
    assert low.errata == [] and all(s.status == "passed" for s in low.steps)
