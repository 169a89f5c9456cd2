"""The moment form evaluated mod p by numba kernels: tokens, family values, block matrices.

What is computed (the recursion of :mod:`seprank.network_theory.moment_form`)
-----------------------------------------------------------------------
For a batch of symmetric S and vectors (or d x r matrices) y_0, the kernel
runs, layer by layer, with the moment matrix S_l of the current layer:

    M_l = sum_h O_h (V_h S_l K_h^T) Q_h   (+ I with residual connections),
    S_{l+1} = M_l S_l M_l^T,              y_{l+1} = M_l y_l,

which is y_L = G_L(S) y_0 (G_{l+1} = M_l G_l gives S_{l+1} = G_{l+1} S G_{l+1}^T).
The last layer forms only the requested row of M (one output coordinate) or
all of it. Per sequence this is O(N d^2) for S = sum_j x^j x^jT plus
O(L H d^3) for the layers, against O(L N H d d_a) for the network itself
(:mod:`seprank.models.network_mod_p`): the moment form wins when N is large
compared with d; at N = 2 the two do comparable work (benchmarks/sep_rank_moment.py
measures both).

Exactness (int64, delayed reduction)
------------------------------------
Residues lie in [0, p) with p <= 2^31 - 1; a product is < 2^62. A dot product
adds products to an int64 accumulator and reduces it after every r products,
r = :func:`moment_interval` (p) (2 for p = 2^31 - 1: the accumulator stays
below 2^63). A reduction takes the quotient in float64 (x * (1/p)) and corrects
the remainder by at most two additions and two subtractions of p (the float
quotient is within 2 of the true one).
All arithmetic after reducing the weights is in GF(p), so the residues equal
those of the exact value reduced mod p (tested against
:func:`seprank.models.network_mod_p.evaluate_mod_p`).

Block matrices (:func:`pair_block_values`)
------------------------------------------
For row points (S_s, y_s) and column points W_t, and scales mu_0..mu_m, the
values f_k(s, t) = e_p^T G_L(S_s + mu_k W_t) y_s are combined with a matrix
``mix`` (the inverse Vandermonde matrix of the mu's, rows = degrees) into
sum_k mix[q, k] f_k(s, t), the degree-q part in W at (s, t) (homogeneous in the
W-degree, exactly as the grid route splits degrees,
:mod:`seprank.separation.grid.route`). Block q keeps the first ``sizes[q]`` rows
and columns; the blocks are returned flat, one after another.
"""

from __future__ import annotations

import numba
import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.linalg.memory import require_fits
from seprank.models.network_mod_p import (
    network_residues,
    reduce_mod,  # one home for the float-quotient reduction
)
from seprank.scalars.gaussian import residues
from seprank.scalars.primes import require_prime

__all__ = ["evaluate_tokens_mod_p", "family_residues", "moment_rows_mod_p",
           "pair_block_values", "moment_interval", "MAX_EVAL_PRIME", "eval_ops", "BATCH",
           "forward_from", "layer_moment"]

#: Largest prime the kernels take (residue products < 2^62).
MAX_EVAL_PRIME = 2**31 - 1
BATCH = 64  # sequences per kernel block (the vectorized axis)


