"""Dask clusters for the long computations: a local one, or a running scheduler.

One home for how seprank starts and reaches Dask (sweeps, :mod:`seprank.sweep.runner`;
the moment route's blocks, :mod:`seprank.separation.moment_tasks`): a ``LocalCluster``
of worker *processes* bound to 127.0.0.1, one worker per core and one BLAS/numba
thread per worker (so workers do not fight over cores), or a client of an existing
scheduler with a bounded wait and a one-line error.
"""

from __future__ import annotations

import logging
import os
import signal
import threading

from seprank.errors import ParameterError

__all__ = ["local_cluster", "connect", "SCHEDULER_TIMEOUT", "WORKER_ENV"]

#: How long to wait for an existing scheduler before giving up with a clear error.
SCHEDULER_TIMEOUT = "20s"

#: Environment for local workers: one BLAS/numba thread per worker process.
WORKER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "NUMBA_NUM_THREADS": "1"}


def local_cluster(workers: int | None = None, *, threads_per_worker: int = 1):
    """A ``LocalCluster`` of worker processes on 127.0.0.1, one per core by default.

    The scheduler's HTTP endpoint listens on a free port of 127.0.0.1 only;
    workers get :data:`WORKER_ENV` so that BLAS and numba use
    ``threads_per_worker`` threads each.

    Examples
    --------
    >>> cluster = local_cluster(1)                   # doctest: +SKIP
    >>> len(cluster.workers)                         # doctest: +SKIP
    1
    """
    from distributed import LocalCluster

    n = workers or os.cpu_count() or 1
    if n < 1:
        raise ParameterError(f"--workers must be >= 1, got {n}")
    env = dict(WORKER_ENV, NUMBA_NUM_THREADS=str(threads_per_worker),
               OMP_NUM_THREADS=str(threads_per_worker),
               OPENBLAS_NUM_THREADS=str(threads_per_worker))
    # Worker logs are silenced below CRITICAL: a task's failure reaches the store as its
    # one-line error (and `seprank report` lists it); what workers log while the cluster
    # shuts down (e.g. a heartbeat to a scheduler already closed) is noise, not news.
    # Ctrl-C at a terminal signals the whole process group: worker processes would each
    # print a KeyboardInterrupt traceback while this process shuts them down anyway. They
    # are started with SIGINT ignored (inherited across the spawn), so Ctrl-C reaches this
    # process alone, which cancels the tasks and closes the cluster in order.
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return LocalCluster(n_workers=n, threads_per_worker=threads_per_worker,
                            processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                            silence_logs=logging.CRITICAL, env=env)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def connect(scheduler: str):
    """A client of a running scheduler, or one line saying it cannot be reached (after
    :data:`SCHEDULER_TIMEOUT`).

    Examples
    --------
    >>> with connect("tcp://10.0.0.5:8786") as client:   # doctest: +SKIP
    ...     len(client.scheduler_info()["workers"])
    4
    >>> SCHEDULER_TIMEOUT, WORKER_ENV["NUMBA_NUM_THREADS"]
    ('20s', '1')
    """
    from distributed import Client

    try:
        return Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise ParameterError(f"cannot reach the Dask scheduler at {scheduler!r}: "
                             f"{exc}") from None
