"""JSON read and written strictly: no duplicate keys in, no NaN or Infinity out.

Issue 32 item 4. Python's :mod:`json` accepts an object that repeats a key (the last one
wins, silently) and writes ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON.
Every reader of a user's JSON (:func:`seprank.files.matrix_io.read_json`: matrices, weights,
reports; the moment route's store; the sweep store's records) parses with
:func:`loads`, which refuses a repeated key (and ``NaN``/``Infinity``); every writer of
JSON goes through :func:`dumps`, which writes a non-finite float as the string
``"inf"``, ``"-inf"`` or ``"nan"`` (:func:`finite`) and never lets ``json`` write the
bare tokens.

Examples
--------
>>> dumps({"x": float("inf"), "y": [1.5, float("nan")]})
'{"x": "inf", "y": [1.5, "nan"]}'
>>> loads('{"d": 2, "d": 3}')
Traceback (most recent call last):
...
ValueError: duplicate key 'd' in a JSON object
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "loads", "finite", "no_duplicate_keys"]


def finite(value: Any) -> Any:
    """A JSON-safe copy of ``value``: non-finite floats become ``"inf"``, ``"-inf"``,
    ``"nan"``; dicts, lists and tuples are copied, anything else is kept.

    >>> finite([1.0, float("-inf"), {"a": (float("nan"),)}])
    [1.0, '-inf', {'a': ['nan']}]
    """
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` of :func:`finite` ``(value)`` with ``allow_nan=False`` (other keyword
    arguments passed on; ``default=str`` is common).

    >>> dumps([float("inf")], indent=None)
    '["inf"]'
    """
    return json.dumps(finite(value), allow_nan=False, **kwargs)


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` that refuses an object with a repeated key (``ValueError``,
    which readers turn into their one-line error naming the file).

    >>> no_duplicate_keys([("a", 1), ("b", 2)])
    {'a': 1, 'b': 2}
    """
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            shown = key if len(key) <= 40 else key[:40] + "..."
            raise ValueError(f"duplicate key {shown!r} in a JSON object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (a number must be finite)")


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """``json.loads`` that refuses duplicate keys (:func:`no_duplicate_keys`) and the
    non-JSON tokens ``NaN``, ``Infinity``, ``-Infinity``; other keyword arguments
    (``parse_int``, say) are passed on.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads('[NaN]')
    Traceback (most recent call last):
    ...
    ValueError: NaN is not JSON (a number must be finite)
    """
    return json.loads(text, object_pairs_hook=no_duplicate_keys, parse_constant=_no_constant,
                      **kwargs)
