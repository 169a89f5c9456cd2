"""The new surfaces, attacked (issue 32): budgets while the work runs, stores, schedulers,
strict inputs, edges and plugins.

The campaign (:data:`CASES`): every hostile input the third adversarial campaign found,
and their relatives, each given to ``seprank`` in a fresh folder. Every one must be
refused the way a user's error is: exit status 2, exactly one line on stderr
(``seprank: error: ...``), no traceback, nothing written (the folder is unchanged; a
scheduler's store included). Most run in this process (``main([...])``); those that need
another environment (plugins) or the budget's guard run as ``python -m seprank``.

Budgets: a job estimated at minutes under a 2 s budget is refused at once; jobs that the
estimate cannot see (a plugin's hook that sleeps or allocates, the way one long call into
FLINT or a cold numba cache does) are stopped by the guard within
:func:`seprank.budget.time_margin` of their budget, timed here from the process's start.

A store whose ranks were rewritten must give the plain run's answer (one way, a rank raised
within the block's bounds, is refused by the records' authentication: moment_tasks.store_key).

``SEPRANK_FUZZ=N`` runs the property tests N times as long (``SEPRANK_FUZZ=1``: 20 times):
random scheduler addresses and greetings, store files, YAML scalars and JSON objects with
repeated keys.
"""

from __future__ import annotations

import json
import math
import os
import re
import resource
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import flint
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seprank
from seprank.budget import Budget, time_margin
from seprank.cli import main
from seprank.errors import ParameterError, TimeLimitError

_FUZZ = os.environ.get("SEPRANK_FUZZ", "")
CAMPAIGN = int(_FUZZ) if _FUZZ.isdigit() and int(_FUZZ) > 1 else (20 if _FUZZ == "1" else 1)

SWEEP_TOML = 'computation = "hadamard_rank"\n[parameters]\nd = 2\nlam = [1, 2]\n'
SEP_INF = ["sep-rank", "-L", "1", "--width", "2", "-N", "inf"]


# ------------------------------------------------------------------ hostile peers

class Peer:
    """A local TCP server that answers every connection with ``greeting`` (None: it
    accepts and says nothing)."""

    def __init__(self, greeting: bytes | None):
        self.greeting = greeting
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.greeting is not None:
                try:
                    conn.sendall(self.greeting)
                except OSError:
                    pass
            threading.Timer(3.0, conn.close).start()

    def close(self):
        self.sock.close()


