"""Rank profile over GF(p) by blocked elimination with delayed reduction.

Residues are held in float64. Trailing updates are matrix products done by
BLAS (numpy's ``@``) on exact integers: as long as every partial sum stays
below 2^53, float64 arithmetic is exact whatever order BLAS adds in. Reduction
mod p happens once per product, not once per multiply-add: this is
the delayed-reduction technique of FFLAS-FFPACK.

The bound
---------
Entries are kept in [0, p) after every reduction. A product of inner
dimension k then has partial sums of at most k (p-1)^2 in absolute value, and
adding the entry being updated gives at most k (p-1)^2 + (p-1). The engine
splits every product into inner chunks of

    k_max(p) = floor((2^53 - p) / (p - 1)^2)

so that this stays <= 2^53 - 1. For p < 2^20, k_max >= 8192 and no split is
needed in practice; at p ~ 2^26 it is 2 (still exact, much slower).
``MAX_PRIME`` = 2^26 is the largest accepted: beyond it k_max < 1.

The algorithm
-------------
A column-recursive LU (Toledo 1997) that skips columns with no pivot, so it
returns the *column rank profile* (the lexicographically first independent
columns, the pivot columns of the reduced row echelon form, as FLINT's
``nmod_mat_rref`` gives):

    elim(rows r0.., cols c0..c1):
        if narrow: eliminate column by column (numba kernel; first nonzero
            entry as pivot; whole-row swaps; multipliers stored in place)
        else: split the columns at the middle;
            k1 = elim(left half)
            U12 = L11^-1 A12                      (recursive TRSM, GEMM inside)
            A22 = A22 - L21 U12  mod p            (GEMM, delayed reduction)
            k2 = elim(right half, from row r0 + k1)

Invariants: every entry of the workspace is a residue in [0, p) between
calls (each product is reduced at once); after elim(r0, c0, c1) returns k,
rows r0..r0+k-1 hold U (pivot values at the pivot columns), the entries below each pivot hold the
multipliers of L, the non-pivot columns of [c0, c1) are zero below row r0+k,
and ``perm`` maps positions to original rows. Pivot rows (through ``perm``)
and pivot columns index a minor A[R, C] = L11 U11 that is nonsingular mod p.

References
----------
S. Toledo, "Locality of reference in LU decomposition with partial pivoting",
SIAM J. Matrix Anal. Appl. 18(4), 1997.
J.-G. Dumas, P. Giorgi, C. Pernet, "Dense linear algebra over word-size prime
fields: the FFLAS and FFPACK packages", ACM TOMS 35(3), 2008 (delayed reduction).
"""

from __future__ import annotations

import contextlib

import numba
import numpy as np

from seprank.errors import InputError, NotPrimeError
from seprank.linalg.memory import require_fits
from seprank.linalg.modkernels import mod_f64 as _mod
from seprank.scalars.primes import is_prime

__all__ = ["rank_profile_mod_p", "k_max", "MAX_PRIME", "DEFAULT_ENGINE_PRIME", "BASE_WIDTH"]

#: Largest prime accepted: for p > 2^26 no inner dimension >= 1 keeps products exact.
MAX_PRIME = 2**26
#: Default prime of this engine: the largest prime below 2^20 (k_max = 8192).
DEFAULT_ENGINE_PRIME = 1048573
#: Column blocks at most this wide are eliminated column by column in numba.
#: Narrow enough that the numba work (about n * m * BASE_WIDTH / 2 modular
#: multiply-adds) stays small beside BLAS; see benchmarks/rank_engines.py.
BASE_WIDTH = 32
_TWO53 = 2**53


def k_max(p: int) -> int:
    """Largest inner dimension k with k (p-1)^2 + (p-1) <= 2^53 - 1."""
    return (_TWO53 - p) // ((p - 1) ** 2)


