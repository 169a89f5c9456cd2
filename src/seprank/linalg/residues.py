"""A matrix over GF(p) held as a numpy array of residues.

:class:`ResidueMatrix` is what the direct builders return and what the numba
modular engine consumes without copying: a float64 (or int64) array whose
entries are the residues in [0, p) of a matrix over GF(p). Passed to
:func:`seprank.rank`, its rank is taken over GF(p), as for a flint
``nmod_mat``; a full rank there certifies full rank of any integer matrix it
is the reduction of (a nonzero minor mod p is a nonzero integer).
"""

from __future__ import annotations

from dataclasses import dataclass

import flint
import numpy as np

from seprank.errors import InputError
from seprank.linalg.modarith import check_residue_dtype, residues_int64
from seprank.scalars.primes import require_prime

__all__ = ["ResidueMatrix"]


@dataclass
class ResidueMatrix:
    """Residues mod ``p`` of a matrix (numpy float64 or integer array, 2-D).

    Any integer dtype is accepted (uint64 above 2^63 included) and reduced
    exactly; float arrays must hold integers of magnitude below 2^53; object
    arrays Python or numpy integers. Anything else (NaN, infinity, fractional
    floats, bool, complex) is refused with an InputError at construction,
    whatever the size (:mod:`seprank.linalg.modarith`).

    Examples
    --------
    [[1, 2], [3, 1]] has determinant 1 - 6 = -5, zero mod 5: rank 1 over GF(5).

    >>> import seprank
    >>> R = ResidueMatrix(np.array([[1, 2], [3, 1]]), 5)
    >>> R.shape, seprank.rank(R).value, seprank.rank(R).field
    ((2, 2), 1, 'GF(5)')
    >>> ResidueMatrix(np.array([[7, -1]]), 5).tolist()
    [[2, 4]]
    >>> ResidueMatrix(np.array([[2**63 + 6, 0]], dtype=np.uint64), 7).tolist()
    [[0, 0]]
    """

    data: np.ndarray
    p: int

    def __post_init__(self) -> None:
        self.p = require_prime(self.p)
        if not isinstance(self.data, np.ndarray) or self.data.ndim != 2:
            raise InputError("ResidueMatrix data must be a 2-dimensional numpy array")
        if self.data.dtype.kind not in "iufO":
            raise InputError(f"ResidueMatrix data has dtype {self.data.dtype}; "
                             "integer or float64 residues expected")
        check_residue_dtype(self.data)  # the same rules at every size (issue 12, item 1)

    @property
    def shape(self) -> tuple[int, int]:
        return self.data.shape

    def to_nmod_mat(self) -> flint.nmod_mat:
        m, n = self.data.shape
        vals = self.residues().ravel().tolist()
        return flint.nmod_mat(m, n, vals, self.p)

    def residues(self) -> np.ndarray:
        """The entries reduced into [0, p), as int64 (exact for every accepted dtype)."""
        return residues_int64(self.data, self.p)

    def tolist(self) -> list[list[int]]:
        return self.residues().tolist()
