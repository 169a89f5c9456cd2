"""The verifier's snapshot: the matrix and the claim, each value read once, exactly.

:func:`seprank.verify` decides on what this module returns and on nothing else
(issue 23, item 3). Each field of a certificate or result, and each matrix entry,
is read once and converted by one conversion into a plain Python ``int`` or
``str`` (``type(x) is int``, ``type(s) is str``) held in containers built here;
the caller's objects are not read again. The conversion accepts only values of
the exact types below, whose conversion runs no code the caller can supply, and
refuses everything else:

* an integer: ``int`` itself, a numpy integer scalar of one of numpy's own
  integer types, a python-flint ``fmpz``. Refused: ``bool`` and ``numpy.bool_``,
  floats (also integral ones, NaN, infinity), strings, Fractions, and every
  subclass of ``int``, ``tuple``, ``list`` or ``str`` (a subclass may answer
  ``len``, ``==``, ``<``, ``__int__`` or ``__index__`` as it likes), as well as
  objects that merely say they are ints (their ``__class__``);
* a sequence of integers: a ``tuple`` or ``list`` (not a subclass) of integers
  as above, or a one-dimensional numpy array (not a subclass) of an integer
  dtype (read with ``tolist``) or of object dtype holding such integers; kernel
  vectors are a sequence of such sequences (a 2-D array allowed). Any other depth
  is refused;
* a text field (a certificate's side, a result's kind and field): ``str`` itself;
* a certificate: an object whose type is exactly :class:`LowerBoundCertificate`,
  :class:`UpperBoundCertificate` or :class:`RankCertificate`; a result: exactly
  :class:`~seprank.linalg.result.RankResult` (subclasses can turn a field into a
  property that answers differently on each read);
* a matrix entry: an integer as above, a ``fractions.Fraction`` (its numerator
  and denominator must be ints; it is reduced here), a flint ``fmpq``, a SymPy
  rational. The matrix: a list or tuple of rows (each a list, tuple, range or
  1-D numpy array), a numpy array (an int64 array below 2^62 in absolute value
  is copied as it is, vectorized; other integer dtypes are converted exactly;
  object arrays entry by entry), a flint ``fmpz_mat``, ``fmpq_mat`` or
  ``nmod_mat``, a SymPy matrix of rationals, or an object with a numpy ``data``
  and an integer ``p`` (residues mod p, :class:`~seprank.linalg.residues.ResidueMatrix`),
  each attribute read once.

An unreadable certificate or result field makes the claim unreadable (the verdict
is False); an unreadable matrix entry raises InputError. The claim is read before
the matrix, so nothing the claim's objects run can change the matrix after it is
read. This module imports nothing from the engines (only the certificate and
result classes, which are data, and :mod:`seprank.errors`).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from math import gcd, lcm
from typing import NamedTuple

import numpy as np

from seprank.errors import InputError
from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.result import RankResult

try:
    import flint
except ImportError:  # pragma: no cover - python-flint is a dependency
    flint = None

__all__ = ["LowerSnap", "UpperSnap", "Claim", "read_claim", "MatrixSnapshot", "exact_int"]

_TWO53 = 2**53
#: the ids of numpy's own integer scalar types (np.int64, np.uint8, ...; not np.bool_):
#: looked up by id, an int, so that no type's own __eq__ or __hash__ is ever asked
_NUMPY_INT_IDS = frozenset(id(np.dtype(c).type) for c in np.typecodes["AllInteger"])
_FMPZ = flint.fmpz if flint is not None else None
_MISSING = object()


def exact_int(x: object) -> int | None:
    """``x`` as a plain Python int if its type is one the verifier reads exactly, else None.

    Accepted: ``int`` itself, numpy's own integer scalar types, flint ``fmpz``. The
    test is on ``type(x)``, which an object cannot misreport, so no code of the
    caller's runs; ``x`` is read once.

    Parameters
    ----------
    x : any object

    Returns
    -------
    int (``type(result) is int``) or None

    Examples
    --------
    >>> exact_int(7), exact_int(np.int64(-3)), exact_int(True), exact_int(7.0)
    (7, -3, None, None)
    """
    t = type(x)
    if t is int:
        return x
    if id(t) in _NUMPY_INT_IDS or t is _FMPZ:
        return int(x)
    return None


def _int_tuple(seq: object) -> tuple[int, ...] | None:
    """A sequence of exact integers as a tuple of plain ints, or None (see the module)."""
    t = type(seq)
    if t is np.ndarray:
        if seq.ndim != 1:
            return None
        if seq.dtype.kind in "iu":
            return tuple(seq.tolist())
        if seq.dtype.kind != "O":
            return None
        seq = seq.tolist()
    elif t is not tuple and t is not list:
        return None
    out = []
    for x in seq:
        v = exact_int(x)
        if v is None:
            return None
        out.append(v)
    return tuple(out)


def _int_vectors(seq: object) -> tuple[tuple[int, ...], ...] | None:
    """A sequence of integer sequences (kernel vectors) as a tuple of tuples, or None."""
    t = type(seq)
    if t is np.ndarray:
        if seq.ndim != 2:
            return None
        if seq.dtype.kind in "iu":
            return tuple(tuple(v) for v in seq.tolist())
        if seq.dtype.kind != "O":
            return None
        seq = list(seq)             # rows: 1-D object arrays
    elif t is not tuple and t is not list:
        return None
    out = []
    for v in seq:
        w = _int_tuple(v)
        if w is None:
            return None
        out.append(w)
    return tuple(out)


class LowerSnap(NamedTuple):
    """A lower-bound certificate as read: det A[rows, cols] != 0 mod prime.

    >>> LowerSnap(7, (0, 2), (0, 1)).rows
    (0, 2)
    """

    prime: int
    rows: tuple[int, ...]
    cols: tuple[int, ...]


class UpperSnap(NamedTuple):
    """An upper-bound certificate as read (``side``: right, left or trivial).

    >>> UpperSnap(1, "right", ((2, -1),), (0,), None).vectors
    ((2, -1),)
    """

    bound: int
    side: str
    vectors: tuple[tuple[int, ...], ...]
    pivots: tuple[int, ...]
    modulus: int | None


class Claim(NamedTuple):
    """What is to be verified, as read: the certificate's parts, and the result's
    value, kind, field and shape when a RankResult was given (else None).
    ``readable`` is False when some field could not be read exactly.

    >>> Claim(True, lower=LowerSnap(7, (0,), (0,))).kind is None   # a bare certificate
    True
    """

    readable: bool
    lower: LowerSnap | None = None
    upper: UpperSnap | None = None
    value: int | None = None
    kind: str | None = None
    field: str | None = None
    shape: tuple[int, ...] | None = None


_UNREADABLE = Claim(False)


def _fields(obj: object, names: tuple[str, ...]) -> list:
    """Each attribute of ``obj`` read once (an object of an exact known type: plain
    attribute lookups, no property of the caller's)."""
    return [getattr(obj, name, _MISSING) for name in names]


def _read_lower(obj: object) -> LowerSnap | None:
    if type(obj) is not LowerBoundCertificate:
        return None
    prime, rows, cols = _fields(obj, ("prime", "rows", "cols"))
    p, r, c = exact_int(prime), _int_tuple(rows), _int_tuple(cols)
    if p is None or r is None or c is None:
        return None
    return LowerSnap(p, r, c)


def _read_upper(obj: object) -> UpperSnap | None:
    if type(obj) is not UpperBoundCertificate:
        return None
    bound, side, vectors, pivots, modulus = _fields(
        obj, ("bound", "side", "vectors", "pivots", "modulus"))
    b, vecs, piv = exact_int(bound), _int_vectors(vectors), _int_tuple(pivots)
    mod = None if modulus is None else exact_int(modulus)
    if b is None or type(side) is not str or vecs is None or piv is None \
            or (modulus is not None and mod is None):
        return None
    return UpperSnap(b, side, vecs, piv, mod)


def _read_certificate(obj: object) -> Claim:
    """A certificate object (exact type) as a Claim without result fields."""
    t = type(obj)
    if t is LowerBoundCertificate:
        low = _read_lower(obj)
        return _UNREADABLE if low is None else Claim(True, lower=low)
    if t is UpperBoundCertificate:
        up = _read_upper(obj)
        return _UNREADABLE if up is None else Claim(True, upper=up)
    if t is not RankCertificate:
        return _UNREADABLE
    lower, upper = _fields(obj, ("lower", "upper"))
    low = None if lower is None else _read_lower(lower)
    up = None if upper is None else _read_upper(upper)
    if (lower is not None and low is None) or (upper is not None and up is None):
        return _UNREADABLE
    return Claim(True, lower=low, upper=up)


def _read_result(obj: RankResult) -> Claim:
    """A RankResult (exact type) as a Claim; InputError if it carries no certificate."""
    value, kind, field, shape, cert = _fields(
        obj, ("value", "kind", "field", "shape", "certificate"))
    if cert is None:
        raise InputError("verify: this RankResult carries no certificate, so there is "
                         "nothing to check; compute it with seprank.rank(..., certify=True)")
    claim = _read_certificate(cert)
    v, sh = exact_int(value), _int_tuple(shape)
    if not claim.readable or v is None or type(kind) is not str or type(field) is not str \
            or sh is None:
        return _UNREADABLE
    return claim._replace(value=v, kind=kind, field=field, shape=sh)


_KNOWN = (RankResult, RankCertificate, LowerBoundCertificate, UpperBoundCertificate)


def read_claim(obj: object) -> Claim:
    """Read a certificate or RankResult once into a :class:`Claim` (see the module).

    Parameters
    ----------
    obj : RankCertificate, LowerBoundCertificate, UpperBoundCertificate or RankResult
        (exact types; an instance of a subclass is read as unreadable)

    Returns
    -------
    Claim; ``readable`` False when a field is not of a type read exactly

    Raises
    ------
    InputError
        a RankResult without a certificate.
    TypeError
        anything else (not a certificate or result at all).

    Examples
    --------
    >>> read_claim(LowerBoundCertificate(7, (0, 1), [0, np.int64(1)])).lower
    LowerSnap(prime=7, rows=(0, 1), cols=(0, 1))
    >>> read_claim(LowerBoundCertificate(7.0, (0,), (0,))).readable
    False
    """
    t = type(obj)
    if t is RankResult:
        return _read_result(obj)
    if t is RankCertificate or t is LowerBoundCertificate or t is UpperBoundCertificate:
        return _read_certificate(obj)
    if issubclass(t, _KNOWN):
        return _UNREADABLE
    raise TypeError(f"not a rank certificate or RankResult: {t.__name__}")


# ---------------------------------------------------------------- the matrix

def _type_name(x: object) -> str:
    """The name of x's type, read from the type object itself (no code of the caller's)."""
    return type.__dict__["__name__"].__get__(type(x), type)


def _refuse_entry(x: object, where: tuple[int, int]):
    t = type(x)
    if t is bool or t is np.bool_:
        raise InputError(f"verify: entry {where} is a bool; give integers or fractions")
    shown = repr(x) if t is float or t is str else "an object"
    raise InputError(f"verify: entry {where} is {shown} ({_type_name(x)}); the verifier "
                     "reads only exact entries (integers, fractions)")


def _sympy_rational(x: object) -> tuple[int, int] | None:
    """(p, q) of a SymPy rational of one of SymPy's own types, else None."""
    sympy = sys.modules.get("sympy")  # a SymPy object means SymPy is loaded
    t = type(x)
    if sympy is None or not issubclass(t, sympy.Rational) \
            or not t.__module__.startswith("sympy."):
        return None
    p, q = x.p, x.q
    return (p, q) if type(p) is int and type(q) is int else None


def _exact_entry(x: object, where: tuple[int, int]) -> tuple[int, int]:
    """A non-int matrix entry as a reduced (numerator, denominator > 0), or InputError."""
    t = type(x)
    pq = None
    if id(t) in _NUMPY_INT_IDS or t is _FMPZ:
        return int(x), 1
    if t is Fraction:
        pq = (x.numerator, x.denominator)
        if type(pq[0]) is not int or type(pq[1]) is not int:
            pq = None
    elif flint is not None and t is flint.fmpq:
        pq = (int(x.p), int(x.q))
    else:
        pq = _sympy_rational(x)
    if pq is None or pq[1] == 0:
        _refuse_entry(x, where)
    p, q = pq
    g = gcd(p, q) * (1 if q > 0 else -1)
    return p // g, q // g


def _read_row(row: object, i: int) -> tuple[list[int], list[int] | None]:
    """Row i as (numerators, denominators or None when all are 1)."""
    t = type(row)
    if t is list or t is tuple or t is range:
        vals = list(row)
    elif issubclass(t, np.ndarray) and row.ndim == 1:
        vals = np.ndarray.view(row, np.ndarray).tolist()
    else:
        raise InputError(f"verify: row {i} is a {_type_name(row)}; give rows as lists "
                         "of integers or fractions")
    if all(type(x) is int for x in vals):
        return vals, None
    nums, dens = [], []
    for j, x in enumerate(vals):
        if type(x) is int:
            nums.append(x)
            dens.append(1)
        else:
            p, q = _exact_entry(x, (i, j))
            nums.append(p)
            dens.append(q)
    return nums, (dens if any(q != 1 for q in dens) else None)


def _read_rows(rows: list) -> tuple[list[list[int]], list | None]:
    """Rows of exact entries as numerators and (per row, or None) denominators."""
    nums, dens = [], []
    for i, row in enumerate(rows):
        a, b = _read_row(row, i)
        nums.append(a)
        dens.append(b)
    if nums and len({len(r) for r in nums}) != 1:
        raise InputError("verify: ragged rows")
    return nums, (dens if any(d is not None for d in dens) else None)


def _small_int64(arr: np.ndarray) -> np.ndarray | None:
    """An integer array as an int64 copy if every |entry| < 2^62 (exact), else None."""
    if arr.ndim != 2 or arr.dtype.kind not in "iu" or arr.size == 0:
        return None
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8:
        if int(arr.max()) >= 2**62:
            return None
        return arr.astype(np.int64)
    out = arr.astype(np.int64)
    if int(out.max()) >= 2**62 or int(out.min()) <= -(2**62):
        return None
    return out


def _int64_or_rows(rows: list[list[int]]):
    """(None, int64 array) for rows of Python ints all below 2^62 in absolute value
    (exact; the fast path), else (rows, None). Only for rows known to hold ints."""
    if not rows or not rows[0]:
        return rows, None
    try:
        arr = np.array(rows, dtype=np.int64)
    except OverflowError:
        return rows, None
    if int(arr.max()) >= 2**62 or int(arr.min()) <= -(2**62):
        return rows, None
    return None, arr


def _read_array(arr: np.ndarray, what: str):
    """(int64 array, None, None) or (None, rows, dens) of a 2-D numpy array (base class)."""
    if arr.ndim != 2:
        raise InputError(f"verify: {what} must be 2-dimensional")
    small = _small_int64(arr)
    if small is not None:
        return small, None, None
    if arr.dtype.kind in "iu":
        return None, arr.tolist(), None  # Python ints, exact for every integer dtype
    if arr.dtype.kind == "O":
        return (None, *_read_rows(arr.tolist()))
    raise InputError(f"verify: {what} has dtype {arr.dtype}; the verifier reads only exact "
                     "integer (or object) arrays")


def _read_residues(p: object, data: np.ndarray):
    """(modulus, int64 array or None, rows or None) of residues ``data`` mod ``p``."""
    mod = exact_int(p)
    if mod is None or mod < 2:
        raise InputError(f"verify: residue modulus ({_type_name(p)}) is not an integer >= 2")
    if data.ndim == 2 and data.dtype.kind == "f":
        if not (np.isfinite(data).all() and (data == np.floor(data)).all()
                and (np.abs(data) < _TWO53).all()):
            raise InputError("verify: float residues must be integers below 2^53")
        data = data.astype(np.int64)
    arr = _small_int64(data)
    if arr is not None:
        # residues already in [0, p) are kept; others reduced (int64 % p: exact)
        in_range = int(arr.min()) >= 0 and int(arr.max()) < mod
        return mod, (arr if in_range else arr % mod), None
    _, rows, dens = _read_array(data, "residues")
    if dens is not None:
        raise InputError("verify: residues must be integers")
    return mod, None, [[x % mod for x in row] for row in rows]


def _read_matrix(matrix: object):
    """(modulus, int64 array, rows, dens, ncols): exactly one of array and rows is set."""
    t = type(matrix)
    if flint is not None and (t is flint.nmod_mat or t is flint.fmpz_mat):
        mod = int(matrix.modulus()) if t is flint.nmod_mat else None
        rows, arr = _int64_or_rows([[int(x) for x in row] for row in matrix.tolist()])
        return mod, arr, rows, None, matrix.ncols()
    if flint is not None and t is flint.fmpq_mat:
        return (None, None, *_read_rows(matrix.tolist()), matrix.ncols())
    if t is list or t is tuple:
        return (None, None, *_read_rows(matrix), 0)
    if issubclass(t, np.ma.MaskedArray):  # refused, as seprank.rank refuses it
        raise InputError("verify: the matrix is a masked array (numpy.ma); masks are not "
                         "read: give numpy.ma.filled(A, value) or the rows you mean")
    if issubclass(t, np.ndarray):
        arr = np.ndarray.view(matrix, np.ndarray)
        return (None, *_read_array(arr, "the matrix"), arr.shape[1])
    sympy = sys.modules.get("sympy")
    if sympy is not None and issubclass(t, sympy.MatrixBase):
        ncols = matrix.shape[1]
        return (None, None, *_read_rows(matrix.tolist()), ncols)
    p, data = getattr(matrix, "p", _MISSING), getattr(matrix, "data", _MISSING)
    if issubclass(type(data), np.ma.MaskedArray):
        raise InputError("verify: the residues are a masked array (numpy.ma); masks are not "
                         "read: give numpy.ma.filled(A, value) or the rows you mean")
    if p is _MISSING or not issubclass(type(data), np.ndarray):
        raise InputError(f"verify: cannot read a matrix from a {_type_name(matrix)}")
    data = np.ndarray.view(data, np.ndarray)
    return (*_read_residues(p, data), None, data.shape[1] if data.ndim == 2 else 0)


class MatrixSnapshot:
    """The matrix as the verifier reads it, once (see the module): an int64 array of
    entries below 2^62 in absolute value, or rows of Python ints with, for rational
    rows, their denominators; ``modulus`` p for a matrix over GF(p), else None.

    Parameters
    ----------
    matrix : any of the matrix types of the module docstring

    Raises
    ------
    InputError
        an entry or a matrix type the verifier does not read exactly.

    Examples
    --------
    >>> S = MatrixSnapshot([[1, Fraction(1, 2)], [3, 4]])
    >>> (S.m, S.n, S.modulus), S.minor([0], [1]), S.int_matrix()
    ((2, 2, None), [[1]], [[2, 1], [3, 4]])
    """

    def __init__(self, matrix: object):
        self.modulus, self._arr, rows, self._dens, ncols = _read_matrix(matrix)
        self._rows: list[list[int]] | None = rows
        if rows is None:
            self.m, self.n = self._arr.shape
        else:
            self.m = len(rows)
            self.n = len(rows[0]) if self.m else ncols
        self._int_rows: list[list[int]] | None = None

    def minor(self, rows: tuple[int, ...], cols: tuple[int, ...]):
        """The integer minor A[rows, cols], each row times the lcm of the denominators
        of its entries there: an int64 array or lists of Python ints."""
        if self._arr is not None:
            return self._arr[np.ix_(rows, cols)] if rows else np.zeros((0, 0), np.int64)
        out = []
        for i in rows:
            num, den = self._rows[i], self._dens[i] if self._dens is not None else None
            out.append([num[j] for j in cols] if den is None
                       else _cleared([num[j] for j in cols], [den[j] for j in cols]))
        return out

    def int_matrix(self):
        """Every row times the lcm of its denominators: int64 array or lists (cached)."""
        if self._arr is not None:
            return self._arr
        if self._int_rows is None:
            dens = self._dens or [None] * self.m
            self._int_rows = [num if den is None else _cleared(num, den)
                              for num, den in zip(self._rows, dens, strict=True)]
        return self._int_rows


def _cleared(nums: list[int], dens: list[int]) -> list[int]:
    """The row nums / dens times the lcm of dens (reduced fractions, dens > 0)."""
    den = lcm(*dens) if dens else 1
    return [x * (den // d) for x, d in zip(nums, dens, strict=True)]
