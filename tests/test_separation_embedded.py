"""Separation ranks behind wies2021's embeddings, against the independent grid-tensor
computations of the W-Thm3/W-Thm4 checks, and the separation_rank sweep computation."""


import pytest
from seprank_proofs.wies2021 import w_thm3_thm4 as W

import seprank
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
