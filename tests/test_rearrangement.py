"""The vector rearrangement inequality (levine2020 Lemma 8, B.3 l.825-852)."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.combinatorics import compositions
from seprank.errors import ParameterError
from seprank.papers.levine2020.rearrangement import (
    best_non_identity_assignment,
    dual_certificate,
    exhaustive_rearrangement,
    gap_identity_holds,
    gram,
    identity_exponent,
    max_weight_assignment,
    min_pairwise_sq_distance,
    permutation_exponent,
    permutation_sign,
    scalar_equality_cases,
    second_best_exponent,
    verify_dual_certificate,
)


def _brute_second_best(vs):
    n = len(vs)
    ident = tuple(range(n))
    return max(permutation_exponent(vs, s) for s in itertools.permutations(range(n))
               if s != ident)


# distinct integer vectors (any sign), 2..6 of them, dimension 1..3
vector_sets = st.integers(1, 3).flatmap(
    lambda dim: st.lists(st.tuples(*[st.integers(-4, 4)] * dim), min_size=2, max_size=6,
                         unique=True))


def test_hand_case_two_unit_vectors():
    vs = [(1, 0), (0, 1)]
    assert identity_exponent(vs) == 2
    assert permutation_exponent(vs, (1, 0)) == 0
    r = exhaustive_rearrangement(vs)
    assert r["identity_unique_max"] and r["second_best"] == 0 and r["permutations"] == 2


def test_hand_case_compositions_d2_lam2():
    # (2,0), (1,1), (0,2): Gram [[4,2,0],[2,2,2],[0,2,4]]; e(id) = 10
    vs = compositions(2, 2)
    assert gram(vs) == [[4, 2, 0], [2, 2, 2], [0, 2, 4]]
    assert identity_exponent(vs) == 10
    # swap of the first two: 2 + 2 + 4 = 8; the 3-cycle 0->1->2->0: 2 + 2 + 0 = 4
    assert permutation_exponent(vs, (1, 0, 2)) == 8
    assert permutation_exponent(vs, (1, 2, 0)) == 4
    assert second_best_exponent(vs) == 8


def test_permutation_sign():
    assert permutation_sign((0, 1, 2)) == 1
    assert permutation_sign((1, 0, 2)) == -1
    assert permutation_sign((1, 2, 0)) == 1
    assert permutation_sign((3, 2, 1, 0)) == 1
    assert permutation_sign(()) == 1


@pytest.mark.parametrize("d,lam", [(2, 3), (3, 2), (4, 1), (2, 6), (7, 1)])
def test_exhaustive_compositions(d, lam):
    r = exhaustive_rearrangement(compositions(lam, d))
    assert r["identity_unique_max"]
    assert r["gap_identity_ok"]
    assert r["second_best"] == r["identity_exponent"] - 2


def test_equal_vectors_tie():
    r = exhaustive_rearrangement([(0,), (0,)])
    assert not r["identity_unique_max"]
    assert r["argmax_count"] == 2 and r["violations"] == [{"sigma": [1, 0], "exponent": 0}]


def test_fractions_accepted():
    vs = [(Fraction(1, 2), 0), (0, Fraction(1, 3))]
    assert identity_exponent(vs) == Fraction(1, 4) + Fraction(1, 9)
    assert exhaustive_rearrangement(vs)["identity_unique_max"]


@settings(max_examples=150, deadline=None)
@given(vector_sets, st.randoms(use_true_random=False))
def test_strict_inequality_for_distinct_vectors(vs, rnd):
    """Any real entries (the non-negativity hypothesis of Lemma 8 is not needed)."""
    sigma = list(range(len(vs)))
    rnd.shuffle(sigma)
    assert gap_identity_holds(vs, sigma)
    if sigma != list(range(len(vs))):
        assert permutation_exponent(vs, sigma) < identity_exponent(vs)


@settings(max_examples=60, deadline=None)
@given(vector_sets)
def test_closed_form_second_best_matches_brute_force(vs):
    assert second_best_exponent(vs) == _brute_second_best(vs)
    cert = dual_certificate(vs)
    ver = verify_dual_certificate(vs, cert)
    assert ver["valid"] and ver["identity_unique"]
    assert ver["min_gap"] == min_pairwise_sq_distance(vs)[0]


@settings(max_examples=25, deadline=None)
@given(vector_sets)
def test_networkx_matches_brute_force(vs):
    r = best_non_identity_assignment(vs)
    assert r["best_weight"] == r["identity_weight"] == identity_exponent(vs)
    assert r["second_best"] == _brute_second_best(vs)
    assert permutation_exponent(vs, r["second_best_sigma"]) == r["second_best"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-2, 2), min_size=1, max_size=5))
def test_scalar_equality_condition(values):
    r = scalar_equality_cases(values)
    assert r["inequality_ok"]
    assert r["corrected_mismatch"] is None
    # the printed condition is right exactly when all values are distinct
    assert (r["printed_mismatch"] is None) == (len(set(values)) == len(values))


def test_scalar_equality_printed_condition_smallest_counterexample():
    r = scalar_equality_cases([0, 0])
    assert r["printed_mismatch"] == {"sigma": [0, 1], "equality_holds": True,
                                     "printed_condition_holds": False}
    assert scalar_equality_cases([0, 1])["printed_mismatch"] is None


def test_dual_certificate_detects_tampering():
    vs = compositions(3, 3)
    cert = dual_certificate(vs)
    bad = dict(cert, two_u=[cert["two_u"][0] - 1] + cert["two_u"][1:])
    assert not verify_dual_certificate(vs, bad)["valid"]
    short = dict(cert, two_u=cert["two_u"][:-1])
    assert not verify_dual_certificate(vs, short)["valid"]
    # repeated vectors: valid potentials but no uniqueness
    rep = [(1, 2), (1, 2), (0, 0)]
    ver = verify_dual_certificate(rep, dual_certificate(rep))
    assert ver["valid"] and not ver["identity_unique"] and ver["min_gap"] == 0


def test_numpy_paths_agree_with_loops():
    rng = random.Random(3)
    vs = list({tuple(rng.randint(0, 6) for _ in range(4)) for _ in range(150)})
    assert len(vs) > 64
    m, (i, j) = min_pairwise_sq_distance(vs)
    brute = min(sum((x - y) ** 2 for x, y in zip(a, b, strict=True))
                for a, b in itertools.combinations(vs, 2))
    assert m == brute == sum((x - y) ** 2 for x, y in zip(vs[i], vs[j], strict=True))
    cert = dual_certificate(vs)
    ver = verify_dual_certificate(vs, cert)
    assert ver == {"valid": True, "identity_unique": True, "min_gap": brute}
    # tampering is also caught on the numpy path
    bad = dict(cert, two_u=[cert["two_u"][0] + 1] + cert["two_u"][1:])
    assert not verify_dual_certificate(vs, bad)["valid"]


def test_large_compositions_certificate():
    vs = compositions(4, 8)  # 330 vectors
    ver = verify_dual_certificate(vs, dual_certificate(vs))
    assert ver["identity_unique"] and ver["min_gap"] == 2


def test_max_weight_assignment_small():
    w, sigma = max_weight_assignment([[1, 5], [5, 1]])
    assert w == 10 and sigma == [1, 0]
    w, sigma = max_weight_assignment([[1, 5], [5, 1]], forbid=(0, 1))
    assert w == 2 and sigma == [0, 1]


def test_parameter_errors():
    with pytest.raises(ParameterError):
        permutation_exponent([(1,), (2,)], (0, 0))
    with pytest.raises(ParameterError):
        identity_exponent([(1, 2), (3,)])
    with pytest.raises(ParameterError):
        identity_exponent([(1.5,)])
    with pytest.raises(ParameterError):
        exhaustive_rearrangement(compositions(3, 3), max_n=9)  # 10 vectors
    with pytest.raises(ParameterError):
        min_pairwise_sq_distance([(1,)])
    with pytest.raises(ParameterError):
        best_non_identity_assignment([(1,)])
    with pytest.raises(ParameterError):
        max_weight_assignment([[1.0]])
    with pytest.raises(ParameterError):
        scalar_equality_cases(list(range(10)))

