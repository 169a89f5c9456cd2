"""Omega constructions: the mod-p builder agrees with big integers; eq. (27) holds."""

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.combinatorics import multiset
from seprank.constructions.omega import (
    gram_hadamard_exact,
    gram_hadamard_mod_p,
    multinomial_diagonal,
    omega_A_matrix,
    omega_rows,
    omega_rows_mod_p,
)
from seprank.errors import NotPrimeError, ParameterError


def test_hand_case_d2_lam1():
    # compositions of 1 into 2 parts: (1,0), (0,1); rows (W, 1), (1, W)
    assert omega_rows(2, 1, 5) == [[5, 1], [1, 5]]
    g = gram_hadamard_exact(omega_rows(2, 1, 5), 1)
    assert g == flint.fmpz_mat([[26, 10], [10, 26]])
    assert omega_A_matrix(2, 1, 5) == flint.fmpz_mat([[5, 1], [1, 5]])


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(0, 4), st.integers(-4, 6),
       st.sampled_from([2, 3, 101, 65537, 2**31 - 1]))
def test_mod_p_builder_matches_big_integers(d, lam, omega, p):
    U = omega_rows(d, lam, omega)
    exact = gram_hadamard_exact(U, lam)
    n = multiset(d, lam)
    expected = [[int(exact[i, j]) % p for j in range(n)] for i in range(n)]
    direct = gram_hadamard_mod_p(omega_rows_mod_p(d, lam, omega, p), lam, p, as_nmod=False)
    assert direct.tolist() == expected
    via_nmod = gram_hadamard_mod_p(U, lam, p)
    assert [[int(x) for x in row] for row in via_nmod.tolist()] == expected
    assert np.array_equal(omega_rows_mod_p(d, lam, omega, p), np.array(U, dtype=object) % p)


@pytest.mark.parametrize("d, lam, omega", [(2, 3, 2), (3, 2, 3), (3, 3, -2), (4, 2, 2)])
def test_multinomial_expansion(d, lam, omega):
    A = omega_A_matrix(d, lam, omega)
    n = A.nrows()
    D = flint.fmpz_mat(n, n, [m if i == j else 0
                              for i, m in enumerate(multinomial_diagonal(d, lam))
                              for j in range(n)])
    assert A * D * A.transpose() == gram_hadamard_exact(omega_rows(d, lam, omega), lam)


def test_random_integer_rows_mod_p():
    rng = np.random.default_rng(0)
    U = rng.integers(-10**6, 10**6, size=(7, 3)).tolist()
    p = 1_000_003
    exact = gram_hadamard_exact(U, 5)
    direct = gram_hadamard_mod_p(U, 5, p, as_nmod=False)
    assert direct.tolist() == [[int(exact[i, j]) % p for j in range(7)] for i in range(7)]


def test_errors():
    with pytest.raises(ParameterError):
        omega_rows(0, 2, 2)
    with pytest.raises(ParameterError):
        omega_rows(2, -1, 2)
    with pytest.raises(NotPrimeError):
        omega_rows_mod_p(2, 2, 2, 100)
    with pytest.raises(NotPrimeError):  # above the int64 builder's limit
        gram_hadamard_mod_p([[1, 2]], 2, 2**61 - 1)
