"""The guard of a ``seprank`` command with a budget: its limits held from outside the work.

Issue 32 item 1. :meth:`seprank.budget.Budget.checkpoint` stops a loop that runs past
``--max-seconds`` or grows past ``--max-memory``, but a loop cannot interrupt one long
call into compiled code: FLINT's elimination holds the interpreter for its whole run
(a 250 x 250 determinant of 1000-bit entries ran 107 s during which no other thread of
the process ran once), numba compiles a cold kernel cache for many seconds. So the
``seprank`` program (:func:`seprank.cli.main` reading ``sys.argv``), when a command is
given ``--max-seconds`` or ``--max-memory`` on Linux, forks:

* the child runs the command as usual (its checkpoints raise the one-line errors);
* the parent watches it every :data:`WATCH_INTERVAL` seconds: its clock, counted from
  the start of the process, and its resident size. Past ``max_seconds`` plus
  :data:`GRACE` of :func:`~seprank.budget.time_margin` (so that work which keeps its
  budget by answering in part, as the moment route does, has time to finish, and the
  command is still gone within the margin), or past :func:`~seprank.budget.memory_ceiling`
  of the memory limit, it kills the child and everything the child started, prints one
  line (``seprank: error: ... stopped at the time limit ...``) and exits with status 2.

A command writes its files only once its work is done, and says so
(:func:`work_done`, called by :mod:`seprank.files.output_files` before the first file and by
``--json -``): from then on the guard lets it finish, so a command leaves all its files
or none (each file is written whole or not at all). Ctrl-C reaches the child (which
prints ``seprank: interrupted``); SIGTERM and SIGHUP sent to the parent are passed on.
Elsewhere than Linux, and for ``main([...])`` called from Python, there is no guard:
only the checkpoints.

Examples
--------
>>> guard_available() in (True, False)
True
>>> work_done()            # outside a guarded child: nothing to tell
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable

from seprank.budget import Budget, format_bytes, format_seconds, memory_ceiling, process_rss

__all__ = ["run_guarded", "work_done", "guard_available", "process_start", "WATCH_INTERVAL",
           "GRACE"]

#: Seconds between two looks of the guard at the child.
WATCH_INTERVAL = 0.05
#: The part of :func:`~seprank.budget.time_margin` the child may run past ``max_seconds``
#: before the guard stops it (the rest is for the stop and the exit).
GRACE = 0.75
#: The write end of the pipe to the guard, in a guarded child (None elsewhere).
_TELL: list[int] = []


def guard_available() -> bool:
    """Whether this platform has the guard (Linux: ``fork`` and ``/proc``).

    >>> guard_available() == (sys.platform.startswith("linux") and hasattr(os, "fork"))
    True
    """
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def process_start() -> float:
    """When this process started, on the ``time.monotonic()`` clock (now, if unknown).

    >>> 0 <= time.monotonic() - process_start() < 10**6
    True
    """
    now = time.monotonic()
    try:
        import psutil

        age = time.time() - psutil.Process().create_time()
    except Exception:  # noqa: BLE001 - psutil cannot say: count from now
        return now
    return now - min(max(age, 0.0), 10**6)


def work_done() -> None:
    """The command has done its work and starts writing its results: the guard (if this
    process is a guarded child) stops its clock. Idempotent; nothing outside a guard.

    >>> work_done(); work_done()
    """
    while _TELL:
        fd = _TELL.pop()
        try:
            os.write(fd, b"d")
            os.close(fd)
        except OSError:
            pass


def _die_with_parent() -> None:
    """Ask Linux to kill this child when the guard dies (``PR_SET_PDEATHSIG``)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - best effort
        pass


def _child(work: Callable[[], int], tell: int) -> None:
    """Run ``work`` in the forked child and leave with its status (never returns)."""
    status = 1
    try:
        _die_with_parent()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _TELL.append(tell)
        status = work()
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # pragma: no cover - the command's own handler prints errors
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)


def _kill_tree(pid: int) -> None:
    """SIGKILL the child and every process it started (Dask's workers, say)."""
    try:
        import psutil

        kids = psutil.Process(pid).children(recursive=True)
    except Exception:  # noqa: BLE001 - already gone, or psutil cannot see them
        kids = []
    for proc in [pid, *(k.pid for k in kids)]:
        try:
            os.kill(proc, signal.SIGKILL)
        except OSError:
            pass


def _exit_status(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def run_guarded(budget: Budget, work: Callable[[], int], what: str) -> int:
    """Run ``work()`` (which returns an exit status) in a forked child under the guard
    (module docstring) and return the child's status, or 2 after one line on stderr
    when the guard stopped it. ``budget`` holds the limits; its clock is the process's
    (:func:`process_start`).

    >>> from seprank.budget import Budget
    >>> day = Budget(max_seconds=86400)     # the clock started with this process: a test
    >>> run_guarded(day, lambda: 3, "a demo") if guard_available() else 3    # run is old
    3
    """
    started = process_start()
    budget.start(at=started)
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; coverage does not follow a fork
        os.close(read_end)
        _child(work, write_end)
    os.close(write_end)
    forwarded = {}

    def forward(signum, _frame):
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    for signum in (signal.SIGTERM, signal.SIGHUP):
        forwarded[signum] = signal.signal(signum, forward)
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the child's to answer
    try:
        return _watch(pid, read_end, budget, started, what)
    finally:
        os.close(read_end)
        signal.signal(signal.SIGINT, interrupt)
        for signum, previous in forwarded.items():
            signal.signal(signum, previous)


def _watch(pid: int, done_fd: int, budget: Budget, started: float, what: str) -> int:
    """The parent's loop: the child's status, or 2 once it ran past a limit."""
    from seprank.budget import time_margin

    stop_at = (None if budget.max_seconds is None else
               started + budget.max_seconds + GRACE * time_margin(budget.max_seconds))
    limit = budget.memory_limit
    ceiling = memory_ceiling(limit)
    rss0 = process_rss()  # the child starts as a copy of this process
    watching = True
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # pragma: no cover
            return 1
        if done:
            return _exit_status(status)
        if watching:
            ready, _, _ = select.select([done_fd], [], [], WATCH_INTERVAL)
            if ready:
                watching = False  # the work is done: it writes its results now
                continue
            problem = None
            now = time.monotonic()
            if stop_at is not None and now > stop_at:
                problem = (f"{what} stopped at the time limit: ran "
                           f"{format_seconds(now - started)} > max_seconds = "
                           f"{format_seconds(budget.max_seconds)}; nothing written")
            else:
                grown = process_rss(pid) - rss0
                if grown > ceiling:
                    problem = (f"{what} stopped: it grew by {format_bytes(grown)} > the "
                               f"memory limit {format_bytes(limit)} (+ "
                               f"{format_bytes(ceiling - limit)} for libraries); nothing "
                               "written")
            if problem is not None:
                _kill_tree(pid)
                os.waitpid(pid, 0)
                print(f"seprank: error: {problem}", file=sys.stderr)
                return 2
        else:
            time.sleep(WATCH_INTERVAL)
