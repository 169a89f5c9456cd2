"""Objects of rank_collapse_notes.txt (pure attention losing rank), in exact form.

Source: rank_collapse_notes.txt, sec. 2.1 (softmax shift l.27-31, path decomposition and
Theorem 2.1 l.33-64) and sec. 2.2 (Definition 2.1 l.66-76, Theorem 2.2 l.78-82). Why: the
checks R-shift, R-path, R-norm and R-bound evaluate the notes' statements with these
functions, exactly where the statement is algebraic and in interval arithmetic where it
involves exp.

* row-wise softmax and its shift invariance (symbolic, and in the
  multiplicative form ``t u_i / sum_j t u_j`` over the rationals);
* pure-attention networks whose attention matrices are replaced by fixed
  row-stochastic rational matrices, evaluated directly (heads concatenated and
  multiplied by the stacked output matrices) and as a sum over paths;
* the composite quantity ``||X||_1 ||X||_inf`` (its square, so that no square
  root is needed) and the residual ``res(X)`` for the Frobenius reading;
* softmax networks in mpmath (high precision) and in mpmath.iv (interval
  arithmetic) for the residual bound of Theorem 2.2.

Matrices are ``flint.fmpq_mat`` for exact work and lists of lists elsewhere.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import flint
import mpmath

__all__ = [
    "softmax_rows_symbolic",
    "rand_rational_matrix",
    "rand_row_stochastic",
    "random_network",
    "san_direct",
    "san_paths",
    "norm1",
    "norminf",
    "composite_sq",
    "triangle_fails",
    "res_frobenius",
    "mp_san",
    "mp_bound_sides",
]


# ---------------------------------------------------------------- softmax


def softmax_rows_symbolic(A):
    """Row-wise softmax of a sympy Matrix: entry (i, j) is exp(A_ij)/sum_k exp(A_ik).

    Examples
    --------
    >>> import sympy
    >>> softmax_rows_symbolic(sympy.Matrix([[0, sympy.log(2)]]))   # weights 1 : 2
    Matrix([[1/3, 2/3]])
    """
    import sympy

    n, m = A.shape
    out = sympy.zeros(n, m)
    for i in range(n):
        den = sum(sympy.exp(A[i, k]) for k in range(m))
        for j in range(m):
            out[i, j] = sympy.exp(A[i, j]) / den
    return out


# ------------------------------------------------------- exact matrices


def _fq(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def rand_rational_matrix(rng: random.Random, rows: int, cols: int, den: int = 5,
                         span: int = 6) -> flint.fmpq_mat:
    """A rows x cols matrix with entries a/b, ``|a| <= span``, 1 <= b <= den.

    Examples
    --------
    >>> M = rand_rational_matrix(random.Random(0), 2, 3)
    >>> M.nrows(), M.ncols()
    (2, 3)
    """
    return flint.fmpq_mat(rows, cols, [
        flint.fmpq(rng.randint(-span, span), rng.randint(1, den))
        for _ in range(rows * cols)])


def rand_row_stochastic(rng: random.Random, n: int) -> flint.fmpq_mat:
    """An n x n matrix with positive rational entries whose rows sum to one.

    Examples
    --------
    >>> P = rand_row_stochastic(random.Random(0), 3)
    >>> all(sum(P[i, j] for j in range(3)) == 1 for i in range(3))
    True
    """
    entries = []
    for _ in range(n):
        w = [rng.randint(1, 9) for _ in range(n)]
        tot = sum(w)
        entries += [flint.fmpq(v, tot) for v in w]
    return flint.fmpq_mat(n, n, entries)


def random_network(rng: random.Random, L: int, H: int, n: int, d: int, dv: int):
    """L layers of H heads: per head (P, W_V (d x dv), b_V (1 x dv), W_O (dv x d)).

    Examples
    --------
    >>> net = random_network(random.Random(0), 2, 3, 4, 2, 1)
    >>> len(net), len(net[0]), len(net[0][0])   # L layers, H heads, (P, W_V, b_V, W_O)
    (2, 3, 4)
    """
    return [[(rand_row_stochastic(rng, n), rand_rational_matrix(rng, d, dv),
              rand_rational_matrix(rng, 1, dv), rand_rational_matrix(rng, dv, d))
             for _ in range(H)] for _ in range(L)]


def _ones_col(n: int) -> flint.fmpq_mat:
    return flint.fmpq_mat(n, 1, [1] * n)


def _hcat(blocks):
    rows = blocks[0].nrows()
    cols = sum(b.ncols() for b in blocks)
    out = flint.fmpq_mat(rows, cols)
    c0 = 0
    for b in blocks:
        for i in range(rows):
            for j in range(b.ncols()):
                out[i, c0 + j] = b[i, j]
        c0 += b.ncols()
    return out


def _vcat(blocks):
    cols = blocks[0].ncols()
    rows = sum(b.nrows() for b in blocks)
    out = flint.fmpq_mat(rows, cols)
    r0 = 0
    for b in blocks:
        for i in range(b.nrows()):
            for j in range(cols):
                out[r0 + i, j] = b[i, j]
        r0 += b.nrows()
    return out


def san_direct(X: flint.fmpq_mat, net, skip: bool = False) -> flint.fmpq_mat:
    """Evaluate layer by layer as printed (l.35, l.48): each head P_h (Y W_V,h + e b_V,h^T),
    heads concatenated, times the stacked W_O; with ``skip`` the layer input is added.

    Examples
    --------
    >>> one = lambda v: flint.fmpq_mat(1, 1, [v])
    >>> net = [[(one(1), one(3), one(1), one(5))]]   # P = 1, W_V = 3, b_V = 1, W_O = 5
    >>> san_direct(one(2), net), san_direct(one(2), net, skip=True)   # (2*3 + 1)*5, then + 2
    ([35], [37])
    """
    Y = X
    e = _ones_col(X.nrows())
    for layer in net:
        heads = [P * (Y * WV + e * bV) for (P, WV, bV, _WO) in layer]
        WO = _vcat([WO for (_P, _WV, _bV, WO) in layer])
        out = _hcat(heads) * WO
        Y = out + Y if skip else out
    return Y


def _identity(k: int) -> flint.fmpq_mat:
    M = flint.fmpq_mat(k, k)
    for i in range(k):
        M[i, i] = 1
    return M


def san_paths(X: flint.fmpq_mat, net, skip: bool = False):
    """The path sum: sum over paths (h_1..h_L) of P^L_{h_L}...P^1_{h_1} X W^1_{h_1}...W^L_{h_L}
    plus e b^T with the accumulated bias b^T = (..(b_1^T S_2 + b_2^T) S_3 ..) + b_L^T,
    S_l = sum_h W^l_h (+ I with skip). With ``skip`` a dummy head (P = I, W = I) is added
    per layer, giving (H+1)^L paths. Returns (total, number_of_paths, b).

    Examples
    --------
    >>> rng = random.Random(0)
    >>> net = random_network(rng, 2, 2, 3, 2, 2)
    >>> X = rand_rational_matrix(rng, 3, 2)
    >>> total, count, b = san_paths(X, net)
    >>> total == san_direct(X, net), count   # H^L = 4 paths
    (True, 4)
    >>> san_paths(X, net, skip=True)[1]   # (H + 1)^L
    9
    """
    n, d = X.nrows(), X.ncols()
    layers = []
    for layer in net:
        heads = [(P, WV * WO) for (P, WV, _bV, WO) in layer]
        if skip:
            heads.append((_identity(n), _identity(d)))
        layers.append(heads)
    total = flint.fmpq_mat(n, d)
    count = 0
    for path in itertools.product(*[range(len(h)) for h in layers]):
        Pp, Wp = _identity(n), _identity(d)
        for layer, h in zip(layers, path, strict=True):
            P, W = layer[h]
            Pp = P * Pp          # later layers multiply on the left
            Wp = Wp * W          # and their weights on the right
        total += Pp * X * Wp
        count += 1
    b = flint.fmpq_mat(1, d)
    for layer, heads in zip(net, layers, strict=True):
        S = flint.fmpq_mat(d, d)
        for (_P, W) in heads:
            S += W
        bO = flint.fmpq_mat(1, d)
        for (_P, _WV, bV, WO) in layer:
            bO += bV * WO
        b = b * S + bO
    return total + _ones_col(n) * b, count, b


# ----------------------------------------------------------- norms, res


def _abs(x):
    return x if x >= 0 else -x


def norm1(M) -> Fraction:
    """Induced 1-norm: the largest absolute column sum (lists of lists).

    Examples
    --------
    >>> norm1([[1, -2], [3, 4]])   # column sums 4 and 6
    6
    """
    return max(sum(_abs(row[j]) for row in M) for j in range(len(M[0])))


def norminf(M) -> Fraction:
    """Induced inf-norm: the largest absolute row sum.

    Examples
    --------
    >>> norminf([[1, -2], [3, 4]])   # row sums 3 and 7
    7
    """
    return max(sum(_abs(v) for v in row) for row in M)


def composite_sq(M):
    """The square of the composite quantity: ||M||_1 * ||M||_inf.

    Examples
    --------
    >>> composite_sq([[1, -2], [3, 4]])   # 6 * 7
    42
    """
    return norm1(M) * norminf(M)


def _add(A, B):
    return [[a + b for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(A, B, strict=True)]


def triangle_fails(X, Y, sq=composite_sq) -> bool:
    """Exactly: sqrt(sq(X+Y)) > sqrt(sq(X)) + sqrt(sq(Y)), decided without square roots.

    With a = sq(X), b = sq(Y), c = sq(X+Y) (all >= 0): c > a + b + 2 sqrt(ab) iff
    c - a - b > 0 and (c - a - b)^2 > 4ab.

    Examples
    --------
    >>> X, Y = [[0, 0], [0, 1]], [[0, 0], [1, 1]]   # sq: 1, 2 and 6 for X + Y
    >>> triangle_fails(X, Y)   # sqrt(6) > 1 + sqrt(2)
    True
    >>> triangle_fails(X, X)   # sq(2X) = 4 sq(X): equality, no failure
    False
    """
    a, b, c = sq(X), sq(Y), sq(_add(X, Y))
    t = c - a - b
    return t > 0 and t * t > 4 * a * b


def res_frobenius(M):
    """X - 1 m^T with m the column means: the minimiser of the Frobenius norm.

    Examples
    --------
    >>> res_frobenius([[1, 2], [3, 4]])   # column means 2 and 3
    [[Fraction(-1, 1), Fraction(-1, 1)], [Fraction(1, 1), Fraction(1, 1)]]
    """
    n = len(M)
    means = [sum(Fraction(row[j]) for row in M) / n for j in range(len(M[0]))]
    return [[Fraction(v) - means[j] for j, v in enumerate(row)] for row in M]


# ------------------------------------------------- softmax networks (mp)


def _mat(ctx, rows):
    return ctx.matrix(rows)


def _softmax_rows(ctx, A):
    out = ctx.matrix(A.rows, A.cols)
    for i in range(A.rows):
        m = max(A[i, j] for j in range(A.cols)) if ctx is mpmath.mp else 0
        ex = [ctx.exp(A[i, j] - m) for j in range(A.cols)]
        s = ctx.fsum(ex) if ctx is mpmath.mp else sum(ex[1:], ex[0])
        for j in range(A.cols):
            out[i, j] = ex[j] / s
    return out


def _res(ctx, M):
    out = ctx.matrix(M.rows, M.cols)
    for j in range(M.cols):
        col = [M[i, j] for i in range(M.rows)]
        mean = sum(col[1:], col[0]) / M.rows
        for i in range(M.rows):
            out[i, j] = M[i, j] - mean
    return out


def _n1(ctx, M):
    sums = [sum((abs(M[i, j]) for i in range(1, M.rows)), abs(M[0, j]))
            for j in range(M.cols)]
    return _max(ctx, sums)


def _ninf(ctx, M):
    sums = [sum((abs(M[i, j]) for j in range(1, M.cols)), abs(M[i, 0]))
            for i in range(M.rows)]
    return _max(ctx, sums)


def _max(ctx, vals):
    if ctx is mpmath.mp:
        return max(vals)
    lo = max(v.a for v in vals)
    hi = max(v.b for v in vals)
    return ctx.mpf([lo, hi])


def mp_san(ctx, X, layers, dqk):
    """Single-head softmax network Y <- softmax(Y W_QK Y^T / sqrt(dqk)) Y W_V, carried as
    Y = 1 y^T + R with R = res(Y) (column centred). Because every row of the softmax sums
    to one, P Y W = 1 y^T W + P R W exactly, so the residual is propagated without the
    cancellation of subtracting a large common row. Returns (y, R) of the output.

    Examples
    --------
    >>> mp = mpmath.mp
    >>> zero, eye = mp.matrix([[0, 0], [0, 0]]), mp.eye(2)
    >>> y, R = mp_san(mp, mp.matrix([[1, 0], [0, 1]]), [(zero, eye)], 1)   # uniform attention
    >>> y.tolist() == [[0.5, 0.5]], all(v == 0 for v in R)   # every row becomes the mean
    (True, True)
    """
    n = X.rows
    R = _res(ctx, X)
    y = ctx.matrix(1, X.cols)
    for j in range(X.cols):
        y[0, j] = X[0, j] - R[0, j]
    ones = ctx.matrix(n, 1)
    for i in range(n):
        ones[i, 0] = 1
    for WQK, WV in layers:
        Y = ones * y + R
        P = _softmax_rows(ctx, (Y * WQK * Y.T) / ctx.sqrt(dqk))
        Z = P * R * WV
        Rn = _res(ctx, Z)
        yn = y * WV
        for j in range(Z.cols):
            yn[0, j] = yn[0, j] + (Z[0, j] - Rn[0, j])
        y, R = yn, Rn
    return y, R


def mp_bound_sides(ctx, X, layers, dqk):
    """Both sides of Theorem 2.2 (l.78-80) with beta = max_l ||W_QK^l||_1 ||W_V^l||_{1,inf}
    (the smallest beta the hypothesis allows). Returns (lhs, rhs, beta).

    res is the Frobenius reading (column centring); ``ctx`` is mpmath.mp or mpmath.iv.

    Examples
    --------
    >>> eye = [[1, 0], [0, 1]]
    >>> lhs, rhs, beta = mp_bound_sides(mpmath.mp, eye, [(eye, eye)], 1)
    >>> beta, rhs   # (4 * 1)^1 * 1^3
    (mpf('1.0'), mpf('4.0'))
    >>> mpmath.almosteq(lhs, mpmath.tanh(0.5))   # (e - 1)/(e + 1)
    True
    """
    X = _mat(ctx, X)
    layers = [(_mat(ctx, a), _mat(ctx, b)) for a, b in layers]
    L = len(layers)
    betas = [_n1(ctx, WQK) * ctx.sqrt(_n1(ctx, WV) * _ninf(ctx, WV)) for WQK, WV in layers]
    beta = _max(ctx, betas)
    _y, RL = mp_san(ctx, X, layers, dqk)
    R0 = _res(ctx, X)
    lhs = ctx.sqrt(_n1(ctx, RL) * _ninf(ctx, RL))
    r0 = ctx.sqrt(_n1(ctx, R0) * _ninf(ctx, R0))
    rhs = (4 * beta / ctx.sqrt(dqk)) ** ((3 ** L - 1) // 2) * r0 ** (3 ** L)
    return lhs, rhs, beta


def float_log_ratio(X, layers, dqk=1.0):
    """log(lhs / rhs) of Theorem 2.2 in float64 with the same centred propagation as
    :func:`mp_san`. A search heuristic only: it decides nothing.

    Examples
    --------
    >>> import numpy as np
    >>> eye = [[1, 0], [0, 1]]
    >>> lhs, rhs, _ = mp_bound_sides(mpmath.mp, eye, [(eye, eye)], 1)
    >>> r = float_log_ratio(np.eye(2), [(np.eye(2), np.eye(2))])
    >>> abs(r - float(mpmath.log(lhs / rhs))) < 1e-12, r < 0
    (True, True)
    """
    import numpy as np

    def comp(M):
        return np.sqrt(np.abs(M).sum(0).max() * np.abs(M).sum(1).max())

    y = X.mean(0, keepdims=True)
    R = X - y
    R0 = R
    beta = 0.0
    for WQK, WV in layers:
        Y = y + R
        A = Y @ WQK @ Y.T / np.sqrt(dqk)
        A = A - A.max(1, keepdims=True)
        E = np.exp(A)
        P = E / E.sum(1, keepdims=True)
        Z = P @ R @ WV
        y = y @ WV + Z.mean(0, keepdims=True)
        R = Z - Z.mean(0, keepdims=True)
        beta = max(beta, np.abs(WQK).sum(0).max() * comp(WV))
    L = len(layers)
    with np.errstate(divide="ignore"):
        lhs = np.log(comp(R))
        rhs = ((3 ** L - 1) // 2) * np.log(4 * beta / np.sqrt(dqk)) + 3 ** L * np.log(comp(R0))
    return float(lhs - rhs)
