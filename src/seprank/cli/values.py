"""Numbers on the command line: one reader, one minimum and one message per parameter.

Every numeric option of every ``seprank`` command is read by a type from here, so a
parameter that several commands take (N, L, the seed, ...) has one minimum and one
message wherever it is given, named as the command line names it (argparse puts the
option's flags first: ``argument -N/--seq-len: N (the sequence length) must be an
integer >= 2, got 0``). Only ASCII digits are read, with an optional sign: Python's
``int`` reads ``"٣"`` as 3 and ``"1_0"`` as 10, the command line refuses both, as the
file readers do (:mod:`seprank.scalars.exact_text`).

The minimum is the true one of the mathematics: a partition (I, J) with both sides
nonempty needs N >= 2 positions, a Hadamard power lambda >= 1, a seed >= 0 (numpy's
generators refuse negative seeds), a prime >= 2.
"""

from __future__ import annotations

import argparse
import math
import re

__all__ = ["PARAMETERS", "integer", "real", "seq_len_or_inf", "is_value_message", "size",
           "seconds"]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")

#: name -> (symbol, words, minimum): what the message of each parameter says
PARAMETERS: dict[str, tuple[str, str, int]] = {
    "depth": ("L", "the number of layers", 1),
    "width": ("d_x", "the embedding dimension", 1),
    "heads": ("H", "the number of heads per layer", 1),
    "head_dim": ("d_a", "the attention dimension", 1),
    "seq_len": ("N", "the sequence length", 2),
    "templates": ("M", "the number of templates", 1),
    "template_bound": ("B", "the bound of the template entries", 1),
    "position": ("i", "the output position", 0),
    "coordinate": ("c", "the output coordinate", 0),
    "seed": ("S", "a seed", 0),
    "half": ("M/2", "half the sub-matrix size", 1),
    "prime": ("P", "the prime", 2),
    "lam": ("lambda", "the Hadamard power", 1),
    "d": ("D", "the number of columns", 1),
    "base": ("B", "the Omega of the Omega rows", 2),
    "max_n": ("N", "the largest number of rows", 1),
    "threads": ("N", "the number of BLAS threads; 0 leaves them as they are", 0),
    "workers": ("N", "the number of workers", 1),
    "retries": ("N", "the number of retries", 0),
    "vocab": ("V", "the vocabulary size", 1),
    "emb_rank": ("r", "the inner rank of the embedding", 1),
    "pos_rank": ("r_e", "the positional rank", 0),
    "patch": ("k", "the patch size", 1),
    "d_input": ("d_input", "the input dimension", 1),
    # options of several values (nargs): each value has the same minimum
    "omega": ("D and LAMBDA", "", 1),
    "lemma6": ("L, H, DA and HALF", "", 1),
}


def _shown(text: str) -> str:
    """The value as the message quotes it: bare when it is a plain ASCII word."""
    return text if text.isascii() and text.isprintable() and text.strip() == text \
        and text else repr(text)


def _message(name: str) -> str:
    symbol, words, minimum = PARAMETERS[name]
    if not words:                          # several values
        return f"{symbol} must be integers >= {minimum}"
    return f"{symbol} ({words}) must be an integer >= {minimum}"


def integer(name: str):
    """The argparse type of the integer parameter ``name`` (a key of :data:`PARAMETERS`).

    Examples
    --------
    >>> integer("seq_len")("8"), integer("seed")("017")
    (8, 17)
    >>> integer("seq_len")("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: N (the sequence length) must be an integer >= 2, got 0
    >>> integer("lam")("٣")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: lambda (the Hadamard power) must be an integer >= 1, got '٣'
    >>> integer("omega")("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: D and LAMBDA must be integers >= 1, got -1
    """
    minimum = PARAMETERS[name][2]

    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text) or int(text) < minimum:
            raise argparse.ArgumentTypeError(f"{_message(name)}, got {_shown(text)}")
        return int(text)

    parse.__name__ = name          # what argparse names in its own messages
    return parse


def seq_len_or_inf(text: str) -> int | float:
    """``-N`` of ``sep-rank``: N as :func:`integer` reads it (with its message), or
    ``inf`` for the limit N -> infinity.

    Examples
    --------
    >>> seq_len_or_inf("4"), seq_len_or_inf("inf")
    (4, inf)
    >>> seq_len_or_inf("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: N (the sequence length) must be an integer >= 2, got 1
    """
    if text.strip().lower() in ("inf", "infinity"):
        return math.inf
    return integer("seq_len")(text)


def real(name: str, what: str):
    """The argparse type of a positive real option: a finite decimal in ASCII digits.

    Examples
    --------
    >>> real("R", "the relative tolerance")("1e-10")
    1e-10
    >>> real("R", "the relative tolerance")("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: R (the relative tolerance) must be a positive decimal \
number, got nan
    """
    def parse(text: str) -> float:
        value = float(text) if _REAL.fullmatch(text) else math.nan
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"{name} ({what}) must be a positive decimal "
                                             f"number, got {_shown(text)}")
        return value

    parse.__name__ = name
    return parse


def is_value_message(text: str) -> bool:
    """Whether ``text`` is one of this module's messages (a bad value, not a bad command:
    the command line prints it as one line, like every other bad parameter).

    >>> is_value_message("N (the sequence length) must be an integer >= 2, got 0")
    True
    >>> is_value_message("expected one argument")
    False
    """
    return any(text.startswith(_message(name) + ", got ") for name in PARAMETERS) or \
        " must be a positive decimal number, got " in text or \
        text.startswith((_SIZE + " must be", _SECONDS + " must be"))

#: what the budget options' messages call them (their grammar is seprank.budget's)
_SIZE, _SECONDS = "SIZE (the peak memory allowed)", "S (the running time allowed)"


def size(text: str) -> str:
    """``--max-memory SIZE``, checked as :func:`seprank.budget.parse_size` reads it (the
    text is kept: the budget reads it again when the command runs).

    >>> size("2G")
    '2G'
    >>> size("٢G")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: SIZE (the peak memory allowed) must be a size such as 2G, \
500M or 4096 (bytes); got '٢G'
    """
    from seprank.budget import parse_size
    from seprank.errors import ParameterError

    try:
        parse_size(text, _SIZE)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def seconds(text: str) -> str:
    """``--max-seconds S``, checked as :func:`seprank.budget.parse_seconds` reads it.

    >>> seconds("10m")
    '10m'
    >>> seconds("1_0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: S (the running time allowed) must be a number of seconds > 0 \
(or 10m, 1h), got '1_0'
    """
    from seprank.budget import parse_seconds
    from seprank.errors import ParameterError

    try:
        parse_seconds(text, _SECONDS)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text

