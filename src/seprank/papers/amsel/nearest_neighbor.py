"""Nearest neighbour on the sphere and attention heads: exact rational points, hardmax, softmax.

Rational points of the unit sphere come from inverse stereographic projection,
``t in Q^{d-1} -> (2t, |t|^2 - 1) / (|t|^2 + 1)``, so every inner product and
distance below is an exact :class:`fractions.Fraction`. Softmax weights are
enclosed with :mod:`mpmath`'s interval arithmetic (``mpmath.iv``), so the
error bounds they give are rigorous enclosures, not float estimates.

Source: amsel_benefits_of_rank_talk.txt, the nearest-neighbour target and its full-rank
head (l.491-515, the softmax line l.500-505) and the two-layer rank-1 vote
(l.781-831). Why: the talk's upper bounds are statements about these heads on these
inputs; the checks A-nn and A-vote evaluate them exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mpmath import iv

__all__ = [
    "rational_sphere_point",
    "random_rational_sphere_point",
    "dot",
    "sq_dist",
    "nearest_indices",
    "hardmax",
    "hardmax_head",
    "softmax_error_interval",
    "rank1_hardmax_vote",
]

Vec = list[Fraction]


def rational_sphere_point(t: list[Fraction]) -> Vec:
    """Inverse stereographic projection of ``t`` (length d-1) onto S^{d-1}.

    Examples
    --------
    >>> rational_sphere_point([Fraction(1, 2)])   # the 3-4-5 point (4/5, -3/5)
    [Fraction(4, 5), Fraction(-3, 5)]
    """
    n2 = sum(x * x for x in t)
    den = n2 + 1
    return [2 * x / den for x in t] + [(n2 - 1) / den]


def random_rational_sphere_point(rng: random.Random, d: int, bound: int = 20) -> Vec:
    """A rational point of S^{d-1} from a random ``t`` with entries n/m, ``|n|, m <= bound``.

    Examples
    --------
    >>> p = random_rational_sphere_point(random.Random(0), 3)
    >>> len(p), sum(x * x for x in p)
    (3, Fraction(1, 1))
    """
    t = [Fraction(rng.randint(-bound, bound), rng.randint(1, bound)) for _ in range(d - 1)]
    return rational_sphere_point(t)


def dot(a: Vec, b: Vec) -> Fraction:
    """Exact inner product of two vectors.

    Examples
    --------
    >>> dot([1, 2], [3, 4])
    Fraction(11, 1)
    """
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))


def sq_dist(a: Vec, b: Vec) -> Fraction:
    """Exact squared Euclidean distance between two vectors.

    Examples
    --------
    >>> sq_dist([0, 0], [3, 4])
    Fraction(25, 1)
    """
    return sum(((x - y) ** 2 for x, y in zip(a, b, strict=True)), Fraction(0))


def nearest_indices(xs: list[Vec], y: Vec) -> list[int]:
    """All indices i minimizing ||x_i - y|| (exact).

    Examples
    --------
    >>> nearest_indices([[0, 0], [2, 0], [0, 2]], [1, 0])   # squared distances 1, 1, 5
    [0, 1]
    """
    ds = [sq_dist(x, y) for x in xs]
    m = min(ds)
    return [i for i, v in enumerate(ds) if v == m]


def hardmax(scores: list[Fraction]) -> list[Fraction]:
    """Uniform weights on the maximizers of ``scores`` (one-hot when the max is unique).

    Examples
    --------
    >>> hardmax([1, 3, 3])
    [Fraction(0, 1), Fraction(1, 2), Fraction(1, 2)]
    """
    m = max(scores)
    idx = [i for i, v in enumerate(scores) if v == m]
    return [Fraction(1, len(idx)) if i in idx else Fraction(0) for i in range(len(scores))]


def hardmax_head(xs: list[Vec], y: Vec, M: list[list[Fraction]], W: list[list[Fraction]]
                 ) -> Vec:
    """``W X hm(X^T M y)`` with the x_i as the columns of X (exact).

    Examples
    --------
    >>> I = [[1, 0], [0, 1]]
    >>> hardmax_head(I, [1, 0], I, I)   # picks the first column, e_1
    [Fraction(1, 1), Fraction(0, 1)]
    """
    d = len(y)
    My = [sum((M[i][j] * y[j] for j in range(d)), Fraction(0)) for i in range(d)]
    w = hardmax([dot(x, My) for x in xs])
    Xw = [sum((w[i] * xs[i][k] for i in range(len(xs))), Fraction(0)) for k in range(d)]
    return [sum((W[k][j] * Xw[j] for j in range(d)), Fraction(0)) for k in range(d)]


def softmax_error_interval(xs: list[Vec], y: Vec, scale, target: int):
    """Interval enclosure of ``|| X sm(scale X^T y) - x_target ||_2`` (mpmath.iv).

    Scores are shifted by the target's score before exponentiation, so the target's
    weight is 1 / (1 + sum_j exp(scale (s_j - s_target))); the difference is summed as
    ``sum_{j != target} w_j (x_j - x_target)`` with exact rational differences.

    Examples
    --------
    >>> I = [[1, 0], [0, 1]]
    >>> err = softmax_error_interval(I, [1, 0], 0, 0)   # equal weights: |(1/2, 1/2) - e_1|
    >>> 0.5 in err**2
    True
    >>> softmax_error_interval(I, [1, 0], 50, 0) < 1e-20   # about sqrt(2) e^-50
    True
    """
    s = [dot(x, y) for x in xs]
    st = s[target]
    sc = iv.mpf(scale)
    e = [iv.exp(sc * (iv.mpf(v.numerator) / v.denominator - iv.mpf(st.numerator)
                      / st.denominator)) for v in s]
    total = sum(e[1:], e[0])
    w = [v / total for v in e]
    d = len(y)
    sq = iv.mpf(0)
    for k in range(d):
        # out - x_target = sum_{j != target} w_j (x_j - x_target): no cancellation
        comp = iv.mpf(0)
        for i in range(len(xs)):
            if i != target:
                diff = xs[i][k] - xs[target][k]
                comp += w[i] * iv.mpf(diff.numerator) / diff.denominator
        sq += comp**2
    return iv.sqrt(sq)


def rank1_hardmax_vote(x1: list[float], x2: list[float], y: list[float], q: list[float]
                       ) -> int:
    """Which target (+1 for x1, -1 for x2) the rank-1 head hm(X^T q q^T y) picks.

    Examples
    --------
    >>> rank1_hardmax_vote([1, 0], [0, 1], [1, 0], [1, 0])
    1
    >>> rank1_hardmax_vote([1, 0], [0, 1], [-1, 0], [1, 0])   # q^T y < 0 flips the choice
    -1
    """
    qy = sum(a * b for a, b in zip(q, y, strict=True))
    s1 = sum(a * b for a, b in zip(x1, q, strict=True)) * qy
    s2 = sum(a * b for a, b in zip(x2, q, strict=True)) * qy
    return 1 if s1 >= s2 else -1
