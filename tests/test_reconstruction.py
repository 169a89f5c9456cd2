"""CRT and rational reconstruction against hand cases and round trips."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from seprank.scalars.reconstruction import crt_pair, rational_reconstruction

M = (2**61 - 1) * (2**31 - 1)


def test_hand_cases():
    assert crt_pair(2, 3, 3, 5) == (8, 15)
    assert rational_reconstruction(0, 101) == Fraction(0)
    # 1/2 mod 7 = 4; |n|, d <= sqrt(7/2) = 1 excludes 1/2: none exists
    assert rational_reconstruction(4, 7) is None


@given(st.integers(-10**9, 10**9), st.integers(1, 10**9))
def test_round_trip(num, den):
    f = Fraction(num, den)
    a = f.numerator * pow(f.denominator, -1, M) % M
    assert rational_reconstruction(a, M) == f


@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_crt(a, b):
    x, m = crt_pair(a % 1009, 1009, b % 1013, 1013)
    assert m == 1009 * 1013 and x % 1009 == a % 1009 and x % 1013 == b % 1013
