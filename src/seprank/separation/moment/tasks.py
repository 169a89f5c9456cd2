"""The moment route's large blocks as independent tasks: Dask, and a store to resume from.

Issue 20 item 4. The blocks of C_F are independent matrices
(:mod:`seprank.separation.moment.blocks`); what makes a large instance slow is one
dense elimination per catalecticant block, the rank mod p of its row subset
(:func:`~seprank.separation.moment.ranks.subset_rank`: minutes for the middle blocks
of L = 3, d_x = 4). Those eliminations run here as Dask tasks, one per block, on a
local cluster (one single-threaded worker process per core, :mod:`seprank.runtime.cluster`)
or on a running scheduler; the pass that needs the blocks in order (the apolar ideal,
:mod:`seprank.separation.moment.apolar`, and the exact lifting of deficient blocks)
then runs in this process with the ranks in hand
(:func:`~seprank.separation.moment.run.run_blocks`). The answer is the one a plain
run gives: the same blocks, the same certificates; only the row subsets are drawn
from one seed per block, (seed, block), so that a task and the pass draw the same.

The store (``store=PATH``, a JSON-lines file) receives each subset rank as soon as its
task finishes; a rerun with the same store takes the ranks found there and submits
only the others, so an interrupted run resumes where it stopped. A record's key is a
hash of what the rank depends on: the expanded polynomials (their coefficients,
hence the network, position and coordinate), the block, the prime, the subset's seed
and size, and :data:`STORE_FORMAT` (raised whenever the block construction changes).

The path is a user's input, treated as hostile (issue 32 item 2; :class:`BlockStore`):
it must be a regular file or nothing yet, in a folder that exists; it is opened without
following a symbolic link (``O_NOFOLLOW``), so a link, a device, a FIFO or a folder is
refused in one line; it is read only up to its size when opened, and that size is
checked against the budget first. A first line that is not a record means the file is
not a store: refused, and never appended to. A later line that is not a record (cut by
an interrupted write, not UTF-8, not JSON, a repeated key, fields of the wrong type) is
skipped with a warning naming its line: its block is simply computed again. A stored
rank is only ever a subset rank that the pass re-derives its certificates from, so a
tampered record can cost time, never change an answer. Several runs may share one
store: each record is one ``write`` of one line, appended (``O_APPEND``) under an
exclusive ``flock``, so records never interleave; a reader sees whole lines, or a last
line still being written, which it skips.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import stat
import time
from pathlib import Path

from seprank.errors import ParameterError
from seprank.separation.moment.blocks import BlockSpec, PolyData
from seprank.separation.moment.ranks import subset_rank

__all__ = ["store_key", "STORE_FORMAT", "RECORD_BYTES", "BlockStore", "check_store_path",
           "check_task_options",
           "subset_ranks_hook"]

#: Raised when the entries of a block (moment_blocks) or its row subsets change meaning.
STORE_FORMAT = 1

LOG = logging.getLogger("seprank.moment")


def check_task_options(scheduler, workers, store) -> None:
    """One-line refusals of the task options (no coercion: a string is never a count).

    >>> check_task_options("local", 2, None)
    >>> check_task_options("local", "2", None)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: workers must be an integer >= 1, got '2'
    """
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler):
        raise ParameterError(f"scheduler must be 'local' or a Dask scheduler address such as "
                             f"tcp://host:8786, got {scheduler!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise ParameterError(f"workers must be an integer >= 1, got {workers!r}")
    if store is not None and not isinstance(store, (str, os.PathLike)):
        raise ParameterError(f"store must be a file path, got {store!r}")
    if store is not None:
        check_store_path(store)


def _fingerprint(pd: PolyData) -> str:
    """A hash of the expanded polynomials g_j (exponent keys and exact coefficients)."""
    h = hashlib.sha256(f"{STORE_FORMAT}|{pd.n_vars}|{pd.C}|{pd.radix}".encode())
    for keys, coeffs in zip(pd.keys, pd.coeffs, strict=True):
        h.update(b"|k")
        h.update(keys.tobytes())
        h.update(b"|c")
        h.update(",".join(map(str, [] if coeffs is None else coeffs.tolist())).encode())
    return h.hexdigest()


def _key(fingerprint: str, spec: BlockSpec, r: int, p: int, subset_seed, certify: bool) -> str:
    text = json.dumps([fingerprint, spec.degree, spec.row_degree, list(spec.shape), r, p,
                       list(subset_seed), bool(certify)], allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


#: The most bytes of one store record read back (a record is a few hundred).
RECORD_BYTES = 1 << 16


def _refuse(path: Path, why: str) -> None:
    raise ParameterError(f"{path}: {why}; the block store must be a regular file (or a new "
                         "one) in an existing folder")


def _open_store(path: Path, flags: int) -> int | None:
    """A descriptor of the store opened with ``flags`` and without following a link, checked
    to be a regular file; None when it does not exist (reading)."""
    if not path.parent.is_dir():
        _refuse(path, f"its folder {path.parent} does not exist")
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0),
                     0o666)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            _refuse(path, "is a symbolic link (not followed)")
        if os.path.isdir(path):
            _refuse(path, "is a folder")
        _refuse(path, f"cannot be opened ({exc.strerror})")
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        _refuse(path, "is a folder" if stat.S_ISDIR(mode) else
                "is a device, FIFO or socket, not a regular file")
    return fd


def check_store_path(store: str | os.PathLike) -> None:
    """Refuse, in one line, a store path that is not a regular file or a new one in an
    existing folder (a link, a device, a FIFO, a folder), or whose first line is not a
    store record (:class:`BlockStore`), before any work.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     check_store_path(Path(tmp) / "blocks.jsonl")           # a new file: fine
    ...     check_store_path(tmp)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: ...: is a folder; the block store must be a regular file \
