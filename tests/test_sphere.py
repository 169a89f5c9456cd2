"""Rational points on the unit sphere (inverse stereographic projection)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.errors import InputError, ParameterError
from seprank.scalars.sphere import (
    all_sphere_points,
    inverse_stereographic,
    on_unit_sphere,
    sphere_points,
    stereographic,
)

vectors = st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=20),
                   min_size=0, max_size=5)


def test_hand_worked_points():
    assert inverse_stereographic([]) == (-1,)  # S^0: the south pole only
    assert inverse_stereographic([0, 0]) == (0, 0, -1)
    assert inverse_stereographic([1]) == (1, 0)
    assert inverse_stereographic([2]) == (Fraction(4, 5), Fraction(3, 5))  # 3-4-5
    assert inverse_stereographic([1, 2]) == (Fraction(1, 3), Fraction(2, 3), Fraction(2, 3))


@settings(max_examples=80)
@given(vectors)
def test_exactly_on_the_sphere_and_invertible(t):
    x = inverse_stereographic(t)
    assert len(x) == len(t) + 1
    assert sum(c * c for c in x) == 1
    assert on_unit_sphere(x)
    assert x[-1] != 1  # never the north pole
    assert stereographic(x) == tuple(Fraction(v) for v in t)


def test_distinct_parameters_give_distinct_points():
    pts = all_sphere_points(3, 3)
    assert len(pts) == 49 and len(set(pts)) == 49
    assert all(on_unit_sphere(p) for p in pts)


@pytest.mark.parametrize("n,d,height", [(0, 3, 2), (5, 2, 2), (30, 3, 1), (200, 4, 2), (7, 6, 0)])
def test_sphere_points(n, d, height):
    P = sphere_points(n, d, seed=3, height=height)
    assert P.shape == (n, d) and P.dtype == object
    assert all(on_unit_sphere(row) for row in P)
    assert len({tuple(row) for row in P}) == n
    again = sphere_points(n, d, seed=3, height=height)
    assert (P == again).all()


def test_height_grows_when_needed():
    P = sphere_points(10, 2, seed=0, height=1)  # only 3 integer t in [-1, 1]
    assert len({tuple(r) for r in P}) == 10


def test_seed_changes_points():
    assert not (sphere_points(5, 4, seed=1) == sphere_points(5, 4, seed=2)).all()


def test_errors():
    with pytest.raises(ParameterError, match="d must be >= 2"):
        sphere_points(3, 1)
    with pytest.raises(ParameterError, match="n must be >= 0"):
        sphere_points(-1, 3)
    with pytest.raises(ParameterError, match="height must be an integer"):
        sphere_points(1, 3, height=1.5)
    with pytest.raises(InputError, match="float"):
        inverse_stereographic([0.5])
    with pytest.raises(ParameterError, match="north pole"):
        stereographic([0, 0, 1])
    with pytest.raises(ParameterError, match="unit sphere"):
        stereographic([1, 1])
    assert not on_unit_sphere(np.array([1, 1]))
