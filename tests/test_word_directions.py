"""Annihilators along a single-head word's rank-one directions (moment/word_directions.py).

Independent engines: the word is checked against the expansion of G_L
(network_theory.moment_form.moment_polynomials) at random points; the annihilators
against every row of their block built from that expansion mod p; the path bound
against brute force over subsets; the lowered cap of L = 3, d_x = 4, H = 1 against the
kernel of block 7 computed by elimination (slow tier).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.models import SelfAttentionNetwork
from seprank.network_theory.moment_form import moment_pairs, moment_polynomials, token_family
from seprank.separation.moment.blocks import block_specs, entries_mod, exponents
from seprank.separation.moment.expansion_mod import expand_mod
from seprank.separation.moment.ranks import annihilate_rows
from seprank.separation.moment.word_directions import (
    base_points,
    direction_conditions,
    free_degree,
    residual_free_degree,
    single_head_word,
    trace_vectors,
    word_annihilators,
)

P = 1048573


def _net(L, d, seed, d_a=None):
    return SelfAttentionNetwork.random(L, d, 1, d_a, seed=seed, nonzero=True, bound=3)


def _word_value(word, S, j):
    """a^T S X_1 S ... S R e_j, exactly."""
    Sm = flint.fmpq_mat([[flint.fmpq(int(x)) for x in row] for row in S])
    v = word.a.transpose() * Sm
    for X in word.gaps:
        v = v * X * Sm
    col = word.right * flint.fmpq_mat([[int(i == j)] for i in range(S.shape[0])])
    return (v * col)[0, 0]


@pytest.mark.parametrize("L,d,d_a", [(1, 2, None), (2, 2, None), (2, 3, None), (2, 3, 1),
                                     (3, 2, None)])
def test_word_is_the_expansion(L, d, d_a):
    fam = token_family(_net(L, d, 7, d_a), 1)
    word = single_head_word(fam)
    polys = moment_polynomials(fam)
    rng = np.random.default_rng(L * 10 + d)
    pairs = moment_pairs(d)
    for _ in range(3):
        A = rng.integers(-4, 5, (d, d))
        S = A + A.T
        t = [int(S[a, b]) for a, b in pairs]
        for j in range(d):
            assert _word_value(word, S, j) == polys[j](*t)


def test_word_refuses_other_families():
    two_heads = SelfAttentionNetwork.random(2, 2, 2, seed=0, nonzero=True)
    residual = SelfAttentionNetwork.random(2, 2, 1, seed=0, nonzero=True, residual=True)
    assert single_head_word(token_family(two_heads, 0)) is None
    assert single_head_word(token_family(residual, 0)) is None
    assert word_annihilators(token_family(two_heads, 0), P) is None


def _brute_free(n, killed, first):
    best = 0
    for size in range(n, 0, -1):
        for T in combinations(range(1, n + 1), size):
            if first and 1 in T:
                continue
            if any(i + 1 in T and i in killed for i in T):
                continue
            return size
    return best


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.sets(st.integers(1, 8)), st.booleans())
def test_free_degree_is_the_largest_free_set(n, killed, first):
    killed = {i for i in killed if i < n}
    assert free_degree(n, killed, first) == _brute_free(n, killed, first)


def test_free_degree_hand_worked():
    # L = 3, one head: the gaps Q, Q^T, M, Q, Q^T, M^T, Q, Q^T, N, Q, Q^T, M; killing
    # every class but N's (gap 9) leaves {3, 5, 7, 9} and {10, 12}: 6 positions.
    assert free_degree(13, set(range(1, 13)) - {9}, True) == 6
    assert free_degree(13, set(range(1, 13)), False) == 7      # every other position
    assert free_degree(1, set(), True) == 0


@pytest.mark.parametrize("L,d,seed", [(2, 3, 0), (3, 2, 1), (3, 3, 2)])
def test_annihilators_vanish_on_every_row(L, d, seed):
    """Every choice of conditions whose points are found: the trace vectors vanish on the
    whole block k mod p, built from the expansion (wide blocks included: the lemma holds
    for every k, the route only uses the tall ones)."""
    fam = token_family(_net(L, d, seed), 0)
    word = single_head_word(fam)
    pd = expand_mod(fam, P)
    specs = {s.degree: s for s in block_specs(fam.n_rows, fam.n_vars, word.C, False)}
    checked = 0
    for cond in direction_conditions(word, d)[:3]:
        k = cond["degree"]
        found = base_points(word, cond, seed=seed)
        if found is None or specs[k].shape[0] * specs[k].shape[1] > 2**22:
            continue
        vecs = trace_vectors(*found, k, moment_pairs(d), exponents(fam.n_vars, k), P)
        assert len(vecs) == cond["points"]
        assert annihilate_rows(pd, specs[k], fam.n_rows, vecs, P) is True
        # a perturbed vector does not: the check can fail
        bad = list(vecs[0])
        bad[0] = (bad[0] + 1) % P
        assert annihilate_rows(pd, specs[k], fam.n_rows, [tuple(bad)], P) is False
        checked += 1
    assert checked


def test_points_satisfy_their_conditions_exactly():
    import sympy

    net = _net(3, 4, 5)
    word = single_head_word(token_family(net, 2))
    cond = direction_conditions(word, 4)[0]
    w, phi = base_points(word, cond)
    assert phi.degree() == 4 and sympy.gcd(phi, phi.diff()).degree() == 0

    def qform(M):
        Mm = sympy.Matrix(4, 4, [sympy.Rational(int(x.p), int(x.q)) for x in M.entries()])
        v = sympy.Matrix([c.as_expr() for c in w])
        return sympy.Poly(sympy.expand((v.T * Mm * v)[0, 0]), phi.gen).rem(phi)

    a = sympy.Matrix([sympy.Rational(int(x.p), int(x.q)) for x in word.a.entries()])
    lin = sympy.Poly(sympy.expand((a.T * sympy.Matrix([c.as_expr() for c in w]))[0, 0]),
                     phi.gen).rem(phi)
    assert lin.is_zero
    assert all(qform(X).is_zero for X in cond["quadrics"])


def test_word_annihilators_on_l3_d4():
    """The route's case: 4 independent vectors of Ann_7, checked on rows of block 7."""
    fam = token_family(_net(3, 4, 0), 0)
    found = word_annihilators(fam, P)
    assert (found["degree"], found["points"]) == (7, 4)
    vecs = np.array(found["vectors"], dtype=np.int64)
    assert flint.nmod_mat(vecs.tolist(), P).rank() == 4
    spec = next(s for s in block_specs(4, 10, 13, False) if s.degree == 7)
    assert annihilate_rows(expand_mod(fam, P), spec, 4, found["vectors"], P) is True


