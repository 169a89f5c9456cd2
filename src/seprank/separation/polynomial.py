"""The output of an eq. (3) network as an exact polynomial, and its coefficient matricization.

The mathematics (written down once here; :mod:`seprank.separation.coefficient` ranks it)
----------------------------------------------------------------------------------------
Variables: position n (0-based) and coordinate c of the input are the variable
``n * d_x + c`` (position-major). For a partition (I, J) of the positions, a
polynomial f is sum_{(a, b)} C[a, b] x_I^a x_J^b, with a running over the
exponent vectors of the I-variables and b over those of the J-variables.

* Separation rank = rank(C) (levine2020 eq. (5), l.104-112, for polynomials):
  ``sep <= rank(C)`` by factoring C = F G^T and regrouping; ``sep >= rank(C)``
  because distinct monomials are linearly independent functions, so any
  expression f = sum_r g_r(x_I) h_r(x_J) can be rewritten with polynomial g_r,
  h_r whose coefficient vectors span C (see also
  :mod:`seprank.constructions.known_seprank`).
* Blocks: group the rows of C by the I-degree |a| and the columns by the
  J-degree |b|. Two row groups and two column groups belong to the same
  *component* when some nonzero coefficient links them (union-find on the
  degrees). Distinct components share no row and no column, so C is a
  block-diagonal matrix up to a permutation and rank(C) is the sum of the
  ranks of the components. Without residual connections the output is
  homogeneous of degree D = 3^L (levine2020 l.75, Lemma 1 A.1), so every
  component pairs one I-degree k with the J-degree D - k: blocks of at most
  ((|I| d_x, k)) x ((|J| d_x, D - k)) entries ((n, k)) = C(n + k - 1, k).

Expansion
---------
:func:`network_polynomial` builds y_p^i with python-flint multivariate
polynomials (``fmpz_mpoly`` for integer weights, ``fmpq_mpoly`` for rational
ones, ``nmod_mpoly`` mod a prime), layer by layer as eq. (3) reads
(levine2020 sec. 2.2, l.71-75), with the skip connection x + y of A.4
(l.478-484) when ``residual``. Per head it forms K^T V = sum_j k_j v_j^T once
and reuses it for every query, and in the last layer it only forms the output
that is asked for: y_p^i = sum_h sum_b q_b^{h,i} w_b^h with
w_b^h = sum_j k_{j,b}^h (sum_a W^{O,h}_{p a} v_{j,a}^h), H d_a (N + 1)
products instead of 2 N H d_a^2.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import flint

from seprank.errors import InputError
from seprank.separation.route import WorkEstimate

__all__ = ["network_polynomial", "coefficient_blocks", "CoefficientBlock",
           "expansion_estimate"]


def _ctx(kind: str, nvars: int, p: int | None):
    names = ("x", nvars)
    if kind == "fmpz":
        return flint.fmpz_mpoly_ctx.get(names, "deglex")
    if kind == "fmpq":
        return flint.fmpq_mpoly_ctx.get(names, "deglex")
    return flint.nmod_mpoly_ctx.get(names, modulus=p, ordering="deglex")


def _scalar(w: object, kind: str, p: int | None):
    if kind == "fmpz":
        return int(w)
    if kind == "fmpq":
        f = Fraction(w)
        return flint.fmpq(f.numerator, f.denominator)
    f = Fraction(w)
    if f.denominator % p == 0:
        raise InputError(f"weight {w} has a denominator divisible by p = {p}: it has no "
                         f"residue mod {p}")
    return f.numerator * pow(f.denominator, -1, p) % p


def _weight_kind(net) -> str:
    for k in "QKVO":
        for w in net.weights[k].flat:
            if Fraction(w).denominator != 1:
                return "fmpq"
    return "fmpz"


def _lin(W, xs, zero, kind, p):
    """The rows of W (list of lists of scalars) applied to the polynomial vector xs."""
    out = []
    for row in W:
        acc = zero
        for c, w in enumerate(row):
            if w:
                acc = acc + _scalar(w, kind, p) * xs[c]
        out.append(acc)
    return out


def network_polynomial(net, N: int, position: int, coordinate: int, *, p: int | None = None,
                       inputs=None):
    """y_coordinate^position of ``net`` on N positions, as a flint polynomial in N d_x variables.

    Variable ``n * d_x + c`` is coordinate c of position n (0-based). The
    polynomial ring is ``fmpz_mpoly`` (integer weights), ``fmpq_mpoly``
    (rational weights) or, with ``p``, ``nmod_mpoly`` mod p (an InputError if a
    weight's denominator is divisible by p).

    ``inputs``: instead of the variables, an N x d_x list of flint polynomials (all of
    one ring, e.g. an embedding of other variables); the weights are then taken in
    that ring's coefficient kind.

    Complexity: the last layer dominates: H d_a (N + 1) products of polynomials
    of degrees 3^(L-1) and up to 2 3^(L-1) in N d_x variables.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> str(network_polynomial(net, 2, 0, 0))   # x0 (x0^2 + x1^2)
    'x0^3 + x0*x1^2'
    """
    kind = "nmod" if p is not None else _weight_kind(net)
    d_x = net.d_x
    if inputs is None:
        ctx = _ctx(kind, N * d_x, p)
        gens = ctx.gens()
        X = [[gens[n * d_x + c] for c in range(d_x)] for n in range(N)]
    else:
        X = [list(row) for row in inputs]
        ctx = X[0][0].context()
        if kind == "fmpq" and not isinstance(ctx, flint.fmpq_mpoly_ctx):
            raise InputError("rational weights need inputs over fmpq_mpoly")
    ar = _Arith(ctx.from_dict({}), kind, p)
    W = {k: net.weights[k].tolist() for k in "QKVO"}
    for layer in range(net.L - 1):
        Y = _layer(net, W, layer, X, ar)
        X = [[X[i][c] + Y[i][c] for c in range(d_x)] for i in range(N)] if net.residual else Y
    out = _last_layer(net, W, X, position, coordinate, ar)
    return out + X[position][coordinate] if net.residual else out


class _Arith:
    """The zero polynomial and the weight conversion of one expansion."""

    def __init__(self, zero, kind: str, p: int | None):
        self.zero, self.kind, self.p = zero, kind, p

    def lin(self, W, xs):
        return _lin(W, xs, self.zero, self.kind, self.p)


def _pair_sum(a, b, zero):
    """sum_j a[j] b[j], skipping zero products."""
    acc = zero
    for x, y in zip(a, b, strict=True):
        if x != 0 and y != 0:
            acc = acc + x * y
    return acc


def _layer(net, W, layer: int, X, ar: _Arith):
    """One layer of eq. (3) on every position (before the skip connection)."""
    N, d_x, zero = len(X), net.d_x, ar.zero
    Y = [[zero] * d_x for _ in range(N)]
    for h in range(net.H):
        Q, K, V, O = (W[k][layer][h] for k in "QKVO")
        ks = [ar.lin(K, X[j]) for j in range(N)]
        vs = [ar.lin(V, X[j]) for j in range(N)]
        # kv[b][a] = sum_j k_jb v_ja, formed once per head
        kv = [[_pair_sum([k[b] for k in ks], [v[a] for v in vs], zero)
               for a in range(net.d_a)] for b in range(net.d_a)]
        for i in range(N):
            q = ar.lin(Q, X[i])
            z = [_pair_sum(q, [kv[b][a] for b in range(net.d_a)], zero)
                 for a in range(net.d_a)]
            y = ar.lin(O, z)
            Y[i] = [Y[i][c] + y[c] for c in range(d_x)]
    return Y


def _last_layer(net, W, X, position: int, coordinate: int, ar: _Arith):
    """Only y_coordinate^position of the last layer: sum_h sum_b q_b^h w_b^h."""
    N, zero, layer = len(X), ar.zero, net.L - 1
    out = zero
    for h in range(net.H):
        Q, K, V, O = (W[k][layer][h] for k in "QKVO")
        q = ar.lin(Q, X[position])
        ks = [ar.lin(K, X[j]) for j in range(N)]
        u = [ar.lin([O[coordinate]], ar.lin(V, X[j]))[0] for j in range(N)]
        for b in range(net.d_a):
            wb = _pair_sum([k[b] for k in ks], u, zero)
            if q[b] != 0 and wb != 0:
                out = out + q[b] * wb
    return out


class CoefficientBlock:
    """One component of the coefficient matricization (module docstring).

    ``I_degrees`` / ``J_degrees``: the row and column degrees it joins;
    ``rows`` / ``cols``: the exponent vectors of its monomials (I-side, J-side);
    ``entries``: dict (row index, col index) -> coefficient (int, Fraction or
    residue). ``matrix()`` gives the dense block as a list of rows.

    >>> blk = CoefficientBlock((1,), (2,), [(1,)], [(2,)], {(0, 0): 3})
    >>> blk.shape, blk.matrix()
    ((1, 1), [[3]])
    """

    def __init__(self, I_degrees, J_degrees, rows, cols, entries):
        self.I_degrees = tuple(int(k) for k in I_degrees)      # plain ints (JSON)
        self.J_degrees = tuple(int(k) for k in J_degrees)
        self.rows, self.cols, self.entries = rows, cols, entries

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.cols)

    def matrix(self) -> list[list]:
        mat = [[0] * len(self.cols) for _ in self.rows]
        for (r, c), v in self.entries.items():
            mat[r][c] = v
        return mat

    def integer_matrix(self) -> list[list[int]]:
        """The block times the lcm of its denominators (same rank), as Python ints."""
        den = 1
        for v in self.entries.values():
            d = Fraction(v).denominator
            if d != 1:
                den = lcm(den, d)  # Python ints: exact at any size (np.gcd overflowed)
        mat = [[0] * len(self.cols) for _ in self.rows]
        for (r, c), v in self.entries.items():
            mat[r][c] = int(Fraction(v) * den)
        return mat

    def __repr__(self) -> str:
        return (f"CoefficientBlock(I_degrees={self.I_degrees}, J_degrees={self.J_degrees}, "
                f"shape={self.shape})")


def _coeff(c) -> int | Fraction:
    if isinstance(c, flint.fmpq):
        return Fraction(int(c.p), int(c.q))
    return int(c)


def coefficient_blocks(poly, d_x: int, I, J, *, variables=None) -> list[CoefficientBlock]:
    """The components of the coefficient matricization of ``poly`` w.r.t. positions (I, J).

    ``poly`` is a flint polynomial in N d_x variables (variable n d_x + c is
    coordinate c of position n), as :func:`network_polynomial` returns. Blocks
    are listed by increasing smallest I-degree; rank(C) = sum of block ranks.
    ``variables=(Iv, Jv)`` names the variable indices of each side directly.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("x", 2), "deglex")
    >>> x0, x1 = ctx.gens()
    >>> [b.shape for b in coefficient_blocks(x0**3 + x0 * x1**2, 1, (0,), (1,))]
    [(1, 1), (1, 1)]
    """
    if variables is None:
        Iv = [n * d_x + c for n in I for c in range(d_x)]
        Jv = [n * d_x + c for n in J for c in range(d_x)]
    else:  # (I-variable indices, J-variable indices) given directly
        Iv, Jv = (list(v) for v in variables)
    exps = poly.monoms()
    coeffs = poly.coeffs()
    parent: dict = {}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    terms = []
    for e, c in zip(exps, coeffs, strict=True):
        a = tuple(e[v] for v in Iv)
        b = tuple(e[v] for v in Jv)
        da, db = ("I", sum(a)), ("J", sum(b))
        for node in (da, db):
            parent.setdefault(node, node)
        ra, rb = find(da), find(db)
        if ra != rb:
            parent[ra] = rb
        terms.append((a, b, c))
    groups: dict = {}
    for a, b, c in terms:
        root = find(("I", sum(a)))
        g = groups.setdefault(root, ({}, {}, {}))
        ri = g[0].setdefault(a, len(g[0]))
        ci = g[1].setdefault(b, len(g[1]))
        g[2][(ri, ci)] = _coeff(c)
    blocks = []
    for root, (rows, cols, entries) in groups.items():
        members = [n for n in parent if find(n) == root]
        Ideg = sorted(d for s, d in members if s == "I")
        Jdeg = sorted(d for s, d in members if s == "J")
        blocks.append(CoefficientBlock(Ideg, Jdeg, list(rows), list(cols), entries))
    blocks.sort(key=lambda b: (b.I_degrees[0], b.J_degrees[0]))
    return blocks


#: Bytes per term of the expansion: flint's packed exponent words and coefficient, the
#: intermediate products of the last layer, the terms read back per block (measured with
#: benchmarks/budget_rates.py; the estimate is an upper bound on the peak).
_BYTES_PER_TERM = 400
#: Bytes per entry of a dense block while it is ranked (a Python list of ints, the
#: fmpz_mat of the exact rank and its copies).
_BYTES_PER_ENTRY = 120


def expansion_estimate(n_vars: int, degree: int, up_to: bool, net, N: int,
                       largest: float = float("inf"), sum3: float = float("inf"),
                       method: str = "auto") -> WorkEstimate:
    """Upper bounds for expanding a network output of degree ``degree`` (``up_to``: or
    less) in ``n_vars`` variables and ranking its coefficient blocks, cheaply (log-gamma
    counts): the terms T (at most C(n_vars + D - 1, D)), the dense blocks (their entries
    are at most the T monomials, one per pair of an I-part and a J-part), their exact
    ranks (``sum3``: the sum of the blocks' m^3 when known; ``largest``: their largest
    side). Shared by the coefficient route and the convolution embedding
    (:mod:`seprank.separation.embedding.route`).

    >>> from types import SimpleNamespace
    >>> net = SimpleNamespace(L=1, H=1, d_a=1)
    >>> expansion_estimate(2, 3, False, net, 2).peak_bytes > 0
    True
    """
    from seprank.budget import format_count
    from seprank.separation.monomials import approx_monomial_count

    terms = approx_monomial_count(n_vars, degree, up_to=up_to)
    if largest < float("inf"):
        rank_ops = min(sum3, terms * largest)
    else:
        rank_ops = terms ** 1.5 if terms < 1e200 else terms
    expand_ops = net.L * net.H * net.d_a * (N + 1) * terms
    peak = _BYTES_PER_TERM * terms + _BYTES_PER_ENTRY * terms
    phases = (("expansion", f"y_p^i with at most {format_count(terms)} terms (python-flint)"),
              ("matricization", f"blocks of at most {format_count(terms)} entries in all"),
              ("rank", f"each block over Q ({method})"))
    work = ((expand_ops, "poly"), (rank_ops, "flint"))
    return WorkEstimate(phases, expand_ops + rank_ops, peak, work=work,
                        detail=f"up to {format_count(terms)} terms")
