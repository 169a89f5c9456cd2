"""Laws of the generic separation rank (issue 34): caps, the depth-one witness, fits, table.

Expectations come from theory and independent computations: the caps against ranks of
random networks (any integer weights, zeros included), the L = 2 caps against the closed
form C(D + 2, 2) + d_x (D + 1) worked by hand from the block shapes, the witness against
the network evaluated on tokens, fits against polynomials chosen here.
"""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.models import SelfAttentionNetwork
from seprank.network_theory.corrected_bounds import block_upper
from seprank.network_theory.generic_laws import (
    block_caps,
    caps_sum,
    depth_one_block,
    depth_one_witness,
    derivative_span_ranks,
    fit_law,
    generic_caps,
    generic_caps_sum,
    interpolate,
    layered_staircase_bound,
    pattern_heads,
)
from seprank.separation import separation_rank

ROOT = Path(__file__).resolve().parents[1]
ATLAS = ROOT / "docs" / "atlas"


def test_l2_caps_match_the_hand_worked_closed_form():
    """Blocks g = 0..4 at L = 2: min sides 1, D, C(D + 1, 2), d_x D, d_x (d_x >= 2)."""
    for d in range(1, 21):
        D = d * (d + 1) // 2
        assert caps_sum(2, d) == comb(D + 2, 2) + d * (D + 1), d
        assert caps_sum(2, d) == block_upper(2, d, D), d
        if d >= 2:
            assert block_caps(2, d) == [1, D, comb(D + 1, 2), d * D, d], d


@settings(max_examples=12, deadline=None)
@given(L=st.sampled_from([1, 2]), d=st.integers(1, 3), seed=st.integers(0, 10**6),
       data=st.data())
def test_caps_bound_every_block_of_random_networks(L, d, seed, data):
    """Any weights (small integers, zeros allowed): every block's certified rank is at
    most its cap, and the value at most caps_sum."""
    if L == 2 and d == 3:
        d = 2
    H = data.draw(st.sampled_from([h for h in range(1, d + 1) if d % h == 0]))
    rng = np.random.default_rng(seed)
    d_a = d // H
    w = {k: rng.integers(-2, 3, size=(L, H, d_a, d)) for k in "QKV"}
    w["O"] = rng.integers(-2, 3, size=(L, H, d, d_a))
    res = separation_rank(network=SelfAttentionNetwork(L, d, H, weights=w), N=math.inf)
    caps = generic_caps(L, d, H)
    assert len(res.blocks) == len(caps)
    for b, cap, shape_cap in zip(res.blocks, caps, block_caps(L, d), strict=True):
        assert b["rank"] <= cap <= shape_cap and b["cap"] == cap
    assert res.value <= sum(caps) <= caps_sum(L, d)


@pytest.mark.parametrize("d,H", [(1, 1), (2, 2), (3, 1), (4, 2), (6, 3)])
def test_the_witness_network_outputs_sum_of_s0j_times_x(d, H):
    """Evaluated on random integer tokens, the witness's y_0^i is sum_j S_0j x^i_j with
    S = sum_k x^k x^kT (the formula the proof uses, from the network itself)."""
    net = SelfAttentionNetwork(1, d, H, weights=depth_one_witness(d, H))
    X = np.random.default_rng(d + H).integers(-4, 5, size=(2, 3, d))
    for b in range(2):
        S = sum(np.outer(X[b, k], X[b, k]) for k in range(3))
        for i in range(3):
            want = int(S[0] @ X[b, i])
            assert int(net.output(X[b:b + 1].tolist(), i, 0)[0]) == want


def test_the_witness_block_is_full_rank_and_a_wrong_witness_is_not():
    block = depth_one_block(depth_one_witness(5, 5))
    assert np.linalg.matrix_rank(block) == 5 and block.sum() == 5
    w = depth_one_witness(4, 2)
    w["Q"][0, 1] = 0                      # head 1 reads nothing: coordinates 2, 3 lost
    assert np.linalg.matrix_rank(depth_one_block(w)) == 2


def test_witness_refuses_bad_sizes():
    with pytest.raises(ValueError, match="divide"):
        depth_one_witness(4, 3)
    with pytest.raises(ValueError, match="coordinate"):
        depth_one_witness(2, 1, coordinate=2)