def refused_port() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return f"tcp://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def peers():
    """Peers that do not speak Dask: one claiming 3 EiB of frames, one of random bytes,
    one of HTTP, one silent."""
    made = {"huge": Peer(struct.pack("<Q", 3 * 2**60) + b"\x00" * 64),
            "noise": Peer(bytes(range(256)) * 4),
            "http": Peer(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
            "silent": Peer(None)}
    yield made
    for p in made.values():
        p.close()


# ------------------------------------------------------------------ the campaign's inputs

def _write(tmp: Path, name: str, data: bytes | str) -> str:
    path = tmp / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


def _npy(tmp: Path, name: str, array: np.ndarray) -> str:
    np.save(tmp / name, array)
    return str(tmp / name)


def _yaml_spec(tmp: Path, line: str) -> str:
    return _write(tmp, "spec.yaml", f"computation: hadamard_rank\nparameters:\n  lam: 2\n"
                                    f"  {line}\n")


def _sweep(tmp: Path, scheduler: str) -> list[str]:
    return ["sweep", _write(tmp, "s.toml", SWEEP_TOML), "--scheduler", scheduler,
            "--store", str(tmp / "out.sqlite"), "--no-progress"]


def _store_case(kind: str):
    def make(tmp: Path, peers) -> list[str]:
        if kind == "device":
            path = "/dev/zero"
        elif kind == "fifo":
            path = str(tmp / "fifo")
            os.mkfifo(path)
        elif kind == "folder":
            (tmp / "d").mkdir()
            path = str(tmp / "d")
        elif kind == "no folder":
            path = str(tmp / "none" / "blocks.jsonl")
        elif kind == "link":
            target = _write(tmp, "target.jsonl", "")
            os.symlink(target, tmp / "link.jsonl")
            path = str(tmp / "link.jsonl")
        elif kind == "dangling link":
            os.symlink(tmp / "nowhere.jsonl", tmp / "link.jsonl")
            path = str(tmp / "link.jsonl")
        elif kind == "bad utf-8":
            path = _write(tmp, "b.jsonl", b"\xff\xfe\xfd\n")
        elif kind == "duplicate keys":
            path = _write(tmp, "b.jsonl", '{"key": "a", "key": "b", "result": {}}\n')
        else:  # not a store at all
            path = _write(tmp, "b.jsonl", "# my notes\n")
        return [*SEP_INF, "--store", path]
    return make


def _peer_case(name: str, command: str):
    def make(tmp: Path, peers) -> list[str]:
        address = refused_port() if name == "refused" else peers[name].address
        if command == "sweep":
            return _sweep(tmp, address)
        return [*SEP_INF, "--scheduler", address]
    return make


def _fixed(*args):
    return lambda tmp, peers: list(args)


#: (name, a function of (folder, peers) giving the command line, words the line names)
CASES = [
    # --store: regular files only, never through a link, never a device or FIFO
    *[(f"store: {k}", _store_case(k), w) for k, w in [
        ("device", "not a regular file"), ("fifo", "not a regular file"),
        ("folder", "is a folder"), ("no folder", "does not exist"),
        ("link", "symbolic link"), ("dangling link", "symbolic link"),
        ("bad utf-8", "not UTF-8"), ("duplicate keys", "duplicate key"),
        ("not a store", "not a seprank block store")]],
    # --scheduler: the address's form first, then a bounded probe
    *[(f"scheduler {a!r}", lambda tmp, peers, a=a: _sweep(tmp, a), w) for a, w in [
        ("bogus", "give tcp://HOST:PORT"), ("inproc://abc", "inproc://"),
        ("ucx://127.0.0.1:8786", "ucx://"), ("tls://127.0.0.1:8786", "tls://"),
        ("ws://127.0.0.1:8786", "ws://"), ("tcp://127.0.0.1:99999", "port 99999"),
        ("tcp://[zz::1]:8786", "give tcp://"), ("tcp://[1.2.3.4]:1", "not a host name"),
        ("tcp://a b:1", "not a host name"),
        ("tcp://127.0.0.1", "give tcp://HOST:PORT"), ("tcp://host:８７８６", "give tcp://"),
        ("", "give tcp://HOST:PORT")]],
    ("sep-rank --scheduler bogus", _fixed(*SEP_INF, "--scheduler", "bogus"), "bogus"),
    *[(f"peer {n} ({c})", _peer_case(n, c), w) for n, c, w in [
        ("refused", "sweep", "connection refused"), ("refused", "sep-rank", "refused"),
        ("huge", "sweep", "not a Dask handshake"), ("noise", "sweep", "not a Dask"),
        ("http", "sweep", "not a Dask handshake"), ("huge", "sep-rank", "Dask"),
        ("silent", "sweep", "sent nothing")]],
    # strict inputs: YAML 1.1 pitfalls, repeated keys, NaN, bad UTF-8
    *[(f"yaml {line!r}", lambda tmp, peers, line=line: ["sweep", _yaml_spec(tmp, line),
                                                         "--dry-run"], w)
      for line, w in [("d: 017", "leading zero"), ("d: 1:30", "base-60"),
                      ("d: 0x1F", "not a decimal"), ("d: 1_000", "underscores"),
                      ("d: yes", "boolean"), ("d: 2026-01-01", "date"),
                      ("d: !!int 017", "decimal integer"),
                      ("d: 2\n  d: 3", "appears twice")]],
    ("toml repeated key", lambda tmp, peers: [
        "sweep", _write(tmp, "s.toml", SWEEP_TOML + "d = 3\n"), "--dry-run"], "TOML"),
    ("spec not utf-8", lambda tmp, peers: [
        "sweep", _write(tmp, "s.toml", SWEEP_TOML.encode() + b"# \xff\n"), "--dry-run"],
     "not UTF-8"),
    ("report repeated key", lambda tmp, peers: [
        "report", _write(tmp, "r.json", '{"checks": [], "checks": []}')], "duplicate key"),
    ("weights repeated key", lambda tmp, peers: [
        "sep-rank", "-L", "1", "--width", "2", "--weights",
        _write(tmp, "w.json", '{"Q": [], "Q": []}')], "duplicate key"),
    ("matrix NaN", lambda tmp, peers: ["rank", _write(tmp, "m.json", "[[1, NaN]]")], "NaN"),
    ("matrix Infinity", lambda tmp, peers: [
        "rank", _write(tmp, "m.json", "[[1, -Infinity]]")], "Infinity"),
    # edges
    ("hadamard-rank (0, 2)", lambda tmp, peers: [
        "hadamard-rank", _npy(tmp, "v.npy", np.zeros((0, 2), np.int64)), "--lam", "2"],
     "no rows"),
    ("hadamard-rank (2, 0)", lambda tmp, peers: [
        "hadamard-rank", _npy(tmp, "v.npy", np.zeros((2, 0), np.int64)), "--lam", "2"],
     "no columns"),
    ("hadamard-rank (0, 0) json", lambda tmp, peers: [
        "hadamard-rank", _write(tmp, "v.json", "[]"), "--lam", "2"], "V"),
    ("--blas-threads 1000000", lambda tmp, peers: [
        "float-vs-exact", "--d", "2", "--lam", "2", "--out", str(tmp / "o"), "--no-plot",
        "--blas-threads", "1000000"], "CPUs"),
    ("--blas-threads cpus + 1", lambda tmp, peers: [
        "float-vs-exact", "--d", "2", "--lam", "2", "--out", str(tmp / "o"), "--no-plot",
        "--blas-threads", str(len(os.sched_getaffinity(0)) + 1)], "CPUs"),
    # budgets estimated from sizes before any work
    ("float-vs-exact grid of 10^6 points", lambda tmp, peers: [
        "float-vs-exact", "--d", "1:1000", "--lam", "1:1000", "--out", str(tmp / "o"),
        "--max-seconds", "2"], "max_seconds"),
    ("hadamard-rank --omega 7 8 in 2 s", _fixed("hadamard-rank", "--omega", "7", "8",
                                               "--max-seconds", "2"), "max_seconds"),
    ("a 10^5-row CSV in 0.5 s", lambda tmp, peers: [
        "rank", _write(tmp, "m.csv", "12345,67890,13579\n" * 100_000), "--max-seconds",
        "0.5"], "reading"),
]


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize("name, make, words", CASES, ids=[c[0] for c in CASES])
def test_campaign(name, make, words, tmp_path, peers, capsys, monkeypatch):
    import seprank.runtime.cluster as cluster

    monkeypatch.setattr(cluster, "PROBE_TIMEOUT", 1.0)
    monkeypatch.chdir(tmp_path)
    args = make(tmp_path, peers)
    before = _tree(tmp_path)
    t0 = time.perf_counter()
    status = main(args)
    seconds = time.perf_counter() - t0
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status == 2, (status, out[-300:], err[-1000:])
    assert len(lines) == 1 and lines[0].startswith("seprank: error: "), err[-1000:]
    assert "Traceback" not in err and words in lines[0], lines[0]
    assert _tree(tmp_path) == before, "something was written"
    assert seconds < 30, f"{seconds:.1f} s to refuse"


# ------------------------------------------------------------------ the store, read back

def test_store_lines_skipped_with_a_warning_and_resumed(tmp_path, caplog):
    """A store's later bad lines are skipped, each with a warning naming its line; a
    record appended after a cut line lands on a line of its own."""
    from seprank.separation.moment.tasks import BlockStore, _mac

    def rec(key: str, result: dict) -> bytes:   # authenticated as this user's store writes
        return json.dumps({"key": key, "result": result, "mac": _mac(key, result)}).encode()

    path = tmp_path / "b.jsonl"
    path.write_bytes(rec("a", {"rank": 1}) + b'\n\xff\xfe\n'
                     b'{"key":"b","key":"c","result":{}}\n[1]\n'
                     + rec("d", {"rank": 2}) + b'\n{"key":"e","res')
    with caplog.at_level("WARNING", logger="seprank.moment"):
        store = BlockStore(path)
    assert store.get("a") == {"rank": 1} and store.get("d") == {"rank": 2}
    assert store.get("e") is None
    warned = [r.getMessage() for r in caplog.records]
    assert [re.search(r"line (\d+)", w).group(1) for w in warned] == ["2", "3", "4", "6"]
    assert all("\n" not in w for w in warned)
    store.put("f", {"rank": 3, "gap": math.inf})
    again = BlockStore(path)
    assert again.get("f") == {"rank": 3, "gap": "inf"}   # no Infinity written


def test_concurrent_writers_keep_whole_lines(tmp_path):
    """Several processes appending to one store: every record is a whole line."""
    path = tmp_path / "b.jsonl"
    code = ("import sys; from seprank.separation.moment.tasks import BlockStore\n"
            "s = BlockStore(None); s.path = __import__('pathlib').Path(sys.argv[1])\n"
            "[s.put(f'{sys.argv[2]}-{i}', {'rank': i, 'pad': 'x' * 3000}) for i in range(150)]")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path), str(k)])
             for k in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    lines = path.read_text().splitlines()
    assert len(lines) == 600
    assert all(json.loads(line)["result"]["pad"] == "x" * 3000 for line in lines)


