"""Kernel vectors by Dixon lifting of a matrix known only through its residues.

The lifting of :mod:`seprank.linalg.rational.dixon` reads the exact integer matrix; when its
entries are wide (hundreds of bits: the blocks of the moment form, whose entries are
products of weights) building that matrix, inverting it mod a word-size prime and
multiplying with it dominate the whole solve, while the kernel vectors themselves are
often small. Here the matrix A (m x n) is given as a function ``residues(q)`` returning
A mod q for any prime q < 2^21, and every exact quantity is kept small:

* the rank profile (rows R, columns C) is taken mod the lifting prime q, and M = A[R, C]
  is factored once mod q (:func:`seprank.linalg.engines.modular_lu.lu_factor_mod_p`, the numba LU);
* B = -A[R, F] (F the free columns) is read exactly by Chinese remaindering of its
  residues (r x |F| numbers, not r x n);
* each q-adic digit x = M^-1 R mod q is one forward and back substitution, and the exact
  residual update R <- (R - M x) / q takes M x exactly from its residues modulo product
  primes p_1..p_t (float64 products M_i x, exact as r (p-1)(q-1) < 2^53) by Chinese
  remaindering: |M x| <= r 2^b q, and prod p_i > 2 r 2^b (q + 1) (b: entry bits);
* early termination as in :mod:`seprank.linalg.rational.dixon`: two random combinations of the
  solution columns are rationally reconstructed at geometrically spaced digit counts; a
  common denominator found, every column is read off, and a Hadamard bound on Cramer's
  numerators and denominators caps the digits.

The vectors returned are in standard form (x_f = 1 on one free column, 0 on the others,
scaled to integers); nothing here proves them: the caller checks A x = 0 exactly (for the
moment route, :func:`seprank.separation.moment.blocks.verify_kernel` on every row).

References
----------
J. D. Dixon, "Exact solution of linear equations using p-adic expansions", Numer. Math.
40, 1982; Z. Chen, A. Storjohann, ISSAC 2005 (output-sensitive lifting); J. von zur
Gathen, J. Gerhard, Modern Computer Algebra, 3rd ed., secs. 5.4 (Chinese remaindering)
and 5.10 (rational reconstruction).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from math import gcd, isqrt, log2, prod

import numpy as np

from seprank.linalg.engines.modular_lu import lu_factor_mod_p, lu_solve_mod_p, rank_profile_mod_p
from seprank.linalg.rational.dixon import (
    LIMITS,
    LiftingStopped,
    check_limits,
    digit_schedule,
    reconstruct_column,
)
from seprank.scalars.primes import prev_prime

__all__ = ["kernel_from_residues", "LIFT_PRIME_CAP"]

#: Every prime here stays below 2^21: r (p - 1)(q - 1) < 2^53 for r < 2^11 keeps each
#: float64 product exact (larger r: smaller primes, chosen by :func:`_prime_cap`).
LIFT_PRIME_CAP = 2**21
#: Every this many digits without a reconstruction, the lifting checks that its worst case
#: (the Hadamard cap) still fits the time limit it runs under (:func:`_check_projection`).
PROJECT_EVERY = 16
#: ... and stops it once it has spent this share of the seconds left,
PROJECT_SHARE = 0.25
#: ... or at once when the worst case is this many times the seconds left: the kernel
#: would have to reconstruct before a quarter of the Hadamard cap's digits to end in
#: time, which a kernel of generic minors does not (L = 3, d_x = 3, H = 3's blocks 7 and
#: 8, 66 and 237 kernel vectors of 190-bit entries: 8 to 83 times the time left at
#: budgets of 120-600 s; stopped at digit 16 they cost 7-15 s each instead of 98-128 s).
HOPELESS_FACTOR = 4


def _prime_cap(r: int) -> int:
    """The largest prime bound P with r (P - 1)^2 < 2^53 (and P <= LIFT_PRIME_CAP)."""
    cap = LIFT_PRIME_CAP
    while r * (cap - 1) ** 2 >= 2**53:
        cap //= 2
    return cap


def _primes_below(start: int, count: int, avoid: set[int]) -> list[int]:
    out, q = [], start
    while len(out) < count:
        q = prev_prime(q)
        if q not in avoid:
            out.append(q)
    return out


def _crt(residues: list[np.ndarray], primes: list[int]) -> np.ndarray:
    """Symmetric integers (object array) with the given residues (Garner, vectorized)."""
    P = prod(primes)
    out = np.zeros(residues[0].shape, dtype=object)
    for r_i, p_i in zip(residues, primes, strict=True):
        Pi = P // p_i
        coef = Pi * pow(Pi % p_i, -1, p_i)
        out = out + r_i.astype(np.int64).astype(object) * coef
    out = out % P
    return np.where(out > P // 2, out - P, out)


def kernel_from_residues(residues: Callable[[int], np.ndarray], shape: tuple[int, int],
                         entry_bits: int, *, max_digits: int = 2**16,
                         rng: np.random.Generator | None = None
                         ) -> tuple[int, list[tuple[int, ...]]] | None:
    """(rank mod q, standard-form kernel vectors) of the m x n integer matrix A, or None.

    ``residues(q)``: A mod q (an m x n integer or float64 array of residues) for primes
    q < 2^21; ``entry_bits``: |A entries| < 2^entry_bits. The rank profile is taken mod
    the lifting prime; the vectors span the kernel of A if its rank over Q equals that
    rank (the caller's exact check decides; module docstring). None when the lifting
    reaches its Hadamard cap without a reconstruction.

    >>> A = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 5]])
    >>> kernel_from_residues(lambda q: A % q, A.shape, 3)
    (2, [(-5, 1, 1)])
    """
    m, n = shape
    rng = np.random.default_rng(0) if rng is None else rng
    cap = _prime_cap(max(min(m, n), 1))
    q = prev_prime(cap)
    Aq = np.asarray(residues(q), dtype=np.float64)
    r, rows, cols = rank_profile_mod_p(np.ascontiguousarray(Aq), q)
    free = [j for j in range(n) if j not in set(cols)]
    if not free:
        return r, []
    if r == 0:
        return 0, [tuple(int(i == f) for i in range(n)) for f in free]
    fac = lu_factor_mod_p(Aq[np.ix_(rows, cols)], q)
    if fac is None:                                           # pragma: no cover
        return None
    LU, perm = fac
    # product primes: prod > 2 r 2^b (q + 1) bounds |R - M x| (R <= r 2^b)
    need = entry_bits + log2(r) + log2(q + 1) + 2
    nprod = 1
    while sum(log2(p) for p in _primes_below(q, nprod, {q})) <= need:
        nprod += 1
    prods = _primes_below(q, nprod, {q})
    # B = -A[R, F] exactly, from residues mod enough primes for 2^(b + 1)
    nb = 1
    while sum(log2(p) for p in prods[:nb]) <= entry_bits + 2 and nb < len(prods):
        nb += 1
    mats = {p: np.asarray(residues(p), dtype=np.int64) for p in prods}
    Ms = [np.ascontiguousarray(mats[p][np.ix_(rows, cols)].astype(np.float64)) for p in prods]
    Bres = [(-mats[p][np.ix_(rows, free)]) % p for p in prods[:nb]]
    B = _crt(Bres, prods[:nb])
    del mats
    k = len(free)
    # Hadamard: numerators and denominators of x = -M^-1 A[R, f] are r x r minors
    minor_bits = r * (entry_bits + 0.5 * log2(max(r, 2)))
    cap_digits = min(max_digits, int((2 * minor_bits + log2(k + 1) + 24) / log2(q)) + 2)
    w = rng.integers(1, 2**20, size=(k, 2)).astype(object)
    R = B.copy()
    X = np.zeros((r, k), dtype=object)
    qpow = 1
    check = 2
    t_start = time.perf_counter()
    for digit in range(1, cap_digits + 1):
        check_limits(digit, r, k)
        if digit % PROJECT_EVERY == 0:
            _check_projection(digit, cap_digits, time.perf_counter() - t_start)
        x = lu_solve_mod_p(LU, perm, np.asarray(R % q, dtype=np.int64), q)
        xf = x.astype(np.float64)
        Mx = _crt([np.mod(Mi @ xf, p).astype(np.int64) for Mi, p in zip(Ms, prods, strict=True)],
                  prods)
        R = (R - Mx) // q
        X = X + x.astype(object) * qpow
        qpow *= q
        if digit < check and digit < cap_digits:
            continue
        check = digit_schedule(digit)
        vectors = _read_off(X, qpow, w, rows, cols, free, n)
        if vectors is not None:
            return r, vectors
    return None


def _check_projection(digit: int, cap: int, spent: float) -> None:
    """Stop a lifting whose worst case cannot end in the time left (dixon.lifting_limits):
    the Hadamard cap's remaining digits at the rate so far must fit what is left, else
    LiftingStopped, at once when they would take :data:`HOPELESS_FACTOR` times the time
    left, otherwise once the lifting has spent :data:`PROJECT_SHARE` of the seconds left
    with no reconstruction (rather than spending the whole budget on a lifting the limit
    would stop anyway; small kernels, the common structured case, reconstruct long before
    the first projection).

    >>> from seprank.linalg.rational.dixon import lifting_limits
    >>> with lifting_limits(10.0, 2**30):
    ...     _check_projection(16, 10_000, 1.0)
    Traceback (most recent call last):
    ...
    seprank.linalg.rational.dixon.LiftingStopped: lifting stopped at digit 16: ...
    >>> with lifting_limits(10.0, 2**30):
    ...     _check_projection(16, 100, 0.5)           # 2.6 s more: fits
    """
    limits = LIMITS.get()
    if limits is None:
        return
    deadline, _, seconds = limits
    left = deadline - time.perf_counter()
    projected = spent / digit * (cap - digit)
    if projected > HOPELESS_FACTOR * left or (projected > left and spent > PROJECT_SHARE * left):
        raise LiftingStopped(f"lifting stopped at digit {digit}: the Hadamard bound's {cap} "
                             f"digits would take about {projected:.0f} s more, {max(left, 0):.0f}"
                             f" s of the {seconds:.3g} s limit left")


def _read_off(X: np.ndarray, modulus: int, w: np.ndarray, rows, cols, free, n: int):
    """Integer standard-form vectors from X = -M^-1 B mod ``modulus``, or None."""
    Y = (X.dot(w)) % modulus
    ry = reconstruct_column([int(v) for v in Y[:, 0]], modulus)
    if ry is None:
        return None
    ry2 = reconstruct_column([int(v) for v in Y[:, 1]], modulus, ry[1])
    if ry2 is None:
        return None
    den = ry2[1]
    half = modulus // 2
    bound = isqrt(half)
    vectors = []
    for c, f in enumerate(free):
        col = [(int(v) * den) % modulus for v in X[:, c]]
        nums = [v - modulus if v > half else v for v in col]
        d = den
        if not all(-bound <= v <= bound for v in nums):
            res = reconstruct_column([int(v) for v in X[:, c]], modulus, den)
            if res is None:
                return None
            nums, d = res
        g = d
        for v in nums:
            g = gcd(g, v)
            if g == 1:
                break
        vec = [0] * n
        vec[f] = d // g
        for i, j in enumerate(cols):
            vec[j] = nums[i] // g
        vectors.append(tuple(vec))
    return vectors
