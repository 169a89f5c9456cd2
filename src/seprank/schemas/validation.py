"""Validation against a declared schema, and its errors as one line each.

Every file format of seprank is a pydantic v2 schema in strict mode (the modules of
:mod:`seprank.schemas`). Pydantic reports a failure as records (type, location,
input); this module turns one record into one line that names the field path and the
expected type, in the words a user of the file knows::

    answer.json: residual: expected a JSON bool, got the string "false"
    spec.toml: parameters.lam[0]: expected an integer, got the string "2"
    report.json: checks[2] (L-Thm1).claim: missing 'kind'

The path is read off the input itself: a location element that is not a key or an
index of the input (a union member's tag, added by pydantic) is left out, so the path
is the one the user wrote. Nothing here prints an input whole (a 5000-digit number or
a list nested 990 deep is described, not shown).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

from seprank.errors import InputError, SeprankError

__all__ = ["custom_error", "describe", "plain", "error_lines", "first_error", "validate"]

_SHOWN = 40

#: pydantic error type -> what was expected (before ", got ...")
_EXPECTED = {
    "int_type": "an integer", "int_parsing": "an integer", "float_type": "a number",
    "string_type": "a string", "list_type": "a list", "tuple_type": "a list",
    "dict_type": "an object", "model_type": "an object",
    "model_attributes_type": "an object", "none_required": "null",
}


def custom_error(kind: str, message: str) -> PydanticCustomError:
    """A pydantic error whose message is ``message`` verbatim (braces are not a template).

    >>> custom_error("range_form", "write {from = A, to = B}").message()
    'write {from = A, to = B}'
    """
    return PydanticCustomError(kind, "{message}", {"message": message})


def describe(value: Any) -> str:
    """``value`` in the words of a JSON (or TOML/YAML) reader, cut short.

    >>> describe("false"), describe(True), describe(None), describe([[1]]), describe(2**100)
    ('the string "false"', 'the bool true', 'null', 'a list', 'an integer of 101 bits')
    """
    if isinstance(value, bool):
        return f"the bool {'true' if value else 'false'}"
    if value is None:
        return "null"
    if isinstance(value, str):
        text = value if len(value) <= _SHOWN else value[:_SHOWN] + "..."
        return f"the string {json.dumps(text, ensure_ascii=False)}"
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"an integer of {value.bit_length()} bits"
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def plain(text: Any, punctuation: str = ".[]()'\"") -> str:
    r"""``text`` as it is when it is a short printable name without ``punctuation``, else
    quoted (JSON's escapes), so that a user's key or id never breaks an error line.

    >>> plain("L-Thm1"), plain("a\nb"), plain(7), plain("C7-3.2", punctuation="")
    ('L-Thm1', '"a\\nb"', '7', 'C7-3.2')
    """
    text = text if isinstance(text, str) else str(text)
    if text.isprintable() and text.strip() == text and 0 < len(text) <= _SHOWN and \
            not any(c in text for c in punctuation):
        return text
    return json.dumps(text[:_SHOWN] + ("..." if len(text) > _SHOWN else ""))


def _walk(loc: tuple, data: Any, error_type: str) -> list[tuple[Any, Any]]:
    """The elements of ``loc`` that index into ``data`` (with what each reaches)."""
    steps, here = [], data
    for n, key in enumerate(loc):
        last = n == len(loc) - 1
        if isinstance(here, dict) and isinstance(key, str) and key in here:
            here = here[key]
        elif isinstance(here, list) and isinstance(key, int) and 0 <= key < len(here):
            here = here[key]
        elif last and error_type in ("missing", "extra_forbidden"):
            here = None
        else:
            continue  # a union member's tag, not a place in the input
        steps.append((key, here))
    return steps


def _path(steps: list[tuple[Any, Any]], label: Callable[[Any], str] | None) -> str:
    out = ""
    for key, reached in steps:
        if isinstance(key, int):
            out += f"[{key}]" + (label(reached) if label else "")
        else:
            out += ("." if out else "") + plain(key)
    return out


def _message(err: dict[str, Any], language: str) -> str:
    kind, ctx, value = err["type"], err.get("ctx") or {}, err.get("input")
    got = f", got {describe(value)}"
    if kind == "bool_type":
        return ("expected a JSON bool" if language == "JSON"
                else "expected a bool (true or false)") + got
    if kind in _EXPECTED:
        what = _EXPECTED[kind]
        if what == "an object" and language != "JSON":
            what = "a table (mapping)"
        return f"expected {what}" + got
    if kind == "literal_error":
        return f"expected one of {ctx.get('expected', '')}" + got
    bounds = {"greater_than_equal": (">=", "ge"), "greater_than": (">", "gt"),
              "less_than_equal": ("<=", "le"), "less_than": ("<", "lt")}
    if kind in bounds:
        sign, key = bounds[kind]
        bound = ctx.get(key)
        what = "a number" if isinstance(bound, float) else "an integer"
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)
        return f"expected {what} {sign} {bound}" + got
    if kind == "too_short":
        n = ctx.get("actual_length", 0)
        return (f"expected at least {ctx.get('min_length')} item(s), got "
                + ("an empty list" if n == 0 else f"{n}"))
    if kind == "too_long":
        return f"expected at most {ctx.get('max_length')} item(s), got {ctx.get('actual_length')}"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return f"expected one of {ctx.get('expected_tags', '')}" + got
    return str(err.get("msg", kind))


def error_lines(exc: ValidationError, data: Any, *, language: str = "JSON",
                label: Callable[[Any], str] | None = None,
                path: Callable[[list[tuple[Any, Any]]], str] | None = None) -> list[str]:
    """Every error of ``exc`` as one line ``PATH: PROBLEM`` (``PROBLEM`` alone at the top).

    Parameters
    ----------
    exc : pydantic.ValidationError
    data
        the input that was validated (the path is read off it).
    language : str
        ``"JSON"`` names JSON's types ("expected a JSON bool"); anything else does not.
    label : callable, optional
        text put after a list index (e.g. a check's id: ``checks[2] (L-Thm1)``).
    path : callable, optional
        renders the (key, value reached) steps itself (e.g. ``entry (0, 1)``).

    Examples
    --------
    >>> from pydantic import TypeAdapter, ConfigDict
    >>> adapter = TypeAdapter(dict[str, bool], config=ConfigDict(strict=True))
    >>> try:
    ...     adapter.validate_python({"residual": "false"})
    ... except ValidationError as exc:
    ...     error_lines(exc, {"residual": "false"})
    ['residual: expected a JSON bool, got the string "false"']
    """
    out = []
    for err in exc.errors(include_url=False):
        steps = _walk(tuple(err["loc"]), data, err["type"])
        if err["type"] in ("missing", "extra_forbidden") and steps:
            key = steps[-1][0]
            where = (path or (lambda s: _path(s, label)))(steps[:-1])
            problem = f"missing {key!r}" if err["type"] == "missing" else \
                f"unknown member {key!r}"
        else:
            where = (path or (lambda s: _path(s, label)))(steps)
            problem = _message(err, language)
        out.append(f"{where}: {problem}" if where else problem)
    return out


def first_error(exc: ValidationError, data: Any, **kwargs: Any) -> str:
    """The first line of :func:`error_lines` (what a reader raises).

    >>> from pydantic import TypeAdapter, ConfigDict
    >>> try:
    ...     TypeAdapter(list[int], config=ConfigDict(strict=True)).validate_python([1, 2.5])
    ... except ValidationError as exc:
    ...     first_error(exc, [1, 2.5])
    '[1]: expected an integer, got the number 2.5'
    """
    return error_lines(exc, data, **kwargs)[0]


def validate(adapter: TypeAdapter, data: Any, *, source: str | None = None,
             error: type[SeprankError] = InputError, **kwargs: Any) -> Any:
    """``data`` validated by ``adapter``; the first problem raised as one ``error`` line.

    Parameters
    ----------
    adapter : pydantic.TypeAdapter
        the format's schema (strict).
    data
        the parsed file (``json.loads``, TOML, YAML).
    source : str, optional
        the file, put before the problem.
    error : type
        the SeprankError subclass to raise.
    **kwargs
        passed to :func:`error_lines`.

    Raises
    ------
    SeprankError
        one line, ``SOURCE: PATH: PROBLEM``.

    Examples
    --------
    >>> from pydantic import ConfigDict
    >>> validate(TypeAdapter(dict[str, int], config=ConfigDict(strict=True)), {"d": True},
    ...          source="s.json")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: s.json: d: expected an integer, got the bool true
    """
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        line = first_error(exc, data, **kwargs)
        raise error(f"{source}: {line}" if source else line) from None
    except RecursionError:
        raise error(f"{source}: nested too deeply" if source else "nested too deeply") from None
