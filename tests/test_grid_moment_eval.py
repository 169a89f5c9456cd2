"""The grid route's moment-form evaluator (issue 20 item 2) against the network kernel.

The reference is :func:`seprank.models.network_mod_p.grid_values_mod_p`, which runs the
network layer by layer on the assembled sequences; the moment form computes the same
function through S = sum_j x^j x^jT (an identity over the integers), so the residues must
agree entry by entry, with and without residual connections.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seprank.errors import ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.models.network_mod_p import grid_values_mod_p
from seprank.separation.grid import route as gridroute
from seprank.separation.grid.moment_values import grid_values_moment, prefer_moment_form
from seprank.separation.grid.route import _points, grid_block_ranks

FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def _cases(draw):
    L = draw(st.integers(1, 3))
    d = draw(st.integers(1, 4))
    H = draw(st.sampled_from([h for h in range(1, d + 1) if d % h == 0]))
    N = draw(st.integers(2, 4))
    n_I = draw(st.integers(1, N - 1))
    perm = draw(st.permutations(range(N)))
    return L, d, H, N, tuple(sorted(perm[:n_I])), tuple(sorted(perm[n_I:]))


@FAST
@given(_cases(), st.booleans(), st.sampled_from([101, 1000003, 2**31 - 1]),
       st.integers(0, 10**6))
def test_moment_grid_equals_network_kernel(case, residual, p, seed):
    L, d, H, N, I, J = case
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual)
    T, rows, cols, _ = _points(np.random.default_rng(seed), p, 6, I, J, d, [1, 2])
    for position in range(N):
        coordinate = seed % d
        old = grid_values_mod_p(net, T, I, J, rows, cols, p, position=position,
                                coordinate=coordinate)
        new = grid_values_moment(net, T, I, J, rows, cols, p, position=position,
                                 coordinate=coordinate)
        assert new.shape == old.shape == (len(rows), len(cols))
        assert (new == old).all()


def test_hand_example_one_layer():
    # all weights 1, d = 1, N = 2, position 0: y = x_0 (x_0^2 + x_1^2); templates 1, 2, 3
    net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", [[[[1]]]]))
    T, idx = np.array([[1], [2], [3]]), np.array([[0], [1], [2]])
    got = grid_values_moment(net, T, [0], [1], idx, idx, 1000003, position=0, coordinate=0)
    assert got.tolist() == [[a * (a * a + b * b) for b in (1, 2, 3)] for a in (1, 2, 3)]
    res = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", [[[[1]]]]),
                               residual=True)
    got = grid_values_moment(res, T, [0], [1], idx, idx, 1000003, position=1, coordinate=0)
    assert got.tolist() == [[b + b * (a * a + b * b) for b in (1, 2, 3)] for a in (1, 2, 3)]


def test_position_outside_partition_is_refused():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    with pytest.raises(ParameterError):
        grid_values_moment(net, np.array([[1, 2]]), [0], [1], [[0]], [[0]], 101, position=2,
                           coordinate=0)


@pytest.mark.parametrize("residual", [False, True])
def test_grid_route_ranks_unchanged_by_the_evaluator(monkeypatch, residual):
    # the same points through both evaluators: identical blocks and ranks
    net = SelfAttentionNetwork.random(2, 2, 1, seed=3, residual=residual, nonzero=True)
    args = (net, 4, (0, 2), (1, 3), 0, 1)
    runs = {}
    for moment in (False, True):
        monkeypatch.setattr(gridroute, "prefer_moment_form", lambda *a, m=moment: m)
        runs[moment] = grid_block_ranks(*args, p=2**31 - 1, seed=5)
    assert runs[True]["evaluator"] == "moment form" and runs[False]["evaluator"] == "network"
    assert runs[True]["blocks"] == runs[False]["blocks"]
    assert runs[True]["lower_bound"] == runs[False]["lower_bound"] > 0


def test_choice_follows_the_operation_counts():
    net = SelfAttentionNetwork.random(3, 4, 2, seed=0)
    assert not prefer_moment_form(net, 2, 101)   # 800 moment ops against 480
    assert prefer_moment_form(net, 8, 101)       # against 1920
