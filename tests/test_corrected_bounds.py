"""The corrected bounds (issue 21 item 1): exact functions, the family, and the two checks.

Expectations come from closed forms worked by hand, brute-force counts, the network's own
exact output and an independent recursion, never from the functions under test:

* C(C + D, D) against an enumeration of the exponent vectors, the block form against its
  defining sum and against exact separation ranks of random networks;
* the one-hot family's exponents against the eq. (3) network evaluated exactly, the shift
  matrix against numpy integer powers of 2I + P, the proven lower bound <= the exact
  prod(e + 1) <= the corrected upper bound on a grid;
* the wings' comparisons against the printed bounds recomputed here;
* the checks L-Thm2-corrected and W-Thm1-corrected run from the command line and conclude
  holds / proof.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import product
from math import comb, prod

import numpy as np
import pytest

from seprank.combinatorics import num_head_indices
from seprank.constructions.known_seprank import network_sep_ranks
from seprank.models import SelfAttentionNetwork
from seprank.network_theory.corrected_bounds import (
    atlas_n_infinity_points,
    binomial_e_bound,
    block_upper,
    corrected_upper,
    embedded_upper,
    family_log3_lower,
    figure_series,
    moment_boundary,
    monomials_up_to,
    upper_power_bound,
)
from seprank.network_theory.moment_form import moment_form_matrix, moment_matrix
from seprank.network_theory.one_hot import (
    channel_family_network,
    exponent_floor,
    exponent_floor_table,
    family_seps_by_layer,
    monomial_exponents,
    monomial_network,
    pair_introductions,
    shift_matrix_power,
    shift_schedule,
)
from seprank.papers.levine2020.corrected import (
    cor1_width_factors,
    deep_upper,
    eq8_rate_gap_twice,
    eq8_refuted_from,
    eq8_small_width_holds,
    regime_row,
)
from seprank.papers.wies2021.bounds import thm3_bound
from seprank.papers.wies2021.corrected import (
    bottleneck_depth,
    eq9_rate_gap_twice,
    eq9_refuted_from,
    vocabulary_moment_dimension,
)
from seprank.scalars.enclosures import compare_e_monomials, e_bounds

# -- the count and the upper bounds -------------------------------------------------------

@pytest.mark.parametrize("C,D", [(c, d) for c in range(7) for d in range(6)])
def test_monomial_count_is_the_number_of_exponent_vectors(C, D):
    brute = sum(1 for g in product(range(C + 1), repeat=D) if sum(g) <= C)
    assert monomials_up_to(C, D) == brute


def test_corrected_upper_at_depth_one_is_D_plus_1():
    # L = 1: C = 1, C(1 + D, D) = D + 1 = d(d+1)/2 + 1
    assert [corrected_upper(1, d) for d in range(1, 7)] == [d * (d + 1) // 2 + 1
                                                           for d in range(1, 7)]


def _block_by_definition(L, k, D, residual):
    C = num_head_indices(L)
    side = (lambda g: k * comb(C - g + D, D)) if residual else \
        (lambda g: k * comb(C - g + D - 1, D - 1))
    return sum(min(side(g), comb(g + D - 1, D - 1)) for g in range(C + 1))


@pytest.mark.parametrize("residual", [False, True])
def test_block_form_closed_form_equals_its_sum(residual):
    for L, k, D in product(range(1, 5), range(1, 6), range(1, 12)):
        block = block_upper(L, k, D, residual)
        assert block == _block_by_definition(L, k, D, residual)
        assert block <= monomials_up_to(num_head_indices(L), D)


def test_block_form_at_depth_one_is_d_plus_1():
    # g = 0: min(d D, 1) = 1; g = 1: min(d, D) = d (D >= d): levine2020 Thm 3 at H = 1
    assert all(block_upper(1, d, d * (d + 1) // 2) == d + 1 for d in range(1, 10))


@pytest.mark.parametrize("L,d_x,H,N,residual", [(1, 2, 1, 4, False), (2, 1, 1, 4, False),
                                                (1, 1, 1, 4, True)])
def test_exact_separation_ranks_stay_below_the_block_form(L, d_x, H, N, residual):
    found = network_sep_ranks(L, d_x, H, N, residual=residual, seed=7)
    assert found["certificate"]["ok"]
    D = d_x * (d_x + 1) // 2
    assert found["max_rank"] <= block_upper(L, d_x, D, residual) <= corrected_upper(L, d_x)


def test_depth_two_width_one_attains_the_block_form():
    # d_x = 1, L = 2: y = c x_1 S^4 with S = sum x_j^2: sep = 5 = C(L) + 1 by hand
    assert network_sep_ranks(2, 1, 1, 4, seed=7)["max_rank"] == 5 == block_upper(2, 1, 1)


def test_log_form_and_the_boundary():
    for L, d in product(range(1, 16), range(1, 9)):
        D = d * (d + 1) // 2
        assert corrected_upper(L, d) <= upper_power_bound(L, d) < 3 ** (D * L)
        bend = moment_boundary(d)["least_L_with_C(L)>=D"]
        assert (num_head_indices(L) >= D) == (L >= bend)
        assert (3 ** L >= d * d + d + 1) == (L >= bend)


def test_binomial_e_bound_holds():
    for n in range(1, 30):
        for k in range(1, n + 1):
            assert compare_e_monomials((Fraction(comb(n, k)), 0), binomial_e_bound(n, k),
                                       e_bounds(20)) is True


def test_embedded_upper_uses_min_of_rank_and_width():
    assert embedded_upper(3, 7, 2) == corrected_upper(3, 2)
    assert embedded_upper(3, 2, 7) == corrected_upper(3, 2)


# -- moment form, family ------------------------------------------------------------------

@pytest.mark.parametrize("residual", [False, True])
def test_moment_form_matrix_is_the_network(residual):
    rng = random.Random(3)
    for L, d_x, H in ((1, 2, 1), (2, 3, 3), (3, 2, 2)):
        net = SelfAttentionNetwork.random(L, d_x, H, seed=rng.randrange(99), kind="rational",
                                          residual=residual)
        X = [[Fraction(rng.randint(-5, 5), rng.randint(1, 3)) for _ in range(d_x)]
             for _ in range(3)]
        G = moment_form_matrix(net, moment_matrix(X))
        assert G.dot(np.array(X[1], dtype=object)).tolist() == \
            net.evaluate([X], "QQ")[0, 1].tolist()


def _exponents_here(s, L):
    """The exponent recursion g_a <- g_a g_b g_c S_bc, written independently."""
    g = [dict() for _ in range(s)]
    for layer in range(L):
        delta = layer if layer <= s // 2 else 1
        new = []
        for a in range(s):
            c = (a + delta) % s
            e = {}
            for src in (g[a], g[a], g[c]):
                for key, v in src.items():
                    e[key] = e.get(key, 0) + v
            pair = (min(a, c), max(a, c))
            e[pair] = e.get(pair, 0) + 1
            new.append(e)
        g = new
    return g


@pytest.mark.parametrize("s,L", [(2, 4), (3, 3), (4, 3)])
def test_family_exponents_against_the_network(s, L):
    ex = monomial_exponents(s, shift_schedule(s, L))
    assert [dict(sorted(e.items())) for e in _exponents_here(s, L)] == ex
    rng = random.Random(s * 10 + L)
    X = [[Fraction(rng.randint(-3, 3), rng.randint(1, 2)) for _ in range(s)]
         for _ in range(2 * s)]
    out = monomial_network(s, shift_schedule(s, L)).evaluate([X], "QQ")[0, 0]
    S = moment_matrix(X)
    for p in range(s):
        assert out[p] == X[0][p] * prod(S[b][c] ** k for (b, c), k in ex[p].items())


def test_channel_family_outputs():
    rng = random.Random(8)
    net = channel_family_network(3, 3, 6, 3)
    X = [[Fraction(rng.randint(-3, 3), rng.randint(1, 2)) for _ in range(6)] for _ in range(6)]
    out = net.evaluate([X], "QQ")[0, 0]
    S = moment_matrix([row[:3] for row in X])
    ex = monomial_exponents(3, shift_schedule(3, 3))
    assert [out[p] for p in range(3)] == [X[0][p] * prod(S[b][c] ** k for (b, c), k in
                                                         ex[p].items()) for p in range(3)]
    assert all(out[p] == 0 for p in range(3, 6))
    with pytest.raises(ValueError):
        channel_family_network(4, 2, 6, 3)


def test_shift_matrix_power_against_numpy():
    for s in range(1, 9):
        P = np.roll(np.eye(s, dtype=np.int64), 1, axis=1)   # (P v)_a = v_{a+1}
        M = 2 * np.eye(s, dtype=np.int64) + P
        for m in range(0, 8):
            assert shift_matrix_power(s, m) == np.linalg.matrix_power(M, m).tolist()


def test_pairs_are_introduced_by_layer_floor_s_half():
    for s in range(1, 20):
        found = pair_introductions(s)
        assert len(found) == s * (s + 1) // 2
        assert max(layer for layer, _ in found.values()) <= s // 2


def test_exponent_floor_table_and_values():
    assert exponent_floor(5, 7) == 1 and exponent_floor(5, 6) is None
    for s in range(1, 9):
        assert exponent_floor_table(s, 28)["violation"] is None


def test_lower_bound_below_exact_family_below_upper_bound():
    for s in range(1, 9):
        for L, seps in enumerate(family_seps_by_layer(s, 20), start=1):
            assert 3 ** family_log3_lower(s, L) <= min(seps)
            assert max(seps) <= corrected_upper(L, s)


# -- the wings ----------------------------------------------------------------------------

def test_eq8_comparisons():
    assert [eq8_rate_gap_twice(d) for d in range(1, 6)] == [d * d - 3 * d - 2
                                                            for d in range(1, 6)]
    assert all(eq8_small_width_holds(L, d) for d in (1, 2, 3) for L in range(1, 25))
    for d in (4, 6):
        L0 = eq8_refuted_from(d)
        q, m = (Fraction(3 ** ((2 * d + 1) * L0) * d * 8 ** d, d ** (2 * d)), d)  # eq. (8)
        low = Fraction(3) ** family_log3_lower(d, L0)
        assert compare_e_monomials((low, 0), (q, m), e_bounds(20)) is False
    assert eq8_refuted_from(3) is None


def test_regime_row_and_deep_upper():
    row = regime_row(27)
    assert row["paper_L_start"] == 4 and row["corrected_L_bend"] == 7   # 3^7 = 2187 >= 757
    assert deep_upper(1, 4, 1) == 5                                     # Thm 3: (1 * 5)^1
    assert deep_upper(6, 2, 1) == comb(num_head_indices(6) + 3, 3)


def test_cor1_factor_unchanged_by_the_corrected_bound():
    assert cor1_width_factors(6, 2, 2 * 3 ** 6 + 2, 2)["corrected_bound_reaches_target_at_w_thm3"]


def test_eq9_comparisons():
    assert [eq9_rate_gap_twice(s) for s in range(1, 8)] == [(s - 4) * (s + 1)
                                                            for s in range(1, 8)]
    L0 = eq9_refuted_from(6)
    assert 3 ** family_log3_lower(6, L0) > thm3_bound(L0, 6, 0)
    assert 3 ** family_log3_lower(6, L0 - 1) <= thm3_bound(L0 - 1, 6, 0)


def test_vocabulary_moment_dimension_by_hand():
    # tokens e_1, e_2, e_1 + e_2 in R^2: outer products span all of Sym_2 -> differences: 2
    assert vocabulary_moment_dimension([[1, 0, 1], [0, 1, 1]]) == 2
    # four tokens spanning Sym_2 plus one: V - 1 = 3 = D_2
    assert vocabulary_moment_dimension([[0, 1, 0, 1], [0, 0, 1, 1]]) == 3
    assert vocabulary_moment_dimension([[2, 2, 2]]) == 0


def test_bottleneck_depth_is_the_first_depth():
    L = bottleneck_depth(2, 4)
    assert 3 ** family_log3_lower(4, L) > embedded_upper(L, 2, 4)
    assert 3 ** family_log3_lower(4, L - 1) <= embedded_upper(L - 1, 2, 4)


# -- atlas hook, figures, the checks -------------------------------------------------------

def test_atlas_hook(tmp_path):
    assert atlas_n_infinity_points(tmp_path) == []
    rows = [{"L": 2, "d_x": 2, "sep": 18, "H": 1}, {"L": 3, "d_x": 2, "sep": "232"},
            {"L": "x", "d_x": 2, "sep": 1}, {"d_x": 2}, "junk"]
    (tmp_path / "n_infinity.json").write_text(json.dumps(rows))
    got = atlas_n_infinity_points(tmp_path)
    assert [(r["L"], r["sep"], r["kind"]) for r in got] == [(2, 18, "exact"), (3, 232, "exact")]
    series = figure_series((2,), 3, lambda L, d: None, tmp_path)
    assert [p[0] for p in series["d=2"]["atlas"]] == [2, 3]


def test_checks_conclude_holds_by_proof(tmp_path):
    from seprank.cli import main

    out = tmp_path / "report.json"
    code = main(["prove", "L-Thm2-corrected", "W-Thm1-corrected", "--no-deps", "--quiet",
                 "--report-dir", str(tmp_path / "rep"), "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    found = {c["id"]: c for c in data["checks"]}
    for cid in ("L-Thm2-corrected", "W-Thm1-corrected"):
        assert found[cid]["outcome"] == "holds" and found[cid]["strength"] == "proof"
        assert found[cid]["basis"] == "argument" and not found[cid]["violations"]
        assert all(st["scope"] in ("all-sizes", "sizes") for st in found[cid]["steps"])
    assert (tmp_path / "rep" / "figures" / "corrected_levine2020.png").is_file()
    assert (tmp_path / "rep" / "figures" / "corrected_wies2021.png").is_file()
