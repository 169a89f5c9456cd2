"""Lemma 2 and Theorems 5-6 of levine2020 (A.4): residual networks, displayed exactly.

Source: ``levine2020_depth_to_width_self_attention.txt``, A.4 (Lemma 2 and eq. (21)
l.485-499, fig. 5 l.478-484, Theorems 5-6 l.500-536). Why: one side of each display
per function, so that the checks (``proofs/levine2020/levine_residual_displays.py``)
can compare both sides exactly.

Eq. (21) (:func:`lemma2_eq21`, :func:`lemma2_regrouped`), the unraveled residual
network of fig. 5(b) (:func:`unraveled_output`), and the top-degree part of a
residual network (:func:`top_degree_part`). Conventions:
:mod:`seprank.papers.levine2020.chains`.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb, factorial

import numpy as np

from seprank.papers.levine2020.chains import obj_array

__all__ = [
    "lemma2_eq21",
    "lemma2_regrouped",
    "unraveled_output",
    "top_degree_part",
]


def _layer_mats(net, layer, h):
    W = net.weights
    return (obj_array(W["Q"][layer, h]), obj_array(W["K"][layer, h]), obj_array(W["V"][layer, h]),
            obj_array(W["O"][layer, h]))


def lemma2_eq21(net, layer: int, G, i: int, p: int):
    """Right side of eq. (21) (l.496), summed literally over h, alpha_1..alpha_6 and j.

    ``G`` is d_x x N (column j = the layer's input g^j, as in the paper).

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 2, 2, seed=4)
    >>> G = [[1, 2], [-1, 3]]
    >>> lemma2_eq21(net, 0, G, 1, 0) == net.evaluate([np.array(G).T.tolist()])[0, 1, 0]
    True
    """
    G = obj_array(G)
    d_x, N = G.shape
    total = 0
    for h in range(net.H):
        Q, K, V, O = _layer_mats(net, layer, h)
        d_a = Q.shape[0]
        for a1, a2, j, a4, a5, a6 in product(range(d_a), range(d_x), range(N), range(d_x),
                                             range(d_a), range(d_x)):
            total += (O[p, a1] * V[a1, a2] * G[a2, j] * G[a4, j] * K.T[a4, a5] * Q[a5, a6]
                      * G[a6, i])
    return total


def lemma2_regrouped(net, layer: int, G, i: int, p: int) -> tuple:
    """Eq. (21) regrouped by the input indices: (value, number of input products).

    sum over (alpha_2, j, alpha_4, alpha_6) of c * G_{a2 j} G_{a4 j} G_{a6 i}
    with c = sum_h (W^O W^V)_{p a2} (W^K^T W^Q)_{a4 a6}: N d_x^3 products of
    three input entries, each of separation rank <= K^3.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=4)
    >>> G = [[1, 2], [-1, 3]]
    >>> lemma2_regrouped(net, 0, G, 0, 0)[0] == lemma2_eq21(net, 0, G, 0, 0)
    True
    """
    G = obj_array(G)
    d_x, N = G.shape
    coef = {}
    for h in range(net.H):
        Q, K, V, O = _layer_mats(net, layer, h)
        ov, kq = O @ V, K.T @ Q
        for a2, a4, a6 in product(range(d_x), repeat=3):
            coef[(a2, a4, a6)] = coef.get((a2, a4, a6), 0) + ov[p, a2] * kq[a4, a6]
    total, count = 0, 0
    for (a2, a4, a6), c in coef.items():
        for j in range(N):
            count += 1
            total += c * G[a2, j] * G[a4, j] * G[a6, i]
    return total, count


def unraveled_output(net, X) -> np.ndarray:
    """Fig. 5(b) (A.4, l.510-512): X + sum_{l=1}^{L} f_l(Y^{l-1}), Y^{l-1} the depth-(l-1) output.

    f_l is layer l without its skip connection; Y^0 = X. For a residual
    network this is the output (the L + 1 branches of depth 0..L).

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=2, residual=True)
    >>> X = [[1, 0], [2, -1]]
    >>> unraveled_output(net, X).tolist() == net.evaluate([X])[0].tolist()
    True
    """
    from seprank.models import SelfAttentionNetwork

    Xo = obj_array(X)
    total = Xo.copy()
    Y = Xo
    for layer in range(net.L):
        one = SelfAttentionNetwork(1, net.d_x, net.H, net.d_a, residual=False,
                                   weights={k: net.weights[k][[layer]] for k in "QKVO"})
        total = total + obj_array(one.evaluate([Y.tolist()])[0])
        Y = obj_array(net.sub_network(range(layer + 1)).evaluate([Xo.tolist()])[0])
    return total


def top_degree_part(net, X) -> np.ndarray:
    """The homogeneous part of degree 3^L of the output at X (all positions), exactly.

    The output at t X is a polynomial of degree <= 3^L in t; its leading
    coefficient is the 3^L-th forward difference at t = 0 over (3^L)!.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 1, 1, seed=2, residual=True)
    >>> bare = SelfAttentionNetwork(1, 1, 1, weights=net.weights)
    >>> top_degree_part(net, [[1], [2]]).tolist() == bare.evaluate([[[1], [2]]])[0].tolist()
    True
    """
    D = 3 ** net.L
    Xo = obj_array(X)
    vals = [obj_array(net.evaluate([(Xo * t).tolist()])[0]) for t in range(D + 1)]
    diff = sum(((-1) ** (D - t) * comb(D, t) * vals[t] for t in range(D + 1)),
               start=np.zeros_like(vals[0]))
    return obj_array([[Fraction(v) / factorial(D) for v in row] for row in diff])
