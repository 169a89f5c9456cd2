"""Both sides of the displayed equalities in levine2020's upper- and lower-bound proofs.

Source: ``levine2020_depth_to_width_self_attention.txt`` (line numbers of that
file; read the LaTeX half of each formula). Every function evaluates one side
of one display exactly (Python ints and Fractions, numpy object arrays), so
that ``proofs/levine_proof_displays.py`` can compare the two sides at random
rational points, or compare counts, or expand with sympy.

Conventions
-----------
An input ``X`` is a sequence of N vectors (shape (N, d_x)), ``X[j]`` =
x^(j+1); positions ``i`` and coordinates ``p`` are 0-based. The Gram matrix
``S = sum_j x^(j) x^(j)T`` (d_x x d_x) over a set of positions is what every
M-unit of Lemma 1 sees: M^(c,h) = A^(c,h) X X^T B^(c,h)T (paper: X is
d_x x N) = A S B^T here. ``P`` is the side of the partition that holds i.

What is here
------------
* Lemma 1 (A.1, eq. (13)-(15), l.335-364): :func:`lemma1_chains` builds the
  H^C(L) chains (B^(0,h), A^(1..C), B^(1..C), A^(0,h)) by the induction of
  eq. (14)-(15); :func:`chain_output` evaluates eq. (13) at position i.
* Theorem 3 (A.2, l.380-423): the P/Q split of every M-unit (l.393),
  the sum over side sequences (l.398-399), the sum over swap indices beta with
  the printed (l.403, eq. (17) l.409) or the corrected index ranges
  (:func:`swap_tuples`, :func:`thm3_swap_sum`), and the separated terms of
  eq. (17) (:func:`thm3_separated_terms`).
* Theorem 4 (A.3, l.424-477): the coordinate expansion of l.438-444 with the
  printed or the corrected indices (:func:`thm4_coefficients`,
  :func:`thm4_expansion`), the chi functions of l.453 and their P/Q split
  (l.457-459) (:func:`thm4_chi`, :func:`thm4_chi_split`), the grouping by
  powers of l.448 (:func:`thm4_grouped`); the repaired argument: the output
  is x^(i)T-linear in a matrix polynomial of the Gram matrix
  (:func:`gram_form`), so the separation rank is at most the number of
  monomials of degree <= C(L) in the entries of S (:func:`gram_monomial_count`);
  a finer count by degree vectors (:func:`sym_monomial_count`,
  :func:`thm4_repaired_count`).
* Lemma 2 / Theorems 5-6 (A.4): eq. (21) (:func:`lemma2_eq21`,
  :func:`lemma2_regrouped`), the unraveled residual network of fig. 5(b)
  (:func:`unraveled_output`), the top-degree part of a residual network
  (:func:`top_degree_part`).
* B.2 (l.684-718): the multinomial expansion eq. (26)-(27)
  (:func:`hadamard_power_terms`, :func:`multinomial_expansion_is_identity`),
  the normalized Omega rows (:func:`omega_power_squares`), and the Leibniz
  form of det A (:func:`omega_det_and_leibniz`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations, product
from math import comb, factorial

import numpy as np

from seprank.combinatorics import compositions, multinomial, multiset
from seprank.errors import ParameterError

__all__ = [
    "Chain",
    "gram",
    "lemma1_chains",
    "chain_output",
    "side_sequence_value",
    "thm3_sequence_sum",
    "swap_tuples",
    "swap_tuple_count",
    "swap_blocks",
    "thm3_swap_sum",
    "thm3_separated_terms",
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
    "lemma2_eq21",
    "lemma2_regrouped",
    "unraveled_output",
    "top_degree_part",
    "hadamard_power_terms",
    "multinomial_expansion_is_identity",
    "omega_power_squares",
    "omega_det_and_leibniz",
]


def _obj(a) -> np.ndarray:
    return np.asarray(a, dtype=object)


def _eye(n: int) -> np.ndarray:
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
    X = _obj(X)
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

    >>> one = _obj([[1]])
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
        return [(_obj(W["Q"][layer, h]), _obj(W["K"][layer, h]), _obj(W["V"][layer, h]),
                 _obj(W["O"][layer, h])) for h in range(net.H)]

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

    >>> one = _obj([[1]])
    >>> side_sequence_value(Chain(one, one, ((one, one),), (0,)), {"P": _obj([[3]])}, "P",
    ...                     [2], 0)
    6
    """
    v = chain.A0 @ _obj(x_i)
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
    X = _obj(X)
    return sum((side_sequence_value(ch, {"all": S}, ["all"] * ch.length, X[i], p)
                for ch in chains), start=0)


