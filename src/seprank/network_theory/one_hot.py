"""One-hot 1-dimensional heads whose output is a monomial in the moment matrix.

A structured family for the ``W-Thm1`` row (wies2021 Theorem 1, eq. (6), and the
explicit bounds eq. (9)/(11) of its Theorems 3-4). Width d_x = s, H = s heads per layer,
d_a = 1 (so d_a = d_x / H). In layer l the head of channel a has

    W^Q = e_a^T,  W^K = e_c^T,  W^V = e_b^T,  W^O = e_a     (b, c chosen per layer),

so it adds e_a y^i_a sum_j y^j_b y^j_c to position i. In the moment form
(:mod:`seprank.network_theory.moment_form`) a diagonal G = diag(g_1..g_s) stays diagonal:

    g_a <- g_a g_b g_c S_bc,          S = sum_j x^j (x^j)^T,

and the output is y_p^i = x^i_p prod_{b<=c} S_bc^{e_bc}: a monomial in the s(s+1)/2
entries of S, exponents e given by an integer recursion (:func:`monomial_exponents`).

Separation rank. With S = S^P + S^Q (S^P a function of the inputs in P),
prod_k (S^P_k + S^Q_k)^{e_k} = sum_{m <= e} prod_k binom(e_k, m_k) (S^P_k)^{m_k}
(S^Q_k)^{e_k - m_k}. If the entries of S^P (and of S^Q) are algebraically independent
functions, the P-side functions x^i_p prod (S^P_k)^{m_k} are linearly independent
(distinct monomials in independent elements times a nonzero factor), so are the Q-side
ones, and sep(y_p^i) = prod_k (e_k + 1) exactly. Algebraic independence holds when
|P|, |Q| >= s (S^P = X_P^T X_P reaches an open set of symmetric matrices); it is
certified at a point by the exact rank s(s+1)/2 of the Jacobian
(:func:`moment_jacobian_rank`).

The schedule (:func:`shift_schedule`): layer l pairs channel a with (b, c) = (a, a + delta_l
mod s), delta_l = l for l <= floor(s/2) and 1 afterwards. Layers 0..floor(s/2) introduce
every unordered pair {a, a + delta}, i.e. all s(s+1)/2 entries. A factor introduced in
layer l by channel a' reaches g_p^(L) along the paths that, going down the layers, stay on
a channel (2 ways: g_a g_a) or move by delta_t (1 way); with n = L - floor(s/2) - 1 layers
of shift 1 there are at least 2^(n - s + 1) of them, so every e_k >= 2^(L - floor(s/2) - s)
and log sep >= (s(s+1)/2)(L - floor(s/2) - s) log 2, which is of order s^2 L for L >= 4s.

*Base 3* (:func:`exponent_floor`, the check L-Thm2-corrected). Write E^l_a in N^D for the
exponent vector of g_a after l layers: a shift-delta layer gives E^{l+1}_a = 2 E^l_a +
E^l_{a+delta} + e_{{a, a+delta}} >= (M_delta E^l)_a, M_delta = 2 I + P^delta (P the cyclic
shift (P v)_a = v_{a+1}). Counting the paths with their weights instead of one path per
choice: M = 2 I + P has (M^(s-1))_{ca} = C(s-1, j) 2^(s-1-j) >= 1 with j = (a - c) mod s
(binomial theorem; P^0..P^(s-1) are the s distinct shifts) and every row of M^m sums to
3^m (:func:`shift_matrix_power`), so (M^n)_{pa} >= 3^(n-s+1) and every e_k >=
3^(L - floor(s/2) - s): log_3 sep >= (s(s+1)/2)(L - floor(s/2) - s)
(:func:`family_log3_lower_bound`).

*Padded variant* (for statements that need H < d_x, d_a >= 2): width d_x = 2s, H = s
heads of dimension d_a = 2; head a uses only the first of its two dimensions, with the
same one-hot rows on channels 0..s-1; channels s..2s-1 are read by no head. The output
coordinates p < s are the same monomials (in the moments of the first s coordinates),
so the separation ranks are the same (:func:`padded_network`).

Why one weight point decides "almost everywhere" bounds: if sep(y) > B at a weight
point w0, some (B+1) x (B+1) grid matrix of values of y (fixed P- and Q-points) is
invertible at w0 (linearly independent functions have an invertible evaluation matrix
at some points). Its determinant is a polynomial in the weights, nonzero at w0, hence
nonzero outside a proper algebraic set (a null set): sep > B for almost every weight.
:func:`first_exceeding` finds the least depth at which the family exceeds a bound
given as a predicate; the papers' bounds are compared in their wings
(:mod:`seprank.papers.levine2020.counterexample`, :mod:`seprank.papers.wies2021.bounds`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import prod

import numpy as np

__all__ = [
    "shift_schedule",
    "monomial_network",
    "monomial_exponents",
    "monomial_sep",
    "moment_jacobian_rank",
    "family_log2_lower_bound",
    "family_log3_lower_bound",
    "exponent_floor",
    "shift_matrix_power",
    "pair_introductions",
    "exponent_floor_table",
    "family_seps_by_layer",
    "channel_family_network",
    "padded_network",
    "first_exceeding",
    "one_hot_ceiling",
    "anneal_schedule",
]


def shift_schedule(s: int, L: int) -> list[list[tuple[int, int]]]:
    """Per layer, per channel a: the pair (b, c) = (a, a + delta_l mod s) of the module docstring.

    Examples
    --------
    >>> shift_schedule(3, 3)
    [[(0, 0), (1, 1), (2, 2)], [(0, 1), (1, 2), (2, 0)], [(0, 1), (1, 2), (2, 0)]]
    """
    if s < 1 or L < 1:
        raise ValueError("s and L must be >= 1")
    out = []
    for layer in range(L):
        delta = layer if layer <= s // 2 else 1
        out.append([(a, (a + delta) % s) for a in range(s)])
    return out


def monomial_network(s: int, schedule: list):
    """The network of the module docstring (d_x = H = s, d_a = 1) for a schedule.

    Examples
    --------
    >>> net = monomial_network(2, [[(0, 0), (0, 1)]])
    >>> X = [[1, 2], [3, 1]]        # S = [[10, 5], [5, 5]]
    >>> net.evaluate([X], "ZZ")[0, 0].tolist()     # (x_1 S_00, x_2 S_01) at position 1
    [10, 10]
    """
    from seprank.models import SelfAttentionNetwork

    L = len(schedule)
    W = {k: np.zeros((L, s, 1, s) if k != "O" else (L, s, s, 1), dtype=object) for k in "QKVO"}
    for layer, pairs in enumerate(schedule):
        for a, (b, c) in enumerate(pairs):
            W["Q"][layer, a, 0, a] = 1
            W["K"][layer, a, 0, c] = 1
            W["V"][layer, a, 0, b] = 1
            W["O"][layer, a, a, 0] = 1
    return SelfAttentionNetwork(L, s, s, 1, weights=W)


def exponents_by_layer(s: int, schedule: list) -> Iterator[list[Counter]]:
    """The exponents e_bc of g_a for every channel a after each layer of the schedule.

    One layer maps g_a to g_a + g_b + g_c + [S_bc] for its pair (b, c) = schedule[a]
    (module docstring); the yielded list holds one Counter per channel (the same
    objects are not reused between layers).

    Examples
    --------
    >>> [[dict(e) for e in g] for g in exponents_by_layer(2, [[(0, 0), (0, 1)]])]
    [[{(0, 0): 1}, {(0, 1): 1}]]
    """
    g = [Counter() for _ in range(s)]
    for pairs in schedule:
        new = []
        for a, (b, c) in enumerate(pairs):
            e = g[a] + g[b] + g[c]
            e[(min(b, c), max(b, c))] += 1
            new.append(e)
        g = new
        yield g


def monomial_exponents(s: int, schedule: list) -> list[dict[tuple[int, int], int]]:
    """Exponents e_bc (b <= c) of g_a for every channel a after the schedule (exact).

    Examples
    --------
    >>> monomial_exponents(2, [[(0, 0), (0, 1)], [(1, 1), (0, 0)]])[0]   # S00 S01^2 S11
    {(0, 0): 1, (0, 1): 2, (1, 1): 1}
    """
    last = [Counter() for _ in range(s)]
    for last in exponents_by_layer(s, schedule):  # noqa: B007 (the last layer is wanted)
        continue
    return [dict(sorted(e.items())) for e in last]


def monomial_sep(exponents: dict) -> int:
    """prod_k (e_k + 1): the separation rank of x_p prod_k S_k^{e_k} (module docstring).

    Examples
    --------
    >>> monomial_sep({(0, 0): 1, (0, 1): 2, (1, 1): 1})
    12
    """
    return prod(v + 1 for v in exponents.values())


def moment_jacobian_rank(s: int, points: int, seed: int = 0) -> int:
    """Exact rank of the Jacobian of (S_bc)_{b<=c}, S = sum_{j<points} x^j x^j^T, at a random
    rational point: s(s+1)/2 certifies that the entries are algebraically independent.

    Examples
    --------
    >>> moment_jacobian_rank(3, 3), moment_jacobian_rank(3, 1)   # 6 = 3*4/2; one point: 3
    (6, 3)
    """
    from seprank.linalg import rank

    rng = random.Random(seed)
    X = [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(s)]
         for _ in range(points)]
    rows = []
    for b in range(s):
        for c in range(b, s):
            row = []
            for j in range(points):
                for t in range(s):
                    # d/dx^j_t of sum_j x^j_b x^j_c
                    row.append((X[j][c] if t == b else 0) + (X[j][b] if t == c else 0))
            rows.append(row)
    return rank(rows, "exact").value


def family_log2_lower_bound(s: int, L: int) -> int:
    """The proven bound log2 sep >= (s(s+1)/2) (L - floor(s/2) - s) of the shift schedule.

    Examples
    --------
    >>> family_log2_lower_bound(4, 10)   # 10 * (10 - 2 - 4)
    40
    """
    return (s * (s + 1) // 2) * max(0, L - s // 2 - s)


def family_log3_lower_bound(s: int, L: int) -> int:
    """The base-3 bound log_3 sep >= (s(s+1)/2) (L - floor(s/2) - s) (module docstring).

    Examples
    --------
    >>> family_log3_lower_bound(4, 10), family_log3_lower_bound(2, 2)
    (40, 0)
    """
    return (s * (s + 1) // 2) * max(0, L - s // 2 - s)


def exponent_floor(s: int, L: int) -> int | None:
    """3^(L - floor(s/2) - s), the proven floor of every exponent e_k (None below floor(s/2) + s).

    Examples
    --------
    >>> exponent_floor(4, 8), exponent_floor(4, 5)
    (9, None)
    """
    m = L - s // 2 - s
    return 3 ** m if m >= 0 else None


def shift_matrix_power(s: int, m: int) -> list[list[int]]:
    """(2 I + P)^m as exact integers, P the cyclic shift (P v)_a = v_{a+1 mod s}.

    Examples
    --------
    >>> shift_matrix_power(3, 2)     # C(2, j) 2^(2-j) on the j-th shift: 4, 4, 1
    [[4, 4, 1], [1, 4, 4], [4, 1, 4]]
    >>> [sum(row) for row in shift_matrix_power(4, 5)] == [3 ** 5] * 4
    True
    """
    if s < 1 or m < 0:
        raise ValueError("s must be >= 1 and m >= 0")
    out = [[int(a == c) for c in range(s)] for a in range(s)]
    for _ in range(m):
        # (M X)_{ac} = 2 X_{ac} + X_{a+1, c}
        out = [[2 * out[a][c] + out[(a + 1) % s][c] for c in range(s)] for a in range(s)]
    return out


def pair_introductions(s: int) -> dict[tuple[int, int], tuple[int, int]]:
    """For each unordered pair b <= c: the (layer, channel) of the shift schedule that first
    multiplies S_bc in, among layers 0..floor(s/2) (the shift delta_l = l there).

    Examples
    --------
    >>> pair_introductions(3)
    {(0, 0): (0, 0), (1, 1): (0, 1), (2, 2): (0, 2), (0, 1): (1, 0), (1, 2): (1, 1), (0, 2): (1, 2)}
    """
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for layer, pairs in enumerate(shift_schedule(s, s // 2 + 1)):
        for a, (b, c) in enumerate(pairs):
            out.setdefault((min(b, c), max(b, c)), (layer, a))
    return out


def exponent_floor_table(s: int, L_max: int) -> dict:
    """Check every exponent of every channel against :func:`exponent_floor`, L = 1..L_max.

    Returns the number of (L, channel) cases compared, the first violation (or None)
    and, at L_max, the least exponent over channels and pairs with its ratio to the floor.

    Examples
    --------
    >>> row = exponent_floor_table(3, 12)
    >>> row["violation"], row["cases"], row["min_exponent_at_L_max"] >= 3 ** (12 - 1 - 3)
    (None, 27, True)
    """
    D = s * (s + 1) // 2
    cases, violation, last = 0, None, None
    for L, g in enumerate(exponents_by_layer(s, shift_schedule(s, L_max)), start=1):
        floor = exponent_floor(s, L)
        last = min(min(e.values()) if len(e) == D else 0 for e in g)
        if floor is None:
            continue
        cases += len(g)
        if last < floor and violation is None:
            violation = {"s": s, "L": L, "min_exponent": last, "floor": floor}
    floor = exponent_floor(s, L_max)
    return {"s": s, "L_max": L_max, "cases": cases, "violation": violation,
            "min_exponent_at_L_max": last,
            "ratio_to_floor_at_L_max": None if floor is None else Fraction(last, floor)}


def channel_family_network(s: int, L: int, d_x: int, H: int):
    """The family on s of the d_x channels: H heads of dimension d_a = d_x / H, s <= H.

    Head a < s uses the first of its d_a dimensions with the one-hot rows of the shift
    schedule on channels 0..s-1; every other weight is 0. Outputs p < s are the width-s
    family's monomials in the moments of the first s input coordinates; the others are 0.
    (:func:`padded_network` is the case d_x = 2s, H = s.)

    Examples
    --------
    >>> net = channel_family_network(2, 1, 6, 3)       # d_a = 2, one head unused
    >>> X = [[1, 2, 5, 7, 1, 1], [3, 1, -1, 2, 0, 4]]  # S_00 = 10, S_11 = 5
    >>> net.evaluate([X], "ZZ")[0, 0].tolist()
    [10, 10, 0, 0, 0, 0]
    """
    from seprank.models import SelfAttentionNetwork

    if H < 1 or d_x % H or not 1 <= s <= min(H, d_x):
        raise ValueError("channel_family_network needs H | d_x and 1 <= s <= H")
    d_a = d_x // H
    W = {k: np.zeros((L, H, d_a, d_x) if k != "O" else (L, H, d_x, d_a), dtype=object)
         for k in "QKVO"}
    for layer, pairs in enumerate(shift_schedule(s, L)):
        for a, (b, c) in enumerate(pairs):
            W["Q"][layer, a, 0, a] = 1
            W["K"][layer, a, 0, c] = 1
            W["V"][layer, a, 0, b] = 1
            W["O"][layer, a, a, 0] = 1
    return SelfAttentionNetwork(L, d_x, H, d_a, weights=W)


def _exponents_by_layer(s: int, L_max: int) -> Iterator[list[Counter]]:
    return exponents_by_layer(s, shift_schedule(s, L_max))


def family_seps_by_layer(s: int, L_max: int) -> list[list[int]]:
    """For L = 1..L_max, the list over p of prod(e_bc + 1) for y_p (shift schedule of width s).

    Examples
    --------
    >>> family_seps_by_layer(2, 2)   # L = 1: x_p S_pp; L = 2: x_1 S_00^2 S_01 S_11: 3*2*2
    [[2, 2], [12, 12]]
    """
    return [[prod(v + 1 for v in e.values()) for e in g]
            for g in _exponents_by_layer(s, L_max)]


def padded_network(s: int, L: int):
    """The padded variant (module docstring): d_x = 2s, H = s, d_a = 2, one dimension used.

    Examples
    --------
    >>> net = padded_network(2, 1)
    >>> X = [[1, 2, 5, 7], [3, 1, -1, 2]]     # S_00 = 10, S_11 = 5 on the first 2 channels
    >>> net.evaluate([X], "ZZ")[0, 0].tolist()
    [10, 10, 0, 0]
    """
    return channel_family_network(s, L, 2 * s, s)


def first_exceeding(exceeds: Callable[[int, int, int], bool], s: int, L_max: int,
                    padded: bool = False) -> dict | None:
    """The least L <= L_max where some y_p of the width-s family exceeds a bound (exact).

    ``exceeds(sep, L, d_x)`` says whether ``sep`` exceeds the bound at depth L and
    width d_x (a paper's wing supplies it); ``padded``: compare at d_x = 2s (H = s,
    d_a = 2) instead of d_x = s. Returns L, d_x, H, d_a, p (1-based), sep and the
    exponents of the largest y_p, or None.

    Examples
    --------
    >>> first_exceeding(lambda sep, L, d_x: sep > 100, 2, 6)["L"]    # seps 2, 12, 150, ...
    3
    >>> first_exceeding(lambda sep, L, d_x: False, 2, 6) is None
    True
    """
    d_x = 2 * s if padded else s
    for L, g in enumerate(_exponents_by_layer(s, L_max), start=1):
        seps = [prod(v + 1 for v in e.values()) for e in g]
        p = max(range(s), key=lambda k: seps[k])
        if exceeds(seps[p], L, d_x):
            return {"L": L, "d_x": d_x, "H": s, "d_a": d_x // s, "s": s, "p": p + 1,
                    "sep": seps[p], "exponents": {f"S_{b + 1}{c + 1}": v
                                                  for (b, c), v in sorted(g[p].items())}}
    return None


def one_hot_ceiling(L: int, s: int) -> int:
    """The largest prod(e_k + 1) of any one-hot schedule of width s and depth L (exact).

    Every schedule (any pair (b, c) per channel and layer, not only the shift schedule)
    gives g_a exponents e in N^D, D = s(s+1)/2, that sum to C(L) (each layer maps a total
    c to 3c + 1), and prod(e_k + 1) over integers with a fixed sum is largest when the e_k
    differ by at most 1 (moving one unit from a larger to a smaller entry does not lower
    the product). So no one-hot schedule's output has separation rank above this value,
    w.r.t. any partition (sep <= prod(e_k + 1) by the binomial expansion of S = S^P + S^Q).

    Examples
    --------
    >>> one_hot_ceiling(2, 2)          # C = 4 over D = 3 entries: 2 + 1 + 1 -> 3 * 2 * 2
    12
    >>> one_hot_ceiling(1, 3)          # C = 1: one entry 1, the rest 0
    2
    """
    from seprank.combinatorics import num_head_indices

    if s < 1 or L < 1:
        raise ValueError("s and L must be >= 1")
    C, D = num_head_indices(L), s * (s + 1) // 2
    q, r = divmod(C, D)
    return (q + 2) ** r * (q + 1) ** (D - r)


def _schedule_seps(s: int, schedule: list, index: dict) -> list[int]:
    """prod(e + 1) of every channel after the schedule (integer vectors, no Counters)."""
    g = [[0] * len(index) for _ in range(s)]
    for pairs in schedule:
        new = []
        for a, (b, c) in enumerate(pairs):
            v = [x + y + z for x, y, z in zip(g[a], g[b], g[c], strict=True)]
            v[index[(min(b, c), max(b, c))]] += 1
            new.append(v)
        g = new
    return [prod(x + 1 for x in v) for v in g]


def anneal_schedule(s: int, L: int, exceeds: Callable[[int, int, int], bool], *,
                    iterations: int, seed: int = 0,
                    start: list | None = None) -> dict:
    """Search one-hot schedules of width s, depth L for one whose output exceeds a bound.

    Simulated annealing over schedules (one move: a new random pair (b, c) for one channel
    of one layer), maximizing log max_p prod(e_p + 1); it stops at the first schedule with
    ``exceeds(sep, L, s)``. Seeded, so a run is reproducible; a search, not a proof: not
    finding a schedule says nothing about the schedules not visited.

    Parameters
    ----------
    s, L : int
        Width (= H, d_a = 1) and depth.
    exceeds : callable
        ``exceeds(sep, L, d_x)``: True when sep exceeds the bound at (L, d_x = s).
    iterations : int
        Moves tried (the cost is O(iterations L s^3)).
    seed : int
        Seed of the move generator.
    start : list, optional
        The schedule to start from (default :func:`shift_schedule`).

    Returns
    -------
    dict
        ``found`` (bool), ``sep`` (the best prod(e + 1) reached), ``schedule`` (the best
        schedule), ``iterations`` (moves tried).

    Examples
    --------
    >>> out = anneal_schedule(2, 3, lambda sep, L, d_x: sep > 100, iterations=50)
    >>> out["found"], out["sep"] > 100
    (True, True)
    """
    import math

    rng = random.Random(seed)
    index = {(b, c): k for k, (b, c) in
             enumerate((b, c) for b in range(s) for c in range(b, s))}
    sched = [list(layer) for layer in (start or shift_schedule(s, L))]
    cur = max(_schedule_seps(s, sched, index))
    best, best_sched = cur, [list(layer) for layer in sched]
    for it in range(iterations):
        if exceeds(best, L, s):
            return {"found": True, "sep": best, "schedule": best_sched, "iterations": it}
        temperature = (1 - it / iterations) + 1e-3
        layer, a = rng.randrange(L), rng.randrange(s)
        old = sched[layer][a]
        sched[layer][a] = (rng.randrange(s), rng.randrange(s))
        value = max(_schedule_seps(s, sched, index))
        gain = math.log(value) - math.log(cur)
        if gain >= 0 or rng.random() < math.exp(gain / temperature):
            cur = value
            if value > best:
                best, best_sched = value, [list(x) for x in sched]
        else:
            sched[layer][a] = old
    return {"found": exceeds(best, L, s), "sep": best, "schedule": best_sched,
            "iterations": iterations}
