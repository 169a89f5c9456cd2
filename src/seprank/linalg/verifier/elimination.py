"""The verifier's own test that a square integer matrix is nonsingular mod a prime.

This is the arithmetic behind a lower-bound certificate (a minor nonzero mod p):
a blocked Gaussian elimination of its own, float64 with delayed reduction for
p < 2^31 (products split in two from 2^21); for 2^31 <= p < 2^62 an unblocked
elimination whose products mod p are vectorized int64 arithmetic with quotients from
numpy's extended precision (:func:`_det_nonzero_wide`); Python integers above (and
where the extended type is no wider than float64). It is part of
:mod:`seprank.linalg.verifier.verify` and, like the rest of the verifier, shares no code
with the engines: it imports nothing from seprank but numpy.

The input is the verifier's snapshot (:mod:`seprank.linalg.verifier.snapshot`): an
int64 array or lists of Python ints, never a caller's object. Tested against
flint's determinant in tests/test_verify_elimination.py.
"""

from __future__ import annotations

import numpy as np

__all__ = ["det_nonzero_mod_p", "fmod_exact"]

_TWO53 = 2**53


def fmod_exact(x: np.ndarray, p: int) -> np.ndarray:
    """x mod p, in place, for a float64 array of integers |x| < 2^53 and p < 2^31.

    floor(x / p) may be off by one in rounding, so the remainder is corrected into
    [0, p) afterwards. Also the kernel product's reduction
    (:mod:`seprank.linalg.verifier.kernel`).

    Parameters
    ----------
    x : float64 ndarray of integers below 2^53 in absolute value (overwritten)
    p : int, 2 <= p < 2^31

    Returns
    -------
    x, holding its residues in [0, p)

    Examples
    --------
    >>> fmod_exact(np.array([-1.0, 7.0, 2.0**52 + 1]), 7).tolist()
    [6.0, 0.0, 3.0]
    """
    q = np.floor(x * (1.0 / p))
    x -= q * p  # exact: |x - q p| < 2p, and q p is within 2^53 of an exact product
    x += np.where(x < 0, p, 0.0)
    x -= np.where(x >= p, p, 0.0)
    return x


#: panel width of the verifier's blocked elimination
_PANEL = 96
#: from this prime on the float64 elimination keeps balanced residues (below it, a
#: balanced residue could be a nonzero multiple of p, see _balance: residues in [0, p))
_FLOAT_MIN_PRIME = 7
#: the float64 elimination keeps every entry below this in absolute value (exact in
#: float64); a test lowers it to exercise the trailing block's reductions
_GROWTH_LIMIT = 2**52


def _balance(x: np.ndarray, p: int) -> np.ndarray:
    """x minus the nearest multiple of p, in place: |result| <= p/2 + 2, same class mod p.

    x holds float64 integers with |x| < 2^52. With t the computed x * (1/p),
    |t - x/p| <= |x/p| 2^-52 (two roundings), so q = rint(t) is within
    1/2 + |x/p| 2^-52 of x/p and |x - q p| <= p/2 + |x| 2^-52 < p/2 + 2. Every
    operation is exact: q p and x are integers below 2^53 and so is their
    difference. For p >= 7, p/2 + 2 < p, so the result is 0 iff x = 0 mod p.
    """
    q = x * (1.0 / p)
    np.rint(q, out=q)
    q *= p
    x -= q
    return x


#: primes from here take the split products of :func:`_det_nonzero_float`
_SPLIT_PRIME = 2**21
#: the largest modulus (exclusive) of the float64 elimination
_FLOAT_MAX_PRIME = 2**31
_HALF = 2.0**15