def moment_interval(p: int) -> int:
    """Products of two residues mod p that an int64 accumulator below p absorbs before a
    reduction: r = floor((B - (p - 1)) / (p - 1)^2), B = 2^63 - 1 (B = 2^53 for
    p <= 2^12, so that x stays exact in float64). Then x <= B < 2^63 (no overflow) and
    the float quotient of :func:`reduce_mod` is within 1 of floor(x / p) for p > 2^12 (x / p <
    2^52, relative error < 3 2^-53) and within 2 for p <= 2^12 (module docstring).

    >>> moment_interval(2**31 - 1), moment_interval(5) == (2**53 - 4) // 16
    (2, True)
    """
    p = require_prime(p, max_value=MAX_EVAL_PRIME)
    bound = 2**53 if p <= 2**12 else 2**63 - 1
    return max(1, (bound - (p - 1)) // max(1, (p - 1) ** 2))


@numba.njit(cache=True)
def _cv(W, X, out, p, inv, rr, nb):  # pragma: no cover - compiled
    """out[i, j, s] = sum_k W[i, k] X[k, j, s] mod p (W constant)."""
    for i in range(W.shape[0]):
        for j in range(X.shape[1]):
            acc = out[i, j]
            acc[:nb] = 0
            cnt = 0
            for k in range(W.shape[1]):
                w = W[i, k]
                if w == 0:
                    continue
                xs = X[k, j]
                for s in range(nb):
                    acc[s] += w * xs[s]
                cnt += 1
                if cnt == rr:
                    for s in range(nb):
                        acc[s] = reduce_mod(acc[s], p, inv)
                    cnt = 0
            if cnt:
                for s in range(nb):
                    acc[s] = reduce_mod(acc[s], p, inv)


@numba.njit(cache=True)
def _vc(X, W, out, p, inv, rr, nb):  # pragma: no cover - compiled
    """out[i, j, s] = sum_k X[i, k, s] W[j, k] mod p (times W transposed, W constant)."""
    for i in range(X.shape[0]):
        for j in range(W.shape[0]):
            acc = out[i, j]
            acc[:nb] = 0
            cnt = 0
            for k in range(X.shape[1]):
                w = W[j, k]
                if w == 0:
                    continue
                xs = X[i, k]
                for s in range(nb):
                    acc[s] += w * xs[s]
                cnt += 1
                if cnt == rr:
                    for s in range(nb):
                        acc[s] = reduce_mod(acc[s], p, inv)
                    cnt = 0
            if cnt:
                for s in range(nb):
                    acc[s] = reduce_mod(acc[s], p, inv)


@numba.njit(cache=True)
def _vv(X, Y, transpose, out, p, inv, rr, nb):  # pragma: no cover - compiled
    """out[i, j, s] = sum_k X[i, k, s] Y[k, j, s] (or Y[j, k, s] when transpose) mod p."""
    ncol = Y.shape[0] if transpose else Y.shape[1]
    for i in range(X.shape[0]):
        for j in range(ncol):
            acc = out[i, j]
            acc[:nb] = 0
            cnt = 0
            for k in range(X.shape[1]):
                xs = X[i, k]
                ys = Y[j, k] if transpose else Y[k, j]
                for s in range(nb):
                    acc[s] += xs[s] * ys[s]
                cnt += 1
                if cnt == rr:
                    for s in range(nb):
                        acc[s] = reduce_mod(acc[s], p, inv)
                    cnt = 0
            if cnt:
                for s in range(nb):
                    acc[s] = reduce_mod(acc[s], p, inv)


@numba.njit(cache=True)
def _sym_product(MS, M, out, p, inv, rr, nb):  # pragma: no cover - compiled
    """out = MS M^T when it is known to be symmetric: the upper triangle, mirrored."""
    d = M.shape[0]
    for i in range(d):
        for j in range(i, d):
            acc = out[i, j]
            acc[:nb] = 0
            cnt = 0
            for k in range(M.shape[1]):
                xs = MS[i, k]
                ys = M[j, k]
                for s in range(nb):
                    acc[s] += xs[s] * ys[s]
                cnt += 1
                if cnt == rr:
                    for s in range(nb):
                        acc[s] = reduce_mod(acc[s], p, inv)
                    cnt = 0
            if cnt:
                for s in range(nb):
                    acc[s] = reduce_mod(acc[s], p, inv)
            if j > i:
                out[j, i, :nb] = acc[:nb]


@numba.njit(cache=True)
def layer_moment(S, WQT, WK, WV, WO, layer, row, p, inv, rr, nb, t1, t2, t3, t4, M):
    # pragma: no cover - compiled
    """M = sum_h O_h (V_h S K_h^T) Q_h mod p (only row ``row`` of O_h when row >= 0);
    WQT[l, h] = Q_h^T."""
    H = WK.shape[1]
    M[:, :, :nb] = 0
    for h in range(H):
        _cv(WV[layer, h], S, t1, p, inv, rr, nb)          # V S         (d_a, d)
        _vc(t1, WK[layer, h], t2, p, inv, rr, nb)         # V S K^T     (d_a, d_a)
        if row >= 0:
            _cv(WO[layer, h, row:row + 1], t2, t3, p, inv, rr, nb)
        else:
            _cv(WO[layer, h], t2, t3, p, inv, rr, nb)     # O (V S K^T) (d or 1, d_a)
        _vc(t3, WQT[layer, h], t4, p, inv, rr, nb)   # ... Q       (d or 1, d)
        for i in range(M.shape[0]):
            for j in range(M.shape[1]):
                for s in range(nb):
                    M[i, j, s] = reduce_mod(M[i, j, s] + t4[i, j, s], p, inv)


@numba.njit(cache=True)
def _forward(S, y, WQT, WK, WV, WO, residual, coord, p, inv, rr, nb, out):
    # pragma: no cover - compiled
    """out[:, :, :nb] = rows of G_L(S) y: row ``coord`` (out has 1 row) or all (coord < 0).

    S: (d, d, B) residues, y: (d, r, B); both are overwritten."""
    M = np.empty(S.shape, np.int64)
    forward_from(S, y, WQT, WK, WV, WO, residual, coord, p, inv, rr, nb, out, False, M)


@numba.njit(cache=True)
def forward_from(S, y, WQT, WK, WV, WO, residual, coord, p, inv, rr, nb, out, have_m0, M):
    # pragma: no cover - compiled
    """:func:`_forward`; with ``have_m0`` M[:, :, :nb] already holds layer 0's matrix
    sum_h O_h V_h S K_h^T Q_h (without the residual identity), computed by the caller."""
    L, H, d_a, d = WK.shape
    B = S.shape[2]
    r = y.shape[1]
    t1 = np.empty((d_a, d, B), np.int64)
    t2 = np.empty((d_a, d_a, B), np.int64)
    t3 = np.empty((d, d_a, B), np.int64)
    t4 = np.empty((d, d, B), np.int64)
    MS = np.empty((d, d, B), np.int64)
    y2 = np.empty((d, r, B), np.int64)
    for layer in range(L - 1):
        if layer > 0 or not have_m0:
            layer_moment(S, WQT, WK, WV, WO, layer, -1, p, inv, rr, nb, t1, t2, t3, t4, M)
        if residual:
            for i in range(d):
                for s in range(nb):
                    M[i, i, s] = reduce_mod(M[i, i, s] + 1, p, inv)
        _vv(M, S, False, MS, p, inv, rr, nb)
        _sym_product(MS, M, S, p, inv, rr, nb)
        _vv(M, y, False, y2, p, inv, rr, nb)
        y[:, :, :nb] = y2[:, :, :nb]
    nrow = out.shape[0]
    row = coord if coord >= 0 else -1
    Mo = M[:nrow]
    if L > 1 or not have_m0:
        layer_moment(S, WQT, WK, WV, WO, L - 1, row, p, inv, rr, nb, t1, t2, t3[:nrow], t4[:nrow],
                 Mo)
    elif row >= 0:  # one layer, M given in full: keep its row ``coord``
        for j in range(d):
            Mo[0, j, :nb] = M[row, j, :nb]
    _vv(Mo, y, False, out, p, inv, rr, nb)
    if residual:
        for i in range(nrow):
            src = coord if coord >= 0 else i
            for c in range(r):
                for s in range(nb):
                    out[i, c, s] = reduce_mod(out[i, c, s] + y[src, c, s], p, inv)


@numba.njit(cache=True, parallel=True)
def _tokens_kernel(Xt, position, WQT, WK, WV, WO, residual, p, inv, rr):  # pragma: no cover
    """Xt: (N, d, n) residues; returns (d, n): y^{L, position} of every sequence."""
    N, d, n = Xt.shape
    nblocks = (n + BATCH - 1) // BATCH
    res = np.empty((d, n), np.int64)
    for blk in numba.prange(nblocks):
        b0 = blk * BATCH
        nb = min(BATCH, n - b0)
        S = np.zeros((d, d, BATCH), np.int64)
        y = np.zeros((d, 1, BATCH), np.int64)
        out = np.empty((d, 1, BATCH), np.int64)
        for a in range(d):
            for b in range(a, d):
                acc = S[a, b]
                cnt = 0
                for j in range(N):
                    xa = Xt[j, a]
                    xb = Xt[j, b]
                    for s in range(nb):
                        acc[s] += xa[b0 + s] * xb[b0 + s]
                    cnt += 1
                    if cnt == rr:
                        for s in range(nb):
                            acc[s] = reduce_mod(acc[s], p, inv)
                        cnt = 0
                for s in range(nb):
                    acc[s] = reduce_mod(acc[s], p, inv)
                    S[b, a, s] = acc[s]
            for s in range(nb):
                y[a, 0, s] = Xt[position, a, b0 + s]
        _forward(S, y, WQT, WK, WV, WO, residual, -1, p, inv, rr, nb, out)
        for a in range(d):
            for s in range(nb):
                res[a, b0 + s] = out[a, 0, s]
    return res


def _kernel_weights(net, p: int, extra=()):
    W, s = network_residues(net, p, extra=extra)
    if s is not None:
        raise ParameterError("the moment-form kernels take real (not Gaussian) weights and "
                             "inputs")
    Q, K, V, O = W
    return (np.ascontiguousarray(Q.transpose(0, 1, 3, 2)), K, V, O)


def evaluate_tokens_mod_p(net, X: object, p: int, position: int) -> np.ndarray:
    """y^{L, position} mod p of a batch of sequences, computed through the moment form.

    The same residues as ``seprank.models.network_mod_p.evaluate_mod_p(net, X, p,
    position=position)`` (tested, residual connections included), at O(N d^2 + L H d^3)
    operations per sequence (module docstring).

    Parameters
    ----------
    net : a :class:`~seprank.models.SelfAttentionNetwork` with real exact weights.
    X : (batch, N, d_x) or (N, d_x) integers or exact rationals.
    p : a prime <= 2^31 - 1.
    position : the 0-based output position.

    Returns
    -------
    (batch, d_x) int64 residues ((d_x,) for a single sequence).

    Raises
    ------
    NotPrimeError, InputError, ParameterError, MemoryLimitError

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> evaluate_tokens_mod_p(net, [[[1], [2]]], 7, 1).tolist()   # 2 * (1 + 4) = 10 = 3
    [[3]]
    """
    p = require_prime(p, max_value=MAX_EVAL_PRIME)
    arr, single = net._inputs(X)
    n, N, d = arr.shape
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) \
            or not 0 <= int(position) < N:
        raise ParameterError(f"position = {position!r} must be an integer in 0..{N - 1}")
    require_fits(8 * n * (N * d + 2 * d), f"moment-form evaluation of {n} sequences")
    W = _kernel_weights(net, p, extra=(arr,))
    red = np.mod(arr, p) if arr.dtype.kind in "iu" else residues(arr, p, None)
    Xt = np.ascontiguousarray(red.astype(np.int64).transpose(1, 2, 0))
    out = _tokens_kernel(Xt, int(position), *W, net.residual, p, 1.0 / p,
                         moment_interval(p)).T
    return out[0] if single else out


