"""The moment route (issue 20): G_L(S) x against the network, C_F against a direct expansion,
the N -> infinity value against the coefficient route at large N, embeddings, refusals.

Expectations come from independent computations (the network itself, flint expansions of
F(x, U + W), the coefficient and vocabulary routes, seprank.verify) or from the theorems
(monotonicity in N, equality once |I| >= d + 1 and |J| >= d), never from the route's own
numbers.
"""

from __future__ import annotations

import random
from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seprank
from seprank.errors import MemoryLimitError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding
from seprank.models.moment_mod_p import evaluate_tokens_mod_p, moment_rows_mod_p
from seprank.models.network_mod_p import evaluate_mod_p
from seprank.network_theory.moment_form import (
    moment_matrix_exact,
    moment_output_exact,
    moment_pairs,
    moment_polynomials,
    token_family,
)
from seprank.separation import embedded_separation_rank
from seprank.separation.moment import moment_separation_rank
from seprank.separation.moment.blocks import block_entries, block_specs, exponents
from seprank.separation.moment.run import integer_poly_data

P = 1000003
FAST = settings(max_examples=8, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _shape():
    """(L, d, H): L <= 2, d <= 3, H | d; L = 2 only with d <= 2 (coefficient route cost)."""
    return st.sampled_from([(1, 1, 1), (1, 2, 1), (1, 2, 2), (1, 3, 1), (1, 3, 3), (2, 1, 1),
                            (2, 2, 1), (2, 2, 2)])


def _rational_inputs(rng, N, d):
    return [[Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(d)]
            for _ in range(N)]


# -- the moment form itself ----------------------------------------------------------------

@FAST
@given(_shape(), st.booleans(), st.integers(0, 10**6))
def test_moment_output_equals_network_exactly(shape, residual, seed):
    L, d, H = shape
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, kind="rational")
    rng = random.Random(seed)
    N = rng.randint(1, 4)
    X = _rational_inputs(rng, N, d)
    out = net.evaluate([X], "QQ")[0]
    for i in range(N):
        assert list(moment_output_exact(net, X, i)) == list(out[i])


@FAST
@given(_shape(), st.booleans(), st.integers(0, 10**6))
def test_polynomials_equal_recursion_on_symmetric_points(shape, residual, seed):
    """g_j(t) at t_ab = S_ab (a <= b) is (e_p^T G_L(S))_j: the off-diagonal entry is one
    variable, counted at (a, b) and (b, a)."""
    L, d, H = shape
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, kind="rational")
    coord = seed % d
    gs = moment_polynomials(token_family(net, coord))
    rng = random.Random(seed + 1)
    A = np.array(_rational_inputs(rng, 3, d), dtype=object)
    S = A.T.dot(A)
    G = moment_matrix_exact(net, S)
    t = [Fraction(S[a, b]) for a, b in moment_pairs(d)]
    for j, g in enumerate(gs):
        assert _eval_poly(g, t) == Fraction(G[coord, j])


def _eval_poly(g, t):
    total = Fraction(0)
    for e, c in zip(g.monoms(), g.coeffs(), strict=True):
        c = Fraction(int(c.p), int(c.q)) if isinstance(c, flint.fmpq) else Fraction(int(c))
        term = c
        for x, k in zip(t, e, strict=True):
            term *= x ** int(k)
        total += term
    return total


@pytest.mark.parametrize("residual", [False, True])
def test_token_evaluator_matches_network_kernel(residual):
    for (L, d, H, N) in [(1, 2, 1, 3), (2, 3, 3, 2), (3, 4, 2, 2), (2, 4, 2, 5)]:
        net = SelfAttentionNetwork.random(L, d, H, seed=L + d, residual=residual)
        X = np.random.default_rng(d).integers(-9, 10, size=(300, N, d))
        for p in (P, 2**31 - 1):
            for pos in range(N):
                assert (evaluate_tokens_mod_p(net, X, p, pos)
                        == evaluate_mod_p(net, X, p, position=pos)).all()


def test_rows_mod_p_equal_polynomials_mod_p():
    for residual in (False, True):
        net = SelfAttentionNetwork.random(2, 3, 1, seed=4, residual=residual)
        fam = token_family(net, 1)
        gs = moment_polynomials(fam, p=P)
        T = np.random.default_rng(1).integers(0, P, size=(20, fam.n_vars))
        rows = moment_rows_mod_p(fam, T, P)
        for i in range(5):
            assert [int(g(*[int(x) for x in T[i]])) for g in gs] == rows[i].tolist()


