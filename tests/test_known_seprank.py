"""Tests of seprank.constructions.known_seprank: functions of known separation rank, the
monomial counts and certificates of grid templates, and the exact separation ranks of
small networks (the instances the levine2020 and chapter7 checks rerun)."""

from math import comb

import numpy as np

from seprank.constructions.known_seprank import (
    coefficient_rank,
    min_templates,
    monomial_certificate,
    monomial_exponents,
    network_sep_ranks,
    poly_product_function,
    side_points,
)


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
