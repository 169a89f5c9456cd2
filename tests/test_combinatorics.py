"""Combinatorics against closed forms and hand-worked cases."""

from itertools import product
from math import comb, factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seprank.combinatorics import (
    composition_index,
    compositions,
    multinomial,
    multiset,
    num_head_indices,
)
from seprank.errors import ParameterError


def test_multiset_hand_cases():
    # ((3, 2)): multisets of size 2 from {a, b, c}: aa ab ac bb bc cc
    assert multiset(3, 2) == 6
    assert multiset(1, 7) == 1
    assert multiset(5, 0) == 1
    assert multiset(0, 0) == 1
    assert multiset(0, 3) == 0
    # the sizes quoted in DESIGN.md
    assert [multiset(10, 3), multiset(20, 3), multiset(30, 3), multiset(10, 9)] == \
        [220, 1540, 4960, 48620]


@given(st.integers(1, 12), st.integers(0, 8))
def test_multiset_counts_compositions(n, k):
    assert multiset(n, k) == len(compositions(k, n)) == comb(n + k - 1, n - 1)


def test_compositions_order_hand_case():
    assert compositions(2, 3) == [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1),
                                  (0, 0, 2)]
    assert compositions(0, 2) == [(0, 0)]
    assert compositions(3, 1) == [(3,)]


@given(st.integers(0, 6), st.integers(1, 5))
def test_compositions_are_all_distinct_and_decreasing(lam, d):
    qs = compositions(lam, d)
    brute = sorted((q for q in product(range(lam + 1), repeat=d) if sum(q) == lam),
                   reverse=True)
    assert qs == brute
    assert [composition_index(q) for q in qs] == list(range(len(qs)))


def test_multinomial():
    assert multinomial((2, 1, 1)) == 12
    assert multinomial((0, 0)) == 1
    for ks in [(3, 2), (1, 1, 1, 1), (4, 0, 2)]:
        expected = factorial(sum(ks))
        for k in ks:
            expected //= factorial(k)
        assert multinomial(ks) == expected


@given(st.integers(1, 6), st.integers(0, 6))
def test_multinomial_theorem(d, lam):
    # sum of multinomials over compositions = d^lam (expand (1 + ... + 1)^lam)
    assert sum(multinomial(k) for k in compositions(lam, d)) == d**lam


def test_num_head_indices_recursion():
    assert num_head_indices(1) == 1
    for L in range(1, 10):
        assert num_head_indices(L + 1) == 3 * num_head_indices(L) + 1


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_parameters(bad):
    with pytest.raises(ParameterError):
        multiset(bad, 2)
