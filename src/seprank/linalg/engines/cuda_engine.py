"""Rank profile over GF(p) on an NVIDIA GPU (numba-cuda), device-resident.

The CUDA counterpart of :mod:`seprank.linalg.engines.modular_lu`: same arithmetic
(residues in float64, delayed reduction), same algorithm (column-recursive LU
that skips columns without a pivot), same answer. For a matrix A and a prime
p < 2^26, :func:`rank_profile_mod_p_cuda` returns ``(r, rows, cols)``: r the
rank of A over GF(p), ``cols`` the column rank profile (lexicographically first
independent columns, the pivot columns of the RREF, exactly those of the CPU
engine), and ``rows`` original row indices with A[rows, cols] nonsingular mod p.

:func:`gram_hadamard_mod_p_device` builds G = (U U^T)^(Hadamard lambda) mod p
directly in device memory, so that G goes from the builder to the rank without
crossing the bus: only U (n x d), the pivot bookkeeping and the answer move.

numba-cuda is an optional dependency (``pip install seprank[cuda]``; on a GPU
machine also the CUDA libraries, e.g. ``numba-cuda[cu12]`` or ``[cu13]`` to
match the driver). ``import seprank`` never imports ``numba.cuda``: it is
imported on first use. Without a GPU, numba's simulator
(``NUMBA_ENABLE_CUDASIM=1``, set before Python starts) runs the same kernels
in Python, slowly (tests use n <= 40); without either, the functions raise
:class:`~seprank.errors.ParameterError`.

The algorithm (a column-recursive LU with tiled modular GEMM and TRSM kernels)
and why its float64 arithmetic is exact are described in
:mod:`seprank.linalg.engines.cuda_kernels`, which holds the kernels and the host loop
that launches them.

Memory
------
Device: 8 m n bytes for A (none extra when a device array is given with
``overwrite=True``), plus 8 m (permutation) + 8 min(m, n) (pivot columns) +
a few bytes; the builder adds 16 n d bytes for U. Checked against the free
device memory (``get_memory_info``) before allocating: more than
``DEVICE_SAFETY_FRACTION`` of it raises :class:`~seprank.errors.MemoryLimitError`
(skipped in the simulator, which has no memory limit). Host input also needs
8 m n bytes of host memory for the float64 residues before the copy.

Performance notes (not measured on a GPU yet)
---------------------------------------------
The (2/3) n^3 multiply-adds (n = m) are in the GEMM kernel; the base kernels
and the small-inner-dimension GEMMs of the lowest recursion levels are bound
by memory traffic (about 4 m n ``block`` bytes for the base kernels), which is
why the default base width is small. benchmarks/gpu.py measures it.
"""

from __future__ import annotations

import math
import sys
import threading
import time

import numpy as np

import seprank.linalg.engines.cuda_kernels as ck
from seprank.errors import InputError, MemoryLimitError, NotPrimeError, ParameterError
from seprank.linalg.engines.cuda_kernels import (  # noqa: F401 - SIGNATURES: tests' old path
    SIGNATURES,
    SIMULATOR_LAUNCH,
    KernelEngine,
    LaunchConfig,
    grid1,
    kernel_set,
    quiet,
)
from seprank.linalg.memory import format_bytes, require_fits
from seprank.linalg.modarith import NUMBA_DEFAULT_PRIME as DEFAULT_ENGINE_PRIME
from seprank.linalg.modarith import NUMBA_MAX_PRIME as MAX_PRIME
from seprank.linalg.modarith import k_max, residues_int64
from seprank.scalars.primes import is_prime

__all__ = [
    "rank_profile_mod_p_cuda",
    "gram_hadamard_mod_p_device",
    "cuda_available",
    "simulator_active",
    "gpu_info",
    "LaunchConfig",
    "default_launch",
    "time_modular_gemm",
    "DEFAULT_BLOCK",
    "DEVICE_SAFETY_FRACTION",
]

#: Base width: column blocks at most this wide are eliminated column by column.
DEFAULT_BLOCK = 8
#: Fraction of the free device memory that one call may allocate.
DEVICE_SAFETY_FRACTION = 0.9

# The module global ``cuda`` is bound to ``numba.cuda`` on first use (never at
# import), here and in seprank.linalg.engines.cuda_kernels, whose kernels must see it as
# a *global* named ``cuda`` (the simulator swaps such globals for its fake module).
cuda = None


