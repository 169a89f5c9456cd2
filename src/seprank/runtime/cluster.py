"""Dask clusters for the long computations: a local one, or a running scheduler.

One home for how seprank starts and reaches Dask (sweeps, :mod:`seprank.sweep.runner`;
the moment route's blocks, :mod:`seprank.separation.moment.tasks`): a ``LocalCluster``
of worker *processes* bound to 127.0.0.1, one worker per core and one BLAS/numba
thread per worker (so workers do not fight over cores), or a client of an existing
scheduler with a bounded wait and a one-line error.

A scheduler's address is a user's input and is treated as hostile (issue 32 item 3):

* :func:`check_address` reads it before any connection: ``tcp://HOST:PORT`` or
  ``HOST:PORT`` (a host name, an IPv4 address or a bracketed IPv6 address; a port of
  ASCII digits in 1-65535). Other schemes are refused in one line: ``inproc://`` (a
  scheduler inside this process, which a command line cannot have), ``ucx://``,
  ``tls://`` and ``ws://`` (they need transports or certificates seprank does not set
  up), as is anything else;
* :func:`probe` then opens a plain socket, within :data:`PROBE_TIMEOUT` seconds (a
  refused port answers at once), and reads the greeting a Dask peer sends first (its
  handshake: an 8-byte length and that many bytes of frames), at most
  :data:`HANDSHAKE_BYTES` bytes: a peer that sends nothing, or bytes that are not a
  Dask handshake, is refused in one line, and nothing is allocated from what it sent.
  Only then does Dask connect (:func:`connect`).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import signal
import socket
import struct
import threading
import time

from seprank.errors import ParameterError

__all__ = ["local_cluster", "connect", "check_address", "probe", "SCHEDULER_TIMEOUT",
           "PROBE_TIMEOUT", "HANDSHAKE_BYTES", "WORKER_ENV"]

#: How long to wait for an existing scheduler before giving up with a clear error.
SCHEDULER_TIMEOUT = "20s"
#: Seconds :func:`probe` waits for the connection and for the peer's greeting.
PROBE_TIMEOUT = 5.0
#: The most bytes of a greeting :func:`probe` reads (a Dask handshake is a few hundred).
HANDSHAKE_BYTES = 1 << 16

_HOST = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?", re.ASCII)
_UNSUPPORTED = {"inproc": "a scheduler inside this process, which a command cannot reach",
                "ucx": "the UCX transport, which seprank does not set up",
                "tls": "TLS, whose certificates seprank does not set up (reach the scheduler "
                       "over tcp://, through an SSH tunnel say)",
                "ws": "the websocket transport, which seprank does not set up",
                "wss": "the websocket transport, which seprank does not set up"}


def check_address(address: object) -> tuple[str, int]:
    """(host, port) of a scheduler address ``tcp://HOST:PORT`` or ``HOST:PORT``; anything
    else refused in one line (module docstring). No connection is made.

    >>> check_address("tcp://10.0.0.5:8786"), check_address("localhost:8786")
    (('10.0.0.5', 8786), ('localhost', 8786))
    >>> check_address("tcp://[::1]:8786")
    ('::1', 8786)
    >>> check_address("inproc://x")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: scheduler 'inproc://x': inproc:// is a scheduler inside \
this process, which a command cannot reach; give tcp://HOST:PORT
    >>> check_address("bogus")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: scheduler 'bogus': give tcp://HOST:PORT or HOST:PORT \
