"""Theorem 4 of levine2020 (A.3, l.424-477): the displays of its proof, and the repair.

Source: ``levine2020_depth_to_width_self_attention.txt``, A.3 (l.435-476). Why: one
side of each display per function, so that the checks
(``proofs/levine2020/levine_proof_displays.py``, ``thm4_displays``) can compare
both sides exactly; the printed grouping fails, and the repaired count is here too.

The coordinate expansion of l.438-444 with the printed or the corrected indices
(:func:`thm4_coefficients`, :func:`thm4_expansion`), the chi functions of l.453 and
their P/Q split (l.457-459) (:func:`thm4_chi`, :func:`thm4_chi_split`), the grouping
by powers of l.448 (:func:`thm4_grouped`); the repaired argument: the output is
x^(i)T-linear in a matrix polynomial of the Gram matrix (:func:`gram_form`), so the
separation rank is at most the number of monomials of degree <= C(L) in the entries
of S (:func:`gram_monomial_count`); a finer count by degree vectors
(:func:`sym_monomial_count`, :func:`thm4_repaired_count`). Conventions:
:mod:`seprank.papers.levine2020.chains`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import numpy as np

from seprank.combinatorics import compositions, multiset
from seprank.papers.levine2020.chains import (
    Chain,
    obj_array,
    object_eye,
)

__all__ = [
    "thm4_coefficients",
    "thm4_monomial_sums",
    "thm4_expansion",
    "thm4_chi",
    "thm4_grouped",
    "thm4_chi_split",
    "gram_form",
    "sym_monomial_count",
    "thm4_repaired_count",
    "gram_monomial_count",
    "gram_split_count",
    "thm4_shape",
]


def thm4_coefficients(chains: Sequence[Chain], p: int, printed: bool = False) -> dict:
    """The coefficients T of l.443, keyed (alpha_{C+1}, (alpha_1..alpha_C), (beta_1..beta_C)).

    Corrected (l.437 read coordinate-wise): T = sum_h sum_r B^(0,h)_{r_1,p}
    A^(0,h)_{r_{C+1}, alpha_{C+1}} prod_c A^(c,h)_{r_c, alpha_c}
    B^(c,h)_{r_{c+1}, beta_c}. ``printed=True`` uses l.439/l.443 as printed:
    B^(c,h)_{r_c, beta_c} (r_{c+1} then only links A^(c+1)); the subscript
    alpha_{C(L)}+1 of A^(0,h) is read as alpha_{C(L)+1} in both.

    >>> one = obj_array([[1]])
    >>> thm4_coefficients([Chain(one, one, ((one, one),), (0,))], 0)
    {(0, (0,), (0,)): 1}
    """
    T: dict = {}
    for ch in chains:
        d_a, d_x = ch.A0.shape
        state = {((), ()): ch.B0[:, p].copy()}  # vector over r_c
        for A, B in ch.pairs:
            new = {}
            for (als, bes), vec in state.items():
                for al, be in product(range(d_x), repeat=2):
                    if printed:
                        s = sum(vec[r] * A[r, al] * B[r, be] for r in range(d_a))
                        nv = np.array([s] * d_a, dtype=object)
                    else:
                        s = sum(vec[r] * A[r, al] for r in range(d_a))
                        nv = np.array([s * B[r2, be] for r2 in range(d_a)], dtype=object)
                    new[(als + (al,), bes + (be,))] = nv
            state = new
        for (als, bes), vec in state.items():
            for a0 in range(d_x):
                key = (a0, als, bes)
                T[key] = T.get(key, 0) + sum(vec[r] * ch.A0[r, a0] for r in range(d_a))
    return T


def thm4_monomial_sums(X, i: int, keys) -> dict:
    """The x-factor of l.444 for each key (a0, a, b), summed literally over [N]^C.

    sum_{j in [N]^C} x^(i)_{a0} prod_c x^(j_c)_{a_c} x^(j_c)_{b_c}.

    >>> thm4_monomial_sums([[1, 2], [3, 0]], 0, [(1, (0,), (1,))])   # 2 * (1*2 + 3*0)
    {(1, (0,), (1,)): 4}
    """
    Xo = obj_array(X)
    N = Xo.shape[0]
    out = {}
    for key in keys:
        a0, als, bes = key
        tot = 0
        for js in product(range(N), repeat=len(als)):
            t = Xo[i, a0]
            for j, al, be in zip(js, als, bes, strict=True):
                t = t * Xo[j, al] * Xo[j, be]
            tot += t
        out[key] = tot
    return out


def thm4_expansion(chains: Sequence[Chain], X, i: int, p: int, printed: bool = False):
    """Right side of l.438-439 / l.443-444: sum over keys of T (printed or corrected) times x-sums.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.papers.levine2020.chains import chain_output, gram, lemma1_chains
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=3)
    >>> X, ch = [[1, -1], [2, 1]], lemma1_chains(net)
    >>> thm4_expansion(ch, X, 0, 0) == chain_output(ch, X, 0, 0)
    True
    """
    T = thm4_coefficients(chains, p, printed)
    xs = thm4_monomial_sums(X, i, list(T))
    return sum((T[k] * xs[k] for k in T), start=0)


def _columns(n: tuple[int, ...], parts: int):
    """Ways to split the degree vector n among ``parts`` positions, each with even total."""
    if parts == 1:
        if sum(n) % 2 == 0:
            yield (tuple(n),)
        return
    for col in product(*(range(k + 1) for k in n)):
        if sum(col) % 2:
            continue
        rest = tuple(a - b for a, b in zip(n, col, strict=True))
        for tail in _columns(rest, parts - 1):
            yield (col,) + tail


def thm4_chi(n: Sequence[int], a0: int | None, X, i: int,
             positions: Sequence[int] | None = None) -> object:
    """chi of l.453 (all positions) or its P- / Q-part of l.458-459 (given positions).

    The sum, with coefficient 1, of every monomial prod_{j, m} (x^(j)_m)^{n_{m,j}}
    over the given positions whose degree vector is n (sum_j n_{m,j} = n_m) and
    whose degree at each position is even (2 o_j), times x^(i)_{a0} when a0 is
    not None.

    >>> thm4_chi((2, 0), None, [[1, 5], [3, 7]], 0)   # x^(1)_1^2 + x^(2)_1^2
    10
    """
    Xo = obj_array(X)
    pos = list(range(Xo.shape[0])) if positions is None else list(positions)
    if not pos:
        return 1 if sum(n) == 0 and a0 is None else (Xo[i, a0] if sum(n) == 0 else 0)
    total = 0
    for cols in _columns(tuple(n), len(pos)):
        t = 1
        for j, col in zip(pos, cols, strict=True):
            for m, e in enumerate(col):
                if e:
                    t = t * Xo[j, m] ** e
        total += t
    return total * (Xo[i, a0] if a0 is not None else 1)


def _counts(als, bes, d_x):
    n = [0] * d_x
    for a in als + bes:
        n[a] += 1
    return tuple(n)


def thm4_grouped(chains: Sequence[Chain], X, i: int, p: int):
    """Right side of l.448-449: sum over alpha_{C+1} and n of (sum of T over arrangements) chi.

    The coefficient of chi_{n, alpha_{C+1}} is the sum of the (corrected) T
    over all (alpha_1..alpha_C, beta_1..beta_C) whose coordinate counts are n
    (l.448, "how to distribute the powers between the c's").

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.papers.levine2020.chains import chain_output, gram, lemma1_chains
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=3)
    >>> X, ch = [[1, -1], [2, 1]], lemma1_chains(net)
    >>> thm4_grouped(ch, X, 0, 0) == chain_output(ch, X, 0, 0)   # holds at L = 1
    True
    """
    T = thm4_coefficients(chains, p)
    d_x = obj_array(X).shape[1]
    coef: dict = {}
    for (a0, als, bes), t in T.items():
        key = (a0, _counts(als, bes, d_x))
        coef[key] = coef.get(key, 0) + t
    return sum((c * thm4_chi(n, a0, X, i) for (a0, n), c in coef.items()), start=0)


def thm4_chi_split(n: Sequence[int], a0: int, X, i: int, P: Sequence[int], C: int):
    """Right side of l.457-459 and its number of summands: (value, count).

    sum over r_P + r_Q = n and E = 0..C of chi^P(r_P, E) chi^Q(r_Q, C - E),
    chi^P holding x^(i)_{a0} (i in P). A part whose degree is not 2E (resp.
    2(C-E)) is an empty sum (0); the count is that of l.463,
    (C + 1) prod_m (n_m + 1).

    >>> X = [[1, 2], [3, 4]]
    >>> thm4_chi_split((2, 0), 1, X, 0, [0], 1)[0] == thm4_chi((2, 0), 1, X, 0)
    True
    """
    Xo = obj_array(X)
    Q = [j for j in range(Xo.shape[0]) if j not in set(P)]
    total, count = 0, 0
    for rP in product(*(range(k + 1) for k in n)):
        rQ = tuple(a - b for a, b in zip(n, rP, strict=True))
        for E in range(C + 1):
            count += 1
            if sum(rP) != 2 * E or sum(rQ) != 2 * (C - E):
                continue
            total += thm4_chi(rP, a0, Xo, i, P) * thm4_chi(rQ, None, Xo, i, Q)
    return total, count


def gram_form(net, S) -> np.ndarray:
    """The matrix F_L(S) with y^(i) = F_L(S) x^(i) at every position i (the repaired form).

    Layer l maps u_j = F x_j to sum_h O_h (sum_j u_j u_j^T) K_h u_i with
    O_h = W^O W^V, K_h = W^K^T W^Q, and sum_j u_j u_j^T = F S F^T, so
    F_l = sum_h O_h F_{l-1} S F_{l-1}^T K_h F_{l-1} (+ F_{l-1} with residual
    connections), F_0 = I: the output depends on the input only through
    x^(i) and S = X X^T, and F_L is a polynomial of degree <= C(L) in S
    (homogeneous of degree C(L) without residual connections).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.papers.levine2020.chains import chain_output, gram, lemma1_chains
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=5, residual=True)
    >>> X = [[1, 2], [0, -1]]
    >>> (gram_form(net, gram(X)) @ obj_array(X[1])).tolist() == net.evaluate([X])[0, 1].tolist()
    True
    """
    W = net.weights
    S = obj_array(S)
    F = object_eye(net.d_x)
    for layer in range(net.L):
        G = F @ S @ F.T
        new = np.zeros_like(F)
        for h in range(net.H):
            O = obj_array(W["O"][layer, h]) @ obj_array(W["V"][layer, h])
            K = obj_array(W["K"][layer, h]).T @ obj_array(W["Q"][layer, h])
            new = new + O @ G @ K @ F
        F = new + F if net.residual else new
    return F


@cache
def sym_monomial_count(r: tuple[int, ...]) -> int:
    """N(r): monomials in the entries S_ab (a <= b) of a symmetric d x d matrix, degree vector r.

    S_ab adds 1 to r_a and 1 to r_b (2 to r_a when a = b): the number of
    loopy multigraphs on d labelled vertices with degree sequence r.

    >>> sym_monomial_count((2, 2))   # S_11 S_22, S_12^2
    2
    >>> sym_monomial_count((1, 1, 1, 1))   # S_12 S_34, S_13 S_24, S_14 S_23
    3
    """
    r = tuple(int(k) for k in r)
    d = len(r)
    pairs = [(a, b) for a in range(d) for b in range(a, d)]

    @cache
    def go(k, rem):
        if k == len(pairs):
            return 1 if not any(rem) else 0
        a, b = pairs[k]
        total, cur = 0, list(rem)
        while True:
            total += go(k + 1, tuple(cur))
            if a == b:
                if cur[a] < 2:
                    return total
                cur[a] -= 2
            else:
                if cur[a] < 1 or cur[b] < 1:
                    return total
                cur[a] -= 1
                cur[b] -= 1

    return go(0, r)


def _vectors(total: int, d: int):
    return compositions(total, d)


@cache
def thm4_repaired_count(k: int, d_x: int) -> int:
    """The repaired count: sum over E and degree vectors of min(d_x N(r_P), N(r_Q)).

    y_p^i = sum_a x^(i)_a F_{pa}(S_P + S_Q) with F_{pa} homogeneous of degree k
    in the entries of S (:func:`gram_form`, k = C(L)). Expanding, every term is
    (x^(i)_a S_P^nu)(S_Q^mu); grouping the terms by the degree vectors (r_P,
    r_Q) of (nu, mu), ``|r_P| = 2E``, ``|r_Q| = 2(k - E)``, a group is a bilinear
    combination of at most d_x N(r_P) functions of P and N(r_Q) functions of
    Q, so its separation rank is <= min(d_x N(r_P), N(r_Q)); the sum of these
    bounds the separation rank w.r.t. every partition with i in P.

    >>> thm4_repaired_count(1, 2)   # E = 0: 3 r_Q, each min(2, 1); E = 1: 3 r_P, min(2N, 1) = 1
    6
    """
    total = 0
    for E in range(k + 1):
        rQs = _vectors(2 * (k - E), d_x)
        nQ = [sym_monomial_count(rq) for rq in rQs]
        for rp in _vectors(2 * E, d_x):
            a = d_x * sym_monomial_count(rp)
            total += sum(min(a, b) for b in nQ)
    return total


def gram_monomial_count(k: int, d_x: int) -> int:
    """C(k + D, D) = ((D + 1, k)), D = d_x (d_x + 1)/2: monomials of degree <= k in S_ab.

    The repaired argument for Theorems 4-6: y^(i) = F(S) x^(i) with F of
    degree <= k = C(L) in S (:func:`gram_form`); with S = S_P + S_Q every term
    of y_p is (x^(i)_a S_P^nu)(S_Q^mu) with ``|mu| <= k``, so the separation
    rank w.r.t. any partition is at most the number of monomials S_Q^mu,
    independent of N and H.

    >>> gram_monomial_count(4, 2)   # D = 3: C(7, 3)
    35
    >>> gram_monomial_count(4, 1)   # d_x = 1: 1, s, ..., s^4
    5
    """
    D = d_x * (d_x + 1) // 2
    return comb(k + D, D)


def gram_split_count(k: int, d_x: int, residual: bool = False) -> int:
    """The Gram count split by the degree E of the Q-side monomial: sum_E min(P-side, Q-side).

    Without skips F is homogeneous of degree k: the terms with ``|mu| = E`` pair
    d_x ((D, k - E)) functions x^(i)_a S_P^nu with ((D, E)) functions S_Q^mu,
    so their separation rank is <= the smaller count. With skips (degree
    <= k) the P side has d_x ((D + 1, k - E)) functions. Never more than
    :func:`gram_monomial_count` (the sum of the Q-side counts).

    >>> gram_split_count(4, 1)   # d_x = 1: min(1, 1) for each E = 0..4
    5
    >>> gram_split_count(4, 2) <= gram_monomial_count(4, 2)
    True
    """
    D = d_x * (d_x + 1) // 2
    p_side = (lambda m: multiset(D + 1, m)) if residual else (lambda m: multiset(D, m))
    return sum(min(d_x * p_side(k - E), multiset(D, E)) for E in range(k + 1))


def thm4_shape(k: int, d_x: int) -> Fraction:
    """``d_x (k + 1) ((d_x, 2k)) (2k/d_x + 1)^d_x``: Theorem 4's right side (eq. (19)) at C = k.

    >>> thm4_shape(1, 2)   # = thm4_bound(1, 2)
    Fraction(48, 1)
    """
    return d_x * (k + 1) * multiset(d_x, 2 * k) * (Fraction(2 * k, d_x) + 1) ** d_x
