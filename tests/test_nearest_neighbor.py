"""Tests for seprank.papers.amsel.nearest_neighbor (exact points, heads, intervals)."""

import random
from fractions import Fraction

from seprank.papers.amsel.nearest_neighbor import (
    dot,
    hardmax,
    hardmax_head,
    nearest_indices,
    random_rational_sphere_point,
    rank1_hardmax_vote,
    rational_sphere_point,
    softmax_error_interval,
)


def test_rational_points_on_sphere():
    rng = random.Random(0)
    for d in range(2, 7):
        x = random_rational_sphere_point(rng, d)
        assert len(x) == d and dot(x, x) == 1
    assert rational_sphere_point([Fraction(2)]) == [Fraction(4, 5), Fraction(3, 5)]


def test_hardmax_ties_average():
    assert hardmax([Fraction(1), Fraction(1), Fraction(0)]) == [Fraction(1, 2)] * 2 + [0]


def test_identity_head_is_nearest_neighbor():
    rng = random.Random(1)
    eye = [[Fraction(int(i == j)) for j in range(3)] for i in range(3)]
    for _ in range(50):
        xs = [random_rational_sphere_point(rng, 3) for _ in range(4)]
        y = random_rational_sphere_point(rng, 3)
        near = nearest_indices(xs, y)
        if len(near) == 1:
            assert hardmax_head(xs, y, eye, eye) == xs[near[0]]


def test_softmax_error_shrinks():
    xs = [[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]]
    y = [Fraction(0), Fraction(1)]
    e1 = softmax_error_interval(xs, y, 1, 0)
    e2 = softmax_error_interval(xs, y, 50, 0)
    assert e2.b < e1.a and e2.a > 0


def test_rank1_vote():
    assert rank1_hardmax_vote([1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]) == 1
    assert rank1_hardmax_vote([1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0]) == -1
