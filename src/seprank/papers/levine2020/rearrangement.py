"""The vector rearrangement inequality (levine2020 Lemma 8) and exact tools to test it.

Statement checked (levine2020_depth_to_width_self_attention.txt, B.3 l.825-852,
Lemma 8): for N pairwise different vectors v^(1), ..., v^(N) with non-negative
entries and every permutation sigma other than the identity,

    e(sigma) := sum_i <v^(i), v^(sigma(i))>  <  e(id) = sum_i |v^(i)|^2.

In B.2 (l.714-718) this is applied to the compositions q of lambda into d parts:
the determinant of A(Omega) = [Omega^<q_alpha, q_beta>] is a signed sum of the
monomials Omega^{e(sigma)}, so the identity being the unique maximizer of e
makes det A(Omega) a nonzero polynomial (Lemma 7).

Why it holds (our own argument, used by every exact check below): expanding
the squares gives, for every permutation sigma of any real vectors,

    2 (e(id) - e(sigma)) = sum_i |v^(i) - v^(sigma(i))|^2.          (*)

Each moved index i (sigma(i) != i) contributes |v^(i) - v^(sigma(i))|^2, which
is > 0 when the vectors are pairwise different. So the inequality is strict for
every sigma != id, *with or without* non-negative entries; distinctness is the
only hypothesis that matters (two equal vectors can be swapped at no cost).

Second-best exponent (exact, closed form). Read as an assignment problem with
weights w_ij = <v_i, v_j>, the potentials u_i = |v_i|^2 / 2 are a feasible dual
solution (u_i + u_j - w_ij = |v_i - v_j|^2 / 2 >= 0) that is tight exactly on
the diagonal, which is the LP-duality certificate that the identity is the
unique optimum. The smallest positive gap is attained by a transposition of a
closest pair: a permutation moving k >= 2 indices has gap >= k * m / 2 >= m with
m = min_{i != j} |v_i - v_j|^2, and the transposition of a closest pair has gap
exactly m. Hence

    max_{sigma != id} e(sigma) = e(id) - min_{i != j} |v_i - v_j|^2.

:func:`best_non_identity_assignment` recomputes that maximum independently with
networkx (a max-weight perfect matching per forbidden diagonal edge, integer
arithmetic), so the closed form is itself cross-checked.

All arithmetic is on Python integers (or Fractions): nothing here uses floats.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from numbers import Rational

from seprank.errors import ParameterError

__all__ = [
    "gram",
    "permutation_exponent",
    "identity_exponent",
    "permutation_sign",
    "gap_identity_holds",
    "exhaustive_rearrangement",
    "min_pairwise_sq_distance",
    "second_best_exponent",
    "dual_certificate",
    "verify_dual_certificate",
    "best_non_identity_assignment",
    "max_weight_assignment",
    "scalar_equality_cases",
]


def _as_vectors(vectors: Sequence[Sequence[int | Fraction]]) -> list[tuple]:
    out = []
    width = None
    for v in vectors:
        t = tuple(v)
        for x in t:
            if isinstance(x, bool) or not isinstance(x, (int, Rational)):
                raise ParameterError(f"vector entries must be integers or Fractions, got {x!r}")
        if width is None:
            width = len(t)
        elif len(t) != width:
            raise ParameterError("all vectors must have the same length")
        out.append(t)
    return out


def _dot(a: Sequence, b: Sequence):
    return sum(x * y for x, y in zip(a, b, strict=True))


def gram(vectors: Sequence[Sequence[int]]) -> list[list]:
    """Exact Gram matrix G[i][j] = <v_i, v_j>.

    Examples
    --------
    >>> gram([(1, 0), (0, 1), (1, 1)])
    [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
    """
    vs = _as_vectors(vectors)
    return [[_dot(a, b) for b in vs] for a in vs]


def _check_perm(sigma: Sequence[int], n: int) -> tuple[int, ...]:
    s = tuple(int(x) for x in sigma)
    if sorted(s) != list(range(n)):
        raise ParameterError(f"not a permutation of range({n}): {sigma!r}")
    return s


def permutation_exponent(vectors: Sequence[Sequence[int]], sigma: Sequence[int]):
    """e(sigma) = sum_i <v_i, v_sigma(i)> (the exponent of Omega in levine2020 l.716).

    ``sigma`` is a permutation of ``range(len(vectors))`` in one-line notation.

    Examples
    --------
    >>> permutation_exponent([(1, 0), (0, 1), (1, 1)], [1, 0, 2])   # 0 + 0 + 2
    2
    """
    vs = _as_vectors(vectors)
    s = _check_perm(sigma, len(vs))
    return sum(_dot(vs[i], vs[s[i]]) for i in range(len(vs)))


def identity_exponent(vectors: Sequence[Sequence[int]]):
    """e(id) = sum_i |v_i|^2, the right-hand side of levine2020 Lemma 8 (l.831).

    Examples
    --------
    >>> identity_exponent([(1, 0), (0, 1), (1, 1)])   # 1 + 1 + 2
    4
    """
    vs = _as_vectors(vectors)
    return sum(_dot(v, v) for v in vs)


def permutation_sign(sigma: Sequence[int]) -> int:
    """Sign of a permutation in one-line notation: (-1)^(n - number of cycles).

    Examples
    --------
    >>> permutation_sign([1, 0, 2]), permutation_sign([1, 2, 0])   # a swap, a 3-cycle
    (-1, 1)
    """
    s = _check_perm(sigma, len(sigma))
    seen = [False] * len(s)
    cycles = 0
    for i in range(len(s)):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = s[j]
    return -1 if (len(s) - cycles) % 2 else 1


def gap_identity_holds(vectors: Sequence[Sequence[int]], sigma: Sequence[int]) -> bool:
    """Check identity (*) of the module docstring exactly for one permutation.

    Examples
    --------
    >>> gap_identity_holds([(1, 0), (0, 1), (1, 1)], [1, 0, 2])   # 2 (4 - 2) = 2 + 2
    True
    """
    vs = _as_vectors(vectors)
    s = _check_perm(sigma, len(vs))
    lhs = 2 * (identity_exponent(vs) - permutation_exponent(vs, s))
    rhs = sum(_dot(d, d) for d in
              (tuple(x - y for x, y in zip(vs[i], vs[s[i]], strict=True))
               for i in range(len(vs))))
    return lhs == rhs


def exhaustive_rearrangement(vectors: Sequence[Sequence[int]], *, max_n: int = 9) -> dict:
    """Evaluate e(sigma) for every permutation of ``range(N)`` (N <= ``max_n``).

    Returns a dict with ``n``, ``permutations`` (N!), ``identity_exponent``,
    ``max_exponent``, ``argmax`` (every permutation reaching the maximum),
    ``identity_unique_max`` (the strict inequality of Lemma 8 for all sigma != id),
    ``second_best`` (largest e(sigma) over sigma != id, None for N = 1),
    ``gap_identity_ok`` (identity (*) held for every permutation) and
    ``violations`` (up to 5 permutations sigma != id with e(sigma) >= e(id)).

    Examples
    --------
    >>> r = exhaustive_rearrangement([(1, 0), (0, 1), (1, 1)])
    >>> r["permutations"], r["identity_unique_max"], r["second_best"]   # 3!, and 4 - 1
    (6, True, 3)
    """
    vs = _as_vectors(vectors)
    n = len(vs)
    if n > max_n:
        raise ParameterError(f"exhaustive check refused for N = {n} > max_n = {max_n}")
    G = [[_dot(a, b) for b in vs] for a in vs]
    sq = [[_dot(d, d) for d in (tuple(x - y for x, y in zip(a, b, strict=True)) for b in vs)]
          for a in vs]
    ident = tuple(range(n))
    e_id = sum(G[i][i] for i in range(n))
    best = None
    argmax: list[tuple[int, ...]] = []
    second = None
    gap_ok = True
    violations = []
    count = 0
    for s in itertools.permutations(range(n)):
        count += 1
        e = sum(G[i][s[i]] for i in range(n))
        if 2 * (e_id - e) != sum(sq[i][s[i]] for i in range(n)):
            gap_ok = False
        if best is None or e > best:
            best, argmax = e, [s]
        elif e == best:
            argmax.append(s)
        if s != ident:
            if second is None or e > second:
                second = e
            if e >= e_id and len(violations) < 5:
                violations.append({"sigma": list(s), "exponent": e})
    return {
        "n": n,
        "permutations": count,
        "identity_exponent": e_id,
        "max_exponent": best,
        "argmax": [list(s) for s in argmax[:10]],
        "argmax_count": len(argmax),
        "identity_unique_max": argmax == [ident],
        "second_best": second,
        "gap_identity_ok": gap_ok,
        "violations": violations,
    }


def min_pairwise_sq_distance(vectors: Sequence[Sequence[int]]) -> tuple:
    """(m, (i, j)): the smallest |v_i - v_j|^2 over i < j and a pair reaching it.

    Requires at least two vectors.

    Examples
    --------
    >>> min_pairwise_sq_distance([(1, 0), (0, 1), (1, 1)])   # |(1,0) - (1,1)|^2 = 1
    (1, (0, 2))
    """
    vs = _as_vectors(vectors)
    if len(vs) < 2:
        raise ParameterError("need at least two vectors")
    if len(vs) > 64 and _small_ints(vs):
        return _min_pair_numpy(vs)
    best = None
    pair = None
    for i in range(len(vs)):
        for j in range(i + 1, len(vs)):
            diff = tuple(x - y for x, y in zip(vs[i], vs[j], strict=True))
            m = _dot(diff, diff)
            if best is None or m < best:
                best, pair = m, (i, j)
    return best, pair


def _small_ints(vs: list[tuple]) -> bool:
    """True when every entry is an int and squared distances fit easily in int64."""
    if not all(isinstance(x, int) for v in vs for x in v):
        return False
    top = max([abs(x) for v in vs for x in v] + [1])
    width = len(vs[0]) if vs else 0
    return 16 * (width + 1) * top * top < 2**62


def _min_pair_numpy(vs: list[tuple]) -> tuple:
    """Closest pair by exact int64 blocks (the caller checked that nothing overflows)."""
    import numpy as np

    V = np.array(vs, dtype=np.int64)
    sq = (V * V).sum(axis=1)
    n = len(vs)
    best = None
    pair = None
    block = max(1, 2_000_000 // n)
    for start in range(0, n, block):
        stop = min(n, start + block)
        D = sq[start:stop, None] + sq[None, :] - 2 * (V[start:stop] @ V.T)
        idx = np.arange(start, stop)
        D[idx - start, idx] = np.iinfo(np.int64).max
        k = int(np.argmin(D))
        i, j = divmod(k, n)
        m = int(D.flat[k])
        if best is None or m < best:
            best, pair = m, tuple(sorted((start + i, j)))
    return best, pair


def second_best_exponent(vectors: Sequence[Sequence[int]]):
    """max over sigma != id of e(sigma), by the closed form of the module docstring.

    Equals e(id) - min_{i != j} |v_i - v_j|^2, attained by the transposition of a
    closest pair. Requires at least two vectors.

    Examples
    --------
    >>> second_best_exponent([(1, 0), (0, 1), (1, 1)])   # e(id) - 1 = 4 - 1
    3
    """
    m, _ = min_pairwise_sq_distance(vectors)
    return identity_exponent(vectors) - m


def dual_certificate(vectors: Sequence[Sequence[int]]) -> dict:
    """LP-duality certificate that the identity is the unique max-weight assignment.

    Weights w_ij = <v_i, v_j>. The certificate holds the doubled potentials
    ``two_u[i] = |v_i|^2`` (integers for integer vectors). With the doubled
    reduced costs r_ij = 2u_i + 2u_j - 2w_ij (here r_ij = |v_i - v_j|^2), every
    permutation satisfies 2 (e(id) - e(sigma)) = sum_i r_{i sigma(i)} as long as
    r is zero on the diagonal. The certificate is valid when r >= 0 everywhere
    and r_ii = 0; if moreover r_ij > 0 off the diagonal, no sigma != id reaches
    e(id). ``min_offdiag_reduced_cost_x2`` is min_{i != j} r_ij, and
    ``second_best_exponent`` the closed-form second best e(id) - that minimum.

    Examples
    --------
    >>> cert = dual_certificate([(1, 0), (0, 1), (1, 1)])
    >>> cert["two_u"], cert["closest_pair"], cert["second_best_exponent"]   # the squared norms
    ([1, 1, 2], [0, 2], 3)
    """
    vs = _as_vectors(vectors)
    two_u = [_dot(v, v) for v in vs]
    out = {"n": len(vs), "two_u": two_u, "identity_exponent": sum(two_u)}
    if len(vs) >= 2:
        m, pair = min_pairwise_sq_distance(vs)
        out["closest_pair"] = list(pair)
        out["min_offdiag_reduced_cost_x2"] = m
        out["second_best_exponent"] = sum(two_u) - m
    return out


def verify_dual_certificate(vectors: Sequence[Sequence[int]], cert: dict) -> dict:
    """Re-check a :func:`dual_certificate` from scratch (exact, O(N^2 R)).

    For N > 64 integer vectors whose products cannot overflow 64 bits, the
    same integer test runs in numpy int64 blocks (still exact).

    Returns ``{"valid": bool, "identity_unique": bool, "min_gap": int | None}``:
    ``valid`` when all doubled reduced costs 2u_i + 2u_j - 2<v_i, v_j> are >= 0 and
    zero on the diagonal; ``identity_unique`` when in addition they are > 0 off
    the diagonal; ``min_gap`` the smallest off-diagonal doubled reduced cost.

    Examples
    --------
    >>> vs = [(1, 0), (0, 1), (1, 1)]
    >>> verify_dual_certificate(vs, dual_certificate(vs))
    {'valid': True, 'identity_unique': True, 'min_gap': 1}
    >>> twins = [(1, 0), (1, 0)]   # equal vectors can be swapped at no cost
    >>> verify_dual_certificate(twins, dual_certificate(twins))["identity_unique"]
    False
    """
    vs = _as_vectors(vectors)
    two_u = list(cert["two_u"])
    if len(two_u) != len(vs):
        return {"valid": False, "identity_unique": False, "min_gap": None}
    n = len(vs)
    small_ints = (_small_ints(vs) and all(isinstance(t, int) and abs(t) < 2**60 for t in two_u))
    if small_ints and n > 64:
        return _verify_dual_numpy(vs, two_u)
    valid = True
    unique = True
    min_gap = None
    for i in range(n):
        for j in range(n):
            r = two_u[i] + two_u[j] - 2 * _dot(vs[i], vs[j])
            if i == j:
                valid &= r == 0
            else:
                valid &= r >= 0
                unique &= r > 0
                if min_gap is None or r < min_gap:
                    min_gap = r
    return {"valid": bool(valid), "identity_unique": bool(valid and unique), "min_gap": min_gap}


def _verify_dual_numpy(vs: list[tuple], two_u: list[int]) -> dict:
    """Same test in int64 numpy blocks (exact: the caller checked that nothing overflows)."""
    import numpy as np

    V = np.array(vs, dtype=np.int64)
    U = np.array(two_u, dtype=np.int64)
    n = len(vs)
    valid = True
    unique = True
    min_gap = None
    block = max(1, 2_000_000 // max(n, 1))
    for start in range(0, n, block):
        stop = min(n, start + block)
        R = U[start:stop, None] + U[None, :] - 2 * (V[start:stop] @ V.T)
        idx = np.arange(start, stop)
        diag = R[idx - start, idx]
        valid &= bool(np.all(diag == 0))
        R[idx - start, idx] = np.iinfo(np.int64).max
        valid &= bool(np.all(R >= 0))
        unique &= bool(np.all(R > 0))
        if n > 1:
            m = int(R.min())
            min_gap = m if min_gap is None else min(min_gap, m)
    return {"valid": bool(valid), "identity_unique": bool(valid and unique), "min_gap": min_gap}


def max_weight_assignment(weights: Sequence[Sequence[int]], *,
                          forbid: tuple[int, int] | None = None) -> tuple[int, list[int]]:
    """Exact max-weight perfect assignment (networkx blossom, integer weights).

    Returns ``(weight, sigma)`` with ``sigma[i]`` the column assigned to row i.
    ``forbid=(i, j)`` removes that one edge. networkx's ``max_weight_matching``
    works in integer arithmetic when all weights are integers.

    Examples
    --------
    >>> max_weight_assignment([[1, 5], [5, 1]])   # the swap: 5 + 5
    (10, [1, 0])
    >>> max_weight_assignment([[1, 5], [5, 1]], forbid=(0, 1))   # only the identity is left
    (2, [0, 1])
    """
    import networkx as nx

    n = len(weights)
    for row in weights:
        for w in row:
            if isinstance(w, bool) or not isinstance(w, int):
                raise ParameterError("assignment weights must be Python integers")
    g = nx.Graph()
    for i in range(n):
        for j in range(n):
            if forbid is not None and (i, j) == tuple(forbid):
                continue
            g.add_edge(("r", i), ("c", j), weight=weights[i][j])
    matching = nx.max_weight_matching(g, maxcardinality=True)
    sigma = [-1] * n
    for a, b in matching:
        if a[0] == "c":
            a, b = b, a
        sigma[a[1]] = b[1]
    if -1 in sigma:
        raise ParameterError("no perfect assignment exists")
    return sum(weights[i][sigma[i]] for i in range(n)), sigma


def best_non_identity_assignment(vectors: Sequence[Sequence[int]]) -> dict:
    """max over sigma != id of e(sigma), recomputed with networkx (independent of (*)).

    A permutation other than the identity moves some index alpha, so the best
    one is the best of the N assignment problems "w_ij = <v_i, v_j> with the
    edge alpha -> alpha removed". Also solves the unrestricted problem. Returns
    ``best_weight`` (unrestricted optimum), ``identity_weight``, ``second_best``,
    ``second_best_sigma`` and ``identity_unique`` (second_best < identity_weight).
    Cost: N + 1 matchings on 2N nodes (about 2.5 s for N = 56).

    Examples
    --------
    >>> vs = [(1, 0), (0, 1), (1, 1)]
    >>> best_non_identity_assignment(vs)["second_best"] == second_best_exponent(vs)
    True
    """
    vs = _as_vectors(vectors)
    n = len(vs)
    if n < 2:
        raise ParameterError("need at least two vectors")
    G = [[_dot(a, b) for b in vs] for a in vs]
    for row in G:
        for w in row:
            if not isinstance(w, int):
                raise ParameterError("best_non_identity_assignment needs integer vectors")
    best, _ = max_weight_assignment(G)
    e_id = sum(G[i][i] for i in range(n))
    second = None
    second_sigma = None
    for alpha in range(n):
        w, sigma = max_weight_assignment(G, forbid=(alpha, alpha))
        if second is None or w > second:
            second, second_sigma = w, sigma
    return {
        "n": n,
        "best_weight": best,
        "identity_weight": e_id,
        "second_best": second,
        "second_best_sigma": second_sigma,
        "identity_unique": second < e_id,
    }


def scalar_equality_cases(values: Sequence[int]) -> dict:
    """The equality cases of the scalar rearrangement inequality (levine2020 eq. (55)).

    For every permutation sigma of ``range(N)``, compares
    ``equal := sum_i a_i a_sigma(i) == sum_i a_i^2`` with

    * the condition as printed (l.838): "sigma(i) = j  <=>  a_i = a_j" for all i, j;
    * the corrected condition: a_sigma(i) = a_i for all i (sigma only permutes
      indices inside groups of equal values).

    Returns counts and the first permutation where each condition disagrees with
    ``equal`` (None when they always agree), plus whether the inequality
    ``sum a_i a_sigma(i) <= sum a_i^2`` held for every sigma.

    Examples
    --------
    >>> r = scalar_equality_cases([1, 1, 2])   # equality for id and for swapping the two 1s
    >>> r["equality_count"], r["corrected_mismatch"]
    (2, None)
    >>> r["printed_mismatch"]["sigma"]   # the printed condition already fails for the identity
    [0, 1, 2]
    """
    a = list(values)
    n = len(a)
    if n > 9:
        raise ParameterError("scalar_equality_cases is exhaustive; N <= 9")
    total = sum(x * x for x in a)
    printed_mismatch = None
    corrected_mismatch = None
    inequality_ok = True
    equal_count = 0
    for s in itertools.permutations(range(n)):
        val = sum(a[i] * a[s[i]] for i in range(n))
        inequality_ok &= val <= total
        equal = val == total
        equal_count += equal
        printed = all((s[i] == j) == (a[i] == a[j]) for i in range(n) for j in range(n))
        corrected = all(a[s[i]] == a[i] for i in range(n))
        if printed != equal and printed_mismatch is None:
            printed_mismatch = {"sigma": list(s), "equality_holds": equal,
                                "printed_condition_holds": printed}
        if corrected != equal and corrected_mismatch is None:
            corrected_mismatch = {"sigma": list(s), "equality_holds": equal,
                                  "corrected_condition_holds": corrected}
    return {
        "values": a,
        "equality_count": equal_count,
        "inequality_ok": bool(inequality_ok),
        "printed_mismatch": printed_mismatch,
        "corrected_mismatch": corrected_mismatch,
    }
