"""det A(Omega) as an exact polynomial (levine2020 B.2 l.712-718, Lemmas 7-8)."""

import json
import random
from fractions import Fraction

import flint
import pytest
import sympy

from seprank.combinatorics import compositions, multiset
from seprank.constructions.omega import omega_A_matrix
from seprank.errors import ParameterError
from seprank.papers.levine2020.omega_polynomial import (
    bad_integer_omegas,
    bad_rational_omegas,
    check_polynomial_at_points,
    composition_exponents,
    count_real_roots,
    identity_exponent,
    leibniz_det_polynomial,
    monomial_matrix_det_polynomial,
    omega_det_leibniz,
    omega_det_polynomial,
    omega_matrix_at,
    omega_symbolic_report,
    polynomial_matrix_det,
    real_root_count,
    top_permutation,
)
from seprank.proof.evidence import jsonable

X = flint.fmpz_poly([0, 1])


def _sympy_omega_det(d, lam):
    """Independent: the symbolic matrix [W^<q_a, q_b>] and sympy's determinant."""
    w = sympy.Symbol("W")
    Q = compositions(lam, d)
    M = sympy.Matrix([[w ** sum(x * y for x, y in zip(a, b, strict=True)) for b in Q]
                      for a in Q])
    poly = sympy.Poly(sympy.expand(M.det(method="berkowitz")), w)
    return flint.fmpz_poly([int(c) for c in reversed(poly.all_coeffs())])


def test_hand_case_d2_lam1():
    # compositions (1,0), (0,1): A = [[W, 1], [1, W]], det = W^2 - 1
    Q, E = composition_exponents(2, 1)
    assert Q == [(1, 0), (0, 1)]
    assert E == [[1, 0], [0, 1]]
    poly = omega_det_polynomial(2, 1)
    assert poly == X**2 - 1
    assert bad_integer_omegas(poly) == [-1, 1]
    assert identity_exponent(2, 1) == 2


def test_hand_case_d2_lam2():
    # compositions (2,0), (1,1), (0,2); inner products
    #   (2,0): 4 2 0 ; (1,1): 2 2 2 ; (0,2): 0 2 4
    # A = [[W^4, W^2, 1], [W^2, W^2, W^2], [1, W^2, W^4]]
    # det = W^4 (W^6 - W^4) - W^2 (W^6 - W^2) + (W^4 - W^2)
    #     = W^10 - 2 W^8 + 2 W^4 - W^2 = W^2 (W^2 - 1)^3 (W^2 + 1)
    _, E = composition_exponents(2, 2)
    assert E == [[4, 2, 0], [2, 2, 2], [0, 2, 4]]
    poly = omega_det_polynomial(2, 2)
    assert poly == X**10 - 2 * X**8 + 2 * X**4 - X**2
    assert poly == X**2 * (X**2 - 1) ** 3 * (X**2 + 1)
    assert poly.degree() == identity_exponent(2, 2) == 10
    assert bad_integer_omegas(poly) == [-1, 0, 1]
    assert count_real_roots(poly) == 3


@pytest.mark.parametrize("d,lam", [(1, 2), (2, 1), (2, 2), (3, 1), (2, 3), (3, 2), (4, 1)])
def test_matches_sympy_symbolic_determinant(d, lam):
    assert omega_det_polynomial(d, lam) == _sympy_omega_det(d, lam)


@pytest.mark.parametrize("d,lam", [(2, 4), (2, 5), (3, 2), (4, 1), (5, 1), (2, 6), (2, 7),
                                   (6, 1), (7, 1), (8, 1)])
def test_kronecker_matches_leibniz(d, lam):
    assert omega_det_polynomial(d, lam) == omega_det_leibniz(d, lam, max_n=8)


@pytest.mark.parametrize("d,lam", [(2, 1), (3, 3), (4, 3), (5, 2), (3, 5), (2, 9)])
def test_degree_leading_coefficient_and_evaluations(d, lam):
    poly = omega_det_polynomial(d, lam)
    assert poly.degree() == identity_exponent(d, lam)
    assert poly.leading_coefficient() == 1
    _, E = composition_exponents(d, lam)
    assert check_polynomial_at_points(poly, E, (2, 3, -2, -3, 5))["agree"]


def test_omega_matrix_agrees_with_the_omega_module():
    # independent builders: ours from the exponent matrix, omega.py from the rows
    for d, lam in [(2, 1), (2, 2), (3, 2), (3, 3)]:
        _, E = composition_exponents(d, lam)
        for w in (2, 3, -2):
            assert omega_matrix_at(E, w) == omega_A_matrix(d, lam, w)


def test_lambda_one_closed_form():
    # A = (W - 1) I + J: eigenvalues W - 1 (d - 1 times) and W - 1 + d
    for d in range(1, 8):
        poly = omega_det_polynomial(d, 1)
        assert poly == (X - 1) ** (d - 1) * (X + d - 1)
        expected = sorted({1, 1 - d}) if d > 1 else [1 - d]
        assert bad_integer_omegas(poly) == expected


def test_d_one_closed_form():
    for lam in range(0, 6):
        assert omega_det_polynomial(1, lam) == X ** (lam * lam)


