"""Network weights as a JSON object, so that anyone can recompute a separation rank.

The object (issue 11): ``{"Q": [layer][head][row][col], "K": ..., "V": ...}``
with each W^{Q,l,h}, W^{K,l,h}, W^{V,l,h} of shape d_a x d_x, and
``"O": [layer][head]`` of shape d_x x d_a (levine2020 sec. 2.2, l.81; layer and
head 0-based). Entries are JSON integers or strings ``"p/q"`` (exact rationals);
floats are refused. A whole ``seprank sep-rank --json`` answer is accepted too:
its ``"weights"`` member is read, and its ``"residual"`` (a JSON bool). The schemas
``weights`` and ``answer`` (:mod:`seprank.models.weights_schema`; ``seprank schema weights``)
declare both forms.
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


def _shape(nested: list, kind: str) -> tuple[int, int, int, int]:
    """The shape of a 4-level nested list (validated by the schema), refusing ragged ones.

    Iterative: no recursion, whatever the input.
    """
    shape, level = [], [nested]
    for _ in range(4):
        lengths = {len(x) for x in level}
        if len(lengths) > 1:
            raise InputError(f"weights['{kind}'] is ragged: every layer, head and row must "
                             "have the same length")
        shape.append(lengths.pop() if lengths else 0)
        level = [y for x in level for y in x]
    return tuple(shape)


def _array(nested: list, kind: str) -> np.ndarray:
    shape = _shape(nested, kind)
    arr = np.empty(shape, dtype=object)
    for idx in np.ndindex(shape):
        l, h, r, c = idx
        arr[idx] = nested[l][h][r][c]
    return arr


def weights_from_json(obj: object, source: str | None = "weights") -> tuple[dict, dict]:
    """Weight arrays and the shape they imply: ({kind: array}, {"L", "H", "d_a", "d_x"}),
    plus "residual" when ``obj`` is a saved answer that says it.

    ``obj`` is validated by the schemas ``weights`` / ``answer``
    (:mod:`seprank.models.weights_schema`): entries are JSON integers or ``"p/q"`` strings
    (:mod:`seprank.scalars.exact_text`, the grammar of every reader), ``residual`` a
    JSON bool. Then the shape rules: not ragged, one network (Q, K, V of shape
    (L, H, d_a, d_x), O of (L, H, d_x, d_a)), and an answer's ``network`` agrees.

    Raises
    ------
    InputError
        one line, naming ``source`` and the field: a missing kind, a float, a string
        outside the grammar, a bool where a number belongs (or a string where a bool
        does), a ragged or non-4-D list, shapes that do not fit one network.

    Examples
    --------
    >>> w, dims = weights_from_json({"Q": [[[[1, 0]]]], "K": [[[[0, 1]]]], "V": [[[[1, 1]]]],
    ...                              "O": [[[["1/2"], [0]]]]})
    >>> dims
    {'L': 1, 'H': 1, 'd_a': 1, 'd_x': 2}
    >>> weights_from_json({k: [[[["1_0"]]]] for k in "QKVO"})
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: weights: Q[0][0][0][0]: '1_0' is not an integer or a fraction ...
    """
    from seprank.models.weights_schema import read_weights_document

    nested, residual, network = read_weights_document(obj, source)
    arrs = {k: _array(nested[k], k) for k in _KINDS}
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
    for name, said in (network or {}).items():
        if said != dims[name]:
            raise InputError(f"{source}: network: {name} = {said}, but the weights have "
                             f"{name} = {dims[name]}")
    if residual is not None:  # a saved answer also says whether the network is residual
        dims["residual"] = residual
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
    from seprank.files.matrix_io import read_json

    # exact big integers, bounded nesting, one-line errors (the CLI's common JSON reader)
    obj = read_json(path, what="weights JSON")
    return weights_from_json(obj, str(path))
