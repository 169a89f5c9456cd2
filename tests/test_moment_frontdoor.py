"""The moment route through the separation front door: N = math.inf, -N inf, route="moment".

Expectations come from other engines (the coefficient route's exact expansion at a
finite N, the vocabulary route, the grid route), from the propositions of
seprank.separation.moment (sep at N is nondecreasing in N and equals the moment-form
rank once |I| >= d_x + 1 and |J| >= d_x) and from issue 20's hand measurement, never from
the moment route's own numbers.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seprank
from seprank.errors import MemoryLimitError, ParameterError, TimeLimitError
from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import VocabularyEmbedding
from seprank.separation import embedded_separation_rank, plan_separation

FEW = settings(max_examples=5, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _inf(net, **kw):
    return seprank.separation_rank(network=net, N=math.inf, **kw)


@FEW
@given(st.sampled_from([(1, 1, 1), (1, 2, 1), (1, 2, 2), (1, 3, 1), (2, 1, 1), (2, 2, 1),
                        (2, 2, 2)]), st.booleans(), st.integers(0, 10**6))
def test_infinite_N_equals_the_coefficient_route_at_large_N(shape, residual, seed):
    L, d, H = shape
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, nonzero=True)
    res = _inf(net, points_seed=seed % 97)
    assert res.route == "moment" and res.seq_len == math.inf and res.partition is None
    N = 2 * d + 1                                  # |I| = d + 1 with the output, |J| = d
    coef = seprank.separation_rank(network=net, N=N, partition=list(range(d + 1)),
                                   route="coefficient")
    assert coef.kind == "exact"
    assert res.value == coef.value if res.kind == "exact" else res.value <= coef.value
    assert res.value <= res.upper_bound


@pytest.mark.parametrize("L,d,V,seed", [(1, 2, 4, 0), (1, 2, 5, 3), (1, 3, 6, 1)])
def test_vocabulary_embedding_through_options_equals_the_vocabulary_route(L, d, V, seed):
    net = SelfAttentionNetwork.random(L, d, 1, seed=seed, nonzero=True)
    C = (3**L - 1) // 2                            # tokens per side from which sep is R
    N = 2 * C + 1
    emb = VocabularyEmbedding.random(V, d, N, d, 0, seed=seed)
    res = _inf(net, options={"embedding": emb})
    ref = embedded_separation_rank(net, emb, partition=list(range(C + 1)))
    assert res.kind == "exact" and ref.kind == "exact" and res.value == ref.value


def test_issue_20_hand_measured_L2_d2_H1():
    """Issue 20 reports for L = 2, d_x = 2, H = 1 (an independent flint computation, not
    this code): token sep 15 at N = 2, 18 at N = 4, 6, 8, and moment-form rank 18. The
    same numbers arise from the seed-2 draw; here the coefficient route (exact expansion,
    a different engine) confirms the finite-N values, so both sides are independent of
    the moment route."""
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    res = _inf(net, options={"token_search": "search"})
    assert (res.value, res.kind) == (18, "exact")
    assert res.facts["exact_from_N"] == 4 and res.facts["saturation_N"] == 4
    two = seprank.separation_rank(network=net, N=2, route="coefficient")
    four = seprank.separation_rank(network=net, N=4, route="coefficient")
    assert (two.value, four.value) == (15, 18)


def test_saturation_N_against_token_ranks_at_N_minus_2_and_N():
    net = SelfAttentionNetwork.random(2, 3, 1, seed=0, nonzero=True)
    res = _inf(net, options={"token_search": "search"})
    Ns = res.facts["saturation_N"]
    assert res.kind == "exact" and Ns is not None and res.facts["exact_from_N"] <= Ns
    at = seprank.separation_rank(network=net, N=Ns, route="grid", points_seed=5)
    assert at.value == res.value                 # a second certified lower bound meets it
    if Ns - 2 >= 2:
        below = seprank.separation_rank(network=net, N=Ns - 2, route="coefficient")
        assert below.kind == "exact" and below.value < res.value


def test_a_given_partition_with_enough_positions_has_the_same_value():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    whole = _inf(net)
    for I, position in (([0, 1, 2], 0), ([1, 2], 0), ([0, 3, 5, 7], 3)):
        r = _inf(net, partition=I, position=position)
        assert r.value == whole.value and r.facts["partition"]["I"] == sorted(I)
    ref = seprank.separation_rank(network=net, N=5, partition=[1, 2], route="coefficient")
    assert ref.value == whole.value             # |I| = 2 = d_x without the output, |J| = 3


def test_budget_cut_is_a_lower_bound_never_exact():
    net = SelfAttentionNetwork.random(3, 2, 1, seed=1, nonzero=True)
    res = _inf(net, options={"budget_seconds": 1e-9, "max_seq_len": 2})
    skipped = [b for b in res.blocks if "skipped" in b["how"]]
    assert skipped and res.kind == "lower_bound" and res.value < res.upper_bound


def test_cli_minus_N_inf_end_to_end(capsys, tmp_path):
    from seprank.cli import main

    args = ["sep-rank", "-L", "2", "-d_x", "2", "-H", "1", "--seed", "2", "-N", "inf"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "separation rank = 18 (exact)"
    assert "N=inf" in out[1] and "route moment" in " ".join(out[1:3])
    assert any("exact for every N >= 4" in line for line in out)
    path = tmp_path / "a.json"
    assert main([*args, "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["seq_len"] == "inf" and data["value"] == 18 and data["route"] == "moment"
    capsys.readouterr()
    assert main([*args, "--explain"]) == 0
    text = capsys.readouterr().out
    assert "route: moment" in text and "peak memory" in text and "J-degree 4" in text


@pytest.mark.parametrize("extra,match", [
    (["--partition", "0,1|2,3"], "I alone"),
    (["--route", "grid"], "needs a finite N"),
    (["--embedding", "vocabulary"], "without positional part"),
    (["-H", "3"], "does not divide"),
])
def test_cli_refusals_are_one_line_and_write_nothing(capsys, tmp_path, extra, match):
    from seprank.cli import main

    path = tmp_path / "out.json"
    args = ["sep-rank", "-L", "2", "-d_x", "2", "-N", "inf", *extra, "--json", str(path)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1 and not path.exists()


def test_api_refusals():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0, nonzero=True)
    with pytest.raises(ParameterError, match="finite N"):
        seprank.separation_rank(network=net, N=4, route="moment")
    positional = VocabularyEmbedding.random(4, 2, 3, 2, 1, seed=0)
    with pytest.raises(ParameterError, match="ositional"):
        _inf(net, options={"embedding": positional})
    with pytest.raises(ParameterError, match="I alone"):
        _inf(net, partition={"I": [0, 1], "J": [2, 3]})


def test_memory_and_time_budgets_are_checked_before_any_work(monkeypatch):
    import seprank.separation.moment.run as run

    def no_work(*args, **kwargs):
        raise AssertionError("a block was built")

    monkeypatch.setattr(run, "run_blocks", no_work)
    with pytest.raises(MemoryLimitError, match="estimated before building"):
        plan_separation(3, 4, 2, N=math.inf, max_memory="100M")
    # max_seconds means what it means on every route: a plan past it is refused, with the
    # named option that degrades to bounds instead (issue 29 item 3)
    with pytest.raises(TimeLimitError, match=r"> max_seconds = 20 s; .*--bounds-after"):
        plan_separation(3, 4, 2, N=math.inf, max_seconds=20)
    plan = plan_separation(3, 4, 2, N=math.inf, options={"budget_seconds": 20})
    assert plan.route_plan.data.plan.seconds <= 20
    assert any("bounds after 20 s" in line for line in plan.route_plan.notes)
    over = [b for b in plan.route_plan.data.plan.blocks if b["method"] in ("skipped", "sampled")]
    assert over and all(b.get("points", 0) < b["cap"] for b in over)


# -- kernels from the apolar ideal ------------------------------------------------------------

def test_apolar_products_are_kernel_vectors_of_the_exact_catalecticant():
    """Products of annihilators and shifted row relations, checked against the exact K
    (block_entries, independent of moment_apolar) of a family with a known kernel."""
    import numpy as np

    from seprank.network_theory.moment_form import moment_polynomials
    from seprank.separation.moment import prepare_moment
    from seprank.separation.moment.apolar import ApolarIdeal
    from seprank.separation.moment.blocks import block_entries, exponents
    from seprank.separation.moment.run import integer_poly_data

    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    fam = prepare_moment(net).fam
    C, n, r = fam.degree, fam.n_vars, fam.n_rows
    pd = integer_poly_data(moment_polynomials(fam), n, C)

    def K(b):
        alphas, gammas = exponents(n, C - b), exponents(n, b)
        return block_entries(pd, np.repeat(np.arange(r), len(alphas)), np.tile(alphas, (r, 1)),
                             gammas, form="catalecticant").astype(object)

    ideal, checked = ApolarIdeal(n, 1000003), 0
    for b in range(C + 1):                       # every exact kernel vector, degree by degree
        M = seprank.rank(K(b).tolist(), "exact")
        if M.value < K(b).shape[1]:
            kern = _rational_kernel(K(b))
            ideal.add(b, kern)
        if b + 1 <= C and ideal.dim(b):
            cand = ideal.candidates(b + 1)
            assert not (K(b + 1).dot(cand.T) != 0).any()     # products annihilate
            rel = ideal.relation_candidates(b, r)           # rows of block C - b: |alpha| = b
            assert not (rel.dot(K(C - b)) != 0).any()        # (0, .., Q, .., 0) relations
            checked += 1
    for b in range(C, 0, -1):                   # row relations, shifted to the next order
        left = _rational_kernel(K(b).T)
        if left:
            ideal.add_relations(C - b, left, r)
            rel = ideal.relation_candidates(C - b + 1, r)
            assert not (rel.dot(K(b - 1)) != 0).any()
            checked += 1
    assert checked >= 2


def _rational_kernel(M):
    """Integer kernel vectors of an integer matrix (sympy, an independent engine)."""
    import sympy

    out = []
    for v in sympy.Matrix(M.tolist()).nullspace():
        den = sympy.ilcm(*[x.q for x in v])
        out.append([int(x * den) for x in v])
    return out


@pytest.mark.parametrize("L, d", [(2, 3), (2, 4)])
def test_one_hot_family_at_infinity_is_exact_and_equals_its_closed_form(L, d):
    """The one-hot family's separation rank is prod(e + 1) for every N (its closed form,
    network_theory.one_hot); the moment route must reach it as ``exact`` (a 168 x 6 block
    of rank 3 at L = 2, d_x = 3 was left ``probabilistic`` by a failed subset lifting)."""
    from seprank.network_theory.one_hot import (
        family_seps_by_layer,
        monomial_network,
        shift_schedule,
    )

    res = seprank.separation_rank(network=monomial_network(d, shift_schedule(d, L)),
                                  N=math.inf, points_seed=0)
    assert res.kind == "exact"
    assert res.value == res.upper_bound == family_seps_by_layer(d, L)[L - 1][0]


# ------------------------------------------------------------------ one rate table, one plan


def test_the_moment_route_is_planned_once_and_its_estimate_is_the_plans_work(monkeypatch):
    """Issue 29 item 3: the budget's check and the plan share one plan; the route's work
    is the plan's (operations, kind) pairs, every kind one of budget.RATES, and the plan's
    seconds are those rates' seconds."""
    from seprank.budget import RATES, reference_seconds
    from seprank.separation.moment import route as moment_route

    calls = []
    original = moment_route.MomentRoute.plan

    def counted(self, request):
        calls.append(request)
        return original(self, request)

    monkeypatch.setattr(moment_route.MomentRoute, "plan", counted)
    plan = plan_separation(3, 3, 3, N=math.inf, max_seconds=3600)
    assert len(calls) == 1
    prep = plan.route_plan.data
    work = plan.route_plan.estimate.work
    assert work == tuple(prep.plan.work) and work
    assert {kind for _, kind in work} <= set(RATES)
    assert prep.plan.seconds == pytest.approx(reference_seconds(work))
    assert plan.route_plan.estimate.operations == int(sum(ops for ops, _ in work))