@numba.njit(cache=True)
def _base_elim(A, perm, r0, c0, c1, p, pivcols, npiv):  # pragma: no cover - compiled
    """Column-by-column elimination of A[r0:, c0:c1]; returns the new pivot count.

    Entries are residues in [0, p) held in float64; every product of two
    residues is < 2^52 and exact, and is reduced at once.
    """
    m = A.shape[0]
    n = A.shape[1]
    pf = float(p)
    inv_p = 1.0 / pf
    r = r0
    for c in range(c0, c1):
        if r >= m:
            break
        piv = -1
        for i in range(r, m):
            if A[i, c] != 0.0:
                piv = i
                break
        if piv < 0:
            continue
        if piv != r:
            for j in range(n):
                t = A[r, j]
                A[r, j] = A[piv, j]
                A[piv, j] = t
            t2 = perm[r]
            perm[r] = perm[piv]
            perm[piv] = t2
        # inverse of the pivot by Fermat: pv^(p-2) mod p
        pv = A[r, c]
        inv = 1.0
        base = pv
        e = p - 2
        while e > 0:
            if e & 1:
                inv = _mod(inv * base, pf, inv_p)
            base = _mod(base * base, pf, inv_p)
            e >>= 1
        for i in range(r + 1, m):
            a = A[i, c]
            if a == 0.0:
                continue
            lmul = _mod(a * inv, pf, inv_p)
            A[i, c] = lmul
            for j in range(c + 1, c1):
                u = A[r, j]
                if u != 0.0:
                    A[i, j] = _mod(A[i, j] - lmul * u, pf, inv_p)
        pivcols[npiv] = c
        npiv += 1
        r += 1
    return npiv


@numba.njit(cache=True)
def _trsm_base(L, B, p):  # pragma: no cover - compiled
    """B <- L^-1 B mod p for unit lower-triangular L (small k), in place."""
    k = L.shape[0]
    w = B.shape[1]
    pf = float(p)
    inv_p = 1.0 / pf
    for i in range(1, k):
        for t in range(i):
            lv = L[i, t]
            if lv == 0.0:
                continue
            for j in range(w):
                B[i, j] = _mod(B[i, j] - lv * B[t, j], pf, inv_p)


@numba.njit(parallel=True, cache=True)
def _reduce_residues(src, dst, p):  # pragma: no cover - compiled
    """dst <- src mod p in [0, p); False if an entry is not an integer below 2^53."""
    m, n = src.shape
    pf = float(p)
    inv = 1.0 / pf
    ok = 0
    for i in numba.prange(m):
        bad = 0
        for j in range(n):
            x = src[i, j]
            if not (abs(x) < 9007199254740992.0) or x != np.floor(x):
                bad = 1
                dst[i, j] = 0.0
            else:
                dst[i, j] = _mod(x, pf, inv)
        ok += bad
    return ok == 0


def _sub_mod_impl(A, C, p):  # pragma: no cover - compiled
    """A <- (A - C) mod p in [0, p) (|A - C| < 2^53 by the k_max bound)."""
    m, n = A.shape
    pf = float(p)
    inv = 1.0 / pf
    for i in numba.prange(m):
        for j in range(n):
            A[i, j] = _mod(A[i, j] - C[i, j], pf, inv)


_sub_mod_serial = numba.njit(cache=True)(_sub_mod_impl)
_sub_mod_parallel = numba.njit(parallel=True, cache=True)(_sub_mod_impl)

#: Reductions of at least this many entries run on numba's threads (prange).
#: Below it, waking the threads costs more than the work: BLAS's threads are
#: still spinning after the product that came just before, and a parallel
#: launch then waited about 10 ms on 2 cores (measured, n = 2002 Omega matrix).
PARALLEL_REDUCTION_MIN = 4_000_000


def _sub_mod(A, C, p):
    if A.size >= PARALLEL_REDUCTION_MIN:
        _sub_mod_parallel(A, C, p)
    else:
        _sub_mod_serial(A, C, p)


#: Products below this many multiply-adds run BLAS on one thread. Waking BLAS's
#: threads for a small product cost about 15 ms each on a loaded 2-core machine
#: (measured: the n = 2002 Omega matrix took 0.79 s in products with 2 BLAS
#: threads, 0.13 s with 1); large products keep every thread.
BLAS_THREADS_MIN_MADDS = 50_000_000
_CONTROLLER = None


def _one_blas_thread():
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


def _gemm_sub(A22: np.ndarray, L21: np.ndarray, U12: np.ndarray, p: int, kmax: int) -> None:
    """A22 <- (A22 - L21 @ U12) mod p, in inner chunks of at most kmax (exact)."""
    m, k = L21.shape
    small = m * k * U12.shape[1] < BLAS_THREADS_MIN_MADDS
    ctx = _one_blas_thread() if small else contextlib.nullcontext()
    with ctx:
        for s in range(0, k, kmax):
            C = L21[:, s:s + kmax] @ U12[s:s + kmax, :]
            _sub_mod(A22, C, p)


