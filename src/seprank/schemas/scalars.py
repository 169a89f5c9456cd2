"""The scalar types that the file schemas share, as pydantic types with their JSON Schema.

* :data:`ExactScalar`: a JSON integer or a string ``"p/q"`` (the grammar of
  :mod:`seprank.scalars.exact_text`), read into an ``int`` or a ``Fraction``;
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
from seprank.scalars.exact_text import EXACT_PATTERN, exact_from_value
from seprank.schemas.validation import custom_error

__all__ = ["ExactScalar", "nested_list", "exact_scalar"]


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


_EXACT_SCHEMA = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": EXACT_PATTERN}],
                 "description": "an integer, or a string 'p/q' (ASCII digits, optional sign, "
                 "q > 0): exact"}

#: a JSON integer or a "p/q" string -> int or Fraction
ExactScalar = Annotated[Any, PlainValidator(exact_scalar), WithJsonSchema(_EXACT_SCHEMA)]


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
