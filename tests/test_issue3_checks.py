"""Tests for the checks L-Thm3..L-Thm6, L-Lemma1/2/5, L-Claim1/2, L-Cor1/2, C7-claims
and their helper module seprank.constructions.known_seprank."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from seprank.constructions.known_seprank import (
    coefficient_rank,
    min_templates,
    monomial_certificate,
    monomial_exponents,
    network_sep_ranks,
    poly_product_function,
    side_points,
)
from seprank.proof import FAILED, PASSED, registered_checks, run_check

EXPECTED = {
    # refuted: displays of their proofs fail as printed (proofs/levine2020/levine_proof_displays.py;
    # L-Thm4, L-Thm6 also by the one-hot counterexample of
    # proofs/levine2020/levine_counterexample.py);
    # L-Claim2 and L-Cor2: proof failures are failed steps with errata (issue 10)
    "L-Thm3": "refuted", "L-Thm4": "refuted", "L-Thm5": "refuted", "L-Thm6": "refuted",
    "L-Lemma2": "verified", "L-Claim1": "verified", "L-Claim2": "refuted",
    "L-Lemma1": "verified", "L-Lemma5": "refuted", "L-Cor1": "refuted", "L-Cor2": "refuted",
    "C7-claims": "refuted",
}


@pytest.mark.parametrize("check_id", sorted(EXPECTED))
def test_verdicts(check_id):
    result = run_check(registered_checks()[check_id])
    assert result.verdict == EXPECTED[check_id], result.findings
    assert all(s.status in (PASSED, FAILED, "inconclusive") for s in result.steps)


def test_lemma5_counterexample_is_the_smallest_instance():
    result = run_check(registered_checks()["L-Lemma5"])
    (failed,) = [s for s in result.steps if s.status == FAILED]
    ce = failed.evidence["counterexample"]
    assert (ce["Y1"], ce["printed"], ce["network"]) == (2, 8, 10)
    assert all(s.status == PASSED for s in result.steps if s.corrected)


def test_monomial_counts():
    assert len(monomial_exponents(2, 3)) == comb(5, 2) == 10
    assert len(monomial_exponents(1, 27)) == 28
    assert min_templates(2, 9) == 55


def test_side_points_order_matches_matricize():
    T = np.array([[1], [2], [3]], dtype=object)
    P = side_points(T, 2)
    assert P.tolist()[:4] == [[1, 1], [1, 2], [1, 3], [2, 1]]


def test_certificate_rejects_repeated_templates():
    T = np.array([[1], [1], [2], [3]], dtype=object)
    assert not monomial_certificate(T, 2, (0,), 3)["ok"]
    T = np.array([[0], [1], [2], [3]], dtype=object)
    assert monomial_certificate(T, 2, (0,), 3)["ok"]


def test_known_sep_rank_function():
    fs = [{(1,): 1}, {(2,): 1}]
    gs = [{(0,): 1}, {(1,): 1}]
    assert coefficient_rank(fs, gs) == 2
    assert coefficient_rank(fs, [gs[0], gs[0]]) == 1
    f = poly_product_function(fs, gs, 2, (0,))
    X = np.array([[[2], [3]]], dtype=object)
    assert f(X).tolist() == [2 * 1 + 4 * 3]


def test_network_sep_rank_smallest_case_is_tight():
    case = network_sep_ranks(1, 1, 1, 2, seed=3)
    assert case["certificate"]["ok"] and case["max_rank"] == 2


def test_least_root():
    from seprank_proofs.levine2020.l_cor1_cor2 import least_root

    assert least_root(Fraction(27), 3) == 3
    assert least_root(Fraction(28), 3) == 4
    assert least_root(Fraction(1, 2), 5) == 1
    big = Fraction(10 ** 400 + 1)
    x = least_root(big, 4)
    assert x ** 4 >= big > (x - 1) ** 4
