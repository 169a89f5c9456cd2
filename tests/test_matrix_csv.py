"""CSV matrices (issue 22, item 1): every reader of matrices takes .csv; bad CSV is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.errors import InputError
from seprank.files.matrix_io import load_matrix

entries = st.one_of(st.integers(-10**40, 10**40),
                    st.fractions(max_denominator=10**6).filter(lambda f: f.denominator > 1))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(lambda w: st.lists(st.lists(entries, min_size=w, max_size=w),
                                                    min_size=1, max_size=6)))
def test_csv_round_trip(tmp_path_factory, rows):
    folder = tmp_path_factory.mktemp("csv")
    f = folder / "m.csv"
    f.write_text("# written by the test\n" + "\n".join(
        ",".join(f'"{x}"' if isinstance(x, Fraction) else str(x) for x in row)
        for row in rows) + "\n")
    assert load_matrix(f) == rows


def test_csv_and_json_read_the_same_matrix(tmp_path):
    rows = [[1, -2, "3/4"], [0, 10**30, "-5/6"]]
    (tmp_path / "m.json").write_text(json.dumps(rows))
    (tmp_path / "m.csv").write_text("1, -2, 3/4\n\n0,1" + "0" * 30 + ",-5/6\n")
    assert load_matrix(tmp_path / "m.csv") == load_matrix(tmp_path / "m.json")


@pytest.mark.parametrize("text, match", [
    ("1,2\n3,x\n", "'x' is not an integer"),
    ("a,b\n1,2\n", "looks like a header"),
    ("1,,2\n", "empty cell"),
    ('1,"2\n', "not valid CSV"),
    ("1,2\n3\n", "ragged"),
    ("1,0.5\n", "decimal number"),
])
def test_bad_csv_is_one_line(tmp_path, text, match):
    f = tmp_path / "m.csv"
    f.write_text(text)
    with pytest.raises(InputError, match=match) as exc:
        load_matrix(f)
    assert "\n" not in str(exc.value)


def test_rank_reads_csv(tmp_path):
    (tmp_path / "m.csv").write_text("1,2,3\n2,4,6\n1,0,1\n")    # row 2 = 2 x row 1: rank 2
    out = subprocess.run([sys.executable, "-m", "seprank", "rank", "m.csv"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("2 exact")
    (tmp_path / "t.csv").write_text("1,2\n3,x\n")
    bad = subprocess.run([sys.executable, "-m", "seprank", "rank", "t.csv"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "'x'" in bad.stderr
