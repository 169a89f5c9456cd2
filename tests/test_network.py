"""The analyzed self-attention network (levine2020 eq. (3)) over Z, Q, Q(i), GF(p), float64."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.models import SelfAttentionNetwork, parse_domain
from seprank.models.reference import gaussian_batch, literal_outputs, rational_batch
from seprank.scalars.gaussian import GaussianRational, residues, sqrt_minus_one

shapes = st.tuples(st.integers(1, 2), st.sampled_from([(2, 1), (2, 2), (3, 1), (4, 2), (3, 3)]),
                   st.integers(1, 3), st.integers(1, 3), st.booleans(), st.integers(0, 10**6))


def test_hand_worked_scalar_layer():
    # d_x = d_a = H = 1: y^i = q k o v x_i sum_j x_j^2
    w = {"Q": [[[[2]]]], "K": [[[[3]]]], "V": [[[[-1]]]], "O": [[[[Fraction(1, 2)]]]]}
    net = SelfAttentionNetwork(1, 1, 1, weights=w)
    got = net.evaluate([[1], [2], [-1]])  # a single sequence (N, d_x)
    assert got.tolist() == [[-18], [-36], [18]]  # qkov = -3, sum x^2 = 6
    res = SelfAttentionNetwork(1, 1, 1, residual=True, weights=w).evaluate([[1], [2], [-1]])
    assert res.tolist() == [[-17], [-34], [17]]


def test_hand_worked_two_dimensions():
    # one head, identity Q, K, V, O: y^i = sum_j <x_i, x_j> x_j
    eye = [[[[1, 0], [0, 1]]]]
    net = SelfAttentionNetwork(1, 2, 1, weights={"Q": eye, "K": eye, "V": eye, "O": eye})
    X = [[1, 0], [1, 1]]
    # y^1 = <x1,x1> x1 + <x1,x2> x2 = (1,0) + (1,1) = (2,1); y^2 = (1,0) + 2 (1,1) = (3,2)
    assert net.evaluate(X).tolist() == [[2, 1], [3, 2]]


@pytest.mark.parametrize("L,d_x,H,d_a,residual", [(1, 2, 1, None, False), (2, 4, 2, None, False),
                                                   (2, 3, 2, 2, False), (1, 3, 3, 1, True),
                                                   (2, 2, 1, None, True), (3, 2, 2, 3, False)])
@pytest.mark.parametrize("kind", ["rational", "gaussian"])
def test_matches_literal_equation(L, d_x, H, d_a, residual, kind):
    rng = np.random.default_rng(L * 100 + d_x)
    net = SelfAttentionNetwork.random(L, d_x, H, d_a, residual=residual, seed=5, kind=kind)
    X = (rational_batch if kind == "rational" else gaussian_batch)(rng, 2, 3, d_x)
    got = net.evaluate(X, "QQ" if kind == "rational" else "QQ(i)")
    assert got.tolist() == literal_outputs(net, X)


@settings(max_examples=25)
@given(shapes)
def test_qq_and_gf_p_agree_mod_p(params):
    L, (d_x, H), N, batch, residual, seed = params
    rng = np.random.default_rng(seed)
    net = SelfAttentionNetwork.random(L, d_x, H, residual=residual, seed=seed, kind="rational")
    X = rational_batch(rng, batch, N, d_x)
    exact = net.evaluate(X, "QQ")
    for p in (101, 2**31 - 1):
        assert (residues(exact, p) == net.evaluate(X, "GF(p)", p=p)).all()


@settings(max_examples=20)
@given(shapes)
def test_qi_and_gf_p_agree_mod_prime_ideal(params):
    L, (d_x, H), N, batch, residual, seed = params
    rng = np.random.default_rng(seed)
    net = SelfAttentionNetwork.random(L, d_x, H, residual=residual, seed=seed, kind="gaussian")
    X = gaussian_batch(rng, batch, N, d_x)
    exact = net.evaluate(X, "QQ(i)")
    for p in (13, 1000033):
        s = sqrt_minus_one(p)
        assert (residues(exact, p, s) == net.evaluate(X, f"GF({p})")).all()
    # conjugating weights and inputs conjugates the output (rational coefficients)
    conj = SelfAttentionNetwork(L, d_x, H, residual=residual,
                                weights={k: np.vectorize(lambda z: z.conjugate(), otypes=[object])
                                         (net.weights[k]) for k in "QKVO"})
    Xc = np.vectorize(lambda z: z.conjugate(), otypes=[object])(X)
    assert conj.evaluate(Xc, "QQ(i)").tolist() == \
        np.vectorize(lambda z: z.conjugate(), otypes=[object])(exact).tolist()


@settings(max_examples=25)
@given(shapes)
def test_float_agrees_with_exact_to_rounding(params):
    L, (d_x, H), N, batch, residual, seed = params
    rng = np.random.default_rng(seed)
    net = SelfAttentionNetwork.random(L, d_x, H, residual=residual, seed=seed, kind="rational")
    absnet = SelfAttentionNetwork(L, d_x, H, residual=residual,
                                  weights={k: np.abs(net.weights[k]) for k in "QKVO"})
    X = rational_batch(rng, batch, N, d_x)
    exact, bound = net.evaluate(X, "QQ"), absnet.evaluate(np.abs(X), "QQ")
    flt = net.evaluate(X, "float64")
    assert flt.dtype == np.float64
    for idx in np.ndindex(exact.shape):
        err = abs(Fraction(float(flt[idx])) - exact[idx])
        assert err <= Fraction(1, 10**12) * max(bound[idx], Fraction(1, 10**6))


def test_float_of_gaussian_network_is_complex():
    rng = np.random.default_rng(0)
    net = SelfAttentionNetwork.random(2, 2, 1, seed=1, kind="gaussian")
    X = gaussian_batch(rng, 2, 3, 2)
    flt = net.evaluate(X, "float64")
    exact = net.evaluate(X, "QQ(i)")
    assert flt.dtype == np.complex128
    assert np.allclose(flt, exact.astype(np.complex128), rtol=1e-12)


@pytest.mark.parametrize("L", [1, 2, 3])
def test_homogeneous_of_degree_three_to_the_L(L):
    rng = np.random.default_rng(L)
    net = SelfAttentionNetwork.random(L, 3, 1, seed=L, kind="rational")
    X = rational_batch(rng, 2, 3, 3)
    t = Fraction(-2, 3)
    assert (net.evaluate(X * t) == net.evaluate(X) * t ** (3 ** L)).all()


def test_zz_equals_qq_and_integer_outputs():
    rng = np.random.default_rng(2)
    net = SelfAttentionNetwork.random(2, 4, 2, seed=2)
    X = rng.integers(-5, 6, size=(3, 4, 4))
    zz = net.evaluate(X, "ZZ")
    assert all(type(v) is int for v in zz.flat)
    assert (zz == net.evaluate(X, "QQ")).all()
    assert (zz == net.evaluate(X, "QQ(i)")).all()
    assert (np.array(zz.tolist(), dtype=np.float64) == net.evaluate(X, "float64")).all()


def test_large_values_stay_exact():
    # integers far beyond int64: object arithmetic, no overflow
    net = SelfAttentionNetwork.random(3, 2, 1, seed=9, bound=9, nonzero=True)
    X = np.array([[[10**6, -10**6], [3, 10**5]]], dtype=object)
    y = net.evaluate(X, "ZZ")
    assert max(abs(v) for v in y.flat) > 2**63
    assert (residues(y, 2**31 - 1) == net.evaluate(X, "GF(p)", p=2**31 - 1)).all()


def test_position_and_output_and_function():
    rng = np.random.default_rng(4)
    net = SelfAttentionNetwork.random(2, 4, 2, residual=True, seed=4, kind="rational")
    X = rational_batch(rng, 3, 4, 4)
    full = net.evaluate(X)
    for i in range(4):
        assert (net.evaluate(X, position=i) == full[:, i]).all()
        assert (net.output(X, i, 2) == full[:, i, 2]).all()
        assert (net.as_function(i, 1)(X) == full[:, i, 1]).all()
    mod = net.evaluate(X, "GF(p)", p=97, position=3)
    assert (mod == residues(full[:, 3], 97)).all()


def test_composition_of_layers():
    rng = np.random.default_rng(6)
    for residual in (False, True):
        net = SelfAttentionNetwork.random(3, 2, 2, residual=residual, seed=6, kind="rational")
        X = rational_batch(rng, 2, 3, 2)
        y = X
        for layer in range(3):
            y = net.sub_network([layer]).evaluate(y)
        assert (y == net.evaluate(X)).all()


def test_random_is_reproducible_and_nonzero_option():
    a = SelfAttentionNetwork.random(2, 4, 2, seed=11, kind="rational")
    b = SelfAttentionNetwork.random(2, 4, 2, seed=11, kind="rational")
    assert all((a.weights[k] == b.weights[k]).all() for k in "QKVO")
    c = SelfAttentionNetwork.random(2, 4, 2, seed=11, nonzero=True, bound=1)
    assert all(v in (-1, 1) for k in "QKVO" for v in c.weights[k].flat)
    assert a.num_weight_matrices == 16 and "d_a=2" in repr(a)


def test_parse_domain():
    assert parse_domain("QQ(i)") == ("QQ(i)", None)
    assert parse_domain("float") == ("float64", None)
    assert parse_domain("GF(p)", p=13) == ("GF", 13)
    with pytest.raises(ParameterError, match="domain must be one of"):
        parse_domain("RR")
    with pytest.raises(ParameterError, match="needs the prime"):
        parse_domain("GF(p)")
    with pytest.raises(ParameterError, match="different primes"):
        parse_domain("GF(13)", p=17)
    with pytest.raises(ParameterError, match="only meaningful"):
        parse_domain("QQ", p=13)
    with pytest.raises(NotPrimeError):
        parse_domain("GF(15)")
    with pytest.raises(NotPrimeError, match="limit"):
        parse_domain("GF(p)", p=2**31 + 11)


def test_parameter_errors_name_the_rule():
    with pytest.raises(ParameterError, match=r"H = 3 does not divide d_x = 4"):
        SelfAttentionNetwork.random(1, 4, 3)
    assert SelfAttentionNetwork.random(1, 4, 3, d_a=2).d_a == 2  # any d_a when given
    with pytest.raises(ParameterError, match=r"L \(depth\) must be >= 1"):
        SelfAttentionNetwork.random(0, 4, 2)
    with pytest.raises(ParameterError, match="d_a"):
        SelfAttentionNetwork.random(1, 4, 2, d_a=0)
    with pytest.raises(ParameterError, match="kind"):
        SelfAttentionNetwork.random(1, 4, 2, kind="real")
    with pytest.raises(InputError, match="weights are required"):
        SelfAttentionNetwork(1, 2, 1)


def test_input_errors():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    with pytest.raises(InputError, match=r"weights\['O'\] has shape"):
        SelfAttentionNetwork(1, 2, 1, weights=dict(net.weights, O=np.zeros((1, 1, 2, 1))))
    with pytest.raises(InputError, match="keys"):
        SelfAttentionNetwork(1, 2, 1, weights={"Q": net.weights["Q"]})
    with pytest.raises(InputError, match="d_x = 2"):
        net.evaluate(np.zeros((1, 3, 5), dtype=np.int64))
    with pytest.raises(ParameterError, match="position = 3 must be < N = 3"):
        net.evaluate(np.zeros((1, 3, 2), dtype=np.int64), position=3)
    with pytest.raises(ParameterError, match="coordinate"):
        net.output(np.zeros((1, 3, 2), dtype=np.int64), 0, 2)
    with pytest.raises(InputError, match="float"):
        net.evaluate(np.zeros((1, 3, 2)), "QQ")
    with pytest.raises(InputError, match="not an integer"):
        net.evaluate([[[Fraction(1, 2), 0]]], "ZZ")
    with pytest.raises(InputError, match="QQ\\(i\\)"):
        net.evaluate([[[GaussianRational(0, 1), 0]]], "QQ")
    gauss = SelfAttentionNetwork.random(1, 2, 1, seed=0, kind="gaussian", nonzero=True)
    with pytest.raises(ParameterError, match="1 mod 4"):
        gauss.evaluate([[[1, 0]]], "GF(p)", p=7)
    rat = SelfAttentionNetwork(1, 1, 1, weights={"Q": [[[[Fraction(1, 7)]]]], "K": [[[[1]]]],
                                                 "V": [[[[1]]]], "O": [[[[1]]]]})
    with pytest.raises(ParameterError, match="divisible by p = 7"):
        rat.evaluate([[[1]]], "GF(p)", p=7)
