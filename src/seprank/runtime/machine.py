"""The machine's limits: the memory a new allocation can have now.

:func:`machine_memory` is what :mod:`seprank.budget` compares every estimate with: the
smallest of the memory the operating system says is available (psutil's
``virtual_memory().available``, ``MemAvailable`` on Linux), the room a cgroup leaves
(``memory.max`` minus ``memory.current``, or cgroup v1's files), and the address space
left under ``RLIMIT_AS`` (``ulimit -v``: what a process started with a memory limit may
still map, its current virtual size subtracted).
"""

from __future__ import annotations

import os

__all__ = ["machine_memory"]


def _cgroup_room() -> int | None:
    """Bytes a cgroup (v2 or v1) still lets this process allocate, if one limits it."""
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit_file) as fh:
                text = fh.read().strip()
            if text == "max":
                return None
            with open(usage_file) as fh:
                used = int(fh.read().strip())
            limit = int(text)
        except (OSError, ValueError):
            continue
        if limit < 2**60:
            return max(limit - used, 0)
    return None


def _rlimit_room() -> int | None:
    """Bytes of address space left under ``RLIMIT_AS`` (a ``ulimit -v``), if one is set."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, ValueError, OSError):  # pragma: no cover - not on Linux
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        import psutil

        used = psutil.Process().memory_info().vms
    except (ImportError, OSError):  # pragma: no cover
        return soft // 2
    return max(soft - used, 0)


def machine_memory() -> tuple[int, str]:
    """(bytes available to new allocations now, what limits them), the smallest of:
    psutil's ``virtual_memory().available`` (``MemAvailable`` on Linux; total physical
    memory without psutil), a cgroup's room and the room under ``RLIMIT_AS``.

    >>> nbytes, source = machine_memory()
    >>> nbytes > 0, source.startswith(("free memory", "room under"))
    (True, True)
    """
    try:
        import psutil

        found = [(int(psutil.virtual_memory().available), "free memory")]
    except (ImportError, OSError):  # pragma: no cover
        try:
            found = [(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "free memory")]
        except (ValueError, OSError, AttributeError):
            found = [(2**63, "free memory")]
    for room, source in ((_cgroup_room(), "room under the cgroup limit"),
                         (_rlimit_room(), "room under RLIMIT_AS")):
        if room is not None:
            found.append((room, source))
    return min(found)