def _load_cuda():
    global cuda
    if cuda is None:
        try:
            from numba import cuda as _numba_cuda
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ParameterError("the CUDA engine needs numba-cuda: pip install "
                                 "'seprank[cuda]' (numba-cuda)") from exc
        cuda = _numba_cuda
        ck._bind(cuda)
        if simulator_active():
            _guard_simulator_shared_arrays()
    return cuda


def _guard_simulator_shared_arrays() -> None:
    """Make the CUDA simulator's ``cuda.shared.array`` safe when threads race to it.

    The simulator (numba-cuda 0.30) runs the threads of a block as Python threads
    and gives each ``cuda.shared.array`` call site of a block one numpy array, kept
    in a dict keyed by the caller's file and line. It looks the key up and, when it
    is missing, allocates and stores the array, without a lock: two threads that are
    switched between the lookup and the store get two different arrays, so the
    block's "shared" memory is not shared (and is uninitialized for one of them).
    On a loaded machine this made ``k_pivot`` pick different pivots in different
    threads and the engine return a rank above the true one (seen twice in the test
    suite, rank 12 for 11 and 32 for 25; tests/test_cuda_engine.py reproduces it by
    forcing the switch). On a GPU shared memory is shared by construction; only the
    simulator is patched, once, with the same keying done under a lock.
    """
    from numba.cuda.simulator import kernelapi

    shared = kernelapi.FakeCUDAShared
    if getattr(shared, "_seprank_locked", False):
        return
    original = shared.array
    lock = threading.Lock()

    def array(self, shape, dtype, alignment=None):
        if alignment is not None or shape == 0:  # not keyed by call site: as before
            return original(self, shape, dtype, alignment)
        frame = sys._getframe(1)
        key = (frame.f_code.co_filename, frame.f_lineno)
        with lock:
            res = self._allocations.get(key)
            if res is None:
                from numba.core import types
                from numba.np import numpy_support

                if isinstance(dtype, types.Type):
                    dtype = numpy_support.as_dtype(dtype)
                res = np.empty(shape, dtype)
                self._allocations[key] = res
        return res

    shared.array = array
    shared._seprank_locked = True


def simulator_active() -> bool:
    """True when numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM=1 at start).

    Examples
    --------
    The answer follows numba's configuration, which reads the variable once:

    >>> import os
    >>> simulator_active() == (os.environ.get("NUMBA_ENABLE_CUDASIM") == "1")
    True
    """
    from numba import config

    return bool(getattr(config, "ENABLE_CUDASIM", 0))


def cuda_available() -> bool:
    """True when a CUDA GPU (or numba's simulator) can run the kernels.

    Examples
    --------
    The simulator always counts as available:

    >>> cuda_available() or not simulator_active()
    True
    """
    try:
        c = _load_cuda()
        return bool(c.is_available())
    except Exception:  # noqa: BLE001 - any failure means "not available"
        return False


def _require_cuda():
    if not cuda_available():
        import importlib.util

        if importlib.util.find_spec("numba_cuda") is None:
            raise ParameterError("CUDA is not available: the CUDA engine needs numba-cuda "
                                 "(pip install 'seprank[cuda]') and an NVIDIA GPU")
        raise ParameterError(
            "CUDA is not available: no usable NVIDIA GPU/driver was found by numba-cuda "
            "(for numba's CUDA simulator set NUMBA_ENABLE_CUDASIM=1 before starting Python)")
    return cuda


def gpu_info() -> dict:
    """The device the CUDA engine would use: name, memory, compute capability.

    Examples
    --------
    >>> info = gpu_info()
    >>> info["available"] == cuda_available(), info["simulator"] == simulator_active()
    (True, True)
    >>> info["name"] == "simulator" if simulator_active() else True
    True
    """
    from importlib import metadata

    try:
        version = metadata.version("numba-cuda")
    except metadata.PackageNotFoundError:
        version = None
    info = {"available": cuda_available(), "simulator": simulator_active(),
            "numba_cuda": version}
    if not info["available"]:
        info["name"] = None
        return info
    if info["simulator"]:
        info.update(name="simulator", compute_capability=None, total_memory_bytes=None,
                    free_memory_bytes=None)
        return info
    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
    free, total = cuda.current_context().get_memory_info()
    info.update(name=name, compute_capability=tuple(dev.compute_capability),
                total_memory_bytes=int(total), free_memory_bytes=int(free),
                multiprocessors=int(getattr(dev, "MULTIPROCESSOR_COUNT", 0)) or None)
    return info


