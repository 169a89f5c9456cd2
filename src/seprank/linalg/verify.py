"""Re-check rank certificates with code that shares nothing with the engines.

This module does not import the engines, the input reader they use, or the
engines' primality test: it reads the matrix's entries itself, tests primality
with its own deterministic Miller-Rabin (SymPy above 3.3e24), computes the
minor's determinant mod p by its own blocked elimination (float64 with
delayed reduction for p < 2^31, products split in two from 2^21; Python
integers above), and checks kernel vectors by an exact product of its own (below).
Measured (benchmarks/results/verify_cost.*): from n = 1000 on, checking a
certificate costs at most 3x computing it, for every input kind there.

What it reads (and what it refuses)
-----------------------------------
The verifier accepts only what it can read exactly (issue 12, item 2):

* matrix entries: Python ``int`` and ``fractions.Fraction``, numpy integer
  scalars, python-flint ``fmpz``/``fmpq``, sympy rationals; numpy arrays of
  an *integer* dtype are read element-wise as Python ints (``tolist``), which
  is exact for every integer dtype, uint64 included: the verifier checks the
  matrix as it is stored, and its own arithmetic is on Python ints or on
  reduced residues, so nothing wraps inside it. Float entries or float arrays
  (whose values may already be rounded) raise InputError, as do bools;
  a ``ResidueMatrix`` may hold floats only if they are integers below 2^53.
* certificates: primes, indices, bounds and vector entries must be Python
  ints (or numpy integer scalars, converted with ``int``; flint ``fmpz``);
  a float, bool, Fraction or anything else anywhere in a certificate makes
  the verdict False. Primes must be prime (sympy; 2 and 3 are fine: a minor
  nonzero mod any prime is a nonzero integer), indices in range and distinct.
* a :class:`~seprank.linalg.result.RankResult`: its certificate is checked
  and must prove the value and kind the result claims.

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

The kernel product A K is checked modulo primes q < 2^21 (float64 BLAS
products of residues, exact: each partial sum stays below 2^53, inner
dimension split into chunks) whose product exceeds 2 n max|A| max|K| (over
Q): an integer of absolute value below half the modulus that is 0 modulo
every prime is 0, so this is an exact test, not a probabilistic one. Over
GF(p) with p < 2^31 the product is formed the same way after splitting the
residues into 16-bit halves; larger p use Python integers.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from functools import lru_cache
from math import lcm

import numpy as np

from seprank.errors import InputError
from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)

__all__ = ["verify", "verify_lower", "verify_upper"]

_TWO53 = 2**53


def _exact_entry(x: object, where: tuple[int, int]) -> int | Fraction:
    """A matrix entry as an exact int or Fraction, or InputError (floats, bools, text)."""
    if isinstance(x, (bool, np.bool_)):
        raise InputError(f"verify: entry {where} is a bool; give integers or fractions")
    if isinstance(x, int):
        return int(x)
    if isinstance(x, Fraction):
        return x
    if isinstance(x, np.integer):
        return int(x)
    try:
        import flint

        if isinstance(x, flint.fmpz):
            return int(x)
        if isinstance(x, flint.fmpq):
            return Fraction(int(x.p), int(x.q))
    except ImportError:  # pragma: no cover
        pass
    sympy = sys.modules.get("sympy")  # imported lazily: a SymPy object means it is loaded
    if sympy is not None and isinstance(x, sympy.Basic) and x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    raise InputError(f"verify: entry {where} is {x!r} ({type(x).__name__}); the verifier "
                     "reads only exact entries (integers, fractions)")


def _rows_from(seq) -> list[list[int | Fraction]]:
    rows = [list(r) for r in seq]
    if rows and len({len(r) for r in rows}) != 1:
        raise InputError("verify: ragged rows")
    return [[_exact_entry(x, (i, j)) for j, x in enumerate(r)] for i, r in enumerate(rows)]


def _array_rows(arr: np.ndarray, what: str) -> list[list[int | Fraction]]:
    if arr.ndim != 2:
        raise InputError(f"verify: {what} must be 2-dimensional")
    if arr.dtype.kind in "iu":
        return arr.tolist()  # Python ints, exact for every integer dtype
    if arr.dtype.kind == "O":
        return _rows_from(arr)
    raise InputError(f"verify: {what} has dtype {arr.dtype}; the verifier reads only exact "
                     "integer (or object) arrays")


class _Reader:
    """Exact rows of the matrix types the front door accepts (InputError otherwise)."""

    def __init__(self, matrix: object):
        self.modulus: int | None = None
        #: the entries as int64 when the input is an integer array with |x| < 2^62
        #: (read without Python lists; exact), else None and ``_rows`` holds them
        self._arr: np.ndarray | None = None
        #: whether the rows hold only Python ints (flint integer matrices): no
        #: denominators to clear
        self._integral = False
        try:
            import flint
        except ImportError:  # pragma: no cover
            flint = None
        ncols = 0
        if flint is not None and isinstance(matrix, flint.nmod_mat):
            self.modulus = int(matrix.modulus())
            rows = [[int(x) for x in row] for row in matrix.tolist()]
            ncols = matrix.ncols()
            rows, self._arr = _int64_or_rows(rows)
            self._integral = True
        elif flint is not None and isinstance(matrix, flint.fmpz_mat):
            rows = [[int(x) for x in row] for row in matrix.tolist()]
            ncols = matrix.ncols()
            rows, self._arr = _int64_or_rows(rows)
            self._integral = True
        elif flint is not None and isinstance(matrix, flint.fmpq_mat):
            rows = [[Fraction(int(x.p), int(x.q)) for x in row] for row in matrix.tolist()]
            ncols = matrix.ncols()
        elif hasattr(matrix, "data") and hasattr(matrix, "p") and isinstance(
                matrix.data, np.ndarray):  # a matrix of residues mod p
            p = matrix.p
            if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
                raise InputError(f"verify: residue modulus {p!r} is not an integer")
            self.modulus = int(p)
            data = matrix.data
            if data.ndim == 2 and data.dtype.kind == "f":
                if not (np.isfinite(data).all() and (data == np.floor(data)).all()
                        and (np.abs(data) < _TWO53).all()):
                    raise InputError("verify: float residues must be integers below 2^53")
                data = data.astype(np.int64)
            arr = _small_int64(data)
            if arr is not None:
                # residues already in [0, p) are kept; others reduced (int64 % p: exact)
                in_range = int(arr.min()) >= 0 and int(arr.max()) < self.modulus
                self._arr = arr if in_range else arr % self.modulus
                rows = None
            else:
                rows = [[x % self.modulus for x in row]
                        for row in _array_rows(data, "residues")]
            ncols = data.shape[1]
        elif "sympy" in sys.modules and isinstance(matrix, sys.modules["sympy"].MatrixBase):
            rows = _rows_from(matrix.tolist())
            ncols = matrix.shape[1]
        elif isinstance(matrix, np.ndarray):
            self._arr = _small_int64(matrix)
            rows = None if self._arr is not None else _array_rows(matrix, "the matrix")
            ncols = matrix.shape[1]
        elif isinstance(matrix, (list, tuple)):
            rows = _rows_from(matrix)
        else:
            raise InputError(f"verify: cannot read a matrix from a {type(matrix).__name__}")
        self._rows = rows
        if rows is None:
            self.m, self.n = self._arr.shape
        else:
            self.m = len(rows)
            self.n = len(rows[0]) if self.m else ncols
        self._int_rows: list[list[int]] | None = None

    def row(self, i: int) -> list:
        if self._rows is None:
            return self._arr[i].tolist()
        return self._rows[i]

    def minor(self, rows: list[int], cols: list[int]):
        """The integer minor (rows cleared of denominators): int64 array or lists."""
        if self._arr is not None:
            return self._arr[np.ix_(rows, cols)] if rows else np.zeros((0, 0), np.int64)
        if self._integral:
            return [[self._rows[i][j] for j in cols] for i in rows]
        out = []
        for i in rows:
            full_row = self._rows[i]
            out.append(_integer_row([full_row[j] for j in cols]))
        return out

    def int_matrix(self):
        """Every row times the lcm of its denominators: int64 array or lists (cached)."""
        if self._arr is not None:
            return self._arr
        if self._int_rows is None:
            self._int_rows = (self._rows if self._integral
                              else [_integer_row(r) for r in self._rows])
        return self._int_rows


def _int64_or_rows(rows: list[list[int]]):
    """(None, int64 array) for rows of Python ints all below 2^62 in absolute value
    (exact; the fast path), else (rows, None). Only for rows known to hold ints."""
    if not rows or not rows[0]:
        return rows, None
    try:
        arr = np.array(rows, dtype=np.int64)
    except OverflowError:
        return rows, None
    if int(arr.max()) >= 2**62 or int(arr.min()) <= -(2**62):
        return rows, None
    return None, arr


def _small_int64(arr: np.ndarray) -> np.ndarray | None:
    """An integer array as int64 if every |entry| < 2^62 (exact), else None."""
    if arr.ndim != 2 or arr.dtype.kind not in "iu" or arr.size == 0:
        return None
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8:
        if int(arr.max()) >= 2**62:
            return None
        return arr.astype(np.int64)
    out = arr.astype(np.int64)
    if int(out.max()) >= 2**62 or int(out.min()) <= -(2**62):
        return None
    return out


def _integer_row(values: list) -> list[int]:
    den = 1
    for x in values:
        if isinstance(x, Fraction):
            den = lcm(den, x.denominator)
    if den == 1:
        return [int(x) for x in values]
    return [int(x * den) for x in values]


def _cert_int(x: object) -> int | None:
    """A certificate field as an exact int, or None (floats, bools, anything else)."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, int):
        return int(x)
    if isinstance(x, np.integer):
        return int(x)
    try:
        import flint

        if isinstance(x, flint.fmpz):
            return int(x)
    except ImportError:  # pragma: no cover
        pass
    return None