(e.g. tcp://10.0.0.5:8786)
    """
    shown = repr(address) if not isinstance(address, str) or len(address) <= 80 \
        else repr(address[:80] + "...")
    if not isinstance(address, str):
        raise ParameterError(f"scheduler must be an address such as tcp://10.0.0.5:8786, "
                             f"got {shown}")
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    scheme = scheme.lower()
    if scheme in _UNSUPPORTED:
        raise ParameterError(f"scheduler {shown}: {scheme}:// is {_UNSUPPORTED[scheme]}; give "
                             "tcp://HOST:PORT")
    usage = f"scheduler {shown}: give tcp://HOST:PORT or HOST:PORT (e.g. tcp://10.0.0.5:8786)"
    if scheme != "tcp":
        raise ParameterError(usage)
    m = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:([0-9]{1,5})|([^:\[\]/]+):([0-9]{1,5})", rest,
                     re.ASCII)
    if m is None:
        raise ParameterError(usage)
    host, port = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3),
                                                                             m.group(4))
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if (m.group(1) is not None and (ip is None or ip.version != 6)) or \
            (ip is None and not _HOST.fullmatch(host)):
        raise ParameterError(f"scheduler {shown}: {host!r} is not a host name or an IP "
                             "address")
    if not 1 <= int(port) <= 65535:
        raise ParameterError(f"scheduler {shown}: port {port} is not in 1-65535")
    return host, int(port)


def _looks_like_dask(data: bytes) -> bool:
    """Whether ``data`` (the frames a greeting announced) are Dask's frames: a count of
    frames, their lengths, and bytes enough for them (distributed.protocol's layout)."""
    if len(data) < 16:
        return False
    (count,) = struct.unpack_from("<Q", data)
    if not 1 <= count <= 64 or len(data) < 8 * (count + 1):
        return False
    lengths = struct.unpack_from(f"<{count}Q", data, 8)
    return sum(lengths) <= len(data) - 8 * (count + 1)


def probe(address: str, timeout: float | None = None) -> None:
    """Refuse (one line) a scheduler that cannot be reached within ``timeout`` seconds
    (default :data:`PROBE_TIMEOUT`) or that does not greet like Dask (module docstring).

    >>> probe("tcp://127.0.0.1:9")                      # nothing listens there
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9': \
connection refused
    """
    host, port = check_address(address)
    timeout = PROBE_TIMEOUT if timeout is None else timeout
    where = f"the Dask scheduler at {address!r}"
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise ParameterError(f"cannot reach {where}: connection refused") from None
    except TimeoutError:
        raise ParameterError(f"cannot reach {where}: no answer within {timeout:g} s") from None
    except OSError as exc:
        raise ParameterError(f"cannot reach {where}: {exc.strerror or exc}") from None
    try:
        head = _read(sock, 8, deadline)
        if len(head) == 8:
            (nbytes,) = struct.unpack("<Q", head)
            if 16 <= nbytes <= HANDSHAKE_BYTES and _looks_like_dask(_read(sock, nbytes,
                                                                          deadline)):
                return
        why = ("it sent nothing within the time allowed" if not head else
               "what it sent is not a Dask handshake")
        raise ParameterError(f"{address!r} does not answer like a Dask scheduler: {why}")
    finally:
        sock.close()


def _read(sock: socket.socket, n: int, deadline: float) -> bytes:
    """Up to ``n`` bytes before ``deadline`` (fewer when the peer stops or is slow)."""
    out = b""
    while len(out) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(out))
        except (TimeoutError, OSError):
            break
        if not chunk:
            break
        out += chunk
    return out

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
    """A client of a running scheduler, or one line saying it cannot be reached: the
    address checked and probed first (:func:`probe`), then Dask's own connection (within
    :data:`SCHEDULER_TIMEOUT`).

    Examples
    --------
    >>> with connect("tcp://10.0.0.5:8786") as client:   # doctest: +SKIP
    ...     len(client.scheduler_info()["workers"])
    4
    >>> SCHEDULER_TIMEOUT, WORKER_ENV["NUMBA_NUM_THREADS"]
    ('20s', '1')
    """
    probe(scheduler)  # the address's form, a bounded connection, a Dask greeting
    from distributed import Client

    try:
        return Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ParameterError(f"cannot reach the Dask scheduler at {scheduler!r}: "
                             f"{first}") from None
