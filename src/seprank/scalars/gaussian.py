"""The Gaussian rationals Q(i), exactly, and their reduction to GF(p) for p = 1 mod 4.

levine2020's Lemma 6 (B.3, l.720-815) picks *complex* network weights (they
involve the imaginary unit), so its grid matrices live over Q(i) = {a + b i :
a, b in Q}. This module holds

* :class:`GaussianRational`: one immutable element a + b i of Q(i) (parts are
  ``fractions.Fraction``), with exact arithmetic, ``conjugate``, ``norm``,
  equality with ints/Fractions/complex numbers and a hash consistent with it;
* (:class:`seprank.scalars.gaussian_matrix.GaussianMatrix`, in its own module: a
  matrix over Q(i) as the pair of its real and imaginary parts);
* :func:`sqrt_minus_one` and :func:`to_residue`: the map Q(i) -> GF(p) that
  sends i to a square root s of -1 mod p (it exists iff p = 2 or p = 1 mod 4;
  p = 2 is excluded because it ramifies in Z[i] and every odd p = 3 mod 4 is
  refused with an error naming the rule).

Why a full rank mod p certifies a full rank over Q(i)
----------------------------------------------------
For a prime p = 1 mod 4 and s with s^2 = -1 mod p, the ring map
phi: Z[i] -> GF(p), a + b i -> a + b s mod p, is onto and its kernel is the
prime ideal P = (p, i - s) of Z[i] (p splits as P * conj(P)). It extends to
every Gaussian rational whose real and imaginary parts have denominators prime
to p (divide by the denominator's residue, which is invertible). Let A be a
matrix over Q(i) with such entries and suppose an r x r minor of phi(A) is
nonzero mod p. phi is a ring homomorphism, so phi(minor of A) = minor of
phi(A) != 0; hence the minor of A is not in the kernel, in particular it is
not 0, and rank_Q(i)(A) >= r. So the rank of the reduction is a *certified
lower bound* for the rank over Q(i), and a full rank mod p is the exact rank
(rank can never exceed min(m, n)). Denominators divisible by p are refused
(:func:`to_residue` raises), never silently mapped.

Exact rank over Q(i)
--------------------
Over Q the matrix A + iB (A, B rational) acts on Q(i)^n = Q^{2n}; as a
Q-linear map its matrix is the *realification* [[A, -B], [B, A]], whose rank
over Q is twice the rank of A + iB over Q(i) (``GaussianMatrix.realify`` in
:mod:`seprank.scalars.gaussian_matrix`).
So ``seprank.rank(G.realify()).value // 2`` is the exact rank over Q(i); the
modular route is ``ResidueMatrix(G.residues(p), p)``.

Examples
--------
>>> from fractions import Fraction
>>> z = GaussianRational(1, 2)            # 1 + 2i
>>> z * z.conjugate() == 5
True
>>> (z / GaussianRational(0, 1))          # (1 + 2i) / i = 2 - i
GaussianRational(2, -1)
>>> s = sqrt_minus_one(13); s, s * s % 13
(5, 12)
>>> to_residue(GaussianRational(Fraction(1, 2), 3), 13)   # 1/2 + 3*5 = 7 + 15 = 22 = 9
9

References
----------
[1] K. Ireland, M. Rosen, *A Classical Introduction to Modern Number Theory*,
    ch. 1.4 and 9.8 (splitting of p = 1 mod 4 in Z[i]).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from numbers import Rational

import flint
import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.scalars.primes import is_prime, require_prime

__all__ = [
    "GaussianRational",
    "I",
    "as_gaussian",
    "has_imaginary",
    "sqrt_minus_one",
    "next_prime_1_mod_4",
    "to_residue",
    "residues",
    "gaussian_array",
]

_HASH_MOD_BITS = sys.hash_info.width
_HASH_IMAG = sys.hash_info.imag


def as_fraction(x: object, name: str = "value") -> Fraction:
    """An exact rational from an int, Fraction, numpy integer or flint fmpz/fmpq.

    >>> as_fraction(flint.fmpq(1, 3)), as_fraction(4)
    (Fraction(1, 3), Fraction(4, 1))
    """
    if isinstance(x, bool):
        raise InputError(f"{name} is a bool ({x}); give an integer or a fraction")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, flint.fmpz):
        return Fraction(int(x))
    if isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, (float, np.floating)):
        raise InputError(f"{name} is a float ({x!r}); exact domains take integers or fractions")
    raise InputError(f"{name} is {x!r} ({type(x).__name__}), not an integer or a fraction")


class GaussianRational:
    """An element re + im * i of Q(i), immutable, with Fraction parts.

    Arithmetic mixes freely with ``int`` and ``Fraction`` (and numpy integers);
    floats are refused so that nothing inexact slips in. Equal values hash
    equally across types: ``hash(GaussianRational(3)) == hash(3)`` and
    ``hash(GaussianRational(Fraction(1, 2), 1)) == hash(complex(0.5, 1))``.

    >>> GaussianRational(1, 1) ** 2
    GaussianRational(0, 2)
    >>> GaussianRational(3, 4).norm()
    Fraction(25, 1)
    """

    __slots__ = ("_re", "_im")

    def __init__(self, re: object = 0, im: object = 0):
        if isinstance(re, GaussianRational):
            if im != 0:
                raise InputError("give GaussianRational(re, im) with rational parts, or one "
                                 "GaussianRational")
            re, im = re._re, re._im
        object.__setattr__(self, "_re", as_fraction(re, "real part"))
        object.__setattr__(self, "_im", as_fraction(im, "imaginary part"))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("GaussianRational is immutable")

    # -- parts -------------------------------------------------------------------------
    @property
    def real(self) -> Fraction:
        return self._re

    @property
    def imag(self) -> Fraction:
        return self._im

    def conjugate(self) -> GaussianRational:
        return GaussianRational(self._re, -self._im)

    def norm(self) -> Fraction:
        """The field norm re^2 + im^2 = z * conj(z) (a rational, not its square root)."""
        return self._re * self._re + self._im * self._im

    def is_real(self) -> bool:
        return self._im == 0

    # -- arithmetic --------------------------------------------------------------------
    @staticmethod
    def _coerce(other: object) -> GaussianRational | None:
        if isinstance(other, GaussianRational):
            return other
        if isinstance(other, bool):
            return None
        if isinstance(other, (int, Fraction, np.integer, flint.fmpz, flint.fmpq)):
            return GaussianRational(other)
        return None

    def __add__(self, other: object) -> GaussianRational:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return GaussianRational(self._re + o._re, self._im + o._im)

    __radd__ = __add__

    def __sub__(self, other: object) -> GaussianRational:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return GaussianRational(self._re - o._re, self._im - o._im)

    def __rsub__(self, other: object) -> GaussianRational:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return o - self

    def __mul__(self, other: object) -> GaussianRational:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        a, b, c, d = self._re, self._im, o._re, o._im
        return GaussianRational(a * c - b * d, a * d + b * c)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> GaussianRational:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        n = o.norm()
        if n == 0:
            raise ZeroDivisionError("division by zero in Q(i)")
        q = self * o.conjugate()
        return GaussianRational(q._re / n, q._im / n)

    def __rtruediv__(self, other: object) -> GaussianRational:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return o / self

    def __pow__(self, k: int) -> GaussianRational:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            return NotImplemented
        k = int(k)
        base = self if k >= 0 else GaussianRational(1) / self
        out, k = GaussianRational(1), abs(k)
        while k:  # square and multiply
            if k & 1:
                out = out * base
            base = base * base
            k >>= 1
        return out

    def __neg__(self) -> GaussianRational:
        return GaussianRational(-self._re, -self._im)

    def __pos__(self) -> GaussianRational:
        return self

    # -- comparison, hashing, conversion -----------------------------------------------
    def __eq__(self, other: object) -> bool:
        o = self._coerce(other)
        if o is not None:
            return self._re == o._re and self._im == o._im
        if isinstance(other, (complex, float, np.floating, np.complexfloating)):
            c = complex(other)
            return self._re == c.real and self._im == c.imag  # exact Fraction/float compare
        return NotImplemented

    def __hash__(self) -> int:
        # the recipe of CPython's complex hash, so equal numbers hash alike across types
        h = hash(self._re) + _HASH_IMAG * hash(self._im)
        h = (h + 2 ** (_HASH_MOD_BITS - 1)) % 2 ** _HASH_MOD_BITS - 2 ** (_HASH_MOD_BITS - 1)
        return -2 if h == -1 else h

    def __bool__(self) -> bool:
        return bool(self._re) or bool(self._im)

    def __complex__(self) -> complex:
        return complex(float(self._re), float(self._im))

    def __repr__(self) -> str:
        def part(x: Fraction) -> str:
            return str(x.numerator) if x.denominator == 1 else f"Fraction({x.numerator}, " \
                                                               f"{x.denominator})"
        return f"GaussianRational({part(self._re)}, {part(self._im)})"

    def __str__(self) -> str:
        if self._im == 0:
            return str(self._re)
        sign = "-" if self._im < 0 else "+"
        mag = abs(self._im)
        im = "i" if mag == 1 else f"{mag}*i"
        return f"{self._re} {sign} {im}" if self._re != 0 else (f"-{im}" if sign == "-" else im)


#: The imaginary unit.
I = GaussianRational(0, 1)


def as_gaussian(x: object, name: str = "value") -> GaussianRational:
    """``x`` as a GaussianRational (ints, Fractions, numpy/flint integers; no floats).

    Examples
    --------
    >>> as_gaussian(Fraction(1, 2)), as_gaussian(I) is I
    (GaussianRational(Fraction(1, 2), 0), True)
    >>> as_gaussian(1j)
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: value is a complex float (1j); use GaussianRational(re, im) ...
    """
    if isinstance(x, GaussianRational):
        return x
    if isinstance(x, (complex, np.complexfloating)):
        raise InputError(f"{name} is a complex float ({x!r}); use GaussianRational(re, im) with "
                         "exact parts")
    return GaussianRational(as_fraction(x, name))


def gaussian_array(values: object) -> np.ndarray:
    """An object ndarray of GaussianRational from nested sequences of exact numbers.

    Examples
    --------
    >>> A = gaussian_array([[1, I]])
    >>> A.shape, A[0, 0], A[0, 1] * A[0, 1]
    ((1, 2), GaussianRational(1, 0), GaussianRational(-1, 0))
    """
    arr = np.asarray(values, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for idx, x in np.ndenumerate(arr):
        out[idx] = as_gaussian(x, f"entry {idx}")
    return out


def has_imaginary(values: object) -> bool:
    """Whether an array of numbers has an entry with a nonzero imaginary part.

    A complex dtype is checked entry by entry; an object array looks for a
    :class:`GaussianRational` with a nonzero imaginary part; any other dtype has none.
    (The network evaluators pick their arithmetic by it.)

    Examples
    --------
    >>> has_imaginary([[1, 2]]), has_imaginary(gaussian_array([[1, I]]))
    (False, True)
    >>> has_imaginary(np.array([1 + 0j])), has_imaginary([GaussianRational(3)])
    (False, False)
    """
    arr = np.asarray(values)
    if arr.dtype.kind == "c":
        return bool(np.any(arr.imag != 0))
    if arr.dtype.kind != "O":
        return False
    return any(isinstance(x, GaussianRational) and x.imag != 0 for x in arr.flat)


# -- reduction modulo a prime ideal above p = 1 mod 4 ----------------------------------

def next_prime_1_mod_4(n: int) -> int:
    """Smallest prime p > n with p = 1 mod 4 (so that i exists in GF(p)).

    >>> next_prime_1_mod_4(10), next_prime_1_mod_4(13)
    (13, 17)
    """
    p = max(int(n) + 1, 5)
    p += (1 - p) % 4
    while not is_prime(p):
        p += 4
    return p


def sqrt_minus_one(p: int) -> int:
    """The smaller square root s of -1 modulo a prime p = 1 mod 4.

    Method: find the least quadratic non-residue a (Euler's criterion
    a^((p-1)/2) = -1 mod p); then s = a^((p-1)/4) satisfies s^2 = a^((p-1)/2) = -1.
    Of the two roots s and p - s (one for each prime ideal (p, i - s) above p) the
    smaller is returned, so the choice is reproducible.

    Raises
    ------
    NotPrimeError
        p is not a prime (or not a Python/numpy integer).
    ParameterError
        p is not 1 mod 4: then -1 is not a square mod p and i has no image in GF(p).

    >>> [sqrt_minus_one(p) for p in (5, 13, 17, 29)]
    [2, 5, 4, 12]
    """
    p = require_prime(p)
    if p % 4 != 1:
        raise ParameterError(f"p = {p} is {p % 4} mod 4: i maps into GF(p) only for primes "
                             "p = 1 mod 4")
    a = 2
    while pow(a, (p - 1) // 2, p) != p - 1:
        a += 1
    s = pow(a, (p - 1) // 4, p)
    return min(s, p - s)


def to_residue(x: object, p: int, s: int | None = None) -> int:
    """Image of an exact number in GF(p) (i -> s, by default ``sqrt_minus_one(p)``).

    Integers and fractions reduce for any prime p (denominator prime to p);
    a GaussianRational with nonzero imaginary part needs p = 1 mod 4.

    Raises
    ------
    ParameterError
        a denominator is divisible by p (the number has no image in GF(p)), or
        an imaginary part is present and p is not 1 mod 4.

    Examples
    --------
    With p = 5 and s = 2 (2^2 = -1 mod 5): 1 + i -> 3. And 1/2 -> 4 mod 7, as 2 * 4 = 8 = 1:

    >>> to_residue(GaussianRational(1, 1), 5), to_residue(Fraction(1, 2), 7)
    (3, 4)
    """
    if isinstance(x, GaussianRational):
        re, im = x.real, x.imag
    else:
        re, im = as_fraction(x), Fraction(0)
    out = _frac_mod(re, p)
    if im:
        if s is None:
            s = sqrt_minus_one(p)
        out = (out + _frac_mod(im, p) * s) % p
    return out


def _frac_mod(x: Fraction, p: int) -> int:
    if x.denominator % p == 0:
        raise ParameterError(f"denominator {x.denominator} of {x} is divisible by p = {p}: "
                             "no image in GF(p); choose another prime")
    if x.denominator == 1:
        return x.numerator % p
    return x.numerator * pow(x.denominator, -1, p) % p


def residues(values: object, p: int, s: int | None = None) -> np.ndarray:
    """Entrywise :func:`to_residue` of an array of exact numbers, as an int64 array.

    Integer numpy arrays reduce directly; object arrays entry by entry. ``s`` is
    computed (and p checked to be 1 mod 4) only when an imaginary part occurs.

    Examples
    --------
    Mod 5, i -> 2 and 1/2 -> 3 (2 * 3 = 6 = 1):

    >>> residues([[1, I], [Fraction(1, 2), -1]], 5).tolist()
    [[1, 2], [3, 4]]
    >>> residues(np.array([7, -1]), 3).tolist()     # no imaginary part: any prime
    [1, 2]
    """
    p = require_prime(p)
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        return np.mod(arr.astype(np.int64) if arr.dtype != np.uint64 else arr, p).astype(np.int64)
    if arr.dtype.kind in "fc":
        raise InputError(f"array of dtype {arr.dtype} holds floats; GF(p) takes exact numbers")
    out = np.empty(arr.shape, dtype=np.int64)
    for idx, x in np.ndenumerate(arr):
        if s is None and isinstance(x, GaussianRational) and x.imag:
            s = sqrt_minus_one(p)
        out[idx] = to_residue(x, p, s)
    return out
