"""Estimate memory before allocating, and refuse what cannot fit.

Reads the memory the operating system says is available (psutil's
``virtual_memory().available``, ``MemAvailable`` on Linux; total physical memory
when psutil is missing) and compares it with
an estimate made from shapes alone, before anything large is allocated.
"""

from __future__ import annotations

import os

from seprank.errors import MemoryLimitError

__all__ = ["available_bytes", "require_fits", "format_bytes", "SAFETY_FRACTION"]

#: Fraction of the available memory a single allocation may take.
SAFETY_FRACTION = 0.8


def available_bytes() -> int:
    """Bytes of memory available to new allocations now (best estimate).

    Examples
    --------
    >>> available_bytes() > 0
    True
    """
    try:  # psutil comes with dask[distributed]; imported here, on first use
        import psutil

        return int(psutil.virtual_memory().available)
    except (ImportError, OSError):  # pragma: no cover
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return 2**63


def format_bytes(nbytes: float) -> str:
    """Human-readable size, e.g. ``1.5 GiB``.

    Examples
    --------
    >>> format_bytes(512), format_bytes(1536), format_bytes(3 * 2**30)
    ('512.0 B', '1.5 KiB', '3.0 GiB')
    """
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return f"{nbytes:.1f} TiB"  # pragma: no cover


def require_fits(nbytes: int, what: str) -> None:
    """Raise MemoryLimitError (naming ``what``) if ``nbytes`` cannot fit in memory.

    Examples
    --------
    >>> require_fits(1024, "a small buffer") is None
    True
    >>> require_fits(2**80, "a huge buffer")
    Traceback (most recent call last):
    ...
    seprank.errors.MemoryLimitError: a huge buffer needs about ... of memory is available ...
    """
    avail = available_bytes()
    if nbytes > SAFETY_FRACTION * avail:
        raise MemoryLimitError(
            f"{what} needs about {format_bytes(nbytes)}, but only {format_bytes(avail)} of "
            f"memory is available (limit {SAFETY_FRACTION:.0%} of it)")
