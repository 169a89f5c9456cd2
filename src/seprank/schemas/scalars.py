"""The scalar types that the file schemas share, as pydantic types with their JSON Schema.

* :data:`ExactScalar`: a JSON integer or a string ``"p/q"`` (the grammar of
  :mod:`seprank.scalars.exact_text`), read into an ``int`` or a ``Fraction``;
* :data:`RealScalar`: the same, or a finite JSON number or decimal string (the float
  method's matrices);
* :data:`ExactInteger`: a JSON integer or an integer string, read into an ``int``
  (a prime, a modulus: values JSON writers may have to write as strings);
* :func:`nested_list`: a list nested ``depth`` times, stopping at the first bad entry
  (a million bad entries cost one error, not a million).

Bools are never numbers: the schemas validate in strict mode, where ``true`` is not
``1``, and these types refuse a bool themselves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import Field, PlainValidator, WithJsonSchema

from seprank.errors import InputError
from seprank.scalars.exact_text import (
    DECIMAL_PATTERN,
    EXACT_PATTERN,
    INTEGER_PATTERN,
    exact_from_text,
    exact_from_value,
)
from seprank.schemas.validation import custom_error

__all__ = ["ExactScalar", "RealScalar", "ExactInteger", "nested_list", "exact_scalar",
           "real_scalar"]


def exact_scalar(value: Any) -> int | Fraction:
    """An exact scalar from a JSON value (a pydantic validator; errors name the value).

    >>> exact_scalar("6/4"), exact_scalar(-2)
    (Fraction(3, 2), -2)
    """
    if isinstance(value, list):
        raise custom_error("exact_scalar", "expected an integer or a 'p/q' string, got a list "
                           "(nested deeper than the format)")
    try:
        return exact_from_value(value)
    except InputError as exc:
        raise custom_error("exact_scalar", str(exc)) from None


def real_scalar(value: Any) -> int | Fraction | float:
    """:func:`exact_scalar`, or a finite float (the float method's reading).

    >>> real_scalar("0.25"), real_scalar(1.5), real_scalar("1/2")
    (0.25, 1.5, Fraction(1, 2))
    """
    if isinstance(value, list):
        raise custom_error("real_scalar", "expected a number or a 'p/q' string, got a list "
                           "(nested deeper than the format)")
    try:
        return exact_from_value(value, allow_float=True)
    except InputError as exc:
        raise custom_error("real_scalar", str(exc)) from None


def _exact_integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise custom_error("exact_integer", "expected an integer (or an integer string), got "
                           + ("a bool" if isinstance(value, bool) else type(value).__name__))
    if isinstance(value, int):
        return value
    try:
        out = exact_from_text(value)
    except InputError as exc:
        raise custom_error("exact_integer", str(exc)) from None
    if not isinstance(out, int):
        raise custom_error("exact_integer", f"{value!r} is a fraction; expected an integer")
    return out


_EXACT_SCHEMA = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": EXACT_PATTERN}],
                 "description": "an integer, or a string 'p/q' (ASCII digits, optional sign, "
                 "q > 0): exact"}

#: a JSON integer or a "p/q" string -> int or Fraction
ExactScalar = Annotated[Any, PlainValidator(exact_scalar), WithJsonSchema(_EXACT_SCHEMA)]

#: ExactScalar, or a finite float / decimal string (the float method only)
RealScalar = Annotated[Any, PlainValidator(real_scalar), WithJsonSchema({
    "anyOf": [{"type": "integer"}, {"type": "number"},
              {"type": "string", "pattern": EXACT_PATTERN},
              {"type": "string", "pattern": DECIMAL_PATTERN}],
    "description": "an integer, a 'p/q' string, or (for the float method) a finite number"})]

#: a JSON integer, or an integer written as a string -> int (exact, any size)
ExactInteger = Annotated[Any, PlainValidator(_exact_integer), WithJsonSchema({
    "anyOf": [{"type": "integer"}, {"type": "string", "pattern": INTEGER_PATTERN}]})]


def nested_list(item: Any, depth: int, min_length: int = 0) -> Any:
    """The type ``list[list[...[item]]]`` of ``depth`` levels, each stopping at its first
    error (pydantic's ``fail_fast``); ``min_length`` applies to every level.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(nested_list(int, 2)).validate_python([[1], [2, 3]])
    [[1], [2, 3]]
    """
    out = item
    length = {"min_length": min_length} if min_length else {}
    for _ in range(depth):
        out = Annotated[list[out], Field(fail_fast=True, **length)]
    return out
