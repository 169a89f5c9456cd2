"""The CUDA engine's kernels, and the host-side recursion that launches them.

:mod:`seprank.linalg.engines.cuda_engine` is the entry point (device checks, input,
the public functions); this module holds what runs on the device and the
host loop that drives it.

The algorithm
-------------
The matrix A (m x n, float64 residues in [0, p), row-major) stays on the
device. ``elim(r0, c0, c1)`` eliminates columns [c0, c1) from row r0 on:

* c1 - c0 <= ``block`` (the base width, default 8): column by column. For
  each column c two kernels run: ``pivot`` (one block: scans rows r, r+1, ...
  in chunks of blockDim rows, the first nonzero by a shared-memory atomic min
  of the row index, stopping at the first chunk that has one; swaps the whole
  rows r and piv, the permutation, records c as a pivot column and the inverse
  of the pivot by Fermat) and ``elim`` (one thread per row below the pivot:
  multiplier l = a / pivot stored in place, then the row's entries in
  (c, c1) updated as a_ij - l u_j mod p). These are the steps of the CPU base
  kernel; the pivot row and counters live in a small device array, so no
  host round trip is needed per column.
* wider: split at the middle; k1 = elim(left half); U12 = L11^-1 A12 (TRSM);
  A22 = A22 - L21 U12 mod p (tiled modular GEMM); elim(right half, from row
  r0 + k1). L11 and L21 are read in place, at the pivot columns of the left
  half (an index array on the device), with no gather copy.
* TRSM, recursive like the CPU's: k <= ``trsm_base`` rows by forward
  substitution (one thread per column of U12); larger k split in halves with
  a GEMM between.
* GEMM kernel: a block of T x T threads computes a (T R) x (T R) tile of C,
  R x R entries per thread in registers; slices of L (T R x K_T) and U
  (K_T x T R) are staged in shared memory. The accumulators start as the
  entries of C and subtract products l u.

The host reads the device counters once per base block (one 32-byte copy) to
learn how many pivots were found, and the pivot indices once at the end.

Exactness
---------
Every stored entry is a residue in [0, p). A product of two residues is at
most (p-1)^2 < 2^52 (p < 2^26), exact in float64. The GEMM accumulator starts
at c in [0, p) and subtracts at most k_max(p) products before it is reduced:

    k_max(p) = floor((2^53 - p) / (p - 1)^2),  k (p-1)^2 + (p-1) <= 2^53 - 1,

so every partial value is an integer of absolute value < 2^53, exact whatever
the rounding (fused multiply-adds included: an exact result is representable
and FMA rounds once). Reduction is x - p floor(x / p) computed with
x * (1/p), off by at most one, with the two corrections of the CPU code. The
element-wise steps (elimination, TRSM, builder powers) reduce after every
product; the builder's dot products reduce every k_max(p) terms. For
p < 2^20, k_max >= 8192 and the GEMM never reduces mid-product at the widths
used; at p near 2^26 it reduces every 2 terms (exact, slower).

Why closures: numba-cuda needs the shapes of shared and local arrays as
compile-time constants, so the GEMM kernel is built by a factory that fixes
the tile shape (:func:`_gemm_kernel`), one compilation per shape
(:func:`kernel_set`, cached); the other kernels are built by small factories
around the two device functions. The module global ``cuda`` is bound to
``numba.cuda`` by :func:`_bind` (from :func:`seprank.linalg.engines.cuda_engine._load_cuda`,
never at import): kernels must see it as a *global* named ``cuda``, because
numba's simulator runs a kernel by swapping every global bound to numba.cuda
for its fake module.
"""

from __future__ import annotations

import math
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import float64, int64

from seprank.errors import ParameterError
from seprank.linalg.modarith import k_max

__all__ = ["LaunchConfig", "SIMULATOR_LAUNCH"]

_TWO53 = float(2**53)
cuda = None


def _bind(module) -> None:
    """Bind the global ``cuda`` to ``numba.cuda`` (the kernels read it as a global)."""
    global cuda
    cuda = module


