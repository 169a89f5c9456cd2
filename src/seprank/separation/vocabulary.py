"""One vocabulary for the network's shape, and the checks of the arguments at the edge.

The papers write L, d_x, H, d_a, N (levine2020 sec. 2.2, l.71-81: L layers of H
heads, embedding dimension d_x, attention dimension d_a, N positions); people
write depth, width, heads, head dim, sequence length. The API takes both
(:data:`SHAPE_NAMES`), refusing a parameter given in both spellings; the CLI's
long options are the spelled-out names and its short ones the symbols
(``-L/--depth``, ``-d_x/--width``, ``-H/--heads``, ``-d_a/--head-dim``,
``-N/--seq-len``).

A partition of the positions 0..N-1 is given as I (a list of positions; J is the
rest), as a pair (I, J) of lists, or as the ``{"I": [...], "J": [...]}`` of a saved
answer; on the command line as ``"0,1"`` (I) or ``"0,1|2,3"`` (I | J). Positions
are 0-based. No input is coerced: a string is never a bool, ``"0,,1"`` is not
``0,1``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from seprank.errors import ParameterError
from seprank.tensors.grid import check_partition

__all__ = ["SHAPE_NAMES", "resolve_shape_names", "check_int", "check_bool", "check_seq_len",
           "parse_partition", "partition_from_text", "INFINITE_N", "infinite_partition"]

#: (the papers' symbol, the spelled-out name) of each shape parameter, in the order of
#: ``separation_rank``'s positional arguments
SHAPE_NAMES: tuple[tuple[str, str], ...] = (("L", "depth"), ("d_x", "width"), ("H", "heads"),
                                            ("d_a", "head_dim"), ("N", "seq_len"))

#: the value of N that asks for the limit N -> infinity (``math.inf``)
INFINITE_N = math.inf


def resolve_shape_names(symbols: Mapping[str, Any], spelled: Mapping[str, Any]
                        ) -> dict[str, Any]:
    """The shape parameters by symbol, from either spelling (None: not given).

    Parameters
    ----------
    symbols : {"L": ..., "d_x": ..., ...}, the values given by symbol (None: not given).
    spelled : {"depth": ..., "width": ..., ...}, the values given by name.

    Returns
    -------
    dict symbol -> value (None where neither spelling was given).

    Raises
    ------
    ParameterError
        one parameter given in both spellings.

    Examples
    --------
    >>> resolve_shape_names({"L": None, "d_x": 2}, {"depth": 3})["L"]
    3
    >>> resolve_shape_names({"L": 2}, {"depth": 2})
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: give L or depth, not both (they are one parameter)
    """
    out: dict[str, Any] = {}
    for sym, name in SHAPE_NAMES:
        a, b = symbols.get(sym), spelled.get(name)
        if a is not None and b is not None:
            raise ParameterError(f"give {sym} or {name}, not both (they are one parameter)")
        out[sym] = a if a is not None else b
    return out


def check_int(name: str, value: object, low: int) -> int:
    """``value`` as an int >= low; ParameterError otherwise (bools and floats refused).

    >>> check_int("position", 3, 0)
    3
    >>> check_int("position", True, 0)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: position must be an integer >= 0, got True
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ParameterError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def check_bool(name: str, value: object) -> bool:
    """``value`` if it is True or False; ParameterError for anything else (no coercion).

    >>> check_bool("residual", "false")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: residual must be True or False, got 'false'
    """
    if not isinstance(value, bool):
        raise ParameterError(f"{name} must be True or False, got {value!r}")
    return value


def check_seq_len(N: object) -> int | float:
    """N as an integer >= 2, or :data:`INFINITE_N` for the limit N -> infinity.

    >>> check_seq_len(4), check_seq_len(float("inf"))
    (4, inf)
    >>> check_seq_len(1)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: N (sequence length) must be an integer >= 2, got 1
    """
    if isinstance(N, float) and N == math.inf:
        return INFINITE_N
    return check_int("N (sequence length)", N, 2)


def _is_side(x: object) -> bool:
    return isinstance(x, (list, tuple)) and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in x)


