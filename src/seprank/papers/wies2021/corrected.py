"""wies2021's Theorem 1 (and Theorems 3-4) against the corrected bounds, exactly.

The corrected bounds are generic (:mod:`seprank.network_theory.corrected_bounds`: behind an
embedding of rank s = r + r_e, sep <= C(C(L) + D_t, D_t) with t = min(s, d_x), D_t =
t(t+1)/2; the one-hot family reaches log_3 sep > D_s (L - floor(s/2) - s)); this module
holds wies2021's side, for the check ``W-Thm1-corrected``:

* eq. (9)/(11) (A.2 l.381, A.3 l.455) against both: its rate 2s + 2 per layer against D_s
  (:func:`eq9_rate_gap_twice`), and the depth from which the family's proven bound exceeds
  it (:func:`eq9_refuted_from`);
* the vocabulary's own bottleneck: with V tokens the J-side moments lie in an affine space
  of dimension at most min(V - 1, D_r) + r r_e (:func:`vocabulary_moment_dimension`);
* the low-rank bottleneck of sec. 4.2.1: the depth from which a full-rank network's proven
  lower bound exceeds a rank-r network's upper bound (:func:`bottleneck_depth`);
* the figure's printed curve (:func:`eq9_log3`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from seprank.network_theory.corrected_bounds import (
    embedded_upper,
    family_log3_lower,
    moment_entries,
)
from seprank.papers.wies2021.bounds import thm3_bound
from seprank.scalars.enclosures import int_at_least, log3

__all__ = ["eq9_rate_gap_twice", "eq9_refuted_from", "eq9_log3",
           "vocabulary_moment_dimension", "bottleneck_depth"]


def eq9_rate_gap_twice(s: int) -> int:
    """2 (D_s - (2s + 2)) = (s - 4)(s + 1): D_s against eq. (9)'s rate 2s + 2 (in log_3 per layer).

    eq. (9) = ((s, 3^L)) ((4, 3^L)) (3^L + 1)^s grows like 3^{L (s - 1 + 3 + s)}.

    Examples
    --------
    >>> [eq9_rate_gap_twice(s) for s in (1, 4, 5, 8)]
    [-6, 0, 6, 36]
    """
    s = int_at_least("s", s, 1)
    return 2 * moment_entries(s) - 2 * (2 * s + 2)


def eq9_refuted_from(s: int, L_max: int = 10_000) -> int | None:
    """The least L with 3^{D_s (L - floor(s/2) - s)} > eq. (9) at r = s, r_e = 0 (exactly);
    None for s <= 4 (the rates do not allow it) or past L_max.

    Past it the family's proven bound stays above eq. (9): from L to L + 1 eq. (9) grows by
    a factor <= 3^(2s+2) (((s, 3t))/((s, t)) = prod_{i<s} (3t + i)/(t + i) <= 3^(s-1),
    ((4, 3t))/((4, t)) <= 3^3, ((3t + 1)/(t + 1))^s <= 3^s, t = 3^L) and the family's bound
    by 3^(D_s) >= 3^(2s+5) for s >= 5.

    Examples
    --------
    >>> eq9_refuted_from(4) is None, eq9_refuted_from(5), eq9_refuted_from(8)
    (True, 34, 24)
    """
    s = int_at_least("s", s, 1)
    if eq9_rate_gap_twice(s) <= 0:
        return None
    for L in range(1, L_max + 1):
        if 3 ** family_log3_lower(s, L) > thm3_bound(L, s, 0):
            return L
    return None


def eq9_log3(L: int, d: int) -> float:
    """log_3 of eq. (9) at r = d, r_e = 0 as a float (the figure's printed curve).

    Examples
    --------
    >>> round(eq9_log3(1, 1), 4)          # log_3 80
    3.9887
    """
    return float(log3(thm3_bound(L, d, 0)).mid())


def vocabulary_moment_dimension(M_V, P=None) -> int:
    """Dimension of the affine span of the J-side moments sum_{j in J} y^{0,j} y^{0,j}^T.

    ``M_V``: d_x x V vocabulary matrix; ``P``: d_x x N positional matrix (None: no
    positional embedding). Without positions the J-side moment is sum_v n_v m_v m_v^T with
    the token counts n (sum n_v = |J|), so its affine span is spanned by the differences
    m_v m_v^T - m_1 m_1^T: dimension <= min(V - 1, D_r). With positions, the J-side moment
    of position j with token v is (m_v + p_j)(m_v + p_j)^T: the span of these over all v, j
    (differences to one of them), computed exactly here.

    Examples
    --------
    >>> vocabulary_moment_dimension([[1, 0, 1], [0, 1, 1]])   # V = 3 tokens, r = 2: V - 1
    2
    >>> vocabulary_moment_dimension([[1, 2, 3, 4, 5]])        # r = 1: D_1 = 1 < V - 1
    1
    """
    from seprank.linalg import rank

    M = np.asarray(M_V, dtype=object)
    d, V = M.shape
    cols = [M[:, v] for v in range(V)]
    if P is not None:
        Pm = np.asarray(P, dtype=object)
        cols = [M[:, v] + Pm[:, j] for v in range(V) for j in range(Pm.shape[1])]
    vecs = []
    for col in cols:
        outer = np.outer(col, col)
        vecs.append([outer[a, b] for a in range(d) for b in range(a, d)])
    diffs = [[x - y for x, y in zip(v, vecs[0], strict=True)] for v in vecs[1:]]
    if not diffs or not any(any(row) for row in diffs):
        return 0
    return rank([[Fraction(x) for x in row] for row in diffs], "exact").value


def bottleneck_depth(r: int, d_x: int, L_max: int = 10_000) -> int | None:
    """The least L at which the full-rank family (r = d_x = H, log_3 sep > D_{d_x} (L -
    floor(d_x/2) - d_x)) exceeds every rank-r network's bound C(C + D_r, D_r) (r_e = 0), exactly.

    From there on a rank-r network cannot express the full-rank network's function (sec.
    4.2.1), for almost every weight of the latter. None when r >= d_x.

    Examples
    --------
    >>> bottleneck_depth(1, 2), bottleneck_depth(4, 8), bottleneck_depth(8, 8) is None
    (5, 16, True)
    """
    r = int_at_least("r", r, 1)
    d_x = int_at_least("d_x", d_x, 1)
    if r >= d_x:
        return None
    for L in range(1, L_max + 1):
        if 3 ** family_log3_lower(d_x, L) > embedded_upper(L, r, d_x):
            return L
    return None
