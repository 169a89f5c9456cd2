"""Lemma 1 of levine2020: the depth-L output as a sum of chained products of Gram matrices.

Source: ``levine2020_depth_to_width_self_attention.txt`` (A.1, eq. (13)-(15),
l.335-364). :func:`lemma1_chains` builds the H^C(L) chains (B^(0,h), A^(1..C),
B^(1..C), A^(0,h)) by the induction of eq. (14)-(15); :func:`chain_output`
evaluates eq. (13) at position i.

Conventions (shared by the display modules of this wing, gathered in
:mod:`seprank.papers.levine2020.identities`): an input ``X`` is a sequence of N
vectors (shape (N, d_x)), ``X[j]`` = x^(j+1); positions ``i`` and coordinates ``p``
are 0-based. The Gram matrix ``S = sum_j x^(j) x^(j)T`` (d_x x d_x) over a set of
positions is what every M-unit of Lemma 1 sees: M^(c,h) = A^(c,h) X X^T B^(c,h)T
(paper: X is d_x x N) = A S B^T here. ``P`` is the side of the partition that
holds i. Every function is exact (Python ints and Fractions, numpy object arrays).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from seprank.errors import ParameterError

__all__ = [
    "obj_array",
    "object_eye",
    "gram",
    "Chain",
    "lemma1_chains",
    "side_sequence_value",
    "chain_output",
]


def obj_array(a) -> np.ndarray:
    """``a`` as a numpy object array (exact entries stay exact).

    >>> obj_array([[1, 2]]).dtype
    dtype('O')
    """
    return np.asarray(a, dtype=object)


def object_eye(n: int) -> np.ndarray:
    """The n x n identity as a numpy object array of Python ints.

    >>> object_eye(2).tolist()
    [[1, 0], [0, 1]]
    """
    out = np.zeros((n, n), dtype=object)
    for k in range(n):
        out[k, k] = 1
    return out


def gram(X, positions: Sequence[int] | None = None) -> np.ndarray:
    """``S = sum_{j in positions} x^(j) x^(j)T`` (all positions by default), exactly.

    In levine2020's notation (X is d_x x N there) this is X X^T restricted to
    the positions, the matrix every M-unit of eq. (13) sees.

    >>> gram([[1, 2], [0, 1]]).tolist()
    [[1, 2], [2, 5]]
    >>> gram([[1, 2], [0, 1]], [1]).tolist()
    [[0, 0], [0, 1]]
    """
    X = obj_array(X)
    d_x = X.shape[1]
    S = np.zeros((d_x, d_x), dtype=object)
    for j in (range(X.shape[0]) if positions is None else positions):
        S = S + np.outer(X[j], X[j])
    return S


@dataclass
class Chain:
    """One summand of Lemma 1's eq. (13): ``B0^T (A_1 S B_1^T) ... (A_C S B_C^T) A0 x^(i)``.

    ``B0``, ``A0`` and every ``A_c``, ``B_c`` are d_a x d_x (``pairs`` holds
    (A_c, B_c), c = 1..C); ``heads`` is the head-index tuple it came from.

    >>> one = obj_array([[1]])
    >>> Chain(one, one, ((one, one),), (0,)).length
    1
    """

    B0: np.ndarray
    A0: np.ndarray
    pairs: tuple
    heads: tuple

    @property
    def length(self) -> int:
        """C, the number of M-units."""
        return len(self.pairs)


def lemma1_chains(net) -> list[Chain]:
    """The H^C(L) chains of Lemma 1 (eq. (13)), built by the induction of eq. (14)-(15).

    Base case (l.343): B0^T = W^O, M = W^V X X^T W^K^T (A_1 = W^V, B_1 = W^K),
    A0 = W^Q. Step (l.350-364), for head h of the new layer and chains c1, c2,
    c3 of the previous depth: B0 = B0(c1) W^V^T W^O^T; the units are those of
    c1, then A0(c1) X X^T A0(c2)^T, then the transposes of the units of c2 from
    the last down to the second, then M(c2)_1^T B0(c2) W^K^T W^Q B0(c3)^T
    (= B_1(c2) S [B0(c3) W^Q^T W^K B0(c2)^T A_1(c2)]^T, "in the desired form
    of M", l.364), then the units of c3; A0 = A0(c3). 3 C(L) + 1 = C(L+1) units.

    >>> from seprank.models import SelfAttentionNetwork
    >>> chains = lemma1_chains(SelfAttentionNetwork.random(2, 2, 2, seed=1))
    >>> len(chains), chains[0].length   # H^C(2) = 2^4 chains of C(2) = 4 units
    (16, 4)
    """
    if net.residual:
        raise ParameterError("Lemma 1 is about the network without residual connections")
    W = net.weights

    def heads(layer):
        return [tuple(obj_array(W[k][layer, h]) for k in "QKVO") for h in range(net.H)]

    chains = [Chain(B0=O.T, A0=Q, pairs=((V, K),), heads=(h,))
              for h, (Q, K, V, O) in enumerate(heads(0))]
    for layer in range(1, net.L):
        new = []
        for h, (Q, K, V, O) in enumerate(heads(layer)):
            for c1, c2, c3 in product(chains, repeat=3):
                A21, B21 = c2.pairs[0]
                merged = (B21, c3.B0 @ Q.T @ K @ c2.B0.T @ A21)
                middle = tuple((B, A) for (A, B) in reversed(c2.pairs[1:]))
                pairs = c1.pairs + ((c1.A0, c2.A0),) + middle + (merged,) + c3.pairs
                new.append(Chain(B0=c1.B0 @ V.T @ O.T, A0=c3.A0, pairs=pairs,
                                 heads=(h,) + c1.heads + c2.heads + c3.heads))
        chains = new
    return chains


def side_sequence_value(chain: Chain, grams: dict, sides: Sequence, x_i, p: int):
    """``B0[:, p]^T (A_1 S_{side 1} B_1^T) ... (A_C S_{side C} B_C^T) A0 x^(i)``.

    ``grams`` maps a side label to its Gram matrix; with one label for every
    unit this is one summand of eq. (13) (l.397), with sides from {P, Q} one
    summand of the sequence sum of l.398-399.

    >>> one = obj_array([[1]])
    >>> side_sequence_value(Chain(one, one, ((one, one),), (0,)), {"P": obj_array([[3]])}, "P",
    ...                     [2], 0)
    6
    """
    v = chain.A0 @ obj_array(x_i)
    for (A, B), side in zip(reversed(chain.pairs), reversed(list(sides)), strict=True):
        v = A @ (grams[side] @ (B.T @ v))
    return chain.B0[:, p] @ v


def chain_output(chains: Sequence[Chain], X, i: int, p: int):
    """Eq. (13) at position i, coordinate p: the sum of the chains with S = X X^T.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=3, nonzero=True)
    >>> X = [[1, -1], [2, 1]]
    >>> chain_output(lemma1_chains(net), X, 0, 1) == net.evaluate([X])[0, 0, 1]
    True
    """
    S = gram(X)
    X = obj_array(X)
    return sum((side_sequence_value(ch, {"all": S}, ["all"] * ch.length, X[i], p)
                for ch in chains), start=0)
