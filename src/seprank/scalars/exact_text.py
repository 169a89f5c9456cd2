"""Exact scalars from text: the one grammar of integers and fractions ``p/q`` in seprank.

Every reader of a number written as text or as a JSON value uses this module: the
matrix readers (:mod:`seprank.files.matrix_io`: ``.json``, ``.csv``, text), the weights and
saved answers (:mod:`seprank.models.weights`), the API's matrix coercion
(:mod:`seprank.linalg.coerce`: ``seprank.rank([["1/2", "1/3"], ...])`` reads strings as
the CLI's JSON does) and every file schema (:mod:`seprank.schemas`). So ``"1_0"`` means
the same (nothing) everywhere.

The grammar (ASCII only; written as the JSON Schema patterns :data:`INTEGER_PATTERN`
and :data:`EXACT_PATTERN`)::

    integer   = [sign] digit {digit}          sign = "+" | "-", digit = "0" ... "9"
    fraction  = integer "/" digit {digit}     (the denominator has no sign and is not 0)

* A leading ``+`` is accepted (text matrices have always been read with one), leading
  zeros too (``"007"`` is 7).
* Nothing else: no ``_`` separators, no whitespace anywhere inside a token (a JSON
  string is one token; text and CSV readers cut tokens at whitespace before they come
  here), no non-ASCII digits (``"٣"``, which Python's ``int`` would read as 3), no
  decimals, exponents, ``nan`` or ``inf``.
* Integers of any length are exact: past 4000 digits they go through python-flint's
  ``fmpz`` parser (no 4300-digit limit, no quadratic time).
* A fraction is returned reduced, as an ``int`` when its denominator divides its
  numerator (``"4/2"`` is 2).
* Decimals are read only when a float method asks (:func:`real_from_text`), with the
  decimal grammar of :data:`DECIMAL_PATTERN`; NaN and infinity never.
* A bool is never a number, whatever asks.

Errors are one :class:`~seprank.errors.InputError` line that starts with ``where``
(the file and entry, or the field) when one is given.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from seprank.errors import InputError

__all__ = ["INTEGER_PATTERN", "EXACT_PATTERN", "DECIMAL_PATTERN", "FLOAT_METHOD_HINT",
           "parse_integer",
           "exact_from_text", "real_from_text", "exact_from_value", "shown"]

#: JSON Schema (ECMA 262) pattern of an integer string
INTEGER_PATTERN = "^[+-]?[0-9]+$"
#: JSON Schema pattern of an exact scalar string: an integer or p/q with q > 0
EXACT_PATTERN = "^[+-]?[0-9]+(/0*[1-9][0-9]*)?$"
#: JSON Schema pattern of a decimal string (read by the float method only)
DECIMAL_PATTERN = "^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$"

_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FRACTION = re.compile(r"([+-]?[0-9]+)/([0-9]+)", re.ASCII)
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
_NON_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity",
               "-infinity"}
#: digit strings longer than this are parsed by python-flint (Python's int(str) stops at
#: 4300 digits by default and is quadratic)
_FLINT_DIGITS = 4000
_SHOWN = 40
#: what a matrix reader adds to the error of a float or a decimal
FLOAT_METHOD_HINT = " (or use the float method, --method float, for a float estimate)"


def shown(text: str) -> str:
    """``text`` quoted for an error line, cut to 40 characters.

    >>> shown("1_0"), shown("9" * 100)[:12]
    ("'1_0'", "'99999999999")
    """
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def parse_integer(text: str) -> int:
    """The integer written in decimal in ``text`` (ASCII digits, optional sign), exactly.

    Surrounding whitespace is not part of the grammar: the caller cuts tokens.

    Parameters
    ----------
    text : str

    Returns
    -------
    int

    Raises
    ------
    ValueError
        ``text`` is not ``[+-]?[0-9]+`` (used as ``json.loads``'s ``parse_int``).

    Examples
    --------
    >>> parse_integer("-42"), parse_integer("+7")
    (-42, 7)
    >>> parse_integer("9" * 5000) == 10**5000 - 1      # past int()'s 4300-digit limit
    True
    >>> parse_integer("1_0")
    Traceback (most recent call last):
    ...
    ValueError: '1_0' is not a decimal integer
    """
    if not _INTEGER.fullmatch(text):
        raise ValueError(f"{shown(text)} is not a decimal integer")
    return _digits(text)


def _digits(text: str) -> int:
    """An integer already matched by the grammar (no second check)."""
    if len(text) < _FLINT_DIGITS:
        return int(text)
    import flint

    return int(flint.fmpz(text.lstrip("+")))


def _fail(where: str | None, problem: str) -> InputError:
    return InputError(f"{where}: {problem}" if where else problem)


def _why_not(text: str, float_hint: str = "") -> str:
    """Why ``text`` is no exact scalar (the most useful of the reasons)."""
    s = shown(text)
    if text.strip().lower() in _NON_FINITE:
        return f"{s}: NaN and infinity have no rank"
    if _DECIMAL.fullmatch(text):
        return f"{s} is a decimal number; exact values are integers or fractions p/q{float_hint}"
    if not text.isascii() or "_" in text or any(c.isspace() for c in text):
        return (f"{s} is not an integer or a fraction p/q (ASCII digits and an optional "
                "sign only: no '_', no spaces, no other scripts' digits)")
    return f"{s} is not an integer or a fraction p/q"


def exact_from_text(text: str, where: str | None = None, float_hint: str = "") -> int | Fraction:
    """The integer or fraction ``p/q`` written in ``text`` (module grammar), exactly.

    Parameters
    ----------
    text : str
        one token: ``"-12"``, ``"+3"``, ``"2/4"``.
    where : str, optional
        what the token is (file and entry, or a field), put before the error.
    float_hint : str
        put after the error of a decimal (e.g. where a float method exists).

    Returns
    -------
    int or Fraction
        a Fraction only when the value is not an integer.

    Raises
    ------
    InputError
        anything outside the grammar; a zero denominator.

    Examples
    --------
    >>> exact_from_text("2/4"), exact_from_text("4/2"), exact_from_text("-3")
    (Fraction(1, 2), 2, -3)
    >>> exact_from_text("1_0", "m.json: entry (0, 1)")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: m.json: entry (0, 1): '1_0' is not an integer or a ...
    >>> exact_from_text("1/0")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: '1/0' divides by zero
    """
    frac = _FRACTION.fullmatch(text)
    if frac is None:
        if _INTEGER.fullmatch(text):
            return _digits(text)
        raise _fail(where, _why_not(text, float_hint))
    den = _digits(frac.group(2))
    if den == 0:
        raise _fail(where, f"{shown(text)} divides by zero")
    value = Fraction(_digits(frac.group(1)), den)
    return value.numerator if value.denominator == 1 else value


def real_from_text(text: str, where: str | None = None) -> int | Fraction | float:
    """An exact scalar as :func:`exact_from_text`, else a finite decimal as a float.

    For the float method only: decimals (``"0.5"``, ``"1e-3"``) become floats; NaN,
    infinity and decimals beyond float64's range are refused.

    Raises
    ------
    InputError
        outside both grammars, or not finite.

    Examples
    --------
    >>> real_from_text("1/4"), real_from_text("2.5e-1")
    (Fraction(1, 4), 0.25)
    >>> real_from_text("1e400")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: '1e400': NaN and infinity have no rank (beyond float64)
    """
    if _INTEGER.fullmatch(text) or _FRACTION.fullmatch(text):
        return exact_from_text(text, where)
    if not _DECIMAL.fullmatch(text):
        reason = _why_not(text)
        if " is not an integer or a fraction p/q" in reason:
            reason = reason.replace(" is not an integer or a fraction p/q",
                                    " is not an integer, a fraction p/q or a decimal number")
        raise _fail(where, reason)
    value = float(text)
    if not math.isfinite(value):
        raise _fail(where, f"{shown(text)}: NaN and infinity have no rank (beyond float64)")
    return value


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return f"a bool ({'true' if value else 'false'})"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"{shown(repr(value))} ({type(value).__name__})"


def exact_from_value(value: object, where: str | None = None, *, allow_float: bool = False,
                     float_hint: str = "") -> int | Fraction | float:
    """An exact scalar from a JSON value: an integer, or a string of the module grammar.

    Parameters
    ----------
    value
        what ``json.loads`` gave (or an API caller's entry): ``int``, ``str``.
    where : str, optional
        put before the error.
    allow_float : bool
        the float method's reading: finite floats and decimal strings too.
    float_hint : str
        put after the error of a float or a decimal (where a float method exists).

    Raises
    ------
    InputError
        a bool (never a number), a float (unless ``allow_float``), NaN, infinity, a
        string outside the grammar, any other type.

    Examples
    --------
    >>> exact_from_value("1/3"), exact_from_value(12)
    (Fraction(1, 3), 12)
    >>> exact_from_value(True, "residual")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: residual: a bool (true) is not a number
    >>> exact_from_value(0.5)
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: 0.5 is a float; exact values are integers or 'p/q' strings ...
    """
    if isinstance(value, bool):
        raise _fail(where, f"{_describe(value)} is not a number")
    if type(value) is int:
        return value
    if isinstance(value, str):
        return (real_from_text(value, where) if allow_float
                else exact_from_text(value, where, float_hint))
    if type(value) is float:
        if not math.isfinite(value):
            raise _fail(where, f"{value!r}: NaN and infinity have no rank")
        if allow_float:
            return value
        raise _fail(where, f"{value!r} is a float; exact values are integers or 'p/q' "
                    f"strings{float_hint or ' (no floats)'}")
    raise _fail(where, f"{_describe(value)} is not an integer or a 'p/q' string")
