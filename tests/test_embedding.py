"""Tests of seprank.models.embedding (wies2021 eqs. (1)-(4))."""

from itertools import product

import numpy as np
import pytest

from seprank.errors import InputError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding, exact_rank


def test_vocabulary_embedding_by_hand():
    emb = VocabularyEmbedding([[1, 0, 2], [0, 1, 1]], [[1, 1], [0, 5]])
    assert emb.embed(np.array([[2, 0], [1, 1]])).tolist() == [[[3, 1], [2, 5]],
                                                              [[1, 1], [1, 6]]]
    assert emb.rank() == 2 and emb.positional_rank() == 2


@pytest.mark.parametrize("V,d_x,N,r,r_e", [(5, 3, 2, 1, 1), (5, 3, 2, 2, 0), (6, 3, 3, 5, 2),
                                           (3, 4, 2, 4, 1)])
def test_vocabulary_rank_enforced(V, d_x, N, r, r_e):
    for seed in range(3):
        emb = VocabularyEmbedding.random(V, d_x, N, r, r_e, seed=seed)
        assert emb.M_V.shape == (d_x, V) and emb.P.shape == (d_x, N)
        assert emb.rank() == min(r, d_x, V)
        assert emb.positional_rank() == min(r_e, d_x, N)
        assert np.array_equal(emb.M_V, emb.factors["A"].dot(emb.factors["B"]))
        toks = np.array(list(product(range(V), repeat=N)), dtype=np.int64)
        Y = emb.embed(toks)
        for b, w in enumerate(toks):
            for i in range(N):
                assert list(Y[b, i]) == list(emb.M_V[:, w[i]] + emb.P[:, i])


def test_vocabulary_errors():
    emb = VocabularyEmbedding([[1, 0]], [[0, 0]])
    with pytest.raises(ParameterError):
        emb.embed(np.array([[0, 2]]))
    with pytest.raises(InputError):
        emb.embed(np.array([[0, 1, 1]]))
    with pytest.raises(InputError):
        VocabularyEmbedding([[1.5, 0]], [[0, 0]])
    with pytest.raises(InputError):
        VocabularyEmbedding([[1, 0]], [[0, 0], [1, 1]])
    with pytest.raises(ParameterError):
        VocabularyEmbedding.random(0, 2, 2, 1)


def test_convolution_embedding_by_hand():
    # k = 2, d_x = 1, d_input = 1: y^i = 2 x^{2i-1} + 3 x^{2i} + p^i
    emb = ConvolutionalEmbedding([[[2]], [[3]]], [[10, 20]])
    x = np.array([[[1], [2], [3], [4]]], dtype=object)
    assert emb.embed(x).tolist() == [[[2 + 6 + 10], [6 + 12 + 20]]]
    assert emb.reshaped_kernel().tolist() == [[2, 3]]
    assert emb.rank() == 1 and emb.M == 4


@pytest.mark.parametrize("k,d_in,d_x,N,r,r_e", [(2, 1, 3, 2, 1, 1), (2, 2, 3, 2, 3, 0),
                                                 (3, 1, 2, 2, 3, 1), (2, 2, 5, 3, 4, 2)])
def test_convolution_rank_and_formula(k, d_in, d_x, N, r, r_e):
    emb = ConvolutionalEmbedding.random(k, d_in, d_x, N, r, r_e, seed=5)
    assert emb.rank() == min(r, d_x, k * d_in)
    assert emb.positional_rank() == min(r_e, d_x, N)
    x = np.random.default_rng(0).integers(-4, 5, size=(2, k * N, d_in)).astype(object)
    Y = emb.embed(x)
    for b in range(2):
        for i in range(N):
            want = sum(emb.W[j].dot(x[b, k * i + j]) for j in range(k)) + emb.P[:, i]
            assert list(Y[b, i]) == list(want)


def test_embedding_feeds_network():
    emb = VocabularyEmbedding.random(4, 2, 3, 1, 1, seed=2)
    net = SelfAttentionNetwork.random(1, 2, 1, seed=2)
    X = emb.embed(np.array([[0, 1, 3], [2, 2, 2]]))
    out = net.evaluate(X, "ZZ")
    assert out.shape == (2, 3, 2)
    assert all(isinstance(v, int) for v in out.ravel())


def test_exact_rank():
    assert exact_rank([[1, 2], [2, 4]]) == 1
    assert exact_rank(np.zeros((2, 0), dtype=object)) == 0