def thm3_sequence_sum(chains: Sequence[Chain], X, i: int, p: int, P: Sequence[int]):
    """Right side of l.398-399: the sum over h, r and side sequences (P_1..P_C) in {P, Q}^C.

    Each M-unit is split as sum_{j in P} + sum_{j in Q} (l.393); expanding the
    product gives one term per sequence.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=3)
    >>> X = [[1, -1], [2, 1]]
    >>> thm3_sequence_sum(lemma1_chains(net), X, 0, 0, [0]) == chain_output(
    ...     lemma1_chains(net), X, 0, 0)
    True
    """
    Xo = _obj(X)
    Q = [j for j in range(Xo.shape[0]) if j not in set(P)]
    grams = {"P": gram(Xo, P), "Q": gram(Xo, Q)}
    total = 0
    for ch in chains:
        for sides in product("PQ", repeat=ch.length):
            total += side_sequence_value(ch, grams, sides, Xo[i], p)
    return total


_RANGES = ("l403", "eq17", "corrected")


def swap_tuples(C: int, ranges: str) -> list[tuple[int, ...]]:
    """The tuples (beta_1, ..., beta_b), b = 0..C, that a sum over swap indices runs over.

    ``ranges``:

    * ``"l403"``: as printed at l.403, 0 = beta_{b+1} < beta_b <= ... <= beta_1
      < beta_0 = C;
    * ``"eq17"``: as printed in eq. (17) (l.409) and l.415, 0 = beta_{b+1} <
      beta_b <= ... <= beta_1 <= beta_0 = C;
    * ``"corrected"``: 0 = beta_{b+1} < beta_b < ... < beta_1 <= beta_0 = C,
      i.e. the set of swap positions {beta in [C] : P_beta != P_{beta+1}} with
      P_{C+1} := P (the side of x^(i)); there are C(C, b) tuples of length b,
      the count l.416 uses.

    >>> [len(swap_tuples(3, r)) for r in ("l403", "eq17", "corrected")]
    [10, 20, 8]
    """
    if ranges not in _RANGES:
        raise ParameterError(f"ranges must be one of {', '.join(_RANGES)}; got {ranges!r}")
    out = []

    def rec(prefix, b):
        if len(prefix) == b:
            out.append(tuple(prefix))
            return
        prev = prefix[-1] if prefix else None
        if prev is None:
            hi = C - 1 if ranges == "l403" else C
        else:
            hi = prev - 1 if ranges == "corrected" else prev
        for beta in range(hi, 0, -1):
            rec(prefix + [beta], b)

    for b in range(C + 1):
        rec([], b)
    return out


def swap_tuple_count(C: int, ranges: str) -> int:
    """len(swap_tuples(C, ranges)) in closed form (the printed ranges grow like 4^C).

    A non-increasing tuple of length b with values in [1, m] is a multiset of
    size b from m values: ((m, b)) of them. ``"eq17"``: m = C, b = 0..C, total
    C(2C, C); ``"l403"``: m = C - 1 (beta_1 < C); ``"corrected"``: subsets, 2^C.

    >>> [swap_tuple_count(3, r) for r in ("l403", "eq17", "corrected")]
    [10, 20, 8]
    """
    if ranges not in _RANGES:
        raise ParameterError(f"ranges must be one of {', '.join(_RANGES)}; got {ranges!r}")
    if ranges == "corrected":
        return 2 ** C
    m = C - 1 if ranges == "l403" else C
    return sum(multiset(m, b) for b in range(C + 1))


def swap_blocks(beta: Sequence[int], C: int) -> list[tuple[int, int, str]]:
    """The blocks (lo, hi, side) of l.404-405 for a swap tuple: c in (beta_{k+1}, beta_k].

    Block k = 0..b has lo = beta_{k+1}, hi = beta_k (beta_0 = C,
    beta_{b+1} = 0) and side P for even k (the product over m of l.404),
    Q for odd k (l.405).

    >>> swap_blocks((2,), 3)
    [(2, 3, 'P'), (0, 2, 'Q')]
    """
    full = (C,) + tuple(beta) + (0,)
    return [(full[k + 1], full[k], "P" if k % 2 == 0 else "Q") for k in range(len(beta) + 1)]


