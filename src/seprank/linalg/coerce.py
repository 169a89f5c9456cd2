"""Read the matrix types the rank front door accepts, with one-line errors.

Accepted inputs
---------------
* list or tuple of rows (lists/tuples) of ``int`` or ``fractions.Fraction``
  (numpy integers, flint ``fmpz``/``fmpq`` and sympy ``Integer``/``Rational``
  are accepted as entries too, and strings ``"12"``, ``"-3/4"`` read exactly as the
  CLI reads a JSON matrix: :mod:`seprank.scalars.exact_text`);
* numpy arrays of an integer dtype (object arrays are read entry by entry);
* python-flint ``fmpz_mat``, ``fmpq_mat`` and ``nmod_mat`` (the last is a
  matrix over GF(p): its rank is taken over GF(p), not over Q);
* sympy matrices whose entries are rational numbers.

Exact engines work on an integer matrix of the same rank: each row of a
rational matrix is multiplied by the least common multiple of its
denominators (a nonzero row scaling, which changes no rank).

Floats are refused by the exact methods, with an error that says so; the
float method reads any real input through :func:`as_float_array`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from math import isfinite, lcm
from typing import Any

import flint
import numpy as np

from seprank.errors import InputError
from seprank.linalg.memory import require_fits

__all__ = ["ExactMatrix", "as_exact", "as_float_array", "float64_rounding", "rounding_text",
           "FLOAT64_EXACT_INT"]

# bytes per entry assumed for the fmpz_mat copy (small entries are one word,
# with the list-of-Python-ints staging copy on top)
_BYTES_PER_ENTRY = 64


@dataclass
class ExactMatrix:
    """An exact matrix ready for the engines.

    Attributes
    ----------
    shape : (m, n)
    zmat : flint.fmpz_mat or None
        integer matrix with the same rank (rows cleared of denominators);
        None when the input is over GF(p).
    modulus : int or None
        p when the input is an ``nmod_mat`` (the matrix lives over GF(p)).
    nmat : flint.nmod_mat or None
        the input itself when it is over GF(p).

    Examples
    --------
    >>> em = ExactMatrix(shape=(2, 2), modulus=5)
    >>> em.field
    'GF(5)'
    >>> as_exact([[1, 2], [3, 4]]).field
    'QQ'
    """

    shape: tuple[int, int]
    zmat: flint.fmpz_mat | None = None
    modulus: int | None = None
    nmat: flint.nmod_mat | None = None

    @property
    def field(self) -> str:
        return "QQ" if self.modulus is None else f"GF({self.modulus})"


def _entry_to_fraction(x: object, where: tuple[int, int]) -> int | Fraction:
    if isinstance(x, bool):
        raise InputError(f"entry {where} is a bool ({x}); give integers or fractions")
    if isinstance(x, int):
        return x
    if isinstance(x, Fraction):
        return x
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, flint.fmpz):
        return int(x)
    if isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, str):  # "12", "-3/4": the grammar of the CLI's JSON, exactly
        from seprank.scalars.exact_text import exact_from_text

        return exact_from_text(x, f"entry {where}")
    if isinstance(x, (float, np.floating)):
        if not isfinite(float(x)):
            raise InputError(f"entry {where} is {float(x)}: NaN and infinity have no rank")
        raise InputError(
            f"entry {where} is a float ({x!r}); exact methods take integers or fractions "
            "(use fractions.Fraction, or method='float' for a float estimate)")
    sympy = sys.modules.get("sympy")  # a SymPy number means SymPy is loaded
    if sympy is not None and isinstance(x, sympy.Basic):
        if x.is_Integer:
            return int(x)
        if x.is_Rational:
            return Fraction(int(x.p), int(x.q))
        if x in (sympy.nan, sympy.oo, -sympy.oo, sympy.zoo):
            raise InputError(f"entry {where} is {x}: NaN and infinity have no rank")
        raise InputError(f"entry {where} is {x} (not a rational number)")
    raise InputError(f"entry {where} is {x!r} ({type(x).__name__}), "
                     "not an integer or a fraction")


def _rows_of(matrix: object) -> list:
    """The rows of a list-like 2-D input, with shape checks."""
    if not isinstance(matrix, (list, tuple)):
        raise InputError(f"cannot read a matrix from a {type(matrix).__name__}")
    rows = list(matrix)
    if rows and not all(isinstance(r, (list, tuple, np.ndarray)) for r in rows):
        bad = next(i for i, r in enumerate(rows) if not isinstance(r, (list, tuple, np.ndarray)))
        raise InputError(f"matrix must be 2-dimensional (a list of rows); row {bad} is "
                         f"{type(rows[bad]).__name__}, not a list")
    if rows:
        width = len(rows[0])
        for i, r in enumerate(rows):
            if len(r) != width:
                raise InputError(f"ragged rows: row {i} has {len(r)} entries, row 0 has {width}")
            for j, x in enumerate(r):
                if isinstance(x, (list, tuple, np.ndarray)):
                    raise InputError(f"matrix must be 2-dimensional; entry ({i}, {j}) is a "
                                     "sequence")
    return rows


def _fractions_to_fmpz(rows: list[list[int | Fraction]], ncols: int) -> flint.fmpz_mat:
    """Integer matrix of the same rank: clear each row's denominators."""
    out = []
    for row in rows:
        den = 1
        for x in row:
            if isinstance(x, Fraction) and x.denominator != 1:
                den = lcm(den, x.denominator)
        if den == 1:
            out.append([int(x) for x in row])
        else:
            out.append([int(x * den) for x in row])
    if not out:
        return flint.fmpz_mat(0, ncols)
    return flint.fmpz_mat(out)


