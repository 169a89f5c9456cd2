"""Exact and modular rank with python-flint, and the certificates they yield.

* over Q: ``fmpz_mat.rank`` (FLINT's fraction-free elimination) on the integer
  matrix of the same rank;
* over GF(p): ``nmod_mat.rank`` for a word-size prime p;
* certificates: the pivot rows and columns of a reduced row echelon form mod p
  give a nonsingular minor mod p (rows that span the row space and columns
  that span the column space always meet in a nonsingular r x r block); the
  kernel basis read off the fraction-free RREF over Q (``fmpz_mat.rref``)
  gives integer kernel vectors in standard form (vector j has the RREF's
  denominator at free column j and zero at the other free columns).

References
----------
H. Cohen, A Course in Computational Algebraic Number Theory, Alg. 2.3.1 (kernel
from an echelon form). FLINT documentation, fmpz_mat_rref and nmod_mat_rref.
"""

from __future__ import annotations

from math import gcd

import flint

from seprank.linalg.certificates import LowerBoundCertificate, UpperBoundCertificate

__all__ = ["rank_exact", "rank_mod_p", "reduce_mod_p", "pivot_columns", "lower_certificate",
           "kernel_certificate", "kernel_certificate_mod_p"]


def rank_exact(z: flint.fmpz_mat) -> int:
    """Rank over Q of an integer matrix (exact).

    Examples
    --------
    >>> rank_exact(flint.fmpz_mat([[1, 2], [2, 4]])), rank_exact(flint.fmpz_mat(0, 3))
    (1, 0)
    """
    if z.nrows() == 0 or z.ncols() == 0:
        return 0
    return int(z.rank())


def reduce_mod_p(z: flint.fmpz_mat, p: int) -> flint.nmod_mat:
    """The matrix with entries reduced modulo p.

    Examples
    --------
    >>> reduce_mod_p(flint.fmpz_mat([[7, -1]]), 5).tolist()
    [[2, 4]]
    """
    if z.nrows() == 0:
        return flint.nmod_mat(0, z.ncols(), [], p)
    return flint.nmod_mat(z, p)


def rank_mod_p(nm: flint.nmod_mat) -> int:
    """Rank over GF(p) of a matrix given mod p (0 for an empty one).

    Examples
    --------
    det [[1, 2], [3, 1]] = -5 vanishes mod 5 but not mod 7:

    >>> A = [[1, 2], [3, 1]]
    >>> rank_mod_p(flint.nmod_mat(A, 5)), rank_mod_p(flint.nmod_mat(A, 7))
    (1, 2)
    """
    if nm.nrows() == 0 or nm.ncols() == 0:
        return 0
    return int(nm.rank())


def pivot_columns(R, r: int) -> list[int]:
    """Pivot columns of the first ``r`` rows of a row echelon form ``R``.

    Invariants: pivots strictly increase, so the scan for row i starts right
    after row i-1's pivot; the total work is O(r + n) entry reads.

    Examples
    --------
    >>> pivot_columns(flint.fmpz_mat([[0, 1, 5, 0], [0, 0, 0, 1]]), 2)
    [1, 3]
    """
    cols, j, n = [], 0, R.ncols()
    for i in range(r):
        while j < n and int(R[i, j]) == 0:
            j += 1
        if j == n:  # pragma: no cover - an RREF of rank r has r pivots
            raise AssertionError("echelon form has fewer pivots than its rank")
        cols.append(j)
        j += 1
    return cols


def lower_certificate(nm: flint.nmod_mat) -> tuple[int, LowerBoundCertificate]:
    """Rank of ``nm`` over GF(p) and a nonsingular minor of that size mod p.

    Examples
    --------
    Row 1 is twice row 0; rows 0, 2 and columns 0, 1 give det [[1, 2], [1, 0]] = -2:

    >>> r, cert = lower_certificate(flint.nmod_mat([[1, 2, 3], [2, 4, 6], [1, 0, 1]], 5))
    >>> r, cert.rows, cert.cols
    (2, (0, 2), (0, 1))
    """
    p = int(nm.modulus())
    if nm.nrows() == 0 or nm.ncols() == 0:
        return 0, LowerBoundCertificate(prime=p, rows=(), cols=())
    R, r = nm.rref()
    cols = pivot_columns(R, int(r))
    Rt, rt = nm.transpose().rref()
    rows = pivot_columns(Rt, int(rt))
    return int(r), LowerBoundCertificate(prime=p, rows=tuple(rows), cols=tuple(cols))


def _standard_kernel(R, den, r: int, ncols: int, modulus: int | None
                     ) -> tuple[list[tuple[int, ...]], list[int]]:
    piv = pivot_columns(R, r)
    pivset = set(piv)
    free = [j for j in range(ncols) if j not in pivset]
    vectors = []
    for f in free:
        v = [0] * ncols
        v[f] = den
        for i, pc in enumerate(piv):
            v[pc] = -int(R[i, f])
        if modulus is None:
            g = 0
            for x in v:
                g = gcd(g, x)
            if g > 1:
                v = [x // g for x in v]
        else:
            v = [x % modulus for x in v]
        vectors.append(tuple(v))
    return vectors, free


def kernel_certificate(z: flint.fmpz_mat, r: int) -> UpperBoundCertificate:
    """Integer kernel vectors proving rank <= r (the smaller kernel side is used).

    Examples
    --------
    The columns satisfy c0 + c1 - c2 = 0, so (1, 1, -1) is in the right kernel:

    >>> cert = kernel_certificate(flint.fmpz_mat([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 2)
    >>> cert.bound, cert.side, cert.vectors
    (2, 'right', ((1, 1, -1),))
    """
    m, n = z.nrows(), z.ncols()
    if r == min(m, n):
        return UpperBoundCertificate(bound=r, side="trivial")
    side = "right" if n <= m else "left"
    M = z if side == "right" else z.transpose()
    R, den, rr = M.rref()
    vectors, free = _standard_kernel(R, int(den), int(rr), M.ncols(), None)
    return UpperBoundCertificate(bound=int(rr), side=side, vectors=tuple(vectors),
                                 pivots=tuple(free))


def kernel_certificate_mod_p(nm: flint.nmod_mat, r: int) -> UpperBoundCertificate:
    """Kernel vectors over GF(p) proving rank_GF(p) <= r.

    Examples
    --------
    The same kernel as in :func:`kernel_certificate`, scaled to (4, 4, 1) = -(1, 1, -1) mod 5:

    >>> nm = flint.nmod_mat([[1, 2, 3], [2, 4, 6], [1, 0, 1]], 5)
    >>> cert = kernel_certificate_mod_p(nm, 2)
    >>> cert.vectors, cert.modulus
    (((4, 4, 1),), 5)
    """
    m, n = nm.nrows(), nm.ncols()
    p = int(nm.modulus())
    if r == min(m, n):
        return UpperBoundCertificate(bound=r, side="trivial", modulus=p)
    side = "right" if n <= m else "left"
    M = nm if side == "right" else nm.transpose()
    R, rr = M.rref()
    vectors, free = _standard_kernel(R, 1, int(rr), M.ncols(), p)
    return UpperBoundCertificate(bound=int(rr), side=side, vectors=tuple(vectors),
                                 pivots=tuple(free), modulus=p)