def _sides_of(beta: Sequence[int], C: int) -> list[str] | None:
    sides: list[list[str]] = [[] for _ in range(C)]
    for lo, hi, side in swap_blocks(beta, C):
        for c in range(lo, hi):
            sides[c].append(side)
    if any(len(s) != 1 for s in sides):
        return None  # a unit in no block or in two: not a side sequence
    return [s[0] for s in sides]


def thm3_swap_sum(chains: Sequence[Chain], X, i: int, p: int, P: Sequence[int],
                  ranges: str):
    """Right side of l.403-405: the sum over b and swap tuples with the given index ranges.

    Each swap tuple's term is the product of its P- and Q-blocks with the r
    indices summed outside, i.e. the sequence term of its side sequence.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=3, nonzero=True)
    >>> X, ch = [[1, -1], [2, 1]], lemma1_chains(net)
    >>> y = chain_output(ch, X, 0, 0)
    >>> thm3_swap_sum(ch, X, 0, 0, [0], "corrected") == y
    True
    >>> thm3_swap_sum(ch, X, 0, 0, [0], "l403") == y
    False
    """
    Xo = _obj(X)
    Q = [j for j in range(Xo.shape[0]) if j not in set(P)]
    grams = {"P": gram(Xo, P), "Q": gram(Xo, Q)}
    total = 0
    for ch in chains:
        for beta in swap_tuples(ch.length, ranges):
            sides = _sides_of(beta, ch.length)
            total += side_sequence_value(ch, grams, sides, Xo[i], p)
    return total


def _unit(n: int, k: int) -> np.ndarray:
    e = np.zeros(n, dtype=object)
    e[k] = 1
    return e


def thm3_separated_terms(chains: Sequence[Chain], X, i: int, p: int,
                         P: Sequence[int]) -> list[tuple]:
    """The separated terms of eq. (17) (l.409-411), corrected index ranges: (f_P, g_Q) pairs.

    For every chain (head tuple h), swap tuple (corrected ranges) and value of
    the crossing indices r_{beta_1+1}, ..., r_{beta_b+1} in [d_a]: f_P is the
    product of the P-blocks (computed from S_P and x^(i) only) and g_Q that of
    the Q-blocks (from S_Q only); the remaining r indices are summed inside
    their block (r_1 in the block that holds unit 1, r_{C+1} in the top P-block
    with <A^(0,h), x^(i)> unless beta_1 = C). There are
    H^C (d_a + 1)^C terms, and sum f_P g_Q is the output.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 2, 2, seed=3)
    >>> X = [[1, -1], [2, 1]]
    >>> terms = thm3_separated_terms(lemma1_chains(net), X, 0, 0, [0])
    >>> len(terms), sum(f * g for f, g in terms) == net.evaluate([X])[0, 0, 0]
    (4, True)
    """
    Xo = _obj(X)
    Q = [j for j in range(Xo.shape[0]) if j not in set(P)]
    grams = {"P": gram(Xo, P), "Q": gram(Xo, Q)}
    out = []
    for ch in chains:
        C, d_a = ch.length, ch.A0.shape[0]
        a = ch.A0 @ Xo[i]
        for beta in swap_tuples(C, "corrected"):
            blocks = swap_blocks(beta, C)
            b = len(beta)
            for cross in product(range(d_a), repeat=b):
                # cross[k] is the value of r_{beta_{k+1}+1}
                f, g = 1, 1
                for k, (lo, hi, side) in enumerate(blocks):
                    M = _eye(d_a)
                    for c in range(lo, hi):
                        A, B = ch.pairs[c]
                        M = M @ (A @ grams[side] @ B.T)
                    row = ch.B0[:, p] if k == b else _unit(d_a, cross[k])
                    col = a if k == 0 else _unit(d_a, cross[k - 1])
                    val = row @ M @ col
                    if side == "P":
                        f *= val
                    else:
                        g *= val
                out.append((f, g))
    return out


# ---------------------------------------------------------------------------
# Theorem 4 (A.3)


