"""The compiled last product of G_L mod p (seprank.separation.moment.expansion_mod) against
an independent engine: flint's exact expansion over Z (or Q), reduced mod p term by term."""

from __future__ import annotations

from fractions import Fraction
from math import comb, lcm

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import VocabularyEmbedding
from seprank.models.generic_weights import seeded_network
from seprank.network_theory.moment_form import moment_polynomials, token_family
from seprank.network_theory.one_hot import monomial_network, shift_schedule
from seprank.separation.moment.blocks import poly_data_mod
from seprank.separation.moment.embedding import embedding_family
from seprank.separation.moment.expansion_mod import FUSED_PRIME_LIMIT, _dense_keys, expand_mod
from seprank.separation.moment.run import integer_poly_data


def _reduced_exact(fam, p: int) -> list[dict]:
    """{key: c_beta beta! mod p} per g_j, nonzero residues only, from the exact expansion
    (times the lcm of the denominators, which the check divides back out mod p)."""
    polys = moment_polynomials(fam)
    den = 1
    for g in polys:
        for c in g.coeffs():
            den = lcm(den, int(getattr(c, "q", 1)))
    pd = integer_poly_data(polys, fam.n_vars, fam.degree)
    inv = pow(den, -1, p)
    out = []
    for j in range(fam.n_rows):
        res = [int(x) * inv % p for x in pd.residue_terms(j, p).tolist()]
        out.append({k: r for k, r in zip(pd.keys[j].tolist(), res, strict=True) if r})
    return out


def _as_dicts(pd, p: int) -> list[dict]:
    out = []
    for j in range(len(pd.keys)):
        keys, res = pd.keys[j].tolist(), pd.residue_terms(j, p).tolist()
        assert keys == sorted(keys) and all(res)             # sorted, zeros dropped
        w = pd.weights()
        assert (pd.exps[j].dot(w) == pd.keys[j]).all()       # exponents match their keys
        out.append(dict(zip(keys, res, strict=True)))
    return out


def _agrees(fam, p: int) -> None:
    pd = expand_mod(fam, p)
    assert not pd.exact and pd.radix == 2 * fam.degree + 1
    assert _as_dicts(pd, p) == _reduced_exact(fam, p)


@pytest.mark.parametrize("L, d, H, residual", [(1, 2, 1, False), (2, 3, 1, False),
                                                (2, 2, 2, True), (3, 2, 1, False),
                                                (3, 2, 2, True), (2, 4, 2, False)])
def test_agrees_with_the_exact_expansion_reduced(L, d, H, residual):
    fam = token_family(seeded_network(L, d, H, seed=2, residual=residual), 0)
    for p in (101, 1048573):                  # 101: some coefficients vanish mod p
        _agrees(fam, p)


def test_agrees_on_rational_weights_and_a_shifted_family():
    half = Fraction(1, 2)
    net = SelfAttentionNetwork(2, 2, 1, weights={k: [[[[half, 1], [2, -1]]]] * 2
                                                  for k in "QKVO"})
    _agrees(token_family(net, 1), 1048573)
    plain = SelfAttentionNetwork.random(2, 2, 1, seed=0, nonzero=True)
    emb = VocabularyEmbedding([[1, 0, 1], [0, 1, 1]], [[0, 0], [0, 0]])   # affine: shifted
    fam, _ = embedding_family(plain, emb, 0)
    assert fam.shift is not None and fam.mixed
    _agrees(fam, 1048573)


def test_sparse_factors_take_the_sums_not_the_dense_support():
    """One-hot networks: few terms per factor (W from the sums of the supports)."""
    net = monomial_network(2, shift_schedule(2, 3))
    _agrees(token_family(net, 0), 1048573)


@pytest.mark.parametrize("p", [2**31 - 1, 2**31 + 11])
def test_large_primes_reduce_as_they_go_or_stay_on_flint(p):
    fam = token_family(seeded_network(2, 3, 1, seed=5), 0)
    assert (p < FUSED_PRIME_LIMIT) == (p == 2**31 - 1)
    pd = expand_mod(fam, p)
    ref = poly_data_mod(moment_polynomials(fam, p=p), fam.n_vars, fam.degree, p)
    assert _as_dicts(pd, p) == _as_dicts(ref, p) == _reduced_exact(fam, p)


@settings(max_examples=12, deadline=None)
@given(L=st.integers(1, 3), d=st.integers(1, 3), H=st.integers(1, 2), residual=st.booleans(),
       seed=st.integers(0, 10**6), coordinate=st.integers(0, 2))
def test_random_small_networks(L, d, H, residual, seed, coordinate):
    if L == 3 and d == 3:
        d = 2                                 # keep each example under a second
    net = SelfAttentionNetwork.random(L, d, H, d_a=1, seed=seed, residual=residual)
    _agrees(token_family(net, coordinate % d), 1000003)


@pytest.mark.parametrize("n, lo, hi", [(1, 0, 3), (3, 2, 2), (4, 0, 5), (10, 4, 4), (3, 5, 7)])
def test_dense_support_is_every_monomial_of_the_degrees_once(n, lo, hi):
    radix = hi + 1
    keys = _dense_keys(n, lo, hi, radix)
    assert len(set(keys.tolist())) == keys.size == sum(comb(n + k - 1, k)
                                                       for k in range(lo, hi + 1))
    digits = [(keys // radix**v) % radix for v in range(n)]
    deg = sum(digits)
    assert ((lo <= deg) & (deg <= hi)).all()
