"""Read matrices from files for ``seprank rank FILE``, safely.

Formats (chosen by extension):

* ``.npy``: numpy's format, read with ``allow_pickle=False`` (object arrays
  are refused, never unpickled); integer dtypes, or float dtypes for the float
  method only. The shape is read from the header first so that a matrix too
  large for memory is refused before it is loaded.
* ``.json``: a list of rows; entries are integers or strings ``"p/q"``.
* anything else: whitespace-separated text, one row per line; tokens are
  integers or ``p/q`` (decimal numbers only for the float method); lines that
  are empty or start with ``#`` are skipped.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import numpy as np

from seprank.errors import InputError
from seprank.linalg.memory import require_fits

__all__ = ["load_matrix"]

# Python objects per text/JSON byte are far larger than the byte itself.
_TEXT_EXPANSION = 40


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
                if int(den) == 0:
                    raise InputError(f"{where}: {tok!r} divides by zero")
                return Fraction(int(num), int(den))
            return int(s)
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


def _load_npy(path: Path, allow_float: bool) -> np.ndarray:
    try:
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, _, dtype = np.lib.format.read_array_header_2_0(fh)
    except (ValueError, OSError) as exc:
        raise InputError(f"{path}: not a readable .npy file ({exc})") from None
    if dtype.hasobject:
        raise InputError(f"{path}: holds Python objects (dtype {dtype}); seprank never "
                         "unpickles files: save an integer array instead")
    if len(shape) != 2:
        raise InputError(f"{path}: matrix must be 2-dimensional, got shape {shape}")
    if dtype.kind not in "iu" and not (allow_float and dtype.kind == "f"):
        raise InputError(f"{path}: dtype {dtype} is not an integer type "
                         + ("" if allow_float else "(floats only with --method float)"))
    require_fits(int(np.prod(shape)) * max(dtype.itemsize, 8) * 4, f"the matrix in {path}")
    return np.load(path, allow_pickle=False)


def load_matrix(path: str | os.PathLike, *, allow_float: bool = False
                ) -> np.ndarray | list[list[int | Fraction | float]]:
    """Load the matrix in ``path`` (see the module docstring for the formats).

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
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.suffix == ".npy":
        return _load_npy(path, allow_float)
    require_fits(path.stat().st_size * _TEXT_EXPANSION, f"the matrix in {path}")
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: not valid JSON ({exc})") from None
        if not isinstance(data, list) or (data and not all(isinstance(r, list) for r in data)):
            raise InputError(f"{path}: matrix must be 2-dimensional: a JSON list of rows")
        rows = data
    else:
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            raise InputError(f"{path}: not a text file (use .npy or .json)") from None
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
