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
    "MemoryLimitError",
    "ParameterError",
]


class SeprankError(ValueError):
    """Base class of every error that seprank raises on purpose."""


class InputError(SeprankError):
    """A matrix or file that cannot be read as the requested kind of object."""


class NotPrimeError(SeprankError):
    """A modulus that was supposed to be prime is not."""


class ParameterError(SeprankError):
    """A parameter outside the range where the mathematics is defined."""


class MemoryLimitError(SeprankError):
    """A computation whose memory, estimated before allocating, cannot fit."""