def family_residues(fam, p: int) -> dict:
    """The family's data mod p: weights (Q^T, K, V, O), basis E (D', d, d), P (d, r),
    shift E_0 (d, d).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> fam = token_family(SelfAttentionNetwork.random(1, 2, 1, seed=0), 0)
    >>> family_residues(fam, 101)["E"].shape
    (3, 2, 2)
    """
    p = require_prime(p, max_value=MAX_EVAL_PRIME)
    W = _kernel_weights(fam.net, p)
    try:
        E = residues(fam.basis, p, None)
        P = residues(fam.inputs, p, None)
    except ZeroDivisionError as exc:  # pragma: no cover - denominators prime to p checked
        raise InputError(f"a denominator of the embedding is divisible by p = {p}") from exc
    d = fam.d
    shift = np.zeros((d, d), dtype=np.int64) if fam.shift is None else \
        residues(fam.shift, p, None).astype(np.int64)
    return {"W": W, "E": np.ascontiguousarray(E), "P": np.ascontiguousarray(P), "p": p,
            "shift": shift, "coordinate": fam.coordinate, "residual": fam.residual}


@numba.njit(cache=True, parallel=True)
def _rows_kernel(S, P, WQT, WK, WV, WO, residual, coord, p, inv, rr):  # pragma: no cover
    """S: (d, d, n); returns (r, n) = e_coord^T G_L(S) P."""
    d, _, n = S.shape
    r = P.shape[1]
    nblocks = (n + BATCH - 1) // BATCH
    res = np.empty((r, n), np.int64)
    for blk in numba.prange(nblocks):
        b0 = blk * BATCH
        nb = min(BATCH, n - b0)
        Sb = np.zeros((d, d, BATCH), np.int64)
        y = np.zeros((d, r, BATCH), np.int64)
        out = np.empty((1, r, BATCH), np.int64)
        for a in range(d):
            for b in range(d):
                Sb[a, b, :nb] = S[a, b, b0:b0 + nb]
            for c in range(r):
                y[a, c, :nb] = P[a, c]
        _forward(Sb, y, WQT, WK, WV, WO, residual, coord, p, inv, rr, nb, out)
        for c in range(r):
            res[c, b0:b0 + nb] = out[0, c, :nb]
    return res


