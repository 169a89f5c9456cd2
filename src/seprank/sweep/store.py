"""The result store of a sweep: one SQLite row per task, written atomically.

A task's key is a hash of its computation, its full parameter set (defaults
filled in, canonical JSON) and the code version, so a rerun with the same
code skips finished tasks, and a change to the code reruns everything under
a new key (the old rows stay, under their own version).

Rows are written by the sweep's client process only, each in its own
transaction (SQLite's journal makes the write all-or-nothing, so a run killed
at any moment leaves only whole rows). A row is ``done`` or ``failed``; a
``done`` row is never overwritten, which keeps every task in the store once.
Results are JSON text: no pickle is read or written.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import seprank.schemas.strict_json as strict_json
from seprank.errors import InputError
from seprank.sweep.spec import Task, canonical_json
from seprank.sweep.version import code_version

#: ``code_version`` lives in seprank.sweep.version (the computations need it, and the
#: store needs the spec, which needs the computations); imported here for old callers
__all__ = ["code_version", "task_key", "StoredRow", "ResultStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY,
    computation TEXT NOT NULL,
    params TEXT NOT NULL,
    code_version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    result TEXT,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 1,
    worker TEXT,
    seconds REAL,
    finished_utc TEXT NOT NULL
);
"""

#: Identifies a seprank store (SQLite's application_id pragma: "sepr").
APPLICATION_ID = 0x73657072


def task_key(task: Task, version: str | None = None) -> str:
    """The store key of a task: sha256 of computation, parameters and code version.

    Examples
    --------
    >>> a = task_key(Task("check", {"id": "L-Lemma4"}), "0.1.0+abc")
    >>> b = task_key(Task("check", {"id": "L-Lemma4"}), "0.1.0+abd")
    >>> len(a), a == b
    (64, False)
    """
    version = code_version() if version is None else version
    text = canonical_json({"computation": task.computation, "params": task.params,
                           "code_version": version})
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class StoredRow:
    """One row of the store, with the JSON decoded.

    Examples
    --------
    >>> row = StoredRow("k", "check", {"id": "X"}, "0.1.0+abc", "failed", None, "boom", 1,
    ...                 None, 0.5, "2026-01-01T00:00:00+00:00")
    >>> row.ok
    False
    """

    key: str
    computation: str
    params: dict[str, Any]
    code_version: str
    status: str
    result: Any
    error: str | None
    attempts: int
    worker: str | None
    seconds: float | None
    finished_utc: str

    @property
    def ok(self) -> bool:
        return self.status == "done"


