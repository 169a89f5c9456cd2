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
    >>> from seprank.output_files import write_text
    >>> try:
    ...     write_text("/", "text")
    ... except OutputError as exc:
    ...     print(exc)
    /: is a folder, not a file
    """
