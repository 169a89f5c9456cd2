"""The oversize campaign (issue 23, "Done means"): every command, random and oversize sizes.

Each case is a ``seprank`` command line with parameters drawn from a seeded generator,
mixing small sizes (that run), sizes near the limits and absurd ones (L = 10^9, N = 10^7,
an emb-rank of 10^9, a .npy header of 10^6 x 10^6, sweep ranges of 10^11, /dev/zero). It
runs in a subprocess under an address-space limit (``RLIMIT_AS``, :data:`LIMIT_AS`) and a
timeout, with ``--max-seconds`` where the command takes it and the budget trace on
(``SEPRANK_BUDGET_TRACE``). For every case:

* no traceback, and no process killed (by the kernel for memory, or by the timeout);
* a refusal is exit 2 with exactly one line on stderr (``seprank: error: ...``);
* no run is longer than twice its own estimate (the estimates the trace recorded, one per
  step) plus the start-up of a trivial command, measured here. A run's time is the
  smaller of its wall-clock time and the CPU time the child used (issue 31 item 5): on a
  loaded machine the wall clock also counts the time other processes held the cores, the
  CPU time does not; on an idle one a parallel kernel's CPU time adds up its threads and
  the wall clock is the smaller.

``SEPRANK_FUZZ=N`` runs N times as many cases (``SEPRANK_FUZZ=1``: 20 times); the default
is sized for CI (under a minute on 2 cores).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

#: cases per run: CI's, times SEPRANK_FUZZ (20 for SEPRANK_FUZZ=1)
_FUZZ = os.environ.get("SEPRANK_FUZZ", "")
CAMPAIGN = int(_FUZZ) if _FUZZ.isdigit() and int(_FUZZ) > 1 else (20 if _FUZZ == "1" else 1)
CASES = 16 * CAMPAIGN
LIMIT_AS = 3 * 2**30
MAX_SECONDS = "4"
TIMEOUT = 90

_BUDGETED = {"rank", "sep-rank", "grid-rank", "lemma6", "hadamard-rank", "float-vs-exact"}


def _size(rng: random.Random, small: tuple[int, int], huge: tuple[int, int]) -> int:
    """Small (runs), near the limit, or absurd, with equal chances."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.randint(*small)
    if kind == 1:
        return rng.randint(small[1], max(small[1] + 1, small[1] * 8))
    return rng.choice([10 ** rng.randint(*huge), 2 ** rng.randint(20, 64) - 1])


def _sep_rank(rng: random.Random, tmp: Path) -> list[str]:
    args = ["sep-rank", "-L", str(_size(rng, (1, 3), (2, 9))), "--width",
            str(_size(rng, (1, 4), (2, 7))), "-N", str(_size(rng, (2, 4), (3, 9)))]
    pick = rng.randrange(4)
    if pick == 0:
        args += ["--route", rng.choice(["coefficient", "grid"])]
    elif pick == 1:
        args = ["sep-rank", "-L", str(_size(rng, (1, 2), (2, 9))), "--width", "2", "-N",
                str(_size(rng, (2, 3), (2, 6))), "--embedding", "vocabulary", "--vocab",
                str(_size(rng, (2, 4), (3, 9))), "--emb-rank", str(_size(rng, (1, 3), (3, 9)))]
    elif pick == 2:
        args = ["sep-rank", "-L", "1", "--width", "2", "-N", str(_size(rng, (2, 3), (2, 6))),
                "--embedding", "convolution", "--patch", str(_size(rng, (1, 3), (2, 9)))]
    else:
        args += ["--weights", rng.choice(["/dev/zero", str(tmp)])]
    return args


def _npy_header(tmp: Path, m: int, n: int) -> Path:
    """A .npy whose header claims m x n int64 (sparse on disk: nothing behind it; past what
    the file system holds, a file shorter than its header says)."""
    f = tmp / f"h{m}x{n}.npy"
    head = {"descr": "<i8", "fortran_order": False, "shape": (m, n)}
    with open(f, "wb") as fh:
        np.lib.format.write_array_header_1_0(fh, head)
        try:
            fh.truncate(fh.tell() + min(m * n * 8, 2**40))
        except (OSError, OverflowError):
            pass
    return f


def _rank(rng: random.Random, tmp: Path) -> list[str]:
    pick = rng.randrange(3)
    if pick == 0:
        m, n = _size(rng, (2, 50), (4, 6)), _size(rng, (2, 50), (4, 6))
        return ["rank", str(_npy_header(tmp, m, n)), "--method",
                rng.choice(["auto", "exact", "modular", "float"])]
    if pick == 1:
        n = rng.randint(1, 400)
        f = tmp / f"m{n}.npy"
        np.save(f, np.random.default_rng(rng.randrange(2**32)).integers(-3, 4, size=(n, n)))
        return ["rank", str(f), "--method", rng.choice(["auto", "exact", "multimodular"])]
    return ["rank", rng.choice(["/dev/zero", str(tmp)])]


