"""The committed N -> infinity atlas (docs/atlas/n_infinity.json) agrees with the theory.

Expectations come from theory, not from the atlas itself: every separation rank is at
most the corrected upper bound C(C(L) + D, D) (``network_theory.corrected_bounds``), the
one-hot counterexample network has sep = prod(e + 1) (``network_theory.one_hot``), and a
certified range is ordered.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seprank.network_theory.corrected_bounds import atlas_n_infinity_points, corrected_upper
from seprank.network_theory.one_hot import family_seps_by_layer

ATLAS = Path(__file__).resolve().parents[1] / "docs" / "atlas"
KINDS = {"exact", "lower_bound", "probabilistic"}


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    path = ATLAS / "n_infinity.json"
    if not path.is_file():
        pytest.skip("docs/atlas/n_infinity.json is not in this checkout")
    return [r for r in json.loads(path.read_text()) if "error" not in r]


def test_every_row_has_a_family_and_a_kind(rows):
    assert rows
    assert {r["family"] for r in rows} <= {"random", "onehot", "repeated", "permutation"}
    assert {r["kind"] for r in rows} <= KINDS


def test_ranges_are_ordered_and_below_the_corrected_bound(rows):
    for r in rows:
        cap = corrected_upper(r["L"], r["d_x"])
        assert 0 <= r["lower"] <= r["sep"] <= r["upper"] <= cap, r
        if r["kind"] == "exact":
            assert r["lower"] == r["sep"] == r["upper"], r


def test_one_hot_rows_meet_their_closed_form(rows):
    one_hot = [r for r in rows if r["family"] == "onehot"]
    assert one_hot
    for r in one_hot:
        theory = family_seps_by_layer(r["d_x"], r["L"])[r["L"] - 1][0]   # coordinate 0
        assert r["closed_form"] == theory, r
        assert r["lower"] <= theory <= r["upper"], r
        if r["kind"] == "exact":
            assert r["sep"] == theory, r


def test_reader_takes_exact_random_rows_only(rows):
    want = sorted((r["L"], r["d_x"], r["sep"]) for r in rows
                  if r["family"] == "random" and r["kind"] == "exact" and r["sep"] >= 1)
    got = sorted((p["L"], p["d_x"], p["sep"]) for p in atlas_n_infinity_points(ATLAS))
    assert got == want
