"""The moment form y = G_L(S) x of the analyzed network and the separation-rank bound it gives.

An object several papers share (levine2020 eq. (3); wies2021 eq. (5)): the repaired
argument for the upper bounds of wies2021 (Theorem 3, A.2 l.375-441; Theorem 1,
l.127-135), written for the ``W-Thm1`` row, and for levine2020's Theorems 4 and 6.
The comparisons with a paper's printed bound live in that paper's wing
(:mod:`seprank.papers.wies2021.moment_comparison`).

The moment form
---------------
One layer of the analyzed network (wies2021 eq. (5), l.108; levine2020 eq. (3))
maps position i to

    y^{l+1,i} = sum_h W^O_h W^V_h sum_j <W^Q_h y^{l,i}, W^K_h y^{l,j}> y^{l,j}
              = sum_h W^O_h W^V_h S_l (W^K_h)^T W^Q_h y^{l,i},

with the *moment matrix* S_l = sum_j y^{l,j} (y^{l,j})^T (move the scalar
inner product to the right and sum over j). If y^{l,j} = G_l y^{0,j} for every j
with one matrix G_l, then S_l = G_l S G_l^T with S = S_0, and

    G_0 = I,    G_{l+1} = sum_h W^O_h W^V_h G_l S G_l^T (W^K_h)^T W^Q_h G_l,

so y^{L,i} = G_L(S) y^{0,i}, where G_L is a matrix polynomial in S, homogeneous
of degree C(L) = (3^L - 1)/2 (deg G_{l+1} = 3 deg G_l + 1).

The bound
---------
With a rank-r vocabulary matrix and a rank-r_e positional embedding (eq. (10),
l.385), y^{0,j} = F u^j with u^j in R^s, s = r + r_e (u^j stacks the token's
r coordinates and position j's r_e coordinates), so S = F S_u F^T with
S_u = sum_j u^j (u^j)^T, a symmetric s x s matrix: D = s(s+1)/2 entries. For a
balanced partition (P, Q), S_u = S_u^P + S_u^Q, each part a function of its
own side's tokens. The output y_p^i = sum_gamma u^i_gamma g_gamma(S_u) with g_gamma
homogeneous of degree C in D variables; expanding g_gamma(S^P + S^Q) by Taylor's
formula in S^P gives at most ((D+1, C)) = C(D + C, C) separable terms per gamma,
hence

    sep(y_p^i) <= s ((s(s+1)/2 + 1, C(L)))                (moment bound)

for every N, H, d_a and d_x, and every partition of the positions (for the
convolution embedding, every partition that does not split a patch).
Since ((D+1, C)) <= (C + 1)^D, log sep <= log s + D L log 3 = O(L s^2).
"""

from __future__ import annotations

import numpy as np

from seprank.combinatorics import multiset, num_head_indices
from seprank.scalars.enclosures import int_at_least

__all__ = ["moment_matrix", "moment_form_output", "moment_form_matrix", "moment_bound"]


def moment_matrix(X: object) -> np.ndarray:
    """S = sum_j x^j (x^j)^T for the rows x^j of X (shape N x d), exact.

    Examples
    --------
    >>> moment_matrix([[1, 2], [3, 0]]).tolist()
    [[10, 2], [2, 4]]
    """
    A = np.asarray(X, dtype=object)
    return A.T.dot(A)


def moment_form_output(net: object, X: object, position: int) -> np.ndarray:
    """G_L(S) x^{position} for a network without residual connections (module docstring).

    ``net`` is a :class:`seprank.models.SelfAttentionNetwork`; ``X`` one input
    (N x d_x, exact entries). Equal to ``net.evaluate([X])[0, position]``; the
    check W-Thm1 tests that equality exactly.

    Examples
    --------
    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(L=2, d_x=2, H=1, seed=1)
    >>> X = [[1, 2], [0, -1], [3, 1]]
    >>> moment_form_output(net, X, 2).tolist() == net.evaluate([X], "ZZ")[0, 2].tolist()
    True
    """
    if getattr(net, "residual", False):
        raise ValueError("the moment form is for networks without residual connections")
    A = np.asarray(X, dtype=object)
    S = moment_matrix(A)
    G = np.array([[int(a == b) for b in range(net.d_x)] for a in range(net.d_x)], dtype=object)
    w = net.weights
    for layer in range(net.L):
        SG = G.dot(S).dot(G.T)
        nxt = np.zeros((net.d_x, net.d_x), dtype=object)
        for h in range(net.H):
            Q, K, V, O = (w[k][layer, h] for k in "QKVO")
            nxt = nxt + O.dot(V).dot(SG).dot(K.T).dot(Q).dot(G)
        G = nxt
    return G.dot(A[position])


def moment_form_matrix(net: object, S: object) -> np.ndarray:
    """G_L(S) for a plain or a residual network, exact (module docstring).

    Plain: G_{l+1} = sum_h W^O W^V G_l S G_l^T (W^K)^T W^Q G_l; residual (each layer
    adds its input, levine2020 A.4 l.478-484): G_{l+1} = G_l + the same sum. ``S`` is a
    d_x x d_x array (numbers or sympy expressions); ``G.dot(x^i)`` is the output at a
    position i whose input is x^i when S = sum_j x^j x^j^T.

    Examples
    --------
    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(L=2, d_x=2, H=1, seed=1, residual=True)
    >>> X = np.array([[1, 2], [0, -1], [3, 1]], dtype=object)
    >>> G = moment_form_matrix(net, moment_matrix(X))
    >>> G.dot(X[2]).tolist() == net.evaluate([X], "ZZ")[0, 2].tolist()
    True
    """
    S = np.asarray(S, dtype=object)
    G = np.array([[int(a == b) for b in range(net.d_x)] for a in range(net.d_x)], dtype=object)
    w = net.weights
    for layer in range(net.L):
        SG = G.dot(S).dot(G.T)
        nxt = G.copy() if getattr(net, "residual", False) else \
            np.zeros((net.d_x, net.d_x), dtype=object)
        for h in range(net.H):
            Q, K, V, O = (w[k][layer, h] for k in "QKVO")
            nxt = nxt + O.dot(V).dot(SG).dot(K.T).dot(Q).dot(G)
        G = nxt
    return G


def moment_bound(L: int, s: int) -> int:
    """The moment bound ``s ((s(s+1)/2 + 1, C(L)))`` on sep, s = r + r_e.

    Examples
    --------
    >>> moment_bound(1, 1)   # y = k v_i sum_j v_j^2: sep <= 1 * ((2, 1)) = 2
    2
    >>> moment_bound(2, 2)   # 2 * ((4, 4)) = 2 * 35
    70
    """
    L = int_at_least("L", L, 1)
    s = int_at_least("s", s, 1)
    return s * multiset(s * (s + 1) // 2 + 1, num_head_indices(L))
