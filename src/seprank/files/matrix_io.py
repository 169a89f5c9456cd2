"""Read matrices from files for ``seprank rank FILE``, safely.

Formats (chosen by extension):

* ``.npy``: numpy's format, read with ``allow_pickle=False`` (object arrays
  are refused, never unpickled); integer dtypes, or float dtypes for the float
  method only. The shape is read from the header first so that a matrix too
  large for memory is refused before it is loaded.
* ``.json``: a list of rows; entries are integers or strings ``"p/q"`` (the schema
  ``matrix`` of :mod:`seprank.schemas.matrix`; ``seprank schema matrix``).
* ``.csv``: comma-separated values, one row per line, read with Python's
  :mod:`csv` module (quoted cells allowed); cells as in text files. Lines that
  are empty or start with ``#`` are skipped; there is no header row (a first
  line without a single number is refused as one, with a one-line error, like
  any text cell, an empty cell or malformed quoting).
* anything else: whitespace-separated text, one row per line; tokens are
  integers or ``p/q`` (decimal numbers only for the float method); lines that
  are empty or start with ``#`` are skipped.

Every entry, whatever the format, is read by :mod:`seprank.scalars.exact_text`: ASCII
digits with an optional sign, ``p/q`` with q > 0, nothing else (no ``_``, no other
scripts' digits); the same grammar as the weights, the API and every schema.

Every reader refuses bad input with one :class:`~seprank.errors.InputError`
line, never a traceback:

* memory is checked *before* anything large is allocated: for ``.npy`` from
  the header (shape and dtype) plus the first step of the rank method that will
  run; for text, CSV and JSON from the file size (:mod:`seprank.files.bounded_read`, which
  also refuses folders and reads pipes and devices with a byte cap and a timeout);
* a ``.npy`` whose header is malformed (negative or non-integer dimensions) or
  whose data is shorter than its header says is refused;
* JSON nested deeper than a matrix is refused (:func:`read_json` turns
  Python's recursion limit into a one-line error), as is an object that repeats a key
  and the tokens ``NaN`` and ``Infinity`` (:mod:`seprank.schemas.strict_json`);
* integers of any length are read exactly: digit strings go through
  python-flint's ``fmpz`` parser, which has neither Python's 4300-digit limit
  for ``int(str)`` nor its quadratic running time.
"""

from __future__ import annotations

import csv
import io
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

import seprank.schemas.strict_json as strict_json
from seprank.budget import checkpoint
from seprank.errors import InputError
from seprank.files.bounded_read import check_regular_file, read_text_bounded
from seprank.linalg.memory import require_fits
from seprank.scalars.exact_text import FLOAT_METHOD_HINT, exact_from_value, parse_integer

__all__ = ["load_matrix", "read_json", "read_csv_rows", "matrix_from_rows", "parse_integer",
           "workspace_bytes"]


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
    text = read_text_bounded(path)  # folders, size, streams: seprank.files.bounded_read
    try:
        return strict_json.loads(text, parse_int=parse_integer)  # no repeated keys, no NaN
    except RecursionError:
        raise InputError(f"{path}: {what} nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid {what} ({exc})") from None


def _parse_token(tok: object, where: str, allow_float: bool) -> int | Fraction | float:
    """One entry of a text, CSV or JSON matrix: :mod:`seprank.scalars.exact_text`'s grammar."""
    return exact_from_value(tok, where, allow_float=allow_float, float_hint=FLOAT_METHOD_HINT)


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
    text = read_text_bounded(path)  # folders, size, streams: seprank.files.bounded_read
    reader = csv.reader(io.StringIO(text), strict=True, skipinitialspace=True)
    rows: list[list[str]] = []
    try:
        for record in reader:
            checkpoint(f"reading {path}")
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


def matrix_from_rows(rows: list[list[str]], source: str, *, allow_float: bool = False
                     ) -> list[list[int | Fraction | float]]:
    """The matrix of text or CSV tokens ``rows``: equal row lengths, every token read by
    :mod:`seprank.scalars.exact_text` (decimals only with ``allow_float``).

    Raises
    ------
    InputError
        ragged rows, or a token outside the grammar (one line naming ``source`` and the
        entry).

    Examples
    --------
    >>> matrix_from_rows([["1", "-2/4"], ["+3", "0"]], "m.txt")
    [[1, Fraction(-1, 2)], [3, 0]]
    >>> matrix_from_rows([["1_0"]], "m.txt")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: m.txt: entry (0, 0): '1_0' is not an integer or a fraction ...
    """
    width = len(rows[0]) if rows else 0
    out = []
    for i, row in enumerate(rows):
        checkpoint(f"reading {source}")
        if len(row) != width:
            raise InputError(f"{source}: ragged rows: row {i} has {len(row)} entries, "
                             f"row 0 has {width}")
        out.append([_parse_token(tok, f"{source}: entry ({i}, {j})", allow_float)
                    for j, tok in enumerate(row)])
    return out


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
        from seprank.schemas.matrix import matrix_from_json

        return matrix_from_json(read_json(path), str(path), allow_float=allow_float)
    if path.suffix.lower() == ".csv":
        rows = read_csv_rows(path)
    else:
        text = read_text_bounded(path, "text file (use .npy or .json)")
        rows = []
        for line in text.splitlines():
            checkpoint(f"reading {path}")
            if line.strip() and not line.lstrip().startswith("#"):
                rows.append(line.split())
    return matrix_from_rows(rows, str(path), allow_float=allow_float)
