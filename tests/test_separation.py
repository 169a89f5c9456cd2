"""seprank.separation_rank: hand-worked cases, the two routes against each other and against an
independent expansion (sympy on the literal eq. (3) of seprank.models.reference), the parity
lemma, weight files."""

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import seprank
from seprank.errors import InputError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.models.reference import literal_outputs
from seprank.papers.levine2020.bounds import thm3_bound
from seprank.separation import load_weights, weights_from_json
from seprank.separation.polynomial import coefficient_blocks, network_polynomial

ONES = {k: [[[[1]]]] for k in "QKVO"}


def identity_weights(d_x, L=1):
    eye = np.eye(d_x, dtype=np.int64).tolist()
    return {k: [[eye]] * L for k in "QKVO"}


# -- hand-worked cases ------------------------------------------------------------------------

@pytest.mark.parametrize("route", ["coefficient", "grid"])
def test_one_layer_scalar(route):
    # y^1 = x1 (x1^2 + x2^2) = x1^3 * 1 + x1 * x2^2: C = [[1, 0], [0, 1]] on
    # rows (x1^3, x1), columns (1, x2^2): rank 2 = Theorem 3's (1 (1 + 1))^1
    r = seprank.separation_rank(1, 1, 1, weights=ONES, route=route)
    assert (r.value, r.kind) == (2, "exact")
    assert r.value == thm3_bound(1, 1, 1) == r.bounds["L-Thm3"]["value"]


def test_one_layer_n4_partitions():
    # y^1 = x1 (x1^2 + x2^2 + x3^2 + x4^2). I = {1, 2}: x1 (x1^2 + x2^2) * 1 + x1 * (x3^2 + x4^2)
    # -> 2. I = {2, 3} (x1 on the J side): (x1^3 + x1 x4^2) + (x2^2 + x3^2) x1 -> 2.
    for part in ([0, 1], [1, 2], [1], [0]):
        assert seprank.separation_rank(1, 1, 1, N=4, weights=ONES, partition=part).value == 2
    # I = {2} alone: x2^2 * x1 + 1 * x1 (x1^2 + x3^2 + x4^2) -> 2 as well
    assert seprank.separation_rank(1, 1, 1, N=3, weights=ONES, partition=[1]).value == 2


@pytest.mark.parametrize("d_x", [1, 2, 3])
def test_identity_weights_attain_theorem3_at_one_layer(d_x):
    # Q = K = V = O = identity, H = 1, d_a = d_x: y^1_p = sum_j <x_1, x_j> x_{j,p}.
    # I = {1}, N = 2: the I-only term x_{1,p} |x_1|^2 (1 separable term) plus
    # sum_c x_{1,c} (x_{2,c} x_{2,p}): d_x independent products. sep = d_x + 1 = (1 (d_x + 1))^1.
    for route in ("coefficient", "grid"):
        r = seprank.separation_rank(weights=identity_weights(d_x), route=route)
        assert (r.value, r.kind) == (d_x + 1, "exact")
        assert r.value == thm3_bound(1, 1, d_x)


def test_one_hot_weights():
    # d_x = 2, d_a = 1: Q = K = (1, 0), V = (0, 1), O = (1, 0)^T.
    # y^1_1 = sum_j x_{1,1} x_{j,1} x_{j,2} = x11^2 x12 * 1 + x11 * x21 x22: rank 2;
    # y^1_2 = 0 (O has no second row): rank 0, exactly.
    w = {"Q": [[[[1, 0]]]], "K": [[[[1, 0]]]], "V": [[[[0, 1]]]], "O": [[[[1], [0]]]]}
    assert seprank.separation_rank(weights=w, coordinate=0).value == 2
    r = seprank.separation_rank(weights=w, coordinate=1, route="coefficient")
    assert (r.value, r.kind) == (0, "exact")
    # position 2 of the same network: x21 (x11 x12) + x21^2 x22 * 1, I = {1}: rank 2
    assert seprank.separation_rank(weights=w, position=1).value == 2


def test_residual_one_layer_hand_worked():
    # residual, all ones, d_x = 1: y^1 = x1 + x1 (x1^2 + x2^2) = (x1 + x1^3) * 1 + x1 * x2^2: 2
    r = seprank.separation_rank(weights=ONES, residual=True)
    assert (r.value, r.kind) == (2, "exact")
    assert set(r.bounds) == {"L-Thm5", "L-Thm6"}


def test_two_layer_scalar_closed_form():
    # L = 2, all ones, d_x = 1: the first layer maps x_n -> x_n s with s = x1^2 + x2^2, so the
    # second gives y^1 = x1 s (x1^2 s^2 + x2^2 s^2) = x1 s^4. Separately in x1, x2:
    # x1 (x1^2 + x2^2)^4 = sum_k binom(4, k) x1^(2k+1) x2^(8-2k): five independent terms.
    w = {k: [[[[1]]], [[[1]]]] for k in "QKVO"}
    for route in ("coefficient", "grid"):
        r = seprank.separation_rank(weights=w, route=route)
        assert (r.value, r.kind) == (5, "exact")