@settings(max_examples=30, deadline=None)
@given(coeffs=st.lists(st.integers(-50, 50), min_size=1, max_size=5))
def test_interpolation_recovers_a_polynomial_and_the_fit_its_degree(coeffs):
    def f(x):
        return sum(c * x**i for i, c in enumerate(coeffs))

    n = len(coeffs)
    got = interpolate([(x, f(x)) for x in range(1, n + 1)])
    assert got == [Fraction(c) for c in coeffs]
    fit = fit_law({x: f(x) for x in range(1, n + 3)})      # a spare point and one held out
    assert fit.status == "conjecture"
    got = list(fit.coeffs) + [Fraction(0)] * (n - len(fit.coeffs))   # least degree found
    assert got == [Fraction(c) for c in coeffs]


def test_a_fit_can_fail_at_the_held_out_size():
    values = {d: caps_sum(2, d) for d in range(1, 9)}
    fit = fit_law(values, hold_out=2)
    assert fit.status == "conjecture" and fit.degree == 4 and fit.fitted_on == tuple(range(1, 7))
    values[8] += 1
    assert fit_law(values, hold_out=2).status == "refuted"
    assert fit_law({1: 1, 2: 2}).status == "no fit"          # too few points for a spare


def test_pattern_heads():
    assert [pattern_heads("d_a = 2", d) for d in (1, 2, 3, 6)] == [None, 1, None, 3]


def _laws_module():
    sys.path.insert(0, str(ATLAS))
    try:
        import laws
    finally:
        sys.path.remove(str(ATLAS))
    return laws


def test_laws_rows_say_almost_every_weight_only_when_the_caps_are_met():
    rows = json.loads((ATLAS / "laws.json").read_text())
    assert {(r["L"], r["d_x"], r["H"]) for r in rows} >= {(1, d, 1) for d in range(1, 9)}
    proven = 0
    for r in rows:
        claim = (r.get("generic") or {}).get("claim", "")
        bound = generic_caps_sum(r["L"], r["d_x"], r["H"])
        if claim.startswith("exact for almost every weight"):
            assert r["kind"] == "exact" and r["sep"] == bound, r
            proven += 1
        if r.get("sep") is not None:
            assert r["sep"] <= bound <= caps_sum(r["L"], r["d_x"]), r
        if r["L"] == 1:                        # L-Generic1's law on every drawn network
            assert r["sep"] == r["d_x"] + 1 and claim.startswith("exact"), r
    assert proven


def test_the_docs_page_block_is_generated_from_the_json():
    laws = _laws_module()
    page = (ROOT / "docs" / "generic-laws.md").read_text()
    block = page.split(laws.DOCS_BEGIN, 1)[1].split(laws.DOCS_END, 1)[0]
    rows = json.loads((ATLAS / "laws.json").read_text())
    assert [x for x in block.splitlines() if x.strip()] == [
        x for x in laws.docs_block(rows) if x.strip()]


@settings(max_examples=10, deadline=None)
@given(shape=st.sampled_from([(2, 2, 2, 1), (2, 3, 3, 1), (2, 3, 1, 1), (2, 4, 2, 2),
                              (2, 4, 4, 1), (2, 3, 2, 1), (3, 2, 2, 1), (2, 2, 1, 2)]),
       seed=st.integers(0, 10**6), zeros=st.booleans())
def test_the_ideal_bound_holds_for_every_weight(shape, seed, zeros):
    """Random integer weights (zeros allowed, d_a = d_x / H or not): every block's exact
    rank (derivative spans, flint) is at most the first layer's ideal bound."""
    from seprank.network_theory.generic_laws import generic_caps

    L, d, H, d_a = shape
    rng = np.random.default_rng(seed)
    low = -2 if zeros else 1
    w = {k: rng.integers(low, 3, size=(L, H, d_a, d)) for k in "QKV"}
    w["O"] = rng.integers(low, 3, size=(L, H, d, d_a))
    ranks = derivative_span_ranks(SelfAttentionNetwork(L, d, H, d_a, weights=w))
    caps = generic_caps(L, d, H, d_a)
    assert all(r <= c for r, c in zip(ranks, caps, strict=True)), (ranks, caps)


def test_the_ideal_bound_is_met_where_the_tables_say():
    """The derivative spans of one drawn network meet the ideal bound at L = 2, d_x = 3,
    H = 3 (43 < the caps' 49) and at L = 3, d_x = 2, H = 2 (215 < 232)."""
    from seprank.models.generic_weights import seeded_network
    from seprank.network_theory.generic_laws import generic_caps

    for L, d, H in ((2, 3, 3), (3, 2, 2)):
        ranks = derivative_span_ranks(seeded_network(L, d, H, seed=0))
        assert ranks == generic_caps(L, d, H) and sum(ranks) < caps_sum(L, d)


