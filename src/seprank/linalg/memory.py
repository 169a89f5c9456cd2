"""Estimate memory before allocating, and refuse what cannot fit.

The functions the linear-algebra code has always called, kept as thin doors to
:mod:`seprank.budget` (one module for budgets): :func:`require_fits` asks the
budget in force (:func:`seprank.budget.current`: the user's ``max_memory`` inside a
budgeted call, else the machine's memory), :func:`available_bytes` is
:func:`seprank.budget.machine_memory`, :func:`format_bytes` the budget's.
"""

from __future__ import annotations

from seprank.budget import SAFETY_FRACTION, current, format_bytes, machine_memory

__all__ = ["available_bytes", "require_fits", "format_bytes", "SAFETY_FRACTION"]


def available_bytes() -> int:
    """Bytes of memory available to new allocations now (best estimate).

    Examples
    --------
    >>> available_bytes() > 0
    True
    """
    return machine_memory()[0]


def require_fits(nbytes: int, what: str) -> None:
    """Raise MemoryLimitError (naming ``what``) if ``nbytes`` cannot fit in the budget
    in force (:func:`seprank.budget.current`).

    Examples
    --------
    >>> require_fits(1024, "a small buffer") is None
    True
    >>> require_fits(2**80, "a huge buffer")
    Traceback (most recent call last):
    ...
    seprank.errors.MemoryLimitError: a huge buffer needs about ... of memory > ... available ...
    """
    current().require(nbytes, what)