def test_lu_work_follows_the_engines_prime_range():
    """The LU's rate is chosen by the prime the numba engine runs at: its own range (many
    products between reductions) or above it (the rate ``modular``)."""
    from seprank.budget import RATES, reference_seconds
    from seprank.linalg.engines import get_engine
    from seprank.linalg.estimates import lu_rank_work

    lo, hi = get_engine("numba").auto_primes
    assert RATES["lu_large"].per_second > RATES["lu"].per_second > RATES["lu_small"].per_second
    assert lu_rank_work(3000, 2000, lo + 1) == ((3000 * 2000 * 2000, "lu"),)
    assert lu_rank_work(9000, 8000, lo + 1) == ((9000 * 8000 * 8000, "lu_large"),)
    assert lu_rank_work(3000, 2500, hi + 1) == ((3000 * 2500 * 2500, "modular"),)
    # across the tiers the time per operation falls monotonically and the operations add up
    last = 0.0
    for n in range(400, 9000, 100):
        work = lu_rank_work(n, n)
        assert sum(ops for ops, _ in work) == pytest.approx(n ** 3)
        per_op = reference_seconds(work) / n ** 3
        assert per_op <= 1 / RATES["lu_small"].per_second * (1 + 1e-12)
        assert per_op >= 1 / RATES["lu_large"].per_second * (1 - 1e-12)
        assert per_op <= last * (1 + 1e-12) or last == 0.0
        last = per_op
