"""Exact rank over Q from several primes: a lower bound mod p, kernel vectors by CRT.

For an integer matrix A (m x n) whose rank may be below min(m, n):

1. Rank mod a few primes (each a certified lower bound); keep the prime with
   the largest rank r and its nonsingular minor A[R, C] (lower certificate).
2. If r = min(m, n), the rank is exact. Otherwise build the kernel in standard
   form: for each non-pivot column f, x_f = 1 and x_C = -A[R, C]^-1 A[R, f].
   The solve is done by p-adic lifting (Dixon): one inverse of A[R, C] mod p,
   then each step solves for the next p-adic digit and divides the residual
   by p exactly (integer matrix products in FLINT). Every time the number of
   digits doubles, the rationals are recovered from X mod p^N by vector
   rational reconstruction (one Euclidean reconstruction per new factor of
   the common denominator; the other entries are then small symmetric residues).
3. Verify A x = 0 exactly (integer matrix product) for the reconstructed
   vectors. n - r independent kernel vectors prove rank <= r: with the lower
   bound, the rank is exact. (The certificate is then re-checkable by
   :func:`seprank.verify`, which shares no code with this module.)

If every prime so far was unlucky (rank over Q larger than r), no such kernel
exists, step 3 keeps failing, and the answer stays a lower bound once the
prime budget is spent; the result says which primes were used.

The left kernel is used instead when m < n (fewer vectors).

References
----------
J. D. Dixon, "Exact solution of linear equations using p-adic expansions",
Numer. Math. 40, 1982. J. von zur Gathen, J. Gerhard, Modern Computer Algebra, 3rd ed., ch. 5
(Chinese remaindering, rational reconstruction); H. Cohen, A Course in
Computational Algebraic Number Theory, Alg. 2.3.1 (kernel from echelon form).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import isqrt, lcm

import flint
import numpy as np

from seprank.linalg.certificates import LowerBoundCertificate, UpperBoundCertificate
from seprank.scalars.primes import prev_prime
from seprank.scalars.reconstruction import rational_reconstruction

__all__ = ["MultimodularResult", "rank_multimodular"]

#: Primes for the rank phase, below the numba engine's 2^26 limit.
FIRST_PRIME = 67108859
#: Primes for the p-adic lifting: word-size, so that each digit carries ~62 bits.
LIFTING_PRIMES = (4611686018427387847, 4611686018427387817, 4611686018427387787)
#: Upper limit on p-adic digits of the kernel solve before giving up (62 bits each;
#: 2^14 digits of 62 bits hold numerators and denominators of about 500,000 bits).
DEFAULT_MAX_DIGITS = 2**14


@dataclass
class MultimodularResult:
    """Rank over Q, whether it is exact, both certificates and the primes used.

    ``exact`` is True only when the upper-bound certificate (kernel vectors
    verified by an exact product) meets the lower bound.

    Examples
    --------
    >>> import flint
    >>> res = rank_multimodular(flint.fmpz_mat([[1, 2], [2, 4]]))
    >>> res.rank, res.exact, len(res.upper.vectors)     # one kernel vector, e.g. (-2, 1)
    (1, True, 1)
    """

    rank: int
    exact: bool
    lower: LowerBoundCertificate
    upper: UpperBoundCertificate | None
    primes: list[int] = field(default_factory=list)


def _rank_mod(z: flint.fmpz_mat, p: int, use_numba: bool):
    m, n = z.nrows(), z.ncols()
    if use_numba:
        from seprank.linalg.modular_lu import rank_profile_mod_p

        arr = np.array([[int(x) % p for x in row] for row in z.tolist()], dtype=np.float64)
        r, rows, cols = rank_profile_mod_p(arr.reshape(m, n), p, overwrite=True)
        return r, rows, cols
    from seprank.linalg.flint_engine import lower_certificate, reduce_mod_p

    r, cert = lower_certificate(reduce_mod_p(z, p))
    return r, list(cert.rows), list(cert.cols)


def _vector_reconstruction(values: list[int], modulus: int) -> list[Fraction] | None:
    """Rationals for residues mod ``modulus`` sharing a denominator, or None."""
    half = modulus // 2
    bound = isqrt(modulus // 2)
    den = 1
    out = []
    for x in values:
        y = (x * den) % modulus
        if y > half:
            y -= modulus
        if abs(y) <= bound:
            out.append(Fraction(y, den))
            continue
        f = rational_reconstruction(y, modulus)
        if f is None or f.denominator * den > bound:
            return None
        den *= f.denominator
        out.append(Fraction(f.numerator, den))
    return out


def _combine_digits(digits: list, p) -> flint.fmpz_mat:
    """sum_i digits[i] p^i by binary splitting (quasi-linear in the digit count)."""
    if len(digits) == 1:
        return digits[0]
    h = len(digits) // 2
    return _combine_digits(digits[:h], p) + _combine_digits(digits[h:], p) * (p ** h)


def _dixon_kernel(A: flint.fmpz_mat, rows, cols, free, p: int, max_digits: int):
    """Standard-form kernel vectors of A (as integer lists) by p-adic lifting, or None."""
    n = A.ncols()
    M = flint.fmpz_mat([[A[i, j] for j in cols] for i in rows])
    B = flint.fmpz_mat([[-A[i, f] for f in free] for i in rows])
    try:
        Minv = flint.nmod_mat(M, p).inv()
    except ZeroDivisionError:
        return None
    r, k = B.nrows(), B.ncols()
    digits: list[flint.fmpz_mat] = []
    residual = B
    pk = flint.fmpz(1)
    next_try = 1
    for digit in range(1, max_digits + 1):
        xi_mod = Minv * flint.nmod_mat(residual, p)
        xi = flint.fmpz_mat(r, k, [int(x) for x in xi_mod.entries()])
        digits.append(xi)
        residual = (residual - M * xi) / p
        pk *= p
        if digit < next_try:
            continue
        next_try *= 2
        X = _combine_digits(digits, flint.fmpz(p))
        columns = []
        modulus = int(pk)
        for c in range(k):
            col = _vector_reconstruction([int(X[i, c]) for i in range(r)], modulus)
            if col is None:
                break
            columns.append(col)
        if len(columns) < k:
            continue
        vectors = []
        for c, f in enumerate(free):
            vec = [Fraction(0)] * n
            vec[f] = Fraction(1)
            for i, col in enumerate(cols):
                vec[col] = columns[c][i]
            den = 1
            for x in vec:
                den = lcm(den, x.denominator)
            vectors.append([int(x * den) for x in vec])
        K = flint.fmpz_mat(n, k, [vectors[c][j] for j in range(n) for c in range(k)])
        if (A * K).is_zero():
            return vectors
    return None


def rank_multimodular(z: flint.fmpz_mat, *, max_digits: int = DEFAULT_MAX_DIGITS,
                      rank_primes: int = 2, use_numba: bool = True) -> MultimodularResult:
    """Rank of the integer matrix ``z`` over Q by the multi-modular method.

    Examples
    --------
    >>> import flint
    >>> # Third row = first + second, so the rank over Q is 2 (and the answer is exact).
    >>> res = rank_multimodular(flint.fmpz_mat([[1, 0, 2], [0, 1, 3], [1, 1, 5]]))
    >>> res.rank, res.exact, res.primes[0] == FIRST_PRIME
    (2, True, True)
    """
    transpose = z.nrows() < z.ncols()
    A = z.transpose() if transpose else z  # kernel of A (columns) = left kernel of z
    m, n = A.nrows(), A.ncols()
    primes: list[int] = []
    best = None
    p = FIRST_PRIME
    for _ in range(rank_primes):
        r, rows, cols = _rank_mod(A, p, use_numba)
        primes.append(p)
        if best is None or r > best[0]:
            best = (r, rows, cols, p)
        p = prev_prime(p)
    r, rows, cols, p_best = best
    lower_rows, lower_cols = (cols, rows) if transpose else (rows, cols)
    lower = LowerBoundCertificate(prime=p_best, rows=tuple(lower_rows), cols=tuple(lower_cols))
    if r == min(m, n):
        return MultimodularResult(r, True, lower,
                                  UpperBoundCertificate(bound=r, side="trivial"), primes)
    pivset = set(cols)
    free = [j for j in range(n) if j not in pivset]
    vectors = None
    for q in LIFTING_PRIMES:
        vectors = _dixon_kernel(A, rows, cols, free, q, max_digits)
        if vectors is not None:
            primes.append(q)
            break
    if vectors is not None:
        upper = UpperBoundCertificate(bound=r, side="left" if transpose else "right",
                                      vectors=tuple(tuple(v) for v in vectors),
                                      pivots=tuple(free))
        return MultimodularResult(r, True, lower, upper, primes)
    return MultimodularResult(r, False, lower, None, primes)
