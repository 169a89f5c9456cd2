"""Tests of seprank.papers.rank_collapse (pure_attention, collapse_family) and the R- checks
built on it.

Worked by hand for R-collapse: one layer on [1, -1]^T with W_QK = 1, W_V = 2 gives
2 tanh(1) = 1.5231...
"""

import random
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import sympy

from seprank.papers.rank_collapse.collapse_family import (
    collapse_regime,
    iv_digits,
    layer_closed_form,
)
from seprank.papers.rank_collapse.pure_attention import (
    composite_sq,
    float_log_ratio,
    mp_bound_sides,
    mp_san,
    norm1,
    norminf,
    rand_rational_matrix,
    rand_row_stochastic,
    random_network,
    res_frobenius,
    san_direct,
    san_paths,
    softmax_rows_symbolic,
    triangle_fails,
)
from seprank.proof import REFUTED, registered_checks, run_check


def test_softmax_rows_sum_to_one_and_shift():
    A = sympy.Matrix([[0, 1], [2, sympy.Rational(1, 3)]])
    S = softmax_rows_symbolic(A)
    assert all(sympy.simplify(sum(S.row(i)) - 1) == 0 for i in range(2))
    shifted = softmax_rows_symbolic(A + sympy.Matrix([[5], [-2]]) * sympy.ones(1, 2))
    assert all(sympy.simplify(v) == 0 for v in shifted - S)
    col = softmax_rows_symbolic(A + sympy.ones(2, 1) * sympy.Matrix([[0, 1]]))
    assert any(sympy.simplify(v) != 0 for v in col - S)


def test_row_stochastic():
    rng = random.Random(1)
    P = rand_row_stochastic(rng, 4)
    for i in range(4):
        assert sum((P[i, j] for j in range(4)), flint.fmpq(0)) == 1
        assert all(P[i, j] > 0 for j in range(4))


@pytest.mark.parametrize("skip", [False, True])
def test_path_sum_matches_direct(skip):
    rng = random.Random(7)
    for L, H in [(1, 1), (2, 2), (3, 2), (2, 3)]:
        net = random_network(rng, L, H, 3, 2, 2)
        X = rand_rational_matrix(rng, 3, 2)
        total, paths, _b = san_paths(X, net, skip=skip)
        assert paths == (H + skip) ** L
        assert total == san_direct(X, net, skip=skip)


def test_path_sum_needs_row_sums_one():
    rng = random.Random(3)
    net = random_network(rng, 2, 1, 2, 1, 1)
    P, WV, bV, WO = net[0][0]
    bad = flint.fmpq_mat(2, 2, [1, 1, 0, 1])          # first row sums to 2
    net[0][0] = (bad, WV, flint.fmpq_mat(1, 1, [1]), WO)
    X = rand_rational_matrix(rng, 2, 1)
    assert san_paths(X, net)[0] != san_direct(X, net)


def test_norms_and_triangle_counterexample():
    M = [[1, -2], [3, 4]]
    assert norm1(M) == 6 and norminf(M) == 7 and composite_sq(M) == 42
    assert triangle_fails([[0, 1]], [[1, 1]])            # sqrt 6 > 1 + sqrt 2
    assert not triangle_fails([[1, 0]], [[0, 1]])
    assert not triangle_fails([[1]], [[2]])


def test_res_frobenius_properties():
    X = [[1, 2], [3, 5], [Fraction(1, 2), -1]]
    R = res_frobenius(X)
    assert all(sum(r[j] for r in R) == 0 for j in range(2))
    assert res_frobenius(R) == R
    assert res_frobenius([[v + 7 for v in row] for row in X]) == R


def test_bound_sides_mp_iv_and_float_agree():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3, 2))
    layers = [(rng.normal(size=(2, 2)) * 0.3, rng.normal(size=(2, 2))) for _ in range(2)]
    with mpmath.workdps(50):
        lhs, rhs, _ = mp_bound_sides(mpmath.mp, X.tolist(),
                                     [(a.tolist(), b.tolist()) for a, b in layers], 2)
        old = mpmath.iv.dps
        mpmath.iv.dps = 50
        try:
            ilhs, irhs, _ = mp_bound_sides(mpmath.iv, X.tolist(),
                                           [(a.tolist(), b.tolist()) for a, b in layers], 2)
        finally:
            mpmath.iv.dps = old
        assert ilhs.a <= lhs <= ilhs.b and irhs.a <= rhs <= irhs.b
        assert abs(float(mpmath.log(lhs / rhs)) - float_log_ratio(X, layers, 2)) < 1e-8


def test_bound_centred_propagation_matches_direct():
    """The centred propagation equals res of the plain layer-by-layer evaluation."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(4, 3))
    WQK, WV = rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
    with mpmath.workdps(50):
        mX, mQ, mV = mpmath.matrix(X.tolist()), mpmath.matrix(WQK.tolist()), \
            mpmath.matrix(WV.tolist())
        A = mX * mQ * mX.T
        P = mpmath.matrix(4, 4)
        for i in range(4):
            den = mpmath.fsum(mpmath.exp(A[i, k]) for k in range(4))
            for j in range(4):
                P[i, j] = mpmath.exp(A[i, j]) / den
        Y = P * mX * mV
        R = [[Y[i, j] - mpmath.fsum(Y[k, j] for k in range(4)) / 4 for j in range(3)]
             for i in range(4)]
        direct = mpmath.sqrt(max(sum(abs(R[i][j]) for i in range(4)) for j in range(3))
                             * max(sum(abs(v) for v in row) for row in R))
        lhs, _rhs, _ = mp_bound_sides(mpmath.mp, X.tolist(), [(WQK.tolist(), WV.tolist())], 1)
        assert abs(lhs - direct) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("cid,verdict", [("R-shift", "verified"), ("R-path", REFUTED),
                                         ("R-norm", REFUTED), ("R-bound", "inconclusive")])
def test_rank_collapse_checks(cid, verdict):
    result = run_check(registered_checks()[cid])
    assert result.verdict == verdict, result.findings


def test_rank_collapse_goal_is_false_with_a_certified_counterexample():
    res = run_check(registered_checks()["R-collapse"])
    assert (res.outcome, res.strength) == ("false", "proof")
    worst = res.errata[0]
    assert worst.severity == "false-statement" and worst.in_statement
    assert res.findings[0].startswith("false-statement")   # most severe first


def test_r_collapse_hand_worked_one_layer():
    with iv_digits(30):
        x = layer_closed_form(1, 2, 1)
        assert x.a > mpmath.mpf("1.5231") and x.b < mpmath.mpf("1.5232")
        _y, R = mp_san(mpmath.iv, mpmath.iv.matrix([[1], [-1]]),
                       [(mpmath.iv.matrix([[1]]), mpmath.iv.matrix([[2]]))], 1)
        assert R[0, 0].a > mpmath.mpf("1.5231") and R[0, 0].b < mpmath.mpf("1.5232")
    assert collapse_regime(1, Fraction(1, 2), 1)["regime"] == "tends to 0"
    assert collapse_regime(1, 2, 1)["regime"] == "grows without bound"