def _require_device_fits(nbytes: int, what: str) -> None:
    """MemoryLimitError if ``nbytes`` exceed the allowed share of free device memory."""
    if simulator_active():
        return  # the simulator allocates host memory and reports infinite free memory
    try:
        free, _total = cuda.current_context().get_memory_info()
    except Exception:  # noqa: BLE001 - no reliable figure: do not refuse
        return
    if not math.isfinite(free):
        return
    if nbytes > DEVICE_SAFETY_FRACTION * free:
        raise MemoryLimitError(
            f"{what} needs about {format_bytes(nbytes)} of GPU memory, but only "
            f"{format_bytes(free)} is free (limit {DEVICE_SAFETY_FRACTION:.0%} of it)")


def default_launch() -> LaunchConfig:
    """The GPU shapes, or small ones under the simulator.

    Examples
    --------
    >>> default_launch() == (SIMULATOR_LAUNCH if simulator_active() else LaunchConfig())
    True
    """
    return SIMULATOR_LAUNCH if simulator_active() else LaunchConfig()


def _compile_ptx(cc: tuple[int, int] = (9, 0), launch: LaunchConfig | None = None) -> dict:
    """Compile every kernel to PTX for compute capability ``cc`` (no GPU needed,
    NVVM needed; not under the simulator). Returns {kernel name: PTX text}."""
    from types import SimpleNamespace

    from numba.cuda import dispatcher

    launch = launch or LaunchConfig()
    c = _load_cuda()
    # device functions ask the current device for its compute capability even
    # under compile_ptx: answer for them (this process has no GPU context)
    saved = dispatcher.get_current_device
    dispatcher.get_current_device = lambda: SimpleNamespace(compute_capability=cc)
    try:
        ks = kernel_set(launch.tile_threads, launch.tile_regs, launch.tile_k)
        out = {}
        for name, sig in SIGNATURES.items():
            ptx, _ = c.compile_ptx(ks["py"][name], sig, cc=cc)
            out[name] = ptx
    finally:
        dispatcher.get_current_device = saved
        kernel_set.cache_clear()
    return out


def _check_prime(p) -> int:
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not is_prime(int(p)):
        raise NotPrimeError(f"{p!r} is not prime")
    p = int(p)
    if p > MAX_PRIME:
        raise NotPrimeError(f"prime {p} is above the CUDA engine's limit 2^26 (delayed "
                            "reduction in float64 needs k (p-1)^2 < 2^53)")
    return p


def _is_device_array(obj) -> bool:
    if cuda is None:
        return False
    try:
        if cuda.devicearray.is_cuda_ndarray(obj):
            return True
    except AttributeError:  # pragma: no cover
        pass
    return hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, np.ndarray)


def _host_residues(matrix: np.ndarray, p: int) -> np.ndarray:
    """Host float64 residues in [0, p), as the CPU engine accepts its input."""
    m, n = matrix.shape
    if matrix.dtype == np.float64:
        if not (np.all(np.abs(matrix) < 2.0**53) and np.all(matrix == np.floor(matrix))):
            raise InputError("float64 input to the modular engine must hold exact integers "
                             "(residues) of absolute value < 2^53")
        require_fits(2 * m * n * 8, f"the {m} x {n} float64 host copy")
        return np.ascontiguousarray(np.mod(matrix, p))
    if matrix.dtype.kind in "iuO":
        require_fits(3 * m * n * 8, f"the {m} x {n} float64 host copy")
        return np.ascontiguousarray(residues_int64(matrix, p).astype(np.float64))
    raise InputError(f"dtype {matrix.dtype} is not an integer type")


