"""Every bad input gets a clear one-line error, at the API and at the command line."""

import json
import subprocess
import sys

import numpy as np
import pytest

import seprank
from seprank.cli import main
from seprank.errors import InputError, MemoryLimitError, NotPrimeError, ParameterError


@pytest.mark.parametrize("matrix, words", [
    ([1, 2, 3], "2-dimensional"),
    (np.zeros((2, 2, 2), dtype=np.int64), "2-dimensional"),
    ([[1, 2], [3]], "ragged"),
    ([[1, "a"], [3, 4]], "not an integer"),
    ([[1, None]], "not an integer"),
    ([[1.5, 2], [3, 4]], "float"),
    (np.array([[1.0, 2.0]]), "float"),
    ([[float("nan"), 1]], "NaN"),
    (np.array([[np.inf, 1.0]]), "NaN"),
    ([[True, 1]], "bool"),
    (np.array([[1 + 2j]]), "complex"),
    ("not a matrix", "cannot read"),
])
def test_bad_matrices_exact(matrix, words):
    with pytest.raises(InputError, match=words):
        seprank.rank(matrix, "exact")


@pytest.mark.parametrize("matrix, words", [
    ([[1, "a"]], "not an integer, a fraction p/q or a decimal"),
    ([[float("inf"), 1.0]], "NaN"),
    ([[10**400, 1]], "too large"),
])
def test_bad_matrices_float(matrix, words):
    with pytest.raises(InputError, match=words):
        seprank.rank(matrix, "float")


@pytest.mark.parametrize("prime", [4, 1, 0, -7, 2**64 + 13, 7.0])
def test_not_a_prime(prime):
    with pytest.raises(NotPrimeError):
        seprank.rank([[1]], "modular", prime=prime)


def test_bad_parameters():
    with pytest.raises(ParameterError, match="unknown method"):
        seprank.rank([[1]], "magic")
    with pytest.raises(ParameterError, match="cannot be certified"):
        seprank.rank([[1.0]], "float", certify=True)
    with pytest.raises(ParameterError, match="tol"):
        seprank.rank([[1]], "exact", tol=1e-3)


def test_memory_guard_before_allocating(monkeypatch):
    import seprank.budget as budget  # the machine's memory, as every budget reads it

    monkeypatch.setattr(budget, "machine_memory", lambda: (1000, "free memory"))
    with pytest.raises(MemoryLimitError, match="needs about"):
        seprank.rank(np.zeros((100, 100), dtype=np.int64))


# --- the command line -------------------------------------------------------------------------


def run_cli(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_rank_formats(tmp_path, capsys):
    a = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1]], dtype=np.int64)
    np.save(tmp_path / "a.npy", a)
    (tmp_path / "a.json").write_text(json.dumps([[1, 2, 3], ["2", "4", "6"], [0, "1/2", "1/2"]]))
    (tmp_path / "a.txt").write_text("# a comment\n1 2 3\n2 4 6\n0 1/3 1/3\n")
    for name in ("a.npy", "a.json", "a.txt"):
        code, out, err = run_cli(["rank", str(tmp_path / name)], capsys)
        assert code == 0, err
        assert out.splitlines()[0] == "2 exact"
    code, out, _ = run_cli(["rank", str(tmp_path / "a.npy"), "--certify", "--json"], capsys)
    data = json.loads(out)
    assert data["kind"] == "exact" and data["certificate_verified"] is True


@pytest.mark.parametrize("content, suffix, words", [
    ("1 2\n3\n", ".txt", "ragged"),
    ("1 x\n", ".txt", "not an integer"),
    ("1 nan\n", ".txt", "NaN"),
    ("1 0.5\n", ".txt", "decimal"),
    ("[1, 2]", ".json", "2-dimensional"),
    ("[[1, 2], [3]]", ".json", "ragged"),
    ("[[1, 2.5]]", ".json", "float"),
    ("[[1, [2]]]", ".json", "2-dimensional"),
    ("{not json", ".json", "not valid JSON"),
    ("[[1, \"1/0\"]]", ".json", "divides by zero"),
])
def test_cli_bad_files(tmp_path, capsys, content, suffix, words):
    path = tmp_path / f"m{suffix}"
    path.write_text(content)
    code, out, err = run_cli(["rank", str(path)], capsys)
    assert code == 2
    assert err.startswith("seprank: error:") and words in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_bad_npy(tmp_path, capsys):
    np.save(tmp_path / "obj.npy", np.array([[1, "x"]], dtype=object), allow_pickle=True)
    np.save(tmp_path / "f.npy", np.array([[1.5, 2.0]]))
    np.save(tmp_path / "v.npy", np.array([1, 2, 3]))
    (tmp_path / "junk.npy").write_bytes(b"not numpy")
    for name, words in [("obj.npy", "unpickles"), ("f.npy", "not an integer"),
                        ("v.npy", "2-dimensional"), ("junk.npy", "not a readable"),
                        ("missing.npy", "no such file")]:
        code, _, err = run_cli(["rank", str(tmp_path / name)], capsys)
        assert code == 2 and words in err, (name, err)
    code, out, _ = run_cli(["rank", str(tmp_path / "f.npy"), "--method", "float"], capsys)
    assert code == 0 and "float_estimate" in out


def test_cli_bad_prime_and_huge_file(tmp_path, capsys, monkeypatch):
    (tmp_path / "a.txt").write_text("1 2\n3 4\n")
    code, _, err = run_cli(["rank", str(tmp_path / "a.txt"), "--method", "modular",
                            "--prime", "91"], capsys)
    assert code == 2 and "91 is not prime" in err
    import seprank.budget as budget

    monkeypatch.setattr(budget, "machine_memory", lambda: (10, "free memory"))
    code, _, err = run_cli(["rank", str(tmp_path / "a.txt")], capsys)
    assert code == 2 and "memory" in err


def test_cli_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "seprank.cli", "prove", "--list"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "L-Omega" in out.stdout
