"""Gaussian rationals Q(i), matrices over Q(i), and their reduction to GF(p), p = 1 mod 4."""

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import seprank
from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.linalg.residues import ResidueMatrix
from seprank.scalars.gaussian import (
    GaussianRational,
    I,
    gaussian_array,
    next_prime_1_mod_4,
    residues,
    sqrt_minus_one,
    to_residue,
)
from seprank.scalars.gaussian_matrix import GaussianMatrix
from seprank.scalars.primes import is_prime

fractions = st.fractions(min_value=-20, max_value=20, max_denominator=12)
gaussians = st.builds(GaussianRational, fractions, fractions)
nonzero_gaussians = gaussians.filter(bool)
PRIMES_1_MOD_4 = [5, 13, 17, 29, 37, 41, 1000033, 2**31 - 19]


# -- numbers -------------------------------------------------------------------------------

@settings(max_examples=60)
@given(gaussians, gaussians, gaussians)
def test_field_axioms(a, b, c):
    assert (a + b) + c == a + (b + c)
    assert a * (b + c) == a * b + a * c
    assert a * b == b * a
    assert a - a == 0 and a + (-a) == 0
    assert (a * b).conjugate() == a.conjugate() * b.conjugate()
    assert (a * b).norm() == a.norm() * b.norm()
    if b:
        assert (a / b) * b == a
        assert b ** -2 * b ** 2 == 1


def test_hand_worked_values():
    z = GaussianRational(1, 2)
    assert z * z == GaussianRational(-3, 4)
    assert z / I == GaussianRational(2, -1)
    assert I ** 2 == -1 and I ** 4 == 1 and I ** -1 == -I
    assert 1 / GaussianRational(0, 2) == GaussianRational(0, Fraction(-1, 2))
    assert str(GaussianRational(Fraction(1, 2), -1)) == "1/2 - i" and str(-I) == "-i"
    assert (Fraction(1, 3) + I).real == Fraction(1, 3) and (2 - I).imag == -1


def test_equality_and_hash_across_types():
    assert GaussianRational(3) == 3 and hash(GaussianRational(3)) == hash(3)
    half = GaussianRational(Fraction(1, 2))
    assert half == Fraction(1, 2) and hash(half) == hash(Fraction(1, 2))
    z = GaussianRational(Fraction(1, 2), -7)
    assert z == complex(0.5, -7) and hash(z) == hash(complex(0.5, -7))
    assert len({GaussianRational(1), 1, Fraction(1), GaussianRational(1, 0)}) == 1
    assert GaussianRational(1, 1) != 1 and GaussianRational(1, 1) != complex(1, 2)


def test_immutable_and_exact_only():
    z = GaussianRational(1, 1)
    with pytest.raises(AttributeError):
        z.foo = 1
    with pytest.raises(InputError, match="float"):
        GaussianRational(0.5)
    with pytest.raises(TypeError):
        z + 0.5
    with pytest.raises(ZeroDivisionError):
        z / GaussianRational(0)
    assert z + np.int64(2) == GaussianRational(3, 1)


# -- reduction mod p ---------------------------------------------------------------------

@pytest.mark.parametrize("p", PRIMES_1_MOD_4)
def test_sqrt_minus_one(p):
    s = sqrt_minus_one(p)
    assert s * s % p == p - 1 and 0 < s <= p // 2


def test_next_prime_1_mod_4():
    for n in (0, 5, 12, 100, 10**6):
        p = next_prime_1_mod_4(n)
        assert p > n and p % 4 == 1 and is_prime(p)
        assert not any(is_prime(q) for q in range(n + 1, p) if q % 4 == 1)


@pytest.mark.parametrize("p", [2, 3, 7, 11, 2**31 - 1])
def test_sqrt_minus_one_refuses_p_not_1_mod_4(p):
    with pytest.raises(ParameterError, match="1 mod 4"):
        sqrt_minus_one(p)


def test_sqrt_minus_one_refuses_composites():
    with pytest.raises(NotPrimeError):
        sqrt_minus_one(21)


@settings(max_examples=60)
@given(gaussians, gaussians, st.sampled_from([13, 29, 1000033]))
def test_reduction_is_a_ring_homomorphism(a, b, p):
    s = sqrt_minus_one(p)
    ra, rb = to_residue(a, p, s), to_residue(b, p, s)
    assert to_residue(a + b, p, s) == (ra + rb) % p
    assert to_residue(a * b, p, s) == ra * rb % p
    assert to_residue(I, p, s) == s


