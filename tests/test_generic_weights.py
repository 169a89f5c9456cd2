"""One network per seed, and what a drawn network says of the generic separation rank.

Expectations come from theory, not from this code's output: at L = 1 the moment form has
two blocks, of sizes 1 and min(d, D) = d, so sep = d + 1 for almost every weight (hand
count, seprank.models.generic_weights); at L = 2, d_x = 2 the block caps sum to 18
(moment_blocks shapes), and the finite-N coefficient route is an independent engine.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import seprank
from seprank.models.generic_weights import (
    generic_bound,
    generic_epsilon,
    generic_statement,
    seeded_network,
    weight_degree,
)
from seprank.separation.moment import moment_separation_rank


def _caps(res) -> int:
    return sum(b["cap"] for b in res.blocks)


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_L1_generic_value_is_d_plus_1_for_every_seed(d):
    for seed in range(3):
        r = seprank.separation_rank(1, d, 1, N=math.inf, weights_seed=seed)
        assert r.value == d + 1 and r.kind == "exact"
        g = r.facts["generic"]
        assert g["claim"] == "exact for almost every weight" and g["epsilon"] == 0.0
        assert g["upper_bound_all_weights"] == d + 1


def test_three_seeds_agree_at_L2():
    """L = 2, d_x = 2: the caps (18) are met by every seed: generic for almost every weight;
    d_x = 4, H = 4: every seed meets the first layer's counted bound (85, below the ideal
    bound's 89), so it is the generic value; residual d_x = 2, H = 2 meets the layered
    staircase (17, every weight); residual d_x = 3, H = 1, d_a = 2: the seeds agree on a
    value below the every-weight bound (a probable value)."""
    from seprank.network_theory.generic_laws import (
        generic_caps,
        ideal_block_bounds,
        layered_staircase_bound,
    )

    vals = [seprank.separation_rank(2, 2, 1, N=math.inf, weights_seed=s) for s in range(3)]
    assert {(r.value, r.kind) for r in vals} == {(18, "exact")}
    assert all(r.facts["generic"]["claim"] == "exact for almost every weight" for r in vals)
    # d_x = 4, H = 2: below the caps' 110, at the first layer's ideal bound 107
    # (generic_laws.ideal_block_bounds, an every-weight bound): generic, no probability
    ideal = seprank.separation_rank(2, 4, 2, N=math.inf, weights_seed=1)
    assert (ideal.value, ideal.facts["generic"]["claim"]) == (107, "exact for almost every weight")
    # H = 4 (d_a = 1): the counted bound (generic_laws.counted_block_bounds) is below the
    # ideal bound, and every seed's certified rank meets it
    counted = sum(generic_caps(2, 4, 4))
    shape = [min(a, b) for a, b in zip(ideal_block_bounds(2, 10, 4), (1, 10, 55, 40, 4),
                                        strict=True)]
    assert counted < sum(shape) == 89
    met = [seprank.separation_rank(2, 4, 4, N=math.inf, weights_seed=s) for s in range(3)]
    assert {(r.value, r.kind) for r in met} == {(counted, "exact")}
    assert all(r.facts["generic"]["claim"] == "exact for almost every weight" for r in met)
    # residual L = 2, d_x = 2, H = 2: below the plain staircase 18, at the layered staircase
    # (generic_laws.layered_staircase_bound, every weight), met by every seed
    layered = layered_staircase_bound(2, 3, 2, 2)
    assert layered == 17
    res = [seprank.separation_rank(2, 2, 2, N=math.inf, weights_seed=s, residual=True)
           for s in range(3)]
    assert {(r.value, r.facts["generic"]["claim"]) for r in res} == {
        (layered, "exact for almost every weight")}
    # residual L = 2, d_x = 3, H = 1, d_a = 2: the seeds agree on a value below the
    # every-weight bound (a probable value)
    below = [seprank.separation_rank(2, 3, 1, N=math.inf, weights_seed=s, residual=True,
                                     d_a=2) for s in range(3)]
    bound = below[0].facts["generic"]["upper_bound_all_weights"]
    assert len({r.value for r in below}) == 1 and below[0].value < bound
    g = below[0].facts["generic"]
    assert g["claim"].startswith("lower bound for almost every weight; equal with probability")
    assert g["epsilon"] == pytest.approx(16 * bound / (2 * 4096))


def test_undershoot_frequency_respects_the_schwartz_zippel_bound():
    """Weights from [-G, G] without 0 with a small G: how often the L = 1, d = 2 value falls
    below the generic d + 1 = 3, against epsilon = e_L U / (2G) (a bound that holds for every
    draw distribution of this form: checked, with a margin for 60 draws)."""
    G, trials = 4, 60
    eps = generic_epsilon(1, 3, G)                  # 4 * 3 / 8 = 1.5 -> capped at 1
    assert eps == 1.0
    G = 16
    eps = generic_epsilon(1, 3, G)                  # 12 / 32 = 0.375
    low = sum(moment_separation_rank(seeded_network(1, 2, 1, seed=s, bound=G)).value < 3
              for s in range(trials))
    assert low / trials <= eps + 3 * math.sqrt(eps * (1 - eps) / trials)


def test_one_seed_is_one_network_across_commands():
    """The grid-rank computation and sep-rank draw the same weights from a seed."""
    from seprank.sweep.computations import grid_rank

    a = seeded_network(1, 2, 1, seed=7)
    r = seprank.separation_rank(1, 2, 1, N=4, weights_seed=7, route="coefficient")
    g = grid_rank(depth=1, width=2, heads=1, seq_len=4, templates=6, seed=7)
    assert g["rank"]["value"] <= r.value           # Claim 1: grid rank <= sep (same network)
    b = seprank.separation.request.build_network(1, 2, 1, weights_seed=7)
    assert all(np.array_equal(a.weights[k], b.weights[k]) for k in "QKVO")


def test_statement_rules():
    assert generic_statement(2, 18, "exact", 18, 4096)["epsilon"] == 0.0
    given = generic_statement(2, 10, "exact", 18, None)
    assert given["epsilon"] is None and "given" in given["why"]
    lower = generic_statement(2, 10, "lower_bound", 18, 4096)
    assert lower["claim"] == "lower bound for almost every weight" and lower["epsilon"] is None
    assert weight_degree(2) == 16 and generic_bound(2) == 4096


def test_a_degenerate_network_is_named_in_the_answer():
    """Weights that zero a head or the output coordinate are named, in the answer's text
    and facts (issue 31 item 1); a value 0 always says why."""
    from seprank.models import SelfAttentionNetwork

    W = {k: np.ones((1, 2, 1, 2), dtype=int) for k in "QKV"}
    W["O"] = np.zeros((1, 2, 2, 1), dtype=int)
    W["O"][0, 0, 1, 0] = 1                        # only coordinate 1, only head 0
    net = SelfAttentionNetwork(1, 2, 2, 1, weights=W)
    assert net.degeneracies(0)[0].startswith("layer 0, head 1: W^O W^V = 0")
    r = seprank.separation_rank(network=net, N=2, coordinate=0)
    assert r.value == 0 and any("identically zero" in x for x in r.facts["degenerate"])
    assert "degenerate network" in str(r)
    assert not seeded_network(2, 2, 1, seed=0).degeneracies()
