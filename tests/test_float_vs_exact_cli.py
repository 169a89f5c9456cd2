"""`seprank float-vs-exact` and seprank.float_vs_exact (issue 22, item 2).

Expectations from theory or from what the project documents: the Omega rows
have exact rank ((d, lam)) (levine2020 l.700-712); rank G <= the number of
distinct rows of V and <= ((d, lam)); float64 of the rounded G is wrong on the
Omega rows at (d, lam) = (2, 8), (3, 7), (4, 6) (docs/sweeps/float_vs_exact.md).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from math import comb
from pathlib import Path

import pytest

import seprank
from seprank.errors import OutputError, ParameterError
from seprank.float_vs_exact import check_output_folder, parse_range, run_study

PACKAGE = Path(seprank.__file__).resolve().parent
SOURCE = PACKAGE.parents[1] if (PACKAGE.parents[1] / "pyproject.toml").is_file() else None


def _run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "seprank", "float-vs-exact", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _rows(folder: Path) -> list[dict[str, str]]:
    with open(folder / "float_vs_exact.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def test_end_to_end_omega_grid(tmp_path):
    out = _run("--d", "2:4", "--lam", "6:8", "--out", "study", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""                       # no progress bar off a terminal
    rows = _rows(tmp_path / "study")
    assert {(int(r["d"]), int(r["lam"])) for r in rows} == {(d, lam) for d in (2, 3, 4)
                                                           for lam in (6, 7, 8)}
    for r in rows:
        d, lam = int(r["d"]), int(r["lam"])
        assert int(r["exact_rank"]) == int(r["n"]) == comb(d + lam - 1, lam)   # L-Omega
        assert r["exact_kind"] == "exact" and r["raw_kind"] == "float_estimate"
        assert r["raw_wrong"] == str(int(r["raw_rank"]) != int(r["exact_rank"]))
        for key in ("build_s", "exact_s", "float_raw_s", "float_normalized_s"):
            assert float(r[key]) >= 0
    wrong = {(int(r["d"]), int(r["lam"])) for r in rows if r["raw_wrong"] == "True"}
    assert {(2, 8), (3, 7), (4, 6)} <= wrong      # docs/sweeps/float_vs_exact.md
    assert "WRONG" in out.stdout
    data = json.loads((tmp_path / "study" / "float_vs_exact.json").read_text())
    assert data["summary"]["raw"]["wrong"] == len(wrong)
    assert data["parameters"]["blas_threads"] == 1 and "machine" in data
    assert (tmp_path / "study" / "float_vs_exact.png").read_bytes()[:4] == b"\x89PNG"


def test_user_matrix_family(tmp_path):
    (tmp_path / "V.csv").write_text("1,2,0\n0,1,1\n1,2,0\n2,0,1\n1,1,1\n1,2,0\n")  # 4 distinct
    out = _run("--matrix", "V.csv", "--lam", "1:5", "--out", "mine", "--no-plot", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = _rows(tmp_path / "mine")
    assert [int(r["lam"]) for r in rows] == [1, 2, 3, 4, 5]
    for r in rows:
        assert r["family"] == "file" and int(r["d"]) == 3 and int(r["n"]) == 6
        assert int(r["exact_rank"]) <= min(4, comb(3 + int(r["lam"]) - 1, int(r["lam"])))
    assert not (tmp_path / "mine" / "float_vs_exact.png").exists()


def test_random_family_ranks_stay_below_the_bound():
    study = run_study("random", [2, 3], [1, 2, 3], seed=5, max_n=50)
    for r in study["rows"]:
        assert r["exact_kind"] == "exact" and r["seed"] == 5
        assert r["exact_rank"] <= r["bound"] == comb(r["d"] + r["lam"] - 1, r["lam"])


def test_points_above_max_n_are_left_out_and_listed():
    study = run_study("omega", [2, 8], [2, 6], max_n=100)
    assert [(r["d"], r["lam"]) for r in study["rows"]] == [(2, 2), (2, 6), (8, 2)]
    assert study["skipped"] == [{"d": 8, "lam": 6, "n": 1716, "reason": "n = 1716 > max_n = 100"}]


@pytest.mark.parametrize("args, match", [
    (["--family", "file"], "--matrix FILE"),
    (["--matrix", "text.csv"], "'x' is not an integer"),
    (["--matrix", "V.csv", "--d", "2:3"], "number of columns"),
    (["--d", "5:2"], "FROM must not exceed TO"),
    (["--lam", "0:3"], ">= 1"),
    (["--lam", "a"], "FROM:TO"),
    (["--max-n", "0"], "--max-n: N (the largest number of rows) must be an integer >= 1"),
    (["--rtol", "2"], "rtol"),
])
def test_refusals_are_one_line_exit_2_and_write_nothing(tmp_path, args, match):
    (tmp_path / "text.csv").write_text("1,2\n3,x\n")
    (tmp_path / "V.csv").write_text("1,2\n3,4\n")
    out = _run(*args, "--out", "never", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("seprank: error:") and match in out.stderr
    assert not (tmp_path / "never").exists()


def test_out_inside_the_package_is_refused(tmp_path):
    target = PACKAGE / "fve-results"
    out = _run("--d", "2", "--lam", "2", "--out", str(target), cwd=tmp_path)
    assert out.returncode == 2 and "installed seprank package" in out.stderr
    assert out.stderr.count("\n") == 1 and not target.exists()


@pytest.mark.skipif(SOURCE is None or not (SOURCE / ".git").exists(),
                    reason="seprank is not installed from a git checkout")
def test_out_inside_a_tracked_folder_of_the_source_is_refused(tmp_path):
    for target in (SOURCE / "docs" / "fve-test-out", SOURCE / "benchmarks" / "results",
                   SOURCE):
        out = _run("--d", "2", "--lam", "2", "--out", str(target), cwd=tmp_path)
        assert out.returncode == 2 and "git-tracked" in out.stderr, target
        assert out.stderr.count("\n") == 1
    assert not (SOURCE / "docs" / "fve-test-out").exists()
    # a new top-level folder of the checkout is the user's own: accepted (nothing created)
    assert check_output_folder(SOURCE / "fve-new-top-level") == SOURCE / "fve-new-top-level"
    assert not (SOURCE / "fve-new-top-level").exists()
    with pytest.raises(OutputError):
        check_output_folder(SOURCE / "src" / "x")


def test_parse_range():
    assert parse_range("2:4", "--d") == [2, 3, 4] and parse_range(" 7 ", "--lam") == [7]
    for bad in ("", "1:", "2-4", "0", "3:1", "1.5"):
        with pytest.raises(ParameterError):
            parse_range(bad, "--d")


def test_sweep_computation_keeps_the_times():
    from seprank.sweep.computations import float_vs_exact

    r = float_vs_exact(2, 8)                       # the same function as the command
    assert set(r["times"]) == {"build_s", "exact_s", "float_raw_s", "float_normalized_s"}
    assert r["raw"]["wrong"] is True and r["exact"]["value"] == 9   # docs, L-Omega


def test_zero_rows_are_normalized_as_zero():
    # a zero row of U gives a zero row of G; normalizing it must not produce NaN
    from seprank.float_vs_exact import compare_ranks

    r = compare_ranks([[0, 0], [1, 2], [2, 1]], 2)
    assert r["exact"]["value"] == 2 == r["normalized"]["value"]
    assert r["normalized"]["wrong"] is False
