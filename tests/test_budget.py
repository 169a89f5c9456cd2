"""Budgets (issue 23 items 1, 2, 4, 5): estimate, compare, refuse in one line, then work.

Unit tests of :mod:`seprank.budget` and :mod:`seprank.files.bounded_read`, then one regression
test per finding of the oversize campaign (each failed on the main of 2026-11-24: a
traceback, a process killed for memory, or a run with no end), run through the command
line in a subprocess under an address-space limit and a timeout.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import seprank
from seprank.budget import (
    Budget,
    Estimate,
    current,
    format_bytes,
    largest_fitting,
    machine_memory,
    parse_seconds,
    parse_size,
)
from seprank.errors import InputError, MemoryLimitError, ParameterError, TimeLimitError

#: the address-space limit of the subprocesses (bytes): far above what a refusal needs,
#: far below what the old code allocated
LIMIT_AS = 3 * 2**30


def _limit():  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


def cli(*args: str, timeout: float = 60, env: dict | None = None):
    """(exit status, stdout, stderr, seconds) of ``seprank ARGS`` under LIMIT_AS."""
    code = "import sys; from seprank.cli import main; sys.exit(main(sys.argv[1:]))"
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_limit, env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - t0


def assert_refused(status, out, err, *words):
    """Exit 2 with exactly one line on stderr, starting ``seprank: error:``, naming words."""
    assert status == 2, (status, out[-500:], err[-2000:])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("seprank: error: "), err[-2000:]
    for w in words:
        assert w in lines[0], (w, lines[0])


# ------------------------------------------------------------------ units


def test_sizes_parse_and_print():
    assert parse_size("2G") == 2 * 2**30 and parse_size("500M") == 500 * 2**20
    assert parse_size("1.5 GiB") == 3 * 2**29 and parse_size(4096) == 4096
    for bad in ("", "2X", "-1G", True, 2.5, None, "0"):
        with pytest.raises(ParameterError):
            parse_size(bad)
    assert parse_seconds("10m") == 600 and parse_seconds(1) == 1.0
    for bad in (0, -1, "soon", False, float("inf")):
        with pytest.raises(ParameterError):
            parse_seconds(bad)
    # any int, however large, prints without str() of its digits
    assert format_bytes(10**5000) in ("10^4999 B", "10^5000 B")


def test_check_refuses_memory_and_time_in_one_line_with_the_nearest_size():
    b = Budget(max_memory="1M", max_seconds=1)
    with pytest.raises(MemoryLimitError) as exc:
        b.check(Estimate("a block", nbytes=2**30, detail="8k x 8k"),
                nearest=lambda: "the largest n that fits is 360")
    text = str(exc.value)
    assert "\n" not in text and "1.0 GiB" in text and "max_memory = 1.0 MiB" in text
    assert "8k x 8k" in text and text.endswith("the largest n that fits is 360")
    with pytest.raises(TimeLimitError, match="max_seconds = 1.0 s"):
        b.check(Estimate("a loop", nbytes=1, work=((10**12, "python"),)))
    assert b.check(Estimate("small", nbytes=10)).nbytes == 10


def test_largest_fitting_is_the_boundary_of_a_monotone_predicate():
    for cut in (1, 2, 7, 100, 12345):
        assert largest_fitting(lambda k, c=cut: k <= c, 1, 10**9) == cut
    assert largest_fitting(lambda k: True, 3, 9) == 9
    assert largest_fitting(lambda k: False, 3, 9) is None


def test_active_budget_reaches_require_fits():
    from seprank.linalg.memory import require_fits

    with Budget(max_memory="1M").active():
        assert current().max_memory == 2**20
        with pytest.raises(MemoryLimitError, match="max_memory"):
            require_fits(2**21, "a buffer")
    require_fits(2**21, "a buffer")  # the machine's budget again


def test_machine_memory_sees_rlimit_as():
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (2**31, 2**31))\n"
            "from seprank.budget import machine_memory\nprint(*machine_memory(), sep='|')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60).stdout.strip()
    nbytes, source = out.split("|")
    assert int(nbytes) < 2**31 and source == "room under RLIMIT_AS"
    assert machine_memory()[0] > 0


def test_trace_writes_one_line_per_check(tmp_path, monkeypatch):
    trace = tmp_path / "trace.jsonl"
    monkeypatch.setenv("SEPRANK_BUDGET_TRACE", str(trace))
    Budget().check(Estimate("a", nbytes=1))
    with pytest.raises(MemoryLimitError):
        Budget(max_memory="1K").check(Estimate("b", nbytes=2**20))
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    assert [(x["what"], x["refused"]) for x in lines] == [("a", None), ("b", "MemoryLimitError")]


# ------------------------------------------------------------------ the Python entries


def test_every_entry_takes_max_memory_and_max_seconds():
    from seprank.float_vs_exact import run_study
    from seprank.models import SelfAttentionNetwork
    from seprank.models.embedding import VocabularyEmbedding
    from seprank.separation import embedded_separation_rank

    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, size=(700, 700))
    with pytest.raises(MemoryLimitError, match="max_memory = 1.0 MiB"):
        seprank.rank(a, max_memory="1M")
    with pytest.raises(TimeLimitError):
        seprank.rank(a, "exact", max_seconds=1e-6)
    with pytest.raises(TimeLimitError, match="grid route"):
        seprank.separation_rank(3, 4, 2, max_seconds=0.01)
    with pytest.raises(MemoryLimitError, match="largest N that fits is"):
        seprank.separation_rank(2, 2, 1, N=40, route="grid", max_memory="8M")
    with pytest.raises(MemoryLimitError):
        seprank.hadamard_rank(rng.integers(-3, 4, size=(2000, 4)).tolist(), 3,
                              max_memory="1M")
    net = SelfAttentionNetwork.random(1, 2, 1, seed=1, nonzero=True)
    emb = VocabularyEmbedding.random(8, 2, 5, 2, 1, seed=2)
    with pytest.raises(MemoryLimitError, match="largest N that fits"):
        embedded_separation_rank(net, emb, max_memory="5M")
    with pytest.raises(TimeLimitError):
        run_study("omega", [2, 3, 4], [2, 3, 4, 5, 6, 7, 8], max_seconds=1e-6)
    assert seprank.rank([[1, 2], [2, 4]], max_memory="64M", max_seconds=60).value == 1


def test_auto_on_an_all_zero_array_is_rank_zero_at_once_and_certified():
    z = np.zeros((300, 200), dtype=np.int64)
    res = seprank.rank(z, certify=True)
    assert (res.value, res.kind, res.primes) == (0, "exact", [])
    assert seprank.verify(z, res)
    assert seprank.rank(z, "exact").value == 0  # the other methods agree


def test_auto_fallback_reads_int64_without_an_exact_copy(monkeypatch):
    """The multimodular fallback of auto gets the int64 array itself (issue 23 item 3), on
    the residue engines (from NUMBA_MIN_DIM = 600 rows; below, flint reads an exact copy)."""
    import seprank.linalg.rational.multimodular as mm

    seen = []
    real = mm.rank_multimodular

    def spy(z, **kw):
        seen.append(type(z).__name__)
        return real(z, **kw)

    monkeypatch.setattr(mm, "rank_multimodular", spy)
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, size=(620, 30)) @ rng.integers(-3, 4, size=(30, 640))
    res = seprank.rank(a, certify=True)
    assert (res.value, res.kind, res.method) == (30, "exact", "multimodular")
    assert seen == ["ndarray"] and seprank.verify(a, res)


# ------------------------------------------------------------------ the campaign's findings


@pytest.mark.parametrize("args, words", [
    (("sep-rank", "-L", "1", "--width", "2", "--embedding", "vocabulary", "--emb-rank",
      "1000000000"), ("drawing the vocabulary embedding", "largest r")),
    (("sep-rank", "-L", "6", "--width", "8", "-N", "8", "--route", "grid"),
     ("the grid route needs about", "largest L that fits")),
    (("sep-rank", "-L", "60", "--width", "2", "-N", "2"), ("grid route", "largest L")),
    (("sep-rank", "-L", "1", "--width", "2", "-N", "100000"), ("largest N that fits",)),
    (("sep-rank", "-L", "50", "--width", "64", "-N", "64"), ("needs about",)),
    (("sep-rank", "-L", "1000000000", "--width", "2"), ("largest L that fits",)),
    (("grid-rank", "-L", "2", "--width", "2", "-M", "30", "-N", "8"),
     ("template-grid route", "largest N that fits is")),
    (("lemma6", "-L", "40"), ("Lemma 6", "largest L that fits")),
    (("hadamard-rank", "--omega", "50", "50"), ("largest lambda that fits",)),
    (("sep-rank", "-L", "3", "--width", "4", "-H", "2", "--max-seconds", "0.5"),
     ("max_seconds = 0.5 s",)),
])
def test_oversize_parameters_are_refused_in_one_line(args, words):
    status, out, err, seconds = cli(*args)
    assert_refused(status, out, err, *words)
    assert seconds < 30


def test_sweep_ranges_are_counted_not_expanded(tmp_path):
    spec = tmp_path / "big.toml"
    spec.write_text('computation = "hadamard_rank"\n[parameters]\n'
                    'd = {from = 2, to = 100000000000}\nlam = [1, 2]\n')
    for extra in ((), ("--dry-run",)):
        status, out, err, seconds = cli("sweep", str(spec), *extra)
        assert_refused(status, out, err, "199999999998 tasks", "split the sweep")
    assert not list(tmp_path.glob("*.sqlite"))


@pytest.mark.parametrize("option, words", [
    (("--workers", "0"), "--workers: N (the number of workers) must be an integer >= 1"),
    (("--retries", "-1"), "--retries: N (the number of retries) must be an integer >= 0")])
def test_sweep_dry_run_checks_workers_and_retries(tmp_path, option, words):
    spec = tmp_path / "s.toml"
    spec.write_text('computation = "hadamard_rank"\n[parameters]\nd = 2\nlam = [1, 2]\n')
    assert_refused(*cli("sweep", str(spec), "--dry-run", *option)[:3], words)


def test_unreachable_scheduler_leaves_no_store(tmp_path, monkeypatch):
    import seprank.runtime.cluster as cluster
    from seprank.sweep import run_sweep
    from seprank.sweep.spec import spec_from_dict

    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", "1s")
    spec = spec_from_dict({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": 2}})
    store = tmp_path / "s.sqlite"
    with pytest.raises(ParameterError, match="cannot reach the Dask scheduler"):
        run_sweep(spec, store=store, scheduler="tcp://127.0.0.1:9", progress=False)
    assert not store.exists() and not list(tmp_path.iterdir())


def test_folders_are_refused_in_one_line(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('computation = "hadamard_rank"\n[parameters]\nd = 2\nlam = [1, 2]\n')
    for args in (("rank", str(tmp_path)), ("sep-rank", "--weights", str(tmp_path)),
                 ("hadamard-rank", str(tmp_path), "--lam", "2"), ("report", str(tmp_path)),
                 ("sweep", str(tmp_path), "--dry-run"),
                 ("sweep", str(spec), "--store", str(tmp_path), "--dry-run"),
                 ("sweep", str(spec), "--store", str(tmp_path))):
        assert_refused(*cli(*args)[:3], "folder")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("args", [("sep-rank", "--weights", "/dev/zero"), ("rank", "/dev/zero"),
                                  ("report", "/dev/zero"),
                                  ("hadamard-rank", "/dev/zero", "--lam", "2")])
def test_devices_are_read_with_a_cap(args):
    status, out, err, seconds = cli(*args)
    assert_refused(status, out, err, "/dev/zero")
    assert seconds < 20


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_without_a_writer_is_refused_within_seconds(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args in (("sep-rank", "--weights", str(fifo)), ("rank", str(fifo))):
        status, out, err, seconds = cli(*args)
        assert_refused(status, out, err, "no writer")
        assert seconds < 20


def test_a_pipe_with_a_writer_is_read(tmp_path):
    from seprank.files.bounded_read import read_bounded

    proc = subprocess.Popen(["sh", "-c", "printf '1 2\\n2 4\\n'"], stdout=subprocess.PIPE)
    try:
        assert read_bounded(f"/proc/self/fd/{proc.stdout.fileno()}") == b"1 2\n2 4\n"
    finally:
        proc.stdout.close()
        proc.wait()
    with pytest.raises(InputError, match="folder"):
        read_bounded(tmp_path)


def test_a_file_larger_than_the_budget_is_refused_before_it_is_read(tmp_path):
    f = tmp_path / "m.txt"
    f.write_text("1 2\n2 4\n" * 10000)
    assert_refused(*cli("rank", str(f), "--max-memory", "1M")[:3], "reading", "max_memory")
    assert cli("rank", str(f), "--max-memory", "200M")[0] == 0


def test_zero_npy_peak_follows_its_size(tmp_path):
    """auto on a zero int64 .npy of B bytes peaks at about B (it was 9 B, issue 23 item 3)."""
    n = 3000
    f = tmp_path / "z.npy"
    np.save(f, np.zeros((n, n), dtype=np.int64))
    # peaks as VmHWM, the process's own: ru_maxrss would also count the resident size of
    # the pytest process that spawned it (Linux keeps it across exec)
    hwm = ("[int(ln.split()[1]) * 1024 for ln in open('/proc/self/status') "
           "if ln.startswith('VmHWM:')][0]")
    code = ("import sys, time\nfrom seprank.cli import main\n"
            "t = time.perf_counter()\n"
            f"status = main(['rank', {str(f)!r}, '--json', '-'])\n"
            f"print(status, {hwm}, time.perf_counter() - t)\n")
    base = subprocess.run([sys.executable, "-c", "import seprank.cli, "
                           f"seprank.linalg.frontdoor, numpy\nprint({hwm})"],
                          capture_output=True, text=True, timeout=120).stdout.split()[-1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300).stdout.split()
    status, peak, seconds = out[-3:]
    B = 8 * n * n
    assert status == "0" and json.loads(" ".join(out[:-3]))["value"] == 0
    assert int(peak) - int(base) < 2 * B + 64 * 2**20
    assert float(seconds) < 30 and not math.isnan(float(seconds))
    assert Path(f).stat().st_size >= B
