"""The exact check A K = 0 of kernel vectors (the multimodular method's upper bound).

:func:`kernel_is_zero` checks a product of integer matrices exactly: by float64
BLAS on signed limbs of the vectors and chunks of A when A fits in int64
(:func:`kernel_is_zero_blas`, with exact carry propagation), else by FLINT
(K^T A^T). :func:`seprank.verify` re-checks certificates with code of its own.
"""

from __future__ import annotations

from math import ceil

import flint
import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

__all__ = ["blas_threads", "kernel_is_zero_blas", "kernel_is_zero"]

_BLAS_THREADS: list[int] = []


def blas_threads() -> int:
    """BLAS threads as configured before any local limit (read once).

    >>> blas_threads() >= 1
    True
    """
    if not _BLAS_THREADS:
        info = [d.get("num_threads", 1) for d in threadpool_info() if d.get("user_api") == "blas"]
        _BLAS_THREADS.append(max(info or [1]))
    return _BLAS_THREADS[0]


def kernel_is_zero_blas(Aint: np.ndarray, vectors: list[list[int]], max_floats: int = 2**22,
                   max_chunks: int = 4) -> bool | None:
    """True iff A K = 0 exactly (K: the vectors as columns), by float64 BLAS; None if
    A's entries are too large for it.

    K is split into signed limbs of c bits and A, unless it fits in 53 - c - log2(n)
    bits, into signed chunks of c bits (at most ``max_chunks``), with every
    chunk-by-limb product below 2^51, so exact in float64; the
    products are summed per bit position t (a + l = t) in int64 and checked with
    exact carry propagation: A K = sum_t P_t 2^(ct) is zero iff every partial
    sum is divisible by 2^c and the final carry is zero.

    Examples
    --------
    >>> A = np.array([[1, 2, 3], [2, 4, 6]])
    >>> kernel_is_zero_blas(A, [[1, 1, -1], [2, -1, 0]]), kernel_is_zero_blas(A, [[1, 0, 0]])
    (True, False)
    """
    m, n = Aint.shape
    k = len(vectors)
    if m == 0 or k == 0:
        return True
    amax = int(np.abs(Aint).max())
    if amax == 0:
        return True
    room = 53 - n.bit_length() - 3   # bits of |chunk| |limb| with n terms summed exactly
    if amax.bit_length() + 16 <= room:  # A in one chunk, wider limbs for K
        c, nA = room - amax.bit_length(), 1
        Ach = Aint.astype(np.float64)
    else:
        c = room // 2
        nA = ceil(amax.bit_length() / c)
        if nA > max_chunks:
            return None
        Aabs, Asgn = np.abs(Aint), np.sign(Aint)
        Ach = np.concatenate([(Asgn * ((Aabs >> (c * a)) & ((1 << c) - 1)))
                              for a in range(nA)]).astype(np.float64)
    mask = (1 << c) - 1
    maxbits = max(abs(x).bit_length() for v in vectors for x in v)
    L = max(1, ceil(maxbits / c))
    nwords = (L * c) // 64 + 2
    per = max(1, max_floats // (nA * m * L))
    for v0 in range(0, k, per):
        vs = vectors[v0:v0 + per]
        kb = len(vs)
        flat = [x for v in vs for x in v]
        buf = b"".join(abs(x).to_bytes(8 * nwords, "little") for x in flat)
        words = np.frombuffer(buf, dtype=np.uint64).reshape(kb * n, nwords)
        limbs = np.empty((kb * n, L), dtype=np.int64)
        for l in range(L):
            w, sh = divmod(c * l, 64)
            val = words[:, w] >> np.uint64(sh)
            if sh + c > 64:
                val = val | (words[:, w + 1] << np.uint64(64 - sh))
            limbs[:, l] = (val & np.uint64(mask)).astype(np.int64)
        sgn = np.fromiter((-1 if x < 0 else 1 for x in flat), dtype=np.int64, count=kb * n)
        limbs *= sgn[:, None]
        # columns ordered (limb, vector), products as int64 blocks P[a, l] (m x kb)
        Kl = limbs.reshape(kb, n, L).transpose(1, 2, 0).reshape(n, L * kb).astype(np.float64)
        with threadpool_limits(limits=blas_threads(), user_api="blas"):  # a large product
            P = Ach @ Kl
        P = P.reshape(nA, m, L, kb).transpose(0, 2, 1, 3).astype(np.int64, order="C")
        carry = np.zeros((m, kb), dtype=np.int64)
        for t in range(nA + L - 1):
            s = carry
            for a in range(max(0, t - L + 1), min(nA, t + 1)):
                s = s + P[a, t - a]
            if np.any(s & mask):
                return False
            carry = s >> c
        if carry.any():
            return False
    return True


def kernel_is_zero(A: flint.fmpz_mat | None, vectors: list[list[int]], n: int,
              Aint: np.ndarray | None = None) -> bool:
    """True iff A K = 0 exactly, K the vectors as columns (float64 limbs or FLINT K^T A^T).
    ``A`` may be None when ``Aint`` holds the matrix (its ``fmpz_mat`` is made on need).

    >>> kernel_is_zero(flint.fmpz_mat([[1, 2, 3]]), [[3, 0, -1], [2**70, -2**69, 0]], 3)
    True
    """
    if Aint is not None:
        ok = kernel_is_zero_blas(Aint, vectors)
        if ok is not None:
            return ok
    if A is None:  # the caller holds only the int64 array (multimodular from numpy)
        A = flint.fmpz_mat(Aint.tolist())
    Kt = flint.fmpz_mat([list(v) for v in vectors])
    return (Kt * A.transpose()).is_zero()
