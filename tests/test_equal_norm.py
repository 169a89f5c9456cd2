"""Equal-norm natural matrices with a full-rank Gram Hadamard power (wies2021 Lemma 8)."""

import math
import random
from fractions import Fraction

import flint
import numpy as np
import pytest

import seprank
from seprank.combinatorics import compositions, multiset
from seprank.constructions.equal_norm import (
    SELECTION_PRIME,
    check_witness_shape,
    equal_norm_witness,
    gram_hadamard_power,
    monomial_matrix,
    monomial_matrix_mod_p,
    points_of_norm,
    sample_points_of_norm,
)
from seprank.errors import ParameterError
from seprank.proof.evidence import jsonable


def _exact_full_rank(A, lam):
    G = flint.fmpz_mat(gram_hadamard_power(A, lam))
    return G.rank() == len(A)


def test_points_of_norm_hand_cases():
    assert sorted(points_of_norm(25, 2)[0]) == [(3, 4), (4, 3)]
    assert sorted(points_of_norm(25, 2, positive=False)[0]) == [(0, 5), (3, 4), (4, 3), (5, 0)]
    assert sorted(points_of_norm(9, 3)[0]) == [(1, 2, 2), (2, 1, 2), (2, 2, 1)]
    assert points_of_norm(7, 3)[0] == []  # 7 is not a sum of three squares
    assert points_of_norm(2, 3)[0] == []  # positive coordinates need norm >= 3
    with pytest.raises(ParameterError):
        points_of_norm(10_000, 4, work_limit=100)


def test_sample_points_have_the_norm():
    rng = random.Random(0)
    pts = sample_points_of_norm(49, 10, rng=rng, count=50, attempts=5000)
    assert pts and len(set(pts)) == len(pts)
    assert all(sum(x * x for x in p) == 49 and min(p) >= 1 and len(p) == 10 for p in pts)
    assert set(pts) <= set(points_of_norm(49, 10)[0])


def test_hand_case_d2_lam1():
    # rows (3, 4), (4, 3): c = 25 = 5^2, Gram [[25, 24], [24, 25]], det = 49
    w = equal_norm_witness(2, 1)
    assert sorted(map(tuple, w.A)) == [(3, 4), (4, 3)]
    assert w.c == 25 and w.norm == 5
    assert gram_hadamard_power(w.A, 1) == [[25, 24], [24, 25]]
    assert flint.fmpz_mat(gram_hadamard_power(w.A, 1)).det() == 49


def test_hand_case_d2_lam2():
    # n = 3 points on x^2 + y^2 = c; Hadamard square has rank 3 iff the points are
    # pairwise non-proportional (a 3 x 3 Vandermonde in y/x)
    w = equal_norm_witness(2, 2)
    assert w.n == 3 and len({sum(x * x for x in r) for r in w.A}) == 1
    assert len({Fraction(r[1], r[0]) for r in w.A}) == 3
    assert _exact_full_rank(w.A, 2)


@pytest.mark.parametrize("d,lam", [(1, 0), (1, 5), (2, 0), (3, 1), (2, 3), (3, 2), (3, 3),
                                   (4, 2), (2, 6), (5, 2), (4, 3), (3, 5)])
def test_witness_properties_and_exact_rank(d, lam):
    w = equal_norm_witness(d, lam)
    shape = check_witness_shape(w)
    assert shape["shape_ok"] and shape["entries_natural"] and shape["equal_norms"]
    assert shape["c_is_square"] and shape["rows_distinct"] and shape["min_entry"] >= 1
    assert shape["multinomial_factorization_ok"]
    assert w.n == multiset(d, lam)
    assert _exact_full_rank(w.A, lam)
    r = seprank.rank(gram_hadamard_power(w.A, lam), certify=True)
    assert r.kind == "exact" and r.value == w.n
    assert seprank.verify(gram_hadamard_power(w.A, lam), r.certificate)


def test_witness_is_deterministic_and_seeded():
    a = equal_norm_witness(4, 3, seed=0)
    b = equal_norm_witness(4, 3, seed=0)
    assert a.A == b.A and a.c == b.c
    c = equal_norm_witness(4, 3, seed=5)
    assert _exact_full_rank(c.A, 3)


def test_nonnegative_and_nonsquare_options():
    w = equal_norm_witness(3, 3, positive=False, square_norm=False)
    shape = check_witness_shape(w)
    assert shape["equal_norms"] and shape["entries_natural"]
    assert _exact_full_rank(w.A, 3)
    w2 = equal_norm_witness(6, 2, square_norm=False)
    assert check_witness_shape(w2)["equal_norms"] and _exact_full_rank(w2.A, 2)


def test_gaussian_construction_d2():
    w = equal_norm_witness(2, 6, method="gaussian")
    assert w.method == "gaussian"
    m = w.details["m"]
    assert m % 2 == 0 and m >= 7 and w.c == 5**m and w.norm == 5 ** (m // 2)
    assert all(x >= 1 for r in w.A for x in r)
    assert _exact_full_rank(w.A, 6)
    with pytest.raises(ParameterError):
        equal_norm_witness(3, 2, method="gaussian")


def test_monomial_matrix_mod_p_matches_exact():
    pts = [(3, 4, 12), (12, 4, 3), (5, 0, 12), (1, 2, 2)]
    for lam in (0, 1, 3, 7):
        exact = monomial_matrix(pts, lam)
        modp = monomial_matrix_mod_p(pts, lam, SELECTION_PRIME)
        assert np.array_equal(modp, np.array([[v % SELECTION_PRIME for v in row]
                                              for row in exact], dtype=np.int64))
    assert len(monomial_matrix(pts, 2)[0]) == len(compositions(2, 3))
    with pytest.raises(ParameterError):
        monomial_matrix_mod_p(pts, 2, 2**61 - 1)


def test_gram_hadamard_power_hand():
    assert gram_hadamard_power([[1, 2], [2, 1]], 2) == [[25, 16], [16, 25]]


def test_witness_to_dict_is_jsonable():
    w = equal_norm_witness(3, 2)
    d = jsonable(w.to_dict())
    assert d["n"] == 6 and d["l2_norm"] == math.isqrt(d["c"])


def test_parameter_errors():
    with pytest.raises(ParameterError):
        equal_norm_witness(0, 2)
    with pytest.raises(ParameterError):
        equal_norm_witness(2, -1)
    with pytest.raises(ParameterError):
        equal_norm_witness(2, 2, method="magic")
    with pytest.raises(ParameterError):
        equal_norm_witness(True, 2)


@pytest.mark.slow
@pytest.mark.parametrize("d,lam", [(8, 4), (20, 2), (6, 5), (2, 27), (3, 15)])
def test_larger_witnesses_certified(d, lam):
    w = equal_norm_witness(d, lam)
    assert check_witness_shape(w)["equal_norms"]
    G = gram_hadamard_power(w.A, lam)
    r = seprank.rank(G, certify=True)
    assert r.kind == "exact" and r.value == w.n
    assert seprank.verify(G, r.certificate)
