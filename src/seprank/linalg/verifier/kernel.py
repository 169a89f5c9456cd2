"""The verifier's exact check that kernel vectors are in the kernel: M V = 0.

Part of :mod:`seprank.linalg.verifier.verify`, for upper-bound certificates; shares no code
with the engines. Over Q (M and V integer) the product is formed modulo primes
q < 2^21 (float64 BLAS products of residues, exact: each partial sum stays below
2^53, the inner dimension split into chunks) until their product exceeds
2 b max|M| max|V| for inner dimension b: an integer of absolute value below half
the modulus that is 0 modulo every prime is 0, so the test is exact, not
probabilistic. Over GF(p) with p < 2^31 the product is formed the same way after
splitting the residues into 16-bit halves; larger p use Python integers.

Its inputs are the verifier's snapshot (:mod:`seprank.linalg.verifier.snapshot`):
an int64 array or lists of Python ints, never a caller's object.
"""

from __future__ import annotations

import numpy as np

from seprank.linalg.verifier.elimination import fmod_exact
from seprank.linalg.verifier.primes import crt_primes

__all__ = ["product_is_zero"]

_TWO53 = 2**53


def _matmul_mod(M: np.ndarray, V: np.ndarray, p: int) -> np.ndarray:
    """(M V) mod p for int64 residues in [0, p), p < 2^31, exactly (int64 result).

    p < 2^21: float64 products of residues (terms below 2^42, summed in
    chunks short enough to stay below 2^53). Otherwise by 16-bit halves: with
    M = M1 2^16 + M0 and V = V1 2^16 + V0 each half-product has terms below
    2^32, and sums of up to 2^20 of them are exact in float64.
    """
    a, b = M.shape
    k = V.shape[1]
    if b == 0:
        return np.zeros((a, k), dtype=np.int64)
    if p < 2**21:
        chunk = max(1, (_TWO53 - p) // max(1, (p - 1) ** 2) - 1)
        Mf, Vf = M.astype(np.float64), V.astype(np.float64)
        acc = np.zeros((a, k), dtype=np.float64)
        for k0 in range(0, b, chunk):
            acc = fmod_exact(acc + Mf[:, k0:k0 + chunk] @ Vf[k0:k0 + chunk], p)
        return acc.astype(np.int64)
    M0, M1 = (M & 0xFFFF).astype(np.float64), (M >> 16).astype(np.float64)
    V0, V1 = (V & 0xFFFF).astype(np.float64), (V >> 16).astype(np.float64)
    acc = np.zeros((a, k), dtype=np.int64)
    s16, s32 = pow(2, 16, p), pow(2, 32, p)
    for k0 in range(0, b, 2**20):
        sl = slice(k0, k0 + 2**20)
        lo = (M0[:, sl] @ V0[sl]).astype(np.int64) % p
        mid = ((M1[:, sl] @ V0[sl]).astype(np.int64) % p
               + (M0[:, sl] @ V1[sl]).astype(np.int64) % p) % p
        hi = (M1[:, sl] @ V1[sl]).astype(np.int64) % p
        acc = (acc + lo + (mid * s16) % p + (hi * s32) % p) % p
    return acc



def _residue_table(values: list[int], primes: list[int]) -> np.ndarray:
    """values mod each prime (< 2^21), as a float64 array of shape (len(values), len(primes)).

    Small values go through int64 directly; large ones are cut into 16-bit
    limbs l_t (|x| = sum_t l_t 2^(16 t)) and reduced as a float64 product of
    the limbs with 2^(16 t) mod q: every term is below 2^37, so sums of up to
    2^15 terms are exact, and longer numbers are summed in such chunks.
    """
    N = len(values)
    out = np.empty((N, len(primes)), dtype=np.float64)
    if N == 0:
        return out
    try:
        arr = np.array(values, dtype=np.int64)
        if arr.size and int(np.abs(arr).max()) < 2**62:
            for t, q in enumerate(primes):
                out[:, t] = arr % q
            return out
    except OverflowError:
        pass
    nbytes = max((abs(x).bit_length() + 7) // 8 for x in values)
    nbytes += nbytes % 2
    buf = b"".join(abs(x).to_bytes(nbytes, "little") for x in values)
    limbs = np.frombuffer(buf, dtype="<u2").reshape(N, nbytes // 2).astype(np.float64)
    L = limbs.shape[1]
    sign = np.array([-1.0 if x < 0 else 1.0 for x in values])
    qs = np.array(primes, dtype=np.float64)
    pw = np.empty((L, len(primes)), dtype=np.float64)
    for t, q in enumerate(primes):
        pw[:, t] = [pow(2, 16 * j, q) for j in range(L)]
    acc = np.zeros((N, len(primes)), dtype=np.float64)
    for j0 in range(0, L, 2**15):
        acc = np.fmod(acc + limbs[:, j0:j0 + 2**15] @ pw[j0:j0 + 2**15], qs)
    return np.mod(acc * sign[:, None], qs)


def _matmul_zero_small(Mq: np.ndarray, Vq: np.ndarray, q: int) -> bool:
    """(M V) mod q == 0 for residues in [0, q), q < 2^21: float64 products, exact."""
    chunk = max(1, (_TWO53 - q) // ((q - 1) ** 2 or 1) - 1)
    acc = np.zeros((Mq.shape[0], Vq.shape[1]), dtype=np.float64)
    for k0 in range(0, Mq.shape[1], chunk):
        acc = fmod_exact(acc + Mq[:, k0:k0 + chunk] @ Vq[k0:k0 + chunk], q)
    return not acc.any()


def product_is_zero(M, V: list[list[int]], modulus: int | None) -> bool:
    """True iff M V = 0 exactly (mod ``modulus`` when given); M is a x b, V is b x k.

    Parameters
    ----------
    M : an a x b int64 ndarray (entries below 2^62 in absolute value) or list of
        lists of Python ints
    V : list of b lists of k Python ints (the kernel vectors as columns)
    modulus : None (the product over Z) or a prime p (the product mod p)

    Returns
    -------
    bool (True when a, b or k is 0)

    Examples
    --------
    >>> product_is_zero([[1, 2], [2, 4]], [[2], [-1]], None)
    True
    >>> product_is_zero([[1, 2], [2, 4]], [[1], [1]], None), product_is_zero([[1], [1]], [[3]], 3)
    (False, True)
    """
    a, b = len(M), len(V)
    k = len(V[0]) if V else 0
    if a == 0 or k == 0 or b == 0:
        return True
    is_arr = isinstance(M, np.ndarray)  # int64 entries, |x| < 2^62
    if modulus is not None:
        if modulus < 2**31:
            Mr = (M % modulus if is_arr
                  else np.array([[x % modulus for x in r] for r in M], dtype=np.int64))
            Vr = np.array([[x % modulus for x in r] for r in V], dtype=np.int64)
            return not _matmul_mod(Mr, Vr, modulus).any()
        if is_arr:
            M = M.tolist()
        cols = list(zip(*V, strict=True))
        return all(sum(x * y for x, y in zip(r, c, strict=True)) % modulus == 0
                   for r in M for c in cols)
    mflat = None if is_arr else [x for r in M for x in r]
    vflat = [x for r in V for x in r]
    mmax = int(np.abs(M).max()) if is_arr else max(abs(x) for x in mflat)
    vmax = max(abs(x) for x in vflat)
    if mmax == 0 or vmax == 0:
        return True
    bound = 2 * b * mmax * vmax  # |(M V)_ij| < bound / 2
    primes, prod = [], 1
    for q in crt_primes():
        primes.append(q)
        prod *= q
        if prod > bound:
            break
    else:  # pragma: no cover - products beyond 4096 primes of 21 bits: Python integers
        M = M.tolist() if is_arr else M
        cols = list(zip(*V, strict=True))
        return all(sum(x * y for x, y in zip(r, c, strict=True)) == 0 for r in M for c in cols)
    step = max(1, 2**23 // max(a * b, len(vflat)))
    for g in range(0, len(primes), step):
        group = primes[g:g + step]
        Mt = None if is_arr else _residue_table(mflat, group)
        Vt = _residue_table(vflat, group)
        for t, q in enumerate(group):
            Mq = (M % q).astype(np.float64) if is_arr else Mt[:, t].reshape(a, b)
            if not _matmul_zero_small(Mq, Vt[:, t].reshape(b, k), q):
                return False
    return True

