"""Theorem 2.1 (path decomposition) by induction on L, each step a symbolic identity.

Source: rank_collapse_notes.txt, sec. 2.1 l.33-64 (one head l.35-39, one layer l.48-52,
two layers l.56, Theorem 2.1 l.60-64). Why: the check R-path verified the decomposition
in the free algebra only for L <= 3, H <= 2; these identities carry it to every L, H and
every matrix size.

The induction. Write Y_l = F_l + e c_l with F_l = sum_{paths of length l} P_path X W_path
(P_path = P^l_{h_l} .. P^1_{h_1}, W_path = W^1_{h_1} .. W^l_{h_l}) and c_l a row (the bias);
Y_0 = X (F_0 = X, c_0 = 0). Layer l + 1 maps Y to sum_h P_h Y W_h + e b (one layer, l.52).
For each head, with only P_h e = e (rows of a softmax sum to one, l.37):

    P_h (F + e c) W_h = P_h F W_h + e c W_h                  (:func:`head_step`)

in the free noncommutative algebra (sympy), whatever P_h, F, W_h, c stand for. Summing
over the heads (linearity), Y_{l+1} = sum_h P_h F_l W_h + e (c_l S + b), S = sum_h W_h,
and sum_h P_h F_l W_h = sum_h sum_path P_h P_path X W_path W_h (distributivity): the paths
of length l + 1, each path extended by its last head, with P_h on the left and W_h on the
right. A skip connection is a head with P = I, W = I (I e = e), which gives (H+1)^L paths.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

__all__ = ["head_step", "concatenated_heads", "distribute_over_paths"]


def head_step(stochastic: bool = True) -> dict[str, Any]:
    """P (F + e c) W = P F W + e c W in the free algebra, using only the rewrite P e -> e.

    With F = X W_V and c = b_V^T this is also the one-head identity of l.35-39.
    ``stochastic=False`` drops the rewrite (P not row-stochastic), and the identity fails.

    Examples
    --------
    >>> head_step()["holds"], head_step(stochastic=False)["holds"]
    (True, False)
    """
    P, F, W, e, c, b = sp.symbols("P F W e c b", commutative=False)
    lhs = sp.expand(P * (F + e * c) * W + e * b)
    lhs = sp.expand(lhs.subs(P * e, e)) if stochastic else lhs
    rhs = P * F * W + e * c * W + e * b
    return {"holds": bool(sp.expand(lhs - rhs) == 0), "lhs": str(lhs),
            "rule": "P e -> e (row-stochastic P)",
            "sizes": "noncommuting symbols: any matrix sizes, any layer, any head"}


def concatenated_heads() -> dict[str, Any]:
    """[A_1 A_2] [B_1; B_2] = A_1 B_1 + A_2 B_2 for blocks of symbolic sizes (sympy).

    With A_1 the first h - 1 heads' outputs side by side and A_2 the h-th, induction on the
    number of heads gives [SA_1 .. SA_H] [W_O,1; ..; W_O,H] = sum_h SA_h W_O,h (l.48).

    Examples
    --------
    >>> concatenated_heads()["holds"]
    True
    """
    n, k1, k2, m = sp.symbols("n k1 k2 m", integer=True, positive=True)
    A1, A2 = sp.MatrixSymbol("A1", n, k1), sp.MatrixSymbol("A2", n, k2)
    B1, B2 = sp.MatrixSymbol("B1", k1, m), sp.MatrixSymbol("B2", k2, m)
    product = sp.block_collapse(sp.BlockMatrix([[A1, A2]]) * sp.BlockMatrix([[B1], [B2]]))
    return {"holds": bool(product == A1 * B1 + A2 * B2), "product": str(product),
            "sizes": "symbolic n, k1, k2, m"}


def distribute_over_paths() -> dict[str, Any]:
    """P (sum_k P_k X V_k) W = sum_k (P P_k) X (V_k W): the paths extend by one head.

    Checked for a sum of two path terms (free algebra); a sum of more is the same identity
    applied to the first term and the rest, by induction on the number of terms.

    Examples
    --------
    >>> distribute_over_paths()["holds"]
    True
    """
    P, W, X, P1, P2, V1, V2 = sp.symbols("P W X P1 P2 V1 V2", commutative=False)
    lhs = sp.expand(P * (P1 * X * V1 + P2 * X * V2) * W)
    rhs = (P * P1) * X * (V1 * W) + (P * P2) * X * (V2 * W)
    return {"holds": bool(sp.expand(lhs - rhs) == 0), "lhs": str(lhs),
            "sizes": "noncommuting symbols; any number of terms by induction"}
