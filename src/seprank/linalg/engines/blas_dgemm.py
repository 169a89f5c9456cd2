"""The BLAS products of the numba engine: ``cblas_dgemm`` through ctypes, and thread control.

The numba LU (:mod:`seprank.linalg.engines.modular_lu`) updates the trailing block
A22 <- A22 - L21 U12 with BLAS on exact integers held in float64. numpy's ``@``
cannot add into its output, so where numpy's BLAS exposes ``cblas_dgemm``
(numpy's wheels bundle OpenBLAS) it is called here through ctypes on the views
in place, with beta = 1 (:func:`cblas_dgemm`, :func:`dgemm_call`); small
products run BLAS on one thread (:func:`one_blas_thread`).
"""

from __future__ import annotations

import contextlib

import numpy as np

__all__ = ["BLAS_THREADS_MIN_MADDS", "cblas_dgemm", "dgemm_call", "one_blas_thread"]

#: Products below this many multiply-adds run BLAS on one thread. Waking BLAS's
#: threads for a small product cost about 15 ms each on a loaded 2-core machine
#: (measured: the n = 2002 Omega matrix took 0.79 s in products with 2 BLAS
#: threads, 0.13 s with 1); large products keep every thread.
BLAS_THREADS_MIN_MADDS = 50_000_000
_BLAS_LIBS = None


def _blas_libs():
    """threadpoolctl's controllers of the BLAS libraries loaded (found once)."""
    global _BLAS_LIBS
    if _BLAS_LIBS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS_LIBS = ThreadpoolController().select(user_api="blas").lib_controllers
    return _BLAS_LIBS


@contextlib.contextmanager
def one_blas_thread():
    """Run the block with every loaded BLAS on one thread (the old counts restored after).

    Examples
    --------
    >>> with one_blas_thread():
    ...     (np.ones((2, 2)) @ np.ones((2, 2))).tolist()
    [[2.0, 2.0], [2.0, 2.0]]
    """
    libs = _blas_libs()
    old = [lib.num_threads for lib in libs]
    for lib in libs:
        lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, t in zip(libs, old, strict=True):
            lib.set_num_threads(t)


_ROW_MAJOR, _NO_TRANS = 101, 111
_DGEMM_NOT_LOADED = object()
_DGEMM = _DGEMM_NOT_LOADED


def _load_cblas_dgemm():
    """``cblas_dgemm`` of the BLAS numpy uses, through ctypes, or None.

    numpy's ``@`` cannot add into its output (BLAS's beta = 1), so it needs a
    temporary and a second pass A22 -= C. The same BLAS's cblas_dgemm called
    on the views in place does C <- C - L21 U12 in one go. The symbol is looked
    up in the OpenBLAS that threadpoolctl finds loaded, only under names whose
    integer width is known: ``scipy_cblas_dgemm64_`` (numpy's wheels bundle
    OpenBLAS as ``scipy_openblas64``) and ``cblas_dgemm64_`` take 64-bit
    integers, ``scipy_cblas_dgemm`` 32-bit ones, and a plain ``cblas_dgemm``
    whichever ``openblas_get_config()`` reports (USE64BITINT or not). The
    function is checked on a small strided product against numpy before use;
    None (the numpy path) is returned if anything is missing or differs.
    """
    import ctypes

    try:
        libs = [lib for lib in _blas_libs() if lib.internal_api == "openblas"]
        libs.sort(key=lambda lib: "numpy" not in lib.filepath)  # numpy's own first
    except Exception:  # pragma: no cover - threadpoolctl missing or failing
        return None
    for lib in libs:
        try:
            dll = ctypes.CDLL(lib.filepath)
        except OSError:  # pragma: no cover
            continue
        candidates = [("scipy_cblas_dgemm64_", ctypes.c_int64),
                      ("cblas_dgemm64_", ctypes.c_int64),
                      ("scipy_cblas_dgemm", ctypes.c_int32)]
        config = getattr(dll, "openblas_get_config", None)
        if config is not None:
            config.restype = ctypes.c_char_p
            wide = b"USE64BITINT" in (config() or b"")
            candidates.append(("cblas_dgemm", ctypes.c_int64 if wide else ctypes.c_int32))
        for name, int_t in candidates:
            fn = getattr(dll, name, None)
            if fn is None:
                continue
            dbl, ptr = ctypes.c_double, ctypes.c_void_p
            fn.restype = None
            fn.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, int_t, int_t, int_t, dbl,
                           ptr, int_t, ptr, int_t, dbl, ptr, int_t]
            if _dgemm_works(fn):
                return fn
    return None  # pragma: no cover - depends on the BLAS build


def dgemm_call(fn, C: np.ndarray, L: np.ndarray, U: np.ndarray) -> None:
    """C <- C - L @ U by cblas_dgemm ``fn`` on row-major views (unit column stride).

    Examples
    --------
    >>> C, L, U = np.zeros((2, 2)), np.eye(2), np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> fn = cblas_dgemm()
    >>> fn is None or (dgemm_call(fn, C, L, U), C.tolist())[1] == [[-1, -2], [-3, -4]]
    True
    """
    m, k = L.shape
    w = U.shape[1]
    fn(_ROW_MAJOR, _NO_TRANS, _NO_TRANS, m, w, k, -1.0, L.ctypes.data, L.strides[0] // 8,
       U.ctypes.data, U.strides[0] // 8, 1.0, C.ctypes.data, C.strides[0] // 8)


def _dgemm_works(fn) -> bool:
    rng = np.random.default_rng(0)
    big = rng.integers(0, 100, size=(40, 50)).astype(np.float64)
    C, L, U = big[3:20, 5:36], big[20:37, 1:12], big[25:36, 12:43]
    expected = C - L @ U
    try:
        dgemm_call(fn, C, L, U)
    except Exception:  # pragma: no cover - a symbol with another signature
        return False
    return bool(np.array_equal(C, expected))


def cblas_dgemm():
    """``cblas_dgemm`` of numpy's BLAS through ctypes (found and checked once), or None.

    Examples
    --------
    >>> fn = cblas_dgemm()
    >>> fn is None or callable(fn)
    True
    """
    global _DGEMM
    if _DGEMM is _DGEMM_NOT_LOADED:
        _DGEMM = _load_cblas_dgemm()
    return _DGEMM