(or a new one) in an existing folder
    """
    fd = _open_store(Path(store), os.O_RDONLY)
    if fd is None:
        return
    try:
        first = os.read(fd, RECORD_BYTES + 1).split(b"\n", 1)[0]
    finally:
        os.close(fd)
    if first.strip():
        _first_record(Path(store), first)


def _read_store(path: Path) -> bytes:
    """The store's bytes up to its size when opened (checked against the budget)."""
    from seprank.files.bounded_read import check_text_size

    fd = _open_store(path, os.O_RDONLY)
    if fd is None:
        return b""
    try:
        size = os.fstat(fd).st_size
        check_text_size(path, size)
        chunks, left = [], size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def store_key() -> bytes:
    """This user's key for authenticating store records (created on first use, mode 0600,
    beside the numba cache: ``~/.cache/seprank/store.key``).

    A record is trusted only if its ``mac`` (HMAC-SHA256 of its key and result under this
    key) verifies: a rank in a store written elsewhere or edited by hand is not a
    certificate, so such a record is computed again, and a tampered store can never change
    an answer (issue 32).

    >>> len(store_key())
    32
    """
    from seprank.runtime.compiled_cache import user_cache_dir

    path = user_cache_dir().parent / "store.key"
    if path not in _KEYS:                      # read once per process, not once per record
        _KEYS[path] = _read_or_make_key(path)
    return _KEYS[path]


def _read_or_make_key(path: Path) -> bytes:
    try:
        return path.read_bytes()[:32] if path.stat().st_size >= 32 else b""
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
    except FileExistsError:
        return path.read_bytes()[:32]
    except OSError:              # no writable folder: a key for this process only
        return _PROCESS_KEY
    key = secrets.token_bytes(32)
    try:
        os.write(fd, key)
    finally:
        os.close(fd)
    return key


_PROCESS_KEY = secrets.token_bytes(32)
#: the key of each key file read so far (store_key)
_KEYS: dict[Path, bytes] = {}


