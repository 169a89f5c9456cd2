"""The moment form of the analyzed network and the separation-rank bound it gives.

A repaired argument for the upper bounds of wies2021 (Theorem 3, A.2 l.375-441;
Theorem 1, l.127-135), written for the ``W-Thm1`` row.

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

from fractions import Fraction
from math import prod

import numpy as np
import sympy

from seprank.bounds.levine2020 import _int_at_least
from seprank.combinatorics import compositions, multiset, num_head_indices

__all__ = [
    "moment_matrix",
    "moment_form_output",
    "moment_bound",
    "moment_vs_thm3",
    "thm3_power_bound",
    "thm3_printed_count",
    "moment_vs_thm3_at_L",
    "split_patch_rank",
]


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


def moment_bound(L: int, s: int) -> int:
    """The moment bound ``s ((s(s+1)/2 + 1, C(L)))`` on sep, s = r + r_e.

    Examples
    --------
    >>> moment_bound(1, 1)   # y = k v_i sum_j v_j^2: sep <= 1 * ((2, 1)) = 2
    2
    >>> moment_bound(2, 2)   # 2 * ((4, 4)) = 2 * 35
    70
    """
    L = _int_at_least("L", L, 1)
    s = _int_at_least("s", s, 1)
    return s * multiset(s * (s + 1) // 2 + 1, num_head_indices(L))


def thm3_power_bound(L: int, s: int) -> int:
    """(3^L + 1)^(2s + 2): at least wies2021 Theorem 3's bound for r + r_e = s.

    ((s, t)) = prod_{i<s} (t + i)/i <= (t + 1)^(s-1) and ((4, t)) <= (t + 1)^3 with
    t = 3^L (each factor (t + i)/i <= t + 1), so eq. (9) is at most
    (t + 1)^(2s + 2) <= 4^(L (2s + 2)): log sep = O(L s), the step from
    Theorem 3 to Theorem 1 (l.443).

    Examples
    --------
    >>> from seprank.bounds.wies2021 import thm3_bound
    >>> thm3_bound(1, 1, 1) <= thm3_power_bound(1, 2)
    True
    """
    L = _int_at_least("L", L, 1)
    s = _int_at_least("s", s, 1)
    return (3**L + 1) ** (2 * s + 2)


def moment_vs_thm3(s: int) -> dict:
    """Decide, for all L >= 1 at once, whether the moment bound is <= Theorem 3's bound.

    Both are polynomials in t = 3^L (C = (t - 1)/2): the moment bound
    s C(D + C, D) of degree D = s(s+1)/2, Theorem 3's ((s, t)) ((4, t)) (t+1)^s of
    degree 2s + 2. ``holds_for_all_L`` is True when the difference (Theorem 3
    minus moment) has no real root in [3, oo) (exact Sturm count, sympy) and is
    positive at t = 3; otherwise ``first_failure`` is the least L that fails.

    Examples
    --------
    >>> moment_vs_thm3(2)["holds_for_all_L"]
    True
    >>> moment_vs_thm3(5)["holds_for_all_L"]
    False
    """
    s = _int_at_least("s", s, 1)
    t = sympy.Symbol("t")
    D = s * (s + 1) // 2
    C = (t - 1) / 2
    moment = s * sympy.prod([(C + i) / i for i in range(1, D + 1)])
    thm3 = (sympy.prod([(t + i) / i for i in range(1, s)])
            * sympy.prod([(t + i) / i for i in range(1, 4)]) * (t + 1) ** s)
    diff = sympy.Poly(sympy.expand(thm3 - moment), t)
    roots = diff.count_roots(3, None) if diff.degree() > 0 else 0
    at3 = diff.eval(3)
    out = {"s": s, "degree_moment": D, "degree_thm3": 2 * s + 2,
           "roots_in_[3,oo)": int(roots), "difference_at_t=3": Fraction(str(at3)),
           "holds_for_all_L": bool(roots == 0 and at3 > 0)}
    if not out["holds_for_all_L"]:
        from seprank.bounds.wies2021 import thm3_bound
        L = 1
        while moment_bound(L, s) <= thm3_bound(L, s, 0) and L < 60:
            L += 1
        out["first_failure"] = L
    return out


def _comps(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 0:
        return [()] if total == 0 else []
    return compositions(total, parts)


def thm3_printed_count(L: int, r: int, r_e: int) -> int:
    """The number of summands the proof of Theorem 3 counts (l.439, left of the inequality).

    sum over N_{A Delta B} = 1..C+1, N_{A cap B} = 1..C (as printed, from 1), T =
    N_{A Delta B} + 2 N_{A cap B} <= 2C + 1, compositions n of T into r parts and p of
    2C + 1 - T into r_e parts, pairs (m_P, m_Q) and (z_P, z_Q), of
    prod_alpha ((2, n_alpha)) prod_sigma ((2, p_sigma)), with ((2, n)) = n + 1.

    Examples
    --------
    >>> thm3_printed_count(1, 1, 0)   # C = 1: only T = 3, n = (3,): (3+1) * 1 * 4
    16
    """
    L = _int_at_least("L", L, 1)
    r = _int_at_least("r", r, 1)
    r_e = _int_at_least("r_e", r_e, 0)
    C = num_head_indices(L)
    total = 0
    for n_sym in range(1, C + 2):
        for n_cap in range(1, C + 1):
            T = n_sym + 2 * n_cap
            if T > 2 * C + 1:
                continue
            pairs = (T + 1) * (2 * C + 2 - T)
            for n in _comps(T, r):
                for p in _comps(2 * C + 1 - T, r_e):
                    total += pairs * prod(x + 1 for x in n) * prod(x + 1 for x in p)
    return total


def moment_vs_thm3_at_L(L: int) -> dict:
    """Decide, for one L and every s = r + r_e >= 1 at once, where moment bound <= eq. (9).

    Tail argument: with C = C(L), t = 3^L, D = s(s+1)/2, the moment bound is
    s C(D + C, C) <= s (D + C)^C <= s^(2C+1) once D + C <= s^2, and eq. (9) >= (t+1)^s.
    So moment <= eq. (9) for every s >= s0 when s0(s0-1)/2 >= C, s0^(2C+1) <= (t+1)^s0 and
    s0 ln(t+1) >= 2C + 1 (then s ln(t+1) - (2C+1) ln s increases for s >= s0); all three
    are checked with integers ((t+1)^s0 >= 3^(2C+1) > e^(2C+1) for the last). Below s0
    every s is compared exactly. ``failing_s``: the s < s0 where the moment bound exceeds
    eq. (9) (where eq. (9) is not re-established).

    Examples
    --------
    >>> out = moment_vs_thm3_at_L(2)
    >>> out["failing_s"], out["tail_from"] > 1
    ([], True)
    """
    from seprank.bounds.wies2021 import thm3_bound

    L = _int_at_least("L", L, 1)
    C, t = num_head_indices(L), 3**L
    s0 = 2
    while not (s0 * (s0 - 1) // 2 >= C and s0 ** (2 * C + 1) <= (t + 1) ** s0
               and (t + 1) ** s0 >= 3 ** (2 * C + 1)):
        s0 += 1
    failing = [s for s in range(1, s0) if moment_bound(L, s) > thm3_bound(L, s, 0)]
    return {"L": L, "tail_from": s0, "failing_s": failing, "holds_for_all_s": not failing}


def split_patch_rank(N: int, seed: int = 0) -> dict:
    """A lower bound on sep for a convolution embedding and a partition that splits patches.

    L = 1, d_x = H = d_a = 1 (weights from ``SelfAttentionNetwork.random(1, 1, 1, seed=5,
    nonzero=True)``), kernel (1, 2) of rank r = 1 on patches of two scalar inputs, no
    positional embedding (r_e = 0), N patches; P = the first input of every patch. With
    u_j = x_{2j-1} + 2 x_{2j} the output is c u_i sum_j u_j^2, whose cross term
    4 sum_j x_{2j-1} x_{2j} couples the sides through N products: sep = 2N + 2. ``rank`` is
    the exact rank of the K x K matrix of values on K random P-points and Q-points, a lower
    bound on sep (any sample of g_1 h_1 + ... + g_R h_R has rank <= R); ``eq11_bound`` is
    wies2021 Theorem 4's eq. (11) at (L, r, r_e) = (1, 1, 0).

    Examples
    --------
    >>> out = split_patch_rank(2, seed=1)
    >>> out["rank"], out["expected_2N_plus_2"], out["eq11_bound"]
    (6, 6, 80)
    """
    import random

    import seprank
    from seprank.bounds.wies2021 import thm4_bound
    from seprank.models import SelfAttentionNetwork
    from seprank.models.embedding import ConvolutionalEmbedding

    N = _int_at_least("N", N, 1)
    emb = ConvolutionalEmbedding([[[1]], [[2]]], [[0] * N])
    net = SelfAttentionNetwork.random(1, 1, 1, seed=5, nonzero=True)
    rng = random.Random(seed)
    K = 2 * N + 6
    Pp = [[rng.randint(-9, 9) for _ in range(N)] for _ in range(K)]
    Qp = [[rng.randint(-9, 9) for _ in range(N)] for _ in range(K)]
    X = np.empty((K * K, 2 * N, 1), dtype=object)
    for a in range(K):
        for b in range(K):
            X[a * K + b, 0::2, 0] = Pp[a]
            X[a * K + b, 1::2, 0] = Qp[b]
    Y = net.evaluate(emb.embed(X), "ZZ")
    A = np.array([[Y[a * K + b, 0, 0] for b in range(K)] for a in range(K)], dtype=object)
    return {"L": 1, "d_x": 1, "H": 1, "kernel": [[[1]], [[2]]], "r": emb.rank(), "r_e": 0,
            "N": N, "M": 2 * N, "P": "first input of every patch", "K": K,
            "weights": {k: net.weights[k].ravel().tolist() for k in "QKVO"},
            "rank": seprank.rank(A).value, "eq11_bound": thm4_bound(1, 1, 0),
            "expected_2N_plus_2": 2 * N + 2}