@dataclass(frozen=True)
class LaunchConfig:
    """Launch shapes of the kernels (performance only: any valid one gives the same answer).

    ``tile_threads`` x ``tile_threads`` threads per GEMM block, each computing
    ``tile_regs`` x ``tile_regs`` entries (a tile of ``tile_threads * tile_regs``
    squared); ``tile_k`` inner indices per shared-memory slice. ``threads`` and
    ``max_blocks``: 1-D grid-stride kernels. ``pivot_threads``: the one-block
    pivot search. ``build_threads``: 2-D block of the builder. ``trsm_base``:
    TRSMs with at most this many rows are done by forward substitution.

    Examples
    --------
    >>> LaunchConfig().tile_threads * LaunchConfig().tile_regs    # GEMM tile side
    64
    >>> LaunchConfig(tile_threads=64)                             # 64^2 threads per block
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: at most 1024 threads per block
    """

    tile_threads: int = 16
    tile_regs: int = 4
    tile_k: int = 16
    threads: int = 128
    max_blocks: int = 4096
    pivot_threads: int = 128
    build_threads: tuple[int, int] = (32, 8)
    trsm_base: int = 16

    def __post_init__(self):
        for name in ("tile_threads", "tile_regs", "tile_k", "threads", "max_blocks",
                     "pivot_threads", "trsm_base"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ParameterError(f"LaunchConfig.{name} must be a positive integer, got {v!r}")
        if self.tile_threads ** 2 > 1024 or self.threads > 1024 or self.pivot_threads > 1024:
            raise ParameterError("at most 1024 threads per block")
        bx, by = self.build_threads
        if bx < 1 or by < 1 or bx * by > 1024:
            raise ParameterError(f"bad build_threads {self.build_threads!r}")


#: Small shapes for the simulator, where every thread is a Python thread.
SIMULATOR_LAUNCH = LaunchConfig(tile_threads=2, tile_regs=4, tile_k=4, threads=8,
                                max_blocks=2, pivot_threads=4, build_threads=(4, 4),
                                trsm_base=16)


def _device_functions():
    """The device functions: x mod p in float64, and inverses mod p by Fermat."""
    @cuda.jit(device=True)
    def mod_f(x, pf, inv):
        """x mod p in [0, p) for an exact integer |x| < 2^53 in float64."""
        r = x - pf * math.floor(x * inv)
        if r >= pf:
            r -= pf
        elif r < 0.0:
            r += pf
        return r

    @cuda.jit(device=True)
    def inv_mod(a, p, pf, inv):
        """a^(p-2) mod p by square and multiply (a nonzero residue)."""
        res = 1.0
        base = a
        e = p - 2
        while e > 0:
            if e & 1:
                res = mod_f(res * base, pf, inv)
            base = mod_f(base * base, pf, inv)
            e >>= 1
        return res

    return mod_f, inv_mod


def _builder_kernels(mod_f):
    """Reduction of a device array mod p, and the Gram Hadamard power builder."""
    TWO53 = _TWO53

    def k_reduce(A, pf, inv, bad):
        """A <- A mod p in place; bad[0] = 1 if an entry is not an integer < 2^53."""
        m = A.shape[0]
        n = A.shape[1]
        for e in range(cuda.grid(1), m * n, cuda.gridsize(1)):
            i = e // n
            j = e - i * n
            x = A[i, j]
            if not (abs(x) < TWO53):
                bad[0] = 1
            elif x != math.floor(x):
                bad[0] = 1
            else:
                A[i, j] = mod_f(x, pf, inv)

    def k_gram(R, RT, lam, kmax, pf, inv, out):
        """out[i, j] = (sum_r R[i, r] R[j, r])^lam mod p (RT = R transposed)."""
        n = out.shape[0]
        d = R.shape[1]
        x0, y0 = cuda.grid(2)
        sx, sy = cuda.gridsize(2)
        for i in range(y0, n, sy):
            for j in range(x0, n, sx):
                acc = 0.0
                cnt = 0
                for t in range(d):
                    acc += R[i, t] * RT[t, j]
                    cnt += 1
                    if cnt == kmax:
                        acc = mod_f(acc, pf, inv)
                        cnt = 0
                x = mod_f(acc, pf, inv)
                res = 1.0
                e = lam
                while e > 0:
                    if e & 1:
                        res = mod_f(res * x, pf, inv)
                    e >>= 1
                    if e > 0:
                        x = mod_f(x * x, pf, inv)
                out[i, j] = res

    return {"k_reduce": k_reduce, "k_gram": k_gram}


def _pivot_kernel(mod_f, inv_mod):
    """The one-block pivot search of a column (shared-memory atomic min)."""

    def k_pivot(A, st, perm, pivcols, finv, c, p, pf, inv):
        """One block: first nonzero of column c from row st[0]; swap; record; invert."""
        sh = cuda.shared.array(1, dtype=int64)
        tid = cuda.threadIdx.x
        nt = cuda.blockDim.x
        m = A.shape[0]
        n = A.shape[1]
        r = st[0]
        if tid == 0:
            sh[0] = m
        cuda.syncthreads()
        base = r
        while base < m:
            i = base + tid
            if i < m:
                if A[i, c] != 0.0:
                    cuda.atomic.min(sh, 0, i)
            cuda.syncthreads()
            found = sh[0]
            cuda.syncthreads()
            if found < m:
                break
            base += nt
        piv = sh[0]
        if piv >= m:
            if tid == 0:
                st[2] = 0
            return
        if tid == 0:
            finv[0] = inv_mod(A[piv, c], p, pf, inv)
            k = st[1]
            pivcols[k] = c
            st[1] = k + 1
            st[0] = r + 1
            st[2] = 1
            st[3] = r
            if piv != r:
                t = perm[r]
                perm[r] = perm[piv]
                perm[piv] = t
        cuda.syncthreads()
        if piv != r:
            for j in range(tid, n, nt):
                v = A[r, j]
                A[r, j] = A[piv, j]
                A[piv, j] = v

    return {"k_pivot": k_pivot}


def _update_kernels(mod_f):
    """The column elimination below a pivot, and the forward-substitution TRSM."""

    def k_elim(A, st, finv, c, c1, pf, inv):
        """Rows below the pivot row st[3]: multiplier into column c, update (c, c1)."""
        if st[2] == 0:
            return
        pr = st[3]
        li = finv[0]
        m = A.shape[0]
        for i in range(pr + 1 + cuda.grid(1), m, cuda.gridsize(1)):
            a = A[i, c]
            if a != 0.0:
                lm = mod_f(a * li, pf, inv)
                A[i, c] = lm
                for j in range(c + 1, c1):
                    u = A[pr, j]
                    if u != 0.0:
                        A[i, j] = mod_f(A[i, j] - lm * u, pf, inv)

    def k_trsm(A, pc, r0, pc0, k, bcol0, N, pf, inv):
        """B <- L^-1 B, B = A[r0:r0+k, bcol0:bcol0+N], L[i, t] = A[r0+i, pc[pc0+t]]."""
        for j in range(cuda.grid(1), N, cuda.gridsize(1)):
            col = bcol0 + j
            for i in range(1, k):
                x = A[r0 + i, col]
                for t in range(i):
                    lv = A[r0 + i, pc[pc0 + t]]
                    if lv != 0.0:
                        x = mod_f(x - lv * A[r0 + t, col], pf, inv)
                A[r0 + i, col] = x

    return {"k_elim": k_elim, "k_trsm": k_trsm}


def _gemm_kernel(mod_f, tile_threads: int, tile_regs: int, tile_k: int):
    """The tiled modular GEMM for one tile shape.

    Long because it is one kernel: numba-cuda takes the shapes of shared and
    local arrays only as compile-time constants, so the tile shape is fixed by
    this closure (TT x TT threads, TR x TR registers each, TK-wide slices).
    """
    TT = tile_threads
    TR = tile_regs
    TK = tile_k
    BM = TT * TR
    NT = TT * TT

    def k_gemm(A, pc, lrow0, lpc0, urow0, ucol0, crow0, ccol0, M, N, K, pf, inv, kmax):
        """C <- C - L U mod p with C = A[crow0:+M, ccol0:+N], L[i, t] = A[lrow0+i, pc[lpc0+t]],
        U = A[urow0:+K, ucol0:+N]; regions disjoint. Reduction every kmax products."""
        Ls = cuda.shared.array((BM, TK), dtype=float64)
        Us = cuda.shared.array((TK, BM), dtype=float64)
        acc = cuda.local.array((TR, TR), dtype=float64)
        lv = cuda.local.array(TR, dtype=float64)
        uv = cuda.local.array(TR, dtype=float64)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        tid = ty * TT + tx
        bi = cuda.blockIdx.y * BM
        bj = cuda.blockIdx.x * BM
        for a in range(TR):
            i = bi + ty + TT * a
            for b in range(TR):
                j = bj + tx + TT * b
                if i < M and j < N:
                    acc[a, b] = A[crow0 + i, ccol0 + j]
                else:
                    acc[a, b] = 0.0
        cnt = 0
        for k0 in range(0, K, TK):
            for e in range(tid, BM * TK, NT):
                ii = e // TK
                tt = e - ii * TK
                i = bi + ii
                t = k0 + tt
                if i < M and t < K:
                    Ls[ii, tt] = A[lrow0 + i, pc[lpc0 + t]]
                else:
                    Ls[ii, tt] = 0.0
            for e in range(tid, TK * BM, NT):
                tt = e // BM
                jj = e - tt * BM
                t = k0 + tt
                j = bj + jj
                if t < K and j < N:
                    Us[tt, jj] = A[urow0 + t, ucol0 + j]
                else:
                    Us[tt, jj] = 0.0
            cuda.syncthreads()
            kend = min(TK, K - k0)
            for tt in range(kend):
                for a in range(TR):
                    lv[a] = Ls[ty + TT * a, tt]
                for b in range(TR):
                    uv[b] = Us[tt, tx + TT * b]
                for a in range(TR):
                    for b in range(TR):
                        acc[a, b] -= lv[a] * uv[b]
                cnt += 1
                if cnt == kmax:
                    for a in range(TR):
                        for b in range(TR):
                            acc[a, b] = mod_f(acc[a, b], pf, inv)
                    cnt = 0
            cuda.syncthreads()
        for a in range(TR):
            i = bi + ty + TT * a
            for b in range(TR):
                j = bj + tx + TT * b
                if i < M and j < N:
                    A[crow0 + i, ccol0 + j] = mod_f(acc[a, b], pf, inv)

    return {"k_gemm": k_gemm}


@lru_cache(maxsize=8)
def kernel_set(tile_threads: int, tile_regs: int, tile_k: int):
    """Compile-on-first-call kernels for one GEMM tile shape (closures fix the shape).

    Returns {kernel name: compiled kernel}, plus ``"py"`` (the Python functions,
    for PTX compilation) and ``"block_m"`` (the GEMM tile side).
    """
    mod_f, inv_mod = _device_functions()
    py = {**_builder_kernels(mod_f), **_pivot_kernel(mod_f, inv_mod),
          **_update_kernels(mod_f), **_gemm_kernel(mod_f, tile_threads, tile_regs, tile_k)}
    ks = {name: cuda.jit(fn) for name, fn in py.items()}
    ks["py"] = py
    ks["block_m"] = tile_threads * tile_regs
    return ks


# PTX signatures of the kernels, to compile them without a GPU (needs NVVM):
# see _compile_ptx, used by tests/test_cuda_engine.py in a subprocess.
SIGNATURES = {
    "k_reduce": "void(float64[:, ::1], float64, float64, int64[::1])",
    "k_gram": "void(float64[:, ::1], float64[:, ::1], int64, int64, float64, float64, "
              "float64[:, ::1])",
    "k_pivot": "void(float64[:, ::1], int64[::1], int64[::1], int64[::1], float64[::1], "
               "int64, int64, float64, float64)",
    "k_elim": "void(float64[:, ::1], int64[::1], float64[::1], int64, int64, float64, float64)",
    "k_trsm": "void(float64[:, ::1], int64[::1], int64, int64, int64, int64, int64, "
              "float64, float64)",
    "k_gemm": "void(float64[:, ::1], int64[::1], int64, int64, int64, int64, int64, int64, "
              "int64, int64, int64, float64, float64, int64)",
}


def grid1(count: int, launch: LaunchConfig) -> int:
    """Blocks of a 1-D grid-stride launch over ``count`` items (at most ``max_blocks``).

    >>> grid1(1000, LaunchConfig(threads=128)), grid1(0, LaunchConfig())
    (8, 1)
    """
    return max(1, min(launch.max_blocks, -(-count // launch.threads)))


class KernelEngine:
    """Host side of the recursion; all matrix data stays on the device.

    ``base`` eliminates a panel, ``gemm`` / ``trsm`` update the trailing matrix and
    ``elim`` recurses on column halves (:mod:`seprank.linalg.engines.cuda_engine` runs it;
    its tests run it under numba's CUDA simulator).

    >>> [m for m in ("base", "gemm", "trsm", "elim") if callable(getattr(KernelEngine, m))]
    ['base', 'gemm', 'trsm', 'elim']
    """

    def __init__(self, A, p: int, block: int, launch: LaunchConfig):
        self.A = A
        self.m, self.n = A.shape
        self.p = p
        self.pf = float(p)
        self.inv = 1.0 / float(p)
        self.kmax = k_max(p)
        self.block = block
        self.launch = launch
        self.ks = kernel_set(launch.tile_threads, launch.tile_regs, launch.tile_k)
        self.perm = cuda.to_device(np.arange(self.m, dtype=np.int64))
        self.pivcols = cuda.to_device(np.zeros(min(self.m, self.n), dtype=np.int64))
        self.st = cuda.to_device(np.zeros(4, dtype=np.int64))  # r, npiv, found, pivot row
        self.finv = cuda.to_device(np.zeros(1, dtype=np.float64))
        self.npiv = 0

    def base(self, r0: int, c0: int, c1: int) -> int:
        lc = self.launch
        grid = grid1(self.m - r0, lc)
        k_pivot, k_elim = self.ks["k_pivot"], self.ks["k_elim"]
        for c in range(c0, c1):
            k_pivot[1, lc.pivot_threads](self.A, self.st, self.perm, self.pivcols, self.finv,
                                         c, self.p, self.pf, self.inv)
            k_elim[grid, lc.threads](self.A, self.st, self.finv, c, c1, self.pf, self.inv)
        before = self.npiv
        self.npiv = int(self.st.copy_to_host()[1])
        return self.npiv - before

    def gemm(self, lrow0, lpc0, urow0, ucol0, crow0, ccol0, M, N, K) -> None:
        if M <= 0 or N <= 0 or K <= 0:
            return
        bm = self.ks["block_m"]
        tt = self.launch.tile_threads
        grid = (-(-N // bm), -(-M // bm))
        self.ks["k_gemm"][grid, (tt, tt)](self.A, self.pivcols, lrow0, lpc0, urow0, ucol0,
                                          crow0, ccol0, M, N, K, self.pf, self.inv, self.kmax)

    def trsm(self, r0: int, pc0: int, k: int, bcol0: int, N: int) -> None:
        if k <= 1 or N <= 0:
            return
        if k <= self.launch.trsm_base:
            self.ks["k_trsm"][grid1(N, self.launch), self.launch.threads](
                self.A, self.pivcols, r0, pc0, k, bcol0, N, self.pf, self.inv)
            return
        h = k // 2
        self.trsm(r0, pc0, h, bcol0, N)
        self.gemm(r0 + h, pc0, r0, bcol0, r0 + h, bcol0, k - h, N, h)
        self.trsm(r0 + h, pc0 + h, k - h, bcol0, N)

    def elim(self, r0: int, c0: int, c1: int) -> int:
        if r0 >= self.m or c0 >= c1:
            return 0
        if c1 - c0 <= self.block:
            return self.base(r0, c0, c1)
        mid = (c0 + c1) // 2
        start = self.npiv
        k1 = self.elim(r0, c0, mid)
        if k1 > 0:
            self.trsm(r0, start, k1, mid, c1 - mid)
            self.gemm(r0 + k1, start, r0, mid, r0 + k1, mid, self.m - r0 - k1, c1 - mid, k1)
        k2 = self.elim(r0 + k1, mid, c1)
        return k1 + k2


@contextmanager
def quiet():
    """Silence numba's low-occupancy warnings (one-block pivot kernels are intended).

    >>> with quiet():
    ...     pass
    """
    with warnings.catch_warnings():
        try:
            from numba.core.errors import NumbaPerformanceWarning

            warnings.simplefilter("ignore", NumbaPerformanceWarning)
        except ImportError:  # pragma: no cover
            pass
        yield