def _mac(key: str, result: dict) -> str:
    import hashlib
    import hmac

    import seprank.schemas.strict_json as strict_json

    text = strict_json.dumps([key, result], sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(store_key(), text, hashlib.sha256).hexdigest()


def _record(raw: bytes) -> tuple[str, dict, str | None]:
    """(key, result, mac) of one line of the store; ValueError for anything else."""
    import seprank.schemas.strict_json as strict_json

    if len(raw) > RECORD_BYTES:
        raise ValueError(f"longer than {RECORD_BYTES} bytes")
    rec = strict_json.loads(raw.decode("utf-8"))
    if not (isinstance(rec, dict) and set(rec) in ({"key", "result"}, {"key", "result", "mac"})
            and isinstance(rec["key"], str) and isinstance(rec["result"], dict)
            and isinstance(rec.get("mac", ""), str)):
        raise ValueError("not an object of a key and a result")
    return rec["key"], rec["result"], rec.get("mac")


def _first_record(path: Path, raw: bytes) -> tuple[str, dict, str | None]:
    """The first line's record; a file whose first line is none is not a store."""
    try:
        return _record(raw)
    except (ValueError, RecursionError) as exc:
        why = "not UTF-8" if isinstance(exc, UnicodeDecodeError) else str(exc)
        raise ParameterError(f"{path} is not a seprank block store (line 1: {why[:120]}; "
                             "JSON lines of key and result)") from None


class BlockStore:
    """Subset ranks by key in a JSON-lines file (module docstring); ``None`` path: memory.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp) / "blocks.jsonl"
    ...     BlockStore(path).put("k", {"rank": 3})
    ...     BlockStore(path).get("k")
    {'rank': 3}
    """

    def __init__(self, path: str | os.PathLike | None):
        self.path = None if path is None else Path(path)
        self._rows: dict[str, dict] = {}
        if self.path is None:
            return
        data = _read_store(self.path)
        for n, raw in enumerate(data.split(b"\n"), 1):
            if not raw.strip():
                continue
            if n == 1:
                key, result, mac = _first_record(self.path, raw)
            else:
                try:
                    key, result, mac = _record(raw)
                except (ValueError, RecursionError) as exc:
                    why = "not UTF-8" if isinstance(exc, UnicodeDecodeError) else str(exc)
                    LOG.warning("seprank: warning: %s: line %d is not a store record (%s); "
                                "skipped, its block is computed again", self.path, n,
                                why[:120])
                    continue
            if mac is None or not _same(mac, _mac(key, result)):
                LOG.warning("seprank: warning: %s: line %d is not authenticated by this "
                            "user's store key (written elsewhere or edited); its block is "
                            "computed again", self.path, n)
                continue
            self._rows[key] = result

    def get(self, key: str) -> dict | None:
        return self._rows.get(key)

    def put(self, key: str, result: dict) -> None:
        """Keep ``result`` and append it to the file: one line, one ``write``, under an
        exclusive lock, on a line of its own after a line cut by an interrupted write
        (module docstring)."""
        import seprank.schemas.strict_json as strict_json

        result = strict_json.loads(strict_json.dumps(result))   # as it will be read back
        self._rows[key] = result
        if self.path is None:
            return
        line = (strict_json.dumps({"key": key, "result": result, "mac": _mac(key, result)},
                                  separators=(",", ":")) + "\n").encode()
        fd = _open_store(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
        try:
            _lock(fd)
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":  # after a cut line: a new line
                line = b"\n" + line
            os.write(fd, line)
        finally:
            os.close(fd)  # closing releases the lock


def _same(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a.encode(), b.encode())


def _lock(fd: int) -> None:
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
    except (ImportError, OSError):  # pragma: no cover - no flock: O_APPEND alone
        pass


def _plausible(rec: dict, spec: BlockSpec) -> bool:
    """Whether a stored record can be a subset rank of ``spec``'s block: integer ``rows``
    between 1 and the long side, integer ``rank`` between 0 and min(rows, short side).
    (A record that passes may still lie within those bounds: the pass must not trust it
    further than its certificates.)"""
    rows, rank = rec.get("rows"), rec.get("rank")
    return (type(rows) is int and type(rank) is int and 1 <= rows <= max(spec.shape)
            and 0 <= rank <= min(rows, min(spec.shape)))


def subset_ranks_hook(specs: list[BlockSpec], r: int, p: int, seed: int, *, certify: bool,
                      scheduler: str | None, workers: int | None, store):
    """The ``subset_ranks`` callable of :func:`~seprank.separation.moment.run.run_blocks`:
    ranks of the given blocks' row subsets from the store, the others computed
    (``scheduler``: None, in this process; ``"local"``, as Dask tasks on a local cluster of
    ``workers`` processes; else the address of a running scheduler), each written to the
    store as it arrives.

    >>> import flint
    >>> from seprank.separation.moment.blocks import block_specs, poly_data
    >>> (t,) = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex").gens()
    >>> specs = block_specs(1, 1, 2, False)               # xi (u + w)^2: blocks 1, 2, 1
    >>> run = subset_ranks_hook(specs, 1, 1000003, 0, certify=False, scheduler=None,
    ...                         workers=None, store=None)      # in this process, no file
    >>> sorted((i, r["rank"]) for i, r in run(poly_data([t**2], 1, 2), [0, 1, 2]).items())
    [(0, 1), (1, 1), (2, 1)]
    """

    def run(pd: PolyData, indices: list[int]) -> dict[int, dict]:
        db = BlockStore(store)
        fp = _fingerprint(pd)
        keys = {i: _key(fp, specs[i], r, p, (seed, i), certify) for i in indices}
        found = {}
        for i, k in keys.items():
            rec = db.get(k)
            if rec is not None and _plausible(rec, specs[i]):
                found[i] = rec
            elif rec is not None:
                LOG.warning("seprank: warning: %s: the record of block %s is not a possible "
                            "subset rank (%s); computed again", db.path, specs[i].label,
                            str(rec)[:80])
        todo = [i for i in indices if i not in found]
        LOG.info("block tasks: %d in the store, %d to run", len(found), len(todo))
        if todo:
            t0 = time.perf_counter()
            for i, res in _run_tasks(pd, [specs[i] for i in todo], todo, r, p, seed, certify,
                                     scheduler, workers):
                found[i] = res
                db.put(keys[i], res)
                LOG.info("block task %s: rank %d of %d rows mod %d in %.1f s (%.0f s in all)",
                         specs[i].label, res["rank"], res["rows"], p, res["seconds"],
                         time.perf_counter() - t0)
        return found

    return run


def _run_tasks(pd, specs, indices, r, p, seed, certify, scheduler, workers):
    """Yield (block, subset rank) as the tasks finish, largest blocks first: in this
    process without a scheduler (the store alone), else as Dask tasks."""
    order = sorted(range(len(indices)), key=lambda k: -min(specs[k].shape))
    if scheduler is None:
        for k in order:
            yield indices[k], subset_rank(pd, specs[k], r, p, (seed, indices[k]),
                                          certify=certify)
        return
    from contextlib import ExitStack

    from distributed import Client, as_completed

    from seprank.runtime.cluster import connect, local_cluster

    with ExitStack() as stack:
        if scheduler is not None and scheduler != "local":
            client = stack.enter_context(connect(scheduler))
        else:
            n = min(workers or os.cpu_count() or 1, len(indices))
            client = stack.enter_context(Client(stack.enter_context(local_cluster(n))))
        shared = client.scatter(pd.residues_only(p), broadcast=True)   # no exact coefficients
        futures = {client.submit(subset_rank, shared, specs[k], r, p, (seed, indices[k]),
                                 certify=certify, pure=False): indices[k] for k in order}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
