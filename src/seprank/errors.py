"""Exceptions raised by seprank for bad input or impossible requests.

Every error a user can provoke is a :class:`SeprankError` (a ``ValueError``)
whose message names the problem in one line. The command line prints that
line and exits with status 2 instead of showing a traceback.
"""

from __future__ import annotations

__all__ = [
    "SeprankError",
    "InputError",
    "NotPrimeError",
    "BudgetError",
    "MemoryLimitError",
    "TimeLimitError",
    "ParameterError",
    "OutputError",
    "did_you_mean",
]


class SeprankError(ValueError):
    """Base class of every error that seprank raises on purpose.

    Examples
    --------
    >>> issubclass(SeprankError, ValueError)
    True
    >>> try:
    ...     raise SeprankError("bad request")
    ... except ValueError as exc:
    ...     print(exc)
    bad request
    """


class InputError(SeprankError):
    """A matrix or file that cannot be read as the requested kind of object.

    Examples
    --------
    >>> import seprank
    >>> try:
    ...     seprank.rank([[1, 2], [3]])
    ... except InputError as exc:
    ...     print(exc)
    ragged rows: row 1 has 1 entries, row 0 has 2
    """


class NotPrimeError(SeprankError):
    """A modulus that was supposed to be prime is not.

    Examples
    --------
    >>> from seprank.scalars.primes import require_prime
    >>> try:
    ...     require_prime(9)
    ... except NotPrimeError as exc:
    ...     print(exc)
    9 is not prime
    """


class ParameterError(SeprankError):
    """A parameter outside the range where the mathematics is defined.

    Examples
    --------
    >>> from seprank.scalars.primes import prev_prime
    >>> try:
    ...     prev_prime(2)
    ... except ParameterError as exc:
    ...     print(exc)
    there is no prime below 2
    """


class BudgetError(SeprankError):
    """A computation refused before it started: its estimate exceeds a limit
    (:mod:`seprank.budget`: the machine's memory, ``max_memory``, ``max_seconds``).

    Examples
    --------
    >>> issubclass(MemoryLimitError, BudgetError), issubclass(TimeLimitError, BudgetError)
    (True, True)
    """


class MemoryLimitError(BudgetError):
    """A computation whose memory, estimated before allocating, cannot fit.

    Examples
    --------
    >>> from seprank.linalg.memory import require_fits
    >>> try:
    ...     require_fits(2**80, "a huge matrix")
    ... except MemoryLimitError as exc:
    ...     print(str(exc).split(" needs")[0])
    a huge matrix
    """


class TimeLimitError(BudgetError):
    """A computation whose estimated running time exceeds ``max_seconds``.

    Examples
    --------
    >>> from seprank.budget import Budget, Estimate
    >>> try:
    ...     Budget(max_seconds=1).check(Estimate("a long loop", work=((10**15, "python"),)))
    ... except TimeLimitError as exc:
    ...     print(str(exc).split(" needs")[0])
    a long loop
    """


class OutputError(SeprankError):
    """An output path that seprank will not write (a link, a folder, a read-only place).

    Examples
    --------
    >>> from seprank.files.output_files import write_text
    >>> try:
    ...     write_text("/", "text")
    ... except OutputError as exc:
    ...     print(exc)
    /: is a folder, not a file
    """


def did_you_mean(word: str, choices, what: str = "") -> str:
    """The hint an error about an unknown name ends with: the closest of ``choices``
    (the same name in another case first, else :func:`difflib.get_close_matches`), or ""
    when none is close.

    Examples
    --------
    >>> did_you_mean("L-lemma6", ["L-Lemma6", "L-Lemma7", "W-Lemma6"])
    '; did you mean L-Lemma6?'
    >>> did_you_mean("--metod", ["--method", "--prime"])
    '; did you mean --method?'
    >>> did_you_mean("zzz", ["rank", "prove"])
    ''
    """
    import difflib

    choices = [str(c) for c in choices]
    same = [c for c in choices if c.lower() == word.lower()]
    close = same or difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {what}{close[0]}?" if close else ""