def test_rational_weights_same_rank_as_scaled_integers():
    # without residual connections, W -> W / 2 scales the output by a constant: same rank
    net = SelfAttentionNetwork.random(2, 2, 1, seed=5, nonzero=True)
    half = {k: np.vectorize(lambda x: Fraction(x, 2), otypes=[object])(net.weights[k])
            for k in "QKVO"}
    a = seprank.separation_rank(network=net)
    b = seprank.separation_rank(weights=half)
    assert b.weights["Q"][0][0][0][0] in ("1/2", "-1/2", 1, -1)
    assert a.value == b.value and b.kind == "exact"
    with pytest.raises(InputError, match="denominator divisible by p = 2"):
        seprank.separation_rank(weights=half, route="grid", prime=2)


# -- independent expansion: sympy on the literal transcription of eq. (3) ---------------------

def sympy_sep_rank(net, N, I, position, coordinate):
    xs = [[sympy.Symbol(f"x{n}_{c}") for c in range(net.d_x)] for n in range(N)]
    y = sympy.expand(literal_outputs(net, [xs])[0][position][coordinate])
    Iv = [v for n in I for v in xs[n]]
    Jv = [v for n in range(N) if n not in I for v in xs[n]]
    poly = sympy.Poly(y, *(Iv + Jv)) if y != 0 else None
    if poly is None:
        return 0
    rows, cols, entries = {}, {}, {}
    for mon, c in poly.terms():
        a, b = mon[:len(Iv)], mon[len(Iv):]
        entries[(rows.setdefault(a, len(rows)), cols.setdefault(b, len(cols)))] = c
    M = sympy.zeros(len(rows), len(cols))
    for (i, j), c in entries.items():
        M[i, j] = c
    return M.rank()


@st.composite
def small_instances(draw):
    L = draw(st.sampled_from([1, 1, 2]))
    d_x = draw(st.integers(1, 3 if L == 1 else 2))
    H = draw(st.sampled_from([h for h in (1, 2, 3) if d_x % h == 0]))
    N = draw(st.integers(2, 4 if L == 1 else 2))
    size = draw(st.integers(1, N - 1))
    I = sorted(draw(st.permutations(list(range(N))))[:size])
    return dict(L=L, d_x=d_x, H=H, N=N, partition=I, residual=draw(st.booleans()),
                seed=draw(st.integers(0, 10**6)), position=draw(st.integers(0, N - 1)),
                coordinate=draw(st.integers(0, d_x - 1)))


@settings(max_examples=30)
@given(small_instances())
def test_routes_and_independent_expansion_agree(inst):
    coef = seprank.separation_rank(inst["L"], inst["d_x"], inst["H"], N=inst["N"],
                                   partition=inst["partition"], position=inst["position"],
                                   coordinate=inst["coordinate"], residual=inst["residual"],
                                   seed=inst["seed"], route="coefficient")
    assert coef.kind == "exact"
    net = SelfAttentionNetwork(inst["L"], inst["d_x"], inst["H"], residual=inst["residual"],
                               weights=weights_from_json(coef.weights)[0])
    assert coef.value == sympy_sep_rank(net, inst["N"], inst["partition"], inst["position"],
                                        inst["coordinate"])
    grid = seprank.separation_rank(network=net, N=inst["N"], partition=inst["partition"],
                                   position=inst["position"], coordinate=inst["coordinate"],
                                   route="grid", seed=inst["seed"])
    # certified: grid lower bound <= exact <= certified cap; equal unless p divides a minor or
    # the random points are unlucky (probability below 1e-6 here)
    assert grid.value <= coef.value <= grid.upper_bound
    assert grid.value == coef.value
    if grid.kind == "exact":
        assert grid.value == grid.upper_bound


@settings(max_examples=10)
@given(small_instances())
def test_parity_lemma(inst):
    # every monomial of y^i has I-degree = [i in I] mod 2 (gridroute docstring)
    net = SelfAttentionNetwork.random(inst["L"], inst["d_x"], inst["H"],
                                      residual=inst["residual"], seed=inst["seed"])
    poly = network_polynomial(net, inst["N"], inst["position"], inst["coordinate"])
    I = tuple(inst["partition"])
    J = tuple(n for n in range(inst["N"]) if n not in I)
    for blk in coefficient_blocks(poly, inst["d_x"], I, J):
        assert {d % 2 for d in blk.I_degrees} <= {int(inst["position"] in I)}
        assert {d % 2 for d in blk.J_degrees} <= {int(inst["position"] in J)}


