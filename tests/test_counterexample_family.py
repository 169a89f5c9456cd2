"""Independent re-verification of the one-hot monomial family (issue 10, integration).

The family (seprank.network_theory.one_hot, seprank.papers.levine2020.counterexample)
decides levine2020 Theorems 2, 4, 6 and wies2021 Theorems 3, 4 as false. Here it is
rebuilt from scratch: the weights are written out in the test and evaluated by the
ordinary eq. (3) network code; the exponents come from a recursion written here; the
separation rank prod(e + 1) is confirmed by exact value-matrix ranks (rank <= sep always,
and the binomial expansion gives sep <= prod(e + 1)); the bounds are recomputed from the
printed formulas, and Theorem 2's logarithms are enclosed with mpmath interval arithmetic.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb, prod

import mpmath
import numpy as np
import pytest

import seprank
from seprank.models import SelfAttentionNetwork
from seprank.network_theory.one_hot import family_seps_by_layer, first_exceeding, padded_network
from seprank.papers.levine2020.counterexample import exceeds_eq19, exceeds_thm2_upper
from seprank.papers.levine2020.identities import top_degree_part


def _schedule(s, L, given=None):
    if given is not None:
        return given
    # layer l: delta = l for l <= s // 2, then 1 (the module docstring's schedule)
    return [[(a, (a + (t if t <= s // 2 else 1)) % s) for a in range(s)] for t in range(L)]


def _weights(s, L, given=None):
    W = {k: np.zeros((L, s, 1, s) if k != "O" else (L, s, s, 1), dtype=object) for k in "QKVO"}
    for t, pairs in enumerate(_schedule(s, L, given)):
        for a, (b, c) in enumerate(pairs):
            W["Q"][t, a, 0, a], W["K"][t, a, 0, c] = 1, 1
            W["V"][t, a, 0, b], W["O"][t, a, a, 0] = 1, 1
    return W


def _exponents(s, L, given=None):
    # g_a <- g_a g_b g_c S_bc, as dicts {(b, c): exponent}
    g = [{} for _ in range(s)]
    for pairs in _schedule(s, L, given):
        new = []
        for a, (b, c) in enumerate(pairs):
            e = {}
            for src in (g[a], g[b], g[c]):
                for k, v in src.items():
                    e[k] = e.get(k, 0) + v
            key = (min(b, c), max(b, c))
            e[key] = e.get(key, 0) + 1
            new.append(e)
        g = new
    return g


def _closed_form(X, ex, p):
    S = np.array(X, dtype=object).T.dot(np.array(X, dtype=object))
    return X[0][p] * prod(S[b][c] ** e for (b, c), e in ex[p].items())


@pytest.mark.parametrize("s,L,N", [(2, 2, 4), (3, 2, 6), (3, 3, 6), (4, 3, 8)])
def test_network_equals_closed_form(s, L, N):
    rng = random.Random(10 * s + L)
    net = SelfAttentionNetwork(L, s, s, 1, weights=_weights(s, L))
    ex = _exponents(s, L)
    for _ in range(2):
        X = [[Fraction(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(s)]
             for _ in range(N)]
        out = net.evaluate([X], "QQ")[0, 0]
        assert [out[p] for p in range(s)] == [_closed_form(X, ex, p) for p in range(s)]
        assert any(out[p] != 0 for p in range(s))
    assert family_seps_by_layer(s, L)[-1] == [prod(v + 1 for v in e.values()) for e in ex]


def test_padded_network_equals_closed_form():
    # d_x = 2s, H = s, d_a = 2: coordinates p < s are the same monomials of the first s
    # channels' moments; the others are 0
    s, L, N = 3, 2, 6
    rng = random.Random(5)
    ex = _exponents(s, L)
    X = [[Fraction(rng.randint(-5, 5), rng.randint(1, 3)) for _ in range(2 * s)]
         for _ in range(N)]
    out = padded_network(s, L).evaluate([X], "QQ")[0, 0]
    Xs = [row[:s] for row in X]
    assert [out[p] for p in range(s)] == [_closed_form(Xs, ex, p) for p in range(s)]
    assert all(out[p] == 0 for p in range(s, 2 * s))


def _value_matrix(net, s, N, p, K, rng, d_x=None):
    d_x = d_x or s
    half = N // 2
    pts = [[[rng.randint(-40, 40) for _ in range(d_x)] for _ in range(half)]
           for _ in range(2 * K)]
    X = np.array([pts[a] + pts[K + b] for a in range(K) for b in range(K)], dtype=object)
    out = net.evaluate(X, "ZZ")
    return [[out[a * K + b, 0, p] for b in range(K)] for a in range(K)]


@pytest.mark.parametrize("s,L,N,p", [(2, 2, 4, 0), (3, 2, 6, 1)])
def test_sep_equals_prod_e_plus_1_by_exact_rank(s, L, N, p):
    # rank of any value matrix <= sep <= prod(e + 1) (binomial expansion of S = S^P + S^Q);
    # a K x K matrix on random P- and Q-points, K > prod(e + 1), reaches prod(e + 1)
    want = prod(v + 1 for v in _exponents(s, L)[p].values())
    net = SelfAttentionNetwork(L, s, s, 1, weights=_weights(s, L))
    A = _value_matrix(net, s, N, p, want + 3, random.Random(7))
    assert seprank.rank(A, "exact").value == want


def test_sep_by_exact_coefficient_matricization():
    # the exact separation rank of a polynomial is the rank of its coefficient matrix
    # (rows: monomials in the P-variables, columns: monomials in the Q-variables)
    import sympy

    s, L, N, p = 2, 2, 4, 0
    xs = sympy.symbols(f"x0:{N * s}")
    X = [list(xs[j * s:(j + 1) * s]) for j in range(N)]
    S = [[sum(X[j][b] * X[j][c] for j in range(N)) for c in range(s)] for b in range(s)]
    ex = _exponents(s, L)[p]
    y = sympy.Poly(sympy.expand(X[0][p] * prod(S[b][c] ** e for (b, c), e in ex.items())), *xs)
    half = N * s // 2
    rows, cols, entries = {}, {}, {}
    for mono, coeff in y.terms():
        r = rows.setdefault(mono[:half], len(rows))
        c = cols.setdefault(mono[half:], len(cols))
        entries[r, c] = int(coeff)
    A = [[entries.get((r, c), 0) for c in range(len(cols))] for r in range(len(rows))]
    assert seprank.rank(A, "exact").value == prod(e + 1 for e in ex.values()) == 12


def test_rank_is_lower_semicontinuous_in_the_weights():
    # sep > B at the family's weights w0 => a (B+1)-minor of a value matrix is a polynomial
    # in the weights, nonzero at w0, so nonzero for generic nearby weights: the rank on the
    # same grid does not drop under random perturbations w0 + delta / 1000 (written as
    # 1000 w0 + delta: scaling every weight scales the output by a constant)
    s, L, N, p = 2, 2, 4, 0
    want = prod(v + 1 for v in _exponents(s, L)[p].values())
    rng = random.Random(11)
    base = _weights(s, L)
    for trial in range(2):
        W = {k: np.array([[[[1000 * base[k][i, h, a, b] + rng.randint(-9, 9)
                             for b in range(base[k].shape[3])]
                            for a in range(base[k].shape[2])]
                           for h in range(base[k].shape[1])]
                          for i in range(base[k].shape[0])], dtype=object) for k in "QKVO"}
        net = SelfAttentionNetwork(L, s, s, 1, weights=W)
        A = _value_matrix(net, s, N, p, want + 2, random.Random(7 + trial))
        assert seprank.rank(A, "exact").value >= want


def test_residual_top_degree_part_is_the_family():
    # Theorem 6: the residual network's degree-3^L part is the plain network (no skips)
    s, L = 2, 2
    W = _weights(s, L)
    res = SelfAttentionNetwork(L, s, s, 1, weights=W, residual=True)
    X = [[1, 2], [-1, 3], [2, 0], [1, -2]]
    plain = SelfAttentionNetwork(L, s, s, 1, weights=W).evaluate([X], "ZZ")[0]
    assert top_degree_part(res, X).tolist() == plain.tolist()


def _eq19(L, d_x):
    C = (3**L - 1) // 2
    return d_x * (C + 1) * comb(d_x + 2 * C - 1, 2 * C) * (Fraction(2 * C, d_x) + 1) ** d_x


def test_eq19_first_exceeded_at_dx4_L12():
    seps = [max(prod(v + 1 for v in e.values()) for e in _exponents(4, L)) for L in (11, 12)]
    assert seps[0] <= _eq19(11, 4)
    assert seps[1] > _eq19(12, 4)
    assert first_exceeding(exceeds_eq19, 4, 12)["sep"] == seps[1]
    # eq. (20) = (C + 1) eq. (19), residual: first at d_x = 5, L = 11
    sep = max(prod(v + 1 for v in e.values()) for e in _exponents(5, 11))
    assert sep > ((3**11 - 1) // 2 + 1) * _eq19(11, 5)


def _thm2_upper_log3_iv(L, d_x):
    # 2 d_x L + L - 2 d_x log_3(d_x / (2 sqrt(2e))) + log_3 d_x, interval arithmetic
    iv = mpmath.iv
    iv.prec = 200
    ln3 = iv.log(3)
    c2 = -2 * d_x * iv.log(iv.mpf(d_x) / (2 * iv.sqrt(2 * iv.e))) / ln3 + iv.log(d_x) / ln3
    return 2 * d_x * L + L + c2


@pytest.mark.parametrize("s,L,padded", [(4, 32, False), (8, 9, False), (9, 24, True)])
def test_thm2_upper_bound_exceeded_interval_arithmetic(s, L, padded):
    d_x = 2 * s if padded else s
    sep = max(family_seps_by_layer(s, L)[-1])
    iv = mpmath.iv
    iv.prec = 200
    gap = iv.log(sep) / iv.log(3) - _thm2_upper_log3_iv(L, d_x)
    assert gap.a > 0                      # certified: log_3 sep > the upper bound
    assert 3**L > d_x                     # inside Theorem 2's regime
    assert exceeds_thm2_upper(sep, L, d_x) is True
    prev = max(family_seps_by_layer(s, L - 1)[-1])
    assert exceeds_thm2_upper(prev, L - 1, d_x) is False


def test_searched_schedule_exceeds_eq19_at_L7():
    from seprank_proofs.levine2020.levine_counterexample import SEARCHED_8_7

    s, L = 8, 7
    net = SelfAttentionNetwork(L, s, s, 1, weights=_weights(s, L, SEARCHED_8_7))
    ex = _exponents(s, L, SEARCHED_8_7)
    rng = random.Random(3)
    X = [[Fraction(rng.randint(-3, 3), rng.randint(1, 2)) for _ in range(s)] for _ in range(16)]
    out = net.evaluate([X], "QQ")[0, 0]
    assert [out[p] for p in range(s)] == [_closed_form(X, ex, p) for p in range(s)]
    assert any(out[p] != 0 for p in range(s))
    assert max(prod(v + 1 for v in e.values()) for e in ex) > _eq19(L, s)


def test_closed_form_at_the_counterexample_sizes_mod_p():
    """The decisive instances themselves (d_x = 4, L = 12; 5, 11; 8, 9): the ordinary eq. (3)
    evaluator mod p = 2^31 - 1 equals x_a prod S^e at random points. A false identity of
    degree 3^L would pass one point with probability <= 3^L / p (Schwartz-Zippel), two
    points with < 1e-7; the closed form itself is proved by the induction of the module
    docstring, this confirms it where the counterexamples are claimed."""
    import random

    from seprank.network_theory.one_hot import (
        monomial_exponents,
        monomial_network,
        shift_schedule,
    )

    p = 2**31 - 1
    for s, L in [(4, 12), (5, 11), (8, 9)]:
        schedule = shift_schedule(s, L)
        net = monomial_network(s, schedule)
        exps = monomial_exponents(s, schedule)
        rng = random.Random(1000 * s + L)
        for _ in range(2):
            X = [[rng.randrange(p) for _ in range(s)] for _ in range(2 * s)]
            out = net.evaluate([X], "GF(p)", p=p, position=0, kernel=False)[0]
            S = [[sum(x[b] * x[c] for x in X) % p for c in range(s)] for b in range(s)]
            for a in range(s):
                want = X[0][a]
                for (b, c), e in exps[a].items():
                    want = want * pow(S[b][c], e, p) % p
                assert int(out[a]) % p == want


def test_sep_equals_prod_e_plus_1_by_the_separation_rank_engine():
    """Independent engine (seprank.separation, coefficient route, exact over Q): the
    separation rank of the one-hot family at N = 2s, balanced partition, is prod(e + 1)."""
    import seprank
    from seprank.network_theory.one_hot import (
        monomial_exponents,
        monomial_network,
        monomial_sep,
        shift_schedule,
    )

    for s, L in [(2, 2), (2, 3), (3, 2)]:
        schedule = shift_schedule(s, L)
        net = monomial_network(s, schedule)
        want = monomial_sep(monomial_exponents(s, schedule)[0])
        got = seprank.separation_rank(network=net, N=2 * s, position=0, coordinate=0,
                                      route="coefficient")
        assert (got.value, got.kind) == (want, "exact"), (s, L)
