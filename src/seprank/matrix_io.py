"""Read matrices from files for ``seprank rank FILE``, safely.

Formats (chosen by extension):

* ``.npy``: numpy's format, read with ``allow_pickle=False`` (object arrays
  are refused, never unpickled); integer dtypes, or float dtypes for the float
  method only. The shape is read from the header first so that a matrix too
  large for memory is refused before it is loaded.
* ``.json``: a list of rows; entries are integers or strings ``"p/q"``.
* ``.csv``: comma-separated values, one row per line, read with Python's
  :mod:`csv` module (quoted cells allowed); cells as in text files. Lines that
  are empty or start with ``#`` are skipped; there is no header row (a first
  line without a single number is refused as one, with a one-line error, like
  any text cell, an empty cell or malformed quoting).
* anything else: whitespace-separated text, one row per line; tokens are
  integers or ``p/q`` (decimal numbers only for the float method); lines that
  are empty or start with ``#`` are skipped.

Every reader refuses bad input with one :class:`~seprank.errors.InputError`
line, never a traceback:

* memory is checked *before* anything large is allocated: for ``.npy`` from
  the header (shape and dtype) plus the first step of the rank method that will
  run; for text, CSV and JSON from the file size (:mod:`seprank.bounded_read`, which
  also refuses folders and reads pipes and devices with a byte cap and a timeout);
* a ``.npy`` whose header is malformed (negative or non-integer dimensions) or
  whose data is shorter than its header says is refused;
* JSON nested deeper than a matrix is refused (:func:`read_json` turns
  Python's recursion limit into a one-line error);
* integers of any length are read exactly: digit strings go through
  python-flint's ``fmpz`` parser, which has neither Python's 4300-digit limit
  for ``int(str)`` nor its quadratic running time.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import flint
import numpy as np

from seprank.bounded_read import check_regular_file, read_text_bounded
from seprank.errors import InputError
from seprank.linalg.memory import require_fits

__all__ = ["load_matrix", "read_json", "read_csv_rows", "parse_integer", "workspace_bytes"]

_INTEGER = re.compile(r"[+-]?[0-9]+")

def workspace_bytes(method: str, m: int, n: int, bits: int = 64) -> int:
    """Bytes that a rank by ``method`` of an m x n matrix needs beyond the matrix itself
    (its first step: :func:`seprank.linalg.estimates.method_workspace`), from the shape
    alone, to refuse before loading; ``bits``: the entries' size (the dtype's).

    Examples
    --------
    >>> workspace_bytes("modular", 1000, 1000) < workspace_bytes("exact", 1000, 1000)
    True
    """
    from seprank.linalg.estimates import method_workspace

    return method_workspace(method, (m, n), bits)


def parse_integer(text: str) -> int:
    """The integer written in decimal in ``text``, of any length, exactly.

    Examples
    --------
    >>> parse_integer("-42")
    -42
    >>> parse_integer("9" * 5000) == 10**5000 - 1      # past int()'s 4300-digit limit
    True
    >>> parse_integer("1e3")
    Traceback (most recent call last):
    ...
    ValueError: '1e3' is not a decimal integer
    """
    text = text.strip()
    if not _INTEGER.fullmatch(text):
        raise ValueError(f"{text!r} is not a decimal integer")
    if len(text) < 4000:
        return int(text)
    return int(flint.fmpz(text.lstrip("+")))


def read_json(path: str | os.PathLike, what: str = "JSON") -> Any:
    """Parse the JSON file at ``path``: exact big integers, bounded nesting, one-line errors.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = Path(d) / "x.json"
    ...     _ = f.write_text("[" * 100000 + "]" * 100000)
    ...     try:
    ...         read_json(f)
    ...     except InputError as exc:
    ...         print(str(exc).split(": ", 1)[1])
    JSON nested too deeply
    """
    path = Path(path)
    text = read_text_bounded(path)  # folders, size, streams: seprank.bounded_read
    try:
        return json.loads(text, parse_int=parse_integer)
    except RecursionError:
        raise InputError(f"{path}: {what} nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid {what} ({exc})") from None


def _parse_token(tok: object, where: str, allow_float: bool) -> int | Fraction | float:
    if isinstance(tok, bool):
        raise InputError(f"{where}: {tok!r} is not a number")
    if isinstance(tok, int):
        return tok
    if isinstance(tok, float):
        if not allow_float:
            raise InputError(f"{where}: {tok!r} is a float; exact methods take integers or "
                             "'p/q' strings (or use --method float)")
        if tok != tok or tok in (float("inf"), float("-inf")):
            raise InputError(f"{where}: {tok!r}: NaN and infinity have no rank")
        return tok
    if isinstance(tok, str):
        s = tok.strip()
        try:
            if "/" in s:
                num, den = s.split("/")
                den_value = parse_integer(den)
                if den_value == 0:
                    raise InputError(f"{where}: {tok!r} divides by zero")
                return Fraction(parse_integer(num), den_value)
            return parse_integer(s)
        except InputError:
            raise
        except ValueError:
            pass
        if allow_float:
            try:
                x = float(s)
            except ValueError:
                pass
            else:
                if x != x or x in (float("inf"), float("-inf")):
                    raise InputError(f"{where}: {tok!r}: NaN and infinity have no rank")
                return x
        lower = s.lower()
        if lower in ("nan", "inf", "-inf", "+inf", "infinity", "-infinity"):
            raise InputError(f"{where}: {tok!r}: NaN and infinity have no rank")
        try:
            float(s)
        except ValueError:
            raise InputError(f"{where}: {tok!r} is not an integer or a fraction p/q") from None
        raise InputError(f"{where}: {tok!r} is a decimal number; exact methods take integers "
                         "or fractions p/q (or use --method float)")
    raise InputError(f"{where}: {tok!r} ({type(tok).__name__}) is not a number")


def _is_number(cell: str) -> bool:
    try:
        _parse_token(cell, "", allow_float=True)
    except InputError:
        return False
    return True


def read_csv_rows(path: str | os.PathLike) -> list[list[str]]:
    """The cells of a CSV file as strings, one list per row (comments, blank lines skipped).

    Refuses, with one :class:`~seprank.errors.InputError` line naming the file
    and line: a file that is not UTF-8 text, malformed quoting, an empty cell,
    and a first row without a single number (a header: seprank reads CSV
    without one). Cells are parsed into numbers by :func:`load_matrix`.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = Path(d) / "m.csv"
    ...     _ = f.write_text("# V, two rows\\n1, 2\\n3,\\"1/2\\"\\n")
    ...     read_csv_rows(f)
    [['1', '2'], ['3', '1/2']]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = Path(d) / "m.csv"
    ...     _ = f.write_text("a,b\\n1,2\\n")
    ...     try:
    ...         read_csv_rows(f)
    ...     except InputError as exc:
    ...         print(str(exc).split(": ", 1)[1])
    line 1 looks like a header (no number in 'a', 'b'); seprank reads CSV without a header row
    """
    path = Path(path)
    text = read_text_bounded(path)  # folders, size, streams: seprank.bounded_read
    reader = csv.reader(io.StringIO(text), strict=True, skipinitialspace=True)
    rows: list[list[str]] = []
    try:
        for record in reader:
            cells = [c.strip() for c in record]
            if not any(cells) or cells[0].startswith("#"):
                continue
            line = reader.line_num
            if not rows and not any(_is_number(c) for c in cells):
                shown = ", ".join(repr(c) for c in cells[:3]) + (", ..." if len(cells) > 3
                                                                 else "")
                raise InputError(f"{path}: line {line} looks like a header (no number in "
                                 f"{shown}); seprank reads CSV without a header row")
            if "" in cells:
                raise InputError(f"{path}: line {line}: empty cell in column "
                                 f"{cells.index('') + 1}; every cell must hold a number")
            rows.append(cells)
    except csv.Error as exc:
        raise InputError(f"{path}: not valid CSV (line {reader.line_num}: {exc})") from None
    return rows


def _load_npy(path: Path, allow_float: bool, method: str) -> np.ndarray:
    try:
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            offset = fh.tell()
    except Exception as exc:  # numpy's header parser raises many kinds (ValueError,
        # SyntaxError, tokenize.TokenError, ...): any of them means a malformed header
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"{path}: not a readable .npy file ({first})") from None
    if dtype.hasobject:
        raise InputError(f"{path}: holds Python objects (dtype {dtype}); seprank never "
                         "unpickles files: save an integer array instead")
    if not (isinstance(shape, tuple) and all(type(k) is int and k >= 0 for k in shape)):
        raise InputError(f"{path}: the header's shape {shape!r} is not a tuple of "
                         "non-negative integers")
    if len(shape) != 2:
        raise InputError(f"{path}: matrix must be 2-dimensional, got shape {shape}")
    if dtype.kind not in "iu" and not (allow_float and dtype.kind == "f"):
        raise InputError(f"{path}: dtype {dtype} is not an integer type "
                         + ("" if allow_float else "(floats only with --method float)"))
    m, n = shape
    data_bytes = m * n * dtype.itemsize
    have = path.stat().st_size - offset
    if have < data_bytes:
        raise InputError(f"{path}: truncated: the header promises {m} x {n} entries of "
                         f"{dtype} ({data_bytes} bytes), the file holds {have}")
    require_fits(data_bytes + workspace_bytes(method, m, n, 8 * dtype.itemsize),
                 f"the {m} x {n} matrix in {path} and the first step of method {method!r}")
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            array = np.fromfile(fh, dtype=dtype, count=m * n)
    except (ValueError, OSError) as exc:
        raise InputError(f"{path}: cannot read the data ({exc})") from None
    return array.reshape((m, n), order="F" if fortran else "C")


def load_matrix(path: str | os.PathLike, *, allow_float: bool = False, method: str = "auto"
                ) -> np.ndarray | list[list[int | Fraction | float]]:
    """Load the matrix in ``path`` (see the module docstring for the formats).

    ``method`` is the rank method that will run: its workspace is counted in
    the memory check made before a ``.npy`` file's data is read.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = Path(d) / "m.txt"
    ...     _ = f.write_text("# a comment\\n1 2\\n3 1/2\\n")
    ...     load_matrix(f)
    [[1, 2], [3, Fraction(1, 2)]]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = Path(d) / "m.json"
    ...     _ = f.write_text('[[0, "2/4"]]')
    ...     load_matrix(f)
    [[0, Fraction(1, 2)]]
    """
    path = Path(path)
    if path.suffix == ".npy":
        check_regular_file(path, ".npy file (read by seeking)", text=False)
        return _load_npy(path, allow_float, method)
    if path.suffix == ".json":
        data = read_json(path)
        if not isinstance(data, list) or (data and not all(isinstance(r, list) for r in data)):
            raise InputError(f"{path}: matrix must be 2-dimensional: a JSON list of rows")
        rows = data
    elif path.suffix.lower() == ".csv":
        rows = read_csv_rows(path)
    else:
        text = read_text_bounded(path, "text file (use .npy or .json)")
        rows = [line.split() for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    width = len(rows[0]) if rows else 0
    out = []
    for i, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"{path}: ragged rows: row {i} has {len(row)} entries, "
                             f"row 0 has {width}")
        vals = []
        for j, tok in enumerate(row):
            if isinstance(tok, list):
                raise InputError(f"{path}: matrix must be 2-dimensional; entry ({i}, {j}) "
                                 "is a list")
            vals.append(_parse_token(tok, f"{path}: entry ({i}, {j})", allow_float))
        out.append(vals)
    return out