# ------------------------------------------------------------------ edges, in the API

def test_uint64_entries_of_2_63_and_more_are_exact(tmp_path):
    V = np.array([[2**63, 1], [3, 2**64 - 1], [2**63 + 5, 7]], dtype=np.uint64)
    rows = [[int(x) for x in r] for r in V.tolist()]
    G = flint.fmpz_mat([[sum(a * b for a, b in zip(u, v, strict=True)) ** 2 for v in rows]
                        for u in rows])
    f = tmp_path / "v.npy"
    np.save(f, V)
    assert G.rank() == 3
    for method in ("auto", "exact", "multimodular"):
        res = seprank.hadamard_rank(str(f), 2, method=method)
        assert (res.value, res.kind) == (3, "exact"), method
    # mod 2^31 - 1, V is [[2, 1], [3, 3], [7, 7]]: rank 2 there, a lower bound over Q
    res = seprank.hadamard_rank(str(f), 2, method="modular")
    assert (res.value, res.kind) == (2, "lower_bound")


def test_masked_arrays_are_refused_alike_in_rank_verify_and_hadamard_rank():
    from seprank.errors import InputError

    m = np.ma.array([[1, 2], [2, 4]], mask=[[0, 0], [1, 1]])
    cert = seprank.rank([[1, 2], [2, 4]], certify=True)
    for call in (lambda: seprank.rank(m), lambda: seprank.rank(m, "float"),
                 lambda: seprank.verify(m, cert), lambda: seprank.hadamard_rank(m, 2)):
        with pytest.raises(InputError, match="masked array") as info:
            call()
        assert "\n" not in str(info.value)