def test_reduction_errors():
    with pytest.raises(ParameterError, match="denominator"):
        to_residue(Fraction(1, 13), 13)
    with pytest.raises(ParameterError, match="1 mod 4"):
        to_residue(GaussianRational(1, 1), 7)
    assert to_residue(Fraction(1, 2), 7) == 4  # real numbers reduce for every prime
    with pytest.raises(InputError, match="float"):
        residues(np.array([0.5]), 13)


def test_residues_of_arrays():
    arr = gaussian_array([[1, I], [Fraction(1, 2), 3 - I]])
    got = residues(arr, 13)
    s = sqrt_minus_one(13)
    assert got.tolist() == [[1, s], [7, (3 - s) % 13]]
    assert residues(np.array([[-1, 14]]), 13).tolist() == [[12, 1]]


# -- matrices -------------------------------------------------------------------------------

def _random_gaussian_matrix(rng, m, n, bound=3):
    re_, im_ = rng.integers(-bound, bound + 1, size=(2, m, n))
    return GaussianMatrix(re_.tolist(), im_.tolist())


def test_product_matches_entrywise_arithmetic():
    rng = np.random.default_rng(1)
    A, B = _random_gaussian_matrix(rng, 3, 4), _random_gaussian_matrix(rng, 4, 2)
    want = A.to_array() @ B.to_array()
    assert (A @ B).to_array().tolist() == want.tolist()
    C = A * GaussianRational(Fraction(1, 2), -1)
    assert C[1, 2] == A[1, 2] * GaussianRational(Fraction(1, 2), -1)
    assert (A + A) == A * 2 and (A - A) == GaussianMatrix.zeros(3, 4)
    assert A.T.T == A and A.conjugate().conjugate() == A


def test_matrix_errors():
    A = GaussianMatrix.from_rows([[1, 2]])
    with pytest.raises(InputError, match="cannot multiply"):
        A @ A
    with pytest.raises(InputError, match="2 dimensions"):
        GaussianMatrix.from_rows([1, 2])
    with pytest.raises(InputError, match="imaginary part"):
        GaussianMatrix([[1, 2]], [[1]])
    with pytest.raises(ParameterError, match="divisible by p"):
        GaussianMatrix.from_rows([[Fraction(1, 13)]]).residues(13)
    with pytest.raises(ParameterError, match="1 mod 4"):
        GaussianMatrix.from_rows([[I]]).residues(7)
    assert GaussianMatrix.from_rows([[Fraction(1, 2)]]).residues(7).tolist() == [[4]]


@pytest.mark.parametrize("m,n,r", [(3, 3, 1), (3, 3, 2), (4, 3, 3), (4, 5, 2), (2, 2, 2)])
def test_realify_rank_is_twice_the_rank(m, n, r):
    rng = np.random.default_rng(10 * m + n + r)
    G = _random_gaussian_matrix(rng, m, r) @ _random_gaussian_matrix(rng, r, n)
    ref = sympy.Matrix(m, n, lambda i, j: sympy.Rational(str(G[i, j].real))
                       + sympy.I * sympy.Rational(str(G[i, j].imag))).rank(simplify=True)
    assert seprank.rank(G.realify(), "exact").value == 2 * ref


@pytest.mark.parametrize("p", [13, 1000033])
def test_reduction_of_products_and_rank_certificate(p):
    rng = np.random.default_rng(p)
    A, B = _random_gaussian_matrix(rng, 3, 4), _random_gaussian_matrix(rng, 4, 3)
    lhs = (A @ B).residues(p)
    rhs = (A.residues(p) @ B.residues(p)) % p
    assert (lhs == rhs).all()
    # rank over GF(p) never exceeds the rank over Q(i); full rank mod p is exact
    G = A @ B
    mod = seprank.rank(ResidueMatrix(G.residues(p), p), "modular").value
    exact = seprank.rank(G.realify(), "exact").value // 2
    assert mod <= exact
    if mod == 3:
        assert exact == 3


def test_rank_one_over_qi_full_over_q():
    G = GaussianMatrix.from_rows([[1, I], [I, -1]])  # row 2 = i * row 1
    assert seprank.rank(G.realify(), "exact").value == 2  # rank 1 over Q(i)
    assert seprank.rank(ResidueMatrix(G.residues(5), 5), "modular").value == 1
