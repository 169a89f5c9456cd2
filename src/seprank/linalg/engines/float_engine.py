"""Float rank by singular values (numpy SVD): always a ``float_estimate``.

The rank is the number of singular values above a tolerance. By default the
tolerance is numpy's, sigma_max * max(m, n) * eps (as ``numpy.linalg.matrix_rank``);
``rtol`` gives tol = rtol * sigma_max, ``tol`` an absolute one. The result
carries the tolerance and the gap sigma_r / sigma_(r+1) at the cut: a small
gap says the estimate is fragile. Nothing here is ever reported as exact.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["float_rank"]

#: Matrices whose largest |entry| exceeds this are scaled to max |entry| = 1 before the SVD.
SCALE_ABOVE = 2.0 ** 500


def float_rank(arr: np.ndarray, *, tol: float | None = None, rtol: float | None = None
               ) -> tuple[int, dict]:
    """Return (rank estimate, details) for a float64 matrix.

    Examples
    --------
    diag(1, 1e-20) has singular values 1 and 1e-20; the second lies below the
    default tolerance (about 4.4e-16), so it counts as zero:

    >>> r, details = float_rank(np.diag([1.0, 1e-20]))
    >>> r, details["sigma_max"], details["gap"] > 1e15
    (1, 1.0, True)
    >>> float_rank(np.diag([1.0, 1e-20]), tol=0.0)[0]
    2

    Entries near the float64 limit are scaled first (the rank of [[a, a], [a, a]] is 1):

    >>> r, details = float_rank(np.full((2, 2), 1.7e308))
    >>> r, details["scaled_by"]
    (1, 1.7e+308)
    """
    m, n = arr.shape
    if m == 0 or n == 0:
        return 0, {"tolerance": 0.0, "gap": math.inf, "sigma_max": 0.0}
    # Entries near the top of the float64 range make the SVD overflow to inf (and
    # the rank to 0). Scaling by a constant does not change the rank: divide by the
    # largest |entry| and report the singular values of the scaled matrix.
    scale = float(np.max(np.abs(arr)))
    if scale > SCALE_ABOVE:
        arr = arr / scale
        if tol is not None:
            tol = tol / scale
    else:
        scale = 1.0
    s = np.linalg.svd(arr, compute_uv=False)
    eps = float(np.finfo(np.float64).eps)
    if tol is None:
        tol = float(s[0]) * (rtol if rtol is not None else max(m, n) * eps)
    r = int(np.count_nonzero(s > tol))
    kept = float(s[r - 1]) if r > 0 else math.inf
    dropped = float(s[r]) if r < len(s) else 0.0
    gap = kept / dropped if dropped > 0 else math.inf
    details = {
        "tolerance": float(tol),
        "relative_tolerance": float(tol / s[0]) if s[0] > 0 else None,
        "sigma_max": float(s[0]),
        "sigma_smallest_kept": kept if r > 0 else None,
        "sigma_largest_dropped": dropped if r < len(s) else None,
        "gap": gap,
    }
    if len(s) <= 16:
        details["singular_values"] = [float(x) for x in s]
    if scale != 1.0:
        details["scaled_by"] = scale
        details["scaling_note"] = ("the matrix was divided by its largest |entry| before the "
                                   "SVD; singular values and tolerance are of the scaled matrix")
    return r, details