def test_json_output_never_holds_nan_or_infinity(tmp_path, capsys):
    """A zero row makes the float SVD's gap infinite: written as the string "inf"."""
    f = tmp_path / "v.json"
    f.write_text("[[1, 0], [0, 0]]")
    assert main(["hadamard-rank", str(f), "--lam", "1", "--json"]) == 0

    def refuse(name):
        raise AssertionError(f"{name} in the JSON output")

    data = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert data["value"] == 1


def test_verify_over_a_61_bit_prime_in_proportion_to_the_rank():
    """400 x 400 over GF(2^61 - 1): the verifier's own elimination (issue 32: 33.9 s
    against 1.76 s for the rank) now costs a small multiple of the rank."""
    from seprank.linalg.residues import ResidueMatrix

    p = 2**61 - 1
    A = np.random.default_rng(0).integers(-1000, 1000, size=(400, 400))
    for matrix in (A, ResidueMatrix(A % p, p)):
        t0 = time.perf_counter()
        res = seprank.rank(matrix, "modular", prime=p if matrix is A else None, certify=True)
        t1 = time.perf_counter()
        assert seprank.verify(matrix, res)
        t2 = time.perf_counter()
        assert res.value == 400 and t2 - t1 < max(10 * (t1 - t0), 5.0), (t1 - t0, t2 - t1)


# ------------------------------------------------------------------ budgets while working

def test_checkpoints_stop_the_readers_and_the_plan():
    """Past max_seconds, the loops that read a file or plan a grid stop in one line."""
    from seprank.files.matrix_io import matrix_from_rows
    from seprank.float_vs_exact import plan_cases

    late = Budget(max_seconds=1).start(at=time.monotonic() - 5)
    with late.active():
        with pytest.raises(TimeLimitError, match="reading m.txt stopped at the time limit"):
            matrix_from_rows([["1", "2"]] * 10, "m.txt")
        with pytest.raises(TimeLimitError, match="planning the grid stopped"):
            plan_cases("omega", [2, 3], [2, 3])


