"""Every CLI file reader: one-line errors (exit 2), exact big integers, memory checked first.

The named cases each ended in a traceback or a misleading message before
(issue 14): JSON nested 100000 deep (RecursionError), a ``.npy`` cut short
after its header, a ``.npy`` header with shape (-1, 5), integers of more than
4300 digits ("is a decimal number", "not valid JSON"), and a 20000 x 20000
int64 ``.npy`` that was loaded (12.6 GB) before it was refused.

The fuzzers at the end mutate well-formed files the way broken files break:
truncation, header edits, nesting, huge numbers. ``SEPRANK_FUZZ`` scales them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seprank.cli import main
from seprank.errors import InputError, SeprankError
from seprank.files.matrix_io import load_matrix, read_json

from .reference import rank_q

_FUZZ = os.environ.get("SEPRANK_FUZZ", "")
CAMPAIGN = int(_FUZZ) if _FUZZ.isdigit() and int(_FUZZ) > 1 else (20 if _FUZZ == "1" else 1)
BIG = 10**5000 + 7  # 5001 digits: past Python's 4300-digit limit for int(str)


def _cli(path, capsys, *extra) -> tuple[int, list[str], str]:
    status = main(["rank", str(path), *extra])
    out = capsys.readouterr()
    return status, out.err.strip().splitlines(), out.out


def _one_line_error(status, err):
    assert status == 2, err
    assert len(err) == 1 and err[0].startswith("seprank: error:"), err


def test_deeply_nested_json_is_one_line(tmp_path, capsys):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100000 + "]" * 100000)
    status, err, _ = _cli(f, capsys)
    _one_line_error(status, err)
    assert "nested too deeply" in err[0]


def test_truncated_npy_is_one_line(tmp_path, capsys):
    f = tmp_path / "m.npy"
    np.save(f, np.arange(12, dtype=np.int64).reshape(3, 4))
    data = f.read_bytes()
    f.write_bytes(data[:len(data) - 8])  # the header is whole, the last entry is missing
    status, err, _ = _cli(f, capsys)
    _one_line_error(status, err)
    assert "truncated" in err[0]


@pytest.mark.parametrize("bad", [b"(-1, 5)", b"(2.5, 5)", b"(2, 5, 'x')", b"((2,), 5)"])
def test_npy_header_with_a_bad_shape_is_one_line(tmp_path, capsys, bad):
    f = tmp_path / "m.npy"
    np.save(f, np.arange(10, dtype=np.int64).reshape(2, 5))
    data = f.read_bytes()
    edited = data.replace(b"(2, 5)", bad.ljust(6))
    if len(bad) > 6:  # keep the header length: eat spaces of the padding
        head_end = edited.index(b"\n")
        edited = edited[:head_end - (len(bad) - 6)] + edited[head_end:]
    f.write_bytes(edited)
    status, err, _ = _cli(f, capsys)
    _one_line_error(status, err)


@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_integers_beyond_4300_digits_are_exact(tmp_path, capsys, suffix):
    f = tmp_path / f"m{suffix}"
    rows = [[BIG, 1], [2 * BIG, 2]]  # rank 1: row 2 = 2 x row 1
    if suffix == ".json":
        f.write_text(f"[[{str_big(BIG)}, 1], [{str_big(2 * BIG)}, 2]]")
    else:
        f.write_text(f"{str_big(BIG)} 1\n{str_big(2 * BIG)} 2\n")
    assert load_matrix(f) == rows
    status, err, out = _cli(f, capsys)
    assert status == 0, err
    assert out.splitlines()[0] == "1 exact"


def test_big_fraction_in_text_is_exact(tmp_path):
    f = tmp_path / "m.txt"
    f.write_text(f"{str_big(BIG)}/3 1\n")
    assert load_matrix(f) == [[Fraction(BIG, 3), 1]]


def str_big(n: int) -> str:
    """Decimal digits of n without Python's str() digit limit (via python-flint)."""
    import flint

    return str(flint.fmpz(n))