def as_exact(matrix: object) -> ExactMatrix:
    """Read ``matrix`` for an exact engine (see the module docstring).

    Examples
    --------
    Row 0 is multiplied by 6, the lcm of its denominators; row 1 stays:

    >>> from fractions import Fraction
    >>> em = as_exact([[Fraction(1, 2), Fraction(1, 3)], [1, 1]])
    >>> em.shape, em.zmat.tolist()
    ((2, 2), [[3, 2], [1, 1]])
    >>> as_exact([["1/2", "1/3"], ["1/4", "1/6"]]).zmat.tolist()   # strings, exactly
    [[3, 2], [3, 2]]
    >>> as_exact([[0.5]])
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: entry (0, 0) is a float (0.5); exact methods take ...
    """
    if isinstance(matrix, flint.nmod_mat):
        return ExactMatrix(shape=(matrix.nrows(), matrix.ncols()),
                           modulus=int(matrix.modulus()), nmat=matrix)
    if isinstance(matrix, flint.fmpz_mat):
        return ExactMatrix(shape=(matrix.nrows(), matrix.ncols()), zmat=matrix)
    if isinstance(matrix, flint.fmpq_mat):
        m, n = matrix.nrows(), matrix.ncols()
        rows = [[Fraction(int(matrix[i, j].p), int(matrix[i, j].q)) for j in range(n)]
                for i in range(m)]
        return ExactMatrix(shape=(m, n), zmat=_fractions_to_fmpz(rows, n))
    if isinstance(matrix, np.ndarray):
        if matrix.ndim != 2:
            raise InputError(f"matrix must be 2-dimensional, got an array of shape {matrix.shape}")
        m, n = matrix.shape
        if matrix.dtype.kind in "iu":
            require_fits(m * n * _BYTES_PER_ENTRY, f"an exact copy of a {m} x {n} matrix")
            if m == 0:
                return ExactMatrix(shape=(m, n), zmat=flint.fmpz_mat(0, n))
            return ExactMatrix(shape=(m, n), zmat=flint.fmpz_mat(matrix.tolist()))
        if matrix.dtype.kind == "f":
            finite = np.isfinite(matrix)
            if not finite.all():
                i, j = map(int, np.argwhere(~finite)[0])
                raise InputError(f"entry ({i}, {j}) is {matrix[i, j]}: NaN and infinity have "
                                 "no rank")
            raise InputError(f"array of dtype {matrix.dtype} holds floats; exact methods take "
                             "integer arrays (or method='float' for a float estimate)")
        if matrix.dtype.kind == "O":
            return as_exact([list(r) for r in matrix])
        if matrix.dtype.kind == "c":
            raise InputError(f"array of dtype {matrix.dtype} is complex; seprank's exact "
                             "methods take integer or rational matrices")
        raise InputError(f"array of dtype {matrix.dtype} is not numeric")
    sympy = sys.modules.get("sympy")  # a SymPy matrix means SymPy is loaded: never import it
    if sympy is not None and isinstance(matrix, sympy.MatrixBase):
        m, n = matrix.shape
        rows = [[_entry_to_fraction(matrix[i, j], (i, j)) for j in range(n)]
                for i in range(m)]
        return ExactMatrix(shape=(m, n), zmat=_fractions_to_fmpz(rows, n))
    rows = _rows_of(matrix)
    m = len(rows)
    n = len(rows[0]) if rows else 0
    require_fits(m * n * _BYTES_PER_ENTRY, f"an exact copy of a {m} x {n} matrix")
    conv = [[_entry_to_fraction(x, (i, j)) for j, x in enumerate(r)] for i, r in enumerate(rows)]
    return ExactMatrix(shape=(m, n), zmat=_fractions_to_fmpz(conv, n))


