"""Matrices over the Gaussian rationals Q(i), exactly (python-flint ``fmpq_mat`` pairs).

A matrix A + iB over Q(i) is held as the pair (A, B) of rational matrices;
products use three real products, (A + iB)(C + iD) = (AC - BD) + i((A + B)(C + D)
- AC - BD). Its rank over Q(i) is certified by a full rank mod p = 1 mod 4 (i sent
to a square root of -1; the argument is in :mod:`seprank.scalars.gaussian`).
Used by levine2020 Lemma 6's complex grid matrices (B.3, l.720-815).

>>> G = GaussianMatrix.from_rows([[1, I], [I, -1]])    # row 2 = i * row 1
>>> G @ G == GaussianMatrix.zeros(2, 2)
True
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.scalars.gaussian import (
    GaussianRational,
    I,  # noqa: F401  (the imaginary unit of the examples)
    as_fraction,
    as_gaussian,
    sqrt_minus_one,
)
from seprank.scalars.primes import require_prime

__all__ = ["GaussianMatrix"]


def _fmpq_mat(rows: list[list[Fraction]], m: int, n: int) -> flint.fmpq_mat:
    flat = [flint.fmpq(x.numerator, x.denominator) for r in rows for x in r]
    return flint.fmpq_mat(m, n, flat)


def _to_fractions(mat: flint.fmpq_mat) -> list[list[Fraction]]:
    m, n = mat.nrows(), mat.ncols()
    return [[Fraction(int(mat[i, j].p), int(mat[i, j].q)) for j in range(n)] for i in range(m)]


class GaussianMatrix:
    """A matrix A + iB over Q(i), held as the pair of flint ``fmpq_mat`` (A, B).

    Products take three rational products (Gauss's trick); flint multiplies
    rational matrices by clearing denominators into ``fmpz_mat`` products.

    See Also
    --------
    realify : the 2m x 2n rational matrix whose rank is twice the rank over Q(i).
    residues : the reduction modulo the prime ideal (p, i - s), p = 1 mod 4.

    >>> G = GaussianMatrix.from_rows([[1, 2], [3, 4]]) + I * GaussianMatrix.identity(2)
    >>> G.shape, G[0, 0], G[1, 0]
    ((2, 2), GaussianRational(1, 1), GaussianRational(3, 0))
    >>> G.conjugate()[1, 1]
    GaussianRational(4, -1)
    """

    __slots__ = ("re", "im")

    def __init__(self, re: flint.fmpq_mat, im: flint.fmpq_mat | None = None):
        re = _as_fmpq_mat(re)
        im = flint.fmpq_mat(re.nrows(), re.ncols()) if im is None else _as_fmpq_mat(im)
        if (re.nrows(), re.ncols()) != (im.nrows(), im.ncols()):
            raise InputError(f"real part is {re.nrows()} x {re.ncols()} but imaginary part is "
                             f"{im.nrows()} x {im.ncols()}")
        self.re, self.im = re, im

    # -- construction ------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: object) -> GaussianMatrix:
        """From a 2-D nested sequence (or object ndarray) of exact numbers."""
        arr = np.asarray(rows, dtype=object)
        if arr.ndim != 2:
            raise InputError(f"a matrix needs 2 dimensions, got shape {arr.shape}")
        m, n = arr.shape
        g = [[as_gaussian(arr[i, j], f"entry ({i}, {j})") for j in range(n)] for i in range(m)]
        return cls(_fmpq_mat([[z.real for z in r] for r in g], m, n),
                   _fmpq_mat([[z.imag for z in r] for r in g], m, n))

    from_array = from_rows

    @classmethod
    def zeros(cls, m: int, n: int) -> GaussianMatrix:
        return cls(flint.fmpq_mat(m, n))

    @classmethod
    def identity(cls, n: int) -> GaussianMatrix:
        return cls(flint.fmpq_mat(n, n, [1 if i == j else 0 for i in range(n) for j in range(n)]))

    # -- shape and entries -------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return (self.re.nrows(), self.re.ncols())

    def __getitem__(self, ij: tuple[int, int]) -> GaussianRational:
        a, b = self.re[ij], self.im[ij]
        return GaussianRational(Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)))

    def to_array(self) -> np.ndarray:
        """Object ndarray of GaussianRational."""
        m, n = self.shape
        re, im = _to_fractions(self.re), _to_fractions(self.im)
        out = np.empty((m, n), dtype=object)
        for i in range(m):
            for j in range(n):
                out[i, j] = GaussianRational(re[i][j], im[i][j])
        return out

    def is_real(self) -> bool:
        return self.im == flint.fmpq_mat(*self.shape)

    # -- arithmetic --------------------------------------------------------------------
    def __matmul__(self, other: GaussianMatrix) -> GaussianMatrix:
        if not isinstance(other, GaussianMatrix):
            return NotImplemented
        if self.shape[1] != other.shape[0]:
            raise InputError(f"cannot multiply {self.shape} by {other.shape}")
        a, b, c, d = self.re, self.im, other.re, other.im
        ac, bd = a * c, b * d
        return GaussianMatrix(ac - bd, (a + b) * (c + d) - ac - bd)

    def __add__(self, other: GaussianMatrix) -> GaussianMatrix:
        if not isinstance(other, GaussianMatrix):
            return NotImplemented
        return GaussianMatrix(self.re + other.re, self.im + other.im)

    def __sub__(self, other: GaussianMatrix) -> GaussianMatrix:
        if not isinstance(other, GaussianMatrix):
            return NotImplemented
        return GaussianMatrix(self.re - other.re, self.im - other.im)

    def __neg__(self) -> GaussianMatrix:
        return GaussianMatrix(-self.re, -self.im)

    def __mul__(self, scalar: object) -> GaussianMatrix:
        """Multiply by a scalar of Q(i) (for matrix products use ``@``)."""
        if isinstance(scalar, GaussianMatrix):
            return NotImplemented
        z = as_gaussian(scalar, "scalar")
        a, b = flint.fmpq(z.real.numerator, z.real.denominator), \
            flint.fmpq(z.imag.numerator, z.imag.denominator)
        return GaussianMatrix(self.re * a - self.im * b, self.re * b + self.im * a)

    __rmul__ = __mul__

    def transpose(self) -> GaussianMatrix:
        return GaussianMatrix(self.re.transpose(), self.im.transpose())

    @property
    def T(self) -> GaussianMatrix:
        return self.transpose()

    def conjugate(self) -> GaussianMatrix:
        return GaussianMatrix(self.re, -self.im)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GaussianMatrix):
            return NotImplemented
        return self.shape == other.shape and self.re == other.re and self.im == other.im

    __hash__ = None  # mutable-container semantics, like flint matrices

    def __repr__(self) -> str:
        return f"GaussianMatrix(re={self.re.tolist()!r}, im={self.im.tolist()!r})"

    # -- exact rank routes -------------------------------------------------------------
    def realify(self) -> flint.fmpq_mat:
        """The rational matrix [[A, -B], [B, A]]; its rank over Q is 2 * rank over Q(i).

        >>> G = GaussianMatrix.from_rows([[1, I], [I, -1]])   # rank 1 over Q(i)
        >>> G.realify().rank()
        2
        """
        m, n = self.shape
        a, b = _to_fractions(self.re), _to_fractions(self.im)
        top = [a[i] + [-x for x in b[i]] for i in range(m)]
        bot = [b[i] + a[i] for i in range(m)]
        return _fmpq_mat(top + bot, 2 * m, 2 * n)

    def residues(self, p: int, s: int | None = None) -> np.ndarray:
        """The reduction mod the prime ideal (p, i - s) as an int64 array of residues.

        p must be a prime = 1 mod 4 unless the matrix is real; the rank of the
        result over GF(p) is a certified lower bound for the rank over Q(i)
        (module docstring). Wrap it in ``seprank.linalg.residues.ResidueMatrix``
        for :func:`seprank.rank`.

        >>> GaussianMatrix.from_rows([[1, I], [I, -1]]).residues(5).tolist()
        [[1, 2], [2, 4]]
        """
        p = require_prime(p)
        m, n = self.shape
        re, re_den = _cleared(self.re)
        im, im_den = _cleared(self.im)
        for den in (re_den, im_den):
            if den % p == 0:
                raise ParameterError(f"an entry's denominator is divisible by p = {p}: no image "
                                     "in GF(p); choose another prime")
        out = np.array(re, dtype=object).reshape(m, n) * pow(re_den, -1, p)
        if any(x != 0 for x in im):
            if s is None:
                s = sqrt_minus_one(p)
            out = out + np.array(im, dtype=object).reshape(m, n) * (pow(im_den, -1, p) * s)
        return np.mod(out, p).astype(np.int64)


def _cleared(mat: flint.fmpq_mat) -> tuple[list[int], int]:
    """Integer numerators (flat, row-major) and the common denominator of ``mat``."""
    num, den = mat.numer_denom()
    return [int(x) for x in num.entries()], int(den)


def _as_fmpq_mat(x: object) -> flint.fmpq_mat:
    if isinstance(x, flint.fmpq_mat):
        return x
    if isinstance(x, flint.fmpz_mat):
        return flint.fmpq_mat(x)
    arr = np.asarray(x, dtype=object)
    if arr.ndim != 2:
        raise InputError(f"a matrix part needs 2 dimensions, got shape {arr.shape}")
    m, n = arr.shape
    return _fmpq_mat([[as_fraction(arr[i, j], f"entry ({i}, {j})") for j in range(n)]
                      for i in range(m)], m, n)