def _det_nonzero_float(rows, p: int) -> bool:
    """det != 0 mod p (p < 2^31): blocked LU in float64 with delayed reduction.

    Entries are kept as float64 integers below 2^52 in absolute value, so every
    operation is exact; "reduced" means balanced (:func:`_balance`), of absolute
    value h <= p/2 + 2.

    Each panel of ``_PANEL`` columns is copied, reduced and factored left-looking
    (Crout): column j is updated only when it is reached, by one product of the
    panel's finished multipliers and U entries, reduced, searched for a nonzero
    pivot (rows swapped in the panel and, recorded, in the columns to its
    right), and turned into multipliers. The panel's U block to the right (rows
    of the panel) is solved row by row the same way. The trailing block then
    takes one product per panel.

    Products (:func:`_sub_product`): for p < 2^21 (h < 2^20 + 3) a product of
    ``_PANEL`` terms is below _PANEL h^2 < 2^47 and is taken as it is; the
    trailing block is reduced only when the next product could pass 2^52. For
    2^21 <= p < 2^31 (h < 2^30 + 3) the right factor is split as B1 2^15 + B0
    with |B1| <= 2^15 + 1 and 0 <= B0 < 2^15: each of the two products has terms
    below 2^45.1 and sums below 2^51.7, and is reduced before they are combined,
    so a product enters reduced. Nothing here is shared with the engines.
    """
    if isinstance(rows, np.ndarray):   # int64: taken as they are when below 2^50
        big = rows.size and (int(rows.max()) >= 2**50 or int(rows.min()) <= -(2**50))
        a = np.ascontiguousarray(rows % p if big else rows, dtype=np.float64)
    else:
        a = np.array([[x % p for x in row] for row in rows], dtype=np.float64)
    r = a.shape[0]
    # balanced residues; for p < 7 a balanced residue may be a nonzero multiple of p
    # (|x| <= p/2 + 2 >= p), so there residues are taken in [0, p) instead
    red = _balance if p >= _FLOAT_MIN_PRIME else fmod_exact
    split = p >= _SPLIT_PRIME
    h = p // 2 + 2                        # bound on a reduced entry
    step = h if split else _PANEL * h * h  # growth of one trailing product
    # bound on |entries| of the trailing block (the input's own, below 2^50, at first)
    growth = max(p, int(np.abs(a).max())) if r else p
    # the unsplit trailing product, written in place
    buf = np.empty(0 if split else max(0, r - _PANEL) ** 2)
    for k0 in range(0, r, _PANEL):
        k1 = min(r, k0 + _PANEL)
        w = k1 - k0
        P = red(a[k0:, k0:k1].copy(), p)     # the panel, contiguous, reduced
        swaps = []
        for j in range(w):
            col = P[j:, j]
            if j:
                red(_sub_product(col, P[j:, :j], P[:j, j], p, split, red), p)
            nz = np.flatnonzero(col)
            if nz.size == 0:
                return False
            if nz[0]:
                piv = j + int(nz[0])
                P[[j, piv]] = P[[piv, j]]
                swaps.append((k0 + j, k0 + piv))
            if j + 1 < w:                          # row j of U inside the panel
                if j:
                    _sub_product(P[j, j + 1:], P[j, :j], P[:j, j + 1:], p, split, red)
                red(P[j, j + 1:], p)
            if j + 1 < P.shape[0]:                 # multipliers, below the pivot
                _scale(P[j + 1:, j], pow(int(P[j, j]) % p, -1, p), p, split, red)
        if k1 == r:
            break
        for x, y in swaps:
            a[[x, y], k1:] = a[[y, x], k1:]
        U = red(a[k0:k1, k1:], p)            # U12 = L11^-1 A12, row by row
        for i in range(1, w):
            red(_sub_product(U[i], P[i, :i], U[:i], p, split, red), p)
        if growth + step >= _GROWTH_LIMIT:
            red(a[k1:, k1:], p)
            growth = h
        if split:
            _sub_product(a[k1:, k1:], P[w:, :], U, p, split, red)
        else:
            prod = buf[:(r - k1) ** 2].reshape(r - k1, r - k1)
            np.matmul(P[w:, :], U, out=prod)
            a[k1:, k1:] -= prod
        growth += step
    return True


def _sub_product(x: np.ndarray, A: np.ndarray, B: np.ndarray, p: int, split: bool,
                 red=_balance):
    """x -= A @ B in place (A, B reduced; at most ``_PANEL`` terms); see _det_nonzero_float.

    Unsplit, A @ B is subtracted as it is (below _PANEL h^2); split, it is formed
    from B = B1 2^15 + B0 and reduced (below h), so x grows by at most that."""
    if not split:
        x -= A @ B
        return x
    B1 = np.floor(B / _HALF)
    hi = red(A @ B1, p)
    hi *= _HALF
    hi += red(A @ (B - B1 * _HALF), p)
    x -= red(hi, p)
    return x


def _scale(x: np.ndarray, c: int, p: int, split: bool, red=_balance) -> np.ndarray:
    """x <- x c, reduced, in place (x reduced, 0 <= c < p)."""
    if not split:
        x *= float(c)
        return red(x, p)
    c1, c0 = divmod(c, 2**15)          # c1 < 2^16, c0 < 2^15: products below 2^46.1
    hi = red(x * float(c1), p)
    hi *= _HALF
    x *= float(c0)
    x += hi
    return red(x, p)


#: the largest modulus (exclusive) of :func:`_det_nonzero_wide`: residues and the
#: remainders before correction, in (-p, 2p), stay inside int64
_WIDE_MAX_PRIME = 2**62
#: numpy's long double holds every integer below 2^64 exactly (a 64-bit significand, as
#: x86's extended type; 113 bits for quad): the quotient estimates of _mulmod_wide need it
_WIDE_OK = np.finfo(np.longdouble).nmant >= 63
#: entries of one product block of :func:`_det_nonzero_wide` (bounds its temporaries)
_WIDE_BLOCK = 1 << 16


