"""The moment form y = G_L(S) x of the analyzed network and the separation-rank bound it gives.

An object several papers share (levine2020 eq. (3); wies2021 eq. (5)): the repaired
argument for the upper bounds of wies2021 (Theorem 3, A.2 l.375-441; Theorem 1,
l.127-135), written for the ``W-Thm1`` row, and for levine2020's Theorems 4 and 6.
The comparisons with a paper's printed bound live in that paper's wing
(:mod:`seprank.papers.wies2021.moment_comparison`).

The moment form
---------------
One layer of the analyzed network (wies2021 eq. (5), l.108; levine2020 eq. (3))
maps position i to

    y^{l+1,i} = sum_h W^O_h W^V_h sum_j <W^Q_h y^{l,i}, W^K_h y^{l,j}> y^{l,j}
              = sum_h W^O_h W^V_h S_l (W^K_h)^T W^Q_h y^{l,i},

with the *moment matrix* S_l = sum_j y^{l,j} (y^{l,j})^T (move the scalar
inner product to the right and sum over j). If y^{l,j} = G_l y^{0,j} for every j
with one matrix G_l, then S_l = G_l S G_l^T with S = S_0, and

    G_0 = I,    G_{l+1} = sum_h W^O_h W^V_h G_l S G_l^T (W^K_h)^T W^Q_h G_l,

so y^{L,i} = G_L(S) y^{0,i}, where G_L is a matrix polynomial in S, homogeneous
of degree C(L) = (3^L - 1)/2 (deg G_{l+1} = 3 deg G_l + 1).

The bound
---------
With a rank-r vocabulary matrix and a rank-r_e positional embedding (eq. (10),
l.385), y^{0,j} = F u^j with u^j in R^s, s = r + r_e (u^j stacks the token's
r coordinates and position j's r_e coordinates), so S = F S_u F^T with
S_u = sum_j u^j (u^j)^T, a symmetric s x s matrix: D = s(s+1)/2 entries. For a
balanced partition (P, Q), S_u = S_u^P + S_u^Q, each part a function of its
own side's tokens. The output y_p^i = sum_gamma u^i_gamma g_gamma(S_u) with g_gamma
homogeneous of degree C in D variables; expanding g_gamma(S^P + S^Q) by Taylor's
formula in S^P gives at most ((D+1, C)) = C(D + C, C) separable terms per gamma,
hence

    sep(y_p^i) <= s ((s(s+1)/2 + 1, C(L)))                (moment bound)

for every N, H, d_a and d_x, and every partition of the positions (for the
convolution embedding, every partition that does not split a patch).
Since ((D+1, C)) <= (C + 1)^D, log sep <= log s + D L log 3 = O(L s^2).

Exact matrix polynomials (what the moment route ranks)
------------------------------------------------------

The recursion (levine2020 eq. (3), sec. 2.2 l.71-77; residual: A.4 l.478-484)
---------------------------------------------------------------------------
Write one head of layer l as x^i -> O_h V_h (sum_j x^j x^jT) K_h^T Q_h x^i: the
score <Q_h x^i, K_h x^j> is a scalar, so it can move to the right of x^j, and
the sum over j collects S = sum_j x^j x^jT. If every position of layer l is
y^{l,j} = G_l x^j with one matrix G_l, its moment matrix is
S_l = G_l S G_l^T and

    M_l = sum_h O_h (V_h S_l K_h^T) Q_h,          G_{l+1} = M_l G_l
                                                  (residual: (I + M_l) G_l),

starting from G_0 = I. So y^{L,i} = G_L(S) x^i for every position i, with
G_L a matrix polynomial in the D = d(d+1)/2 entries S_ab (a <= b) of the
symmetric S: homogeneous of degree C(L) = (3^L - 1)/2 without residual
connections (deg G_{l+1} = 3 deg G_l + 1), of every degree 0..C(L) with them.

Families (what the route ranks)
-------------------------------
A :class:`MomentFamily` is the scalar polynomial

    F(xi, t) = e_p^T G_L(S(t)) P xi,      S(t) = E_0 + sum_e t_e E_e,

with E_e symmetric d x d matrices, an optional constant shift E_0 (default 0;
used for vocabularies whose moments lie on an affine hyperplane) and P a d x r
matrix. Plain tokens use the
unit symmetric matrices (E_ab = e_a e_b^T + e_b e_a^T for a < b, e_a e_a^T on the
diagonal, so that t_ab = S_ab: an off-diagonal entry of S is one variable,
which occurs at (a, b) and (b, a)) and P = I. wies2021's embeddings give other
E_e and P (:mod:`seprank.separation.moment.embedding`).
:func:`moment_polynomials` returns the r polynomials g_j(t) = (e_p^T G_L(S(t)) P)_j
in python-flint rings: ``fmpz_mpoly`` (integer data), ``fmpq_mpoly``
(rational) or ``nmod_mpoly`` mod a prime. Cost: the last layer dominates, d^2
products of a polynomial of degree 2 C(L-1) + 1 by one of degree C(L-1) in D
variables (measured: L = 3, d = 4, H = 2, 4 x 497420 terms, about 10 s exact
on 2 shared cores).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import flint
import numpy as np

from seprank.combinatorics import multiset, num_head_indices
from seprank.errors import InputError, ParameterError
from seprank.scalars.enclosures import int_at_least

__all__ = ["moment_matrix", "moment_form_output", "moment_form_matrix", "moment_bound",
           "MomentFamily", "token_family", "moment_pairs", "moment_polynomials", "moment_factors",
           "moment_matrix_exact", "moment_output_exact", "degree_C", "family_fraction",
           "dense_terms"]


def moment_matrix(X: object) -> np.ndarray:
    """S = sum_j x^j (x^j)^T for the rows x^j of X (shape N x d), exact.

    Examples
    --------
    >>> moment_matrix([[1, 2], [3, 0]]).tolist()
    [[10, 2], [2, 4]]
    """
    A = np.asarray(X, dtype=object)
    return A.T.dot(A)


def moment_form_output(net: object, X: object, position: int) -> np.ndarray:
    """G_L(S) x^{position} for a network without residual connections (module docstring).

    ``net`` is a :class:`seprank.models.SelfAttentionNetwork`; ``X`` one input
    (N x d_x, exact entries). Equal to ``net.evaluate([X])[0, position]``; the
    check W-Thm1 tests that equality exactly.

    Examples
    --------
    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(L=2, d_x=2, H=1, seed=1)
    >>> X = [[1, 2], [0, -1], [3, 1]]
    >>> moment_form_output(net, X, 2).tolist() == net.evaluate([X], "ZZ")[0, 2].tolist()
    True
    """
    if getattr(net, "residual", False):
        raise ValueError("the moment form is for networks without residual connections")
    A = np.asarray(X, dtype=object)
    return moment_form_matrix(net, moment_matrix(A)).dot(A[position])


def moment_form_matrix(net: object, S: object) -> np.ndarray:
    """G_L(S) for a plain or a residual network, exact (module docstring).

    Plain: G_{l+1} = sum_h W^O W^V G_l S G_l^T (W^K)^T W^Q G_l; residual (each layer
    adds its input, levine2020 A.4 l.478-484): G_{l+1} = G_l + the same sum. ``S`` is a
    d_x x d_x array (numbers or sympy expressions); ``G.dot(x^i)`` is the output at a
    position i whose input is x^i when S = sum_j x^j x^j^T.

    Examples
    --------
    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(L=2, d_x=2, H=1, seed=1, residual=True)
    >>> X = np.array([[1, 2], [0, -1], [3, 1]], dtype=object)
    >>> G = moment_form_matrix(net, moment_matrix(X))
    >>> G.dot(X[2]).tolist() == net.evaluate([X], "ZZ")[0, 2].tolist()
    True
    """
    S = np.asarray(S, dtype=object)
    G = np.array([[int(a == b) for b in range(net.d_x)] for a in range(net.d_x)], dtype=object)
    w = net.weights
    for layer in range(net.L):
        SG = G.dot(S).dot(G.T)
        nxt = G.copy() if getattr(net, "residual", False) else \
            np.zeros((net.d_x, net.d_x), dtype=object)
        for h in range(net.H):
            Q, K, V, O = (w[k][layer, h] for k in "QKVO")
            nxt = nxt + O.dot(V).dot(SG).dot(K.T).dot(Q).dot(G)
        G = nxt
    return G


def moment_bound(L: int, s: int) -> int:
    """The moment bound ``s ((s(s+1)/2 + 1, C(L)))`` on sep, s = r + r_e.

    Examples
    --------
    >>> moment_bound(1, 1)   # y = k v_i sum_j v_j^2: sep <= 1 * ((2, 1)) = 2
    2
    >>> moment_bound(2, 2)   # 2 * ((4, 4)) = 2 * 35
    70
    """
    L = int_at_least("L", L, 1)
    s = int_at_least("s", s, 1)
    return s * multiset(s * (s + 1) // 2 + 1, num_head_indices(L))


def degree_C(L: int) -> int:
    """C(L) = (3^L - 1)/2, the degree of G_L in S.

    >>> [degree_C(L) for L in (1, 2, 3, 4)]
    [1, 4, 13, 40]
    """
    return (3**L - 1) // 2


def moment_pairs(d: int) -> list[tuple[int, int]]:
    """The index pairs (a, b), a <= b, of the D = d(d+1)/2 free entries of a symmetric d x d.

    >>> moment_pairs(2)
    [(0, 0), (0, 1), (1, 1)]
    """
    return [(a, b) for a in range(d) for b in range(a, d)]


def _exact(x: object, where: str) -> int | Fraction:
    if isinstance(x, bool) or not isinstance(x, (int, Fraction, np.integer)):
        raise ParameterError(f"{where} must be an integer or Fraction for the moment route, "
                             f"got {x!r} ({type(x).__name__})")
    return int(x) if isinstance(x, np.integer) else x


def _exact_array(arr: object, where: str) -> np.ndarray:
    a = np.asarray(arr, dtype=object)
    out = np.empty(a.shape, dtype=object)
    for idx, x in np.ndenumerate(a):
        out[idx] = _exact(x, where)
    return out


@dataclass(frozen=True)
class MomentFamily:
    """F(xi, t) = e_p^T G_L(S(t)) P xi with S(t) = sum_e t_e E_e (module docstring).

    ``net``: the :class:`~seprank.models.SelfAttentionNetwork`; ``coordinate``: p
    (0-based); ``basis``: E, an object array (D', d, d) of symmetric exact
    matrices; ``inputs``: P, an object array (d, r); ``label``: where the family
    comes from ("tokens", "vocabulary", "convolution"); ``notes``: a sentence;
    ``shift``: E_0 (d, d) or None. ``mixed``: g_j has several degrees (residual
    connections or a shift), so C_F is ranked whole.

    >>> from seprank.models import SelfAttentionNetwork
    >>> fam = token_family(SelfAttentionNetwork.random(2, 2, 1, seed=1), 0)
    >>> fam.n_vars, fam.n_rows, fam.degree, fam.residual
    (3, 2, 4, False)
    """

    net: object
    coordinate: int
    basis: np.ndarray
    inputs: np.ndarray
    label: str = "tokens"
    notes: str = ""
    shift: np.ndarray | None = None

    @property
    def d(self) -> int:
        return self.net.d_x

    @property
    def n_vars(self) -> int:
        """D': the number of moment variables t_e."""
        return self.basis.shape[0]

    @property
    def n_rows(self) -> int:
        """r: the length of xi (the linear variables)."""
        return self.inputs.shape[1]

    @property
    def degree(self) -> int:
        return degree_C(self.net.L)

    @property
    def residual(self) -> bool:
        return bool(self.net.residual)

    @property
    def mixed(self) -> bool:
        return self.residual or self.shift is not None


def check_net(net) -> None:
    """Refuse a network whose weights are not exact (ints or Fractions): the moment route
    computes over Q.

    >>> from seprank.models import SelfAttentionNetwork
    >>> check_net(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", [[[[2]]]])))
    """
    for k in "QKVO":
        for w in net.weights[k].flat:
            _exact(w, f"weight {w!r} in W^{k}")


def token_family(net, coordinate: int) -> MomentFamily:
    """The family of plain tokens: E = unit symmetric matrices (t_ab = S_ab), P = I.

    Raises ParameterError for a coordinate out of range or complex/float weights.

    >>> from seprank.models import SelfAttentionNetwork
    >>> fam = token_family(SelfAttentionNetwork.random(1, 2, 1, seed=0), 1)
    >>> fam.basis[1].tolist()        # the variable t_01 sits at (0, 1) and (1, 0)
    [[0, 1], [1, 0]]
    """
    d = net.d_x
    if isinstance(coordinate, bool) or not isinstance(coordinate, int) \
            or not 0 <= coordinate < d:
        raise ParameterError(f"coordinate must be an integer in 0..{d - 1}, got {coordinate!r}")
    check_net(net)
    pairs = moment_pairs(d)
    E = np.zeros((len(pairs), d, d), dtype=object)
    for e, (a, b) in enumerate(pairs):
        E[e, a, b] = E[e, b, a] = 1
    P = np.zeros((d, d), dtype=object)
    for a in range(d):
        P[a, a] = 1
    return MomentFamily(net, coordinate, E, P, "tokens",
                        "continuous tokens x^j in R^d_x (no embedding)")


def family_fraction(fam: MomentFamily) -> bool:
    """True when a weight, a basis matrix or P has a non-integer entry (then fmpq rings).

    >>> from seprank.models import SelfAttentionNetwork
    >>> family_fraction(token_family(SelfAttentionNetwork.random(1, 1, 1), 0))
    False
    """
    arrays = [fam.net.weights[k] for k in "QKVO"] + [fam.basis, fam.inputs]
    if fam.shift is not None:
        arrays.append(fam.shift)
    return any(Fraction(x).denominator != 1 for a in arrays for x in np.asarray(a).flat)


# -- exact numbers --------------------------------------------------------------------------

def _weights(net, layer: int, h: int) -> tuple[np.ndarray, ...]:
    return tuple(np.asarray(net.weights[k][layer, h], dtype=object) for k in "QKVO")


def moment_matrix_exact(net, S: object) -> np.ndarray:
    """G_L(S) for one symmetric S (exact ints/Fractions), by the recursion of the module
    docstring (residual connections included).

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> moment_matrix_exact(net, [[5]]).tolist()     # G_1(S) = S for all weights 1
    [[5]]
    """
    check_net(net)
    S = _exact_array(S, "S")
    d = net.d_x
    if S.shape != (d, d):
        raise InputError(f"S must be {d} x {d}, got shape {S.shape}")
    return moment_form_matrix(net, S)


def moment_output_exact(net, X: object, position: int) -> np.ndarray:
    """y^{L, position} = G_L(S) x^position with S = sum_j x^j x^jT, exact (X: N x d_x).

    Equal to ``net.evaluate([X], "QQ")[0, position]`` (tested, residual included).

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(2, 2, 1, seed=3, residual=True)
    >>> X = [[1, 2], [0, -1], [3, 1]]
    >>> moment_output_exact(net, X, 1).tolist() == net.evaluate([X], "QQ")[0, 1].tolist()
    True
    """
    A = _exact_array(X, "X")
    if A.ndim != 2 or A.shape[1] != net.d_x:
        raise InputError(f"X must be N x {net.d_x}, got shape {A.shape}")
    if isinstance(position, bool) or not isinstance(position, int) \
            or not 0 <= position < A.shape[0]:
        raise ParameterError(f"position must be in 0..{A.shape[0] - 1}, got {position!r}")
    return moment_matrix_exact(net, A.T.dot(A)).dot(A[position])


# -- polynomials ------------------------------------------------------------------------------

def _ring(kind: str, nvars: int, p: int | None):
    names = ("t", nvars)
    if kind == "fmpz":
        return flint.fmpz_mpoly_ctx.get(names, "deglex")
    if kind == "fmpq":
        return flint.fmpq_mpoly_ctx.get(names, "deglex")
    return flint.nmod_mpoly_ctx.get(names, modulus=p, ordering="deglex")


class _Scalars:
    """Exact numbers as coefficients of one flint ring (ints, fmpq, residues mod p)."""

    def __init__(self, kind: str, p: int | None):
        self.kind, self.p = kind, p

    def __call__(self, w: object):
        f = Fraction(w)
        if self.kind == "fmpz":
            return int(f)
        if self.kind == "fmpq":
            return flint.fmpq(f.numerator, f.denominator)
        if f.denominator % self.p == 0:
            raise InputError(f"the number {w} has a denominator divisible by p = {self.p}")
        return f.numerator * pow(f.denominator, -1, self.p) % self.p


def _cmat_poly(C: np.ndarray, P: list, zero, sc) -> list:
    """Constant matrix C (object) times polynomial matrix P (list of lists)."""
    out = []
    for i in range(C.shape[0]):
        row = []
        for j in range(len(P[0])):
            acc = zero
            for k in range(C.shape[1]):
                if C[i, k] != 0 and P[k][j] != 0:
                    acc = acc + sc(C[i, k]) * P[k][j]
            row.append(acc)
        out.append(row)
    return out


def _poly_cmat(P: list, C: np.ndarray, zero, sc) -> list:
    return [list(r) for r in zip(*_cmat_poly(C.T, [list(c) for c in zip(*P, strict=True)],
                                             zero, sc), strict=True)]


def _sandwich(G: list, S: list, zero) -> list:
    """G S G^T (symmetric), only the upper triangle multiplied."""
    d = len(G)
    GS = [[sum((G[i][k] * S[k][j] for k in range(d) if G[i][k] != 0 and S[k][j] != 0), zero)
           for j in range(d)] for i in range(d)]
    out = [[zero] * d for _ in range(d)]
    for a in range(d):
        for b in range(a, d):
            acc = zero
            for k in range(d):
                if GS[a][k] != 0 and G[b][k] != 0:
                    acc = acc + GS[a][k] * G[b][k]
            out[a][b] = out[b][a] = acc
    return out


def _head_sum(net, layer: int, Sl: list, zero, sc, rows=None) -> list:
    """Rows ``rows`` (default all) of M_l = sum_h O_h (V_h S_l K_h^T) Q_h."""
    acc = None
    for h in range(net.H):
        Q, K, V, O = _weights(net, layer, h)
        Oh = O if rows is None else O[list(rows)]
        inner = _poly_cmat(_cmat_poly(V, Sl, zero, sc), K.T, zero, sc)   # V S K^T
        term = _poly_cmat(_cmat_poly(Oh, inner, zero, sc), Q, zero, sc)
        acc = term if acc is None else [[a + b for a, b in zip(r1, r2, strict=True)]
                                        for r1, r2 in zip(acc, term, strict=True)]
    return acc


def _matmul(A: list, B: list, zero) -> list:
    return [[sum((A[i][k] * B[k][j] for k in range(len(B)) if A[i][k] != 0 and B[k][j] != 0),
                 zero) for j in range(len(B[0]))] for i in range(len(A))]


def moment_factors(fam: MomentFamily, *, p: int | None = None) -> tuple[list, list, list]:
    """(row, GP, extra): g_j = sum_k row_k GP[k][j] + extra_j, the last product of
    :func:`moment_polynomials` left undone (row = e_p^T M_L, the last layer's head sum,
    of degree 2 c + 1; GP = G_(L-1) P, of degree c = (C - 1) / 3; extra = the row p of GP
    with residual connections, zeros without). That product holds nearly all the work of
    the expansion (L = 3, d_x = 4: 16 products of 48620 by 715 terms):
    :mod:`seprank.separation.moment.expansion_mod` does it compiled, mod p.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(2, 1, 1, weights=dict.fromkeys("QKVO", one * 2))
    >>> row, GP, extra = moment_factors(token_family(net, 0))   # S^3 times S
    >>> [str(g) for g in row], [[str(g) for g in r] for r in GP], [str(g) for g in extra]
    (['t0^3'], [['t0']], ['0'])
    """
    kind = "nmod" if p is not None else ("fmpq" if family_fraction(fam) else "fmpz")
    sc = _Scalars(kind, p)
    ctx = _ring(kind, fam.n_vars, p)
    gens, zero = ctx.gens(), ctx.from_dict({})
    d, net = fam.d, fam.net
    S = [[zero if fam.shift is None else zero + sc(fam.shift[a, b]) for b in range(d)]
         for a in range(d)]
    for e in range(fam.n_vars):
        for a in range(d):
            for b in range(d):
                if fam.basis[e, a, b] != 0:
                    S[a][b] = S[a][b] + sc(fam.basis[e, a, b]) * gens[e]
    G = [[zero + int(a == b) for b in range(d)] for a in range(d)]
    for layer in range(net.L - 1):
        M = _head_sum(net, layer, _sandwich(G, S, zero), zero, sc)
        MG = _matmul(M, G, zero)
        G = [[MG[i][j] + G[i][j] for j in range(d)] for i in range(d)] if net.residual else MG
    GP = _poly_cmat(G, fam.inputs, zero, sc)
    row = _head_sum(net, net.L - 1, _sandwich(G, S, zero), zero, sc, rows=[fam.coordinate])
    extra = list(GP[fam.coordinate]) if net.residual else [zero] * fam.n_rows
    return row[0], GP, extra


def moment_polynomials(fam: MomentFamily, *, p: int | None = None) -> list:
    """The r polynomials g_j(t) = (e_p^T G_L(S(t)) P)_j of the family (module docstring).

    Variable e of the ring is t_e. Over ``fmpz_mpoly`` when the weights, E and P are
    integers, ``fmpq_mpoly`` when some is rational, ``nmod_mpoly`` with ``p``.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(2, 1, 1, weights=dict.fromkeys("QKVO", one * 2))
    >>> [str(g) for g in moment_polynomials(token_family(net, 0))]  # G_2 = S^3 S = S^4
    ['t0^4']
    """
    row, GP, extra = moment_factors(fam, p=p)
    zero = extra[0] - extra[0]
    return [a + b for a, b in zip(_matmul([row], GP, zero)[0], extra, strict=True)]


def dense_terms(n_vars: int, degree: int, *, up_to: bool = False) -> int:
    """Monomials of degree ``degree`` (or <= it) in n_vars variables: C(n+k-1, k) (C(n+k, k)).

    >>> dense_terms(10, 13), dense_terms(3, 4, up_to=True)
    (497420, 35)
    """
    if up_to:
        return comb(n_vars + degree, degree)
    return comb(n_vars + degree - 1, degree) if n_vars else int(degree == 0)
