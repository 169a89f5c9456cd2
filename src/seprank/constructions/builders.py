"""Direct builders mod p in numba: Gram Hadamard powers without big integers.

``gram_hadamard_mod_p_f64(R, lam, p)`` builds G = (U U^T)^(Hadamard lam) mod p
from the residues R = U mod p, as a float64 array of residues in [0, p) that
the modular LU engine (:mod:`seprank.linalg.engines.modular_lu`) consumes in place.
Each entry is a dot product, reduced mod p, then raised to the power lam by
square-and-multiply with a reduction after each product. When d (p-1)^2 <
2^53 (p < 2^20 with d up to 8192, say) the arithmetic is exact in float64 and
reductions use floor(x / p) (much faster than integer division); otherwise
int64 with a reduction after every product (p < 2^31 keeps products < 2^62).
Rows are built in parallel (numba ``prange``); whole rows are computed, twice
the arithmetic of the upper triangle but with contiguous writes.

Memory: the result is n x n float64 (8 n^2 bytes); it is refused, before
allocating, when it cannot fit (``row_block`` builds a horizontal slab of rows
instead, for callers that stream).
"""

from __future__ import annotations

import numba
import numpy as np

from seprank.errors import ParameterError
from seprank.linalg.engines.modkernels import mod_f64 as _mod
from seprank.linalg.memory import require_fits
from seprank.scalars.primes import require_prime

__all__ = ["gram_hadamard_mod_p_f64", "gram_hadamard_rows_mod_p"]

_MAX_PRIME = 2**31 - 1


@numba.njit(parallel=True, cache=True)
def _gram_rows_f64(R, lam, p, row0, row1, out):  # pragma: no cover - compiled
    """Float path: needs d (p-1)^2 < 2^53 (dot products exact before one reduction)."""
    n, d = R.shape
    pf = float(p)
    inv = 1.0 / pf
    for ii in numba.prange(row1 - row0):
        i = row0 + ii
        for j in range(n):
            acc = 0.0
            for r in range(d):
                acc += R[i, r] * R[j, r]
            x = _mod(acc, pf, inv)
            result = 1.0
            e = lam
            while e > 0:
                if e & 1:
                    result = _mod(result * x, pf, inv)
                e >>= 1
                if e > 0:
                    x = _mod(x * x, pf, inv)
            out[ii, j] = result


@numba.njit(parallel=True, cache=True)
def _gram_rows_i64(R, lam, p, row0, row1, out):  # pragma: no cover - compiled
    """Integer path for primes up to 2^31: a reduction after every product."""
    n, d = R.shape
    for ii in numba.prange(row1 - row0):
        i = row0 + ii
        for j in range(n):
            acc = np.int64(0)
            for r in range(d):
                acc = (acc + R[i, r] * R[j, r]) % p
            result = np.int64(1)
            e = lam
            while e > 0:
                if e & 1:
                    result = (result * acc) % p
                e >>= 1
                if e > 0:
                    acc = (acc * acc) % p
            out[ii, j] = float(result)


def _gram_rows(R, lam, p, row0, row1, out):
    d = R.shape[1]
    if d * (p - 1) ** 2 < 2**53:
        _gram_rows_f64(R.astype(np.float64), lam, p, row0, row1, out)
    else:
        _gram_rows_i64(R, lam, p, row0, row1, out)


def _residues(U, p: int) -> np.ndarray:
    if isinstance(U, np.ndarray) and U.dtype == np.int64:
        return np.ascontiguousarray(U % p)
    return np.array([[int(x) % p for x in row] for row in U], dtype=np.int64).reshape(
        len(U), -1)


def gram_hadamard_mod_p_f64(U, lam: int, p: int) -> np.ndarray:
    """G = (U U^T)^(Hadamard lam) mod p as float64 residues (n x n, symmetric).

    The matrix of levine2020_depth_to_width_self_attention.txt B.2, l.700-712 (and of
    wies2021_vocabulary_bottleneck.txt eqs. (24)-(26)) mod p.

    >>> gram_hadamard_mod_p_f64([[1, 2], [3, 4]], 2, 7).tolist()
    [[4.0, 2.0], [2.0, 2.0]]
    """
    p = require_prime(p, max_value=_MAX_PRIME)
    if not isinstance(lam, int) or lam < 0:
        raise ParameterError(f"lambda must be an integer >= 0, got {lam!r}")
    R = _residues(U, p)
    n = R.shape[0]
    require_fits(8 * n * n, f"the {n} x {n} float64 Gram Hadamard power mod p")
    out = np.empty((n, n), dtype=np.float64)
    if n:
        _gram_rows(R, lam, p, 0, n, out)
    return out


def gram_hadamard_rows_mod_p(U, lam: int, p: int, row0: int, row1: int) -> np.ndarray:
    """Rows row0..row1-1 of G mod p (float64), for building G in row blocks.

    G = (U U^T)^(Hadamard lam) of levine2020_depth_to_width_self_attention.txt
    B.2, l.700-712, mod p.

    Examples
    --------
    >>> gram_hadamard_rows_mod_p([[1, 2], [3, 4]], 2, 7, 1, 2).tolist()   # 11^2, 25^2 mod 7
    [[2.0, 2.0]]
    """
    p = require_prime(p, max_value=_MAX_PRIME)
    R = _residues(U, p)
    n = R.shape[0]
    if not (0 <= row0 <= row1 <= n):
        raise ParameterError(f"row block [{row0}, {row1}) outside 0..{n}")
    require_fits(8 * (row1 - row0) * n, f"a {row1 - row0} x {n} block of G mod p")
    out = np.empty((row1 - row0, n), dtype=np.float64)
    if row1 > row0:
        _gram_rows(R, lam, p, row0, row1, out)
    return out