def test_top_permutation_is_identity():
    for d, lam in [(2, 1), (3, 3), (5, 3)]:
        top = top_permutation(d, lam)
        assert top["unique"] and top["certificate_valid"] and top["sign"] == 1
        assert top["exponent"] == identity_exponent(d, lam)
        assert top["second_best_exponent"] == identity_exponent(d, lam) - 2


def test_monomial_det_of_a_singular_pattern_is_zero():
    # two equal rows of exponents: det is the zero polynomial
    poly = monomial_matrix_det_polynomial([[1, 2], [1, 2]])
    assert poly.is_zero()
    with pytest.raises(ParameterError):
        bad_integer_omegas(poly)
    with pytest.raises(ParameterError):
        bad_rational_omegas(poly)


def test_monomial_det_non_symmetric():
    # [[x^3, 1], [x, x^2]] -> x^5 - x
    assert monomial_matrix_det_polynomial([[3, 0], [1, 2]]) == X**5 - X
    assert leibniz_det_polynomial([[3, 0], [1, 2]]) == X**5 - X


def test_polynomial_matrix_det_random_against_sympy():
    rng = random.Random(7)
    x = sympy.Symbol("x")
    for _ in range(15):
        n = rng.randint(1, 4)
        polys = [[flint.fmpz_poly([rng.randint(-9, 9) for _ in range(rng.randint(0, 4))])
                  for _ in range(n)] for _ in range(n)]
        M = sympy.Matrix([[sum(int(c) * x**k for k, c in enumerate(p.coeffs())) for p in row]
                          for row in polys])
        det = sympy.Poly(sympy.expand(M.det()), x)
        expected = flint.fmpz_poly([int(c) for c in reversed(det.all_coeffs())])
        assert polynomial_matrix_det(polys) == expected


def test_polynomial_matrix_det_big_coefficients():
    big = 10**30
    A = [[flint.fmpz_poly([big, 1]), 1], [-big, flint.fmpz_poly([0, big])]]
    # (big + x) * big x + big = big^2 x + big x^2 + big
    assert polynomial_matrix_det(A) == flint.fmpz_poly([big, big * big, big])


def test_bad_rational_and_real_roots():
    p = flint.fmpz_poly([-1, 2]) * flint.fmpz_poly([3, 1]) * flint.fmpz_poly([1, 0, 1])
    assert bad_rational_omegas(p) == [Fraction(-3), Fraction(1, 2)]
    assert [str(f) for f in bad_rational_omegas(p)] == ["-3", "1/2"]
    assert bad_integer_omegas(p) == [-3]
    assert count_real_roots(p) == 2
    q = flint.fmpz_poly([-1, 3, 1])  # x^2 + 3x - 1: two irrational real roots
    assert bad_integer_omegas(q) == [] and count_real_roots(q) == 2
    r = real_root_count(flint.fmpz_poly.cyclotomic(12) * (X - 1) * (X + 1) ** 2)
    assert r["count"] == 2 and r["factors_by_method"]["cyclotomic"] == 3


def test_real_root_count_large_factor_uses_certified_isolation():
    # x^61 - 2: irreducible (Eisenstein), one real root; beyond the Sturm threshold
    p = X**61 - 2
    r = real_root_count(p)
    assert r["count"] == 1 and r["factors_by_method"]["arb_certified"] == 1
    r2 = real_root_count(p, sturm_max_degree=100)
    assert r2["count"] == 1 and r2["factors_by_method"]["sturm"] == 1


def test_report_is_complete_and_jsonable():
    rep = omega_symbolic_report(3, 2)
    assert rep["n"] == multiset(3, 2) == 6
    assert rep["degree"] == rep["identity_exponent"] == 18
    assert rep["leading_coefficient"] == 1
    assert rep["degree_equals_identity_exponent"]
    assert rep["leading_coefficient_is_identity_sign"]
    assert rep["bad_integer_omegas"] == [-1, 1]
    assert rep["distinct_real_roots"] == 4
    assert rep["evaluation_check"]["agree"]
    assert flint.fmpz_poly(rep["coefficients"]) == omega_det_polynomial(3, 2)
    json.dumps(jsonable(rep))


def test_parameter_errors():
    with pytest.raises(ParameterError):
        omega_det_polynomial(0, 2)
    with pytest.raises(ParameterError):
        omega_det_polynomial(2, -1)
    with pytest.raises(ParameterError):
        omega_det_polynomial(2, 1.5)
    with pytest.raises(ParameterError):
        omega_det_polynomial(10, 3, max_n=100)  # n = 220
    with pytest.raises(ParameterError):
        omega_det_leibniz(3, 3, max_n=8)  # n = 10
    with pytest.raises(ParameterError):
        monomial_matrix_det_polynomial([[1, 2], [3]])
    with pytest.raises(ParameterError):
        monomial_matrix_det_polynomial([[1, -1], [0, 1]])
    with pytest.raises(ParameterError):
        omega_matrix_at([[1]], 1.5)


@pytest.mark.slow
@pytest.mark.parametrize("d,lam", [(6, 3), (4, 4), (3, 7), (10, 2)])
def test_larger_cases(d, lam):
    poly = omega_det_polynomial(d, lam)
    assert poly.degree() == identity_exponent(d, lam)
    assert poly.leading_coefficient() == 1
    _, E = composition_exponents(d, lam)
    assert check_polynomial_at_points(poly, E, (2, -3))["agree"]
