"""The chains of levine2020's Lemma 1 as matrices (shared by the checks of levine2020's
Lemma 1 and chapter7's claims; levine2020 Lemma 1, A.1).

The induction: the output of layer l is a sum over chains [P_0, ..., P_C] of
P_0 G P_1 ... G P_C x_i with G = X X^T; one more layer joins three chains at a G.
"""

from __future__ import annotations

from itertools import product

import numpy as np

__all__ = ["chain_terms"]


def _heads(net, layer):
    """Per head h: (O V, K^T Q) as object matrices, d_x x d_x."""
    w = net.weights
    out = []
    for h in range(net.H):
        OV = np.dot(w["O"][layer, h], w["V"][layer, h])
        KQ = np.dot(w["K"][layer, h].T, w["Q"][layer, h])
        out.append((OV, KQ))
    return out


def chain_terms(net):
    """The induction of Lemma 1 on matrices: a list of chains [P_0, ..., P_C]."""
    terms = [[OV, KQ] for OV, KQ in _heads(net, 0)]
    for layer in range(1, net.L):
        new = []
        for (OV, KQ), t1, t2, t3 in product(_heads(net, layer), terms, terms, terms):
            # Y Y^T = t1 ... G P_C X X^T P'_C^T G ... P'_0^T: the junction is a G
            yyT = list(t1) + [P.T for P in reversed(t2)]
            chain = [np.dot(OV, yyT[0])] + yyT[1:-1] + [np.dot(np.dot(yyT[-1], KQ), t3[0])]
            chain += list(t3[1:])
            if len(yyT) == 1:  # pragma: no cover (never: a chain has >= 2 matrices)
                raise AssertionError
            new.append(chain)
        terms = new
    return terms