def _real(x: object, where: tuple[int, int]) -> float:
    """One entry for the float method: a number, or a string of the exact or decimal
    grammar (:func:`seprank.scalars.exact_text.real_from_text`); never a bool."""
    if isinstance(x, bool):
        raise InputError(f"entry {where} is a bool ({x}); give numbers")
    if isinstance(x, str):
        from seprank.scalars.exact_text import real_from_text

        x = real_from_text(x, f"entry {where}")
    return float(x)


def as_float_array(matrix: object) -> np.ndarray:
    """Read ``matrix`` as a float64 array for the float engine (finite entries only).

    Examples
    --------
    >>> from fractions import Fraction
    >>> as_float_array([[1, Fraction(1, 4)], [0, 2.5]]).tolist()
    [[1.0, 0.25], [0.0, 2.5]]
    >>> as_float_array([["1/2", "0.5"]]).tolist()          # strings as the CLI reads them
    [[0.5, 0.5]]
    """
    if isinstance(matrix, (flint.fmpz_mat, flint.fmpq_mat)):
        m, n = matrix.nrows(), matrix.ncols()
        rows = [[Fraction(str(matrix[i, j])) for j in range(n)] for i in range(m)]
        return as_float_array(rows)
    if isinstance(matrix, flint.nmod_mat):
        raise InputError("a matrix over GF(p) has no float rank; use method='modular'")
    sympy = sys.modules.get("sympy")  # a SymPy matrix means SymPy is loaded: never import it
    if sympy is not None and isinstance(matrix, sympy.MatrixBase):
        matrix = matrix.tolist()
    if isinstance(matrix, (list, tuple)):
        rows = _rows_of(matrix)
        try:
            arr = np.array([[_real(x, (i, j)) for j, x in enumerate(r)]
                            for i, r in enumerate(rows)], dtype=np.float64)
        except InputError:
            raise
        except OverflowError as exc:
            raise InputError(f"an entry is too large for float64: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise InputError(f"entries must be real numbers: {exc}") from None
        if not rows:
            arr = np.zeros((0, 0))
    elif isinstance(matrix, np.ndarray):
        if matrix.ndim != 2:
            raise InputError(f"matrix must be 2-dimensional, got an array of shape {matrix.shape}")
        if matrix.dtype.kind not in "iufbO":
            raise InputError(f"array of dtype {matrix.dtype} is not real-numeric")
        try:
            arr = matrix.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise InputError(f"entries must be real numbers: {exc}") from None
    else:
        raise InputError(f"cannot read a matrix from a {type(matrix).__name__}")
    if arr.ndim != 2:
        raise InputError(f"matrix must be 2-dimensional, got shape {arr.shape}")
    finite = np.isfinite(arr)
    if not finite.all():
        i, j = map(int, np.argwhere(~finite)[0])
        raise InputError(f"entry ({i}, {j}) is {arr[i, j]}: NaN and infinity have no rank "
                         "(or the entry overflowed float64)")
    return arr


#: integers of at most this magnitude are exact in float64 (53-bit significand)
FLOAT64_EXACT_INT = 2**53


def _exact_value(x: object) -> int | Fraction | None:
    """The exact value an entry stands for, or None for a float (nothing to round)."""
    if isinstance(x, (bool, float, np.floating)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, Fraction):
        return x
    if isinstance(x, flint.fmpz):
        return int(x)
    if isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, str):                  # "12", "-3/4", "0.1": what the text says
        return Fraction(x.strip())
    sympy = sys.modules.get("sympy")
    if sympy is not None and isinstance(x, sympy.Rational):
        return Fraction(int(x.p), int(x.q))
    return None