def _fake_wing(tmp: Path, hook_body: str) -> dict[str, str]:
    """An environment where a paper wing's network_bounds hook runs ``hook_body``."""
    dist = tmp / "slow_wing-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: slow-wing\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[seprank.papers]\nslow = slow_wing\n")
    (tmp / "slow_wing.py").write_text(
        "from seprank.paper_hooks.paper_record import Paper\n"
        "PAPER = Paper('slow.txt', 'A slow paper', key='slow')\n"
        "def bounds(L, d_x, H, d_a, N, residual, value):\n"
        f"    {hook_body}\n"
        "    return {}\n"
        "HOOKS = {'network_bounds': bounds}\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp),
                                                        os.environ.get("PYTHONPATH", "")]))


def _startup(args: list[str], env: dict, cwd: Path) -> float:
    """Seconds a quick seprank command takes here and now (the interpreter, the imports,
    the exit): what a budget's stop time is measured beside. The budget
    counts from the process's start, but no guard acts before the process runs, and at
    load 10 on 2 cores `seprank --version` alone takes 4 s of wall time (0.7 s of CPU)."""
    status, out, err, seconds = _seprank(args, env, cwd)
    assert status == 0, (args, out, err)
    return seconds


def _seprank(args: list[str], env: dict, cwd: Path, timeout: float = 120):
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "seprank", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - t0


@pytest.mark.parametrize("budget, body, words", [
    (("--max-seconds", "2"), "import time; time.sleep(600)", "stopped at the time limit"),
    (("--max-memory", "100M"),
     "import time; held = [b'x' * 2**25 for _ in range(40) if not time.sleep(0.05)]",
     "grew by"),
])
def test_the_guard_stops_what_no_loop_can(tmp_path, budget, body, words):
    """A hook that sleeps (as one long FLINT call holds the interpreter) or allocates past
    the budget: stopped from outside within the margin, one line, exit 2, no output."""
    env = _fake_wing(tmp_path, body)
    json_out = tmp_path / "out.json"
    status, out, err, seconds = _seprank(["sep-rank", "-L", "1", "--width", "2", "-N", "2",
                                          "--json", str(json_out), *budget], env, tmp_path)
    lines = err.strip().splitlines()
    assert status == 2 and out == "", (status, out, err)
    assert len(lines) == 1 and lines[0].startswith("seprank: error: ") and words in lines[0]
    assert "Traceback" not in err and not json_out.exists()
    if budget[0] == "--max-seconds":
        quick = tmp_path / "quick"                  # the same command, a hook that returns
        quick.mkdir()
        start = _startup(["sep-rank", "-L", "1", "--width", "2", "-N", "2"],
                         _fake_wing(quick, "pass"), quick)
        print(f"guard: {seconds:.2f} s for a 2 s budget (the quick command: {start:.2f} s)")
        assert seconds < start + 2 + time_margin(2), (seconds, start)


def test_a_budget_estimated_at_minutes_is_refused_at_once(tmp_path):
    """Refused by the estimate before any work: the CPU time the command spent (wall time
    at load 10 is mostly waiting for a core) stays within the time margin."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    status, out, err, seconds = _seprank(["float-vs-exact", "--d", "1:1000", "--lam",
                                          "1:1000", "--out", str(tmp_path / "o"),
                                          "--max-seconds", "2"], dict(os.environ), tmp_path)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert status == 2 and "max_seconds = 2.0 s" in err and not (tmp_path / "o").exists()
    print(f"refused: {seconds:.2f} s wall, {cpu:.2f} s of CPU, for a 2 s budget")
    assert cpu < time_margin(2), cpu          # refused before any work (CPU: load-proof)


def test_a_guarded_command_gives_its_answer_and_status(tmp_path):
    """Under the guard, a command that fits prints its answer and exits 0, and a refusal
    by the estimate is the child's own one line."""
    f = tmp_path / "m.json"
    f.write_text("[[1, 2], [2, 4]]")
    env = dict(os.environ)
    status, out, err, _ = _seprank(["rank", str(f), "--max-seconds", "60"], env, tmp_path)
    assert (status, out.splitlines()[0], err) == (0, "1 exact", "")
    status, out, err, _ = _seprank(["rank", str(f), "--max-memory", "1"], env, tmp_path)
    assert status == 2 and len(err.strip().splitlines()) == 1 and out == ""