@settings(max_examples=60, deadline=None)
@given(L=st.integers(1, 4), n_vars=st.integers(1, 10), data=st.data())
def test_the_counted_bound_is_never_above_the_ideal_bound(L, n_vars, data):
    """J = T + 1 of the count is the ideal bound (generic_laws docstring), so the counted
    bound never exceeds it; both are at least 0."""
    from seprank.network_theory.generic_laws import counted_block_bounds, ideal_block_bounds

    forms = data.draw(st.integers(0, n_vars))
    polys = data.draw(st.integers(1, 6))
    counted = counted_block_bounds(L, n_vars, forms, polys)
    ideal = ideal_block_bounds(L, n_vars, forms)
    assert all(0 <= c <= i for c, i in zip(counted, ideal, strict=True))


def test_the_counted_bound_is_met_below_the_ideal_bound():
    """One drawn network's derivative spans (flint, no code shared with the bound) meet the
    counted bound at L = 2, d_x = 4, H = 4: 85, below the ideal bound's 89 (block 3: 36
    against 40)."""
    from seprank.models.generic_weights import seeded_network
    from seprank.network_theory.generic_laws import generic_caps, ideal_block_bounds

    ranks = derivative_span_ranks(seeded_network(2, 4, 4, seed=0))
    assert ranks == generic_caps(2, 4, 4)
    ideal = [min(a, b) for a, b in zip(ideal_block_bounds(2, 10, 4), block_caps(2, 4),
                                       strict=True)]
    assert sum(ranks) == 85 < sum(ideal) == 89


def test_counted_bound_refuses_bad_sizes():
    from seprank.network_theory.generic_laws import counted_block_bounds

    with pytest.raises(ValueError, match="polys"):
        counted_block_bounds(2, 10, 4, 0)
    with pytest.raises(ValueError, match="forms"):
        counted_block_bounds(2, 10, 11, 4)


def test_the_atlas_plain_values_are_the_counted_bound():
    """Every exact plain row of the N -> infinity atlas (generic weights) is at most the
    counted bound summed over the blocks, and equal to it, except L = 3, d_x = 4, H = 1:
    4 below it, the 4 points where two conics of the plane a^T w = 0 meet
    (moment.word_directions). A law with its data: a row off it would fail here."""
    from seprank.network_theory.generic_laws import generic_caps_sum

    rows = json.loads((ATLAS / "n_infinity.json").read_text())
    plain = [r for r in rows if r["part"] == "generic" and not r["residual"]
             and r["kind"] == "exact"]
    assert len(plain) >= 60
    for r in plain:
        bound = generic_caps_sum(r["L"], r["d_x"], r["H"])
        word = 4 if (r["L"], r["d_x"], r["H"]) == (3, 4, 1) else 0
        assert r["sep"] == bound - word, r


# -- residual connections: the layered staircase ----------------------------------------------

@pytest.mark.parametrize("depths", [(1, 2, 3, 4), pytest.param((5,), marks=pytest.mark.slow)])
def test_layered_staircase_equals_the_plain_count(depths):
    """The identity the module docstring states: at every L <= 5, d_x <= 7, H | d_x the
    residual matrix's layered staircase equals the plain blocks' counted caps summed."""
    for L in depths:
        for d in range(1, 8):
            D = d * (d + 1) // 2
            for H in (h for h in range(1, d + 1) if d % h == 0):
                got = layered_staircase_bound(L, D, min(H * (d // H) ** 2, D), d)
                assert got == sum(generic_caps(L, d, H)), (L, d, H)


@pytest.mark.parametrize("L,d,H,seed", [(2, 2, 2, 0), (2, 2, 2, 1), (2, 3, 3, 0),
                                        (2, 3, 3, 1), (2, 4, 4, 0)])
def test_residual_ranks_stay_under_the_layered_staircase(L, d, H, seed):
    """The exact rank over Q of the whole residual C_F (flint, every entry), weights with
    zeros allowed, is at most the layered staircase, which is below the plain staircase
    at these shapes."""
    import flint

    from seprank.network_theory.moment_form import token_family
    from seprank.separation.moment.blocks import staircase_bound
    from seprank.separation.moment.leading_forms import whole_matrix

    net = SelfAttentionNetwork.random(L, d, H, residual=True, seed=seed, bound=2)
    fam = token_family(net, 0)
    D, C = fam.n_vars, fam.degree
    whole = flint.fmpz_mat(whole_matrix(fam).tolist())
    bound = layered_staircase_bound(L, D, min(H * (d // H) ** 2, D), d)
    assert bound < staircase_bound(d, D, C)
    assert whole.rank() <= bound