def parse_partition(partition: object, N: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(I, J), increasing, from I, from a pair (I, J), or from {"I": ..., "J": ...}.

    The default (None) is I = the first N // 2 positions. Both sides must be
    non-empty, no position repeated, every position in exactly one side.

    Raises
    ------
    ParameterError
        a string, a side that holds something other than integer positions, an
        empty side, a repeated, missing or out-of-range position.

    Examples
    --------
    >>> parse_partition([0, 2], 4), parse_partition(([1], [0, 2]), 3)
    (((0, 2), (1, 3)), ((1,), (0, 2)))
    >>> parse_partition({"I": [0], "J": [1]}, 2), parse_partition(None, 5)
    (((0,), (1,)), ((0, 1), (2, 3, 4)))
    >>> parse_partition([[0], []], 1)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: a partition needs positions on both sides; got I = [0], J = []
    """
    J_given = None
    if partition is None:
        I = list(range(N // 2))
    elif isinstance(partition, Mapping) and set(partition) <= {"I", "J"} and "I" in partition:
        I, J_given = partition["I"], partition.get("J")
        if not _is_side(I) or (J_given is not None and not _is_side(J_given)):
            raise ParameterError("partition {'I': ..., 'J': ...} needs lists of integer "
                                 f"positions; got {dict(partition)!r}")
    elif isinstance(partition, (list, tuple)) and _is_side(partition):
        I = partition
    elif (isinstance(partition, (list, tuple)) and len(partition) == 2
          and all(_is_side(side) for side in partition)):
        I, J_given = partition
    else:
        raise ParameterError("partition must be I (a list of 0-based positions) or a pair "
                             f"(I, J) of such lists; got {partition!r}")
    I, J = check_partition(N, tuple(I), None if J_given is None else tuple(J_given))
    if not I or not J:
        raise ParameterError(f"a partition needs positions on both sides; got I = {list(I)}, "
                             f"J = {list(J)}")
    return I, J


def _positions(text: str, what: str) -> list[int]:
    items = text.split(",")
    out = []
    for item in items:
        item = item.strip()
        if not item or not (item.isdigit() and item.isascii()):
            raise ParameterError(f"--partition {what!r}: give 0-based positions separated by "
                                 "commas, e.g. 0,1 (or I|J, e.g. 0,1|2,3); "
                                 f"{'an empty item' if not item else repr(item)} is not one")
        out.append(int(item))
    return out


def partition_from_text(text: str) -> list[int] | tuple[list[int], list[int]]:
    """The command line's ``--partition``: ``"0,1"`` (I) or ``"0,1|2,3"`` (I | J).

    Empty items (``"0,,1"``, ``"0,"``) and anything but digits are refused, not skipped.

    >>> partition_from_text("0, 2"), partition_from_text("1|0,2")
    ([0, 2], ([1], [0, 2]))
    >>> partition_from_text("0,,1")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: --partition '0,,1': give 0-based positions separated by \
commas, e.g. 0,1 (or I|J, e.g. 0,1|2,3); an empty item is not one
    """
    sides: Sequence[str] = text.split("|")
    if len(sides) > 2:
        raise ParameterError(f"--partition {text!r}: at most one '|' (I|J)")
    parsed = [_positions(side, text) for side in sides]
    return parsed[0] if len(parsed) == 1 else (parsed[0], parsed[1])


def infinite_partition(partition: object) -> tuple[int, ...] | None:
    """The side I of a partition at N = inf: a list of positions, or {"I": [...]}.

    J is every other position (infinitely many), so a J cannot be listed.

    >>> infinite_partition([2, 0]), infinite_partition({"I": [1]}), infinite_partition(None)
    ((0, 2), (1,), None)
    >>> infinite_partition(([0], [1]))
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: at N = inf a partition is I alone (0-based positions; J is \
every other position), got ([0], [1])
    """
    if partition is None:
        return None
    side = partition.get("I") if isinstance(partition, Mapping) and set(partition) == {"I"} \
        else partition
    ok = isinstance(side, (list, tuple)) and side and all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in side)
    if not ok or len(set(side)) != len(side):
        raise ParameterError("at N = inf a partition is I alone (0-based positions; J is every "
                             f"other position), got {partition!r}")
    return tuple(sorted(side))