def _mulmod_wide(x: np.ndarray, y: np.ndarray, y_over_p: np.ndarray, p: int) -> np.ndarray:
    """x * y mod p, broadcast, for int64 residues in [0, p), p < 2^62.

    ``y_over_p`` is y / p in long double. The quotient q = trunc(x * (y / p)) is within
    one of floor(x y / p): two roundings of relative size 2^-64 each move x y / p < 2^62
    by less than 1/2. So x y - q p lies in [-p, 2p), and it is computed exactly in int64
    arithmetic modulo 2^64 (both products wrap; the difference is the true one, being
    below 2^63 in absolute value); one correction each way gives [0, p).
    """
    q = (x.astype(np.longdouble) * y_over_p).astype(np.int64)
    r = x * y
    r -= q * p
    r += (r >> 63) & p        # [-p, 2p) -> [0, 2p)
    r -= p
    r += (r >> 63) & p        # [-p, p) -> [0, p)
    return r


def _det_nonzero_wide(rows, p: int) -> bool:
    """det != 0 mod p for 2^31 <= p < 2^62: Gaussian elimination on int64 residues, each
    rank-one update x - f u mod p taken by :func:`_mulmod_wide` in blocks of rows (at most
    :data:`_WIDE_BLOCK` entries at once). About r^3 / 3 products, each a few vectorized
    operations: at r = 400 well under a second, where Python integers take half a minute.
    """
    if isinstance(rows, np.ndarray) and rows.dtype.kind == "i":
        a = rows.astype(np.int64) % p     # numpy's % of a positive p is in [0, p)
    else:
        a = np.array([[int(x) % p for x in row] for row in rows], dtype=np.int64)
    r = a.shape[0]
    pl = np.longdouble(p)
    for k in range(r):
        nz = np.flatnonzero(a[k:, k])
        if nz.size == 0:
            return False
        if nz[0]:
            a[[k, k + int(nz[0])]] = a[[k + int(nz[0]), k]]
        if k + 1 == r:
            break
        inv = np.array([pow(int(a[k, k]), -1, p)], dtype=np.int64)
        f = _mulmod_wide(a[k + 1:, k], inv, inv.astype(np.longdouble) / pl, p)
        u = a[k, k + 1:]
        u_over_p = u.astype(np.longdouble) / pl
        step = max(1, _WIDE_BLOCK // max(u.size, 1))
        for i0 in range(0, f.size, step):
            block = a[k + 1 + i0:k + 1 + i0 + step, k + 1:]
            block -= _mulmod_wide(f[i0:i0 + step, None], u[None, :], u_over_p[None, :], p)
            block += (block >> 63) & p
    return True


def det_nonzero_mod_p(rows, p: int) -> bool:
    """det(rows) != 0 mod p, by blocked Gaussian elimination (p prime).

    p < 2^31: float64 (:func:`_det_nonzero_float`); p < 2^62: int64 with extended-precision
    quotients (:func:`_det_nonzero_wide`); larger primes: Python integers, row by row.
    A square matrix is nonsingular mod p iff elimination finds a nonzero pivot in every
    column (the lower-bound certificate of
    :mod:`seprank.linalg.certificates`).

    Parameters
    ----------
    rows : an r x r int64 ndarray or list of lists of Python ints (any size;
        entries are reduced mod p here)
    p : int, a prime (checked by the caller)

    Returns
    -------
    bool: True iff det(rows) is not 0 mod p (True for r = 0: the empty minor is 1)

    Examples
    --------
    det [[1, 2], [3, 1]] = -5: nonzero mod 7, zero mod 5.

    >>> det_nonzero_mod_p([[1, 2], [3, 1]], 7), det_nonzero_mod_p([[1, 2], [3, 1]], 5)
    (True, False)
    """
    r = len(rows)
    if r == 0:
        return True
    if p < _FLOAT_MAX_PRIME:
        return _det_nonzero_float(rows, p)
    if p < _WIDE_MAX_PRIME and _WIDE_OK:
        return _det_nonzero_wide(rows, p)
    if isinstance(rows, np.ndarray):
        rows = rows.tolist()
    a = [[x % p for x in row] for row in rows]
    for k in range(r):
        piv = next((i for i in range(k, r) if a[i][k]), None)
        if piv is None:
            return False
        a[k], a[piv] = a[piv], a[k]
        inv = pow(a[k][k], -1, p)
        a[k] = [x * inv % p for x in a[k]]
        for i in range(k + 1, r):
            f = a[i][k]
            if f:
                a[i] = [(x - f * y) % p for x, y in zip(a[i], a[k], strict=True)]
    return True