def float64_rounding(matrix: object) -> dict | None:
    """What reading ``matrix`` as float64 changed: None when every exact entry is held
    exactly, else how many entries were rounded, why, and by how much.

    float64 holds an integer exactly up to 2^53 (:data:`FLOAT64_EXACT_INT`) and a
    fraction only when its denominator is a power of 2 (and its digits fit 53 bits);
    ``0.1`` and ``1/3`` are rounded, floats given as floats are taken as they are. Call
    it after :func:`as_float_array` has accepted the matrix.

    Returns
    -------
    dict or None
        ``entries_rounded``, ``entries``, ``max_relative_error`` and
        ``max_absolute_error`` (of the rounded entries, as floats), and ``causes``.

    Examples
    --------
    >>> float64_rounding([[1, 2], [3, "1/4"]]) is None
    True
    >>> r = float64_rounding([[2**60 + 1, 2**60], [2**60, 2**60 - 1]])
    >>> r["entries_rounded"], r["entries"], r["causes"], r["max_absolute_error"]
    (2, 4, ['integers above 2^53'], 1.0)
    >>> float64_rounding([["1/3", "0.5"]])["causes"]
    ['fractions whose denominator is not a power of 2']
    """
    if isinstance(matrix, (flint.fmpz_mat, flint.fmpq_mat)):
        m, n = matrix.nrows(), matrix.ncols()
        entries: Any = (Fraction(str(matrix[i, j])) for i in range(m) for j in range(n))
        total = m * n
    elif isinstance(matrix, np.ndarray):
        total = int(matrix.size)
        if matrix.dtype.kind in "iu":
            big = (matrix > FLOAT64_EXACT_INT) | (matrix < -FLOAT64_EXACT_INT)
            entries = (int(x) for x in matrix[big])
        elif matrix.dtype.kind == "O":
            entries = iter(matrix.ravel().tolist())
        else:
            return None
    else:
        sympy = sys.modules.get("sympy")
        if sympy is not None and isinstance(matrix, sympy.MatrixBase):
            matrix = matrix.tolist()
        rows = _rows_of(matrix)
        entries = (x for r in rows for x in r)
        total = sum(len(r) for r in rows)
    count, rel, err, causes = 0, 0.0, 0.0, set()
    for x in entries:
        v = _exact_value(x)
        if v is None or v == 0:
            continue
        f = Fraction(float(v))
        if f == v:
            continue
        count += 1
        delta = abs(f - v)
        err, rel = max(err, float(delta)), max(rel, float(delta / abs(v)))
        den = Fraction(v).denominator
        causes.add("integers above 2^53" if den == 1 else
                   "fractions whose denominator is not a power of 2" if den & (den - 1)
                   else "fractions with more than 53 significant bits")
    if not count:
        return None
    return {"entries_rounded": count, "entries": total, "max_relative_error": rel,
            "max_absolute_error": err, "causes": sorted(causes)}


def rounding_text(rounding: dict) -> str:
    """:func:`float64_rounding`'s answer in one sentence.

    >>> text = rounding_text(float64_rounding([[2**60 + 1, 1], [2**60, 1]]))
    >>> for part in text.replace("), ", ");").split(";"):
    ...     print(part.strip())
    float64 could not hold the input: 1 of 4 entries rounded (integers above 2^53)
    by up to 8.7e-19 relative (1 absolute)
    the float rank is that of the rounded matrix
    """
    r = rounding
    return (f"float64 could not hold the input: {r['entries_rounded']} of {r['entries']} "
            f"entries rounded ({', '.join(r['causes'])}), by up to "
            f"{r['max_relative_error']:.2g} relative ({r['max_absolute_error']:.3g} "
            "absolute); the float rank is that of the rounded matrix")
