"""Separation ranks behind wies2021's embeddings, against the independent grid-tensor
computations of the W-Thm3/W-Thm4 checks, and the separation_rank sweep computation;
the embedding route of the front door against value and coefficient matrices written
down and ranked by sympy."""

import math

import pytest
import sympy
from seprank_proofs.wies2021 import w_thm3_thm4 as W

import seprank
from seprank.errors import MemoryLimitError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding
from seprank.separation import embedded_separation_rank, weights_from_json
from seprank.sweep.computations import execute, get_computation


@pytest.mark.parametrize("params", W.VOCAB_FAST[:5])
def test_vocabulary_matches_grid_tensor_over_all_tokens(params):
    L, d_x, H, V, N, r, r_e = params
    row = W.vocab_case(*params, 17)
    emb = VocabularyEmbedding.random(V, d_x, N, r, r_e, seed=17)
    net = SelfAttentionNetwork.random(L, d_x, H, seed=17, nonzero=True)
    for I in ([0], list(range(N // 2))):
        res = embedded_separation_rank(net, emb, partition=I)
        J = [n for n in range(N) if n not in I]
        label = W._label(tuple(I), tuple(J))
        assert res.kind == "exact" and res.value == row["sep_ranks"][label]
        assert res.bounds["W-Thm3"]["respected"]


@pytest.mark.parametrize("params", W.CONV_FAST)
def test_convolution_matches_certified_templates(params):
    # conv_case ranks grid tensors over templates certified unisolvent (exact rank = sep rank)
    L, d_x, H, k, N, r, r_e = params
    row = W.conv_case(*params, 29)
    emb = ConvolutionalEmbedding.random(k, 1, d_x, N, r, r_e, seed=29)
    net = SelfAttentionNetwork.random(L, d_x, H, seed=29, nonzero=True)
    for label, want in row["sep_ranks"].items():
        I = [int(x) - 1 for x in label.split("|")[0].strip("{}").split(",")]
        res = embedded_separation_rank(net, emb, partition=I)
        assert (res.value, res.kind) == (want, "exact")


def test_sweep_computation_and_skips():
    out = execute("separation_rank", {"depth": 2, "width": 2, "family": "identity"})
    assert out["status"] == "done"
    r = out["result"]
    assert r["kind"] == "exact" and r["parameters"] == 4 * 2 * 1 * 2 * 2
    comp = get_computation("separation_rank")
    full = comp.normalize({"depth": 3, "width": 8})
    assert "grid block" in comp.skip(full)
    assert "divide" in comp.skip(comp.normalize({"depth": 1, "width": 3, "heads": 2}))
    assert comp.skip(comp.normalize({"depth": 3, "width": 4})) is None
    assert execute("separation_rank", {"depth": 1, "width": 2, "family": "nope"})["status"] \
        == "failed"


def test_cli_embeddings(capsys):
    import json

    from seprank.cli import main

    assert main(["sep-rank", "-L", "1", "--width", "2", "--embedding", "vocabulary", "--vocab",
                 "5", "--emb-rank", "1", "--pos-rank", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "exact" and out["bounds"]["W-Thm3"]["r"] == 1
    assert out["details"]["embedding"] == "vocabulary" and len(out["details"]["M_V"]) == 2
    # independent: rebuild the network and embedding from the JSON, evaluate every token pair
    net = SelfAttentionNetwork(1, 2, 1, weights=weights_from_json(out["weights"])[0])
    emb = VocabularyEmbedding(out["details"]["M_V"], out["details"]["P"])
    vals = [[int(net.output(emb.embed([[a, b]]), 0, 0, "ZZ")[0]) for b in range(5)]
            for a in range(5)]
    assert seprank.rank(vals, "exact").value == out["value"]
    assert main(["sep-rank", "-L", "1", "--width", "2", "--embedding", "convolution"]) == 0
    assert "W-Thm4" in capsys.readouterr().out
    assert main(["sep-rank", "-L", "2", "--width", "2", "--embedding", "vocabulary", "--vocab",
                 "300"]) == 2
    assert capsys.readouterr().err.startswith("seprank: error:")


# ------------------------------------------------------------------ the embedding route
# (issue 29: the embeddings as a registered route of the front door)
#
# Independent expectations: for L = H = d_x = d_a = 1 and all weights 1, eq. (3) gives
# y^1 = x_1 (x_1^2 + x_2^2) at N = 2 (levine2020 l.73: q k v o x_i sum_j x_j^2). Behind an
# embedding the inputs x_n are the embedded tokens (wies2021 eq. (1)) or affine forms in
# the raw inputs (eq. (2)), so the value matrix and the coefficient matrix are written
# down here by hand (sympy) and ranked by sympy, never by the route's own code.
ONES = dict.fromkeys("QKVO", [[[[1]]]])


def _one_net():
    return SelfAttentionNetwork(1, 1, 1, weights=ONES)


def _by_hand(a, b):
    return a * (a * a + b * b)


@pytest.mark.parametrize("values,P", [([1, 2, 3], [0, 0]), ([2, -1, 0, 5], [1, 3]),
                                      ([1, 1, 2], [0, 4]), ([1, -1], [0, 0])])
def test_front_door_vocabulary_equals_the_value_matrix_ranked_by_sympy(values, P):
    # ranks 2, 2, 2, 1: tokens +-1 make b^2 constant, so y = 2 a on them
    net, emb = _one_net(), VocabularyEmbedding([values], [P])
    V = len(values)
    F = sympy.Matrix(V, V, lambda s, t: _by_hand(values[s] + P[0], values[t] + P[1]))
    want = F.rank()
    res = seprank.separation_rank(network=net, embedding=emb)
    assert (res.route, res.route_asked, res.seq_len) == ("embedding", "auto", 2)
    assert (res.value, res.kind, res.upper_bound) == (want, "exact", want)
    assert res.partition == {"I": [0], "J": [1]} and res.matrix_shape == (V, V)
    thm = res.bounds["W-Thm3"]
    r = sympy.Matrix([values]).rank()
    r_e = sympy.Matrix([P]).rank()
    assert (thm["r"], thm["r_e"]) == (r, r_e) and thm["respected"]
    assert res.embedding["embedding"] == "vocabulary" and res.embedding["V"] == V
    old = embedded_separation_rank(net, emb)       # the older name: the same answer
    assert (old.value, old.kind, old.bounds, old.route) == (res.value, res.kind, res.bounds,
                                                            "embedding")
    via = seprank.separation_rank(network=net, options={"embedding": emb})
    assert (via.value, via.kind, via.bounds) == (res.value, res.kind, res.bounds)


def _raw_coefficient_rank(w, P, I):
    """sep rank of y^1 behind eq. (2), k = 2, d_input = d_x = 1: a = w0 x0 + w1 x1 + p0,
    b = w0 x2 + w1 x3 + p1, y = a (a^2 + b^2), w.r.t. raw positions I | J, by sympy: the
    rank of the coefficient matrix (rows: monomials in the I variables, columns: J)."""
    x = sympy.symbols("x0:4")
    a = w[0] * x[0] + w[1] * x[1] + P[0]
    b = w[0] * x[2] + w[1] * x[3] + P[1]
    poly = sympy.Poly(sympy.expand(_by_hand(a, b)), *x)
    J = [j for j in range(4) if j not in I]
    rows, cols, entries = {}, {}, {}
    for monom, c in poly.terms():
        ri = rows.setdefault(tuple(monom[i] for i in I), len(rows))
        ci = cols.setdefault(tuple(monom[j] for j in J), len(cols))
        entries[(ri, ci)] = c
    return sympy.Matrix(len(rows), len(cols), lambda i, j: entries.get((i, j), 0)).rank()


@pytest.mark.parametrize("w,P", [((1, 1), (0, 0)), ((2, -1), (1, 3)), ((1, 3), (0, 2))])
@pytest.mark.parametrize("I", [None, [0, 2], [1], [0, 1, 3], ([3], [0, 1, 2])])
def test_front_door_convolution_equals_the_coefficient_matrix_ranked_by_sympy(w, P, I):
    net = _one_net()
    emb = ConvolutionalEmbedding([[[w[0]]], [[w[1]]]], [list(P)])    # k = 2: M = 4 raw
    res = seprank.separation_rank(network=net, embedding=emb, partition=I)
    I_ = [0, 1] if I is None else (I[0] if isinstance(I, tuple) else I)
    assert res.partition["I"] == sorted(I_)      # of the M = 4 raw positions, not N = 2
    want = _raw_coefficient_rank(w, P, sorted(I_))
    assert (res.route, res.seq_len, res.value, res.kind) == ("embedding", 2, want, "exact")
    assert res.bounds["W-Thm4"]["respected"] and "W-Thm3" not in res.bounds
    if not isinstance(I, tuple):
        old = embedded_separation_rank(net, emb, partition=I)
        assert (old.value, old.kind, old.bounds, old.partition) == (
            res.value, res.kind, res.bounds, res.partition)


def test_route_embedding_without_an_embedding_is_refused_in_one_line():
    with pytest.raises(ParameterError) as exc:
        seprank.separation_rank(1, 1, 1, weights=ONES, route="embedding")
    text = str(exc.value)
    assert "\n" not in text and "route 'embedding' cannot run here" in text
    assert "needs embedding=" in text
    # and auto never picks it without one (it says why in the candidates)
    plan = seprank.plan_separation(1, 1, 1, weights=ONES)
    cand = {c.name: c for c in plan.candidates}
    assert plan.route != "embedding" and cand["embedding"].cannot.startswith("needs embedding")


def test_the_embedding_route_refuses_other_routes_options_and_N_inf():
    emb = VocabularyEmbedding([[1, 2]], [[0, 0]])
    with pytest.raises(ParameterError, match="does not take templates"):
        seprank.separation_rank(network=_one_net(), embedding=emb, templates=[[1], [2]],
                                route="embedding")
    with pytest.raises(ParameterError, match="needs a finite N"):
        seprank.separation_rank(network=_one_net(), embedding=emb, N=math.inf,
                                route="embedding")
    with pytest.raises(ParameterError, match="N = 3, but the embedding has N = 2"):
        seprank.separation_rank(network=_one_net(), embedding=emb, N=3)
    with pytest.raises(ParameterError, match="does not certify"):
        seprank.separation_rank(network=_one_net(), embedding=emb, certify=True)


def test_a_partition_out_of_range_of_the_M_raw_positions_is_refused_clearly():
    emb = ConvolutionalEmbedding([[[1]], [[2]]], [[0, 1]])             # N = 2, M = 4
    ok = seprank.separation_rank(network=_one_net(), embedding=emb, partition=[3])
    assert ok.partition == {"I": [3], "J": [0, 1, 2]}                  # 3 >= N: a raw position
    with pytest.raises(ParameterError) as exc:
        seprank.separation_rank(network=_one_net(), embedding=emb, partition=[4])
    text = str(exc.value)
    assert "\n" not in text and "position 4, outside 0..3" in text
    assert "M = 4 raw input positions of the convolution embedding" in text
    with pytest.raises(ParameterError, match="position = 2 must be < N = 2"):
        seprank.separation_rank(network=_one_net(), embedding=emb, position=2)   # a token


def test_budget_refusal_is_one_line_through_the_front_door():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=1, nonzero=True)
    emb = VocabularyEmbedding.random(8, 2, 5, 2, 1, seed=2)
    for call in (lambda: seprank.separation_rank(network=net, embedding=emb, max_memory="5M"),
                 lambda: embedded_separation_rank(net, emb, max_memory="5M")):
        with pytest.raises(MemoryLimitError) as exc:
            call()
        text = str(exc.value)
        assert "\n" not in text and "the embedding route needs about" in text
        assert "vocabulary embedding" in text and "largest N that fits (V = 8) is" in text


def test_explain_shows_the_embedding_route_and_its_positions(capsys):
    emb = ConvolutionalEmbedding([[[1]], [[2]]], [[0, 1]])
    plan = seprank.plan_separation(network=_one_net(), embedding=emb)
    assert (plan.route, plan.partition) == ("embedding", {"I": [0, 1], "J": [2, 3]})
    text = plan.explain()
    assert "route: embedding (template-grid" not in text and "route: embedding" in text
    assert "partition of the M = 4 raw input positions" in text
    assert "convolution embedding, k = 2" in text and "Theorem 4" in text
    from seprank.cli import main

    assert main(["sep-rank", "-L", "1", "--width", "2", "--embedding", "vocabulary", "--vocab",
                 "3", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "route: embedding" in out and "vocabulary embedding, V = 3" in out
