"""Tests for seprank.papers.amsel.harmonics (spherical harmonic dimensions by exact rank)."""

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.combinatorics import compositions
from seprank.papers.amsel.harmonics import (
    harmonic_dimension_closed_form,
    harmonic_dimension_exact,
    laplacian_matrix,
    laplacian_power_on_subspace,
    times_norm_squared_matrix,
    touched_harmonic_dimension,
)


def test_known_small_values():
    # d = 3: 2l + 1; d = 2: 1, 2, 2, ...; d = 4: (l + 1)^2
    assert [harmonic_dimension_exact(3, l)["kernel_dim"] for l in range(6)] == [1, 3, 5, 7, 9, 11]
    assert [harmonic_dimension_exact(2, l)["kernel_dim"] for l in range(5)] == [1, 2, 2, 2, 2]
    assert [harmonic_dimension_exact(4, l)["kernel_dim"] for l in range(5)] == [1, 4, 9, 16, 25]


def test_laplacian_shape_and_entries():
    L = laplacian_matrix(3, 2)
    assert (L.nrows(), L.ncols()) == (1, 6)
    cols = compositions(2, 3)
    assert [int(L[0, j]) for j in range(6)] == [2 if max(e) == 2 else 0 for e in cols]


def test_laplacian_of_norm_power():
    # Laplacian(|x|^2) = 2d: |x|^2 is the image of the constant 1 under times_norm_squared
    d = 5
    T = times_norm_squared_matrix(d, 2)
    L = laplacian_matrix(d, 2)
    assert int((L * T)[0, 0]) == 2 * d


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(0, 5))
def test_kernel_matches_closed_form(d, l):
    row = harmonic_dimension_exact(d, l)
    assert row["kernel_dim"] == harmonic_dimension_closed_form(d, l)
    assert row["rank_laplacian"] == (comb(d + l - 3, l - 2) if l >= 2 else 0)


def test_laplacian_power_stays_in_first_coordinates():
    rows = laplacian_power_on_subspace(4, 2, 6, 2)
    mons = compositions(2, 4)
    for row in rows:
        for c, e in zip(row, mons, strict=True):
            assert c == 0 or not any(e[2:])


@pytest.mark.parametrize("d,r", [(3, 1), (3, 2), (4, 2), (5, 3), (4, 4)])
def test_touched_dimension(d, r):
    for l in range(5):
        m = touched_harmonic_dimension(d, r, l, 1)["touched_dim"]
        assert m <= comb(r + l, l)
        want = comb(r + l - 1, l) if r < d else harmonic_dimension_closed_form(d, l)
        assert m == want