def _sym_from_t(T: np.ndarray, E: np.ndarray, p: int) -> np.ndarray:
    """S = sum_e t_e E_e mod p for a batch T (n, D') -> (d, d, n) (object-free, exact)."""
    n = T.shape[0]
    d = E.shape[1]
    S = np.zeros((d, d, n), dtype=np.int64)
    for e in range(E.shape[0]):
        for a in range(d):
            for b in range(d):
                if E[e, a, b]:
                    S[a, b] = (S[a, b] + (T[:, e] * int(E[e, a, b])) % p) % p
    return S


def moment_rows_mod_p(fam, T: object, p: int) -> np.ndarray:
    """g(t) = e_p^T G_L(S(t)) P mod p for a batch of points T (n, D') -> (n, r).

    Equal to the polynomials of :func:`~seprank.network_theory.moment_form.moment_polynomials`
    evaluated mod p (tested).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> moment_rows_mod_p(token_family(net, 0), [[3]], 101).tolist()   # G_1(S) = S
    [[3]]
    """
    data = family_residues(fam, p)
    Tm = residues(np.asarray(T, dtype=object), p, None).astype(np.int64)
    if Tm.ndim != 2 or Tm.shape[1] != fam.n_vars:
        raise InputError(f"T must be (n, {fam.n_vars}), got shape {Tm.shape}")
    S = (_sym_from_t(Tm, data["E"], p) + data["shift"][:, :, None]) % p
    out = _rows_kernel(S, data["P"], *data["W"], fam.residual, fam.coordinate, p, 1.0 / p,
                       moment_interval(p))
    return out.T.copy()