def _others(rng: random.Random, tmp: Path) -> list[str]:
    pick = rng.randrange(5)
    if pick == 0:
        return ["grid-rank", "-L", str(_size(rng, (1, 2), (2, 9))), "--width",
                str(_size(rng, (1, 3), (2, 6))), "-M", str(_size(rng, (2, 8), (3, 9))), "-N",
                str(2 * _size(rng, (1, 2), (1, 4)))]
    if pick == 1:
        return ["lemma6", "-L", str(_size(rng, (2, 3), (1, 9))), "--half",
                str(_size(rng, (1, 3), (2, 9))), "-N", str(2 * _size(rng, (1, 2), (1, 6)))]
    if pick == 2:
        return ["hadamard-rank", rng.choice(["--omega", "--equal-norm"]),
                str(_size(rng, (2, 3), (1, 4))), str(_size(rng, (1, 3), (1, 4)))]
    if pick == 3:
        return ["float-vs-exact", "--out", str(tmp / f"fve{rng.randrange(10**6)}"), "--d",
                f"2:{_size(rng, (2, 3), (1, 3))}", "--lam", f"2:{_size(rng, (2, 4), (1, 3))}",
                "--max-n", str(_size(rng, (10, 200), (3, 9))), "--no-plot"]
    spec = tmp / f"s{rng.randrange(10**6)}.toml"
    top = _size(rng, (2, 4), (5, 11))
    spec.write_text(f'computation = "hadamard_rank"\n[parameters]\nd = {{from = 2, to = {top}}}\n'
                    f'lam = {{from = 1, to = {_size(rng, (1, 3), (3, 11))}}}\n')
    return ["sweep", str(spec), "--dry-run"]


def cases(seed: int, tmp: Path) -> list[list[str]]:
    """The campaign's command lines (seeded)."""
    rng = random.Random(seed)
    makers = (_sep_rank, _rank, _others)
    out = []
    for _ in range(CASES):
        args = rng.choice(makers)(rng, tmp)
        if args[0] in _BUDGETED:
            args += ["--max-seconds", MAX_SECONDS]
        out.append(args)
    return out


def _limit():  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


def _children_cpu() -> float:
    """CPU seconds (user and system) of the waited-for children of this process so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], trace: Path) -> dict:
    """Run one case; its status, stderr, seconds and the estimates its trace recorded."""
    trace.unlink(missing_ok=True)
    code = "import sys; from seprank.cli import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ, SEPRANK_BUDGET_TRACE=str(trace))
    t0, cpu0 = time.perf_counter(), _children_cpu()
    try:
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, timeout=TIMEOUT, preexec_fn=_limit, env=env)
        status, err = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired:
        status, err = "timeout", ""
    seconds = min(time.perf_counter() - t0, _children_cpu() - cpu0)
    steps = {}
    if trace.exists():
        for line in trace.read_text().splitlines():
            entry = json.loads(line)
            steps[entry["what"]] = entry["seconds"]  # the last check of each step
    return {"status": status, "stderr": err, "seconds": seconds,
            "estimate": sum(steps.values())}


@pytest.fixture(scope="module")
def startup(tmp_path_factory) -> float:
    """Seconds of a trivial command here (interpreter, imports, the CLI): the allowance."""
    f = tmp_path_factory.mktemp("start") / "m.json"
    f.write_text("[[1, 2], [2, 4]]")
    return min(run(["rank", str(f)], f.with_suffix(".trace"))["seconds"] for _ in range(2))


def test_campaign(tmp_path, startup):
    """Every case: no traceback, nothing killed, one-line refusals, time within 2x estimate."""
    trace = tmp_path / "trace.jsonl"
    problems, refused, ran = [], 0, 0
    for args in cases(2026_11_24, tmp_path):
        r = run(args, trace)
        line = " ".join(args)
        if r["status"] == "timeout" or not isinstance(r["status"], int) or r["status"] < 0:
            problems.append(f"killed ({r['status']}): {line}")
            continue
        if "Traceback" in r["stderr"]:
            problems.append(f"traceback: {line}: {r['stderr'][-300:]}")
        if r["status"] == 2:
            refused += 1
            lines = r["stderr"].strip().splitlines()
            if len(lines) != 1 or not lines[0].startswith("seprank: error: "):
                problems.append(f"refusal not one line: {line}: {r['stderr'][-300:]}")
        elif r["status"] in (0, 1):
            ran += 1
        else:
            problems.append(f"exit {r['status']}: {line}")
        allowed = 2 * r["estimate"] + 3 * startup + 1.0
        if r["seconds"] > allowed:
            problems.append(f"{r['seconds']:.1f} s > 2 x its estimate {r['estimate']:.2f} s + "
                            f"start-up: {line}")
    print(f"campaign: {CASES} cases, {ran} ran, {refused} refused, {len(problems)} problems")
    assert not problems, "\n".join(problems)
