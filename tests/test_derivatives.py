"""The rank of C_F as the dimension of the g_j's derivatives (separation.moment.sparse).

Expectations come from hand-worked spans and from C_F itself ranked over Q by flint's
fmpz_mat (an independent engine): whole for small residual networks, and restricted to
its nonzero rows and columns for the structured L = 3, d_x = 3 network.
"""

from __future__ import annotations

import math

import flint
import numpy as np
import pytest

from seprank.models import SelfAttentionNetwork
from seprank.network_theory.moment_form import moment_polynomials, token_family
from seprank.separation.moment.blocks import block_entries, poly_data
from seprank.separation.moment.leading_forms import whole_matrix
from seprank.separation.moment.run import integer_poly_data
from seprank.separation.moment.sparse import derivative_rank, down_closure

P = 1000003


def _gens(n: int):
    return flint.fmpz_mpoly_ctx.get(("t", n), "deglex").gens()


def test_hand_worked_spans():
    t0, t1 = _gens(2)
    # t0^3: t0^3, t0^2, t0, 1
    assert derivative_rank(poly_data([t0**3], 2, 3), P, seconds=10)["rank"] == 4
    # (t0 + 2 t1)^3 gives l^3, l^2, l, 1; t0^2 adds t0^2 and t0: 6
    out = derivative_rank(poly_data([(t0 + 2 * t1) ** 3, t0**2], 2, 3), P, seconds=10)
    assert (out["rank"], out["kind"]) == (6, "exact")
    # t0 t1: t0 t1, t1, t0, 1
    assert derivative_rank(poly_data([t0 * t1], 2, 2), P, seconds=10)["rank"] == 4
    zero = derivative_rank(poly_data([t0 - t0], 2, 2), P, seconds=10)
    assert (zero["rank"], zero["kind"]) == (0, "exact")


def test_a_prime_dividing_a_minor_leaves_a_lower_bound():
    t0, t1 = _gens(2)
    # mod 101, t0 + 101 t1 is t0: set aside, and the exact check refuses it
    out = derivative_rank(poly_data([t0, t0 + 101 * t1], 2, 1), 101, seconds=10)
    assert (out["rank"], out["kind"]) == (2, "lower_bound")    # the span is t0, t1, 1: 3
    assert derivative_rank(poly_data([t0, t0 + 101 * t1], 2, 1), P, seconds=10)["rank"] == 3


def test_no_time_no_answer():
    t0, t1 = _gens(2)
    assert derivative_rank(poly_data([(t0 + t1) ** 3], 2, 3), P, seconds=1e-12) is None


@pytest.mark.parametrize("L,d,H,seed", [(1, 2, 1, 0), (2, 2, 1, 0), (2, 2, 2, 1), (2, 1, 1, 3),
                                        (1, 3, 3, 0), (2, 2, 1, 4)])
def test_residual_matches_the_whole_matrix(L, d, H, seed):
    fam = token_family(SelfAttentionNetwork.random(L, d, H, residual=True, seed=seed,
                                                   nonzero=True), 0)
    pd = integer_poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
    out = derivative_rank(pd, P, seconds=60)
    assert out["kind"] == "exact"
    assert out["rank"] == flint.fmpz_mat(whole_matrix(fam).tolist()).rank()


def _nonzero_part_rank(fam) -> int:
    """rank_Q of C_F on the rows and columns that can be nonzero: entry ((j, alpha),
    gamma) needs a term alpha + gamma of g_j, so alpha and gamma lie below a term."""
    pd = integer_poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
    keys = down_closure(pd)
    exps = pd.key_exponents(keys)
    rows = np.repeat(np.arange(fam.n_rows), len(exps))
    M = block_entries(pd, rows, np.tile(exps, (fam.n_rows, 1)), exps)
    return flint.fmpz_mat(M.tolist()).rank()


def test_structured_residual_network_is_exact_through_the_route():
    from seprank.separation import separation_rank
    from seprank.separation.structured import structured_weights

    net = SelfAttentionNetwork(3, 3, 3, residual=True,
                               weights=structured_weights("permutation", 3, 3, 3, seed=0))
    res = separation_rank(network=net, N=math.inf, points_seed=0,
                          options={"budget_seconds": 120.0})
    assert res.kind == "exact"
    assert [b["method"] for b in res.blocks] == ["derivatives"]
    assert "derivatives" in res.facts["basis"]
    assert res.value == _nonzero_part_rank(token_family(net, 0))
