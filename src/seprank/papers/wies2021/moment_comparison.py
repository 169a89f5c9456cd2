"""The moment bound against wies2021's Theorem 3 / 4 bound, and the count its proof makes.

The moment form and its bound ``s ((s(s+1)/2 + 1, C(L)))`` are generic
(:mod:`seprank.network_theory.moment_form`); this module compares them with the
printed eq. (9)/(11) of ``wies2021_vocabulary_bottleneck.txt`` (A.2 l.375-441, A.3
l.455), counts the summands the proof of Theorem 3 counts (l.439), and measures a
partition that splits convolution patches (outside eq. (11)'s hypothesis). Why: W-Thm1
decides Theorem 1 (eq. (6), l.127-135) with these comparisons: the repaired bound holds
where eq. (9) does, and the split partition shows the convolution case needs a hypothesis
Theorem 1 does not state.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

import numpy as np
import sympy

from seprank.combinatorics import compositions, num_head_indices
from seprank.network_theory.moment_form import moment_bound
from seprank.papers.wies2021.bounds import thm3_bound, thm4_bound
from seprank.scalars.enclosures import int_at_least

__all__ = [
    "rate_beats_every_polylog",
    "thm3_power_bound",
    "moment_vs_thm3",
    "thm3_printed_count",
    "moment_vs_thm3_at_L",
    "split_patch_rank",
    "split_patch_exact",
]


def thm3_power_bound(L: int, s: int) -> int:
    """(3^L + 1)^(2s + 2): at least wies2021 Theorem 3's bound for r + r_e = s.

    ((s, t)) = prod_{i<s} (t + i)/i <= (t + 1)^(s-1) and ((4, t)) <= (t + 1)^3 with
    t = 3^L (each factor (t + i)/i <= t + 1), so eq. (9) is at most
    (t + 1)^(2s + 2) <= 4^(L (2s + 2)): log sep = O(L s), the step from
    Theorem 3 to Theorem 1 (l.443).

    Examples
    --------
    >>> thm3_bound(1, 1, 1) <= thm3_power_bound(1, 2)
    True
    """
    L = int_at_least("L", L, 1)
    s = int_at_least("s", s, 1)
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
    s = int_at_least("s", s, 1)
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
    L = int_at_least("L", L, 1)
    r = int_at_least("r", r, 1)
    r_e = int_at_least("r_e", r_e, 0)
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
    L = int_at_least("L", L, 1)
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

    from seprank.linalg import rank
    from seprank.models import SelfAttentionNetwork
    from seprank.models.embedding import ConvolutionalEmbedding

    N = int_at_least("N", N, 1)
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
            "rank": rank(A).value, "eq11_bound": thm4_bound(1, 1, 0),
            "expected_2N_plus_2": 2 * N + 2}


def split_patch_exact(N: int) -> dict:
    """The exact separation rank for a partition that splits every convolution patch: 2N + 2.

    L = 1, d_x = H = d_a = 1, every weight 1, kernel width 2 with W_1 = W_2 = 1 (tilde
    W^conv = [1, 1], rank r = 1), no positional embedding (r_e = 0), N patches; P = the
    first input of every patch. With t_j = a_j + b_j (a_j = z_{2j-1} on P's side, b_j =
    z_{2j} on Q's) the output at position 1 is t_1 sum_j t_j^2; its coefficient matrix
    (:func:`seprank.separation.embedded_separation_rank`, the coefficient route: exact)
    has rank 2N + 2, while wies2021's eq. (11) is 80 at (L, r, r_e) = (1, 1, 0).

    Examples
    --------
    >>> out = split_patch_exact(3)
    >>> out["sep"], out["kind"], out["2N + 2"], out["eq11_bound"]
    (8, 'exact', 8, 80)
    """
    from seprank.models import SelfAttentionNetwork
    from seprank.models.embedding import ConvolutionalEmbedding
    from seprank.separation import embedded_separation_rank

    N = int_at_least("N", N, 1)
    one = [[[[1]]]]
    net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    emb = ConvolutionalEmbedding([[[1]], [[1]]], [[0] * N])
    res = embedded_separation_rank(net, emb, partition=tuple(range(0, 2 * N, 2)))
    keep = embedded_separation_rank(net, emb, partition=tuple(range(2 * (N // 2))))
    return {"N": N, "M": 2 * N, "r": emb.rank(), "r_e": emb.positional_rank(),
            "P": "the first input of every patch", "sep": res.value, "kind": res.kind,
            "2N + 2": 2 * N + 2, "eq11_bound": thm4_bound(1, 1, 0),
            "sep_patch_keeping_first_half": keep.value}


def rate_beats_every_polylog() -> dict:
    """(5/4) s^3 outgrows K L s log^m(L s) at L = 4s for all constants K, m > 0 (eq. (6), l.133).

    The one-hot family has log_3 sep >= (s(s+1)/2)(L - floor(s/2) - s) (L-Thm2-corrected's
    exponent floor); at L = 4s this is >= (s^2/2)(4s - s/2 - s) = (5/4) s^3, while eq. (6)
    allows K L s log^m(L s) = 4K s^2 log^m(4 s^2); the ratio (5/16K) s / log^m(4 s^2) has an
    infinite limit as s -> infinity for a positive symbol m (sympy).

    Examples
    --------
    >>> rate_beats_every_polylog()["holds"]
    True
    """
    s, m = sympy.symbols("s m", positive=True)
    lower = sympy.Rational(1, 2) * s ** 2 * (4 * s - s / 2 - s)
    lower_ok = sympy.simplify(lower - sympy.Rational(5, 4) * s ** 3) == 0
    limit = sympy.limit(s / sympy.log(4 * s ** 2) ** m, s, sympy.oo)
    return {"holds": bool(lower_ok and limit == sympy.oo), "lower_at_L=4s": "(5/4) s^3",
            "limit_s_over_log^m(4s^2)": str(limit), "sizes": "symbolic s, m"}