def _direct_matricization(gs, d, D):
    """C_F of F(x, U, W) = sum_j x_j g_j(U + W) by a direct flint expansion."""
    ctx = flint.fmpz_mpoly_ctx.get(("v", d + 2 * D), "deglex")
    v = ctx.gens()
    x, u, w = v[:d], v[d:d + D], v[d + D:]
    F = ctx.from_dict({})
    for j, g in enumerate(gs):
        F += x[j] * g.compose(*[u[e] + w[e] for e in range(D)], ctx=ctx)
    return {(e[:d + D], e[d + D:]): int(c) for e, c in zip(F.monoms(), F.coeffs(), strict=True)}


@pytest.mark.parametrize("residual", [False, True])
def test_catalecticant_entries_equal_direct_expansion(residual):
    L, d = 2, 2
    D, C = 3, 4
    net = SelfAttentionNetwork.random(L, d, 1, seed=7, residual=residual, nonzero=True)
    gs = moment_polynomials(token_family(net, 0))
    direct = _direct_matricization(gs, d, D)
    pd = integer_poly_data(gs, D, C)
    nonzero = 0
    for spec in block_specs(d, D, C, residual):
        if spec.degree is None:
            alphas = exponents(D, C, up_to=True)
            gammas = alphas
        else:
            alphas, gammas = exponents(D, spec.row_degree), exponents(D, spec.degree)
        rows_j = np.repeat(np.arange(d), len(alphas))
        rows_a = np.tile(alphas, (d, 1))
        B = block_entries(pd, rows_j, rows_a, gammas)                     # C_F, exact
        K = block_entries(pd, rows_j, rows_a, gammas, form="catalecticant")
        assert ((B.astype(object) % P).astype(np.int64)
                == block_entries(pd, rows_j, rows_a, gammas, p=P, form="binomial")).all()
        assert ((K.astype(object) % P).astype(np.int64)
                == block_entries(pd, rows_j, rows_a, gammas, p=P)).all()
        fact = [1, 1, 2, 6, 24]
        for r, (j, a) in enumerate(zip(rows_j, rows_a, strict=True)):
            xj = tuple(int(k == j) for k in range(d))
            for c, g in enumerate(gammas):
                key = (xj + tuple(int(t) for t in a), tuple(int(t) for t in g))
                assert int(B[r, c]) == direct.get(key, 0)
                scale = int(np.prod([fact[int(t)] for t in a]) * np.prod([fact[int(t)]
                                                                        for t in g]))
                assert int(K[r, c]) == direct.get(key, 0) * scale    # alpha! gamma! C_F
        nonzero += int((B != 0).sum())
    assert nonzero == len(direct)        # no coefficient lies outside the blocks


# -- the theorems ---------------------------------------------------------------------------