def test_fractions_in_the_weights():
    net = _net(2, 3, 4)
    w = {k: np.vectorize(lambda x: Fraction(int(x), 2), otypes=[object])(net.weights[k])
         for k in "QKVO"}
    half = SelfAttentionNetwork(2, 3, 1, weights=w)
    fam = token_family(half, 0)
    word = single_head_word(fam)
    S = np.array([[2, 1, 0], [1, -1, 3], [0, 3, 1]])
    pairs = moment_pairs(3)
    assert _word_value(word, S, 2) == moment_polynomials(fam)[2](*[int(S[a, b])
                                                                  for a, b in pairs])


@pytest.mark.slow
def test_l3_d4_h1_exact_and_generic():
    """Generic L = 3, d_x = 4, H = 1: block 7's kernel by elimination mod p has exactly
    the 4 dimensions the word explains, and the route's answer is exact for almost every
    weight (cap lowered by 4 for every weight)."""
    from seprank.models.generic_weights import generic_bound, seeded_network
    from seprank.separation.moment import moment_separation_rank

    r = moment_separation_rank(seeded_network(3, 4, 1, seed=0), weight_bound=generic_bound(3),
                               budget_seconds=900)
    assert r.kind == "exact" and r.value == 31460 - 4
    block7 = next(b for b in r.blocks if b["degree"] == 7)
    assert block7["cap"] == 11440 - 4 and block7["rank"] == 11436
    assert r.generic["claim"] == "exact for almost every weight"