# ------------------------------------------------------------------ plugins

def test_broken_plugins_are_skipped_one_line_each(tmp_path):
    dist = tmp_path / "broken-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[seprank.papers]\nsyn = bad_syntax\nrun = bad_runtime\nexit0 = bad_exit\n"
        "[seprank.checks]\nsynchk = bad_syntax\nexitchk = bad_exit\n")
    (tmp_path / "bad_syntax.py").write_text("def f(:\n")
    (tmp_path / "bad_runtime.py").write_text("x = 1 / 0\n")
    (tmp_path / "bad_exit.py").write_text("raise SystemExit(0)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path),
                                                       os.environ.get("PYTHONPATH", "")]))
    status, out, err, _ = _seprank(["papers"], env, tmp_path)
    lines = err.strip().splitlines()
    assert status == 2 and "Traceback" not in err and len(lines) == 3, err
    assert all(line.startswith("seprank: error: paper wing ") and "skipped" in line
               for line in lines)
    assert "SyntaxError" in err and "ZeroDivisionError" in err and "SystemExit(0)" in err
    assert out.startswith("levine2020")                        # the others still load
    status, out, err, _ = _seprank(["prove", "--list"], env, tmp_path)
    lines = err.strip().splitlines()
    assert status == 2 and "Traceback" not in err and len(lines) == 2, err
    assert all(line.startswith("seprank: error: check package ") for line in lines)
    assert "L-Omega" in out


# ------------------------------------------------------------------ properties (SEPRANK_FUZZ)

_ADDRESS = st.one_of(
    st.text(max_size=30),
    st.builds(lambda s, h, p: f"{s}{h}:{p}", st.sampled_from(["", "tcp://", "TCP://", "tls://",
                                                             "inproc://", "ucx://", "x://"]),
              st.one_of(st.from_regex(r"[a-z0-9.-]{0,12}", fullmatch=True),
                        st.sampled_from(["[::1]", "[zz]", "127.0.0.1", "1.2.3.4.5", "٣"])),
              st.one_of(st.integers(-5, 70000).map(str), st.text(max_size=4))))


@settings(max_examples=200 * CAMPAIGN, deadline=None)
@given(_ADDRESS)
def test_addresses_are_read_or_refused_in_one_line(address):
    from seprank.runtime.cluster import check_address

    try:
        host, port = check_address(address)
    except ParameterError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert 1 <= port <= 65535 and str(port) in address and host in address
    assert address.split("://")[0].lower() in ("tcp", address.lower())