@FAST
@given(_shape(), st.booleans(), st.integers(0, 10**6))
def test_value_equals_coefficient_route_at_large_N(shape, residual, seed):
    L, d, H = shape
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, nonzero=True)
    res = moment_separation_rank(net, seed=seed % 1000)
    assert res.kind == "exact"
    N = 2 * d + 1                                  # |I| = d + 1 with the output, |J| = d
    coef = seprank.separation_rank(network=net, N=N, partition=list(range(d + 1)),
                                   route="coefficient")
    assert coef.kind == "exact" and coef.value == res.value
    for n in range(2, N):                          # smaller N: at most the value
        small = seprank.separation_rank(network=net, N=n, partition=list(range((n + 1) // 2)),
                                        route="coefficient")
        assert small.value <= res.value


def test_partitions_with_enough_positions_agree():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=11, nonzero=True)
    res = moment_separation_rank(net)
    parts = {5: [[0, 1, 2], [0, 2, 4], [1, 3, 4]], 6: [[0, 1, 2], [0, 1, 2, 3], [0, 3, 5]]}
    for N, Is in parts.items():
        for I in Is:
            r = seprank.separation_rank(network=net, N=N, partition=I, route="coefficient")
            assert r.value == res.value, (N, I)
    r = seprank.separation_rank(network=net, N=6, partition=[1, 2, 3], position=2,
                                route="coefficient")
    assert r.value == res.value


def test_hand_measured_shape_obeys_the_theorems():
    """L = 2, d = 2, H = 1 (issue 20's hand values used unknown weights): N = 2 <= value
    = the coefficient route at N = 6, and the token search agrees with the coefficient
    route at every N it reports."""
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    res = moment_separation_rank(net, token_search="search")
    six = seprank.separation_rank(network=net, N=6, route="coefficient")
    assert res.value == six.value and res.kind == "exact"
    for t in res.token_ranks:
        N = t["N"]
        c = seprank.separation_rank(network=net, N=N, route="coefficient")
        assert t["lower_bound"] <= c.value <= res.value
    assert res.token_ranks[0]["N"] == 2


def test_saturation_N_is_where_the_token_rank_meets_the_value():
    net = SelfAttentionNetwork.random(2, 3, 1, seed=0, nonzero=True)
    res = moment_separation_rank(net, token_search="search")
    Ns = res.saturation_N
    assert Ns is not None and res.exact_from_N == Ns
    at = seprank.separation_rank(network=net, N=Ns, route="grid", seed=3)
    assert at.value == res.value                     # certified lower bound meets the value
    below = [t for t in res.token_ranks if t["N"] == Ns - 2]
    if Ns - 2 >= 2:
        assert below and below[0]["lower_bound"] < res.value
        ref = seprank.separation_rank(network=net, N=Ns - 2, route="coefficient")
        assert below[0]["lower_bound"] <= ref.value <= res.value


def test_rank_deficient_blocks_are_certified_by_kernels():
    """L = 2, d = 4, H = 4 with weights in {-1, 0, 1} (zeros: not generic): block 3 is rank
    deficient below its caps (shape and the first layer's counted bound), certified by a
    kernel; each block below its shape is confirmed by an exact rank of the whole block."""
    net = SelfAttentionNetwork.random(2, 4, 4, seed=0, bound=1)
    res = moment_separation_rank(net, certify=True)
    assert res.kind == "exact"
    below_cap = [b for b in res.blocks if b["rank"] < b["cap"]]
    assert below_cap and all("kernel" in b["how"] for b in below_cap)
    deficient = [b for b in res.blocks if b["rank"] < min(b["shape"])]
    assert len(deficient) >= 2
    assert all(b.get("certificate_verified", True) for b in res.blocks)
    for b in deficient:
        gs = moment_polynomials(token_family(net, 0))
        pd = integer_poly_data(gs, 10, 4)
        alphas, gammas = exponents(10, 4 - b["degree"]), exponents(10, b["degree"])
        rows_j = np.repeat(np.arange(4), len(alphas))
        M = block_entries(pd, rows_j, np.tile(alphas, (4, 1)), gammas)
        assert seprank.rank(M.astype(object).tolist(), "exact").value == b["rank"]


def test_residual_block_is_ranked_whole():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True, residual=True)
    res = moment_separation_rank(net)
    assert len(res.blocks) == 1 and res.blocks[0]["degree"] is None
    six = seprank.separation_rank(network=net, N=6, route="coefficient")
    assert res.value == six.value


def test_count_bound_is_the_repaired_wies_bound():
    from seprank.network_theory.moment_form import moment_bound

    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    res = moment_separation_rank(net)
    assert res.details["count_bound"] == moment_bound(2, 2)
    assert res.upper_bound <= res.details["count_bound"]


def test_kinds_and_bounds_are_consistent():
    net = SelfAttentionNetwork.random(2, 2, 2, seed=5, nonzero=True)
    res = moment_separation_rank(net, budget_seconds=1e-9)      # everything skipped
    assert res.kind == "lower_bound" and res.value <= res.upper_bound
    assert all(b["method"] == "skipped" for b in res.blocks if b["cap"])
    full = moment_separation_rank(net)
    assert res.upper_bound >= full.value
    d = full.to_dict()
    assert d["value"] == full.value and "moment-form separation rank" in str(full)


# -- embeddings -----------------------------------------------------------------------------