def test_huge_npy_is_refused_from_its_header_before_loading(tmp_path):
    """A 100000 x 100000 int64 file (sparse on disk, 80 GB by its header) is refused fast,
    without allocating it."""
    f = tmp_path / "huge.npy"
    header_probe = tmp_path / "probe.npy"
    np.save(header_probe, np.zeros((1, 1), dtype=np.int64))
    head = header_probe.read_bytes()[:-8].replace(b"(1, 1)", b"(100000, 100000)")
    # fix the header length field's padding: drop as many spaces as were added
    nl = head.index(b"\n", 10)
    head = head[:nl - 10] + head[nl:]
    with open(f, "wb") as fh:
        fh.write(head)
        fh.truncate(len(head) + 100000 * 100000 * 8)  # sparse: no disk blocks
    # the peak of this process's own memory (VmHWM): ru_maxrss would also count the
    # resident size of the pytest process that spawned it (Linux keeps it across exec)
    code = ("from seprank.cli import main\n"
            f"status = main(['rank', {str(f)!r}])\n"
            "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM:')]\n"
            "print(status, hwm[0].split()[1])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    status, maxrss_kib = proc.stdout.split()
    assert status == "2", proc.stderr
    assert proc.stderr.strip().startswith("seprank: error:") and "needs about" in proc.stderr
    assert int(maxrss_kib) < 1_000_000  # far below the 3.2 GB of the array itself


def test_read_json_refuses_a_folder_and_a_missing_file(tmp_path):
    with pytest.raises(InputError, match="folder"):
        read_json(tmp_path)
    with pytest.raises(InputError, match="no such file"):
        read_json(tmp_path / "none.json")


def test_deep_yaml_and_toml_specs_are_one_line(tmp_path, capsys):
    deep = tmp_path / "deep.yaml"
    deep.write_text("computation: hadamard_rank\nparameters: " + "[" * 50000 + "]" * 50000)
    assert main(["sweep", str(deep), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("seprank: error:")


# -- fuzzers: structured mutations of well-formed files -------------------------------------

def _check_outcome(path: Path, allow_float: bool = False):
    """Loading either fails with one SeprankError line or gives a matrix with its true rank."""
    try:
        m = load_matrix(path, allow_float=allow_float)
    except SeprankError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    import seprank

    try:
        res = seprank.rank(m, "exact")
    except SeprankError as exc:
        assert "\n" not in str(exc)
        return
    rows = np.asarray(m).tolist() if isinstance(m, np.ndarray) else m
    if rows and rows[0]:
        assert res.value == rank_q(rows)


_npy_base = st.tuples(st.integers(1, 4), st.integers(1, 4), st.sampled_from(
    [np.int8, np.int16, np.int64, np.uint8, np.uint64, np.float64]))


@settings(max_examples=60 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow,
                                                             HealthCheck.function_scoped_fixture])
@given(base=_npy_base, cut=st.integers(0, 200), edit=st.one_of(
    st.none(),
    st.tuples(st.sampled_from([b"'shape': (", b"'descr': '", b"'fortran_order': ", b"NUMPY"]),
              st.binary(min_size=1, max_size=6))))
def test_fuzz_npy_truncation_and_header_edits(tmp_path_factory, base, cut, edit):
    m, n, dtype = base
    f = tmp_path_factory.mktemp("npy") / "m.npy"
    np.save(f, (np.arange(m * n) % 5).astype(dtype).reshape(m, n))
    data = f.read_bytes()
    if edit is not None:
        anchor, junk = edit
        at = data.find(anchor)
        if at >= 0:
            at += len(anchor)
            data = data[:at] + junk + data[at + len(junk):]
    if cut:
        data = data[:max(0, len(data) - cut)]
    f.write_bytes(data)
    _check_outcome(f, allow_float=True)


@settings(max_examples=60 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow,
                                                             HealthCheck.function_scoped_fixture])
@given(depth=st.integers(1, 3000), digits=st.integers(1, 6000), cut=st.integers(0, 10),
       wrap=st.sampled_from(["[", "{\"a\": ", "[[", "[\"1/"]))
def test_fuzz_json_nesting_huge_numbers_truncation(tmp_path_factory, depth, digits, cut, wrap):
    f = tmp_path_factory.mktemp("json") / "m.json"
    number = "9" * digits
    choice = depth % 3
    if choice == 0:
        text = wrap * depth + number + "]" * depth
    elif choice == 1:
        text = json.dumps([[1, 2], [3, 4]]).replace("4", number)
    else:
        text = "[[" + number + ", \"" + number + "/7\"]]"
    if cut:
        text = text[:max(0, len(text) - cut)]
    f.write_text(text)
    _check_outcome(f)


@settings(max_examples=60 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow,
                                                             HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.lists(st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.integers(4290, 4400).map(lambda k: "7" * k),
    st.sampled_from(["1/0", "2/4", "-3/9", "1e400", "nan", "-inf", "0x1f", "1_000", "+5", "٣"])),
    min_size=1, max_size=3), min_size=1, max_size=3))
def test_fuzz_text_tokens(tmp_path_factory, rows):
    f = tmp_path_factory.mktemp("txt") / "m.txt"
    f.write_text("\n".join(" ".join(r) for r in rows) + "\n")
    _check_outcome(f)


def test_json_output_of_huge_exact_numbers(tmp_path, capsys):
    """The certificate of a matrix with 5001-digit entries prints as JSON (it crashed)."""
    f = tmp_path / "m.json"
    f.write_text(f"[[{str_big(BIG)}, 1], [{str_big(2 * BIG)}, 2]]")
    status = main(["rank", str(f), "--certify", "--json"])
    out = capsys.readouterr().out
    assert status == 0
    data = json.loads(out, parse_int=lambda s: int(__import__("flint").fmpz(s)))
    assert data["value"] == 1 and data["kind"] == "exact"
    assert data["certificate_verified"] is True
