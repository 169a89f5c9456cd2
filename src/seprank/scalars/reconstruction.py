"""Chinese remaindering and rational reconstruction (exact, Python integers).

``rational_reconstruction(a, m)`` finds n/d with n = a d (mod m), |n| and d at
most sqrt(m/2), when it exists (then it is unique): the extended Euclidean
algorithm on (m, a), stopped half-way (Wang's algorithm).

References
----------
P. S. Wang, "A p-adic algorithm for univariate partial fractions", SYMSAC 1981.
J. von zur Gathen, J. Gerhard, Modern Computer Algebra, 3rd ed., sec. 5.10.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, isqrt

__all__ = ["crt_pair", "rational_reconstruction"]


def crt_pair(a1: int, m1: int, a2: int, m2: int) -> tuple[int, int]:
    """x mod m1*m2 with x = a1 (mod m1), x = a2 (mod m2), for coprime m1, m2.

    >>> crt_pair(2, 3, 3, 5)
    (8, 15)
    """
    t = ((a2 - a1) * pow(m1, -1, m2)) % m2
    return a1 + m1 * t, m1 * m2


def rational_reconstruction(a: int, m: int) -> Fraction | None:
    """n/d = a (mod m) with |n|, d <= sqrt(m/2), or None if there is none.

    >>> rational_reconstruction(Fraction(-3, 7).numerator * pow(7, -1, 10007) % 10007, 10007)
    Fraction(-3, 7)
    """
    a %= m
    bound = isqrt(m // 2)
    r0, r1 = m, a
    t0, t1 = 0, 1
    while r1 > bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
    if t1 == 0 or abs(t1) > bound or gcd(r1, abs(t1)) != 1:
        return None
    return Fraction(r1, t1)
