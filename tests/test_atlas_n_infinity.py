"""The committed N -> infinity atlas (docs/atlas/n_infinity.json) agrees with the theory.

Expectations come from theory, not from the atlas itself: every separation rank is at
most the corrected upper bound C(C(L) + D, D) (``network_theory.corrected_bounds``); the
one-hot counterexample network has sep = prod(e + 1) (``network_theory.one_hot``); a
certified range is ordered; the generic separation rank is the largest rank over the
weights, so no particular weight of the same shape (a structured family, another seed)
has a certified lower bound above a shape's generic value, and independent generic draws
agree; Schwartz-Zippel's epsilon is e_L U / (2G) with e_L = 2 (3^L - 1)
(``models.generic_weights``, recomputed here from its formula). The generated summary in
docs/separation-ranks.md is the one the report writes from the JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from seprank.network_theory.corrected_bounds import atlas_n_infinity_points, corrected_upper
from seprank.network_theory.one_hot import family_seps_by_layer

ROOT = Path(__file__).resolve().parents[1]
ATLAS = ROOT / "docs" / "atlas"
KINDS = {"exact", "lower_bound", "probabilistic"}
PARTS = {"generic", "onehot", "repeated", "permutation", "beyond", "plan4"}


@pytest.fixture(scope="module")
def all_rows() -> list[dict]:
    path = ATLAS / "n_infinity.json"
    if not path.is_file():
        pytest.skip("docs/atlas/n_infinity.json is not in this checkout")
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def rows(all_rows) -> list[dict]:
    return [r for r in all_rows if "error" not in r]


def _generic_shapes(rows: list[dict]) -> dict:
    out: dict = {}
    for r in rows:
        if r["part"] == "generic":
            out.setdefault((r["L"], r["d_x"], r["H"], r["residual"]), []).append(r)
    return out


def test_every_row_has_a_part_a_family_and_a_kind(rows):
    assert rows
    assert {r["part"] for r in rows} <= PARTS
    assert {r["family"] for r in rows} <= {"generic", "onehot", "repeated", "permutation"}
    assert {r["kind"] for r in rows} <= KINDS


def test_the_generic_part_covers_its_grid(all_rows):
    """Every L <= 3, d_x <= 4, H | d_x, plain and residual, and L = 4 for d_x <= 2, with
    seeds 0, 1, 2 (a row, or an error row saying why it has no value); a planned shape or
    seed with no row yet is named on the atlas page, never passed over in silence."""
    want = {(L, d, H, res, s) for L in (1, 2, 3, 4) for d in (1, 2, 3, 4)
            if L <= 3 or d <= 2 for H in range(1, d + 1) if d % H == 0
            for res in (False, True) for s in (0, 1, 2)}
    got = {(r["L"], r["d_x"], r["H"], r["residual"], r["seed"]) for r in all_rows
           if r["part"] == "generic"}
    assert got <= want
    page = (ATLAS / "n_infinity.md").read_text()
    for L, d, H, res, s in sorted(want - got):
        if any(k[:4] == (L, d, H, res) for k in got):       # the shape ran, with fewer seeds
            assert "not every seed was run yet" in page, (L, d, H, res, s)
        else:
            name = f"L={L} d_x={d} H={H}{' residual' if res else ''}"
            assert "Not run yet" in page and f"{name}," in page.replace(")", ","), name


def test_ranges_are_ordered_and_below_the_corrected_bound(rows):
    for r in rows:
        cap = corrected_upper(r["L"], r["d_x"])
        assert 0 <= r["lower"] <= r["sep"] <= r["upper"] <= cap, r
        if r["kind"] == "exact":
            assert r["lower"] == r["sep"] == r["upper"], r
            assert r["exact_from_N"] <= 2 * r["d_x"] + 2, r     # Proposition 2 or 2'


def test_one_hot_rows_meet_their_closed_form(rows):
    one_hot = [r for r in rows if r["family"] == "onehot"]
    assert one_hot
    for r in one_hot:
        theory = family_seps_by_layer(r["d_x"], r["L"])[r["L"] - 1][0]   # coordinate 0
        assert r["closed_form"] == theory, r
        assert r["lower"] <= theory <= r["upper"], r
        if r["kind"] == "exact":
            assert r["sep"] == theory, r


def test_generic_seeds_agree(rows):
    """Independent draws of a shape: exact values equal, certified ranges overlapping."""
    for shape, group in _generic_shapes(rows).items():
        exact = {r["sep"] for r in group if r["kind"] == "exact"}
        assert len(exact) <= 1, (shape, [(r["seed"], r["sep"], r["kind"]) for r in group])
        assert max(r["lower"] for r in group) <= min(r["upper"] for r in group), shape


def test_generic_claims_follow_from_the_bounds(rows):
    """'exact for almost every weight' exactly when the value meets the every-weight
    bound; epsilon = e_L U / (2G) capped at 1, e_L = 2 (3^L - 1)."""
    for r in (r for r in rows if r["family"] == "generic"):
        g = r["generic"]
        U, G = g["upper_bound_all_weights"], g["weight_bound"]
        assert r["upper"] <= U <= corrected_upper(r["L"], r["d_x"]), r
        if r["kind"] == "exact" and r["sep"] == U:
            assert g["claim"] == "exact for almost every weight" and g["epsilon"] == 0, r
        elif r["kind"] == "exact":
            assert g["claim"].endswith("1 - epsilon"), r
            assert g["epsilon"] == pytest.approx(min(1.0, 2 * (3 ** r["L"] - 1) * U / (2 * G)))
        else:
            assert g["claim"] == "lower bound for almost every weight", r


def test_no_particular_weight_beats_the_generic_value(rows):
    """The generic rank is the largest over the weights of the shape: a structured row's
    certified lower bound is at most the shape's exact generic value, and so is the
    one-hot family's value at any output coordinate (a permutation of the coordinates
    moves it to coordinate 0)."""
    generic = {k: g[0]["sep"] for k, g in _generic_shapes(rows).items()
               if all(r["kind"] == "exact" for r in g) and len({r["sep"] for r in g}) == 1}
    compared = 0
    for r in rows:
        if r["family"] in ("onehot", "repeated", "permutation"):
            v = generic.get((r["L"], r["d_x"], r["H"], r["residual"]))
            if v is not None:
                compared += 1
                assert r["lower"] <= v, (r, v)
                if r["family"] == "onehot":
                    assert max(family_seps_by_layer(r["d_x"], r["L"])[r["L"] - 1]) <= v, r
    assert compared


def test_reader_takes_only_exact_generic_rows(rows):
    want = sorted((r["L"], r["d_x"], r["sep"]) for r in rows
                  if r["family"] == "generic" and r["kind"] == "exact" and r["sep"] >= 1)
    got = sorted((p["L"], p["d_x"], p["sep"]) for p in atlas_n_infinity_points(ATLAS))
    assert got == want and got


def test_the_docs_page_summary_is_generated_from_the_json(rows):
    sys.path.insert(0, str(ATLAS))
    try:
        import n_infinity_report as report
    finally:
        sys.path.remove(str(ATLAS))
    page = (ROOT / "docs" / "separation-ranks.md").read_text()
    block = page.split(report.DOCS_BEGIN, 1)[1].split(report.DOCS_END, 1)[0]
    all_rows = json.loads((ATLAS / "n_infinity.json").read_text())
    assert [x for x in block.splitlines() if x.strip()] == report.docs_block(all_rows)