def _device_workspace(obj, p: int, overwrite: bool, launch: LaunchConfig):
    """The device matrix to eliminate, from a device array (None if it is empty):
    the array itself with ``overwrite``, else a copy; reduced mod p on the device."""
    if not cuda.devicearray.is_cuda_ndarray(obj):
        obj = cuda.as_cuda_array(obj)
    if len(obj.shape) != 2 or np.dtype(obj.dtype) != np.float64:
        raise InputError("a device array given to the CUDA engine must be 2-D float64 "
                         f"(got shape {obj.shape}, dtype {obj.dtype})")
    if not obj.is_c_contiguous():
        raise InputError("a device array given to the CUDA engine must be C-contiguous")
    m, n = obj.shape
    if m == 0 or n == 0:
        return None
    if overwrite:
        _require_device_fits(16 * m + 64, "the CUDA engine's bookkeeping")
        A = obj
    else:
        _require_device_fits(8 * m * n + 16 * m + 64,
                             f"a device copy of the {m} x {n} matrix")
        A = cuda.device_array((m, n), dtype=np.float64)
        A.copy_to_device(obj)
    ks = kernel_set(launch.tile_threads, launch.tile_regs, launch.tile_k)
    bad = cuda.to_device(np.zeros(1, dtype=np.int64))
    with quiet():
        ks["k_reduce"][grid1(m * n, launch), launch.threads](A, float(p), 1.0 / p, bad)
    if int(bad.copy_to_host()[0]):
        raise InputError("the device array holds entries that are not integers of "
                         "absolute value < 2^53")
    return A


def _host_workspace(obj: np.ndarray, p: int):
    """The device copy of a host array's float64 residues (None if it is empty)."""
    if obj.ndim != 2:
        raise InputError("the CUDA engine takes a 2-dimensional array")
    m, n = obj.shape
    if m == 0 or n == 0:
        return None
    host = _host_residues(obj, p)
    _require_device_fits(8 * m * n + 16 * m + 64, f"the {m} x {n} float64 matrix")
    return cuda.to_device(host)


def rank_profile_mod_p_cuda(matrix_or_device_array, p: int = DEFAULT_ENGINE_PRIME, *,
                            block: int = DEFAULT_BLOCK, overwrite: bool = False,
                            launch: LaunchConfig | None = None
                            ) -> tuple[int, list[int], list[int]]:
    """Rank over GF(p), pivot rows and column rank profile, on the GPU.

    Parameters
    ----------
    matrix_or_device_array : a 2-D numpy array of integers (any size, reduced
        mod p on the host) or float64 exact integers, or a 2-D C-contiguous
        float64 device array of exact integers (|x| < 2^53; reduced mod p on
        the device, e.g. from :func:`gram_hadamard_mod_p_device`).
    p : prime < 2^26 (default 1048573, as the CPU engine).
    block : base width: column blocks at most this wide are eliminated column
        by column (1..1024).
    overwrite : for a device array, use it as the workspace (its content is
        destroyed) instead of a device copy. Ignored for host input.
    launch : kernel launch shapes (default: :func:`default_launch`).

    Returns
    -------
    (r, rows, cols) exactly as :func:`seprank.linalg.engines.modular_lu.rank_profile_mod_p`:
    same r and same ``cols`` (column rank profile), ``rows`` with
    A[rows, cols] nonsingular mod p.

    Examples
    --------
    Row 1 is twice row 0; rows 0, 2 and columns 0, 1 give det [[1, 2], [1, 0]] = -2
    (a GPU or the simulator is needed):

    >>> A = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]])
    >>> rank_profile_mod_p_cuda(A, 7)
    (2, [0, 2], [0, 1])
    """
    p = _check_prime(p)
    if isinstance(block, bool) or not isinstance(block, int) or not 1 <= block <= 1024:
        raise ParameterError(f"block must be an integer in 1..1024, got {block!r}")
    if launch is not None and not isinstance(launch, LaunchConfig):
        raise ParameterError("launch must be a LaunchConfig")
    _require_cuda()
    launch = launch or default_launch()
    obj = matrix_or_device_array
    if _is_device_array(obj):
        A = _device_workspace(obj, p, overwrite, launch)
    elif isinstance(obj, np.ndarray):
        A = _host_workspace(obj, p)
    else:
        raise InputError("the CUDA engine takes a 2-dimensional numpy array or a CUDA "
                         f"device array, got {type(obj).__name__}")
    if A is None:  # no rows or no columns
        return 0, [], []
    n = A.shape[1]
    eng = KernelEngine(A, p, block, launch)
    with quiet():
        r = eng.elim(0, 0, n)
    cuda.synchronize()
    if r == 0:
        return 0, [], []
    cols = [int(c) for c in eng.pivcols.copy_to_host()[:r]]
    rows = [int(i) for i in eng.perm.copy_to_host()[:r]]
    return r, rows, cols


