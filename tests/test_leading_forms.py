"""A residual network's C_F against its leading forms (seprank.separation.moment.leading_forms).

Lemma 1 is checked against flint's exact expansion of both networks (no route involved);
Lemma 2 against the exact rank over Q of the whole residual matrix (flint) and the
staircase bound's closed form; the route's record against both.
"""

from __future__ import annotations

import flint
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seprank.models import SelfAttentionNetwork
from seprank.network_theory.moment_form import moment_polynomials, token_family
from seprank.separation.moment import moment_separation_rank
from seprank.separation.moment.blocks import (
    block_specs,
    staircase_bound,
)
from seprank.separation.moment.leading_forms import applies, leading_network, whole_matrix

FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHAPES = [(1, 2, 1), (1, 3, 3), (2, 1, 1), (2, 2, 1), (2, 2, 2), (3, 1, 1)]


def _top(poly, C: int):
    ctx = poly.context()
    return ctx.from_dict({e: c for e, c in poly.to_dict().items() if sum(e) == C})


@FAST
@given(st.sampled_from(SHAPES), st.integers(0, 10**6))
def test_the_leading_forms_are_the_plain_network(shape, seed):
    """Lemma 1: the degree-C part of every residual g_j is the plain network's g_j."""
    L, d, H = shape
    net = SelfAttentionNetwork.random(L, d, H, residual=True, seed=seed, nonzero=True)
    res = moment_polynomials(token_family(net, 0))
    plain = moment_polynomials(token_family(leading_network(net), 0))
    C = (3**L - 1) // 2
    assert all(_top(g, C) == h for g, h in zip(res, plain, strict=True))
    assert any(g != h for g, h in zip(res, plain, strict=True))     # lower degrees exist


def _whole_rank(net) -> int:
    fam = token_family(net, 0)
    (spec,) = block_specs(fam.n_rows, fam.n_vars, fam.degree, True)
    ent = whole_matrix(fam)
    assert ent.shape == spec.shape
    return flint.fmpz_mat(ent.tolist()).rank()


@pytest.mark.parametrize("shape", [(1, 2, 1), (2, 2, 1), (2, 2, 2), (3, 1, 1)])
@pytest.mark.parametrize("seed", [0, 5])
def test_the_residual_rank_is_at_least_the_leading_forms(shape, seed):
    """Lemma 2 against the exact rank over Q of the whole residual matrix (flint), with the
    plain network's value from its own route."""
    L, d, H = shape
    net = SelfAttentionNetwork.random(L, d, H, residual=True, seed=seed, nonzero=True)
    plain = moment_separation_rank(leading_network(net), seed=seed)
    assert plain.kind == "exact"
    whole = _whole_rank(net)
    assert plain.value <= whole <= staircase_bound(d, d * (d + 1) // 2, (3**L - 1) // 2)
    routed = moment_separation_rank(net, seed=seed)
    assert routed.lower_bound >= plain.value
    assert routed.lower_bound <= whole <= routed.upper_bound


def test_the_route_certifies_a_residual_network_by_its_leading_forms():
    """Residual L = 3, d_x = 3, H = 1: the plain network's blocks reach the staircase bound
    (closed form, 3102), so the residual value is exact without ranking its 81396 x 27132
    matrix; the plain network's value is checked by its own route."""
    net = SelfAttentionNetwork.random(3, 3, 1, residual=True, seed=1, nonzero=True)
    assert applies(token_family(net, 0)) and not applies(token_family(leading_network(net), 0))
    bound = staircase_bound(3, 6, 13)
    r = moment_separation_rank(net, seed=1)
    (rec,) = r.blocks
    assert rec["method"] == "leading forms" and "Lemma 2" in rec["how"]
    assert moment_separation_rank(leading_network(net), seed=1).value == bound
    assert (r.value, r.kind, r.upper_bound) == (bound, "exact", bound)
    assert sum(b[1] for b in rec["leading_blocks"]) == bound


def test_the_word_is_found_once_per_residual_run(monkeypatch):
    """Residual L = 2, d_x = 3, H = 1, d_a = 2: the leading forms stay below the residual
    cap, so the route asks for the word's cap after the plain blocks' run has seeded its
    ideal; both get the word from one memo (one search of its annihilators, not two)."""
    import seprank.separation.moment as moment
    import seprank.separation.moment.run as run_module
    import seprank.separation.moment.word_directions as wd

    word_annihilators = wd.word_annihilators

    calls = []

    def counted(*args, **kwargs):
        calls.append(args[1])
        return word_annihilators(*args, **kwargs)

    for module in (moment, run_module, wd):      # wherever it is looked up
        monkeypatch.setattr(module, "word_annihilators", counted)
    net = SelfAttentionNetwork.random(2, 3, 1, residual=True, seed=0, nonzero=True, d_a=2)
    r = moment_separation_rank(net, seed=0)
    (rec,) = r.blocks
    assert sum(b[1] for b in rec["leading_blocks"]) < r.upper_bound     # the cap was asked
    assert len(calls) == 1
