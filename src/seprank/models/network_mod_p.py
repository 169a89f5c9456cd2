"""The analyzed self-attention network evaluated mod p by parallel numba kernels.

What is computed
----------------
The same function as ``SelfAttentionNetwork.evaluate(X, "GF(p)", p=p)`` (the
numpy ``ModularBackend`` of :mod:`seprank.models.domains`): the depth-L
network of levine2020 eq. (3) (sec. 2.2, l.71-77; papers in
/work/shared/papers/), every layer

    y^{l,i} = sum_h W^{O,l,h} sum_j <W^{Q,l,h} x^{l,i}, W^{K,l,h} x^{l,j}> W^{V,l,h} x^{l,j},

with the skip connection x^{l+1,i} = x^{l,i} + y^{l,i} of levine2020 A.4
(fig. 5, l.478-484) when the network has ``residual=True``. Weights and
inputs are first reduced to residues by :func:`seprank.scalars.gaussian.residues`
(a denominator is inverted mod p; i is sent to
:func:`~seprank.scalars.gaussian.sqrt_minus_one` when an imaginary part
occurs), exactly as ``ModularBackend`` does; the arithmetic after that is in GF(p), so
any order of summation gives the same residues as the numpy path.

Two kernels, both ``numba.njit(parallel=True)`` with ``prange`` over blocks of
64 sequences. Inside a block every intermediate array (projections, K^T V,
layer outputs) carries the sequence index as its last, contiguous axis, so
each multiply-accumulate is one loop over the block that the compiler
vectorizes (SIMD across sequences, not within one short dot product):

* :func:`evaluate_mod_p` -- a batch of sequences X, output at every position
  (or one), like ``evaluate``;
* :func:`grid_values_mod_p` -- the entries (row, column) of a grid-tensor
  matricization (levine2020 B.1.2, l.617; :mod:`seprank.tensors.grid`) at one
  output (position, coordinate). The sequences are never materialized: each
  one is assembled from template indices inside the kernel, and the first
  layer's projections W^{Q,1,h} x, W^{K,1,h} x, W^{V,1,h} x are computed once
  per *template* (M of them) instead of once per sequence position.

Exactness bound (int64, delayed reduction)
------------------------------------------
Residues are int64 in [0, p) with p <= ``MAX_KERNEL_PRIME`` = 2^31 - 1, so one
product of two residues is at most (p - 1)^2 < 2^62. A dot product adds
products to an accumulator and reduces it mod p after every ``r`` products
(and at the end), r = floor((B - (p - 1)) / (p - 1)^2) with B = 2^62, or
B = 2^53 for p <= 2^12 (:func:`reduction_interval`; r >= 1 for every
accepted p). After a reduction the accumulator is < p, so between reductions
it stays <= (p - 1) + r (p - 1)^2 <= B < 2^63: no int64 overflow. For
p = 2^31 - 1 this is a reduction after every product; for p ~ 2^20 only at the
end of each (short) dot product.

A reduction x mod p (0 <= x <= B) takes the quotient q = int(x * (1/p)) in
float64 and corrects x - q p by at most two additions and two subtractions of
p (branch-free selects). That suffices: the computed x * (1/p) has relative
error below 3 2^-53 (rounding of x, of 1/p and of the product). For p > 2^12,
x / p < 2^50, so the absolute error is below 1/2 and q is within 1 of
floor(x / p); for p <= 2^12, x <= 2^53 is exact in float64 and x / p <= 2^52,
so the error is below 3/2 and q is within 2. Hence x - q p lies in [-2p, 3p)
and the corrections land in [0, p). Also q p <= x + 2p < 2^63. This replaces
an integer division (tens of cycles, not vectorizable) by a multiply and a few
compares. Larger primes than 2^31 - 1 are refused (``NotPrimeError``), as by
the numpy path.

Memory
------
Before allocating, the output and input arrays are sized from the shapes and
checked by :func:`seprank.linalg.memory.require_fits`, which raises
``MemoryLimitError`` when they cannot fit.

>>> from seprank.models.network import SelfAttentionNetwork
>>> net = SelfAttentionNetwork.random(L=2, d_x=2, H=1, seed=1)
>>> X = np.array([[[1, 2], [0, -1], [3, 1]]])
>>> bool((evaluate_mod_p(net, X, 97) == net.evaluate(X, "GF(p)", p=97, kernel=False)).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.linalg.memory import require_fits
from seprank.scalars.gaussian import has_imaginary, residues, sqrt_minus_one
from seprank.scalars.primes import require_prime

__all__ = ["MAX_KERNEL_PRIME", "reduction_interval", "network_residues", "evaluate_mod_p",
           "grid_values_mod_p"]

#: Largest prime the kernels accept: residues < 2^31, products < 2^62 (module docstring).
MAX_KERNEL_PRIME = 2**31 - 1
_KINDS = ("Q", "K", "V", "O")


def reduction_interval(p: int) -> int:
    """Products of two residues mod p that an int64 accumulator below p can absorb.

    r = floor((B - (p - 1)) / (p - 1)^2) with B = 2^62 (B = 2^53 for p <= 2^12,
    so that small primes keep x exact in float64): after a reduction the
    accumulator is < p, and r more products keep it <= B (module docstring).

    >>> reduction_interval(2**31 - 1), reduction_interval(5) == (2**53 - 4) // 16
    (1, True)
    """
    p = require_prime(p, max_value=MAX_KERNEL_PRIME)
    bound = 2**53 if p <= 2**12 else 2**62
    return max(1, (bound - (p - 1)) // max(1, (p - 1) ** 2))


def network_residues(net, p: int, *, extra: Sequence[object] = ()
                     ) -> tuple[tuple[np.ndarray, ...], int | None]:
    """The weights (Q, K, V, O) of ``net`` as int64 residues mod p, and the s used for i.

    s = sqrt_minus_one(p) when a weight or one of the arrays in ``extra`` (the
    inputs) has an imaginary part, else None; pass it on to reduce the inputs
    with the same image of i, as ``ModularBackend`` does.

    >>> from seprank.models.network import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights={"Q": one, "K": one, "V": one,
    ...                                              "O": [[[[-1]]]]})
    >>> (Q, K, V, O), s = network_residues(net, 7)
    >>> int(O[0, 0, 0, 0]), s
    (6, None)
    """
    p = require_prime(p, max_value=MAX_KERNEL_PRIME)
    s = None
    if any(has_imaginary(net.weights[k]) for k in _KINDS) or any(has_imaginary(e) for e in extra):
        s = sqrt_minus_one(p)
    out = tuple(np.ascontiguousarray(residues(net.weights[k], p, s)) for k in _KINDS)
    return out, s


# -- compiled pieces (a block of S sequences, the sequence index innermost) -------------------
#
# Every array of the per-block state has the sequence index s as its last (contiguous) axis,
# so each product-accumulate below is a loop over s with the same weight (or elementwise
# products of two such vectors): the compiler vectorizes it across the block.

@numba.njit(cache=True, inline="always")
def reduce_mod(x, p, inv):  # pragma: no cover - compiled
    """x mod p for an int64 0 <= x <= B (module docstring): float quotient, then fixed.

    The float quotient q = int(x * (1/p)) is within 2 of floor(x / p), so x - q p
    lies in [-2p, 3p) and two conditional additions and two conditional
    subtractions of p bring it into [0, p). No branches: vectorizable.
    """
    y = x - np.int64(x * inv) * p
    y = y + p if y < 0 else y
    y = y + p if y < 0 else y
    y = y - p if y >= p else y
    y = y - p if y >= p else y
    return y


@numba.njit(cache=True)
def _red_vec(acc, ns, p, inv):  # pragma: no cover - compiled
    for s in range(ns):
        acc[s] = reduce_mod(acc[s], p, inv)


@numba.njit(cache=True)
def _project(x, j0, nj, W, layer, p, inv, r, ns, out):  # pragma: no cover - compiled
    """out[h, j - j0, a, s] = (W[layer, h] x_{j, s})_a mod p for j0 <= j < j0 + nj.

    x has shape (N, d_x, S): x[j, :, s] is position j of sequence s of the block.
    """
    H, d_a, d_x = W.shape[1], W.shape[2], W.shape[3]
    for h in range(H):
        for j in range(nj):
            for a in range(d_a):
                acc = out[h, j, a]
                for s in range(ns):
                    acc[s] = 0
                cnt = 0
                for t in range(d_x):
                    w = W[layer, h, a, t]
                    xs = x[j0 + j, t]
                    for s in range(ns):
                        acc[s] += w * xs[s]
                    cnt += 1
                    if cnt == r:
                        _red_vec(acc, ns, p, inv)
                        cnt = 0
                _red_vec(acc, ns, p, inv)


@numba.njit(cache=True)
def _attend(q, k, v, WO, layer, x, residual, i0, nq, c0, nc, p, inv, r, ns, kv, z, out):
    """Coordinates c0 .. c0+nc-1 of the layer output at positions i0 .. i0+nq-1, into
    out[0:nq, 0:nc, s], from q (rows for positions i0..), k and v (all positions).

    y^i = sum_h W^{O,h} z^{h,i} with z^{h,i}_b = sum_a q^h_{i,a} sum_j k^h_{j,a} v^h_{j,b}
    (the sum over j first: N d_a^2 products per head), plus x^i when residual; the
    sum over (h, b) is one dot product of length H d_a.
    """
    # pragma: no cover - compiled
    H, N, d_a = k.shape[0], k.shape[1], k.shape[2]
    for h in range(H):
        for a in range(d_a):
            for b in range(d_a):
                acc = kv[a, b]
                for s in range(ns):
                    acc[s] = 0
                cnt = 0
                for j in range(N):
                    ka, vb = k[h, j, a], v[h, j, b]
                    for s in range(ns):
                        acc[s] += ka[s] * vb[s]
                    cnt += 1
                    if cnt == r:
                        _red_vec(acc, ns, p, inv)
                        cnt = 0
                _red_vec(acc, ns, p, inv)
        for i in range(nq):
            for b in range(d_a):
                acc = z[h, i, b]
                for s in range(ns):
                    acc[s] = 0
                cnt = 0
                for a in range(d_a):
                    qa, kvab = q[h, i, a], kv[a, b]
                    for s in range(ns):
                        acc[s] += qa[s] * kvab[s]
                    cnt += 1
                    if cnt == r:
                        _red_vec(acc, ns, p, inv)
                        cnt = 0
                _red_vec(acc, ns, p, inv)
    for i in range(nq):
        for c in range(nc):
            acc = out[i, c]
            if residual:
                xs = x[i0 + i, c0 + c]
                for s in range(ns):
                    acc[s] = xs[s]
            else:
                for s in range(ns):
                    acc[s] = 0
            cnt = 0
            for h in range(H):
                for b in range(d_a):
                    w = WO[layer, h, c0 + c, b]
                    zb = z[h, i, b]
                    for s in range(ns):
                        acc[s] += w * zb[s]
                    cnt += 1
                    if cnt == r:
                        _red_vec(acc, ns, p, inv)
                        cnt = 0
            _red_vec(acc, ns, p, inv)


@numba.njit(cache=True)
def _layers(x, WQ, WK, WV, WO, residual, first, position, c0, nc, p, inv, r, ns, xa, xb,
            q, k, v, kv, z, out):
    """Layers first .. L-1 (0-based) on the block state x (N, d_x, S).

    The last layer writes coordinates c0 .. c0+nc-1 at ``position`` (at every
    position if position < 0) to out; xa and xb hold the states in between.
    """
    # pragma: no cover - compiled
    L, N = WQ.shape[0], x.shape[0]
    zero, one = np.int64(0), np.int64(1)  # not literals: one compiled version
    cur = x
    for layer in range(first, L):
        _project(cur, zero, N, WK, layer, p, inv, r, ns, k)
        _project(cur, zero, N, WV, layer, p, inv, r, ns, v)
        if layer == L - 1 and position >= 0:
            _project(cur, position, one, WQ, layer, p, inv, r, ns, q)
            _attend(q, k, v, WO, layer, cur, residual, position, one, c0, nc, p, inv, r, ns,
                    kv, z, out)
        elif layer == L - 1:
            _project(cur, zero, N, WQ, layer, p, inv, r, ns, q)
            _attend(q, k, v, WO, layer, cur, residual, zero, N, c0, nc, p, inv, r, ns, kv, z,
                    out)
        else:
            nxt = xa if (layer - first) % 2 == 0 else xb
            _project(cur, zero, N, WQ, layer, p, inv, r, ns, q)
            _attend(q, k, v, WO, layer, cur, residual, zero, N, zero, x.shape[1], p, inv, r, ns,
                    kv, z, nxt)
            cur = nxt


# -- parallel drivers ---------------------------------------------------------------------

_S = 64  # sequences per block (the vectorized axis)


@numba.njit(cache=True)
def _evaluate_block(X, b0, ns, WQ, WK, WV, WO, residual, position, p, inv, r, out):
    """Sequences b0 .. b0+ns-1 of X through the network, into out[b0 .. b0+ns-1]."""
    # pragma: no cover - compiled
    N, d_x = X.shape[1], X.shape[2]
    H, d_a = WQ.shape[1], WQ.shape[2]
    zero = np.int64(0)
    S = _S
    x = np.empty((N, d_x, S), dtype=np.int64)
    xa = np.empty((N, d_x, S), dtype=np.int64)
    xb = np.empty((N, d_x, S), dtype=np.int64)
    q = np.empty((H, N, d_a, S), dtype=np.int64)
    k = np.empty((H, N, d_a, S), dtype=np.int64)
    v = np.empty((H, N, d_a, S), dtype=np.int64)
    kv = np.empty((d_a, d_a, S), dtype=np.int64)
    z = np.empty((H, N, d_a, S), dtype=np.int64)
    y = np.empty((N, d_x, S), dtype=np.int64)
    for s in range(ns):
        for j in range(N):
            for t in range(d_x):
                x[j, t, s] = X[b0 + s, j, t]
    _layers(x, WQ, WK, WV, WO, residual, zero, position, zero, d_x, p, inv, r, ns, xa, xb,
            q, k, v, kv, z, y)
    for s in range(ns):
        for i in range(out.shape[1]):
            for c in range(d_x):
                out[b0 + s, i, c] = y[i, c, s]


@numba.njit(parallel=True, cache=True)
def _evaluate_kernel(X, WQ, WK, WV, WO, residual, position, p, inv, r):  # pragma: no cover
    B, N, d_x = X.shape
    out = np.empty((B, 1 if position >= 0 else N, d_x), dtype=np.int64)
    for blk in numba.prange((B + _S - 1) // _S):
        _evaluate_block(X, blk * _S, min(_S, B - blk * _S), WQ, WK, WV, WO, residual,
                        position, p, inv, r, out)
    return out


@numba.njit(cache=True)
def _grid_block(T, P3, rows, cols, I, J, e0, ns, WQ, WK, WV, WO, residual, position,
                coordinate, p, inv, r, out):
    """Grid entries e0 .. e0+ns-1 (row-major over rows x cols) into out (module docstring)."""
    # pragma: no cover - compiled
    d_x = T.shape[1]
    L, H, d_a = WQ.shape[0], WQ.shape[1], WQ.shape[2]
    N = I.shape[0] + J.shape[0]
    C = cols.shape[0]
    zero, one = np.int64(0), np.int64(1)
    S = _S
    x = np.empty((N, d_x, S), dtype=np.int64)
    xa = np.empty((N, d_x, S), dtype=np.int64)
    xb = np.empty((N, d_x, S), dtype=np.int64)
    q = np.empty((H, N, d_a, S), dtype=np.int64)
    k = np.empty((H, N, d_a, S), dtype=np.int64)
    v = np.empty((H, N, d_a, S), dtype=np.int64)
    kv = np.empty((d_a, d_a, S), dtype=np.int64)
    z = np.empty((H, N, d_a, S), dtype=np.int64)
    y = np.empty((N, d_x, S), dtype=np.int64)
    seq = np.empty(N, dtype=np.int64)
    for s in range(ns):
        e = e0 + s
        a_, b_ = e // C, e % C
        for t in range(I.shape[0]):
            seq[I[t]] = rows[a_, t]
        for t in range(J.shape[0]):
            seq[J[t]] = cols[b_, t]
        for j in range(N):
            m = seq[j]
            for c in range(d_x):
                x[j, c, s] = T[m, c]
            for h in range(H):
                for a in range(d_a):
                    q[h, j, a, s] = P3[0, h, m, a]
                    k[h, j, a, s] = P3[1, h, m, a]
                    v[h, j, a, s] = P3[2, h, m, a]
    # layer 1 from the template projections, then layers 2 .. L
    if L == 1:
        for h in range(H):
            for a in range(d_a):
                for s in range(ns):
                    q[h, 0, a, s] = q[h, position, a, s]
        _attend(q, k, v, WO, zero, x, residual, position, one, coordinate, one, p, inv, r, ns,
                kv, z, y)
    else:
        _attend(q, k, v, WO, zero, x, residual, zero, N, zero, d_x, p, inv, r, ns, kv, z, xa)
        _layers(xa, WQ, WK, WV, WO, residual, one, position, coordinate, one, p, inv, r, ns,
                xb, x, q, k, v, kv, z, y)
    for s in range(ns):
        out[e0 + s] = y[0, 0, s]


@numba.njit(parallel=True, cache=True)
def _grid_kernel(T, rows, cols, I, J, WQ, WK, WV, WO, residual, position, coordinate, p, inv,
                 r):  # pragma: no cover - compiled
    """Entry (a, b): the network at (position, coordinate) on the sequence with templates
    rows[a] at the positions I and cols[b] at the positions J."""
    M, d_x = T.shape
    H, d_a = WQ.shape[1], WQ.shape[2]
    # first-layer projections of each template (the three projections are linear in
    # each position's vector): P3[0, h, m] = W^{Q,1,h} x^(m), P3[1] for K, P3[2] for V
    P3 = np.empty((3, H, M, d_a), dtype=np.int64)
    Tt = np.ascontiguousarray(T.T).reshape(1, d_x, M)  # the M templates as one block
    P3[0] = _project_templates(Tt, WQ, p, inv, r, M)
    P3[1] = _project_templates(Tt, WK, p, inv, r, M)
    P3[2] = _project_templates(Tt, WV, p, inv, r, M)
    B = rows.shape[0] * cols.shape[0]
    out = np.empty(B, dtype=np.int64)
    for blk in numba.prange((B + _S - 1) // _S):
        _grid_block(T, P3, rows, cols, I, J, blk * _S, min(_S, B - blk * _S), WQ, WK, WV, WO,
                    residual, position, coordinate, p, inv, r, out)
    return out


@numba.njit(cache=True)
def _project_templates(Tt, W, p, inv, r, M):  # pragma: no cover - compiled
    """(H, M, d_a): layer-1 projections W[0, h] x^(m) of the M templates (Tt: (1, d_x, M))."""
    H, d_a = W.shape[1], W.shape[2]
    zero, one = np.int64(0), np.int64(1)
    tmp = np.empty((H, 1, d_a, M), dtype=np.int64)
    _project(Tt, zero, one, W, zero, p, inv, r, M, tmp)
    out = np.empty((H, M, d_a), dtype=np.int64)
    for h in range(H):
        for m in range(M):
            for a in range(d_a):
                out[h, m, a] = tmp[h, 0, a, m]
    return out


# -- public entry points ------------------------------------------------------------------

def evaluate_mod_p(net, X: object, p: int, *, position: int | None = None) -> np.ndarray:
    """``net.evaluate(X, "GF(p)", p=p, position=position)`` computed by the numba kernel.

    Parameters
    ----------
    net : a :class:`~seprank.models.network.SelfAttentionNetwork`.
    X : (batch, N, d_x) or (N, d_x) exact numbers (ints, Fractions, GaussianRational)
        or an integer array.
    p : a prime <= ``MAX_KERNEL_PRIME`` (= 2^31 - 1).
    position : 0-based output position, or None for all.

    Returns
    -------
    int64 residues of shape (batch, N, d_x), or (batch, d_x) with ``position``
    (no batch axis when X was (N, d_x)).

    Raises
    ------
    NotPrimeError
        p is not a prime or exceeds 2^31 - 1.
    InputError
        X has the wrong shape or holds floats.
    MemoryLimitError
        the residues of X and the output cannot fit in memory.

    One layer with all weights 1 on x = (1, 2): y = x * (1 + 4) = (5, 10), and
    10 = 3 mod 7:

    >>> from seprank.models.network import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights={"Q": one, "K": one, "V": one, "O": one})
    >>> evaluate_mod_p(net, [[[1], [2]]], 7).tolist()
    [[[5], [3]]]
    """
    p = require_prime(p, max_value=MAX_KERNEL_PRIME)
    arr, single = net._inputs(X)
    B, N, d_x = arr.shape
    if position is not None:
        if isinstance(position, bool) or not isinstance(position, (int, np.integer)) \
                or not 0 <= int(position) < N:
            raise ParameterError(f"position = {position!r} must be an integer in 0..{N - 1} "
                                 "(0-based)")
        position = int(position)
    nq = 1 if position is not None else N
    require_fits(8 * B * (N * d_x + nq * d_x), f"GF({p}) evaluation of {B} sequences")
    W, s = network_residues(net, p, extra=(arr,))
    Xr = np.ascontiguousarray(residues(arr, p, s))
    out = _evaluate_kernel(Xr, *W, net.residual, -1 if position is None else position,
                           p, 1.0 / p, reduction_interval(p))
    if position is not None:
        out = out[:, 0]
    return out[0] if single else out


def grid_values_mod_p(net, templates: object, I: Sequence[int], J: Sequence[int],
                      rows: object, cols: object, p: int, *, position: int,
                      coordinate: int) -> np.ndarray:
    """Grid-tensor sub-matrix mod p: entry (a, b) is y_coordinate^position mod p on the
    sequence with templates ``rows[a]`` at the positions I and ``cols[b]`` at J.

    This is what :func:`seprank.tensors.grid.submatrix` returns for
    ``net.as_function(position, coordinate, "GF(p)", p=p)`` (levine2020 B.1.2,
    l.617: A(y)[d_1, ..., d_N] = y(x^(d_1), ..., x^(d_N))), without building
    the sequences.

    Parameters
    ----------
    net : a :class:`~seprank.models.network.SelfAttentionNetwork`.
    templates : (M, d_x) exact numbers or integers (reduced mod p here).
    I, J : disjoint position lists covering 0..N-1 (N = len(I) + len(J)).
    rows : (R, len(I)) template indices in 0..M-1; cols : (C, len(J)).
    p : a prime <= 2^31 - 1.
    position, coordinate : 0-based output position and coordinate.

    Returns
    -------
    (R, C) int64 array of residues.

    Raises
    ------
    NotPrimeError, ParameterError, InputError, MemoryLimitError
        bad prime; positions, coordinate or template indices out of range;
        wrong shapes; the (R, C) output cannot fit.

    Two templates 1 and 2, N = 2, one layer with all weights 1: the entry
    for templates (d_1, d_2) at position 0 is x_1 (x_1^2 + x_2^2), e.g.
    (d_1, d_2) = (1, 0) gives 2 (4 + 1) = 10 = 3 mod 7:

    >>> from seprank.models.network import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights={"Q": one, "K": one, "V": one, "O": one})
    >>> grid_values_mod_p(net, [[1], [2]], [0], [1], [[0], [1]], [[0], [1]], 7,
    ...                   position=0, coordinate=0).tolist()
    [[2, 5], [3, 2]]
    """
    p = require_prime(p, max_value=MAX_KERNEL_PRIME)
    T = np.asarray(templates) if isinstance(templates, np.ndarray) else \
        np.asarray(templates, dtype=object)
    if T.ndim != 2 or T.shape[0] < 1 or T.shape[1] != net.d_x:
        raise InputError(f"templates must be an (M, d_x) array with M >= 1 and d_x = "
                         f"{net.d_x}; got shape {T.shape}")
    M = T.shape[0]
    Ia, Ja = np.asarray(I, dtype=np.int64).ravel(), np.asarray(J, dtype=np.int64).ravel()
    N = len(Ia) + len(Ja)
    if N < 1 or sorted(Ia.tolist() + Ja.tolist()) != list(range(N)):
        raise ParameterError(f"I = {tuple(Ia.tolist())} and J = {tuple(Ja.tolist())} must "
                             f"partition the positions 0..{N - 1}")
    for name, val, bound in (("position", position, N), ("coordinate", coordinate, net.d_x)):
        if isinstance(val, bool) or not isinstance(val, (int, np.integer)) \
                or not 0 <= int(val) < bound:
            raise ParameterError(f"{name} = {val!r} must be an integer in 0..{bound - 1} "
                                 "(0-based)")
    ra = np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, len(Ia))) \
        if np.size(rows) or len(Ia) else np.zeros((len(rows), 0), dtype=np.int64)
    ca = np.ascontiguousarray(np.asarray(cols, dtype=np.int64).reshape(-1, len(Ja))) \
        if np.size(cols) or len(Ja) else np.zeros((len(cols), 0), dtype=np.int64)
    if ra.shape[0] != len(rows) or ca.shape[0] != len(cols):
        raise InputError(f"rows must be ({len(rows)}, {len(Ia)}) and cols ({len(cols)}, "
                         f"{len(Ja)}) template indices; got shapes {np.shape(rows)}, "
                         f"{np.shape(cols)}")
    for name, arr in (("rows", ra), ("cols", ca)):
        if arr.size and (arr.min() < 0 or arr.max() >= M):
            raise ParameterError(f"{name} hold template indices outside 0..{M - 1} (M = {M})")
    R, C = ra.shape[0], ca.shape[0]
    require_fits(8 * R * C, f"{R} x {C} grid sub-matrix mod {p}")
    if R * C == 0:
        return np.zeros((R, C), dtype=np.int64)
    W, s = network_residues(net, p, extra=(T,))
    Tr = np.ascontiguousarray(residues(T, p, s))
    out = _grid_kernel(Tr, ra, ca, Ia, Ja, *W, net.residual, int(position), int(coordinate),
                       p, 1.0 / p, reduction_interval(p))
    return out.reshape(R, C)
