"""Laws of the generic separation rank: block caps, the depth-one law, fits that can fail.

The *generic* separation rank of a plain network shape (L, d_x, H, d_a = d_x / H) is the
value sep(y_p^i) takes, as N -> infinity, for almost every weight. By Proposition 2'
(:mod:`seprank.separation.moment`) that value is rank_Q(C_F), and C_F is block diagonal
by the degree g in the moments of the far side (levine2020 eq. (3), sec. 2.2 l.71-82;
the moment form of :mod:`seprank.network_theory.moment_form`). Three facts make the
generic value computable and its laws checkable:

* **caps** (every weight): block g has d_x M(D, C - g) rows and M(D, g) columns
  (M(D, k) = C(D + k - 1, k) monomials of degree k in the D = d_x(d_x + 1)/2 moment
  entries, C = C(L) = (3^L - 1)/2), so its rank is at most the smaller side, and the sum
  of the smaller sides (:func:`~seprank.network_theory.corrected_bounds.block_upper`)
  bounds sep for every weight;
* **one instance decides** (almost every weight): each entry of C_F is a polynomial in
  the weights, so the rank of each block is largest on a nonempty Zariski-open set of
  weights (a nonzero minor stays nonzero off the zero set of a nonzero polynomial); a
  certified instance that meets the caps therefore *is* the generic value, with no
  probability involved, and any certified instance is a lower bound of it;
* **depth one** (:func:`depth_one_witness`): at L = 1 the caps are 1 + d_x and one
  weight assignment, the same construction for every d_x and every H dividing d_x, meets
  them; so the generic separation rank of every plain one-layer network is d_x + 1.

* **the first layer's ideal** (every weight, :func:`ideal_block_bounds`): G_1(S) =
  sum_h O_h (V_h S K_h^T) Q_h sees S only through the r <= min(H d_a^2, D) entries of the
  matrices V_h S K_h^T, linear forms l_1..l_r of S. Each entry of G_{l+1} = M_l G_l,
  M_l = sum_h O_h V_h G_l S G_l^T K_h^T Q_h, is a sum of products of three entries of G_l
  and one of S, so the entries of G_L lie in the e-th power of the ideal (l_1..l_r),
  e = 3^(L-1). Row (j, alpha) of block g of C_F is the derivative of order C - g of g_j
  (divided by alpha!, as a polynomial of degree g in the far side's moments); a
  derivative of order k of an element of (l)^e lies in (l)^(e-k). In coordinates where
  l_1..l_r are the first r variables, the degree-g part of (l)^m is spanned by the
  monomials with at least m of their g factors among them, so

      rank(block g) <= sum_{i >= m} M(r, i) M(D - r, g - i),   m = max(0, e - (C - g)).

  The bound only grows with r, so r = min(H d_a^2, D) may stand for the true dimension.
  At L = 1 it never cuts a cap (r >= d_x there). At L = 2 it cuts block 2's cap, by
  M(D - r, 2), exactly when H d_a^2 < D (d_a < (d_x + 1)/2 for d_a = d_x / H). At L = 3 and
  4 it cuts the caps at every shape of ``docs/generic-laws.md`` with H d_a^2 < D. In those
  data it is met by L = 2 at H = 2, by H = d_x = 2, 3 and by L = 3, d_x = 2, H = 2 (215).

* **the first layer's forms, counted** (every weight, :func:`counted_block_bounds`; check
  L-Generic3): block g's column kernel is Ann_g, the operators Q of order g with Q g_j = 0
  for every j (:mod:`seprank.separation.moment.apolar`). Take coordinates (l, u), the r
  forms and u = D - r others; every monomial of g_j has u-degree <= T = C - e (the ideal
  power above). An operator spanned by the monomials d_l^beta d_u^alpha with
  |alpha| >= J maps g_j to a form of degree C - g whose monomials have u-degree <= T - J
  (each d_u lowers it by one). So the map Q -> (Q g_1, ..., Q g_{d_x}) from that span,
  of dimension V(g, J) = sum_{j >= J} M(D - r, j) M(r, g - j), into d_x copies of a
  space of dimension P(C - g, T - J) = sum_{j <= T - J} M(D - r, j) M(r, C - g - j) has
  a kernel of dimension >= V(g, J) - d_x P(C - g, T - J), and

      rank(block g) <= M(D, g) - max_J (V(g, J) - d_x P(C - g, T - J)).

  J = T + 1 (P = 0) is the ideal bound above; smaller J adds what it misses. As above,
  r = min(H d_a^2, D) may stand for the true dimension (any r forms containing the first
  layer's will do). Generic L = 3, d_x = 3, H = 3: blocks 7 and 8 get 480 and 519 (the
  ideal bound: 546 and 756), the ranks mod p of the drawn networks; summed over the
  blocks it equals every exact value of the plain atlas rows (docs/atlas/laws.md) but
  one: L = 3, d_x = 4, H = 1, 4 below it, which the word's rank-one directions explain
  (:mod:`seprank.separation.moment.word_directions`).

* **residual connections, the layered staircase** (every weight,
  :func:`layered_staircase_bound`; check L-Generic4): with a skip connection at every
  layer G_L has every degree 0..C and C_F is one matrix, rows x_k U^alpha and columns
  W^gamma with |alpha|, |gamma| <= C. The u-degree bound survives: write nu(f) for the
  largest u-degree of f's monomials; nu(G_1) = 0 (G_1 = I + sum_h O_h V_h S K_h^T Q_h
  reads only the l's), nu(G_l S G_l^T) <= 2 nu(G_l) + 1, the layer map
  X -> I + sum_h O_h V_h X K_h^T Q_h keeps nu, so nu(G_{l+1}) <= 3 nu(G_l) + 1 and
  nu(G_L) <= (3^(L-1) - 1)/2 = T. In coordinates (l, u) (C_F's rank does not depend on
  them) entry ((k, alpha), gamma) is a coefficient of g_k at alpha + gamma, so it vanishes
  unless |alpha| + |gamma| <= C and u(alpha) + u(gamma) <= T. Group the columns by
  (|gamma|, u(gamma)) = (e, j) and the rows by (a, i), n(e, j) = M(D - r, j) M(r, e - j)
  of each. For thresholds s_0 >= s_1 >= ... >= s_T, the columns with e <= s_j count
  themselves; the others, (e, j) with e > s_j, meet only rows with a <= C - 1 - s_j and
  i <= T - j, which (the s_j decreasing) are the rows a <= C - 1 - s_{T-i} of each level
  i. Two column groups, each ranked at most by its columns or its rows:

      rank C_F <= min over s of sum_j [ sum_{e <= s_j} n(e, j)
                                        + d_x sum_{a <= C - 1 - s_j} n(a, T - j) ],

  a sum over j of terms in s_j alone, minimised by dynamic programming over the
  decreasing s. With r = D (one level) it is the plain staircase
  (:func:`~seprank.separation.moment.blocks.staircase_bound`). With the residual network's
  leading forms below (:mod:`seprank.separation.moment.leading_forms`: rank C_F is at
  least the plain network's with the same weights), the residual rank is the plain one
  wherever the plain network meets its counted bound and this bound equals that count,
  as it does at every L <= 5, d_x <= 7, H | d_x (tests/test_generic_laws.py).

Everything else is data: :func:`fit_law` fits a polynomial in d_x with more points than
parameters (so that the fit can fail) and re-checks it at the sizes held out; a law found
that way is a conjecture with its evidence, never a theorem.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seprank.combinatorics import multiset, num_head_indices
from seprank.network_theory.corrected_bounds import moment_entries

__all__ = ["block_caps", "caps_sum", "ideal_block_bounds", "counted_block_bounds",
           "generic_caps", "generic_caps_sum", "layered_staircase_bound",
           "depth_one_witness", "depth_one_block", "Fit", "fit_law", "interpolate",
           "PATTERNS", "pattern_heads", "derivative_span_ranks"]


def block_caps(L: int, d_x: int) -> list[int]:
    """The smaller side of each block g = 0..C(L) of C_F (plain network; module docstring).

    >>> block_caps(1, 4), block_caps(2, 4)
    ([1, 4], [1, 10, 55, 40, 4])
    """
    C, D = num_head_indices(L), moment_entries(d_x)
    return [min(d_x * multiset(D, C - g), multiset(D, g)) for g in range(C + 1)]


def caps_sum(L: int, d_x: int) -> int:
    """sum(block_caps(L, d_x)): the bound on sep valid for every weight (its closed form is
    :func:`~seprank.network_theory.corrected_bounds.block_upper`; the tests compare them).

    >>> caps_sum(1, 5), caps_sum(2, 4), caps_sum(2, 8)
    (6, 110, 999)
    """
    return sum(block_caps(L, d_x))


def ideal_block_bounds(L: int, n_vars: int, forms: int) -> list[int]:
    """The first layer's ideal bound on each block g = 0..C(L) of a plain network's C_F
    (module docstring; not yet min'ed with the block's shape): ``n_vars`` moment
    variables D, ``forms`` = r, the linear forms of S the first layer reads
    (min(H d_a^2, D)).

    >>> ideal_block_bounds(2, 10, 8)     # d_x = 4, H = 2: block 2 is M(10, 2) - M(2, 2) = 52
    [1, 10, 52, 192, 570]
    >>> ideal_block_bounds(1, 6, 6)      # r = D: no constraint (the monomial counts)
    [1, 6]
    """
    if min(L, n_vars) < 1 or not 0 <= forms <= n_vars:
        raise ValueError(f"ideal_block_bounds: L = {L}, n_vars = {n_vars}, forms = {forms} "
                         f"(need L, n_vars >= 1 and 0 <= forms <= n_vars)")
    C, e, r = num_head_indices(L), 3 ** (L - 1), forms
    out = []
    for g in range(C + 1):
        m = max(0, e - (C - g))
        out.append(sum(multiset(r, i) * multiset(n_vars - r, g - i)
                       for i in range(m, g + 1)))
    return out


def counted_block_bounds(L: int, n_vars: int, forms: int, polys: int) -> list[int]:
    """The counted bound on each block g = 0..C(L) (module docstring, "the first layer's
    forms, counted"): M(D, g) minus the largest count of annihilators, for ``polys``
    polynomials g_j (d_x for tokens). Never above :func:`ideal_block_bounds` (J = T + 1).

    >>> counted_block_bounds(3, 6, 3, 3)[7:9]   # d_x = 3, H = 3: 480 and 519 (ideal: 546, 756)
    [480, 519]
    >>> counted_block_bounds(2, 10, 8, 4)      # d_x = 4, H = 2 (ideal: 1, 10, 52, 192, 570)
    [1, 10, 52, 40, 4]
    """
    if min(L, n_vars, polys) < 1 or not 0 <= forms <= n_vars:
        raise ValueError(f"counted_block_bounds: L = {L}, n_vars = {n_vars}, forms = {forms}, "
                         f"polys = {polys} (need L, n_vars, polys >= 1, 0 <= forms <= n_vars)")
    C, r, u = num_head_indices(L), forms, n_vars - forms
    top = C - 3 ** (L - 1)

    def span(k: int, lo: int, hi: int) -> int:   # monomials of degree k, u-degree in [lo, hi]
        return sum(_monomials(u, j) * _monomials(r, k - j) for j in range(max(lo, 0), hi + 1))

    return [_monomials(n_vars, g) - max(0, *(span(g, J, g) - polys * span(C - g, 0, top - J)
                                             for J in range(g + 2)))
            for g in range(C + 1)]


def layered_staircase_bound(L: int, n_vars: int, forms: int, polys: int) -> int:
    """The layered staircase: a bound on the rank of a residual network's whole C_F, valid
    for every weight (module docstring, "residual connections"), for ``polys`` polynomials
    g_j (d_x for tokens), D = ``n_vars`` and r = ``forms`` (min(H d_a^2, D)).

    >>> layered_staircase_bound(3, 6, 3, 3)    # d_x = H = 3: the plain count, 2441
    2441
    >>> layered_staircase_bound(3, 3, 3, 2)    # r = D: the plain staircase (blocks.py)
    232
    """
    if min(L, n_vars, polys) < 1 or not 0 <= forms <= n_vars:
        raise ValueError(f"layered_staircase_bound: L = {L}, n_vars = {n_vars}, forms = "
                         f"{forms}, polys = {polys} (need L, n_vars, polys >= 1, "
                         f"0 <= forms <= n_vars)")
    C, r, u = num_head_indices(L), forms, n_vars - forms
    top = C - 3 ** (L - 1)

    def cells(e: int, j: int) -> int:       # monomials of degree e and u-degree j
        return _monomials(u, j) * _monomials(r, e - j) if 0 <= j <= e else 0

    def cost(j: int, s: int) -> int:
        return (sum(cells(e, j) for e in range(s + 1))
                + polys * sum(cells(a, top - j) for a in range(C - s)))

    best = {s: cost(0, s) for s in range(-1, C + 1)}
    for j in range(1, top + 1):             # s_j <= s_(j-1): the best over s' >= s so far
        run, nxt = None, {}
        for s in range(C, -2, -1):
            run = best[s] if run is None else min(run, best[s])
            nxt[s] = run + cost(j, s)
        best = nxt
    return min(best.values())


def _monomials(n: int, k: int) -> int:
    """M(n, k) (:func:`~seprank.combinatorics.multiset`), and 0 for k < 0."""
    return multiset(n, k) if k >= 0 else 0


def generic_caps(L: int, d_x: int, H: int, d_a: int | None = None) -> list[int]:
    """Per block, the least of its shape and the first layer's counted bound
    (:func:`counted_block_bounds`, below :func:`ideal_block_bounds`): a bound on its rank
    valid for every weight of the plain network (L, d_x, H, d_a = d_x / H default).

    >>> generic_caps(2, 4, 2), generic_caps(2, 4, 1) == block_caps(2, 4)
    ([1, 10, 52, 40, 4], True)
    >>> sum(generic_caps(3, 3, 3)), sum(generic_caps(3, 4, 4))
    (2441, 16335)
    """
    d_a = d_x // H if d_a is None else d_a
    D = moment_entries(d_x)
    bound = counted_block_bounds(L, D, min(H * d_a * d_a, D), d_x)
    return [min(c, b) for c, b in zip(block_caps(L, d_x), bound, strict=True)]


def generic_caps_sum(L: int, d_x: int, H: int, d_a: int | None = None) -> int:
    """sum(generic_caps(...)): sep <= this for every weight of the plain network.

    >>> generic_caps_sum(2, 4, 2), generic_caps_sum(3, 2, 2), generic_caps_sum(2, 8, 4)
    (107, 215, 789)
    """
    return sum(generic_caps(L, d_x, H, d_a))


def depth_one_witness(d_x: int, H: int, coordinate: int = 0) -> dict[str, np.ndarray]:
    """Weights of one layer (H heads, d_a = d_x / H) at which C_F meets its caps 1 + d_x.

    Head h reads and keys the coordinates h d_a .. (h + 1) d_a - 1 (Q_h = K_h selects
    them, so sum_h K_h^T Q_h = I), and every head's value-output product is
    O_h V_h = e_p e_0^T (p = ``coordinate``). Then G_1(S) = sum_h O_h V_h S K_h^T Q_h =
    e_p e_0^T S and the output is y_p^i = sum_j S_0j x^i_j: the degree-1 block of C_F
    maps x^i_j to the moment entry S_0j, d_x distinct variables, so its rank is d_x for
    every d_x (:func:`depth_one_block`), and the degree-0 block is nonzero (rank 1).

    >>> w = depth_one_witness(4, 2)
    >>> projector = sum(w["K"][0, h].T @ w["Q"][0, h] for h in range(2))
    >>> w["Q"].shape, w["O"].shape, int(projector.trace())
    ((1, 2, 2, 4), (1, 2, 4, 2), 4)
    """
    if d_x < 1 or H < 1 or d_x % H:
        raise ValueError(f"depth_one_witness: H = {H} must divide d_x = {d_x} (both >= 1)")
    if not 0 <= coordinate < d_x:
        raise ValueError(f"depth_one_witness: coordinate {coordinate} not in [0, {d_x})")
    d_a = d_x // H
    Q = np.zeros((1, H, d_a, d_x), dtype=np.int64)
    for h in range(H):
        for a in range(d_a):
            Q[0, h, a, h * d_a + a] = 1
    V = np.zeros((1, H, d_a, d_x), dtype=np.int64)
    V[0, :, 0, 0] = 1
    O = np.zeros((1, H, d_x, d_a), dtype=np.int64)
    O[0, :, coordinate, 0] = 1
    return {"Q": Q, "K": Q.copy(), "V": V, "O": O}


def depth_one_block(weights: dict[str, np.ndarray], coordinate: int = 0) -> np.ndarray:
    """The degree-1 block of C_F at L = 1, exactly: row j holds the coefficients of the
    moment entries S_ab (a <= b) in e_p^T G_1(S) e_j (an integer d_x x D matrix).

    e_p^T G_1(S) e_j = tr(S B_j) with B_j = sum_h K_h^T Q_h e_j e_p^T O_h V_h, so the
    coefficient of S_aa is (B_j)_aa and that of S_ab (a < b) is (B_j)_ab + (B_j)_ba.

    >>> depth_one_block(depth_one_witness(2, 1)).tolist()      # S_00, S_01, S_11
    [[1, 0, 0], [0, 1, 0]]
    """
    Q, K, V, O = (np.asarray(weights[k], dtype=object) for k in "QKVO")
    _, H, _, d_x = Q.shape
    rows = []
    for j in range(d_x):
        B = sum(np.outer(K[0, h].T @ Q[0, h][:, j], (O[0, h] @ V[0, h])[coordinate])
                for h in range(H))
        rows.append([B[a, a] if a == b else B[a, b] + B[b, a]
                     for a in range(d_x) for b in range(a, d_x)])
    return np.array(rows, dtype=object).astype(np.int64)


#: The head patterns whose laws are fitted in d_x: H = 1, one-dimensional heads (H = d_x),
#: two heads, two-dimensional heads.
PATTERNS = ("H = 1", "d_a = 1", "H = 2", "d_a = 2")


def pattern_heads(pattern: str, d_x: int) -> int | None:
    """The head count of ``pattern`` at width d_x (None: the pattern has no network there).

    >>> [pattern_heads(p, 4) for p in PATTERNS], pattern_heads("H = 2", 3)
    ([1, 4, 2, 2], None)
    """
    H = {"H = 1": 1, "d_a = 1": d_x, "H = 2": 2,
         "d_a = 2": d_x // 2 if d_x % 2 == 0 else None}[pattern]
    return H if H is not None and 1 <= H <= d_x and d_x % H == 0 else None


def interpolate(points: list[tuple[int, int]]) -> list[Fraction]:
    """Coefficients c_0..c_k (lowest first) of the polynomial of degree <= k = len - 1 through
    ``points`` (exact, Newton's divided differences turned into the monomial basis).

    >>> interpolate([(1, 2), (2, 3), (3, 4)])
    [Fraction(1, 1), Fraction(1, 1), Fraction(0, 1)]
    """
    xs = [Fraction(x) for x, _ in points]
    table = [Fraction(y) for _, y in points]
    n = len(points)
    newton = [table[0]]
    for level in range(1, n):
        table = [(table[i + 1] - table[i]) / (xs[i + level] - xs[i]) for i in range(n - level)]
        newton.append(table[0])
    coeffs = [Fraction(0)] * n
    basis = [Fraction(1)]                   # prod_{i < k} (x - x_i), lowest first
    for k in range(n):
        for i, b in enumerate(basis):
            coeffs[i] += newton[k] * b
        basis = [Fraction(0)] + basis       # times x ...
        for i in range(len(basis) - 1):
            basis[i] -= xs[k] * basis[i + 1]  # ... minus x_k times
    return coeffs


def _value(coeffs: list[Fraction], x: int) -> Fraction:
    return sum((c * x**i for i, c in enumerate(coeffs)), Fraction(0))


@dataclass(frozen=True)
class Fit:
    """A polynomial law in d_x found from data: ``coeffs`` (None: no polynomial of degree
    <= ``max_degree`` fits with a spare point), the sizes it was fitted on, the held-out
    sizes and whether each agrees.

    >>> f = Fit((Fraction(1), Fraction(1)), (1, 2, 3), ((4, 5, True),), 6)
    >>> f.degree, f.status, f.formula()
    (1, 'conjecture', 'd_x + 1')
    """

    coeffs: tuple[Fraction, ...] | None
    fitted_on: tuple[int, ...]
    held_out: tuple[tuple[int, int, bool], ...]     # (d_x, value, law agrees)
    max_degree: int

    @property
    def degree(self) -> int | None:
        if self.coeffs is None:
            return None
        nonzero = [i for i, c in enumerate(self.coeffs) if c]
        return max(nonzero, default=0)

    @property
    def status(self) -> str:
        """``conjecture`` (fits and every held-out size agrees), ``refuted`` (a held-out
        size disagrees), ``untested`` (fits, nothing held out), ``no fit``."""
        if self.coeffs is None:
            return "no fit"
        if not self.held_out:
            return "untested"
        return "conjecture" if all(ok for _, _, ok in self.held_out) else "refuted"

    def formula(self) -> str:
        """The law as text, highest degree first (``-`` when there is none).

        >>> fit_law({1: 2, 2: 3, 3: 4, 4: 5}).formula()
        'd_x + 1'
        """
        if self.coeffs is None:
            return "-"
        terms = []
        for i in range(len(self.coeffs) - 1, -1, -1):
            c = self.coeffs[i]
            if not c:
                continue
            mag = abs(c)
            num = "" if (mag == 1 and i) else str(mag)
            var = "" if i == 0 else ("d_x" if i == 1 else f"d_x^{i}")
            body = f"{num} {var}".strip() if num and var else (num or var)
            if "/" in num and var:
                body = f"({num}) {var}"
            terms.append(("-" if c < 0 else "+", body))
        if not terms:
            return "0"
        text = ("-" if terms[0][0] == "-" else "") + terms[0][1]
        return text + "".join(f" {s} {b}" for s, b in terms[1:])


def fit_law(values: dict[int, int], *, hold_out: int = 1, max_degree: int = 6) -> Fit:
    """The least-degree polynomial in d_x through all but the ``hold_out`` largest sizes,
    fitted only where it has at least one point more than parameters (degree k needs k + 2
    points, so a wrong degree can fail); then re-checked at the held-out sizes.

    >>> f = fit_law({1: 2, 2: 3, 3: 4, 4: 5, 5: 6})         # d_x + 1, checked at d_x = 5
    >>> f.formula(), f.fitted_on, f.held_out, f.status
    ('d_x + 1', (1, 2, 3, 4), ((5, 6, True),), 'conjecture')
    >>> fit_law({1: 1, 2: 2, 3: 6, 4: 24, 5: 120}).status      # no degree <= 2 with a spare
    'no fit'
    >>> fit_law({1: 1, 2: 4, 3: 9, 4: 16, 5: 26}).status        # d_x^2 fails at d_x = 5
    'refuted'
    """
    sizes = sorted(values)
    fit_sizes = sizes[:len(sizes) - hold_out] if hold_out else sizes
    held = sizes[len(fit_sizes):]
    pts = [(x, values[x]) for x in fit_sizes]
    for k in range(0, min(max_degree, len(pts) - 2) + 1):
        coeffs = interpolate(pts[:k + 1])
        if all(_value(coeffs, x) == y for x, y in pts):
            checks = tuple((x, values[x], _value(coeffs, x) == values[x]) for x in held)
            return Fit(tuple(coeffs), tuple(fit_sizes), checks, max_degree)
    return Fit(None, tuple(fit_sizes), (), max_degree)


def _span_basis(polys: list[dict]) -> list[dict]:
    """A basis of the span of polynomials {exponent tuple: coefficient} (flint's exact rref)."""
    import flint

    mons = sorted({m for q in polys for m in q})
    if not mons:
        return []
    mat = flint.fmpq_mat([[q.get(m, 0) for m in mons] for q in polys]).rref()[0]
    rows = [[mat[i, j] for j in range(len(mons))] for i in range(mat.nrows())]
    return [{m: c for m, c in zip(mons, row, strict=True) if c != 0}
            for row in rows if any(c != 0 for c in row)]


def derivative_span_ranks(net, coordinate: int = 0) -> list[int]:
    """The rank of each block g = 0..C of a plain network's C_F, computed as the dimension
    of the span of the order-(C - g) derivatives of the g_j (the rows of block g, module
    docstring): derivatives taken term by term, each order's span kept as an exact basis.

    An independent path to the block ranks (it shares no code with the route's
    catalecticant blocks, evaluations or kernels), for small networks only: the bases hold
    up to M(D, g) polynomials of M(D, g) terms.

    >>> from seprank.models import SelfAttentionNetwork
    >>> derivative_span_ranks(SelfAttentionNetwork(1, 3, 3, weights=depth_one_witness(3, 3)))
    [1, 3]
    """
    from seprank.network_theory.moment_form import moment_polynomials, token_family

    fam = token_family(net, coordinate)
    if fam.mixed:
        raise ValueError("derivative_span_ranks: plain networks only (the blocks of a "
                         "residual network mix degrees)")
    C, D = fam.degree, fam.n_vars
    layer = _span_basis([{tuple(m): int(c) for m, c in zip(q.monoms(), q.coeffs(), strict=True)}
                         for q in moment_polynomials(fam)])
    ranks = [len(layer)]                        # block C: the g_j themselves
    for _ in range(C):                          # one order more: block C - 1, C - 2, ...
        nxt = []
        for q in layer:
            for v in range(D):
                dq: dict = {}
                for m, c in q.items():
                    if m[v]:
                        e = m[:v] + (m[v] - 1,) + m[v + 1:]
                        dq[e] = dq.get(e, 0) + c * m[v]
                if dq:
                    nxt.append(dq)
        layer = _span_basis(nxt)
        ranks.append(len(layer))
    return ranks[::-1]
