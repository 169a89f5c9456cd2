"""Integer numpy matrices without copies to Python integers: the zero matrix, float residues.

Issue 23 item 3 ("memory follows the work"): ``auto`` on a 12000 x 12000 zero int64
``.npy`` (1.15 GB) peaked at 8.96 GB and took 139 s, because the rank mod two primes
(0, not full) sent it to the exact fallbacks, which copied the array into Python
integers (a list, then an ``fmpz_mat``, then back to int64 in the multimodular method)
and lifted a 12000-dimensional kernel. Now:

* :func:`is_zero_array`: one pass over an integer numpy array, no copy; an all-zero
  matrix is rank 0 at once (:func:`zero_result`), exact: every minor is 0 and the
  empty minor is the lower bound 0. With ``certify`` the upper bound is the unit
  vectors of the smaller side's kernel (every vector is in the kernel of 0), which
  :func:`seprank.verify` re-checks like any other;
* :func:`float_residues`: the float64 residues a residue engine (numba, cuda) reads,
  made in one step from the int64 array and handed over as the engine's workspace
  (``overwrite``), so the rank mod p holds the input, the residues and a transient
  int64 copy (3 B for an input of B bytes) instead of 4 B;
* the multimodular fallback reads the int64 array as it is
  (:func:`seprank.linalg.rational.multimodular.rank_multimodular`), and the ``fmpz_mat`` copy
  is made only when ``fmpz_mat.rank`` itself runs.
"""

from __future__ import annotations

import time

import numpy as np

from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.kinds import EXACT
from seprank.linalg.modarith import residues_int64
from seprank.linalg.result import RankResult
from seprank.scalars.primes import DEFAULT_PRIME

__all__ = ["is_zero_array", "zero_result", "float_residues", "ZERO_METHOD"]

#: the ``method`` of a rank read off an all-zero integer array
ZERO_METHOD = "zero-check"


def is_zero_array(matrix: object) -> bool:
    """Whether ``matrix`` is a 2-D integer numpy array with every entry 0 (one pass, no copy).

    >>> is_zero_array(np.zeros((3, 4), dtype=np.int64)), is_zero_array(np.eye(2, dtype=int))
    (True, False)
    >>> is_zero_array([[0, 0]])       # lists go the usual way
    False
    """
    return (isinstance(matrix, np.ndarray) and matrix.ndim == 2
            and matrix.dtype.kind in "iu" and not matrix.any())


def _unit_kernel(shape: tuple[int, int]) -> UpperBoundCertificate:
    """The unit vectors of the smaller kernel side of an m x n zero matrix: rank <= 0."""
    m, n = shape
    side = "right" if n <= m else "left"
    k = n if side == "right" else m
    zeros = (0,) * k
    vectors = tuple(zeros[:f] + (1,) + zeros[f + 1:] for f in range(k))
    return UpperBoundCertificate(bound=0, side=side, vectors=vectors, pivots=tuple(range(k)))


def zero_result(shape: tuple[int, int], certify: bool, start: float) -> RankResult:
    """Rank 0 (exact over QQ) of an m x n zero matrix; with ``certify`` the empty minor
    and the unit kernel vectors (:mod:`seprank.linalg.certificates`).

    >>> res = zero_result((3, 2), True, time.perf_counter())
    >>> res.value, res.kind, res.certificate.upper.side, len(res.certificate.upper.vectors)
    (0, 'exact', 'right', 2)
    """
    cert = None
    if certify:
        lower = LowerBoundCertificate(prime=DEFAULT_PRIME, rows=(), cols=())
        cert = RankCertificate(lower=lower, upper=_unit_kernel(shape))
    return RankResult(value=0, kind=EXACT, method=ZERO_METHOD, field="QQ", shape=tuple(shape),
                      certificate=cert, primes=[], prime_trials=[],
                      note="every entry is 0 (read in one pass): rank 0, exact",
                      seconds=time.perf_counter() - start)


def float_residues(matrix: np.ndarray, p: int) -> np.ndarray:
    """The entries of an integer array mod p as float64 (exact for p < 2^53), C-contiguous:
    the form and the workspace of the residue engines.

    >>> float_residues(np.array([[-1, 8]]), 7).tolist()
    [[6.0, 1.0]]
    """
    res = residues_int64(matrix, p)
    if p >= 2**53:  # pragma: no cover - the residue engines take primes below 2^26
        return res
    return np.ascontiguousarray(res.astype(np.float64))
