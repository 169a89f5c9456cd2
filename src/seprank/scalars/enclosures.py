"""Certified enclosures: e between rationals, logarithms as arb balls, exact comparisons.

Bounds in the papers mix rationals with powers of e and with logarithms (levine2020's
theorems are stated for log_3 sep; its Lemma 4 and wies2021's Lemma 3 bound a
multiset coefficient by (2e(n+k)/n)^n). This module decides such comparisons exactly
or says it cannot: e is replaced by a certified rational enclosure
(:func:`e_bounds`), a quantity q e^m is an *e-monomial* ``(q, m)``
(:func:`compare_e_monomials`), and a logarithm is a ``flint.arb`` ball, a rigorous
enclosure (:func:`log3`, :func:`arb_le`). :func:`int_at_least` is the parameter
check the bound functions share.
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import flint

from seprank.combinatorics import multiset
from seprank.errors import ParameterError

__all__ = ["int_at_least", "e_bounds", "compare_e_monomials", "arb_of", "log3", "arb_le",
           "multiset_e_bound", "multiset_e_bound_holds"]


def int_at_least(name: str, value: object, low: int) -> int:
    """``value`` as an int, or ParameterError when it is not an integer >= ``low``.

    A numpy integer is accepted (as an int); a bool or a float never is.

    >>> int_at_least("L", 3, 1)
    3
    >>> int_at_least("L", 0, 1)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: L must be >= 1, got 0
    """
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import numpy as np

            if isinstance(value, np.integer):
                value = int(value)
        except ImportError:  # pragma: no cover
            pass
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ParameterError(f"{name} must be >= {low}, got {value}")
    return value


def e_bounds(m: int = 14) -> tuple[Fraction, Fraction]:
    """Rational ``(lo, hi)`` with ``lo < e < hi``, certified.

    ``lo`` is the partial sum ``S_m = sum_{j=0}^{m} 1/j!`` of the series of e,
    which is smaller than e because every left-out term is positive; the
    left-out tail is below ``1/(m! * m)`` (compare it with a geometric series of
    ratio ``1/(m+1)``), so ``hi = S_m + 1/(m! * m)`` exceeds e.

    >>> lo, hi = e_bounds(5)
    >>> lo, hi
    (Fraction(163, 60), Fraction(1631, 600))
    """
    m = int_at_least("m", m, 1)
    lo = sum((Fraction(1, factorial(j)) for j in range(m + 1)), Fraction(0))
    return lo, lo + Fraction(1, factorial(m) * m)


def compare_e_monomials(a: tuple[Fraction, int], b: tuple[Fraction, int],
                        bounds: tuple[Fraction, Fraction] | None = None) -> bool | None:
    """Decide ``q_a e^{m_a} <= q_b e^{m_b}`` exactly; None when e's enclosure is too coarse.

    Both ``q`` must be positive. With equal exponents this is an exact rational
    comparison; otherwise the power ``e^{|m_a - m_b|}`` is replaced by the rational
    enclosure ``bounds`` (default :func:`e_bounds`), which proves or disproves
    the inequality unless it falls inside the enclosure.

    >>> compare_e_monomials((Fraction(2), 0), (Fraction(1), 1))   # 2 <= e
    True
    >>> compare_e_monomials((Fraction(3), 0), (Fraction(1), 1))   # 3 <= e
    False
    """
    (qa, ma), (qb, mb) = a, b
    qa, qb = Fraction(qa), Fraction(qb)
    if qa <= 0 or qb <= 0:
        raise ParameterError("compare_e_monomials needs positive rational factors")
    lo, hi = bounds if bounds is not None else e_bounds()
    if ma == mb:
        return qa <= qb
    if mb > ma:  # qa <= qb e^k
        k = mb - ma
        if qa <= qb * lo**k:
            return True
        if qa > qb * hi**k:
            return False
        return None
    k = ma - mb  # qa e^k <= qb
    if qa * hi**k <= qb:
        return True
    if qa * lo**k > qb:
        return False
    return None


def arb_of(x: int | Fraction | flint.arb) -> flint.arb:
    """An arb ball holding the int or Fraction ``x`` (exact when representable).

    Examples
    --------
    >>> arb_of(Fraction(1, 2)).is_exact(), arb_of(Fraction(1, 3)).is_exact()
    (True, False)
    """
    if isinstance(x, flint.arb):
        return x
    if isinstance(x, bool):
        raise ParameterError("a number is needed, not a bool")
    if isinstance(x, int):
        return flint.arb(flint.fmpz(x))
    if isinstance(x, Fraction):
        return flint.arb(flint.fmpq(x.numerator, x.denominator))
    raise ParameterError(f"cannot make an arb ball of {x!r}")


def log3(x: int | Fraction | flint.arb) -> flint.arb:
    """Rigorous enclosure of ``log_3 x`` for positive ``x`` (ParameterError otherwise).

    Examples
    --------
    >>> log3(9).contains(2)
    True
    """
    if not isinstance(x, flint.arb) and x <= 0:
        raise ParameterError(f"log_3 needs a positive argument, got {x}")
    return arb_of(x).log() / flint.arb(3).log()


def arb_le(a: flint.arb, b: flint.arb) -> bool | None:
    """True if certainly ``a <= b``, False if certainly ``a > b``, None if undecided.

    Examples
    --------
    >>> arb_le(arb_of(1), arb_of(2)), arb_le(arb_of(2), arb_of(1))
    (True, False)
    >>> arb_le(flint.arb(1, 1), arb_of(1)) is None   # the ball [0, 2] straddles 1
    True
    """
    if a <= b:
        return True
    if a > b:
        return False
    return None


def multiset_e_bound(n: int, k: int) -> tuple[Fraction, int]:
    """The bound ``((n, k)) <= (2e(n+k)/n)^n`` as the e-monomial ``((2(n+k)/n)^n, n)``.

    The same inequality is levine2020's Lemma 4 (A.5, l.569) and wies2021's Lemma 3
    (l.367); both wings state it through this function.

    Examples
    --------
    >>> multiset_e_bound(2, 2)   # (2e * 4/2)^2 = 16 e^2
    (Fraction(16, 1), 2)
    """
    n = int_at_least("n", n, 1)
    k = int_at_least("k", k, 0)
    return Fraction(2 * (n + k), n) ** n, n


def multiset_e_bound_holds(n: int, k: int, bounds: tuple[Fraction, Fraction] | None = None
                           ) -> bool | None:
    """Decide ``((n, k)) <= (2e(n+k)/n)^n`` exactly (:func:`multiset_e_bound`).

    Uses the rational enclosure of e (``bounds``, default :func:`e_bounds`); None
    only if the enclosure cannot decide.

    Examples
    --------
    >>> multiset_e_bound_holds(2, 2)   # ((2, 2)) = 3 <= 16 e^2
    True
    """
    return compare_e_monomials((Fraction(multiset(n, k)), 0), multiset_e_bound(n, k), bounds)
