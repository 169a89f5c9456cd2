"""Opening the files a user names: a byte cap before anything is parsed, a timeout on streams.

Issue 23 item 2 ("readers bound what they read"). Every reader of a user's file (a
matrix, weights, a sweep spec, a report) takes its bytes from :func:`read_bounded`:

* a folder is refused in one line (``PATH: is a folder, not a file``), as is a missing
  or unreadable path;
* a regular file is sized first: its bytes times :data:`seprank.budget.TEXT_EXPANSION`
  (the Python objects that parsing makes of each byte), and the seconds to parse them,
  are checked against the budget in force (:func:`seprank.budget.current`), so a file
  too large for memory or time is refused before it is read
  (:class:`~seprank.errors.MemoryLimitError`, :class:`~seprank.errors.TimeLimitError`);
  the parsers then hold the budget line by line (:func:`seprank.budget.checkpoint`);
* a pipe, FIFO or device (``/dev/zero``, ``<(cmd)``) has no size: it is read without
  blocking, at most :attr:`seprank.budget.Budget.read_cap` bytes (the memory limit over
  ``TEXT_EXPANSION``) and for at most :data:`READ_TIMEOUT` seconds; past either, one line.
  A FIFO that no writer opens within the timeout is refused likewise.

Examples
--------
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     try:
...         read_bounded(d)
...     except InputError as exc:
...         print(str(exc).split(": ", 1)[1])
is a folder, not a file
"""

from __future__ import annotations

import os
import select
import stat
import time
from pathlib import Path

from seprank.budget import TEXT_EXPANSION, Estimate, current, format_bytes
from seprank.errors import InputError, MemoryLimitError

__all__ = ["read_bounded", "read_text_bounded", "check_regular_file", "check_text_size",
           "READ_TIMEOUT"]

#: Seconds a pipe or device may take to deliver all its bytes (a writer that never closes,
#: a device without end).
READ_TIMEOUT = 5.0
_CHUNK = 1 << 20


def _stat(path: Path) -> os.stat_result:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a folder, not a file")
    return st


def check_regular_file(path: str | os.PathLike, what: str = "file", *, text: bool = True
                       ) -> int:
    """Refuse (one line) a path that is not a regular file; its size. ``text``: the file
    is parsed into Python objects, so its size is checked against the budget too (a
    ``.npy`` is not: its header says what it holds, and its reader checks that).

    For readers that open the path themselves (a ``.npy`` read by seeking, a report).

    >>> check_regular_file("/dev/null")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: /dev/null: not a regular file (a device, pipe or socket); \
the file must be a regular file
    """
    path = Path(path)
    st = _stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: not a regular file (a device, pipe or socket); the {what} "
                         "must be a regular file")
    if text:
        _check_size(path, st.st_size)
    return st.st_size


def check_text_size(path: str | os.PathLike, size: int) -> None:
    """Refuse (one line) parsing ``size`` bytes of text from ``path`` past the budget in
    force (memory and time), for readers that open the file themselves.

    >>> check_text_size("small.txt", 100)
    """
    _check_size(Path(path), size)


def _check_size(path: Path, size: int) -> None:
    """The memory and the time (:data:`seprank.budget.RATES` ``parse``) of parsing a file of
    ``size`` bytes, against the budget in force, before it is read."""
    current().check(Estimate(f"reading {path}", nbytes=size * TEXT_EXPANSION,
                             work=((size, "parse"),),
                             detail=f"{format_bytes(size)} of text, about {TEXT_EXPANSION} "
                                    "bytes of Python objects per byte"))


def read_bounded(path: str | os.PathLike, *, cap: int | None = None,
                 timeout: float = READ_TIMEOUT) -> bytes:
    """The bytes of ``path``, bounded (module docstring): a regular file sized before it is
    read, a stream read up to ``cap`` bytes (default the budget's ``read_cap``) within
    ``timeout`` seconds.

    >>> read_bounded("/dev/zero", cap=4096)
    Traceback (most recent call last):
    ...
    seprank.errors.MemoryLimitError: /dev/zero: more than 4.0 KiB from a device or pipe \
(the read cap: the memory limit / 40); give a regular file
    """
    path = Path(path)
    st = _stat(path)
    if stat.S_ISREG(st.st_mode):
        _check_size(path, st.st_size)
        try:
            with open(path, "rb") as fh:
                return fh.read()
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    return _read_stream(path, current().read_cap if cap is None else cap, timeout,
                        stat.S_ISFIFO(st.st_mode))


def _read_stream(path: Path, cap: int, timeout: float, fifo: bool) -> bytes:
    """A pipe, FIFO or device, read without blocking: at most ``cap`` bytes in ``timeout`` s.
    A FIFO that has given nothing yet reads as end of file while it has no writer: it is
    waited for (a writer may still open it), and refused when none came in time."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    deadline = time.monotonic() + timeout
    chunks, total = [], 0
    try:
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                chunk = None
            except OSError as exc:
                raise InputError(f"{path}: cannot read ({exc.strerror})") from None
            if chunk == b"" and not (fifo and total == 0):
                return b"".join(chunks)
            if chunk:
                total += len(chunk)
                if total > cap:
                    raise MemoryLimitError(f"{path}: more than {format_bytes(cap)} from a "
                                           "device or pipe (the read cap: the memory limit / "
                                           f"{TEXT_EXPANSION}); give a regular file")
                chunks.append(chunk)
            left = deadline - time.monotonic()
            if left <= 0:
                why = ("no writer opened it" if fifo and total == 0 else
                       "its writer stays open")
                raise InputError(f"{path}: no end of data within {timeout:g} s ({why}); give "
                                 "a regular file")
            if chunk is None:
                select.select([fd], [], [], min(left, 0.25))
            elif chunk == b"":
                time.sleep(min(left, 0.05))  # a FIFO without a writer yet
    finally:
        os.close(fd)


def read_text_bounded(path: str | os.PathLike, what: str = "text file") -> str:
    """:func:`read_bounded`, decoded as UTF-8 (one line when it is not).

    >>> read_text_bounded("/dev/null")
    ''
    """
    data = read_bounded(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{Path(path)}: not a UTF-8 {what}") from None