def _u_residues(U, p: int) -> np.ndarray:
    if isinstance(U, np.ndarray) and U.dtype.kind in "iu" and U.ndim == 2:
        return np.ascontiguousarray(U % p).astype(np.float64)
    rows = [[int(x) % p for x in row] for row in U]
    if rows and len({len(r) for r in rows}) != 1:
        raise InputError("U must be a rectangular array of integers")
    return np.array(rows, dtype=np.float64).reshape(len(rows), -1)


def gram_hadamard_mod_p_device(U_residues, lam: int, p: int, *,
                               launch: LaunchConfig | None = None):
    """G = (U U^T)^(Hadamard lam) mod p built on the device (float64 residues).

    ``U_residues``: n x d integers (numpy integer array or nested lists; any
    integers, reduced mod p on the host, so U mod p is all that crosses the
    bus). Returns an n x n C-contiguous float64 device array, entry for entry
    equal to :func:`seprank.constructions.builders.gram_hadamard_mod_p_f64`,
    ready for :func:`rank_profile_mod_p_cuda` (``overwrite=True`` keeps one copy).
    One thread per entry (grid-stride): a dot product of length d reduced every
    k_max(p) terms, then the power lam by square and multiply, reduced after
    each product. p < 2^26 (the engine's limit).

    Examples
    --------
    For U with rows (1, 0), (0, 1), (1, 1), U U^T = [[1, 0, 1], [0, 1, 1], [1, 1, 2]];
    its entrywise square has determinant 2, so rank 3 mod 7:

    >>> G = gram_hadamard_mod_p_device([[1, 0], [0, 1], [1, 1]], 2, 7)
    >>> G.copy_to_host().tolist()
    [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 4.0]]
    >>> rank_profile_mod_p_cuda(G, 7, overwrite=True)[0]
    3
    """
    p = _check_prime(p)
    if isinstance(lam, bool) or not isinstance(lam, (int, np.integer)) or lam < 0:
        raise ParameterError(f"lambda must be an integer >= 0, got {lam!r}")
    lam = int(lam)
    _require_cuda()
    launch = launch or default_launch()
    R = _u_residues(U_residues, p)
    n, d = R.shape
    _require_device_fits(8 * n * n + 16 * n * d + 64,
                         f"the {n} x {n} float64 Gram Hadamard power mod p")
    out = cuda.device_array((n, n), dtype=np.float64)
    if n == 0:
        return out
    ks = kernel_set(launch.tile_threads, launch.tile_regs, launch.tile_k)
    dR = cuda.to_device(R)
    dRT = cuda.to_device(np.ascontiguousarray(R.T))
    bx, by = launch.build_threads
    cap = max(1, int(math.isqrt(launch.max_blocks)))
    grid = (max(1, min(cap, -(-n // bx))), max(1, min(cap, -(-n // by))))
    with quiet():
        ks["k_gram"][grid, (bx, by)](dR, dRT, lam, k_max(p), float(p), 1.0 / p, out)
    return out


def time_modular_gemm(size: int, k: int, p: int = DEFAULT_ENGINE_PRIME, *,
                      repeat: int = 3, launch: LaunchConfig | None = None) -> float:
    """Best wall time (s) of one trailing update C <- C - L U mod p by the engine's
    GEMM kernel, C size x size, inner dimension k (2 size^2 k flop).

    Examples
    --------
    >>> time_modular_gemm(2, 2, 7, repeat=1) > 0
    True
    """
    p = _check_prime(p)
    _require_cuda()
    launch = launch or default_launch()
    ks = kernel_set(launch.tile_threads, launch.tile_regs, launch.tile_k)
    t = size + k
    _require_device_fits(8 * t * t + 8 * k, f"the {t} x {t} GEMM test matrix")
    rng = np.random.default_rng(0)
    A = cuda.to_device(rng.integers(0, p, size=(t, t)).astype(np.float64))
    pc = cuda.to_device(np.arange(k, dtype=np.int64))
    eng = KernelEngine.__new__(KernelEngine)
    eng.A, eng.pivcols, eng.ks, eng.launch = A, pc, ks, launch
    eng.pf, eng.inv, eng.kmax = float(p), 1.0 / p, k_max(p)
    best = float("inf")
    with quiet():
        eng.gemm(k, 0, 0, k, k, k, size, size, k)  # compile and warm up
        cuda.synchronize()
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            eng.gemm(k, 0, 0, k, k, k, size, size, k)
            cuda.synchronize()
            best = min(best, time.perf_counter() - t0)
    return best

