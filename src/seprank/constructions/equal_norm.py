"""Constructive witness for wies2021 Lemma 8: equal-norm natural rows, full-rank Hadamard power.

Statement (wies2021_vocabulary_bottleneck.txt, B.3 l.704-732, Lemma 8, eq. (23)):
for all d, lambda there is a matrix A with n = ((d, lambda)) rows and d columns,
natural-number entries and one common row norm c in N, such that the Hadamard
power (A A^T)^(odot lambda) has rank n.

The paper's proof (l.724-730) is not constructive: it perturbs the real
matrix of levine2020 B.2 into a nearby row-normalized rational one and clears
denominators. Here we build one explicitly and certify it.

Why it is enough to look at monomials (wies2021 eqs. (24)-(26)): with
M[alpha, k] = prod_r A[alpha, r]^{k_r} for the compositions k of lambda into d
parts and Delta = diag(multinomial(k)), the multinomial theorem gives

    (A A^T)^(odot lambda) = M Delta M^T,

and Delta is positive definite, so over Q the Hadamard power has rank n iff the
n x n matrix M is invertible, i.e. iff no nonzero homogeneous form of degree
lambda vanishes on all rows of A. Points on a sphere ``|x|^2 = c`` are no obstacle:
a homogeneous form vanishing on a whole sphere vanishes everywhere.

Construction (``method="sphere"``, the default for d >= 3 and the first try
for d = 2): go through the norms c = 1, 2, 3, ... (only the perfect squares
when ``square_norm=True``, so that the l2 norm sqrt(c) itself is a natural
number, the literal reading of "rows norm c in N"). For each, list up to
4n + 100 lattice points x with ``|x|^2 = c`` and all coordinates >= 1 (>= 0 with
``positive=False``): all of them, shuffled by a generator seeded by (seed, c),
when a depth-first search can list them quickly, else independent random
descents (:func:`sample_points_of_norm`). When there are at least n, keep
a point when its monomial row increases the rank mod a fixed prime (one row
reduction of the candidates' monomial matrix, python-flint ``nmod_mat.rref``);
stop at n points, else try the next norm. Full rank mod p implies full rank
over Q, and the caller re-certifies the final matrix with :func:`seprank.rank`
(certify=True).

For d = 2 the lattice points of one circle are few, so when the sphere search
would exceed its budget ``method="gaussian"`` is used: c = 5^m with m even and
m >= lambda + 1; the points are (Re z, Im z) for z = (2+i)^j (2-i)^(m-j) rotated
by a unit into the open first quadrant (j != m/2), i.e. m pairwise
non-proportional positive points, whose monomial matrix is a scaled
Vandermonde matrix, hence invertible.

n = 1 (d = 1 or lambda = 0) needs no special case: the search returns the
first point of the smallest admissible norm.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import flint
import numpy as np

from seprank.combinatorics import check_d_lam, compositions, multinomial, multiset
from seprank.errors import ParameterError

__all__ = [
    "EqualNormWitness",
    "SELECTION_PRIME",
    "points_of_norm",
    "sample_points_of_norm",
    "monomial_matrix",
    "monomial_matrix_mod_p",
    "gram_hadamard_power",
    "equal_norm_witness",
    "check_witness_shape",
]

#: the prime used to select points (rank mod p); 2^31 - 1 keeps products in int64
SELECTION_PRIME = 2_147_483_647


@dataclass
class EqualNormWitness:
    """A matrix A (n x d, natural entries, equal squared row norms c) and its provenance.

    The object of wies2021_vocabulary_bottleneck.txt B.3, Lemma 8 (l.704-732, eq. (23)).

    Examples
    --------
    >>> w = EqualNormWitness(d=2, lam=1, n=2, A=[[3, 4], [4, 3]], c=25, method="sphere",
    ...                      seed=0, positive=True, square_norm=True)
    >>> w.norm   # sqrt(25)
    5
    """

    d: int
    lam: int
    n: int
    A: list[list[int]]
    c: int
    method: str
    seed: int
    positive: bool
    square_norm: bool
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def norm(self) -> int | None:
        """The l2 row norm sqrt(c) when c is a perfect square, else None."""
        r = math.isqrt(self.c)
        return r if r * r == self.c else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "d": self.d,
            "lam": self.lam,
            "n": self.n,
            "c": self.c,
            "l2_norm": self.norm,
            "method": self.method,
            "seed": self.seed,
            "positive": self.positive,
            "square_norm": self.square_norm,
            "max_entry": max((max(r) for r in self.A), default=0),
            "A": self.A if self.n * self.d <= 400 else f"<{self.n} x {self.d} matrix>",
            **self.details,
        }


class _WorkLimit(Exception):
    pass


def points_of_norm(c: int, d: int, *, positive: bool = True, work_limit: int | None = None
                   ) -> tuple[list[tuple[int, ...]], int]:
    """All integer points x in Z^d with ``|x|^2 = c``, each coordinate >= 1 (>= 0 if not positive).

    Depth-first search over the coordinates; the last coordinate is solved for
    exactly (``math.isqrt``). Returns ``(points, work)`` with ``work`` the number
    of search nodes visited; raises ``ParameterError`` past ``work_limit`` nodes.

    Examples
    --------
    >>> points_of_norm(25, 2)[0]   # 3^2 + 4^2 = 25
    [(3, 4), (4, 3)]
    >>> points_of_norm(25, 2, positive=False)[0]
    [(0, 5), (3, 4), (4, 3), (5, 0)]
    """
    if c < 0 or d < 1:
        raise ParameterError("need c >= 0 and d >= 1")
    lo = 1 if positive else 0
    out: list[tuple[int, ...]] = []
    prefix: list[int] = []
    work = 0

    def rec(dims: int, budget: int) -> None:
        nonlocal work
        work += 1
        if work_limit is not None and work > work_limit:
            raise _WorkLimit
        if dims == 1:
            y = math.isqrt(budget)
            if y * y == budget and y >= lo:
                out.append((*prefix, y))
            return
        min_rest = (dims - 1) * lo * lo
        x = lo
        while x * x + min_rest <= budget:
            prefix.append(x)
            rec(dims - 1, budget - x * x)
            prefix.pop()
            x += 1

    try:
        rec(d, c)
    except _WorkLimit:
        raise ParameterError(f"lattice-point search for |x|^2 = {c} in dimension {d} "
                             f"exceeded {work_limit} steps") from None
    return out, work


def sample_points_of_norm(c: int, d: int, *, rng: random.Random, count: int, attempts: int,
                          positive: bool = True) -> list[tuple[int, ...]]:
    """Up to ``count`` distinct points with ``|x|^2 = c``, by independent random descents.

    Each attempt picks every coordinate but the last uniformly among the values
    that still leave room for the remaining ones, then accepts when the rest is
    a perfect square (>= the lower bound), and finally permutes the coordinates
    at random (the late coordinates of a descent are squeezed towards the lower
    bound; without the shuffle they are equal in almost every sample, and the
    points then lie on the hyperplane x_{d-1} = x_d). Not uniform on the
    sphere, but every attempt is independent, unlike a truncated depth-first
    search whose points all share their leading coordinates.

    Examples
    --------
    >>> sorted(sample_points_of_norm(25, 2, rng=random.Random(0), count=2, attempts=100))
    [(3, 4), (4, 3)]
    """
    lo = 1 if positive else 0
    found: dict[tuple[int, ...], None] = {}
    for _ in range(attempts):
        budget = c
        x = []
        ok = True
        for dims in range(d, 1, -1):
            min_rest = (dims - 1) * lo * lo
            if budget < min_rest + lo * lo:
                ok = False
                break
            top = math.isqrt(budget - min_rest)
            v = rng.randint(lo, top)
            x.append(v)
            budget -= v * v
        if not ok:
            continue
        y = math.isqrt(budget)
        if y * y == budget and y >= lo:
            x.append(y)
            rng.shuffle(x)  # the sphere is symmetric; undo the bias of the fill order
            found[tuple(x)] = None
            if len(found) >= count:
                break
    return list(found)


def monomial_matrix(points: list[tuple[int, ...]], lam: int) -> list[list[int]]:
    """M[i][k] = prod_r points[i][r]^{k_r} over the compositions k of lam (exact).

    Examples
    --------
    >>> monomial_matrix([(1, 2), (3, 4)], 2)   # columns x^2, x y, y^2
    [[1, 2, 4], [9, 12, 16]]
    """
    if not points:
        return []
    d = len(points[0])
    K = compositions(lam, d)
    return [[math.prod(x**e for x, e in zip(p, k, strict=True)) for k in K] for p in points]


def monomial_matrix_mod_p(points: list[tuple[int, ...]], lam: int, p: int) -> np.ndarray:
    """The monomial matrix mod p (p < 2^31), vectorized over points, as int64.

    Examples
    --------
    >>> monomial_matrix_mod_p([(1, 2), (3, 4)], 2, 5).tolist()   # the matrix above mod 5
    [[1, 2, 4], [4, 2, 1]]
    """
    if p >= 2**31:
        raise ParameterError("monomial_matrix_mod_p needs p < 2^31")
    X = np.array(points, dtype=np.int64) % p
    m, d = X.shape
    powers = [np.ones_like(X)]
    for _ in range(lam):
        powers.append((powers[-1] * X) % p)
    K = compositions(lam, d)
    out = np.empty((m, len(K)), dtype=np.int64)
    for col, k in enumerate(K):
        v = np.ones(m, dtype=np.int64)
        for r, e in enumerate(k):
            if e:
                v = (v * powers[e][:, r]) % p
        out[:, col] = v
    return out


def _independent_rows_mod_p(M: np.ndarray, p: int) -> list[int]:
    """Indices of a greedy maximal set of rows of M independent mod p (first ones kept)."""
    if M.shape[0] == 0:
        return []
    T = flint.nmod_mat(M.T.tolist(), p)
    R, rank = T.rref()
    pivots = []
    for i in range(rank):
        for j in range(R.ncols()):
            if int(R[i, j]) != 0:
                pivots.append(j)
                break
    return pivots


def gram_hadamard_power(A: list[list[int]], lam: int) -> list[list[int]]:
    """(A A^T)^(odot lambda), exactly, as Python integers (nested lists).

    A wrapper of :func:`seprank.constructions.gram_hadamard.gram_hadamard`
    (``domain="ZZ"``).

    Examples
    --------
    >>> gram_hadamard_power([[1, 2], [3, 4]], 2)   # A A^T = [[5, 11], [11, 25]], squared
    [[25, 121], [121, 625]]
    """
    from seprank.constructions.gram_hadamard import gram_hadamard

    return gram_hadamard(A, lam, domain="ZZ").tolist()


def _is_square(c: int) -> bool:
    r = math.isqrt(c)
    return r * r == c


def _gaussian_points(lam: int) -> tuple[int, list[tuple[int, int]], int]:
    """(c, points, m): m even >= lam + 1, c = 5^m, m positive points on x^2 + y^2 = c."""
    m = lam + 1 if (lam + 1) % 2 == 0 else lam + 2
    pts = []
    for j in range(m + 1):
        if 2 * j == m:
            continue  # (2+i)^j (2-i)^j = 5^j lies on an axis
        re, im = 1, 0
        for _ in range(j):  # multiply by 2 + i
            re, im = 2 * re - im, re + 2 * im
        for _ in range(m - j):  # multiply by 2 - i
            re, im = 2 * re + im, -re + 2 * im
        for _ in range(4):  # rotate by i into the open first quadrant
            if re > 0 and im > 0:
                break
            re, im = -im, re
        pts.append((re, im))
    return 5**m, pts, m


def equal_norm_witness(d: int, lam: int, *, seed: int = 0, positive: bool = True,
                       square_norm: bool = True, method: str = "auto",
                       max_work: int = 2_000_000) -> EqualNormWitness:
    """Build A (n x d, entries >= 1 or >= 0, equal ``|row|^2 = c``) with full-rank Hadamard power.

    A constructive witness of wies2021_vocabulary_bottleneck.txt B.3, Lemma 8 (l.704-732, eq. (23)).

    See the module docstring for the construction. ``method``: "auto", "sphere"
    or "gaussian" (d = 2 only). The returned rows are certified full rank mod
    ``SELECTION_PRIME`` (recorded in ``details``); callers certify over Q with
    :func:`seprank.rank`.

    Examples
    --------
    >>> w = equal_norm_witness(2, 1)   # 25: first square = sum of two positive squares
    >>> w.A, w.c
    ([[3, 4], [4, 3]], 25)
    >>> w = equal_norm_witness(3, 2)
    >>> w.n, flint.fmpz_mat(gram_hadamard_power(w.A, 2)).rank()   # ((3, 2)) = 6, full rank
    (6, 6)
    """
    check_d_lam(d, lam)
    if method not in ("auto", "sphere", "gaussian"):
        raise ParameterError(f"unknown method {method!r}")
    if method == "gaussian" and d != 2:
        raise ParameterError("method='gaussian' is for d = 2")
    n = multiset(d, lam)
    p = SELECTION_PRIME
    common = dict(d=d, lam=lam, n=n, seed=seed, positive=positive, square_norm=square_norm)
    if method in ("auto", "sphere"):
        try:
            return _sphere_search(d, lam, n, p, seed, positive, square_norm, max_work,
                                  common)
        except ParameterError:
            if method == "sphere" or d != 2:
                raise
    c, pts, m = _gaussian_points(lam)
    rng = random.Random(seed)
    rng.shuffle(pts)
    M = monomial_matrix_mod_p(pts, lam, p)
    keep = _independent_rows_mod_p(M, p)
    if len(keep) < n:  # cannot happen (Vandermonde); kept as a guard
        raise ParameterError("gaussian construction did not reach full rank mod p")
    A = [list(pts[i]) for i in sorted(keep[:n])]
    return EqualNormWitness(A=A, c=c, method="gaussian",
                            details={"m": m, "candidates": len(pts), "prime": p,
                                     "rank_mod_p": len(keep)},
                            **common)


def _sphere_search(d, lam, n, p, seed, positive, square_norm, max_work, common):
    """Try the admissible norms c in increasing order (module docstring)."""
    lo = 1 if positive else 0
    cap = 4 * n + 100
    work_total = 0
    tried = []

    def norms():
        if square_norm:
            r = max(1, math.isqrt(d * lo * lo))
            while True:
                yield r * r
                r += 1
        else:
            c = max(1, d * lo * lo)
            while True:
                yield c
                c += 1

    for c in norms():
        rng = random.Random(f"{seed}:{c}")
        left = max_work - work_total
        if left <= 0:
            raise ParameterError(f"sphere search exceeded {max_work} steps (d={d}, lam={lam})")
        try:
            pts, work = points_of_norm(c, d, positive=positive,
                                       work_limit=min(left, 20_000 + 200 * n))
            work_total += work
            rng.shuffle(pts)
            pts = pts[:cap]
            how = "all points of this norm, shuffled"
        except ParameterError:
            attempts = min(left, 60 * cap)
            pts = sample_points_of_norm(c, d, rng=rng, count=cap, attempts=attempts,
                                        positive=positive)
            work_total += 20_000 + 200 * n + attempts
            how = "random descents"
        if len(pts) < n:
            continue
        tried.append(c)
        M = monomial_matrix_mod_p(pts, lam, p)
        keep = _independent_rows_mod_p(M, p)
        if len(keep) >= n:
            A = [list(pts[i]) for i in sorted(keep[:n])]
            return EqualNormWitness(
                A=A, c=c, method="sphere",
                details={"candidates": len(pts), "candidate_source": how,
                         "norms_with_enough_points_tried": tried,
                         "search_steps": work_total, "prime": p, "rank_mod_p": len(keep),
                         "lowest_entry_allowed": lo},
                **common)


def check_witness_shape(w: EqualNormWitness) -> dict[str, Any]:
    """Exact checks of everything but the rank: shape, entries in N, equal norms.

    The hypotheses of wies2021_vocabulary_bottleneck.txt B.3, Lemma 8 (l.704-732).

    Also checks identity (AA^T)^(odot lam) = M Delta M^T (wies2021 eqs. (25)-(26))
    when n <= 60 (it multiplies n x n integer matrices).

    Examples
    --------
    >>> info = check_witness_shape(equal_norm_witness(3, 2))
    >>> info["shape_ok"], info["equal_norms"], info["multinomial_factorization_ok"]
    (True, True, True)
    """
    A = w.A
    norms = {sum(x * x for x in row) for row in A}
    out = {
        "shape_ok": len(A) == w.n == multiset(w.d, w.lam) and all(len(r) == w.d for r in A),
        "entries_natural": all(isinstance(x, int) and x >= (1 if w.positive else 0)
                               for r in A for x in r),
        "min_entry": min(min(r) for r in A),
        "equal_norms": norms == {w.c},
        "c": w.c,
        "c_is_square": _is_square(w.c),
        "rows_distinct": len({tuple(r) for r in A}) == len(A),
    }
    if w.n <= 60:
        M = flint.fmpz_mat(monomial_matrix([tuple(r) for r in A], w.lam))
        K = compositions(w.lam, w.d)
        Delta = flint.fmpz_mat(len(K), len(K))
        for i, k in enumerate(K):
            Delta[i, i] = multinomial(k)
        G = flint.fmpz_mat(gram_hadamard_power(A, w.lam))
        out["multinomial_factorization_ok"] = M * Delta * M.transpose() == G
    return out
