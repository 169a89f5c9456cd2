"""The float method says when float64 could not hold its input, and by how much (issue 31
item 3). Expectations by hand: float64 has a 53-bit significand, so an odd integer above
2^53 is rounded (2^60 + 1 to 2^60, an error of 1), a power of 2 is not, and a fraction is
held only when its denominator is a power of 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import seprank

BIG = 2**60
#: det = (2^60 + 1)(2^60 - 1) - 2^120 = -1: rank 2; rounded, all four entries are 2^60
NEAR_SINGULAR = [[BIG + 1, BIG], [BIG, BIG - 1]]


def test_integers_above_2_53_are_reported_with_the_error():
    res = seprank.rank(NEAR_SINGULAR, "float")
    r = res.details["input_rounding"]
    assert (r["entries_rounded"], r["entries"], r["max_absolute_error"]) == (2, 4, 1.0)
    assert r["max_relative_error"] == pytest.approx(1 / (BIG - 1), rel=1e-9)
    assert r["causes"] == ["integers above 2^53"]
    assert "input rounded to float64" in str(res) and "2 of 4 entries" in res.note
    assert seprank.rank(NEAR_SINGULAR).value == 2 != res.value        # the rounding shows


@pytest.mark.parametrize("matrix, rounded, cause", [
    ([[Fraction(1, 3), Fraction(1, 2)]], 1, "denominator is not a power of 2"),
    ([["1/3", "0.1", "0.5"]], 2, "denominator is not a power of 2"),
    (np.array([[2**53 + 1, 2**53, 3]], dtype=np.int64), 1, "integers above 2^53"),
    (np.array([[2**64 - 1]], dtype=np.uint64), 1, "integers above 2^53"),
])
def test_rationals_and_integer_arrays(matrix, rounded, cause):
    r = seprank.rank(matrix, "float").details["input_rounding"]
    assert r["entries_rounded"] == rounded and cause in " ".join(r["causes"])


@pytest.mark.parametrize("matrix", [[[1, 2], [3, 4]], [[2**60, -2**70], ["1/4", "0.5"]],
                                    np.array([[0.1, 0.3]]), [[0.1, 1e300]]])
def test_nothing_is_said_when_nothing_was_rounded(matrix):
    """Small integers, powers of 2, dyadic fractions; floats given as floats are the input."""
    res = seprank.rank(matrix, "float")
    assert "input_rounding" not in res.details and "rounded" not in str(res)


def test_the_cli_warns_in_its_output_and_plan(tmp_path):
    f = tmp_path / "big.json"
    f.write_text(json.dumps(NEAR_SINGULAR))
    for extra in ([], ["--explain"]):
        out = subprocess.run([sys.executable, "-m", "seprank", "rank", str(f), "--method",
                              "float", *extra], capture_output=True, text=True, check=True)
        text = " ".join(out.stdout.split())
        assert "warning: float64 could not hold the input: 2 of 4 entries rounded" in text
        assert max(map(len, out.stdout.splitlines())) <= 80


def test_float_vs_exact_counts_the_entries_of_G_it_rounded():
    """Omega rows, d = 2, lam = 8 (float64 wrong there): the count is that of the entries
    of G, computed here in Python integers, that float64 does not hold."""
    from seprank.constructions import omega_rows
    from seprank.float_vs_exact import compare_ranks

    U = omega_rows(2, 8, 2)
    G = [[sum(a * b for a, b in zip(u, v, strict=True)) ** 8 for v in U] for u in U]
    expected = sum(int(float(x)) != x for row in G for x in row)
    assert expected > 0
    raw = compare_ranks(U, 8)["raw"]
    assert raw["entries_rounded"] == expected and 0 < raw["max_relative_error"] <= 2**-53