def thm4_coefficients(chains: Sequence[Chain], p: int, printed: bool = False) -> dict:
    """The coefficients T of l.443, keyed (alpha_{C+1}, (alpha_1..alpha_C), (beta_1..beta_C)).

    Corrected (l.437 read coordinate-wise): T = sum_h sum_r B^(0,h)_{r_1,p}
    A^(0,h)_{r_{C+1}, alpha_{C+1}} prod_c A^(c,h)_{r_c, alpha_c}
    B^(c,h)_{r_{c+1}, beta_c}. ``printed=True`` uses l.439/l.443 as printed:
    B^(c,h)_{r_c, beta_c} (r_{c+1} then only links A^(c+1)); the subscript
    alpha_{C(L)}+1 of A^(0,h) is read as alpha_{C(L)+1} in both.

    >>> one = _obj([[1]])
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
    Xo = _obj(X)
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
    Xo = _obj(X)
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
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=3)
    >>> X, ch = [[1, -1], [2, 1]], lemma1_chains(net)
    >>> thm4_grouped(ch, X, 0, 0) == chain_output(ch, X, 0, 0)   # holds at L = 1
    True
    """
    T = thm4_coefficients(chains, p)
    d_x = _obj(X).shape[1]
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
    Xo = _obj(X)
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
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=5, residual=True)
    >>> X = [[1, 2], [0, -1]]
    >>> (gram_form(net, gram(X)) @ _obj(X[1])).tolist() == net.evaluate([X])[0, 1].tolist()
    True
    """
    W = net.weights
    S = _obj(S)
    F = _eye(net.d_x)
    for layer in range(net.L):
        G = F @ S @ F.T
        new = np.zeros_like(F)
        for h in range(net.H):
            O = _obj(W["O"][layer, h]) @ _obj(W["V"][layer, h])
            K = _obj(W["K"][layer, h]).T @ _obj(W["Q"][layer, h])
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
    r_Q) of (nu, mu), |r_P| = 2E, |r_Q| = 2(k - E), a group is a bilinear
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
    of y_p is (x^(i)_a S_P^nu)(S_Q^mu) with |mu| <= k, so the separation
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

    Without skips F is homogeneous of degree k: the terms with |mu| = E pair
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


# ---------------------------------------------------------------------------
# Lemma 2, Theorems 5 and 6 (A.4)


def _layer_mats(net, layer, h):
    W = net.weights
    return (_obj(W["Q"][layer, h]), _obj(W["K"][layer, h]), _obj(W["V"][layer, h]),
            _obj(W["O"][layer, h]))


def lemma2_eq21(net, layer: int, G, i: int, p: int):
    """Right side of eq. (21) (l.496), summed literally over h, alpha_1..alpha_6 and j.

    ``G`` is d_x x N (column j = the layer's input g^j, as in the paper).

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 2, 2, seed=4)
    >>> G = [[1, 2], [-1, 3]]
    >>> lemma2_eq21(net, 0, G, 1, 0) == net.evaluate([np.array(G).T.tolist()])[0, 1, 0]
    True
    """
    G = _obj(G)
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
    G = _obj(G)
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

    Xo = _obj(X)
    total = Xo.copy()
    Y = Xo
    for layer in range(net.L):
        one = SelfAttentionNetwork(1, net.d_x, net.H, net.d_a, residual=False,
                                   weights={k: net.weights[k][[layer]] for k in "QKVO"})
        total = total + _obj(one.evaluate([Y.tolist()])[0])
        Y = _obj(net.sub_network(range(layer + 1)).evaluate([Xo.tolist()])[0])
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
    Xo = _obj(X)
    vals = [_obj(net.evaluate([(Xo * t).tolist()])[0]) for t in range(D + 1)]
    diff = sum(((-1) ** (D - t) * comb(D, t) * vals[t] for t in range(D + 1)),
               start=np.zeros_like(vals[0]))
    return _obj([[Fraction(v) / factorial(D) for v in row] for row in diff])


# ---------------------------------------------------------------------------
# B.2 (lower bounds): eq. (25)-(27), l.684, l.707-718


def hadamard_power_terms(V, lam: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Eq. (25)-(27): ((V V^T)^(Hadamard lam), sum_k multinomial(k) a^(k) b^(k)T, #terms).

    a^(k)_alpha = prod_r (v^(alpha)_r)^{k_r}, b^(k) the same (with the
    multinomial coefficient put on one side), k over the ((d, lam))
    compositions of lam into d parts.

    >>> lhs, rhs, n = hadamard_power_terms([[1, 2], [3, -1]], 2)
    >>> lhs.tolist() == rhs.tolist(), n
    (True, 3)
    """
    V = _obj(V)
    m, d = V.shape
    G = V @ V.T
    lhs = _obj([[G[a, b] ** lam for b in range(m)] for a in range(m)])
    rhs = np.zeros((m, m), dtype=object)
    ks = compositions(lam, d)
    for k in ks:
        vec = _obj([np.prod([V[a, r] ** k[r] for r in range(d)], dtype=object)
                    for a in range(m)])
        rhs = rhs + multinomial(k) * np.outer(vec, vec)
    return lhs, rhs, len(ks)