def _cert_ints(seq: object) -> list[int] | None:
    """A sequence of exact ints from a certificate, or None."""
    if isinstance(seq, (str, bytes)) or not hasattr(seq, "__iter__"):
        return None
    out = []
    for x in seq:
        v = _cert_int(x)
        if v is None:
            return None
        out.append(v)
    return out


def _fmod_exact(x: np.ndarray, p: int) -> np.ndarray:
    """x mod p for float64 integers |x| < 2^53 (in place): floor(x / p) may be off
    by one in rounding, so the remainder is corrected into [0, p) afterwards."""
    q = np.floor(x * (1.0 / p))
    x -= q * p  # exact: |x - q p| < 2p, and q p is within 2^53 of an exact product
    x += np.where(x < 0, p, 0.0)
    x -= np.where(x >= p, p, 0.0)
    return x


def _matmul_mod(M: np.ndarray, V: np.ndarray, p: int) -> np.ndarray:
    """(M V) mod p for int64 residues in [0, p), p < 2^31, exactly (int64 result).

    p < 2^21: float64 products of residues (terms below 2^42, summed in
    chunks short enough to stay below 2^53). Otherwise by 16-bit halves: with
    M = M1 2^16 + M0 and V = V1 2^16 + V0 each half-product has terms below
    2^32, and sums of up to 2^20 of them are exact in float64.
    """
    a, b = M.shape
    k = V.shape[1]
    if b == 0:
        return np.zeros((a, k), dtype=np.int64)
    if p < 2**21:
        chunk = max(1, (_TWO53 - p) // max(1, (p - 1) ** 2) - 1)
        Mf, Vf = M.astype(np.float64), V.astype(np.float64)
        acc = np.zeros((a, k), dtype=np.float64)
        for k0 in range(0, b, chunk):
            acc = _fmod_exact(acc + Mf[:, k0:k0 + chunk] @ Vf[k0:k0 + chunk], p)
        return acc.astype(np.int64)
    M0, M1 = (M & 0xFFFF).astype(np.float64), (M >> 16).astype(np.float64)
    V0, V1 = (V & 0xFFFF).astype(np.float64), (V >> 16).astype(np.float64)
    acc = np.zeros((a, k), dtype=np.int64)
    s16, s32 = pow(2, 16, p), pow(2, 32, p)
    for k0 in range(0, b, 2**20):
        sl = slice(k0, k0 + 2**20)
        lo = (M0[:, sl] @ V0[sl]).astype(np.int64) % p
        mid = ((M1[:, sl] @ V0[sl]).astype(np.int64) % p
               + (M0[:, sl] @ V1[sl]).astype(np.int64) % p) % p
        hi = (M1[:, sl] @ V1[sl]).astype(np.int64) % p
        acc = (acc + lo + (mid * s16) % p + (hi * s32) % p) % p
    return acc


#: panel width of the verifier's blocked elimination
_PANEL = 96
#: from this prime on the float64 elimination keeps balanced residues (below it, a
#: balanced residue could be a nonzero multiple of p, see _balance: residues in [0, p))
_FLOAT_MIN_PRIME = 7
#: the float64 elimination keeps every entry below this in absolute value (exact in
#: float64); a test lowers it to exercise the trailing block's reductions
_GROWTH_LIMIT = 2**52


def _balance(x: np.ndarray, p: int) -> np.ndarray:
    """x minus the nearest multiple of p, in place: |result| <= p/2 + 2, same class mod p.

    x holds float64 integers with |x| < 2^52. With t the computed x * (1/p),
    |t - x/p| <= |x/p| 2^-52 (two roundings), so q = rint(t) is within
    1/2 + |x/p| 2^-52 of x/p and |x - q p| <= p/2 + |x| 2^-52 < p/2 + 2. Every
    operation is exact: q p and x are integers below 2^53 and so is their
    difference. For p >= 7, p/2 + 2 < p, so the result is 0 iff x = 0 mod p.
    """
    q = x * (1.0 / p)
    np.rint(q, out=q)
    q *= p
    x -= q
    return x


#: primes from here take the split products of :func:`_det_nonzero_float`
_SPLIT_PRIME = 2**21
#: the largest modulus (exclusive) of the float64 elimination
_FLOAT_MAX_PRIME = 2**31
_HALF = 2.0**15


def _det_nonzero_float(rows, p: int) -> bool:
    """det != 0 mod p (p < 2^31): blocked LU in float64 with delayed reduction.

    Entries are kept as float64 integers below 2^52 in absolute value, so every
    operation is exact; "reduced" means balanced (:func:`_balance`), of absolute
    value h <= p/2 + 2.

    Each panel of ``_PANEL`` columns is copied, reduced and factored left-looking
    (Crout): column j is updated only when it is reached, by one product of the
    panel's finished multipliers and U entries, reduced, searched for a nonzero
    pivot (rows swapped in the panel and, recorded, in the columns to its
    right), and turned into multipliers. The panel's U block to the right (rows
    of the panel) is solved row by row the same way. The trailing block then
    takes one product per panel.

    Products (:func:`_sub_product`): for p < 2^21 (h < 2^20 + 3) a product of
    ``_PANEL`` terms is below _PANEL h^2 < 2^47 and is taken as it is; the
    trailing block is reduced only when the next product could pass 2^52. For
    2^21 <= p < 2^31 (h < 2^30 + 3) the right factor is split as B1 2^15 + B0
    with |B1| <= 2^15 + 1 and 0 <= B0 < 2^15: each of the two products has terms
    below 2^45.1 and sums below 2^51.7, and is reduced before they are combined,
    so a product enters reduced. Nothing here is shared with the engines.
    """
    if isinstance(rows, np.ndarray):   # int64: taken as they are when below 2^50
        big = rows.size and (int(rows.max()) >= 2**50 or int(rows.min()) <= -(2**50))
        a = np.ascontiguousarray(rows % p if big else rows, dtype=np.float64)
    else:
        a = np.array([[x % p for x in row] for row in rows], dtype=np.float64)
    r = a.shape[0]
    # balanced residues; for p < 7 a balanced residue may be a nonzero multiple of p
    # (|x| <= p/2 + 2 >= p), so there residues are taken in [0, p) instead
    red = _balance if p >= _FLOAT_MIN_PRIME else _fmod_exact
    split = p >= _SPLIT_PRIME
    h = p // 2 + 2                        # bound on a reduced entry
    step = h if split else _PANEL * h * h  # growth of one trailing product
    # bound on |entries| of the trailing block (the input's own, below 2^50, at first)
    growth = max(p, int(np.abs(a).max())) if r else p
    # the unsplit trailing product, written in place
    buf = np.empty(0 if split else max(0, r - _PANEL) ** 2)
    for k0 in range(0, r, _PANEL):
        k1 = min(r, k0 + _PANEL)
        w = k1 - k0
        P = red(a[k0:, k0:k1].copy(), p)     # the panel, contiguous, reduced
        swaps = []
        for j in range(w):
            col = P[j:, j]
            if j:
                red(_sub_product(col, P[j:, :j], P[:j, j], p, split, red), p)
            nz = np.flatnonzero(col)
            if nz.size == 0:
                return False
            if nz[0]:
                piv = j + int(nz[0])
                P[[j, piv]] = P[[piv, j]]
                swaps.append((k0 + j, k0 + piv))
            if j + 1 < w:                          # row j of U inside the panel
                if j:
                    _sub_product(P[j, j + 1:], P[j, :j], P[:j, j + 1:], p, split, red)
                red(P[j, j + 1:], p)
            if j + 1 < P.shape[0]:                 # multipliers, below the pivot
                _scale(P[j + 1:, j], pow(int(P[j, j]) % p, -1, p), p, split, red)
        if k1 == r:
            break
        for x, y in swaps:
            a[[x, y], k1:] = a[[y, x], k1:]
        U = red(a[k0:k1, k1:], p)            # U12 = L11^-1 A12, row by row
        for i in range(1, w):
            red(_sub_product(U[i], P[i, :i], U[:i], p, split, red), p)
        if growth + step >= _GROWTH_LIMIT:
            red(a[k1:, k1:], p)
            growth = h
        if split:
            _sub_product(a[k1:, k1:], P[w:, :], U, p, split, red)
        else:
            prod = buf[:(r - k1) ** 2].reshape(r - k1, r - k1)
            np.matmul(P[w:, :], U, out=prod)
            a[k1:, k1:] -= prod
        growth += step
    return True


def _sub_product(x: np.ndarray, A: np.ndarray, B: np.ndarray, p: int, split: bool,
                 red=_balance):
    """x -= A @ B in place (A, B reduced; at most ``_PANEL`` terms); see _det_nonzero_float.

    Unsplit, A @ B is subtracted as it is (below _PANEL h^2); split, it is formed
    from B = B1 2^15 + B0 and reduced (below h), so x grows by at most that."""
    if not split:
        x -= A @ B
        return x
    B1 = np.floor(B / _HALF)
    hi = red(A @ B1, p)
    hi *= _HALF
    hi += red(A @ (B - B1 * _HALF), p)
    x -= red(hi, p)
    return x


def _scale(x: np.ndarray, c: int, p: int, split: bool, red=_balance) -> np.ndarray:
    """x <- x c, reduced, in place (x reduced, 0 <= c < p)."""
    if not split:
        x *= float(c)
        return red(x, p)
    c1, c0 = divmod(c, 2**15)          # c1 < 2^16, c0 < 2^15: products below 2^46.1
    hi = red(x * float(c1), p)
    hi *= _HALF
    x *= float(c0)
    x += hi
    return red(x, p)


def _det_nonzero_mod_p(rows, p: int) -> bool:
    """det(rows) != 0 mod p, by blocked Gaussian elimination.

    p < 2^31: float64 (:func:`_det_nonzero_float`); larger primes: Python
    integers, row by row.
    """
    r = len(rows)
    if r == 0:
        return True
    if p < _FLOAT_MAX_PRIME:
        return _det_nonzero_float(rows, p)
    if isinstance(rows, np.ndarray):
        rows = rows.tolist()
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
    if not isinstance(cert, LowerBoundCertificate):
        return False
    rd = _reader or _Reader(matrix)
    p = _cert_int(cert.prime)
    if p is None or p < 2 or not _isprime(p):
        return False
    if rd.modulus is not None and rd.modulus != p:
        return False
    rows, cols = _cert_ints(cert.rows), _cert_ints(cert.cols)
    if rows is None or cols is None:
        return False
    if len(rows) != len(cols) or len(set(rows)) != len(rows) or len(set(cols)) != len(cols):
        return False
    if any(not (0 <= i < rd.m) for i in rows) or any(not (0 <= j < rd.n) for j in cols):
        return False
    return _det_nonzero_mod_p(rd.minor(rows, cols), p)


def _sympy():
    """SymPy, imported on first use (``import seprank`` stays fast)."""
    import sympy

    return sympy


#: Miller-Rabin with the first 13 prime bases is deterministic below this bound
#: (Sorenson and Webster, Math. Comp. 86 (2017), psi_13 = 3317044064679887385961981).
_MR_BOUND = 3317044064679887385961981
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _isprime(n: int) -> bool:
    """Primality, written here (the verifier shares no code with the engines).

    Deterministic Miller-Rabin below :data:`_MR_BOUND` (every word-size prime);
    SymPy above it. Importing SymPy costs 0.4-0.7 s, more than checking the minor
    of a 1000 x 1000 certificate, so it is avoided on the common path.
    """
    if n < 2:
        return False
    for q in _MR_BASES:
        if n % q == 0:
            return n == q
    if n >= _MR_BOUND:
        return bool(_sympy().isprime(n))
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=1)
def _crt_primes() -> tuple[int, ...]:
    """Primes below 2^21, largest first (for the exact kernel product over Z)."""
    out, q = [], 2**21
    for _ in range(4096):
        q = int(_sympy().prevprime(q))
        out.append(q)
    return tuple(out)