def test_trace_vectors_at_a_prime_past_int64_products():
    """p = 2147483659 > 2^31 with 2 points: 2 (p - 1)^2 >= 2^63, so the products are summed
    as Python integers; the vectors still vanish on block 3 of L = 2, d_x = 3 mod p (the
    expansion mod p through flint)."""
    p = 2147483659
    fam = token_family(_net(2, 3, 3), 0)
    word = single_head_word(fam)
    cond = next(c for c in direction_conditions(word, 3) if c["degree"] == 3 and c["first"])
    found = base_points(word, cond, seed=1)
    vecs = trace_vectors(*found, 3, moment_pairs(3), exponents(6, 3), p)
    assert len(vecs) == 2 and 2 * (p - 1) ** 2 >= 2**63
    spec = next(s for s in block_specs(3, 6, 4, False) if s.degree == 3)
    assert annihilate_rows(expand_mod(fam, p), spec, 3, vecs, p) is True


# -- residual connections: the sub-words ------------------------------------------------------

def _named(net, expr):
    """A product of named factors (P_l = O_l V_l, B_l = K_l^T Q_l, ' = transpose), exactly."""
    from seprank.separation.moment.word_directions import _fmpq

    W, out = net.weights, None
    for name in expr:
        layer = int(name[1:].rstrip("'")) - 1
        if name[0] == "P":
            M = _fmpq(W["O"][layer, 0]) * _fmpq(W["V"][layer, 0])
        else:
            M = _fmpq(W["K"][layer, 0]).transpose() * _fmpq(W["Q"][layer, 0])
        M = M.transpose() if name.endswith("'") else M
        out = M if out is None else out * M
    return out


@pytest.mark.parametrize("L,d", [(2, 3), (3, 2), (3, 4)])
def test_the_named_word_is_the_word(L, d):
    """The symbolic word that residual_free_degree reads has the gaps of single_head_word,
    factor by factor, at random weights."""
    from seprank.separation.moment.word_directions import _symbolic_word

    net = _net(L, d, 7)
    word = single_head_word(token_family(net, 0))
    left, gaps, right = _symbolic_word(L)
    assert [_named(net, g) for g in gaps] == word.gaps
    assert _named(net, right) == word.right
    assert _named(net, left).transpose() * flint.fmpq_mat([[int(i == 0)] for i in range(d)]) \
        == word.a


def test_residual_free_degree_hand_worked():
    """L = 2: the sub-words are G_1 = P_1 (S + Z) B_1 (one position, its left factor P_1 is
    not the word's: position 1 stays free) and the word itself (4 positions; every gap
    killed and position 1 closed: positions 2 and 4). Nothing killed: the word's 4."""
    assert residual_free_degree(2, {1, 2, 3}, True) == (2, 2)
    assert residual_free_degree(2, set(), True) == (3, 2)
    assert residual_free_degree(3, set(), False) == (13, 10)
    with pytest.raises(ValueError):
        residual_free_degree(5, set(), True)


@pytest.mark.slow
def test_word_annihilators_kill_the_residual_network():
    """Residual L = 3, d_x = 4, H = 1: the plain word's 4 annihilators of order 7 vanish on
    every row of the residual C_F's columns of order 7 (rows of every degree <= 6, mod p),
    as residual_free_degree's argument says; a perturbed vector does not."""
    net = SelfAttentionNetwork.random(3, 4, 1, residual=True, seed=0, nonzero=True)
    from seprank.separation.moment.blocks import poly_data_mod
    from seprank.separation.moment.leading_forms import leading_network

    found = word_annihilators(token_family(leading_network(net), 0), P)
    assert residual_free_degree(3, set(found["killed"]), found["first"])[0] < found["degree"]
    pd = poly_data_mod(moment_polynomials(token_family(net, 0), p=P), 10, 13, P)
    X = np.array(found["vectors"], dtype=np.int64).T % P
    bad = X.copy()
    bad[0, 0] = (bad[0, 0] + 1) % P
    cols = exponents(10, 7)
    alphas = exponents(10, 6, up_to=True)
    for j in range(4):
        for lo in range(0, len(alphas), 2000):
            a = alphas[lo:lo + 2000]
            m = entries_mod(pd, np.full(len(a), j), a, cols, P)
            prod = np.zeros((len(a), X.shape[1]), dtype=np.int64)
            worse = np.zeros(len(a), dtype=np.int64)
            for c in range(0, len(cols), 512):
                prod = (prod + m[:, c:c + 512] @ X[c:c + 512]) % P
                worse = (worse + m[:, c:c + 512] @ bad[c:c + 512, 0]) % P
            assert not prod.any()
            assert worse.any() or lo
