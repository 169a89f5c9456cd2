"""Scalar kernels mod p shared by the numba engines and builders.

``mod_f64(x, p, inv)`` reduces an exact integer |x| < 2^53 held in float64 to
[0, p): x * (1/p) is within one unit in the last place of x / p, so
floor(x * (1/p)) is off by at most one, and the two corrections fix that. It
replaces integer division (tens of cycles) by a multiply, a floor and a
compare: the delayed-reduction technique's reduction step (Dumas, Giorgi,
Pernet, ACM TOMS 35(3), 2008).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["mod_f64"]


@numba.njit(cache=True, inline="always")
def mod_f64(x, pf, inv):  # pragma: no cover - compiled
    """x mod p in [0, p) for an exact integer |x| < 2^53 in float64; pf = p, inv = 1/p."""
    r = x - pf * np.floor(x * inv)
    if r >= pf:
        r -= pf
    elif r < 0.0:
        r += pf
    return r
