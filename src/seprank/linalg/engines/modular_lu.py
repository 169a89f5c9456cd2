"""Rank profile over GF(p) by blocked elimination with delayed reduction.

Residues are held in float64. Trailing updates are matrix products done by
BLAS on exact integers: as long as every partial sum stays below 2^53,
float64 arithmetic is exact whatever order BLAS adds in. Reduction mod p
happens once per entry and per use, not once per multiply-add: this is the
delayed-reduction technique of FFLAS-FFPACK (Dumas, Giorgi, Pernet 2008).

The bound
---------
Every operand of a product (a multiplier of L, an entry of U) is a residue
in [0, p). An entry that starts in [0, p) and has taken t products of two
residues since it was last reduced is at most t (p-1)^2 + (p-1) in absolute
value, and so is every partial sum BLAS forms on the way. This stays
<= 2^53 - 1 as long as t <= k_max(p), with

    k_max(p) = floor((2^53 - p) / (p - 1)^2).

For p < 2^20, k_max >= 8192; at p ~ 2^26 it is 2 (still exact, much slower).
``MAX_PRIME`` = 2^26 is the largest accepted: beyond it k_max < 1.

Two regimes (``_State.lazy``). An entry takes at most one product per pivot
found before its own column is eliminated, so at most rank <= min(m, n) in
all. If min(m, n) <= k_max(p) (every n <= 8192 at the default prime), no
product is reduced at all: entries are reduced only when they become
operands, in the panel kernel and in the right-hand side of a TRSM.
Otherwise every product is split into inner chunks of at most k_max(p) and
the updated block is reduced after each, so that entries are residues
between calls; the panel kernel then reduces at least every k_max(p) steps.

The algorithm
-------------
A column-recursive LU (Toledo 1997) that skips columns with no pivot, so it
returns the *column rank profile* (the lexicographically first independent
columns, the pivot columns of the reduced row echelon form, as FLINT's
``nmod_mat_rref`` gives):

    elim(rows r0.., cols c0..c1):
        if c1 - c0 <= BASE_WIDTH: eliminate the panel column by column
            (numba kernel on a transposed copy of the panel; first nonzero
            entry as pivot; multipliers stored in place; row swaps applied to
            the rest of the rows after the panel)
        else: split the columns at a multiple of BASE_WIDTH near the middle;
            k1 = elim(left half)
            U12 = L11^-1 A12                      (recursive TRSM, GEMM inside)
            A22 = A22 - L21 U12                   (GEMM, delayed reduction)
            k2 = elim(right half, from row r0 + k1)
            move the k2 pivot columns of the right half next to the k1 of the left

The products go to BLAS on views of the workspace, with no copies: where
numpy's BLAS exposes ``cblas_dgemm`` (numpy's wheels bundle OpenBLAS) it is
called through ctypes with beta = 1, A22 <- A22 - L21 U12 in one pass;
otherwise numpy's ``@`` writes into a reused buffer and a numba pass
subtracts it.

Invariants: after elim(r0, c0, c1) returns k, the k pivot columns of the
block, reduced, are stored compactly in columns c0..c0+k-1 from row r0 down:
rows r0..r0+k-1 hold U (pivot values on the diagonal), the entries below
each pivot hold the multipliers of L; the other columns of the block are
dead (never read again). ``perm`` maps positions to original rows and
``pivcols`` holds the original indices of the pivot columns. Pivot rows
(through ``perm``) and pivot columns index a minor A[R, C] = L11 U11 that is
nonsingular mod p (the certificate of the rank's lower bound).

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
from seprank.linalg.engines.blas_dgemm import BLAS_THREADS_MIN_MADDS
from seprank.linalg.engines.blas_dgemm import cblas_dgemm as _cblas_dgemm
from seprank.linalg.engines.blas_dgemm import dgemm_call as _dgemm_call
from seprank.linalg.engines.blas_dgemm import one_blas_thread as _one_blas_thread
from seprank.linalg.engines.modkernels import mod_f64 as _mod
from seprank.linalg.memory import require_fits
from seprank.linalg.modarith import NUMBA_DEFAULT_PRIME, NUMBA_MAX_PRIME, k_max, residues_int64
from seprank.scalars.primes import is_prime

__all__ = ["rank_profile_mod_p", "lu_factor_mod_p", "lu_solve_mod_p", "k_max", "MAX_PRIME",
           "DEFAULT_ENGINE_PRIME", "BASE_WIDTH"]

#: Largest prime accepted: for p > 2^26 no inner dimension >= 1 keeps products exact.
MAX_PRIME = NUMBA_MAX_PRIME
#: Default prime of this engine: the largest prime below 2^20 (k_max = 8192).
DEFAULT_ENGINE_PRIME = NUMBA_DEFAULT_PRIME
#: Column blocks at most this wide are eliminated column by column in numba.
#: Narrow enough that the numba work (about n * m * BASE_WIDTH / 4
#: multiply-adds, vectorised) stays small beside BLAS; see
#: benchmarks/rank_engines.py.
BASE_WIDTH = 32
_TWO53 = 2**53


@numba.njit(cache=True)
def _base_elim(A, T, perm, r0, c0, c1, p, kmax, reduced, pivcols,
               npiv):  # pragma: no cover - compiled
    """Column-by-column elimination of the panel A[r0:, c0:c1]; returns the new pivot count.

    The panel is first copied, transposed, into the workspace ``T`` (at least
    (c1 - c0) (m - r0) entries), so that a column is a contiguous vector: the
    pivot search, the multipliers and the updates (an axpy per column) run
    over contiguous memory and vectorise, and the panel stays in cache
    (working on it inside the row-major matrix costs a TLB miss per row per
    step). Pivot: the first nonzero entry of the column. Row swaps are applied
    to the panel at once and to the rest of the rows of A at the end, in the
    same order.

    Delayed reduction: an update subtracts a product l * u of two residues
    (< 2^52, exact) and is not reduced; an entry is reduced when its column
    becomes the pivot column, when its row becomes the pivot row, or after
    ``kmax`` = k_max(p) unreduced steps, so that it stays below
    kmax (p-1)^2 + (p-1) <= 2^53 - 1 in absolute value. With ``reduced``
    False the panel may come in unreduced (the caller guarantees that the
    products it took plus those taken here are at most k_max(p)).

    On return the k pivot columns of the panel, reduced, are stored compactly
    in A[r0:, c0:c0 + k] (L below the pivot row, U above); the other columns of
    the panel are dead.

    Long because it is one compiled loop nest: its steps (copy in, pivot
    search, scaling, update, reduction, swaps, copy out) share the panel's
    indices and the per-entry counts of unreduced steps, so splitting it would
    pass that state between compiled calls inside the panel loop; it stays
    whole, as it was measured (benchmarks/README.md, rank_engines.py).
    """
    m = A.shape[0]
    n = A.shape[1]
    mm = m - r0
    w = c1 - c0
    P = T[:w * mm].reshape((w, mm))
    for i in range(mm):
        for j in range(w):
            P[j, i] = A[r0 + i, c0 + j]
    pf = float(p)
    inv_p = 1.0 / pf
    swap_r = np.empty(w, dtype=np.int64)
    swap_p = np.empty(w, dtype=np.int64)
    nsw = 0
    r = 0
    before = npiv
    pending = 0 if reduced else 1
    for jc in range(w):
        if r >= mm:
            break
        col = P[jc]
        if pending > 0:
            cr = col[r:]
            for i in range(cr.shape[0]):
                cr[i] = _mod(cr[i], pf, inv_p)
        piv = -1
        for i in range(r, mm):
            if col[i] != 0.0:
                piv = i
                break
        if piv < 0:
            continue
        if piv != r:
            for j in range(w):
                t = P[j, r]
                P[j, r] = P[j, piv]
                P[j, piv] = t
            t2 = perm[r0 + r]
            perm[r0 + r] = perm[r0 + piv]
            perm[r0 + piv] = t2
            swap_r[nsw] = r
            swap_p[nsw] = piv
            nsw += 1
        if pending > 0:
            for j in range(jc + 1, w):
                P[j, r] = _mod(P[j, r], pf, inv_p)
        # inverse of the pivot by Fermat: pv^(p-2) mod p
        pv = col[r]
        inv = 1.0
        base = pv
        e = p - 2
        while e > 0:
            if e & 1:
                inv = _mod(inv * base, pf, inv_p)
            base = _mod(base * base, pf, inv_p)
            e >>= 1
        # multipliers (the column of L), in place; loops over slices from 0
        # (a loop index known to be >= 0 lets numba drop the wraparound
        # check, and LLVM then vectorises)
        lc = col[r + 1:]
        for i in range(lc.shape[0]):
            lc[i] = _mod(lc[i] * inv, pf, inv_p)
        updated = False
        for j in range(jc + 1, w):
            u = P[j, r]
            if u == 0.0:
                continue
            cj = P[j, r + 1:]
            for i in range(cj.shape[0]):
                cj[i] -= u * lc[i]
            updated = True
        if updated:
            pending += 1
            if pending >= kmax:
                for j in range(jc + 1, w):
                    cj = P[j, r + 1:]
                    for i in range(cj.shape[0]):
                        cj[i] = _mod(cj[i], pf, inv_p)
                pending = 0
        pivcols[npiv] = c0 + jc
        npiv += 1
        r += 1
    # the pivot columns back, compacted to the left of the panel
    k = npiv - before
    for i in range(mm):
        for t in range(k):
            A[r0 + i, c0 + t] = P[pivcols[before + t] - c0, i]
    # the swaps, in order, on the rest of the rows
    for s in range(nsw):
        ra = r0 + swap_r[s]
        rb = r0 + swap_p[s]
        for j in range(c0):
            t = A[ra, j]
            A[ra, j] = A[rb, j]
            A[rb, j] = t
        for j in range(c1, n):
            t = A[ra, j]
            A[ra, j] = A[rb, j]
            A[rb, j] = t
    return npiv


@numba.njit(cache=True)
def _trsm_base(A, lr, lc, k, br, bc, w, p, kmax):  # pragma: no cover - compiled
    """B <- L^-1 B mod p in place, L = A[lr:lr+k, lc:lc+k] unit lower triangular
    (small k), B = A[br:br+k, bc:bc+w].

    Row i of B takes i updates B[i] -= L[i, t] B[t] with B[t] already reduced;
    they are accumulated unreduced, at most ``kmax`` at a time (exact by the
    k_max bound), and row i is reduced once after them. B may come in
    unreduced (lazy state) and holds residues on return. A is passed whole
    (C-contiguous) so that rows of B are contiguous and the loops vectorise.
    """
    pf = float(p)
    inv_p = 1.0 / pf
    for i in range(k):
        bi = A[br + i, bc:bc + w]
        cnt = 0
        for t in range(i):
            lv = A[lr + i, lc + t]
            if lv == 0.0:
                continue
            bt = A[br + t, bc:bc + w]
            for j in range(w):
                bi[j] -= lv * bt[j]
            cnt += 1
            if cnt >= kmax:
                for j in range(w):
                    bi[j] = _mod(bi[j], pf, inv_p)
                cnt = 0
        for j in range(w):
            bi[j] = _mod(bi[j], pf, inv_p)


@numba.njit(cache=True)
def _move_columns(A, r0, dst, src):  # pragma: no cover - compiled
    """A[r0:, dst + t] <- A[r0:, src[t]] for increasing src[t] >= dst + t (in place)."""
    m = A.shape[0]
    k = src.shape[0]
    for i in range(r0, m):
        for t in range(k):
            A[i, dst + t] = A[i, src[t]]


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


def _sub_mod_impl(A, r, c, C, p):  # pragma: no cover - compiled
    """A[r:r+m, c:c+w] <- (A[r:r+m, c:c+w] - C) mod p in [0, p), C of shape (m, w)
    (|A - C| < 2^53 by the k_max bound)."""
    m, w = C.shape
    pf = float(p)
    inv = 1.0 / pf
    for i in numba.prange(m):
        a = A[r + i, c:c + w]
        ci = C[i]
        for j in range(w):
            a[j] = _mod(a[j] - ci[j], pf, inv)


_sub_mod_serial = numba.njit(cache=True)(_sub_mod_impl)
_sub_mod_parallel = numba.njit(parallel=True, cache=True)(_sub_mod_impl)


def _sub_impl(A, r, c, C, p):  # pragma: no cover - compiled
    """A[r:r+m, c:c+w] <- A[r:r+m, c:c+w] - C without reduction (lazy state:
    |A - C| < 2^53 by the k_max bound); p unused."""
    m, w = C.shape
    for i in numba.prange(m):
        a = A[r + i, c:c + w]
        ci = C[i]
        for j in range(w):
            a[j] -= ci[j]


_sub_serial = numba.njit(cache=True)(_sub_impl)
_sub_parallel = numba.njit(parallel=True, cache=True)(_sub_impl)


def _reduce_impl(A, r, c, m, w, p):  # pragma: no cover - compiled
    """A[r:r+m, c:c+w] <- A[r:r+m, c:c+w] mod p in [0, p) (exact integers < 2^53)."""
    pf = float(p)
    inv = 1.0 / pf
    for i in numba.prange(m):
        a = A[r + i, c:c + w]
        for j in range(w):
            a[j] = _mod(a[j], pf, inv)


_reduce_serial = numba.njit(cache=True)(_reduce_impl)
_reduce_parallel = numba.njit(parallel=True, cache=True)(_reduce_impl)

#: Reductions of at least this many entries run on numba's threads (prange).
#: Below it, waking the threads costs more than the work: BLAS's threads are
#: still spinning after the product that came just before, and a parallel
#: launch then waited about 10 ms on 2 cores (measured, n = 2002 Omega matrix).
PARALLEL_REDUCTION_MIN = 4_000_000


def _par(serial, parallel, size: int):
    return parallel if size >= PARALLEL_REDUCTION_MIN else serial


class _State:
    """Workspace and bookkeeping of one elimination.

    ``lazy``: every entry of A takes, over the whole elimination, at most one
    product of two residues per pivot found before its column is eliminated,
    so at most rank <= min(m, n) of them. If min(m, n) <= k_max(p) the sum
    stays exact (< 2^53) without any intermediate reduction, and entries are
    reduced only when they are used as operands: in a panel (``_base_elim``)
    or as the right-hand side of a TRSM. Otherwise every product is split into
    inner chunks of k_max(p) and reduced after each, and entries are residues
    between calls.
    """

    def __init__(self, A: np.ndarray, p: int, use_cblas: bool = True):
        m, n = A.shape
        self.A = A
        self.p = p
        self.kmax = k_max(p)
        self.perm = np.arange(m, dtype=np.int64)
        self.pivcols = np.empty(min(m, n), dtype=np.int64)
        self.npiv = 0
        self.lazy = min(m, n) <= self.kmax
        self.panel = np.empty(m * min(BASE_WIDTH, n), dtype=np.float64)
        self.dgemm = _cblas_dgemm() if use_cblas else None
        self.buf = None  # product buffer of the numpy path, grown on demand

    def product_buffer(self, size: int) -> np.ndarray:
        if self.buf is None or self.buf.size < size:
            # the largest product is the first: (m - k1) x (n - mid) at the top
            m, n = self.A.shape
            self.buf = np.empty(max(size, m * (n - _split(n)) if n > BASE_WIDTH else 0))
        return self.buf


def _gemm_sub(st: _State, r: int, c: int, L21: np.ndarray, U12: np.ndarray) -> None:
    """A22 <- A22 - L21 @ U12 for A22 = A[r:r+m, c:c+w]: exact; reduced mod p
    unless ``st.lazy``.

    L21 and U12 (views of A, disjoint from A22) hold residues. Unless the
    state is lazy, the product is split into inner chunks of at most k_max(p)
    and A22 is reduced after each, so it holds residues again. BLAS gets the
    views as they are (unit column stride): cblas_dgemm with beta = 1 where
    available, else numpy's ``@`` into a reused buffer and a pass A22 -= C.
    """
    A = st.A
    m, k = L21.shape
    w = U12.shape[1]
    if m == 0 or w == 0:
        return
    small = m * k * w < BLAS_THREADS_MIN_MADDS
    ctx = _one_blas_thread() if small else contextlib.nullcontext()
    step = k if st.lazy else st.kmax
    with ctx:
        for s in range(0, k, step):
            L, U = L21[:, s:s + step], U12[s:s + step, :]
            if st.dgemm is not None:
                _dgemm_call(st.dgemm, A[r:r + m, c:c + w], L, U)
                if not st.lazy:
                    _par(_reduce_serial, _reduce_parallel, m * w)(A, r, c, m, w, st.p)
            else:
                C = st.product_buffer(m * w)[:m * w].reshape(m, w)
                np.matmul(L, U, out=C)
                sub = (_sub_serial, _sub_parallel) if st.lazy else (_sub_mod_serial,
                                                                     _sub_mod_parallel)
                _par(*sub, m * w)(A, r, c, C, st.p)


def _trsm(st: _State, lr: int, lc: int, k: int, br: int, bc: int, w: int) -> None:
    """B <- L^-1 B mod p in place, L = A[lr:lr+k, lc:lc+k] unit lower triangular,
    B = A[br:br+k, bc:bc+w]; recursive, GEMM inside.

    L holds residues; B may be unreduced in the lazy state. B holds residues
    on return.
    """
    if k <= BASE_WIDTH:
        _trsm_base(st.A, lr, lc, k, br, bc, w, st.p, st.kmax)
        return
    A = st.A
    h = _split(k)
    _trsm(st, lr, lc, h, br, bc, w)
    _gemm_sub(st, br + h, bc, A[lr + h:lr + k, lc:lc + h], A[br:br + h, bc:bc + w])
    _trsm(st, lr + h, lc + h, k - h, br + h, bc, w)


def _split(w: int) -> int:
    """Width of the left half of a block of w > BASE_WIDTH columns: a multiple of
    BASE_WIDTH near w / 2, so that the leaves are BASE_WIDTH wide."""
    blocks = -(-w // BASE_WIDTH)
    return BASE_WIDTH * ((blocks + 1) // 2)


def _elim(st: _State, r0: int, c0: int, c1: int) -> int:
    """Eliminate A[r0:, c0:c1]; return the number k of pivots found.

    On return the k pivot columns (original indices in ``st.pivcols``) are
    stored compactly in A[r0:, c0:c0 + k] (L below the pivot rows, U on and
    above), reduced; the other columns of the block are dead.
    """
    A = st.A
    m = A.shape[0]
    if r0 >= m or c0 >= c1:
        return 0
    if c1 - c0 <= BASE_WIDTH:
        before = st.npiv
        st.npiv = _base_elim(A, st.panel, st.perm, r0, c0, c1, st.p, st.kmax, not st.lazy,
                             st.pivcols, st.npiv)
        return st.npiv - before
    mid = c0 + _split(c1 - c0)
    k1 = _elim(st, r0, c0, mid)
    if k1 > 0:
        # U12 = L11^-1 A12, with L11 the compacted pivot columns of the left half
        _trsm(st, r0, c0, k1, r0, mid, c1 - mid)
        _gemm_sub(st, r0 + k1, mid, A[r0 + k1:, c0:c0 + k1], A[r0:r0 + k1, mid:c1])
    k2 = _elim(st, r0 + k1, mid, c1)
    if k2 > 0 and c0 + k1 < mid:
        # compact: the right half's pivot columns follow the left half's
        _move_columns(A, r0 + k1, c0 + k1, np.arange(mid, mid + k2, dtype=np.int64))
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
    elif matrix.dtype.kind in "iuO":
        # residues_int64 widens small dtypes before `% p` (int8 % p overflowed) and
        # reduces uint64 without wrapping; object entries must be integers
        require_fits(3 * m * n * 8, f"the {m} x {n} float64 workspace")
        A = np.ascontiguousarray(residues_int64(matrix, p).astype(np.float64))
    else:
        raise InputError(f"dtype {matrix.dtype} is not an integer type")
    st = _State(A, p)
    r = _elim(st, 0, 0, n)
    cols = [int(c) for c in st.pivcols[:r]]
    rows = [int(i) for i in st.perm[:r]]
    return r, rows, cols


def lu_factor_mod_p(matrix: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray] | None:
    """LU factors of a square matrix nonsingular mod p, for repeated solves (Dixon lifting).

    The same blocked elimination as :func:`rank_profile_mod_p`, keeping its workspace:
    returns (LU, perm) with P M = L U mod p, (P M)[i] = M[perm[i]], L unit lower triangular
    (below the diagonal of LU) and U upper triangular (on and above it), all residues in
    float64; None when M is singular mod p. Solve with :func:`lu_solve_mod_p`.

    >>> LU, perm = lu_factor_mod_p(np.array([[0, 1], [2, 3]]), 101)
    >>> perm.tolist(), LU.tolist()
    ([1, 0], [[2.0, 3.0], [0.0, 1.0]])
    >>> lu_factor_mod_p(np.array([[1, 2], [2, 4]]), 101) is None
    True
    """
    m, n = matrix.shape
    if m != n:
        raise InputError(f"lu_factor_mod_p takes a square matrix, got {m} x {n}")
    if p > MAX_PRIME or not is_prime(int(p)):
        raise NotPrimeError(f"{p!r} is not a prime below this engine's limit 2^26")
    require_fits(3 * m * n * 8, f"the {m} x {n} float64 LU workspace")
    A = np.ascontiguousarray(residues_int64(np.asarray(matrix), p).astype(np.float64))
    st = _State(A, p)
    if _elim(st, 0, 0, n) < n:
        return None
    return A, st.perm.copy()


@numba.njit(cache=True)
def _lu_solve(LU, perm, B, p):  # pragma: no cover - compiled
    """X with L U X = B[perm] mod p (forward then back substitution); residues in float64.

    Sums of products of two residues are reduced every ``chunk`` terms, so that they stay
    below 2^53 (chunk (p - 1)^2 < 2^52 is checked by the caller)."""
    r, k = B.shape
    pf = float(p)
    inv_p = 1.0 / pf
    chunk = 2**52 // ((p - 1) * (p - 1))
    X = np.empty((r, k), dtype=np.float64)
    for i in range(r):
        for j in range(k):
            X[i, j] = B[perm[i], j]
    for i in range(r):                        # L y = b (unit diagonal)
        for j in range(k):
            acc = X[i, j]
            cnt = 0
            for t in range(i):
                acc -= LU[i, t] * X[t, j]
                cnt += 1
                if cnt == chunk:
                    acc = _mod(acc, pf, inv_p)
                    cnt = 0
            X[i, j] = _mod(acc, pf, inv_p)
    for i in range(r - 1, -1, -1):            # U x = y
        d = LU[i, i]
        inv = 1.0
        base = d
        e = p - 2
        while e > 0:
            if e & 1:
                inv = _mod(inv * base, pf, inv_p)
            base = _mod(base * base, pf, inv_p)
            e >>= 1
        for j in range(k):
            acc = X[i, j]
            cnt = 0
            for t in range(i + 1, r):
                acc -= LU[i, t] * X[t, j]
                cnt += 1
                if cnt == chunk:
                    acc = _mod(acc, pf, inv_p)
                    cnt = 0
            X[i, j] = _mod(_mod(acc, pf, inv_p) * inv, pf, inv_p)
    return X


def lu_solve_mod_p(LU: np.ndarray, perm: np.ndarray, B: np.ndarray, p: int) -> np.ndarray:
    """X with M X = B mod p, from the factors of :func:`lu_factor_mod_p` (B: r x k
    residues; returned as int64 residues).

    >>> M = np.array([[0, 1], [2, 3]])
    >>> LU, perm = lu_factor_mod_p(M, 101)
    >>> X = lu_solve_mod_p(LU, perm, np.array([[1], [5]]), 101)
    >>> (M @ X % 101).ravel().tolist()
    [1, 5]
    """
    if 2**52 // ((p - 1) * (p - 1)) < 1:
        raise NotPrimeError(f"p = {p} is too large for float64 substitution")
    Bf = np.ascontiguousarray(residues_int64(np.asarray(B), p).astype(np.float64))
    if Bf.ndim != 2 or Bf.shape[0] != LU.shape[0]:
        raise InputError(f"B must have {LU.shape[0]} rows, got shape {Bf.shape}")
    return _lu_solve(LU, perm, Bf, int(p)).astype(np.int64)
