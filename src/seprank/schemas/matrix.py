"""Schema ``matrix``: a matrix in JSON, a list of rows of exact scalars.

::

    [[1, 2, 3], [2, 4, 6], [0, "1/3", "-2/3"]]

Entries are JSON integers (any length) or strings ``"p/q"``
(:mod:`seprank.scalars.exact_text`); with the float method (``seprank rank --method
float``) finite JSON numbers and decimal strings too. Every row has the same length.
``seprank rank``, ``seprank hadamard-rank FILE`` and every reader of a matrix file read
``.json`` through :func:`matrix_from_json`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, ConfigDict, PlainValidator, TypeAdapter, WithJsonSchema

from seprank.errors import InputError
from seprank.scalars.exact_text import FLOAT_METHOD_HINT, exact_from_value
from seprank.schemas.scalars import nested_list
from seprank.schemas.validation import custom_error, validate

__all__ = ["matrix_adapter", "matrix_from_json"]

_DEEPER = "a list: a matrix is 2-dimensional (a JSON list of rows of numbers)"


def _entry(allow_float: bool):
    """The validator of one entry: exact (with the float method's hint), or real."""
    def entry(value: Any):
        if isinstance(value, list):
            raise custom_error("matrix_entry", _DEEPER)
        try:
            return exact_from_value(value, allow_float=allow_float, float_hint=FLOAT_METHOD_HINT)
        except InputError as exc:
            raise custom_error("matrix_entry", str(exc)) from None
    return entry


def _rectangular(rows: list[list[Any]]) -> list[list[Any]]:
    width = len(rows[0]) if rows else 0
    for i, row in enumerate(rows):
        if len(row) != width:
            raise custom_error("ragged", f"ragged rows: row {i} has {len(row)} entries, "
                               f"row 0 has {width}")
    return rows


def _entry_schema(allow_float: bool) -> dict[str, Any]:
    from seprank.scalars.exact_text import DECIMAL_PATTERN, EXACT_PATTERN

    exact = [{"type": "integer"}, {"type": "string", "pattern": EXACT_PATTERN}]
    real = [{"type": "number"}, {"type": "string", "pattern": DECIMAL_PATTERN}]
    return {"anyOf": exact + (real if allow_float else []),
            "description": "an integer or a string 'p/q'" + (
                ", or a finite number (float method)" if allow_float else "")}


@cache
def matrix_adapter(allow_float: bool = False) -> TypeAdapter:
    """The schema of a JSON matrix (``allow_float``: the float method's form).

    >>> matrix_adapter().validate_python([[1, "2/4"]])
    [[1, Fraction(1, 2)]]
    """
    entry = Annotated[Any, PlainValidator(_entry(allow_float)),
                      WithJsonSchema(_entry_schema(allow_float))]
    rows = Annotated[nested_list(entry, 2), AfterValidator(_rectangular)]
    return TypeAdapter(rows, config=ConfigDict(strict=True, title="matrix"))


def _where(steps: list[tuple[Any, Any]]) -> str:
    keys = [k for k, _ in steps]
    if len(keys) >= 2:
        return f"entry ({keys[0]}, {keys[1]})"
    return f"row {keys[0]}" if keys else ""


def matrix_from_json(data: Any, source: str | None = None, *,
                     allow_float: bool = False) -> list[list[int | Fraction | float]]:
    """The rows of the JSON matrix ``data`` (what ``json.loads`` gave), validated and read.

    Parameters
    ----------
    data
        the parsed JSON.
    source : str, optional
        the file, named in errors.
    allow_float : bool
        the float method's reading (finite numbers and decimal strings too).

    Returns
    -------
    list of rows of int, Fraction (and float with ``allow_float``)

    Raises
    ------
    InputError
        one line: ``SOURCE: entry (i, j): ...``, ``SOURCE: row i: ...``, ragged rows.

    Examples
    --------
    >>> matrix_from_json([[0, "2/4"], ["-3", 5]])
    [[0, Fraction(1, 2)], [-3, 5]]
    >>> matrix_from_json([[1, 2], [3, 1.5]], "m.json")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: m.json: entry (1, 1): 1.5 is a float; exact values are ...
    >>> matrix_from_json([1, 2], "m.json")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: m.json: row 0: expected a list, got the integer 1 (a matrix is ...
    """
    try:
        return validate(matrix_adapter(allow_float), data, source=source, path=_where)
    except InputError as exc:
        text = str(exc)
        if "expected a list" in text:
            raise InputError(text + " (a matrix is 2-dimensional: a JSON list of rows)") \
                from None
        raise