@numba.njit(cache=True, parallel=True)
def _pair_kernel(Srow, yrow, Scol, mus, mix, sizes, offsets, WQT, WK, WV, WO, residual, coord,
                 p, inv, rr, flat):  # pragma: no cover - compiled
    d = Srow.shape[1]
    R, Cn, m, nq = Srow.shape[0], Scol.shape[0], mus.shape[0], sizes.shape[0]
    per = max(1, BATCH // m)
    nchunks = (Cn + per - 1) // per
    for s in numba.prange(R):
        S = np.empty((d, d, BATCH), np.int64)
        y = np.empty((d, 1, BATCH), np.int64)
        out = np.empty((1, 1, BATCH), np.int64)
        for ch in range(nchunks):
            t0 = ch * per
            nt = min(per, Cn - t0)
            nb = nt * m
            for tt in range(nt):
                for k in range(m):
                    e = tt * m + k
                    for a in range(d):
                        y[a, 0, e] = yrow[s, a]
                        for b in range(d):
                            S[a, b, e] = reduce_mod(Srow[s, a, b] + mus[k] * Scol[t0 + tt, a, b],
                                              p, inv)
            _forward(S, y, WQT, WK, WV, WO, residual, coord, p, inv, rr, nb, out)
            for q in range(nq):
                sz = sizes[q]
                if s >= sz:
                    continue
                for tt in range(nt):
                    t = t0 + tt
                    if t >= sz:
                        break
                    acc = np.int64(0)
                    for k in range(m):
                        acc = reduce_mod(acc + mix[q, k] * out[0, 0, tt * m + k], p, inv)
                    flat[offsets[q] + s * sz + t] = acc


def pair_block_values(fam, data: dict, S_rows: np.ndarray, y_rows: np.ndarray,
                      S_cols: np.ndarray, mus: np.ndarray, mix: np.ndarray,
                      sizes: list[int]) -> list[np.ndarray]:
    """Blocks [sum_k mix[q, k] e_p^T G_L(S_s + mu_k W_t) y_s]_{s, t < sizes[q]} mod p.

    ``data`` from :func:`family_residues`; S_rows (R, d, d), y_rows (R, d), S_cols
    (Cn, d, d) residues; mus (m,), mix (nq, m) residues; sizes (nq,) with
    max(sizes) <= R, Cn. Returns one (sizes[q], sizes[q]) int64 array per q.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> one = [[[[1]]]]
    >>> fam = token_family(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one)), 0)
    >>> data = family_residues(fam, 101)
    >>> S = np.array([[[2]], [[3]]]); y = np.array([[1], [1]])
    >>> [b.tolist() for b in pair_block_values(fam, data, S, y, S, np.array([1]),
    ...                                        np.array([[1]]), [2])]   # s_s + w_t
    [[[4, 5], [5, 6]]]
    """
    p = data["p"]
    sizes_a = np.asarray(sizes, dtype=np.int64)
    if sizes_a.size and (sizes_a.max() > min(len(S_rows), len(S_cols))):
        raise ParameterError("a block is larger than the points given")
    offsets = np.concatenate([[0], np.cumsum(sizes_a ** 2)]).astype(np.int64)
    require_fits(8 * int(offsets[-1]), "moment-form block matrices")
    flat = np.zeros(int(offsets[-1]), dtype=np.int64)
    _pair_kernel(np.ascontiguousarray(S_rows % p, dtype=np.int64),
                 np.ascontiguousarray(y_rows % p, dtype=np.int64),
                 np.ascontiguousarray(S_cols % p, dtype=np.int64),
                 np.ascontiguousarray(np.asarray(mus) % p, dtype=np.int64),
                 np.ascontiguousarray(np.asarray(mix) % p, dtype=np.int64), sizes_a, offsets,
                 *data["W"], fam.residual, fam.coordinate, p, 1.0 / p, moment_interval(p),
                 flat)
    return [flat[offsets[q]:offsets[q + 1]].reshape(sz, sz) for q, sz in enumerate(sizes)]


def eval_ops(L: int, d: int, H: int, d_a: int) -> int:
    """Modular multiply-adds of one evaluation of e_p^T G_L(S) y by the kernel.

    >>> eval_ops(3, 4, 2, 2)
    800
    """
    layer = H * (2 * d_a * d * d + 2 * d_a * d_a * d) + 2 * d**3 + d * d
    last = H * (d_a * d * d + d_a * d_a * d + d_a + d)
    return (L - 1) * layer + last + d + d * d
