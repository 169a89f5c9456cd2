"""Sweeps: specs, the store's guarantees, and runs on a real 2-worker Dask cluster.

Expected ranks come from the theory, not from the code under test: for the
Omega family with Omega = 2 the Gram Hadamard power is nonsingular
(levine2020 A.3; check L-Omega), so its rank is ((d, lam)) = C(d+lam-1, lam);
each value is also recomputed here with python-flint's ``fmpz_mat.rank``.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import flint
import pytest

from seprank.cli import main
from seprank.constructions.omega import omega_rows
from seprank.errors import InputError, ParameterError
from seprank.sweep import ResultStore, Task, load_spec, run_sweep, spec_from_dict, task_key
from seprank.sweep.computations import execute
from seprank.sweep.runner import local_cluster, plan
from seprank.sweep.store import code_version

GRID = {"computation": "hadamard_rank",
        "parameters": {"d": [2, 3], "lam": {"from": 1, "to": 4}}}


def _flint_rank(d: int, lam: int) -> int:
    U = flint.fmpz_mat(omega_rows(d, lam, 2))
    G = U * U.transpose()
    H = flint.fmpz_mat([[x ** lam for x in row] for row in G.tolist()])
    return H.rank()


def _check_store(path: Path, n_tasks: int) -> list:
    with ResultStore(path, create=False) as store:
        rows = list(store.rows())
    assert len(rows) == n_tasks
    assert len({r.key for r in rows}) == n_tasks
    assert len({(r.params["d"], r.params["lam"]) for r in rows}) == n_tasks
    for r in rows:
        assert r.status == "done", r.error
        d, lam = r.params["d"], r.params["lam"]
        assert r.result["value"] == comb(d + lam - 1, lam) == _flint_rank(d, lam)
        assert r.result["kind"] == "exact" and r.result["field"] == "QQ"
    # Independent of our reader: the SQLite primary key admits one row per task.
    with sqlite3.connect(path) as conn:
        dup = conn.execute("SELECT key, COUNT(*) c FROM tasks GROUP BY key HAVING c > 1").all() \
            if hasattr(conn, "all") else conn.execute(
                "SELECT key, COUNT(*) c FROM tasks GROUP BY key HAVING c > 1").fetchall()
    assert dup == []
    return rows


# ------------------------------------------------------------------ specs

def test_spec_grid_expansion_order():
    spec = spec_from_dict(GRID)
    tasks = spec.tasks()
    assert spec.size() == len(tasks) == 8
    assert [(t.params["d"], t.params["lam"]) for t in tasks[:5]] == \
        [(2, 1), (2, 2), (2, 3), (2, 4), (3, 1)]
    assert tasks[0].params["family"] == "omega"  # defaults filled in


def test_spec_toml_and_yaml_agree(tmp_path):
    (tmp_path / "a.toml").write_text(
        'computation = "hadamard_rank"\nstore = "out/a.sqlite"\n'
        '[parameters]\nd = [2, 3]\nlam = {from = 1, to = 4}\n')
    (tmp_path / "b.yaml").write_text(
        "computation: hadamard_rank\nparameters:\n  d: [2, 3]\n  lam: {from: 1, to: 4}\n")
    a, b = load_spec(tmp_path / "a.toml"), load_spec(tmp_path / "b.yaml")
    assert [t.params for t in a.tasks()] == [t.params for t in b.tasks()]
    assert a.store == tmp_path / "out" / "a.sqlite"
    assert b.store == tmp_path / "b.sqlite"


@pytest.mark.parametrize("data, message", [
    ({"computation": "nope"}, "unknown computation"),
    ({"parameters": {}}, "names no computation"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2}}, "needs the parameters"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": 1, "x": 3}},
     "takes no parameter 'x'"),
    ({"computation": "hadamard_rank", "parameters": {"d": [], "lam": 1}}, "empty list"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": {"from": 3, "to": 1}}},
     "from <= to"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": {"start": 1}}},
     "a range is written"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": ["2"]}},
     "lam\\[0\\]: expected an integer"),
    ({"computation": "hadamard_rank", "parameters": {"d": 0, "lam": 1}}, ">= 1"),
    ({"computation": "check", "parameters": {"id": "Z-Nothing"}}, "no proof check"),
    ({"computation": "grid_rank", "parameters": {"depth": 1, "width": 2, "residual": 1}},
     "true or false"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": 1}, "extra": 1},
     "unknown top-level"),
    ({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": 1, "delay_s": -1}},
     "delay_s"),
])
def test_spec_errors_name_the_problem(data, message):
    with pytest.raises(ParameterError, match=message):
        spec_from_dict(data)


@pytest.mark.parametrize("name, text, message", [
    ("s.toml", "computation = \n", "not valid TOML"),
    ("s.yaml", "computation: [unclosed\n", "not valid YAML"),
    ("s.json", "{}", "use a .toml"),
    ("s.yaml", "- just\n- a list\n", "table"),
])
def test_spec_file_errors(tmp_path, name, text, message):
    (tmp_path / name).write_text(text)
    with pytest.raises(InputError, match=message):
        load_spec(tmp_path / name)


def test_missing_spec_file(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        load_spec(tmp_path / "absent.toml")


# ------------------------------------------------------------------ store

def test_store_keeps_a_done_row_and_replaces_a_failed_one(tmp_path):
    t = Task("hadamard_rank", {"d": 2, "lam": 1})
    with ResultStore(tmp_path / "s.sqlite") as store:
        assert store.record("k", t, "v", "failed", error="boom")
        assert store.record("k", t, "v", "done", result={"value": 2})
        assert not store.record("k", t, "v", "done", result={"value": 99})
        assert not store.record("k", t, "v", "failed", error="late")
        [row] = list(store.rows())
    assert row.status == "done" and row.result == {"value": 2} and row.attempts == 2


def test_store_refuses_foreign_files(tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE x (a)")
    with pytest.raises(InputError, match="not a seprank sweep store"):
        ResultStore(other)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(InputError, match="not a seprank sweep store"):
        ResultStore(junk)
    with pytest.raises(InputError, match="no sweep store"):
        ResultStore(tmp_path / "absent.sqlite", create=False)


def test_task_key_depends_on_params_and_version():
    a = Task("hadamard_rank", {"d": 2, "lam": 1})
    assert task_key(a, "v1") == task_key(Task("hadamard_rank", {"lam": 1, "d": 2}), "v1")
    assert task_key(a, "v1") != task_key(a, "v2")
    assert task_key(a, "v1") != task_key(Task("hadamard_rank", {"d": 2, "lam": 2}), "v1")


def test_execute_reports_failures_without_raising():
    out = execute("hadamard_rank", {"d": 2, "lam": 1, "method": "nonsense"})
    assert out["status"] == "failed" and "method" in out["error"]
    assert out["code_version"] == code_version()


def test_hadamard_rank_large_path_is_honest_about_kind():
    # Above exact_max_n the matrix is built mod p: full rank mod p is exact over Q.
    from seprank.sweep.computations import hadamard_rank

    r = hadamard_rank(3, 3, exact_max_n=0)
    assert r["built"] == "direct builder mod p"
    assert (r["value"], r["kind"], r["field"]) == (10, "exact", "QQ")
    # A rank-deficient random family (more rows than ((d, lam))): mod p the rank is
    # only a lower bound, and must say so.
    r = hadamard_rank(2, 2, family="random", rows=7, exact_max_n=0, seed=3)
    assert r["value"] <= 3 and r["kind"] == "lower_bound"


# ------------------------------------------------------------------ runs on Dask

@pytest.fixture(scope="module")
def cluster_client():
    from distributed import Client

    cluster = local_cluster(2)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_sweep_resumes_after_the_client_stops(tmp_path, cluster_client):
    spec = spec_from_dict(GRID)
    store = tmp_path / "s.sqlite"

    class Stop(Exception):
        pass

    seen = []

    def stop_after_three(key, outcome):
        seen.append(key)
        if len(seen) == 3:
            raise Stop

    with pytest.raises(Stop):
        run_sweep(spec, store=store, client=cluster_client, progress=False,
                  on_result=stop_after_three)
    with ResultStore(store) as db:
        assert db.counts() == {"done": 3}
        todo, skipped = plan(spec, db)
    assert (len(todo), skipped) == (5, 3)
    summary = run_sweep(spec, store=store, client=cluster_client, progress=False)
    assert (summary.skipped, summary.done, summary.failed) == (3, 5, 0) and summary.complete
    _check_store(store, 8)
    again = run_sweep(spec, store=store, client=cluster_client, progress=False)
    assert (again.skipped, again.done) == (8, 0)


def test_sweep_on_an_existing_scheduler(tmp_path, cluster_client):
    address = cluster_client.scheduler.address
    spec = spec_from_dict({"computation": "hadamard_rank",
                           "parameters": {"d": 3, "lam": [1, 2, 3]}})
    summary = run_sweep(spec, store=tmp_path / "s.sqlite", scheduler=address, progress=False)
    assert summary.complete and summary.done == 3 and summary.workers == 2
    with ResultStore(tmp_path / "s.sqlite") as db:
        assert sorted(r.result["value"] for r in db.rows()) == [3, 6, 10]


def test_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    import seprank.runtime.cluster as cluster

    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", "1s")
    spec = spec_from_dict({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": 1}})
    with pytest.raises(ParameterError, match="cannot reach the Dask scheduler"):
        run_sweep(spec, store=tmp_path / "s.sqlite", scheduler="tcp://127.0.0.1:9",
                  progress=False)


def test_killing_a_worker_mid_sweep_loses_nothing(tmp_path, cluster_client):
    """The issue's scenario: 2-worker LocalCluster, a worker killed mid-run, the run
    stopped, resumed, and the store holding every task once with the right rank."""
    client = cluster_client
    client.wait_for_workers(2, timeout=60)
    data = {"computation": "hadamard_rank",
            "parameters": {"d": [2, 3], "lam": {"from": 1, "to": 4}, "delay_s": 0.8}}
    spec = spec_from_dict(data)
    store = tmp_path / "kill.sqlite"
    killed, results = {}, []

    class Stop(Exception):
        pass

    def kill_then_stop(key, outcome):
        results.append(key)
        if not killed:
            for addr, keys in client.processing().items():
                if keys:
                    pid = client.run(os.getpid, workers=[addr])[addr]
                    os.kill(pid, signal.SIGKILL)
                    killed.update(addr=addr, pid=pid, running=list(keys))
                    break
        if len(results) == 5:
            raise Stop

    with pytest.raises(Stop):
        run_sweep(spec, store=store, client=client, progress=False, on_result=kill_then_stop)
    assert killed, "no worker was busy when the first result came back"
    with ResultStore(store) as db:
        assert db.counts() == {"done": 5}
    client.wait_for_workers(2, timeout=60)  # the nanny has restarted the killed worker
    summary = run_sweep(spec, store=store, client=client, progress=False)
    assert (summary.skipped, summary.done, summary.failed) == (5, 3, 0), summary.failures
    rows = _check_store(store, 8)
    # The tasks that were running on the killed worker finished somewhere else.
    assert all(r.worker != f"pid {killed['pid']}" for r in rows
               if any(r.key in k for k in killed["running"]))


def test_cli_sweep_survives_a_hard_kill_and_resumes(tmp_path):
    spec = tmp_path / "cli.toml"
    spec.write_text('computation = "hadamard_rank"\n[parameters]\nd = [2, 3]\n'
                    'lam = {from = 1, to = 4}\ndelay_s = 0.6\n')
    store = tmp_path / "cli.sqlite"
    cmd = [sys.executable, "-m", "seprank.cli", "sweep", str(spec), "--workers", "2",
           "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        done = 0
        while time.time() < deadline and proc.poll() is None:
            if store.exists():
                try:
                    with ResultStore(store, create=False) as db:
                        done = db.counts().get("done", 0)
                except InputError:  # the client has not created its tables yet
                    done = 0
                if done >= 2:
                    break
            time.sleep(0.1)
        assert proc.poll() is None and done >= 2, "sweep ended before it could be killed"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the client and its cluster, at once
        proc.wait(timeout=30)
    with ResultStore(store, create=False) as db:
        before = db.counts().get("done", 0)
    assert 2 <= before < 8
    assert main(["sweep", str(spec), "--workers", "2", "--no-progress"]) == 0
    _check_store(store, 8)
    # The report reads the store.
    assert main(["report", str(store)]) == 0
    text = (tmp_path / "cli.md").read_text()
    assert "| 3 | 4 | 15 | exact | 15 | True |" in text


def test_cli_sweep_errors_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('computation = "hadamard_rank"\n[parameters]\nd = 2\n')
    assert main(["sweep", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("seprank: error:") and "needs the parameters ['lam']" in err
    assert "Traceback" not in err
    assert main(["sweep", str(tmp_path / "nope.toml")]) == 2
    assert main(["report", str(bad)]) == 2


def test_cli_sweep_refuses_bad_cluster_options(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text('computation = "hadamard_rank"\n[parameters]\nd = 2\nlam = 1\n')
    for args, said in ((["--workers", "0"], "--workers: N (the number of workers) must be "
                        "an integer >= 1, got 0"),
                       (["--retries", "-1"], "--retries: N (the number of retries) must be "
                        "an integer >= 0, got -1")):
        with pytest.raises(SystemExit) as exc:       # refused while the command is read
            main(["sweep", str(spec), *args])
        assert exc.value.code == 2 and said in capsys.readouterr().err
    assert not (tmp_path / "s.sqlite").exists()  # refused before the store is made


def test_cli_dry_run(tmp_path, capsys):
    spec = tmp_path / "d.yaml"
    spec.write_text("computation: check\nparameters:\n  id: [L-Lemma4, L-Omega]\n")
    assert main(["sweep", str(spec), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "check: 2 tasks, 0 already done" in out and 'id="L-Omega"' in out


def test_float_vs_exact_labels_and_judges_float_ranks():
    from seprank.sweep.computations import float_vs_exact

    r = float_vs_exact(2, 8)  # n = ((2, 8)) = 9, nonsingular (L-Omega): exact rank 9
    assert (r["n"], r["exact"]["value"], r["exact"]["kind"]) == (9, 9, "exact")
    for variant in ("raw", "normalized"):
        f = r[variant]
        assert f["kind"] == "float_estimate"
        assert f["wrong"] == (f["value"] != 9)
    with pytest.raises(ParameterError, match="max_n"):
        float_vs_exact(7, 8, max_n=100)


def test_grid_points_a_computation_leaves_out_are_reported(tmp_path):
    spec = spec_from_dict({"computation": "float_vs_exact",
                           "parameters": {"d": 2, "lam": [2, 3, 40], "max_n": 10}})
    assert [t.params["lam"] for t in spec.tasks()] == [2, 3]
    [(params, reason)] = spec.skipped()
    assert params["lam"] == 40 and "max_n = 10" in reason


def test_report_of_a_float_store_draws_the_map(tmp_path):
    from seprank.sweep.computations import execute
    from seprank.sweep.report import write_sweep_report

    store = tmp_path / "f.sqlite"
    with ResultStore(store) as db:
        for lam in (2, 8):
            t = Task("float_vs_exact", {"d": 2, "lam": lam})
            out = execute(t.computation, t.params)
            db.record(task_key(t), t, "v", out["status"], result=out["result"])
    md, page = write_sweep_report(store, tmp_path / "f.md", tmp_path / "f.html")
    assert (tmp_path / "f-plot.png").stat().st_size > 1000
    assert "float64 raw" in md.read_text() and "data:image/png;base64" in page.read_text()


def test_ctrl_c_stops_cleanly_without_worker_tracebacks(tmp_path):
    """Ctrl-C at a terminal reaches the whole process group: only the client may speak."""
    spec = tmp_path / "ctrlc.toml"
    spec.write_text('computation = "hadamard_rank"\n[parameters]\nd = [2, 3]\n'
                    'lam = {from = 1, to = 4}\ndelay_s = 1.0\n')
    store = tmp_path / "ctrlc.sqlite"
    cmd = [sys.executable, "-m", "seprank.cli", "sweep", str(spec), "--workers", "2"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 120
        done = 0
        while time.time() < deadline and proc.poll() is None:
            if store.exists():
                try:
                    with ResultStore(store, readonly=True) as db:
                        done = db.counts().get("done", 0)
                except (InputError, sqlite3.OperationalError):  # tables not created yet
                    done = 0
                if done >= 2:
                    break
            time.sleep(0.1)
        assert proc.poll() is None and done >= 2, "sweep ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    err = err.decode()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "rerun the same command to resume" in err
    assert main(["sweep", str(spec), "--workers", "2", "--no-progress"]) == 0
    _check_store(store, 8)


def test_running_count_is_capped_by_worker_threads():
    from seprank.sweep.runner import _running_count

    class FakeClient:  # Dask's worker-saturation queues ~1.1 x threads per worker
        def processing(self):
            return {"w1": ["a", "b"], "w2": ["c", "d", "other"]}

        def nthreads(self):
            return {"w1": 1, "w2": 2}

    assert _running_count(FakeClient(), {"a", "b", "c", "d"}) == 3
