"""Theorem 3 of levine2020 (A.2, l.380-423): the displays of its upper-bound proof.

Source: ``levine2020_depth_to_width_self_attention.txt``, A.2 (l.390-422). Why: one
side of each display per function, so that the checks
(``proofs/levine2020/levine_proof_displays.py``, ``thm3_displays``) can compare
both sides exactly and name the display that fails.

The P/Q split of every M-unit (l.393), the sum over side sequences (l.398-399),
the sum over swap indices beta with the printed (l.403, eq. (17) l.409) or the
corrected index ranges (:func:`swap_tuples`, :func:`thm3_swap_sum`), and the
separated terms of eq. (17) (:func:`thm3_separated_terms`). Conventions:
:mod:`seprank.papers.levine2020.chains`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np

from seprank.combinatorics import multiset
from seprank.errors import ParameterError
from seprank.papers.levine2020.chains import (
    Chain,
    gram,
    obj_array,
    object_eye,
    side_sequence_value,
)

__all__ = [
    "thm3_sequence_sum",
    "swap_tuples",
    "swap_tuple_count",
    "swap_blocks",
    "thm3_swap_sum",
    "thm3_separated_terms",
]


def thm3_sequence_sum(chains: Sequence[Chain], X, i: int, p: int, P: Sequence[int]):
    """Right side of l.398-399: the sum over h, r and side sequences (P_1..P_C) in {P, Q}^C.

    Each M-unit is split as sum_{j in P} + sum_{j in Q} (l.393); expanding the
    product gives one term per sequence.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.papers.levine2020.chains import chain_output, gram, lemma1_chains
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=3)
    >>> X = [[1, -1], [2, 1]]
    >>> thm3_sequence_sum(lemma1_chains(net), X, 0, 0, [0]) == chain_output(
    ...     lemma1_chains(net), X, 0, 0)
    True
    """
    Xo = obj_array(X)
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
    >>> from seprank.papers.levine2020.chains import chain_output, gram, lemma1_chains
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=3, nonzero=True)
    >>> X, ch = [[1, -1], [2, 1]], lemma1_chains(net)
    >>> y = chain_output(ch, X, 0, 0)
    >>> thm3_swap_sum(ch, X, 0, 0, [0], "corrected") == y
    True
    >>> thm3_swap_sum(ch, X, 0, 0, [0], "l403") == y
    False
    """
    Xo = obj_array(X)
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
    >>> from seprank.papers.levine2020.chains import chain_output, gram, lemma1_chains
    >>> net = SelfAttentionNetwork.random(1, 2, 2, seed=3)
    >>> X = [[1, -1], [2, 1]]
    >>> terms = thm3_separated_terms(lemma1_chains(net), X, 0, 0, [0])
    >>> len(terms), sum(f * g for f, g in terms) == net.evaluate([X])[0, 0, 0]
    (4, True)
    """
    Xo = obj_array(X)
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
                    M = object_eye(d_a)
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