@pytest.mark.parametrize("L,d,V,r,N,residual,seed", [
    (1, 2, 4, 2, 3, False, 0),     # b_w b_w^T span Sym(2), no affine hyperplane
    (1, 2, 4, 2, 3, True, 0),
    (2, 2, 2, 1, 9, False, 1),     # r = 1, |I| = C + 1 = 5, |J| = 4
    (2, 2, 3, 2, 9, False, 1),     # V = 3 = D': moments on an affine hyperplane (shift)
    (1, 3, 4, 2, 3, False, 2),
])
def test_vocabulary_value_equals_vocabulary_route(L, d, V, r, N, residual, seed):
    net = SelfAttentionNetwork.random(L, d, 1, seed=seed, nonzero=True, residual=residual)
    emb = VocabularyEmbedding.random(V=V, d_x=d, N=N, r=r, r_e=0, seed=seed + 10)
    res = moment_separation_rank(net, embedding=emb)
    ref = embedded_separation_rank(net, emb, partition=list(range((N + 1) // 2)))
    assert res.kind == "exact" and ref.kind == "exact"
    assert res.value == ref.value


def test_positional_embeddings_are_refused():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    emb = VocabularyEmbedding.random(V=3, d_x=2, N=3, r=2, r_e=1, seed=0)
    with pytest.raises(ParameterError, match="positional embedding"):
        moment_separation_rank(net, embedding=emb)
    conv = ConvolutionalEmbedding.random(k=2, d_input=1, d_x=2, N=3, r=2, r_e=1, seed=0)
    with pytest.raises(ParameterError, match="permutation equivariance"):
        moment_separation_rank(net, embedding=conv)


def test_residual_vocabulary_on_affine_hyperplane_is_refused():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0, residual=True)
    emb = VocabularyEmbedding([[1, 0, 1], [0, 1, 1]], [[0, 0], [0, 0]])   # V = D' = 3
    with pytest.raises(ParameterError, match="affine hyperplane"):
        moment_separation_rank(net, embedding=emb)


def test_convolution_value_equals_coefficient_route_on_patch_partitions():
    for seed in range(2):
        net = SelfAttentionNetwork.random(1, 2, 1, seed=seed, nonzero=True)
        emb = ConvolutionalEmbedding.random(k=2, d_input=1, d_x=2, N=5, r=2, r_e=0, seed=seed)
        res = moment_separation_rank(net, embedding=emb)
        # patches 0, 1, 2 (raw 0..5) with the output, patches 3, 4 (raw 6..9): 3 >= r + 1, 2 >= r
        ref = embedded_separation_rank(net, emb, partition=list(range(6)))
        assert res.value == ref.value and res.kind == "exact"


# -- refusals and arguments -----------------------------------------------------------------

def test_memory_estimate_refuses_in_one_line():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=0)
    with pytest.raises(MemoryLimitError) as exc:
        moment_separation_rank(net, max_memory=1000)
    assert "\n" not in str(exc.value) and "limit" in str(exc.value)


@pytest.mark.parametrize("kwargs", [{"certify": 1}, {"position": -1}, {"seed": "0"},
                                    {"max_seq_len": 1}, {"max_memory": 0},
                                    {"coordinate": 5}, {"prime": 91}, {"prime": 3},
                                    {"budget_seconds": 0}])
def test_bad_arguments_are_refused(kwargs):
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    with pytest.raises(seprank.errors.SeprankError):
        moment_separation_rank(net, **kwargs)


def test_certify_attaches_verified_certificates():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    res = moment_separation_rank(net, certify=True, token_search="search")
    assert all(b["certificate_verified"] for b in res.blocks if b["cap"])
    assert all(t["certificates_verified"] for t in res.token_ranks)


def test_prime_count_of_the_error_range():
    """The count behind the probabilistic error bound, recounted by sympy's prime counting
    function (Lehmer's method: an independent computation)."""
    import sympy

    from seprank.separation.moment.ranks import ERROR_PRIME_RANGE, PRIMES_IN_RANGE

    lo, hi = ERROR_PRIME_RANGE
    assert int(sympy.primepi(hi - 1) - sympy.primepi(lo - 1)) == PRIMES_IN_RANGE


def test_L2_d3_value_equals_coefficient_route():
    net = SelfAttentionNetwork.random(2, 3, 1, seed=0, nonzero=True)
    res = moment_separation_rank(net)
    coef = seprank.separation_rank(network=net, N=7, partition=[0, 1, 2, 3],
                                   route="coefficient")
    assert res.value == coef.value


# -- budgets of the steps the plan cannot size ---------------------------------------------

@pytest.mark.parametrize("limits,reason", [((-1.0, float("inf")), "time limit"),
                                           ((60.0, 0.0), "GiB held")])
def test_exact_lifting_keeps_its_limits(limits, reason):
    """A lifting stopped by its limits leaves the rank mod p; the small block's exact rank
    over Q (flint fmpz_mat.rank of every row, an independent engine) still decides it."""
    from seprank.network_theory.moment_form import moment_polynomials, token_family
    from seprank.separation.moment.ranks import catalecticant_rank

    fam = token_family(SelfAttentionNetwork.random(3, 2, 1, seed=0, nonzero=True), 0)
    pd = integer_poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
    spec = next(s for s in block_specs(fam.n_rows, fam.n_vars, fam.degree, False)
                if s.shape == (90, 21))
    free = catalecticant_rank(pd, spec, fam.n_rows, P, np.random.default_rng(0),
                              random_prime=False, certify=False)
    stopped = catalecticant_rank(pd, spec, fam.n_rows, P, np.random.default_rng(0),
                                 random_prime=False, certify=False, lift_limits=limits)
    assert "lifting_stopped" not in free and "kernel vectors verified" in free["how"]
    assert reason in stopped["lifting_stopped"] and "fmpz_mat.rank" in stopped["how"]
    assert free["kind"] == stopped["kind"] == "exact" and free["rank"] == stopped["rank"] < 21


def test_over_budget_blocks_are_sampled_lower_bounds(monkeypatch):
    """Blocks past the budget are sampled at fewer points: certified lower bounds below the
    full run's exact ranks, never exact unless they meet an upper bound."""
    import seprank.separation.moment.plan as moment_plan

    monkeypatch.setattr(moment_plan, "SAMPLE_MIN_POINTS", 2)     # blocks this small
    net = SelfAttentionNetwork.random(3, 2, 1, seed=0, nonzero=True)
    full = moment_separation_rank(net)
    cut = moment_separation_rank(net, budget_seconds=0.0003, max_seq_len=2)   # under the plan
    sampled = [(b, f) for b, f in zip(cut.blocks, full.blocks, strict=True)
               if b["method"] == "sampled"]
    assert full.kind == "exact" and sampled
    for b, f in sampled:
        assert b["points"] < b["cap"] and b["rank"] <= min(b["points"], f["rank"])
        assert b["kind"] == "lower_bound" or b["rank"] == b["upper"] == f["rank"]
    assert cut.lower_bound <= full.value <= cut.upper_bound


@pytest.mark.parametrize("L,d,seed", [(1, 2, 0), (1, 3, 1), (2, 2, 2), (2, 2, 5)])
def test_output_side_with_d_positions_has_the_value(L, d, seed):
    """Proposition 2' (a = d): a partition with exactly d positions on the output's side
    and d on the other already has sep = R. Checked against the finite-N coefficient route
    (exact expansion, independent of the moment route) at N = 2 d."""
    net = SelfAttentionNetwork.random(L, d, 1, seed=seed, nonzero=True)
    res = moment_separation_rank(net)
    assert res.kind == "exact" and res.exact_from_N == 2 * d and not res.token_ranks
    ref = seprank.separation_rank(network=net, N=2 * d, partition=list(range(d)), position=0,
                                  route="coefficient")
    assert ref.kind == "exact" and ref.value == res.value


def test_partition_below_the_threshold_is_answered_not_refused():
    """A partition with fewer positions than Proposition 2' asks: the token grid at
    N = 2 |I| bounds it from below (the coefficient route at that N agrees), R from above;
    exact only when they meet."""
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    whole = moment_separation_rank(net)
    small = moment_separation_rank(net, partition=[0])
    two = seprank.separation_rank(network=net, N=2, route="coefficient")
    assert small.lower_bound == small.value == two.value < whole.value
    assert small.kind == "lower_bound" and small.upper_bound == whole.value
    assert [t["N"] for t in small.token_ranks] == [2] and small.partition == (0,)
    assert "token grid at N = 2" in small.basis


def test_token_search_runs_only_where_the_answer_needs_it():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True)
    res = moment_separation_rank(net)
    assert res.kind == "exact" and res.token_ranks == [] and res.basis.startswith("Proposition")
    assert "no token search needed" in res.details["token_search"]
    searched = moment_separation_rank(net, token_search="search")
    assert searched.value == res.value and searched.saturation_N == 4
    with pytest.raises(ParameterError, match="token_search"):
        moment_separation_rank(net, token_search="always")


@pytest.mark.parametrize("L,d,H", [(1, 2, 1), (2, 2, 1), (3, 3, 1)])
def test_the_compile_estimate_counts_the_kernels_the_plan_runs(L, d, H):
    """A cold cache's estimate names the modules whose kernels this plan runs, no others:
    the expansion's with an expansion, the evaluator's with evaluated or sampled blocks."""
    from seprank.separation.moment import prepare_moment
    from seprank.separation.moment.route import KERNEL_MODULES, kernel_modules

    prep = prepare_moment(SelfAttentionNetwork.random(L, d, H, seed=0, nonzero=True))
    mods = kernel_modules(prep)
    assert set(mods) <= set(KERNEL_MODULES) and mods[0].endswith("modular_lu")
    assert ("seprank.separation.moment.expansion_mod" in mods) == prep.plan.expand
    evaluates = any(b["method"] in ("evaluation", "sampled") for b in prep.plan.blocks)
    assert ("seprank.models.moment_mod_p" in mods) == (evaluates or prep.token_search
                                                       == "search")
