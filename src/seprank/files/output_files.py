"""Write the files a command was asked to write, and nothing else.

Every report, figure and JSON file that seprank writes goes through
:func:`write_bytes` (or :func:`write_text`), which decides by what is at the
path *now*, without following symbolic links (``os.lstat``):

* nothing, or a regular file: write a temporary file in the same folder, flush
  it to disk, then rename it over the path (``os.replace``). A reader sees the
  old file or the new one, never half of one; a crash leaves the old file.
* a character device, FIFO or socket (``/dev/null``, ``/dev/stdout``, a named
  pipe): write in place, opened with ``O_NOFOLLOW``; never replaced. Renaming a
  regular file over ``/dev/null`` is how an earlier version clobbered it.
* a symbolic link: refused. Replacing the link would destroy it; replacing
  what it points to would write outside the path the user named.
* a folder or anything else: refused.

``-`` as a path means standard output.

Refusals are :class:`seprank.errors.OutputError`, one line each, so the command
line prints them and exits with status 2.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

from seprank.errors import OutputError

__all__ = ["write_bytes", "write_text", "prepare_folder", "STDOUT"]

#: The path that means "standard output".
STDOUT = "-"


def _kind(path: Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        raise OutputError(f"{path}: cannot inspect the output path ({exc.strerror})") from None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISREG(mode):
        return "regular"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return "stream"
    return "other"


def prepare_folder(folder: str | os.PathLike) -> Path:
    """Create ``folder`` (and its parents) for outputs; refuse a link or a non-folder.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     prepare_folder(Path(tmp) / "a" / "b").is_dir()
    True
    """
    from seprank.budget_guard import work_done

    work_done()  # outputs are being made: the budget's guard lets the command finish
    folder = Path(folder)
    kind = _kind(folder)
    if kind == "folder":
        return folder
    if kind == "link":
        raise OutputError(f"{folder}: is a symbolic link; seprank writes only into real "
                          "folders: give the folder's own path")
    if kind != "missing":
        raise OutputError(f"{folder}: exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot create the folder ({exc.strerror})") from None
    return folder


def write_bytes(path: str | os.PathLike, data: bytes) -> Path | str:
    """Write ``data`` to ``path`` safely (see the module docstring); return the path.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = Path(tmp) / "out.bin"
    ...     _ = write_bytes(p, b"one")
    ...     _ = write_bytes(p, b"two")                 # replaced atomically
    ...     p.read_bytes(), sorted(q.name for q in Path(tmp).iterdir())
    (b'two', ['out.bin'])
    >>> before = os.stat(os.devnull)
    >>> _ = write_bytes(os.devnull, b"ignored")        # written in place, never replaced
    >>> os.stat(os.devnull).st_ino == before.st_ino
    True
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     os.symlink(os.path.join(tmp, "target"), os.path.join(tmp, "link"))
    ...     try:
    ...         write_bytes(os.path.join(tmp, "link"), b"x")
    ...     except OutputError as exc:
    ...         print("refused:", "symbolic link" in str(exc), os.path.exists(tmp + "/target"))
    refused: True False
    """
    from seprank.budget_guard import work_done

    work_done()  # results are being written: the budget's guard lets the command finish
    if str(path) == STDOUT:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return STDOUT
    path = Path(path)
    kind = _kind(path)
    if kind == "link":
        raise OutputError(f"{path}: is a symbolic link; seprank does not replace links or "
                          "write through them: give the target's own path")
    if kind == "folder":
        raise OutputError(f"{path}: is a folder, not a file")
    if kind == "other":
        raise OutputError(f"{path}: is not a regular file, device or pipe; not writing there")
    if kind == "stream":
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | getattr(os, "O_NOCTTY", 0))
        except OSError as exc:
            raise OutputError(f"{path}: cannot open for writing ({exc.strerror})") from None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return path
    parent = path.parent
    if _kind(parent) == "missing":
        prepare_folder(parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write in {parent} ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if kind == "regular":  # keep the permissions of the file being replaced
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        # The path may have changed since it was inspected: replace only what is still
        # a regular file or nothing.
        if _kind(path) not in ("regular", "missing"):
            raise OutputError(f"{path}: changed into a non-regular file while writing; "
                              "not replacing it")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def write_text(path: str | os.PathLike, text: str) -> Path | str:
    """Write UTF-8 ``text`` to ``path`` safely (see :func:`write_bytes`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = write_text(Path(tmp) / "sub" / "r.md", "# report\\n")
    ...     p.read_text()
    '# report\\n'
    """
    return write_bytes(path, text.encode("utf-8"))
