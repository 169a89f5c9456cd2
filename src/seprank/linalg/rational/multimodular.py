"""Exact rank over Q from several primes: a lower bound mod p, kernel vectors by p-adic lifting.

For an integer matrix A (m x n) whose rank may be below min(m, n):

1. Rank mod a prime (a certified lower bound r, with a minor A[R, C] that is
   nonsingular mod p: the lower certificate). A further prime (up to
   ``rank_primes``) is used only when step 4 fails, i.e. when the first prime
   was unlucky (or, as a cheap cross-check, when r = min(m, n) or r = 0); the
   prime with the largest rank is kept.
2. If r = min(m, n), the rank is exact. Otherwise build the kernel in standard
   form: for each non-pivot column f, x_f = 1 and x_C = -A[R, C]^-1 A[R, f].
   The solve is done by p-adic lifting (Dixon): one inverse of A[R, C] mod q,
   then each step solves for the next q-adic digit and divides the residual
   by q exactly. When the entries are small enough (the usual case) the
   digits are computed with float64 BLAS products: q < 2^21 is chosen with
   r (q-1)^2 < 2^53, so M^-1 mod q times the residual mod q is exact in
   float64 (delayed reduction), and the exact residual update
   (R - M x) / q is done with M split into float64-exact chunks, summed
   modulo 2^64 and divided by q as multiplication by q^-1 mod 2^64 (exact
   division: the true quotient is bounded by max(|B|, r |M|) < 2^62, so its
   residue mod 2^64 determines it). Larger entries use the same loop with
   FLINT integer matrices.
3. Early termination (output-sensitive lifting): the lifting also tracks two
   random combinations y = X w of the solution columns; at geometrically
   spaced digit counts (and at a float64 estimate from log|det M|) they are
   rationally reconstructed. Once that succeeds, their common denominator d
   is taken for all columns: the numerators d X are read off as symmetric
   residues from only as many digits as y's numerators need (about half of
   those needed for reconstruction), and if the exact check fails, all
   columns are reconstructed from all digits (vector rational
   reconstruction, starting from d). A Hadamard bound on numerators and
   denominators (Cramer's rule) caps the digits: past it, the prime of step 1
   was unlucky.
4. Verify A x = 0 exactly (integer matrix product) for the reconstructed
   vectors. n - r independent kernel vectors prove rank <= r: with the lower
   bound, the rank is exact. (The certificate is then re-checkable by
   :func:`seprank.verify`, which shares no code with this module.)

If every prime so far was unlucky (rank over Q larger than r), no such kernel
exists, step 4 keeps failing, and the answer stays a lower bound; the result
says which primes were used.

The left kernel is used instead when m < n (fewer vectors).

References
----------
J. D. Dixon, "Exact solution of linear equations using p-adic expansions",
Numer. Math. 40, 1982. J. von zur Gathen, J. Gerhard, Modern Computer Algebra, 3rd ed., ch. 5
(Chinese remaindering, rational reconstruction); H. Cohen, A Course in
Computational Algebraic Number Theory, Alg. 2.3.1 (kernel from echelon form).
Z. Chen, A. Storjohann, "A BLAS based C library for exact linear algebra on
integer matrices", ISSAC 2005 (float64 BLAS digits with delayed reduction,
output-sensitive lifting); J.-G. Dumas, T. Gautier, C. Pernet, "Finite field
linear algebra subroutines", ISSAC 2002 (exact float64 products mod p).
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

import flint
import numpy as np
from threadpoolctl import threadpool_limits

from seprank.linalg.certificates import LowerBoundCertificate, UpperBoundCertificate
from seprank.linalg.engines import get_engine
from seprank.linalg.engines.flint_engine import reduce_mod_p
from seprank.linalg.engines.protocol import RESIDUES, ModularEngine
from seprank.linalg.modarith import NUMBA_DEFAULT_PRIME
from seprank.linalg.rational.dixon import dixon_fast, dixon_flint
from seprank.linalg.rational.kernel_check import blas_threads, kernel_is_zero
from seprank.linalg.rational.kernel_check import kernel_is_zero_blas as _verified_blas  # noqa: F401
from seprank.scalars.primes import prev_prime

__all__ = ["MultimodularResult", "rank_multimodular"]

#: The rank phase's first prime when none is given: the numba engine's default prime
#: (1048573, below 2^20: its fast range, where the float64 LU needs no reduction inside
#: products of inner dimension up to 8192). The planner passes a random prime from the
#: fast range of the engine it chose instead (seprank.linalg.planner.engine_primes).
FIRST_PRIME = NUMBA_DEFAULT_PRIME
#: Primes for the FLINT lifting (entries too large for the float64 path): word-size,
#: so that each digit carries ~62 bits.
LIFTING_PRIMES = (4611686018427387847, 4611686018427387817, 4611686018427387787)
#: Upper limit on p-adic digits of the kernel solve before giving up (the
#: Hadamard bound usually stops it much earlier).
DEFAULT_MAX_DIGITS = 2**16
#: Digit products r x r x k below this many multiply-adds run on one BLAS thread.
_SMALL_GEMM = 2**26


@dataclass
class MultimodularResult:
    """Rank over Q, whether it is exact, both certificates and the primes used.

    ``exact`` is True only when the upper-bound certificate (kernel vectors
    verified by an exact product) meets the lower bound. ``primes``: the primes
    of the rank phase, in order, then the lifting prime of the kernel vectors
    when they were found; ``rank_phase``: (prime, rank mod prime) of the rank phase.

    Examples
    --------
    >>> import flint
    >>> res = rank_multimodular(flint.fmpz_mat([[1, 2], [2, 4]]))
    >>> res.rank, res.exact, len(res.upper.vectors)     # one kernel vector, e.g. (-2, 1)
    (1, True, 1)
    >>> res.rank_phase == [(FIRST_PRIME, 1)], len(res.primes)  # and the lifting prime
    (True, 2)
    """

    rank: int
    exact: bool
    lower: LowerBoundCertificate
    upper: UpperBoundCertificate | None
    primes: list[int] = field(default_factory=list)
    rank_phase: list[tuple[int, int]] = field(default_factory=list)


def _as_int64(z: flint.fmpz_mat) -> np.ndarray | None:
    """The entries of ``z`` as an int64 array, or None if one needs more than 62 bits."""
    m, n = z.nrows(), z.ncols()
    try:
        arr = np.array([int(x) for x in z.entries()], dtype=np.int64).reshape(m, n)
    except OverflowError:
        return None
    if arr.size and int(np.abs(arr).max()) >= 2**62:
        return None
    return arr


def _int64_input(z: np.ndarray) -> np.ndarray | None:
    """An integer numpy array as int64 without a copy where it is one (None: an entry
    needs 62 bits or more, so the exact path takes it)."""
    if z.dtype.kind == "u" and z.dtype.itemsize == 8 and z.size and int(z.max()) >= 2**62:
        return None
    arr = z.astype(np.int64, copy=False)
    if arr.size and (int(arr.max()) >= 2**62 or int(arr.min()) <= -(2**62)):
        return None
    return arr


def _exact(A, Aint: np.ndarray) -> flint.fmpz_mat:
    """The ``fmpz_mat`` of the matrix, made from the int64 array only when first needed."""
    return A if A is not None else flint.fmpz_mat(Aint.tolist())


def _rank_mod(z: flint.fmpz_mat | None, zint: np.ndarray | None, p: int,
              engine: ModularEngine):
    """The rank profile of z mod p on ``engine``, given in the form it reads (float64
    residues, its workspace, for an engine that reads residues; else an ``nmod_mat``).
    ``z`` may be None when ``zint`` holds the matrix."""
    if engine.takes == RESIDUES:
        if zint is not None:
            arr = (zint % p).astype(np.float64, order="C")
        else:
            m, n = z.nrows(), z.ncols()
            arr = np.array([int(x) % p for x in z.entries()], dtype=np.float64).reshape(m, n)
        data = arr
    elif z is None:
        m, n = zint.shape
        data = flint.nmod_mat(m, n, (zint % p).ravel().tolist(), p)
    else:
        data = reduce_mod_p(z, p)
    r, rows, cols = engine.rank_profile(data, p, overwrite=True)
    return r, list(rows), list(cols)


def rank_multimodular(z: flint.fmpz_mat | np.ndarray, *, max_digits: int = DEFAULT_MAX_DIGITS,
                      rank_primes: int = 2, engine: str = "numba",
                      seed: int | None = 0, first_prime: int | None = None
                      ) -> MultimodularResult:
    """Rank of the integer matrix ``z`` over Q by the multi-modular method.

    Steps and references: see the module docstring (rank mod primes for the
    lower bound; Dixon p-adic lifting with float64 BLAS digits and rational
    reconstruction for the kernel; exact verification for the upper bound).
    ``seed`` fixes the random combination used for early termination (it
    affects only speed, never the answer). ``first_prime`` (a prime the engine
    takes; default ``FIRST_PRIME``) starts the rank phase: ``seprank.rank``'s
    ``auto`` passes a random one, which no input can be built to fool.
    ``engine`` (a name in :data:`seprank.linalg.engines.REGISTRY`) takes the
    rank phase; the default, numba, is the engine it was measured with (the
    planner passes the one the engines choose for the matrix). ``z`` may be a 2-D
    integer numpy array with entries below 2^62: it is read as it is, and an
    ``fmpz_mat`` copy is made only if a step needs one (the FLINT lifting, an exact check
    past float64), so that memory follows the work (issue 23 item 3).

    Examples
    --------
    >>> import flint
    >>> # Third row = first + second, so the rank over Q is 2 (and the answer is exact).
    >>> res = rank_multimodular(flint.fmpz_mat([[1, 0, 2], [0, 1, 3], [1, 1, 5]]))
    >>> res.rank, res.exact, res.primes[0] == FIRST_PRIME
    (2, True, True)
    """
    A, Aint, transpose, (m, n) = _oriented(z)
    blas_threads()
    eng = get_engine(engine)
    rng = np.random.default_rng(seed)
    primes: list[int] = []
    ranks: list[tuple[int, int]] = []
    best = None
    lifted: set[int] = set()  # ranks for which the kernel was already sought
    p = FIRST_PRIME if first_prime is None else first_prime
    for i in range(max(rank_primes, 1)):
        r, rows, cols = _rank_mod(A, Aint, p, eng)
        primes.append(p)
        ranks.append((p, r))
        if best is None or r > best[0]:
            best = (r, rows, cols, p)
        p = prev_prime(p)
        r, rows, cols, p_best = best
        if (r == min(m, n) or r == 0) and i + 1 < rank_primes:
            continue  # cheap cases: the other primes are recorded as a cross-check
        if r == min(m, n):
            lower = _lower(rows, cols, p_best, transpose)
            return MultimodularResult(r, True, lower,
                                      UpperBoundCertificate(bound=r, side="trivial"), primes,
                                      ranks)
        if r in lifted:  # this prime agrees with an earlier one: nothing new to lift
            continue
        lifted.add(r)
        found = _kernel(A, Aint, r, rows, cols, n, max_digits, rng)
        if found is not None:
            vectors, q = found
            if q is not None:
                primes.append(q)
            free = [j for j in range(n) if j not in set(cols)]
            upper = UpperBoundCertificate(bound=r, side="left" if transpose else "right",
                                          vectors=tuple(tuple(v) for v in vectors),
                                          pivots=tuple(free))
            return MultimodularResult(r, True, _lower(rows, cols, p_best, transpose),
                                      upper, primes, ranks)
    r, rows, cols, p_best = best
    return MultimodularResult(r, False, _lower(rows, cols, p_best, transpose), None, primes,
                              ranks)


def _oriented(z):
    """(A, its int64 copy or None, transposed?, shape): ``z`` with at least as many rows
    as columns (the kernel of A's columns is the left kernel of ``z`` when transposed)."""
    if isinstance(z, np.ndarray) and _int64_input(z) is None:
        z = flint.fmpz_mat(z.tolist())
    if isinstance(z, np.ndarray):
        zint = _int64_input(z)
        transpose = zint.shape[0] < zint.shape[1]
        Aint = zint.T if transpose else zint
        A, (m, n) = None, Aint.shape
        if not m * n:
            A = _exact(None, Aint)
        return A, Aint, transpose, (m, n)
    transpose = z.nrows() < z.ncols()
    A = z.transpose() if transpose else z
    m, n = A.nrows(), A.ncols()
    return A, (_as_int64(A) if m * n else None), transpose, (m, n)


def _lower(rows, cols, p: int, transpose: bool) -> LowerBoundCertificate:
    lower_rows, lower_cols = (cols, rows) if transpose else (rows, cols)
    return LowerBoundCertificate(prime=p, rows=tuple(lower_rows), cols=tuple(lower_cols))


def _kernel(A, Aint, r, rows, cols, n, max_digits, rng):
    """(kernel vectors, lifting prime or None) for the rank profile (rows, cols), or None."""
    pivset = set(cols)
    free = [j for j in range(n) if j not in pivset]
    if r == 0:  # the zero matrix (if the prime is right): the unit vectors span the kernel
        vectors = [[int(i == f) for i in range(n)] for f in free]
        return (vectors, None) if kernel_is_zero(A, vectors, n, Aint) else None
    if Aint is not None:
        # small products: BLAS threads cost more than they save (measured)
        small = r * r * len(free) < _SMALL_GEMM
        with threadpool_limits(limits=1, user_api="blas") if small else nullcontext():
            fast = dixon_fast(A, Aint, rows, cols, free, max_digits, rng)
        if fast != "slow":
            return fast
    A = _exact(A, Aint)
    for q in LIFTING_PRIMES:
        vectors = dixon_flint(A, rows, cols, free, q, max_digits, rng)
        if vectors is not None:
            return vectors, q
    return None