def _trsm(L: np.ndarray, B: np.ndarray, p: int, kmax: int) -> None:
    """B <- L^-1 B mod p for unit lower-triangular L, recursive (GEMM inside)."""
    k = L.shape[0]
    if k <= BASE_WIDTH:
        _trsm_base(np.ascontiguousarray(L), B, p)
        return
    h = k // 2
    B1, B2 = B[:h], B[h:]
    _trsm(L[:h, :h], B1, p, kmax)
    _gemm_sub(B2, np.ascontiguousarray(L[h:, :h]), B1, p, kmax)
    _trsm(L[h:, h:], B2, p, kmax)


class _State:
    def __init__(self, A: np.ndarray, p: int):
        self.A = A
        self.p = p
        self.kmax = k_max(p)
        self.perm = np.arange(A.shape[0], dtype=np.int64)
        self.pivcols = np.empty(min(A.shape), dtype=np.int64)
        self.npiv = 0


def _elim(st: _State, r0: int, c0: int, c1: int) -> int:
    A, p = st.A, st.p
    m = A.shape[0]
    if r0 >= m or c0 >= c1:
        return 0
    if c1 - c0 <= BASE_WIDTH:
        before = st.npiv
        st.npiv = _base_elim(A, st.perm, r0, c0, c1, p, st.pivcols, st.npiv)
        return st.npiv - before
    mid = (c0 + c1) // 2
    start = st.npiv
    k1 = _elim(st, r0, c0, mid)
    if k1 > 0:
        cols = st.pivcols[start:start + k1]
        # L of the left half: gathered pivot columns; U12: pivot rows of the right half
        L11 = A[r0:r0 + k1, cols]
        U12 = A[r0:r0 + k1, mid:c1]
        U12c = np.ascontiguousarray(U12)
        _trsm(L11, U12c, p, st.kmax)
        U12[...] = U12c
        if r0 + k1 < m:
            L21 = np.ascontiguousarray(A[r0 + k1:, cols])
            _gemm_sub(A[r0 + k1:, mid:c1], L21, U12c, p, st.kmax)
    k2 = _elim(st, r0 + k1, mid, c1)
    return k1 + k2


def rank_profile_mod_p(matrix: np.ndarray, p: int = DEFAULT_ENGINE_PRIME, *,
                       overwrite: bool = False) -> tuple[int, list[int], list[int]]:
    """Rank of ``matrix`` mod p with pivot rows and the column rank profile.

    Parameters
    ----------
    matrix : numpy array of integers (any size; reduced mod p) or float64
        residues (exact integers of absolute value < p).
    p : prime < 2^26.
    overwrite : reuse a float64 C-contiguous input as workspace.

    Returns
    -------
    (r, rows, cols): r = rank over GF(p); ``cols`` the column rank profile
    (lexicographically first independent columns); ``rows`` original row
    indices such that matrix[rows, cols] is nonsingular mod p.

    Examples
    --------
    >>> import numpy as np
    >>> rank_profile_mod_p(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 101)
    (2, [0, 2], [0, 1])
    """
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not is_prime(int(p)):
        raise NotPrimeError(f"{p!r} is not prime")
    p = int(p)
    if p > MAX_PRIME:
        raise NotPrimeError(f"prime {p} is above this engine's limit 2^26 (delayed reduction "
                            "in float64 needs k (p-1)^2 < 2^53)")
    if not isinstance(matrix, np.ndarray) or matrix.ndim != 2:
        raise InputError("the modular LU engine takes a 2-dimensional numpy array")
    m, n = matrix.shape
    if m == 0 or n == 0:
        return 0, [], []
    if matrix.dtype == np.float64:
        if overwrite and matrix.flags.c_contiguous:
            A = matrix
        else:
            require_fits(2 * m * n * 8, f"the {m} x {n} float64 workspace")
            A = np.empty((m, n), dtype=np.float64)
        if not _reduce_residues(matrix, A, p):
            raise InputError("float64 input to the modular engine must hold exact integers "
                             "(residues) of absolute value < 2^53")
    elif matrix.dtype.kind in "iu":
        require_fits(3 * m * n * 8, f"the {m} x {n} float64 workspace")
        A = np.ascontiguousarray((matrix % p).astype(np.float64))
    elif matrix.dtype.kind == "O":
        require_fits(3 * m * n * 8, f"the {m} x {n} float64 workspace")
        A = np.array([[int(x) % p for x in row] for row in matrix], dtype=np.float64)
    else:
        raise InputError(f"dtype {matrix.dtype} is not an integer type")
    st = _State(A, p)
    r = _elim(st, 0, 0, n)
    cols = [int(c) for c in st.pivcols[:r]]
    rows = [int(i) for i in st.perm[:r]]
    return r, rows, cols
