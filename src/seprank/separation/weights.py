"""Network weights as a JSON object, so that anyone can recompute a separation rank.

The object (issue 11): ``{"Q": [layer][head][row][col], "K": ..., "V": ...}``
with each W^{Q,l,h}, W^{K,l,h}, W^{V,l,h} of shape d_a x d_x, and
``"O": [layer][head]`` of shape d_x x d_a (levine2020 sec. 2.2, l.81; layer and
head 0-based). Entries are JSON integers or strings ``"p/q"`` (exact rationals);
floats are refused. A whole ``seprank sep-rank --json`` answer is accepted too:
its ``"weights"`` member is read.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from seprank.errors import InputError

__all__ = ["weights_to_json", "weights_from_json", "load_weights"]

_KINDS = ("Q", "K", "V", "O")


def _entry_json(x) -> int | str:
    f = Fraction(x)
    return int(f) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def weights_to_json(weights: dict) -> dict:
    """The JSON form of ``net.weights`` (ints, or "p/q" strings for non-integers).

    >>> w = {k: np.array([[[[1]]]], dtype=object) for k in "QKV"}
    >>> w["O"] = np.array([[[[Fraction(1, 2)]]]], dtype=object)
    >>> weights_to_json(w)["O"]
    [[[['1/2']]]]
    """
    out = {}
    for k in _KINDS:
        arr = np.asarray(weights[k], dtype=object)
        out[k] = np.vectorize(_entry_json, otypes=[object])(arr).tolist() if arr.size else \
            arr.tolist()
    return out


def _entry(x, where: str) -> int | Fraction:
    if isinstance(x, bool):
        raise InputError(f"{where} is a bool ({x}); weights are integers or 'p/q' strings")
    if isinstance(x, int):
        return x
    if isinstance(x, str):
        try:
            f = Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{where} is {x!r}, not an integer or a 'p/q' string") from None
        if "." in x or "e" in x.lower():
            raise InputError(f"{where} is {x!r}: write exact rationals as 'p/q', not decimals")
        return int(f) if f.denominator == 1 else f
    raise InputError(f"{where} is {x!r} ({type(x).__name__}); weights are integers or "
                     "'p/q' strings (no floats)")


def _shape(obj, kind: str) -> tuple[int, ...]:
    """The shape of a nested list, refusing ragged ones."""
    if not isinstance(obj, list):
        return ()
    subs = {_shape(x, kind) for x in obj}
    if len(subs) > 1:
        raise InputError(f"weights['{kind}'] is ragged: every layer, head and row must have "
                         "the same length")
    return (len(obj),) + (subs.pop() if subs else ())


def _array(obj, kind: str) -> np.ndarray:
    if not isinstance(obj, list):
        raise InputError(f"weights['{kind}'] must be a nested list [layer][head][row][col]")
    shape = _shape(obj, kind)
    if len(shape) != 4:
        raise InputError(f"weights['{kind}'] must be 4-dimensional [layer][head][row][col], "
                         f"got {len(shape)} dimensions (shape {shape})")
    arr = np.empty(shape, dtype=object)
    for idx in np.ndindex(shape):
        x = obj
        for i in idx:
            x = x[i]
        arr[idx] = _entry(x, f"weights['{kind}']{list(idx)}")
    return arr


def weights_from_json(obj: object) -> tuple[dict, dict]:
    """Weight arrays and the shape they imply: ({kind: array}, {"L", "H", "d_a", "d_x"}),
    plus "residual" when ``obj`` is a saved answer that says it.

    Raises InputError (one line) for a missing kind, a ragged or non-4-D list,
    floats, and shapes that do not fit one network.

    >>> w, dims = weights_from_json({"Q": [[[[1, 0]]]], "K": [[[[0, 1]]]], "V": [[[[1, 1]]]],
    ...                              "O": [[[["1/2"], [0]]]]})
    >>> dims
    {'L': 1, 'H': 1, 'd_a': 1, 'd_x': 2}
    """
    residual = None
    if isinstance(obj, dict) and "weights" in obj and "Q" not in obj:
        residual = obj.get("residual")
        obj = obj["weights"]
    if not isinstance(obj, dict):
        raise InputError("weights must be a JSON object with members Q, K, V, O")
    missing = [k for k in _KINDS if k not in obj]
    if missing:
        raise InputError(f"weights lack the member(s) {', '.join(missing)}")
    arrs = {k: _array(obj[k], k) for k in _KINDS}
    L, H, d_a, d_x = arrs["Q"].shape
    if L < 1 or H < 1 or d_a < 1 or d_x < 1:
        raise InputError(f"weights['Q'] has an empty dimension (shape {arrs['Q'].shape})")
    for k in "KV":
        if arrs[k].shape != (L, H, d_a, d_x):
            raise InputError(f"weights['{k}'] has shape {arrs[k].shape}, but Q has "
                             f"{(L, H, d_a, d_x)}: every one of Q, K, V is (L, H, d_a, d_x)")
    if arrs["O"].shape != (L, H, d_x, d_a):
        raise InputError(f"weights['O'] has shape {arrs['O'].shape}; (L, H, d_x, d_a) = "
                         f"{(L, H, d_x, d_a)} expected from Q")
    dims = {"L": L, "H": H, "d_a": d_a, "d_x": d_x}
    if residual is not None:  # a saved answer also says whether the network is residual
        dims["residual"] = bool(residual)
    return arrs, dims


def load_weights(path: str | Path) -> tuple[dict, dict]:
    """Read a weights JSON file (or a saved ``sep-rank --json`` answer); see
    :func:`weights_from_json`.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = os.path.join(tmp, "w.json")
    ...     _ = open(f, "w").write('{"Q": [[[[1]]]], "K": [[[[1]]]], "V": [[[[1]]]], '
    ...                            '"O": [[[[2]]]]}')
    ...     load_weights(f)[1]
    {'L': 1, 'H': 1, 'd_a': 1, 'd_x': 1}
    """
    from seprank.matrix_io import read_json

    # exact big integers, bounded nesting, one-line errors (the CLI's common JSON reader)
    obj = read_json(path, what="weights JSON")
    return weights_from_json(obj)