@settings(max_examples=40 * CAMPAIGN, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(greeting=st.one_of(st.binary(max_size=64),
                          st.builds(lambda n, rest: struct.pack("<Q", n) + rest,
                                    st.integers(0, 2**64 - 1), st.binary(max_size=64))))
def test_greetings_that_are_not_dask_are_refused(greeting):
    from seprank.runtime.cluster import probe

    peer = Peer(greeting)
    try:
        probe(peer.address, timeout=0.5)
    except ParameterError as exc:
        assert "\n" not in str(exc) and "Dask" in str(exc)
    finally:
        peer.close()


_LINES = st.lists(st.one_of(
    st.binary(max_size=40),
    st.builds(lambda k, r: json.dumps({"key": k, "result": {"rank": r}}).encode(),
              st.text(max_size=5), st.integers()),
    st.sampled_from([b'{"key":"a","key":"b","result":{}}', b"[]", b"\xff", b"NaN",
                     b'{"key":1,"result":{}}', b'{"key":"k","result":[],"x":1}'])),
    max_size=6)


@settings(max_examples=150 * CAMPAIGN, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=_LINES)
def test_store_files_are_read_or_refused_in_one_line(tmp_path_factory, lines):
    from seprank.separation.moment.tasks import BlockStore

    path = tmp_path_factory.mktemp("store") / "b.jsonl"
    path.write_bytes(b"\n".join(lines))
    try:
        store = BlockStore(path)
    except ParameterError as exc:
        assert "\n" not in str(exc) and "line 1" in str(exc)
        return
    for key, result in store._rows.items():
        assert isinstance(key, str) and isinstance(result, dict)


_SCALARS = st.one_of(
    st.from_regex(r"[-+]?[0-9_]{1,6}(\.[0-9_]{0,3})?([eE][-+]?[0-9]{1,2})?", fullmatch=True),
    st.from_regex(r"[0-9]{1,3}(:[0-9]{1,2}){1,2}", fullmatch=True),
    st.from_regex(r"0[xXoObB][0-9a-fA-F_]{0,4}", fullmatch=True),
    st.sampled_from(["yes", "No", "ON", "off", "y", "n", "true", "FALSE", ".inf", "-.Inf",
                     ".nan", "~", "null", "2026-01-01", "017", "08", "0", "-0"]),
    st.text(alphabet="0123456789:._-+eExob", min_size=1, max_size=8))


@settings(max_examples=300 * CAMPAIGN, deadline=None)
@given(_SCALARS)
def test_yaml_scalars_mean_what_both_versions_mean_or_are_refused(text):
    """Accepted: a decimal integer (its value in both YAML 1.1 and 1.2), a decimal float, a
    YAML 1.2 boolean, null, or a string that YAML 1.1 reads as that same string."""
    import yaml

    from seprank.sweep.strict_yaml import StrictYAMLError, load

    try:
        value = load(f"v: {text}\n")["v"]
    except StrictYAMLError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("line 1")
        return
    except yaml.YAMLError:
        return  # not a plain scalar at all (PyYAML's own error)
    if isinstance(value, bool):
        assert text.lower() in ("true", "false")
    elif isinstance(value, int):
        assert re.fullmatch(r"[-+]?(0|[1-9][0-9]*)", text) and value == int(text)
    elif isinstance(value, float):  # the float YAML 1.1 reads too
        old = yaml.safe_load(f"v: {text}\n")["v"]
        assert isinstance(old, float) and (old == value or math.isnan(old) and math.isnan(value))
    elif isinstance(value, str):
        old = yaml.safe_load(f"v: {text}\n")["v"]
        assert old == value, (text, old)


@settings(max_examples=200 * CAMPAIGN, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=6),
       st.integers(0, 3))
def test_json_objects_with_a_repeated_key_are_refused(keys, depth):
    from seprank.schemas import strict_json

    text = "{" + ", ".join(f'"{k}": {i}' for i, k in enumerate(keys)) + "}"
    for _ in range(depth):
        text = f'{{"x": {text}}}'
    try:
        value = strict_json.loads(text)
    except ValueError as exc:
        assert len(set(keys)) < len(keys) and "duplicate key" in str(exc)
        return
    assert len(set(keys)) == len(keys)
    while depth:
        value, depth = value["x"], depth - 1
    assert list(value) == keys


def test_the_campaign_counts():
    """The campaign's size, for the record: every case above is one hostile input."""
    assert len(CASES) >= 50
    names = [c[0] for c in CASES]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("tamper", [lambda r: 0, lambda r: -1, lambda r: 10**6,
                                    lambda r: r + 7],
                         ids=["zero", "negative", "past the block", "raised within it"])
def test_tampered_store_ranks_never_change_an_answer(tmp_path, tamper):
    """Every rank in the store rewritten (lower, higher, negative): the answer is the
    plain run's, in value, kind and bounds (the pass re-derives its certificates)."""
    from seprank.models import SelfAttentionNetwork

    net = SelfAttentionNetwork.random(3, 2, 1, seed=0, nonzero=True)

    def run(**options):
        return seprank.separation_rank(network=net, N=math.inf, options=options or None)

    plain = run()
    store = tmp_path / "b.jsonl"
    run(store=str(store))
    records = [json.loads(line) for line in store.read_text().splitlines()]
    assert records
    for rec in records:
        rec["result"]["rank"] = tamper(rec["result"]["rank"])
    store.write_text("".join(json.dumps(rec) + "\n" for rec in records))
    again = run(store=str(store))
    assert (again.value, again.kind, again.upper_bound) == (plain.value, plain.kind,
                                                           plain.upper_bound)
