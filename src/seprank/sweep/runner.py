"""Run a sweep on Dask: a local cluster by default, or an existing scheduler.

What happens, in order:

1. The spec expands to tasks; each gets its key (parameters + code version,
   :func:`seprank.sweep.store.task_key`). Tasks whose key is ``done`` in the
   store are skipped: this is how a rerun resumes.
2. The rest go to Dask (``client.submit`` of :func:`seprank.sweep.computations.execute`,
   one task per future, ``retries`` for exceptions). By default a
   ``LocalCluster`` of worker *processes* bound to 127.0.0.1, one worker per
   core and one thread per worker (BLAS and numba limited to one thread each,
   so workers do not fight over cores); ``scheduler="tcp://host:8786"`` uses
   a running cluster instead.
3. As each future finishes, this process writes its row (one transaction).
   A worker killed mid-task costs only its running tasks: Dask's scheduler
   reassigns them to the workers left (and to the one the nanny restarts).
   A computation that fails (bad parameters, a bug) is a ``failed`` row with
   its one-line error, not a crash of the sweep; a rerun tries it again.

Dask moves tasks and results between processes with its own serialization;
seprank's store holds JSON only.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seprank.errors import ParameterError
from seprank.runtime.cluster import connect as _connect
from seprank.runtime.cluster import local_cluster
from seprank.sweep.computations import execute
from seprank.sweep.spec import SweepSpec, Task
from seprank.sweep.store import ResultStore, task_key
from seprank.sweep.version import code_version

__all__ = ["SweepSummary", "plan", "run_sweep", "local_cluster"]

@dataclass
class SweepSummary:
    """What a sweep run did.

    Examples
    --------
    >>> s = SweepSummary(total=4, skipped=1, done=2, failed=1, store=Path("s.sqlite"))
    >>> s.complete, s.line()
    (False, '4 tasks: 1 already in the store, 2 done now, 1 failed (s.sqlite)')
    """

    total: int
    skipped: int
    done: int
    failed: int
    store: Path
    seconds: float = 0.0
    interrupted: bool = False
    failures: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    workers: int | None = None

    @property
    def complete(self) -> bool:
        """True when every task of the spec is done in the store."""
        return self.skipped + self.done == self.total

    def line(self) -> str:
        return (f"{self.total} tasks: {self.skipped} already in the store, {self.done} done "
                f"now, {self.failed} failed ({self.store})")


def plan(spec: SweepSpec, store: ResultStore, version: str | None = None
         ) -> tuple[list[tuple[str, Task]], int]:
    """The tasks still to run (with their keys) and how many are already done.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from seprank.sweep.spec import spec_from_dict
    >>> spec = spec_from_dict({"computation": "hadamard_rank",
    ...                        "parameters": {"d": 2, "lam": [1, 2, 3]}})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with ResultStore(pathlib.Path(tmp) / "s.sqlite") as store:
    ...         todo, done = plan(spec, store, "v1")
    >>> len(todo), done
    (3, 0)
    """
    version = code_version() if version is None else version
    finished = store.done_keys()
    todo, skipped = [], 0
    seen: set[str] = set()
    for task in spec.tasks():
        key = task_key(task, version)
        if key in seen:  # the grid named the same point twice
            continue
        seen.add(key)
        if key in finished:
            skipped += 1
        else:
            todo.append((key, task))
    return todo, skipped


class _Progress:
    """A rich progress bar with done / running / failed counts and time left."""

    def __init__(self, total: int, skipped: int, enabled: bool, console=None):
        self.enabled = enabled and total > 0
        if not self.enabled:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(TextColumn("[bold]sweep[/]"), BarColumn(), MofNCompleteColumn(),
                             TextColumn("{task.fields[counts]}"), TimeElapsedColumn(),
                             TextColumn("left"), TimeRemainingColumn(),
                             console=console, transient=False)
        self._skipped = skipped
        self._task = self._bar.add_task("sweep", total=total, counts="")
        self._bar.start()

    def update(self, done: int, failed: int, running: int) -> None:
        if self.enabled:
            counts = (f"done {done}  running {running}  failed {failed}"
                      + (f"  (skipped {self._skipped})" if self._skipped else ""))
            self._bar.update(self._task, completed=done + failed, counts=counts)

    def stop(self) -> None:
        if self.enabled:
            self._bar.stop()


def _running_count(client, keys: set[str]) -> int:
    """Tasks of ``keys`` executing now: at most one per worker thread.

    The scheduler's "processing" set of a worker also holds the tasks queued on
    it beyond its threads (Dask's worker-saturation sends up to ~1.1 x threads,
    rounded up: two tasks to a one-thread worker), so each worker's count is
    capped by its number of threads.
    """
    try:
        processing = client.processing()
        threads = client.nthreads()
    except Exception:  # the scheduler is busy or a worker is going away: skip one update
        return -1
    return sum(min(sum(1 for k in tasks if k in keys), threads.get(worker, 1))
               for worker, tasks in processing.items())


def run_sweep(spec: SweepSpec, *, store: str | os.PathLike | None = None,
              scheduler: str | None = None, workers: int | None = None, client=None,
              retries: int = 3, progress: bool = True, console=None,
              on_result: Callable[[str, dict[str, Any]], None] | None = None,
              poll_s: float = 0.2) -> SweepSummary:
    """Run every task of ``spec`` not yet done in the store; return a summary.

    ``store`` overrides the spec's store path. ``client`` (a
    ``distributed.Client``) is used as is and left open; otherwise one is made
    for ``scheduler`` or for a new :func:`local_cluster` of ``workers``
    processes, and closed at the end. ``on_result(key, outcome)`` is called
    after each row is written (an exception there stops the sweep; finished
    rows stay). A KeyboardInterrupt cancels the remaining tasks, keeps the
    rows written so far and re-raises.

    Examples
    --------
    >>> from seprank.sweep.spec import spec_from_dict
    >>> spec = spec_from_dict({"computation": "hadamard_rank",
    ...                        "parameters": {"d": 2, "lam": [1, 2]}})
    >>> summary = run_sweep(spec, workers=1, progress=False)   # doctest: +SKIP
    >>> summary.complete                                       # doctest: +SKIP
    True
    """
    if not isinstance(retries, int) or retries < 0:
        raise ParameterError(f"retries must be an integer >= 0, got {retries!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ParameterError(f"workers must be an integer >= 1, got {workers!r}")
    version = code_version()
    path = Path(store) if store is not None else spec.store
    start = time.perf_counter()
    with ExitStack() as stack:
        if client is None and scheduler is not None:  # connect first: an unreachable
            client = stack.enter_context(_connect(scheduler))  # one leaves no new store
        db = stack.enter_context(ResultStore(path))
        db.set_meta("spec", {"computation": spec.computation, "fixed": spec.fixed,
                             "axes": spec.axes, "title": spec.title,
                             "source": str(spec.source) if spec.source else None})
        todo, skipped = plan(spec, db, version)
        summary = SweepSummary(total=len(todo) + skipped, skipped=skipped, done=0, failed=0,
                               store=path)
        if not todo:
            return summary
        if client is None:
            from distributed import Client

            n = min(workers or os.cpu_count() or 1, len(todo))
            cluster = stack.enter_context(local_cluster(n))
            client = stack.enter_context(Client(cluster))
        summary.workers = len(client.scheduler_info().get("workers", {}))
        futures = _submit(client, todo, retries)
        bar = _Progress(len(todo), skipped, progress, console)
        stack.callback(bar.stop)
        try:
            _drain(client, db, futures, dict(todo), version, summary, bar, on_result, poll_s)
        except BaseException:
            summary.interrupted = True
            for _, fut in futures.values():
                fut.cancel()
            raise
        finally:
            summary.seconds = time.perf_counter() - start
    return summary


def _drain(client, db, futures: dict, by_key: dict, version: str, summary: SweepSummary,
           bar, on_result, poll_s: float) -> None:
    """Record the futures as they finish, polling the running count for the bar."""
    from distributed import as_completed

    pending = as_completed([f for _, f in futures.values()])
    last_poll = 0.0
    running = 0
    while not pending.is_empty():
        if not pending.has_ready():
            now = time.perf_counter()
            if now - last_poll > 1.0:
                live = {k for k, (_, f) in futures.items() if not f.done()}
                count = _running_count(client, live)
                running = count if count >= 0 else running
                last_poll = now
            bar.update(summary.done, summary.failed, running)
            time.sleep(poll_s)
            continue
        for fut in pending.next_batch(block=False):
            key, _ = futures[fut.key]
            outcome = _record(db, key, by_key[key], _outcome(fut, version), version, summary)
            running = max(0, running - 1)
            bar.update(summary.done, summary.failed, running)
            if on_result is not None:
                on_result(key, outcome)


def _submit(client, todo, retries: int) -> dict:
    """Submit every task; {future key: (store key, future)}."""
    futures = {}
    # A fresh token per run: a scheduler may still hold the cancelled futures of an
    # interrupted run under their keys, and reusing a key would return them cancelled.
    run_token = uuid.uuid4().hex[:10]
    for key, task in todo:
        fut = client.submit(execute, task.computation, task.params,
                            key=f"seprank-{task.computation}-{key[:24]}-{run_token}",
                            retries=retries)
        futures[fut.key] = (key, fut)
    return futures


def _record(db, key: str, task, outcome: dict[str, Any], version: str,
            summary: SweepSummary) -> dict[str, Any]:
    """Write one finished task's row and count it in ``summary``; return the outcome."""
    db.record(key, task, version, outcome["status"],
              result=outcome.get("result"), error=outcome.get("error"),
              worker=outcome.get("worker"), seconds=outcome.get("seconds"))
    if outcome["status"] == "done":
        summary.done += 1
    else:
        summary.failed += 1
        if len(summary.failures) < 20:
            summary.failures.append((task.params, outcome["error"]))
    return outcome


def _outcome(fut, version: str) -> dict[str, Any]:
    """A finished future as a row: done, failed in the computation, or lost by Dask."""
    if fut.status == "cancelled":
        return {"status": "failed", "error": "cancelled by the Dask scheduler before it ran"}
    if fut.status != "finished":
        try:
            exc = fut.exception()
        except Exception as err:  # unreachable scheduler, lost data
            exc = err
        return {"status": "failed", "error": f"{type(exc).__name__} (from Dask): {exc}"}
    out = dict(fut.result())
    out["worker"] = f"pid {out.get('pid')}"
    if out.get("code_version") != version:
        return {"status": "failed", "worker": out["worker"],
                "error": f"the worker ran code version {out.get('code_version')}, this client "
                         f"{version}: install the same seprank on every worker"}
    return out