class ResultStore:
    """A SQLite file of task rows (see the module docstring for the guarantees).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     store = ResultStore(pathlib.Path(tmp) / "s.sqlite")
    ...     t = Task("check", {"id": "L-Lemma4", "full": False, "delay_s": 0})
    ...     k = task_key(t, "v1")
    ...     first = store.record(k, t, "v1", "done", result={"verdict": "verified"})
    ...     again = store.record(k, t, "v1", "failed", error="late")   # a done row stays
    ...     _ = store.record("k2", t, "v1", "done", result={"gap": float("inf")})
    ...     rows = list(store.rows())
    ...     store.close()
    >>> first, again, len(rows), rows[0].status, rows[0].result
    (True, False, 2, 'done', {'verdict': 'verified'})
    >>> rows[1].result                      # JSON has no infinity: stored as a string
    {'gap': 'inf'}
    """

    def __init__(self, path: str | os.PathLike, *, create: bool = True, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        if (not create or readonly) and not self.path.is_file():
            raise InputError(f"no sweep store at {str(self.path)!r}")
        if self.path.exists() and self.path.is_dir():
            raise InputError(f"sweep store {str(self.path)!r} is a directory")
        if not readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if readonly:
                # SQLite itself refuses every write on this connection. With no -wal file
                # beside the store no other connection is open (the last one to close
                # removes it), so the file is opened immutable: SQLite then creates no
                # -wal/-shm side files either. A store being written is read as WAL
                # readers do, through the side files its writer already made.
                wal = self.path.with_name(self.path.name + "-wal")
                uri = (f"{self.path.resolve().as_uri()}?mode=ro"
                       + ("" if wal.exists() else "&immutable=1"))
                self._conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
            else:
                self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            app = self._conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in self._conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{str(self.path)!r} is not a seprank sweep store "
                             f"(SQLite says: {exc})") from None
        if tables and app != APPLICATION_ID:
            self._conn.close()
            raise InputError(f"{str(self.path)!r} is an SQLite file but not a seprank "
                             "sweep store")
        if (not create or readonly) and not tables:
            self._conn.close()
            raise InputError(f"{str(self.path)!r} is not a seprank sweep store (empty)")
        if readonly:
            return
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = FULL")
        self._conn.executescript(_SCHEMA)
        self._conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    # -- writing
    def set_meta(self, name: str, value: Any) -> None:
        """Store a JSON value under ``name`` (spec, title, ...)."""
        with self._conn:
            self._conn.execute("INSERT INTO meta (name, value) VALUES (?, ?) "
                               "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                               (name, strict_json.dumps(value, sort_keys=True)))

    def record(self, key: str, task: Task, version: str, status: str, *,
               result: Any = None, error: str | None = None, worker: str | None = None,
               seconds: float | None = None) -> bool:
        """Write one task's row in one transaction; False if a done row was already there."""
        if status not in ("done", "failed"):
            raise ValueError(f"status must be 'done' or 'failed', not {status!r}")
        now = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        res_text = None if result is None else strict_json.dumps(result, sort_keys=True,
                                                                 default=str)
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            cur = self._conn.execute(
                "INSERT INTO tasks (key, computation, params, code_version, status, result, "
                "error, attempts, worker, seconds, finished_utc) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET status = excluded.status, "
                "result = excluded.result, error = excluded.error, "
                "attempts = tasks.attempts + 1, worker = excluded.worker, "
                "seconds = excluded.seconds, finished_utc = excluded.finished_utc "
                "WHERE tasks.status != 'done'",
                (key, task.computation, canonical_json(task.params), version, status,
                 res_text, error, worker, seconds, now))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return cur.rowcount == 1

    # -- reading
    def done_keys(self) -> set[str]:
        """Keys of the tasks finished successfully."""
        return {r[0] for r in self._conn.execute("SELECT key FROM tasks WHERE status = 'done'")}

    def meta(self) -> dict[str, Any]:
        """Every meta value, decoded."""
        return {k: self._decoded(v, f"meta {k!r}")
                for k, v in self._conn.execute("SELECT name, value FROM meta")}

    def _decoded(self, text: str, where: str) -> Any:
        """A stored JSON value; a tampered one (not JSON, a repeated key) is one line."""
        try:
            return strict_json.loads(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise InputError(f"{str(self.path)!r}: {where} is not valid JSON ({exc})") from None

    def counts(self) -> dict[str, int]:
        """Rows by status."""
        return dict(self._conn.execute("SELECT status, COUNT(*) FROM tasks GROUP BY status"))

    def rows(self, *, computation: str | None = None) -> Iterator[StoredRow]:
        """Every row (optionally of one computation), oldest first."""
        sql = ("SELECT key, computation, params, code_version, status, result, error, "
               "attempts, worker, seconds, finished_utc FROM tasks")
        args: tuple = ()
        if computation is not None:
            sql += " WHERE computation = ?"
            args = (computation,)
        for r in self._conn.execute(sql + " ORDER BY rowid", args).fetchall():
            where = f"the row of task {str(r[0])[:16]!r}"
            yield StoredRow(r[0], r[1], self._decoded(r[2], where), r[3], r[4],
                            None if r[5] is None else self._decoded(r[5], where), r[6], r[7],
                            r[8], r[9], r[10])

    def _display(self) -> tuple[str, list[str], list[list[Any]]]:
        by: dict[tuple[str, str], int] = {}
        for row in self.rows():
            key = (row.computation, row.status)
            by[key] = by.get(key, 0) + 1
        rows = [[comp, status, n] for (comp, status), n in sorted(by.items())]
        return f"sweep store {self.path.name}", ["computation", "status", "tasks"], rows

    def _repr_html_(self) -> str:
        """Jupyter's display: task counts by computation and status.

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     store = ResultStore(pathlib.Path(tmp) / "s.sqlite")
        ...     t = Task("check", {"id": "L-Lemma4", "full": False, "delay_s": 0})
        ...     _ = store.record("k", t, "v1", "done", result={"verdict": "verified"})
        ...     page = store._repr_html_()
        ...     store.close()
        >>> "<td>check</td><td>done</td><td>1</td>" in page
        True
        """
        from seprank._display import html_table

        return html_table(*self._display())

    def _repr_markdown_(self) -> str:
        """Markdown display: the table of :meth:`_repr_html_`.

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     store = ResultStore(pathlib.Path(tmp) / "s.sqlite")
        ...     print(store._repr_markdown_().splitlines()[0])
        ...     store.close()
        **sweep store s.sqlite**
        """
        from seprank._display import md_table

        return md_table(*self._display())

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