def _residue_table(values: list[int], primes: list[int]) -> np.ndarray:
    """values mod each prime (< 2^21), as a float64 array of shape (len(values), len(primes)).

    Small values go through int64 directly; large ones are cut into 16-bit
    limbs l_t (|x| = sum_t l_t 2^(16 t)) and reduced as a float64 product of
    the limbs with 2^(16 t) mod q: every term is below 2^37, so sums of up to
    2^15 terms are exact, and longer numbers are summed in such chunks.
    """
    N = len(values)
    out = np.empty((N, len(primes)), dtype=np.float64)
    if N == 0:
        return out
    try:
        arr = np.array(values, dtype=np.int64)
        if arr.size and int(np.abs(arr).max()) < 2**62:
            for t, q in enumerate(primes):
                out[:, t] = arr % q
            return out
    except OverflowError:
        pass
    nbytes = max((abs(x).bit_length() + 7) // 8 for x in values)
    nbytes += nbytes % 2
    buf = b"".join(abs(x).to_bytes(nbytes, "little") for x in values)
    limbs = np.frombuffer(buf, dtype="<u2").reshape(N, nbytes // 2).astype(np.float64)
    L = limbs.shape[1]
    sign = np.array([-1.0 if x < 0 else 1.0 for x in values])
    qs = np.array(primes, dtype=np.float64)
    pw = np.empty((L, len(primes)), dtype=np.float64)
    for t, q in enumerate(primes):
        pw[:, t] = [pow(2, 16 * j, q) for j in range(L)]
    acc = np.zeros((N, len(primes)), dtype=np.float64)
    for j0 in range(0, L, 2**15):
        acc = np.fmod(acc + limbs[:, j0:j0 + 2**15] @ pw[j0:j0 + 2**15], qs)
    return np.mod(acc * sign[:, None], qs)


def _matmul_zero_small(Mq: np.ndarray, Vq: np.ndarray, q: int) -> bool:
    """(M V) mod q == 0 for residues in [0, q), q < 2^21: float64 products, exact."""
    chunk = max(1, (_TWO53 - q) // ((q - 1) ** 2 or 1) - 1)
    acc = np.zeros((Mq.shape[0], Vq.shape[1]), dtype=np.float64)
    for k0 in range(0, Mq.shape[1], chunk):
        acc = _fmod_exact(acc + Mq[:, k0:k0 + chunk] @ Vq[k0:k0 + chunk], q)
    return not acc.any()


def _product_is_zero(M, V: list[list[int]], modulus: int | None) -> bool:
    """True iff M V = 0 exactly (mod ``modulus`` when given); M is a x b, V is b x k."""
    a, b = len(M), len(V)
    k = len(V[0]) if V else 0
    if a == 0 or k == 0 or b == 0:
        return True
    is_arr = isinstance(M, np.ndarray)  # int64 entries, |x| < 2^62
    if modulus is not None:
        if modulus < 2**31:
            Mr = (M % modulus if is_arr
                  else np.array([[x % modulus for x in r] for r in M], dtype=np.int64))
            Vr = np.array([[x % modulus for x in r] for r in V], dtype=np.int64)
            return not _matmul_mod(Mr, Vr, modulus).any()
        if is_arr:
            M = M.tolist()
        cols = list(zip(*V, strict=True))
        return all(sum(x * y for x, y in zip(r, c, strict=True)) % modulus == 0
                   for r in M for c in cols)
    mflat = None if is_arr else [x for r in M for x in r]
    vflat = [x for r in V for x in r]
    mmax = int(np.abs(M).max()) if is_arr else max(abs(x) for x in mflat)
    vmax = max(abs(x) for x in vflat)
    if mmax == 0 or vmax == 0:
        return True
    bound = 2 * b * mmax * vmax  # |(M V)_ij| < bound / 2
    primes, prod = [], 1
    for q in _crt_primes():
        primes.append(q)
        prod *= q
        if prod > bound:
            break
    else:  # pragma: no cover - products beyond 4096 primes of 21 bits: Python integers
        M = M.tolist() if is_arr else M
        cols = list(zip(*V, strict=True))
        return all(sum(x * y for x, y in zip(r, c, strict=True)) == 0 for r in M for c in cols)
    step = max(1, 2**23 // max(a * b, len(vflat)))
    for g in range(0, len(primes), step):
        group = primes[g:g + step]
        Mt = None if is_arr else _residue_table(mflat, group)
        Vt = _residue_table(vflat, group)
        for t, q in enumerate(group):
            Mq = (M % q).astype(np.float64) if is_arr else Mt[:, t].reshape(a, b)
            if not _matmul_zero_small(Mq, Vt[:, t].reshape(b, k), q):
                return False
    return True


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
    if not isinstance(cert, UpperBoundCertificate):
        return False
    rd = _reader or _Reader(matrix)
    m, n = rd.m, rd.n
    bound = _cert_int(cert.bound)
    if bound is None or not isinstance(cert.side, str):
        return False
    if cert.side == "trivial":
        return (isinstance(cert.vectors, (tuple, list)) and len(cert.vectors) == 0
                and bound >= min(m, n))
    if cert.side not in ("right", "left"):
        return False
    mod = None if cert.modulus is None else _cert_int(cert.modulus)
    if cert.modulus is not None and mod is None:
        return False
    if mod != rd.modulus or (mod is not None and not _isprime(mod)):
        return False
    length = n if cert.side == "right" else m
    if isinstance(cert.vectors, (str, bytes)) or not hasattr(cert.vectors, "__iter__"):
        return False
    vecs = [_cert_ints(v) for v in cert.vectors]
    piv = _cert_ints(cert.pivots)
    if piv is None or any(v is None for v in vecs):
        return False
    if len(piv) != len(vecs) or len(set(piv)) != len(piv):
        return False
    if any(len(v) != length for v in vecs) or any(not (0 <= c < length) for c in piv):
        return False
    for j, v in enumerate(vecs):  # independence: a diagonal block at the pivots
        for k, c in enumerate(piv):
            x = v[c] % mod if mod else v[c]
            if (x != 0) != (j == k):
                return False
    if length - len(vecs) > bound:
        return False
    if not vecs:
        return True
    A = rd.int_matrix()
    K = [list(c) for c in zip(*vecs, strict=True)]  # the vectors as columns
    if cert.side == "right":  # A K = 0
        return _product_is_zero(A, K, mod)
    # left kernel of the matrix whose rows are cleared of denominators: A^T Y = 0
    if isinstance(A, np.ndarray):
        return _product_is_zero(np.ascontiguousarray(A.T), K, mod)
    At = [list(c) for c in zip(*A, strict=True)] if A else []
    return _product_is_zero(At, K, mod)


def _claim_holds(result: object, cert: RankCertificate) -> bool:
    """True iff ``cert``'s bounds prove the value and kind that ``result`` claims."""
    value = _cert_int(getattr(result, "value", None))
    kind = getattr(result, "kind", None)
    if value is None:
        return False
    low = cert.lower.bound if cert.lower is not None else None
    up = cert.upper.bound if cert.upper is not None else None
    if kind == "exact":
        return low is not None and up is not None and low == value == up
    if kind == "lower_bound":
        return low is not None and low >= value
    if kind == "upper_bound":
        return up is not None and up <= value
    return False


def verify(matrix: object, certificate: object) -> bool:
    """Re-check ``certificate`` against ``matrix``; True iff every part holds.

    ``certificate`` may be a RankCertificate (both parts are checked, and they
    must not contradict each other), a LowerBoundCertificate, an
    UpperBoundCertificate, or a RankResult carrying one (then the certificate
    must also prove the result's value and kind). A matrix the verifier
    cannot read exactly (floats) raises InputError; a certificate it cannot
    read exactly is not verified (False). See the module docstring.

    >>> import seprank
    >>> A = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    >>> res = seprank.rank(A, certify=True)
    >>> seprank.verify(A, res.certificate), seprank.verify(A, res)
    (True, True)
    >>> seprank.verify([[1.5, 1], [3, 2]], res.certificate)
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: verify: entry (0, 0) is 1.5 (float); the verifier reads ...
    """
    result = None
    if hasattr(certificate, "certificate") and hasattr(certificate, "kind"):
        result, certificate = certificate, certificate.certificate
    rd = _Reader(matrix)
    if isinstance(certificate, LowerBoundCertificate):
        certificate = RankCertificate(lower=certificate)
    elif isinstance(certificate, UpperBoundCertificate):
        certificate = RankCertificate(upper=certificate)
    if not isinstance(certificate, RankCertificate):
        if result is not None:
            return False
        raise TypeError(f"not a rank certificate: {type(certificate).__name__}")
    if certificate.lower is None and certificate.upper is None:
        return False
    if certificate.lower is not None and not verify_lower(matrix, certificate.lower, rd):
        return False
    if certificate.upper is not None and not verify_upper(matrix, certificate.upper, rd):
        return False
    if certificate.lower is not None and certificate.upper is not None \
            and certificate.lower.bound > certificate.upper.bound:
        return False
    if result is not None:
        field = getattr(result, "field", None)
        if field != ("QQ" if rd.modulus is None else f"GF({rd.modulus})"):
            return False
        return _claim_holds(result, certificate)
    return True
