"""A one-coordinate network whose separation rank is C(L) + 1: log sep >= (L - 1) log 3.

Used by the ``W-Thm2`` row to cover the cases of wies2021 Theorem 2 (l.136-140) where
r - H is too small for the paper's construction (((d, 3^(L-2))) = 1 for d <= 1).

Every head of every layer has W^Q = W^K = W^V = e_1 e_1^T (d_a x d_x) and
W^O = e_1 e_1^T (d_x x d_a). In the moment form (seprank.network_theory.moment_form) G_l stays
g_l e_1 e_1^T with g_0 = 1 and g_{l+1} = H g_l^3 S_11, so

    y_1^{L,i} = H^{C(L)} S_11^{C(L)} v_i,    S_11 = sum_j v_j^2,

v_j the first coordinate of y^{0,j} (for a vocabulary embedding, the first row of M_V
read at token w^j). For a balanced partition (P, Q) with i in P, S_11 = S^P + S^Q and

    y = H^C v_i (S^P + S^Q)^C = H^C sum_k binom(C, k) v_i (S^P)^k (S^Q)^(C-k),

whose matrix of values on points with C + 1 distinct values of S^P and of S^Q has rank
C + 1 (a Hankel matrix of a degree-C polynomial, times nonzero row factors v_i). Rank is
a lower bound on sep (Claim 1), and a nonzero minor is a nonzero polynomial in the
weights (levine2020 Claim 2), so sep >= C(L) + 1 for almost all weights, every r >= 1,
H >= 1, d_x, d_a, provided the inputs allow C + 1 distinct values of S^P: V >= C + 1
tokens with distinct squares and N = 2, or two tokens and N >= 2C + 2.
"""

from __future__ import annotations

import numpy as np

from seprank.combinatorics import num_head_indices
from seprank.linalg import rank

__all__ = ["scalar_chain_network", "scalar_chain_rank"]


def scalar_chain_network(L: int, d_x: int = 1, H: int = 1, d_a: int = 1):
    """The network of the module docstring (every weight matrix e_1 e_1^T).

    Examples
    --------
    >>> net = scalar_chain_network(2, d_x=2, H=1, d_a=2)
    >>> X = [[2, 5], [3, 7]]          # v = (2, 3), S_11 = 13
    >>> net.evaluate([X], "ZZ")[0, 0, 0] == 13 ** 4 * 2   # H^4 S^4 v_1 with C(2) = 4
    True
    """
    from seprank.models import SelfAttentionNetwork

    weights = {}
    for k in "QKVO":
        shape = (L, H) + ((d_x, d_a) if k == "O" else (d_a, d_x))
        arr = np.zeros(shape, dtype=object)
        arr[:, :, 0, 0] = 1
        weights[k] = arr
    return SelfAttentionNetwork(L, d_x, H, d_a, weights=weights)


def scalar_chain_rank(L: int, route: str = "vocabulary", H: int = 1) -> dict:
    """Exact rank of the value matrix of y_1^1 for the scalar chain, against C(L) + 1.

    ``route="vocabulary"``: N = 2, tokens 1..C+1 with first coordinates 1..C+1
    (distinct squares), P = {1}. ``route="long"``: two tokens with first coordinates
    1 and 0, N = 2C + 2, rows = P-halves with m = 1..C+1 ones (position 1 holds a
    one), columns = Q-halves with m' = 0..C ones.

    Examples
    --------
    >>> scalar_chain_rank(2)["rank"], scalar_chain_rank(2, "long")["rank"]   # C(2) + 1 = 5
    (5, 5)
    """
    C = num_head_indices(L)
    net = scalar_chain_network(L, d_x=1, H=H, d_a=1)
    if route == "vocabulary":
        vals = list(range(1, C + 2))
        X = np.array([[[a], [b]] for a in vals for b in vals], dtype=object)
        N, n_rows = 2, len(vals)
    elif route == "long":
        half = C + 1
        N = 2 * half
        rows = [[1] * m + [0] * (half - m) for m in range(1, half + 1)]
        cols = [[1] * m + [0] * (half - m) for m in range(0, half)]
        X = np.array([[[x] for x in p + q] for p in rows for q in cols], dtype=object)
        n_rows = len(rows)
    else:
        raise ValueError(f"route must be 'vocabulary' or 'long', got {route!r}")
    out = net.evaluate(X, "ZZ")
    n_cols = X.shape[0] // n_rows
    M = [[out[a * n_cols + b, 0, 0] for b in range(n_cols)] for a in range(n_rows)]
    return {"L": L, "H": H, "route": route, "N": N, "C(L)": C, "matrix_shape": [n_rows, n_cols],
            "rank": rank(M, "exact").value, "C(L)+1": C + 1}