def multinomial_expansion_is_identity(d: int, lam: int) -> bool:
    """Eq. (26)-(27) as a polynomial identity in 2d symbols (sympy expansion).

    (sum_r v_r w_r)^lam - sum_{|k| = lam} multinomial(k) prod v_r^k_r prod w_r^k_r
    expands to 0.

    >>> multinomial_expansion_is_identity(2, 3)
    True
    """
    import sympy

    v = sympy.symbols(f"v1:{d + 1}")
    w = sympy.symbols(f"w1:{d + 1}")
    lhs = sum(a * b for a, b in zip(v, w, strict=True)) ** lam
    rhs = sum(multinomial(k) * sympy.Mul(*[v[r] ** k[r] * w[r] ** k[r] for r in range(d)])
              for k in compositions(lam, d))
    return sympy.expand(lhs - rhs) == 0


def omega_power_squares(q: Sequence[int], k: Sequence[int], omega: Fraction) -> tuple:
    """Both sides of l.711-712, squared, at Omega: (prod_r v_r^{2 k_r}, s^{-lam} Omega^{2 <q, k>}).

    v_r = Omega^{q_r} / sqrt(s), s = sum_r Omega^{2 q_r} (l.707), lam = sum k.
    Both sides of l.711-712 are positive for Omega > 0, so equal squares mean
    equal sides. Also returns sum_r v_r^2 (= 1: the rows are l2-normalized).

    >>> omega_power_squares((2, 0), (1, 1), Fraction(3))
    (Fraction(81, 6724), Fraction(81, 6724), Fraction(1, 1))
    """
    omega = Fraction(omega)
    s = sum(omega ** (2 * qr) for qr in q)
    v2 = [omega ** (2 * qr) / s for qr in q]
    lhs = Fraction(1)
    for vr2, kr in zip(v2, k, strict=True):
        lhs *= vr2 ** kr
    rhs = s ** (-sum(k)) * omega ** (2 * sum(a * b for a, b in zip(q, k, strict=True)))
    return lhs, rhs, sum(v2)


def omega_det_and_leibniz(d: int, lam: int) -> tuple:
    """l.716-718: det A(Omega) and sum_sigma sgn(sigma) Omega^{sum_q <q, sigma(q)>}, as fmpz_poly.

    A_{alpha, k} = Omega^{<q^alpha, k>}, rows and columns indexed by the
    ((d, lam)) compositions of lam into d parts.

    >>> det, leib = omega_det_and_leibniz(2, 2)
    >>> det == leib, det.degree()
    (True, 10)
    """
    import flint

    qs = compositions(lam, d)
    n = len(qs)
    x = flint.fmpz_poly([0, 1])
    expo = [[sum(a * b for a, b in zip(q, k, strict=True)) for k in qs] for q in qs]
    # det independently of the Leibniz sum: Bareiss elimination over Z[Omega]
    M = [[x ** e for e in row] for row in expo]
    sign, prev = 1, flint.fmpz_poly(1)
    M = [row[:] for row in M]
    for col in range(n):
        piv = next((r for r in range(col, n) if M[r][col] != 0), None)
        if piv is None:
            det = flint.fmpz_poly(0)
            break
        if piv != col:
            M[col], M[piv] = M[piv], M[col]
            sign = -sign
        for r in range(col + 1, n):
            for c2 in range(col + 1, n):
                num = M[r][c2] * M[col][col] - M[r][col] * M[col][c2]
                M[r][c2] = num // prev
            M[r][col] = flint.fmpz_poly(0)
        prev = M[col][col]
    else:
        det = sign * M[n - 1][n - 1]
    leib = flint.fmpz_poly(0)
    for perm in permutations(range(n)):
        inv = sum(1 for a in range(n) for b in range(a + 1, n) if perm[a] > perm[b])
        leib += (-1) ** inv * x ** sum(expo[a][perm[a]] for a in range(n))
    return det, leib
