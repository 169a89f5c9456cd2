"""Nothing outside the named outputs ever changes (issue 14).

Each test here failed before the change that it guards: ``--json /dev/null``
replaced /dev/null by a regular file (as root); ``seprank prove`` wrote
``seprank-report.json``, ``.md`` and a figures folder into the current
directory; ``sweep --dry-run`` rewrote two header bytes of a committed store.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from seprank.cli import main
from seprank.errors import OutputError
from seprank.files.output_files import write_bytes, write_text

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "docs" / "sweeps" / "hadamard_omega.sqlite"
SPEC = ROOT / "docs" / "sweeps" / "hadamard_omega.toml"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- the writer ----------------------------------------------------------------------------

def test_regular_file_is_replaced_atomically_with_its_mode(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old")
    target.chmod(0o640)
    write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # no temporary left


def test_device_is_written_in_place_not_replaced():
    before = os.stat(os.devnull)
    write_text(os.devnull, "x" * 1000)
    after = os.stat(os.devnull)
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_dev) == (before.st_ino, before.st_dev)


def test_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_text(fifo, "through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.md"]


def test_symlink_is_refused_and_its_target_untouched(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "report.json"
    link.symlink_to(target)
    with pytest.raises(OutputError, match="symbolic link"):
        write_text(link, "clobber")
    assert target.read_text() == "keep me" and link.is_symlink()
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(OutputError, match="symbolic link"):
        write_bytes(dangling, b"x")
    assert not (tmp_path / "nowhere").exists()


def test_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match="folder"):
        write_text(tmp_path, "x")


# -- seprank prove's outputs ----------------------------------------------------------------

def _prove(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return main(["prove", "L-Lemma4", "--no-deps", "--quiet", *argv])


def test_prove_writes_one_report_folder(tmp_path, monkeypatch):
    assert _prove([], tmp_path, monkeypatch) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["seprank-report"]
    names = {p.name for p in (tmp_path / "seprank-report").iterdir()}
    assert {"report.json", "report.md", "report.html"} <= names <= {
        "report.json", "report.md", "report.html", "figures"}


def test_prove_no_report_writes_nothing(tmp_path, monkeypatch):
    assert _prove(["--no-report"], tmp_path, monkeypatch) == 0
    assert list(tmp_path.iterdir()) == []


def test_prove_json_to_dev_null_keeps_dev_null(tmp_path, monkeypatch):
    before = os.stat(os.devnull)
    assert _prove(["--no-report", "--json", os.devnull, "--markdown", os.devnull],
                  tmp_path, monkeypatch) == 0
    after = os.stat(os.devnull)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert list(tmp_path.iterdir()) == []


def test_prove_markdown_path_creates_no_figures_folder(tmp_path, monkeypatch):
    assert _prove(["--no-report", "--markdown", "pipe.md"], tmp_path, monkeypatch) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.md"]


def test_prove_json_to_stdout_is_pure_json(tmp_path, monkeypatch, capsysbinary):
    import json

    assert _prove(["--no-report", "--json", "-"], tmp_path, monkeypatch) == 0
    out = capsysbinary.readouterr().out
    assert json.loads(out)["checks"][0]["id"] == "L-Lemma4"


def test_prove_refuses_a_symlinked_output(tmp_path, monkeypatch, capsys):
    (tmp_path / "elsewhere.json").write_text("keep")
    (tmp_path / "r.json").symlink_to(tmp_path / "elsewhere.json")
    assert _prove(["--no-report", "--json", "r.json"], tmp_path, monkeypatch) == 2
    assert (tmp_path / "elsewhere.json").read_text() == "keep"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("seprank: error:")


# -- stores are read without a single byte changing -----------------------------------------

@pytest.fixture
def store_copy(tmp_path):
    copy = tmp_path / "hadamard_omega.sqlite"
    shutil.copy2(STORE, copy)
    return copy


def test_dry_run_leaves_the_store_byte_for_byte(store_copy, capsys):
    before = _digest(store_copy)
    assert main(["sweep", str(SPEC), "--store", str(store_copy), "--dry-run"]) == 0
    assert "tasks" in capsys.readouterr().out
    assert _digest(store_copy) == before
    assert sorted(p.name for p in store_copy.parent.iterdir()) == [store_copy.name]


def test_report_of_a_store_leaves_it_byte_for_byte(store_copy, tmp_path):
    before = _digest(store_copy)
    assert main(["report", str(store_copy), "--markdown", str(tmp_path / "out" / "r.md"),
                 "--html", str(tmp_path / "out" / "r.html")]) == 0
    assert _digest(store_copy) == before
    assert not Path(str(store_copy) + "-wal").exists()
    assert not Path(str(store_copy) + "-shm").exists()

