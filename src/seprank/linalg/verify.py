"""Re-check rank certificates with code that shares nothing with the engines.

This module does not import the engines, the input reader they use, or our
own primality test: it reads the matrix's entries itself, tests primality with
sympy, computes the minor's determinant mod p by its own elimination (numpy
int64 when p < 2^31 so that products of residues fit in 63 bits; Python
integers otherwise), and multiplies kernel vectors with exact Python integers.

What is checked
---------------
Lower bound (prime p, rows R, cols C): p is prime; R and C are lists of r
distinct in-range indices; det A[R, C] != 0 mod p after clearing each row's
denominators (a nonzero integer row scaling). Then rank_Q(A) >= r (or
rank_GF(p)(A) >= r for a matrix over GF(p), whose modulus must be p).

Upper bound (kernel vectors K): each vector has the right length and lies in
the kernel exactly (mod p for a matrix over GF(p); a left kernel is that of the
matrix whose rows are each multiplied by the lcm of their denominators, the
engines' integer form); the vectors are independent because at ``pivots[j]``
vector j is nonzero and all others are zero. Then rank <= (n or m) - len(K),
which must be <= the claimed bound. The "trivial" upper certificate claims
only rank <= min(m, n).
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np
import sympy

from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)

__all__ = ["verify", "verify_lower", "verify_upper"]


class _Reader:
    """Row access to the matrix types the front door accepts, with exact entries."""

    def __init__(self, matrix: object):
        self.modulus: int | None = None
        try:
            import flint
        except ImportError:  # pragma: no cover
            flint = None
        if flint is not None and isinstance(matrix, flint.nmod_mat):
            self.modulus = int(matrix.modulus())
            self._rows = [[int(x) for x in row] for row in matrix.tolist()]
        elif flint is not None and isinstance(matrix, flint.fmpz_mat):
            self._rows = [[int(x) for x in row] for row in matrix.tolist()]
        elif flint is not None and isinstance(matrix, flint.fmpq_mat):
            self._rows = [[Fraction(str(x)) for x in row] for row in matrix.tolist()]
        elif hasattr(matrix, "data") and hasattr(matrix, "p") and isinstance(
                matrix.data, np.ndarray):  # a matrix of residues mod p
            self.modulus = int(matrix.p)
            self._rows = [[int(x) % self.modulus for x in row] for row in matrix.data.tolist()]
        elif isinstance(matrix, sympy.MatrixBase):
            self._rows = [[Fraction(int(x.p), int(x.q)) for x in row]
                          for row in matrix.tolist()]
        elif isinstance(matrix, np.ndarray):
            self._rows = matrix  # rows converted lazily
        else:
            self._rows = [list(r) for r in matrix]
        self.m = len(self._rows)
        self.n = len(self._rows[0]) if self.m else (
            matrix.shape[1] if isinstance(matrix, np.ndarray) else 0)

    def row(self, i: int) -> list:
        r = self._rows[i]
        if isinstance(r, np.ndarray):
            return [int(x) if not isinstance(x, Fraction) else x for x in r.tolist()]
        return [x if isinstance(x, (int, Fraction)) else Fraction(x) for x in r]


def _integer_row(values: list) -> list[int]:
    den = 1
    for x in values:
        if isinstance(x, Fraction):
            den = lcm(den, x.denominator)
    return [int(x * den) for x in values]


def _det_nonzero_mod_p(rows: list[list[int]], p: int) -> bool:
    r = len(rows)
    if r == 0:
        return True
    if p < 2**31:
        a = np.array([[x % p for x in row] for row in rows], dtype=np.int64)
        for k in range(r):
            nz = np.nonzero(a[k:, k])[0]
            if nz.size == 0:
                return False
            piv = k + int(nz[0])
            if piv != k:
                a[[k, piv]] = a[[piv, k]]
            inv = pow(int(a[k, k]), -1, p)
            a[k, k:] = (a[k, k:] * inv) % p
            if k + 1 < r:
                factors = a[k + 1:, k].copy()
                a[k + 1:, k:] = (a[k + 1:, k:] - (factors[:, None] * a[k, k:][None, :]) % p) % p
        return True
    a = [[x % p for x in row] for row in rows]
    for k in range(r):
        piv = next((i for i in range(k, r) if a[i][k]), None)
        if piv is None:
            return False
        a[k], a[piv] = a[piv], a[k]
        inv = pow(a[k][k], -1, p)
        a[k] = [x * inv % p for x in a[k]]
        for i in range(k + 1, r):
            f = a[i][k]
            if f:
                a[i] = [(x - f * y) % p for x, y in zip(a[i], a[k], strict=True)]
    return True


def verify_lower(matrix: object, cert: LowerBoundCertificate, _reader: _Reader | None = None
                 ) -> bool:
    """True iff the minor named by ``cert`` is nonzero modulo its (prime) modulus.

    Examples
    --------
    The minor on rows (0, 1), columns (0, 1) of [[1, 2], [3, 1]] is -5: nonzero
    mod 7, zero mod 5.

    >>> from seprank.linalg.certificates import LowerBoundCertificate as Lower
    >>> A = [[1, 2], [3, 1]]
    >>> verify_lower(A, Lower(7, (0, 1), (0, 1))), verify_lower(A, Lower(5, (0, 1), (0, 1)))
    (True, False)
    """
    rd = _reader or _Reader(matrix)
    p = cert.prime
    if not isinstance(p, int) or p < 2 or not sympy.isprime(p):
        return False
    if rd.modulus is not None and rd.modulus != p:
        return False
    rows, cols = list(cert.rows), list(cert.cols)
    if len(rows) != len(cols) or len(set(rows)) != len(rows) or len(set(cols)) != len(cols):
        return False
    if any(not (0 <= i < rd.m) for i in rows) or any(not (0 <= j < rd.n) for j in cols):
        return False
    minor = []
    for i in rows:
        full_row = rd.row(i)
        minor.append(_integer_row([full_row[j] for j in cols]))
    return _det_nonzero_mod_p(minor, p)


def verify_upper(matrix: object, cert: UpperBoundCertificate, _reader: _Reader | None = None
                 ) -> bool:
    """True iff the kernel vectors of ``cert`` are independent and in the kernel.

    Examples
    --------
    (2, -1) is in the right kernel of [[1, 2], [2, 4]]; (1, 1) is not.

    >>> from seprank.linalg.certificates import UpperBoundCertificate as Upper
    >>> A = [[1, 2], [2, 4]]
    >>> verify_upper(A, Upper(bound=1, side="right", vectors=((2, -1),), pivots=(0,)))
    True
    >>> verify_upper(A, Upper(bound=1, side="right", vectors=((1, 1),), pivots=(0,)))
    False
    """
    rd = _reader or _Reader(matrix)
    m, n = rd.m, rd.n
    if cert.side == "trivial":
        return not cert.vectors and cert.bound >= min(m, n)
    if cert.side not in ("right", "left"):
        return False
    if (cert.modulus is None) != (rd.modulus is None):
        return False
    if cert.modulus is not None and cert.modulus != rd.modulus:
        return False
    length = n if cert.side == "right" else m
    vecs, piv = cert.vectors, list(cert.pivots)
    if len(piv) != len(vecs) or len(set(piv)) != len(piv):
        return False
    if any(len(v) != length for v in vecs) or any(not (0 <= c < length) for c in piv):
        return False
    mod = cert.modulus
    for j, v in enumerate(vecs):  # independence: a diagonal block at the pivots
        for k, c in enumerate(piv):
            x = v[c] % mod if mod else v[c]
            if (x != 0) != (j == k):
                return False
    if length - len(vecs) > cert.bound:
        return False
    if not vecs:
        return True
    if cert.side == "right":
        for i in range(m):
            row = _integer_row(rd.row(i))
            for v in vecs:
                s = sum(a * b for a, b in zip(row, v, strict=True) if a and b)
                if (s % mod if mod else s) != 0:
                    return False
        return True
    # left kernel of the matrix whose rows are cleared of denominators (each row
    # times the lcm of its denominators): sum_i y_i * row_i = 0
    acc = [[0] * n for _ in vecs]
    for i in range(m):
        row = _integer_row(rd.row(i))
        for t, y in enumerate(vecs):
            yi = y[i]
            if yi:
                a = acc[t]
                for j, x in enumerate(row):
                    if x:
                        a[j] = (a[j] + yi * x) % mod if mod else a[j] + yi * x
    return all(x == 0 for a in acc for x in a)


def verify(matrix: object, certificate: object) -> bool:
    """Re-check ``certificate`` against ``matrix``; True iff every part holds.

    ``certificate`` may be a RankCertificate (both parts are checked, and they
    must not contradict each other), a LowerBoundCertificate, an
    UpperBoundCertificate, or a RankResult carrying one.

    >>> import seprank
    >>> A = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    >>> res = seprank.rank(A, certify=True)
    >>> seprank.verify(A, res.certificate)
    True
    """
    if hasattr(certificate, "certificate") and hasattr(certificate, "kind"):
        certificate = certificate.certificate
    rd = _Reader(matrix)
    if isinstance(certificate, LowerBoundCertificate):
        return verify_lower(matrix, certificate, rd)
    if isinstance(certificate, UpperBoundCertificate):
        return verify_upper(matrix, certificate, rd)
    if isinstance(certificate, RankCertificate):
        if certificate.lower is None and certificate.upper is None:
            return False
        if certificate.lower is not None and not verify_lower(matrix, certificate.lower, rd):
            return False
        if certificate.upper is not None and not verify_upper(matrix, certificate.upper, rd):
            return False
        if certificate.lower is not None and certificate.upper is not None:
            return certificate.lower.bound <= certificate.upper.bound
        return True
    raise TypeError(f"not a rank certificate: {type(certificate).__name__}")
