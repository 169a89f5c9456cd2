"""Turn evidence values into JSON-ready data without losing exactness.

Big integers stay integers when they fit in 64 bits and become decimal strings
otherwise (JSON readers in other languages lose precision beyond 2^53; Python's
does not, but reports are for everyone). Fractions become ``"p/q"`` strings.
Objects with a ``to_dict()`` method (rank results, certificates) use it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["jsonable"]

_INT64 = 2**63


def jsonable(value: Any) -> Any:
    """Return a JSON-serializable version of ``value`` (recursively).

    Examples
    --------
    2^70 does not fit in 64 bits and becomes a string; 4/2 is the integer 2:

    >>> from fractions import Fraction
    >>> jsonable({"q": Fraction(1, 3), "big": 2**70, 7: (Fraction(4, 2), {5})})
    {'q': '1/3', 'big': '1180591620717411303424', '7': [2, [5]]}
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if -_INT64 < value < _INT64 else str(value)
    if isinstance(value, float):
        return value
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else jsonable(value.numerator)
    if hasattr(value, "to_dict"):
        return jsonable(value.to_dict())
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return [jsonable(v) for v in sorted(value, key=repr)]
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return jsonable(int(value))
        if isinstance(value, np.floating):
            return float(value)
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.ndarray):
            return jsonable(value.tolist())
    except ImportError:  # pragma: no cover
        pass
    try:
        import flint

        if isinstance(value, flint.fmpz):
            return jsonable(int(value))
        if isinstance(value, flint.fmpq):
            return jsonable(Fraction(int(value.p), int(value.q)))
        if isinstance(value, (flint.fmpz_mat, flint.fmpq_mat)):
            return [[jsonable(value[i, j]) for j in range(value.ncols())]
                    for i in range(value.nrows())]
    except ImportError:  # pragma: no cover
        pass
    return repr(value)
