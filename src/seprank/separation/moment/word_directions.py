"""Annihilators of a single-head network's g_j along rank-one directions of its word.

Setting (:mod:`seprank.separation.moment.apolar`; plain tokens, one head, no residual
connection). With H = 1 each layer is M_l = P_l S_l B_l, P_l = O_l V_l and
B_l = K_l^T Q_l (:mod:`seprank.network_theory.moment_form`), so G_L(S) is a single
product of C = C(L) copies of S with fixed matrices between them (the *word*):

    G_1 = P_1 . S . B_1;   if G_l = A . S X_1 S ... X_{c-1} S . R then
    G_{l+1} = P_{l+1} G_l S G_l^T B_{l+1} G_l = (P_{l+1} A) . S X_1 S ... S . R
    with the gaps X_1..X_{c-1}, R, R^T, X_{c-1}^T..X_1^T, A^T B_{l+1} A, X_1..X_{c-1}.

Hence every g_j(S) = a^T S X_1 S X_2 ... X_{C-1} S r_j with a = A^T e_p (p the output
coordinate) and r_j = R e_j. (Checked against the expansion of G_L in
tests/test_word_directions.py.)

Lemma (degree along a rank-one direction). Let w be a vector (over any field holding
the weights), V = w w^T, T a set of gap indices with w^T X_i w = 0 for i in T, and
``first`` whether a^T w = 0. Expanding g_j(S + s V) over the positions that take V,
a term with V at two adjacent positions i, i+1 carries the factor w^T X_i w, and a term
with V at position 1 carries a^T w. So deg_s g_j(S + s V) <= f, the largest set of
positions with no two adjacent across a gap in T (and without position 1 if
``first``): a path's largest independent set, :func:`free_degree`. The coefficient of
s^k in g_j(S + s V) is (V . d)^k g_j / k!, so the operator (V . d)^(f+1), an element
of degree k = f + 1, annihilates every g_j: it lies in Ann_k, the column kernel of
block k of the catalecticant (apolar.py). Since w^T X w = w^T (X + X^T) w / 2, T is
chosen as a union of classes of gaps with proportional symmetric parts.

Points (:func:`base_points`). With ``first`` the w lie in the hyperplane a^T w = 0, of
dimension d' = d - 1 (else d' = d); n = d' - 1 classes give n quadrics in P^(d'-1),
which meet in 2^n points (Bezout) when the intersection is finite and transversal. They
are found exactly: a random rational chart, then a lex Groebner basis over Q (SymPy) in
shape position y_i = h_i(y_n), phi(y_n) = 0 with phi squarefree of degree 2^n. Then the
2^n points are distinct and simple, with coordinates in A = Q[lambda]/(phi).

Rational vectors. The operators (V_i . d)^k have algebraic coefficients; their traces
Tr_{A/Q}(lambda^j (V(lambda) . d)^k) = sum_i lambda_i^j (V_i . d)^k, j < 2^n, are
rational, lie in Ann_k, and span the same space (a Vandermonde matrix in the distinct
lambda_i). The route needs them only mod its prime p (the apolar ideal selects vectors
independent mod p): the traces are computed in F_p[lambda]/(phi mod p) (every
denominator of the shape basis a unit mod p), which is their reduction mod p. m'
vectors independent mod p are independent over Q: rank(block k) <= cols_k - m' for this
network.

For every weight. The points are simple, so they persist (implicit functions) and stay
distinct on a neighbourhood of these weights, and the m' operators stay independent
there (an open condition). rank(block k) <= cols_k - m' is closed (minors vanish) and
holds on an open set, so it holds for every weight: a cap of the generic rank, not only
of this network's.

Residual connections (:func:`residual_free_degree`). With a skip connection at every
layer, G_1 = I + P_1 S B_1 = P_1 (S + Z) B_1 with Z = P_1^-1 B_1^-1 where P_1 and B_1 are
invertible (an open dense set of weights), and G_{l+1} = G_l + P_{l+1} G_l S G_l^T
B_{l+1} G_l (the identity of the skip times G_l). So G_L is a sum of *sub-words*: from
the sub-words X, Y, Z of the three copies of G_l, either X alone (the skip) or
P_{l+1} X S Y^T B_{l+1} Z; G_1 has the one sub-word P_1 (S + Z) B_1. Each sub-word is a
word as above whose positions hold S or S + Z (the lemma holds with any fixed matrix
added at a position: only the positions that take V carry s), and whose gaps are
products of the weights. A gap equal, as a product of the same named factors (or its
transpose), to a killed gap of the plain word has w^T X w = 0; every other gap is taken
as open, and position 1 is closed only when the sub-word's left factor is the plain
word's. When every sub-word's free degree stays below k, (w w^T . d)^k kills the
residual g_j as well; the rank of the residual matrix's columns of order <= s then drops
by the m' annihilators (k <= s), for every weight by the closure argument above.
Residual L = 3, d_x = 4, H = 1: the 10 sub-words have free degree <= 6 < 7.

Found by looking at the kernel of generic L = 3, d_x = 4, H = 1's block 7 (4 vectors
mod p): they are the 7th powers of (w_i w_i^T . d), w_i the 4 points of a^T w = 0,
w^T B_1 w = 0, w^T (P_1^T B_2 P_1) w = 0 (the word's gaps other than the one class
N = P_1^T P_2^T B_3 P_2 P_1 leave at most 6 positions free).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from itertools import product as itertools_product
from math import comb

import flint
import numpy as np

from seprank.network_theory.moment_form import moment_pairs
from seprank.separation.moment.apolar import independent_rows
from seprank.separation.moment.blocks import exponents

__all__ = ["Word", "single_head_word", "free_degree", "direction_conditions",
           "base_points", "trace_vectors", "word_annihilators", "residual_free_degree",
           "MAX_WORD_DIM"]

#: Largest d_x the points are solved for (n = d_x - 2 quadrics, 2^n points; SymPy's
#: Groebner basis grows fast with n).
MAX_WORD_DIM = 6


@dataclass(frozen=True)
class Word:
    """g_j(S) = a^T S X_1 S ... X_{C-1} S r_j (module docstring): ``a`` (d x 1),
    ``gaps`` (C - 1 matrices) and ``right`` (R, d x d: r_j = R e_j), exact (python-flint
    ``fmpq_mat``).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> w = single_head_word(token_family(SelfAttentionNetwork.random(2, 2, 1, seed=0), 0))
    >>> len(w.gaps), w.a.nrows()            # C = 4 copies of S
    (3, 2)
    """

    a: flint.fmpq_mat
    gaps: list
    right: flint.fmpq_mat

    @property
    def C(self) -> int:
        return len(self.gaps) + 1


def _fmpq(arr) -> flint.fmpq_mat:
    a = np.asarray(arr, dtype=object)
    return flint.fmpq_mat([[flint.fmpq(Fraction(x).numerator, Fraction(x).denominator)
                            for x in row] for row in a])


def single_head_word(fam) -> Word | None:
    """The word of a plain token family with one head (module docstring); None for any
    other family (several heads, residual connections, a shift, an embedding).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> single_head_word(token_family(SelfAttentionNetwork.random(1, 2, 2, seed=0), 0)) is None
    True
    """
    net = fam.net
    if net.H != 1 or fam.mixed or fam.label != "tokens":
        return None
    W = net.weights
    left = right = None
    gaps: list = []
    for layer in range(net.L):
        P = _fmpq(W["O"][layer, 0]) * _fmpq(W["V"][layer, 0])
        B = _fmpq(W["K"][layer, 0]).transpose() * _fmpq(W["Q"][layer, 0])
        if left is None:
            left, right = P, B
            continue
        gaps = (gaps + [right, right.transpose()] + [g.transpose() for g in reversed(gaps)]
                + [left.transpose() * B * left] + gaps)
        left = P * left
    return Word(left.transpose() * _unit(net.d_x, fam.coordinate), gaps, right)


def _unit(d: int, i: int) -> flint.fmpq_mat:
    return flint.fmpq_mat([[int(k == i)] for k in range(d)])


def free_degree(n_positions: int, killed: set[int], first: bool) -> int:
    """The largest set of positions 1..n with no two adjacent across a killed gap
    (gap i joins positions i and i + 1), without position 1 when ``first``.

    >>> free_degree(13, {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12}, True)    # gap 9 open
    6
    >>> free_degree(4, set(), False), free_degree(4, {1, 2, 3}, False)
    (4, 2)
    """
    take, skip = (-1, 0) if first else (1, 0)      # best with / without the last position
    for i in range(2, n_positions + 1):
        joined = (i - 1) in killed
        take, skip = 1 + (skip if joined else max(take, skip)), max(take, skip)
    return max(take, skip)


def _sym_classes(gaps: list) -> tuple[list[tuple[flint.fmpq_mat, list[int]]], set[int]]:
    """Gap indices (1-based) grouped by symmetric part up to a nonzero factor, and the
    gaps whose symmetric part is 0 (w^T X w = 0 for every w: always killed)."""
    classes: list = []
    always: set[int] = set()
    for i, X in enumerate(gaps, start=1):
        S = X + X.transpose()
        lead = next((x for x in S.entries() if x != 0), None)
        if lead is None:
            always.add(i)
            continue
        key = S * (1 / lead)
        for cls in classes:
            if cls[0] == key:
                cls[1].append(i)
                break
        else:
            classes.append((key, [i]))
    return classes, always


def direction_conditions(word: Word, d: int) -> list[dict]:
    """Every choice of conditions with finitely many points (module docstring), as dicts
    ``first``, ``quadrics`` (symmetric fmpq_mat, one per class), ``degree`` k (the
    annihilators' order) and ``points`` (2^n, Bezout), by increasing k.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> net = SelfAttentionNetwork.random(3, 4, 1, seed=0, nonzero=True)
    >>> best = direction_conditions(single_head_word(token_family(net, 0)), 4)[0]
    >>> best["first"], best["degree"], best["points"]
    (True, 7, 4)
    """
    classes, always = _sym_classes(word.gaps)
    zero_a = all(x == 0 for x in word.a.entries())
    out = []
    for first in (True, False):
        n = d - int(first) - 1
        if n < 0 or n > len(classes) or (first and zero_a):
            continue
        for chosen in combinations(range(len(classes)), n):
            killed = always | {i for c in chosen for i in classes[c][1]}
            k = free_degree(word.C, killed, first) + 1
            if k <= word.C:
                out.append({"first": first, "quadrics": [classes[c][0] for c in chosen],
                            "degree": k, "points": 2**n, "killed": sorted(killed)})
    return sorted(out, key=lambda c: (c["degree"], -c["points"]))


def base_points(word: Word, cond: dict, seed: int = 0, tries: int = 3):
    """The 2^n points of ``cond`` exactly (module docstring): (w, phi) with w the d
    coordinates of w(lambda) as SymPy polynomials in lambda reduced mod phi, and phi the
    monic squarefree polynomial of degree 2^n (SymPy ``Poly`` over QQ); None when no
    chart of ``tries`` puts the points in shape position.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> net = SelfAttentionNetwork.random(3, 4, 1, seed=0, nonzero=True)
    >>> word = single_head_word(token_family(net, 0))
    >>> w, phi = base_points(word, direction_conditions(word, 4)[0])
    >>> len(w), phi.degree()
    (4, 4)
    """
    import sympy

    d = word.a.nrows()
    B = _hyperplane_basis(word.a) if cond["first"] else _identity(d)
    dp = B.ncols()
    n = dp - 1
    lam = sympy.Symbol("lam")
    ys = sympy.symbols(f"y1:{n + 1}") if n else ()
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        T = flint.fmpq_mat([[int(v) for v in row] for row in rng.integers(-9, 10, (dp, dp))])
        if T.det() == 0:
            continue
        BT = _sympy_mat(B * T)
        if n == 0:                       # one point, the line itself
            return [sympy.Poly(c, lam) for c in BT], sympy.Poly(lam, lam)
        z = sympy.Matrix([1, *ys])
        polys = [sympy.expand((z.T * BT.T * _sympy_mat(X) * BT * z)[0, 0])
                 for X in cond["quadrics"]]
        shape = _shape(list(sympy.groebner(polys, *ys, order="lex").exprs), ys)
        if shape is None:
            continue
        hs, phi = shape
        phi = sympy.Poly(phi.as_expr().subs(ys[-1], lam), lam)
        if phi.degree() != 2**n or sympy.gcd(phi, phi.diff(lam)).degree() > 0:
            continue
        coords = sympy.Matrix([1, *[h.as_expr().subs(ys[-1], lam) for h in hs], lam])
        return [sympy.Poly(sympy.expand(v), lam).rem(phi) for v in BT * coords], phi
    return None


def _identity(d: int) -> flint.fmpq_mat:
    return flint.fmpq_mat([[int(i == j) for j in range(d)] for i in range(d)])


def _sympy_mat(M: flint.fmpq_mat):
    import sympy

    return sympy.Matrix(M.nrows(), M.ncols(),
                        [sympy.Rational(int(x.p), int(x.q)) for x in M.entries()])


def _hyperplane_basis(a: flint.fmpq_mat) -> flint.fmpq_mat:
    """A rational basis (d x (d - 1), as columns) of the hyperplane a^T w = 0."""
    d = a.nrows()
    piv = next(i for i in range(d) if a[i, 0] != 0)
    cols = []
    for j in range(d):
        if j != piv:
            v = [flint.fmpq(0)] * d
            v[j] = flint.fmpq(1)
            v[piv] = -a[j, 0] / a[piv, 0]
            cols.append(v)
    return flint.fmpq_mat([[cols[c][i] for c in range(d - 1)] for i in range(d)])


def _shape(exprs: list, ys: tuple):
    """(h_1..h_{n-1}, phi) from a reduced lex Groebner basis in shape position
    (y_i - h_i(y_n) for i < n, then phi(y_n)), else None."""
    import sympy

    n = len(ys)
    if len(exprs) != n:
        return None
    last = sympy.Poly(exprs[-1], *ys)
    if any(last.degree(y) > 0 for y in ys[:-1]):
        return None
    hs = []
    for i, e in enumerate(exprs[:-1]):
        poly = sympy.Poly(e, *ys)
        if poly.degree(ys[i]) != 1 or any(poly.degree(y) > 0 for j, y in
                                          enumerate(ys[:-1]) if j != i):
            return None
        coeff = poly.coeff_monomial(ys[i])
        rest = sympy.expand(-(poly.as_expr() - coeff * ys[i]) / coeff)
        if rest.has(ys[i]):
            return None
        hs.append(sympy.Poly(rest, ys[-1]))
    return hs, sympy.Poly(exprs[-1], ys[-1]).monic()


def _mod_p(poly, p: int) -> flint.nmod_poly | None:
    """A SymPy polynomial over QQ reduced mod p (None: a denominator divisible by p)."""
    coeffs = []
    for c in reversed(poly.all_coeffs()):
        num, den = int(c.p), int(c.q)
        if den % p == 0:
            return None
        coeffs.append(num * pow(den, -1, p) % p)
    return flint.nmod_poly(coeffs, p)


def trace_vectors(w: list, phi, k: int, pairs: list, cols: np.ndarray, p: int
                  ) -> list[tuple[int, ...]] | None:
    """The vectors Tr(lambda^j (V(lambda) . d)^k) mod p, j < deg phi (module docstring),
    over the degree-k exponents ``cols`` (apolar.py's convention: the coefficient of
    d^gamma), V = w w^T read in the moment variables t_e = S_ab, e = (a, b) in ``pairs``;
    None when phi or w has a denominator divisible by p.

    >>> import sympy
    >>> lam = sympy.Symbol("lam")
    >>> w = [sympy.Poly(1, lam), sympy.Poly(0, lam)]       # w = e_0: V . d = d_(0,0)
    >>> cols = np.array([[2, 0, 0], [1, 1, 0], [0, 2, 0], [1, 0, 1], [0, 1, 1], [0, 0, 2]])
    >>> trace_vectors(w, sympy.Poly(lam, lam), 2, [(0, 0), (0, 1), (1, 1)], cols, 101)
    [(1, 0, 0, 0, 0, 0)]
    """
    f = _mod_p(phi, p)
    wm = [_mod_p(c, p) for c in w]
    if f is None or any(c is None for c in wm):
        return None
    m = f.degree()

    def mult(x: flint.nmod_poly) -> np.ndarray:   # multiplication by x on 1, .., lambda^(m-1)
        basis = [flint.nmod_poly([0] * i + [1], p) for i in range(m)]
        return np.array([[_coeff((b * x) % f, r) for b in basis] for r in range(m)],
                        dtype=np.int64)

    cols = np.asarray(cols, dtype=np.int64)
    dt = np.int64 if m * (p - 1) ** 2 < 2**63 else object    # exact sums of m products
    Y = np.zeros((len(cols), m), dtype=dt)
    Y[:, 0] = 1                                          # the element 1 of the algebra
    for e, (a, b) in enumerate(pairs):                   # times v_e^gamma_e, e by e
        M = mult((wm[a] * wm[b]) % f).astype(dt)
        power = np.eye(m, dtype=np.int64).astype(dt)
        for j in range(1, int(cols[:, e].max(initial=0)) + 1):
            power = power @ M % p
            rows = cols[:, e] == j
            Y[rows] = Y[rows] @ power.T % p
    fact = [1] * (k + 1)
    for i in range(1, k + 1):
        fact[i] = fact[i - 1] * i % p
    inv = np.array([pow(x, -1, p) for x in fact], dtype=dt)
    scale = np.full(len(cols), fact[k], dtype=dt)
    for e in range(cols.shape[1]):                       # k! / gamma!
        scale = scale * inv[cols[:, e]] % p
    Y = Y * scale[:, None] % p
    lam_pows = [flint.nmod_poly([0] * i + [1], p) % f for i in range(2 * m - 1)]
    sums = [sum(_coeff((lam_pows[s] * lam_pows[i]) % f, i) for i in range(m)) % p
            for s in range(2 * m - 1)]                   # Tr(lambda^s), s <= 2m - 2
    hankel = np.array([[sums[i + j] for j in range(m)] for i in range(m)], dtype=dt)
    out = Y @ hankel % p
    return [tuple(int(x) for x in out[:, j]) for j in range(m)]


def _tr(expr: tuple) -> tuple:
    """The transpose of a product of named factors (a trailing ' marks a transpose)."""
    return tuple(x[:-1] if x.endswith("'") else x + "'" for x in reversed(expr))


def _symbolic_word(L: int) -> tuple[tuple, list[tuple], tuple]:
    """(left, gaps, right) of the plain word as products of named factors P_l = O_l V_l
    and B_l = K_l^T Q_l (the recursion of :func:`single_head_word`)."""
    left, gaps, right = ("P1",), [], ("B1",)
    for layer in range(2, L + 1):
        gaps = (gaps + [right, _tr(right)] + [_tr(g) for g in reversed(gaps)]
                + [_tr(left) + (f"B{layer}",) + left] + gaps)
        left = (f"P{layer}",) + left
    return left, gaps, right


def residual_free_degree(L: int, killed, first: bool) -> tuple[int, int]:
    """(largest free degree over the sub-words of the residual G_L, number of sub-words)
    for the plain word's ``killed`` gaps (1-based) and ``first`` (module docstring,
    "Residual connections"); a function of the names of the factors alone, so it holds
    for every weight where P_1 and B_1 are invertible.

    >>> residual_free_degree(3, set(range(1, 13)) - {9}, True)   # L = 3, d_x = 4, H = 1
    (6, 10)
    >>> residual_free_degree(2, set(), False)                    # nothing killed: 4
    (4, 2)
    """
    if L < 1 or L > 4:
        raise ValueError(f"residual_free_degree: L = {L} (1 <= L <= 4: 1010 sub-words at 4)")
    plain_left, plain_gaps, _ = _symbolic_word(L)
    closed = {plain_gaps[i - 1] for i in killed}
    closed |= {_tr(g) for g in closed}
    subs = [(("P1",), [], ("B1",))]                     # G_1 = P_1 (S + Z) B_1
    for layer in range(2, L + 1):
        grown = []
        for (lx, gx, rx), (ly, gy, ry), (lz, gz, rz) in itertools_product(subs, repeat=3):
            gaps = (gx + [rx, _tr(ry)] + [_tr(g) for g in reversed(gy)]
                    + [_tr(ly) + (f"B{layer}",) + lz] + gz)
            grown.append(((f"P{layer}",) + lx, gaps, rz))
        subs = subs + grown                             # the skip keeps G_l's sub-words
    worst = 0
    for left, gaps, _ in subs:
        shut = {i for i, g in enumerate(gaps, start=1) if g in closed}
        worst = max(worst, free_degree(len(gaps) + 1, shut, first and left == plain_left))
    return worst, len(subs)


def _coeff(poly: flint.nmod_poly, i: int) -> int:
    return int(poly[i]) if i <= poly.degree() else 0


def word_annihilators(fam, p: int, *, seed: int = 0, max_entries: int = 2**24) -> dict | None:
    """Annihilators of the g_j from the word's rank-one directions (module docstring),
    mod p: ``degree`` k, ``vectors`` (residues mod ``prime`` = p of rational vectors of
    Ann_k, over the degree-k exponents), ``independent`` (how many of them are independent
    mod p, so over Q), ``points`` 2^n, ``conditions`` (a sentence),
    ``killed`` (the gaps with w^T X w = 0, 1-based) and ``first`` (a^T w = 0). The first choice of
    conditions (least k) whose block k has more rows than columns (where annihilators
    lower the bound) and whose points are found; None when none is (one head, plain tokens,
    d_x <= MAX_WORD_DIM only) or past ``max_entries`` vector entries.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> net = SelfAttentionNetwork.random(3, 4, 1, seed=0, nonzero=True)
    >>> found = word_annihilators(token_family(net, 0), 1048573)
    >>> found["degree"], found["points"], len(found["vectors"]), len(found["vectors"][0])
    (7, 4, 4, 11440)
    >>> found["independent"]
    4
    """
    word = single_head_word(fam)
    d = fam.d
    if word is None or d > MAX_WORD_DIM or d < 2:
        return None
    D, C, r = fam.n_vars, word.C, fam.n_rows
    for cond in direction_conditions(word, d):
        k = cond["degree"]
        cols = comb(D + k - 1, k)
        if cols >= r * comb(D + C - k - 1, C - k) or cols * cond["points"] > max_entries:
            continue
        found = base_points(word, cond, seed=seed)
        if found is None:
            continue
        vectors = trace_vectors(*found, k, moment_pairs(d), exponents(D, k), p)
        if vectors is None:
            continue
        n = len(cond["quadrics"])
        text = (f"{cond['points']} points w with "
                + ("a^T w = 0 and " if cond["first"] else "")
                + f"w^T X w = 0 for {n} class{'es' * (n != 1)} of gaps X of the word: "
                f"(w w^T . d)^{k} kills every g_j (at most {k - 1} positions take w w^T)")
        own = len(independent_rows(np.array(vectors, dtype=np.int64), p))
        return {"degree": k, "vectors": vectors, "independent": own,
                "points": cond["points"], "prime": p,
                "conditions": text, "killed": cond["killed"], "first": cond["first"]}
    return None