def test_polynomial_mod_p_matches_evaluation():
    net = SelfAttentionNetwork.random(2, 2, 2, seed=4, residual=True)
    p = 10007
    poly = network_polynomial(net, 3, 1, 1, p=p)
    X = np.random.default_rng(0).integers(-5, 6, size=(4, 3, 2))
    want = net.output(X, 1, 1, "GF(p)", p=p)
    got = [int(poly(*[int(v) % p for v in x.ravel()])) for x in X]
    assert got == want.tolist()


# -- weights, errors --------------------------------------------------------------------------

def test_weights_roundtrip_and_cli(tmp_path, capsys):
    from seprank.cli import main

    assert main(["sep-rank", "-L", "2", "--width", "2", "-H", "2", "--residual", "--seed", "7",
                 "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    for key in ("value", "kind", "partition", "position", "coordinate", "seq_len", "residual",
                "bounds", "weights"):
        assert key in first
    assert first["weights"]["Q"] and len(first["weights"]["O"][0][0]) == 2  # O is d_x x d_a
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(first))
    assert main(["sep-rank", "--weights", str(path), "--residual", "--route", "grid",
                 "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["weights"] == first["weights"] and again["value"] == first["value"]
    w, dims = load_weights(path)
    assert dims == {"L": 2, "H": 2, "d_a": 1, "d_x": 2, "residual": True}


@pytest.mark.parametrize("obj, words", [
    ({"Q": [[[[1.5]]]], "K": [[[[1]]]], "V": [[[[1]]]], "O": [[[[1]]]]}, "no floats"),
    ({"Q": [[[["0.5"]]]], "K": [[[[1]]]], "V": [[[[1]]]], "O": [[[[1]]]]}, "p/q"),
    ({"Q": [[[[1]]]], "K": [[[[1]]]], "V": [[[[1]]]]}, "missing 'O'"),
    ({"Q": [[[[1, 2]]]], "K": [[[[1]]]], "V": [[[[1]]]], "O": [[[[1]]]]}, "shape"),
    ({"Q": [[[[1], [2, 3]]]], "K": [[[[1]]]], "V": [[[[1]]]], "O": [[[[1]]]]}, "ragged"),
    ({"Q": [[[1]]], "K": [[[[1]]]], "V": [[[[1]]]], "O": [[[[1]]]]}, "4-dimensional"),
    ({"Q": [[[[1, 0]]]], "K": [[[[1, 0]]]], "V": [[[[1, 0]]]], "O": [[[[1, 0]]]]}, "(1, 1, 2, 1)"),
])
def test_bad_weight_files(tmp_path, capsys, obj, words):
    from seprank.cli import main

    path = tmp_path / "w.json"
    path.write_text(json.dumps(obj))
    code = main(["sep-rank", "--weights", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("seprank: error:") and words in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("args, words", [
    (["-L", "1", "--width", "2", "-N", "1"], ">= 2"),
    (["-L", "1", "--width", "4", "-H", "3"], "does not divide"),
    (["-L", "1", "--width", "2", "-N", "4", "--partition", "0,x"], "comma"),
    (["-L", "1", "--width", "2", "-N", "3", "--partition", "0,7"], ""),
    (["-L", "1", "--width", "2", "-N", "3", "--partition", "0,1,2"], "both sides"),
    (["-L", "1", "--width", "2", "--position", "2"], "position"),
    (["-L", "1", "--width", "2", "--coordinate", "2"], "coordinate"),
    (["-L", "1", "--width", "2", "--route", "grid", "--prime", "12"], "prime"),
    (["--width", "2"], "--weights"),
    (["-L", "2", "--width", "2", "--route", "grid", "--prime", "7"], "too small"),
])
def test_cli_errors(capsys, args, words):
    from seprank.cli import main

    try:
        code = main(["sep-rank", *args])
    except SystemExit as exc:           # a bad value of an option, refused as it is read
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("seprank: error:") and words in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_weights_that_do_not_fit_the_asked_shape():
    with pytest.raises(InputError, match="d_x = 1"):
        seprank.separation_rank(1, 2, 1, weights=ONES)
    with pytest.raises(ParameterError, match="route"):
        seprank.separation_rank(1, 1, 1, weights=ONES, route="fast")


def test_cli_plain_output(capsys):
    from seprank.cli import main

    assert main(["sep-rank", "-L", "2", "--width", "4", "-H", "2", "-N", "2", "--certify"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]          # the separation rank first, with its kind
    assert first.startswith("separation rank = ") and first.endswith(" (exact)")
    assert int(first.split()[3]) <= 1296
    assert "L-Thm3" in out and "certificates independently verified: True" in out
