"""Grid-tensor values mod p through the moment form (the grid route's evaluator).

What is computed
----------------
The same residues as :func:`seprank.models.network_mod_p.grid_values_mod_p`: entry (a, b)
is y^{L, position}_coordinate mod p on the sequence whose positions I hold the templates
``rows[a]`` and whose positions J hold ``cols[b]`` (levine2020 B.1.2, l.617; papers in
/work/shared/papers/).

Why the moment form applies (with and without residual connections)
--------------------------------------------------------------------
One layer of levine2020 eq. (3) (sec. 2.2, l.71-77) at position i is

    y^i = sum_h W^O_h sum_j <W^Q_h x^i, W^K_h x^j> W^V_h x^j
        = sum_h W^O_h W^V_h (sum_j x^j x^jT) W^K_hT W^Q_h x^i = M(S) x^i,

with S = sum_j x^j x^jT: every position is multiplied by the *same* matrix M(S). With
the skip connection of levine2020 A.4 (fig. 5, l.478-484) the next state is
x^i + M(S) x^i = (I + M(S)) x^i, again one matrix for every position. So after a layer
with matrix A (A = M or I + M) the states are A x^j and the next moment matrix is
A S A^T: by induction the output is y^{L, i} = G_L(S) x^i, with G_L a product of such
matrices, each a function of S alone (:mod:`seprank.network_theory.moment_form`). The
evaluation is an identity over the integers, hence mod p: the residues are those of the
network kernel, entry by entry (tested, residual networks included).

How the grid is used
--------------------
S = S_a + S_b with S_a = sum over the row templates, S_b over the column templates, and
layer 0's M is linear in S: M_0(S) = M_0(S_a) + M_0(S_b). Both pieces are computed once
per row point and once per column point; an entry then costs d^2 additions for S and M_0
and the remaining L - 1 layers of :func:`seprank.models.moment_mod_p.forward_from`,
O(L H d^3) in all, independent of N (the network kernel costs O(L H N d d_a)).
"""

from __future__ import annotations

import numba
import numpy as np

from seprank.errors import ParameterError
from seprank.linalg.memory import require_fits
from seprank.models.moment_mod_p import (
    BATCH,
    eval_ops,
    forward_from,
    layer_moment,
    moment_interval,
    reduce_mod,
)
from seprank.models.network_mod_p import network_residues
from seprank.scalars.gaussian import residues

__all__ = ["grid_values_moment", "moment_form_applies", "network_eval_ops",
           "prefer_moment_form", "MOMENT_ADVANTAGE"]

#: How many times fewer modular multiply-adds the moment form must need before the grid
#: route uses it. Measured on 2 shared cores (benchmarks/token_eval.py, L = 3, d_x = 4,
#: H = 2): both kernels run about the same multiply-adds per second (0.9-1.1 times), so
#: the operation counts decide.
MOMENT_ADVANTAGE = 1.0


@numba.njit(cache=True, parallel=True)
def _point_moments(T, idx, WQT, WK, WV, WO, p, inv, rr):  # pragma: no cover - compiled
    """S[n] = sum_t x x^T over the templates idx[n, :] and M0[n] = layer 0's M(S[n])."""
    n, k = idx.shape
    d = T.shape[1]
    H, d_a = WK.shape[1], WK.shape[2]
    S = np.empty((n, d, d), np.int64)
    M0 = np.empty((n, d, d), np.int64)
    for blk in numba.prange((n + BATCH - 1) // BATCH):
        b0 = blk * BATCH
        nb = min(BATCH, n - b0)
        Sb = np.zeros((d, d, BATCH), np.int64)
        Mb = np.empty((d, d, BATCH), np.int64)
        t1 = np.empty((d_a, d, BATCH), np.int64)
        t2 = np.empty((d_a, d_a, BATCH), np.int64)
        t3 = np.empty((d, d_a, BATCH), np.int64)
        t4 = np.empty((d, d, BATCH), np.int64)
        for i in range(d):
            for j in range(d):
                for s in range(nb):
                    acc = np.int64(0)
                    for t in range(k):
                        m = idx[b0 + s, t]
                        acc = reduce_mod(acc + T[m, i] * T[m, j], p, inv)
                    Sb[i, j, s] = acc
        if H > 0:
            layer_moment(Sb, WQT, WK, WV, WO, 0, -1, p, inv, rr, nb, t1, t2, t3, t4, Mb)
        for s in range(nb):
            S[b0 + s] = Sb[:, :, s]
            M0[b0 + s] = Mb[:, :, s]
    return S, M0


@numba.njit(cache=True, parallel=True)
def _grid_kernel(Sr, Mr, Sc, Mc, Y, y_on_rows, WQT, WK, WV, WO, residual, coord, p, inv,
                 rr):  # pragma: no cover - compiled
    """out[a * C + b] = e_coord^T G_L(Sr[a] + Sc[b]) y, y = Y[a] (y_on_rows) or Y[b]."""
    R, C, d = Sr.shape[0], Sc.shape[0], Sr.shape[1]
    n = R * C
    out = np.empty(n, np.int64)
    for blk in numba.prange((n + BATCH - 1) // BATCH):
        e0 = blk * BATCH
        nb = min(BATCH, n - e0)
        S = np.empty((d, d, BATCH), np.int64)
        M = np.empty((d, d, BATCH), np.int64)
        y = np.empty((d, 1, BATCH), np.int64)
        o = np.empty((1, 1, BATCH), np.int64)
        for s in range(nb):
            a, b = (e0 + s) // C, (e0 + s) % C
            for i in range(d):
                for j in range(d):
                    S[i, j, s] = reduce_mod(Sr[a, i, j] + Sc[b, i, j], p, inv)
                    M[i, j, s] = reduce_mod(Mr[a, i, j] + Mc[b, i, j], p, inv)
                y[i, 0, s] = Y[a, i] if y_on_rows else Y[b, i]
        forward_from(S, y, WQT, WK, WV, WO, residual, coord, p, inv, rr, nb, o, True, M)
        for s in range(nb):
            out[e0 + s] = o[0, 0, s]
    return out


def network_eval_ops(net, N: int) -> int:
    """Modular multiply-adds of one value of the network kernel at N positions (the
    grid route's estimate, :func:`seprank.separation.grid.route.grid_estimate`).

    >>> from seprank.models import SelfAttentionNetwork
    >>> network_eval_ops(SelfAttentionNetwork.random(3, 4, 2, seed=0), 2)
    480
    """
    return net.L * net.H * N * (4 * net.d_a * net.d_x + 2 * net.d_a ** 2)


def prefer_moment_form(net, N: int, p: int) -> bool:
    """Whether the grid route evaluates through the moment form: it applies (real
    weights) and needs :data:`MOMENT_ADVANTAGE` times fewer operations than the network
    kernel (:func:`seprank.models.moment_mod_p.eval_ops` against
    :func:`network_eval_ops`): O(L H d^3) against O(L H N d d_a), so for N large
    compared with d. Both give the same residues; only the time differs.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(3, 4, 2, seed=0)
    >>> prefer_moment_form(net, 2, 101), prefer_moment_form(net, 8, 101)
    (False, True)
    """
    cheaper = MOMENT_ADVANTAGE * eval_ops(net.L, net.d_x, net.H, net.d_a) \
        < network_eval_ops(net, N)
    return cheaper and moment_form_applies(net, p)


def moment_form_applies(net, p: int) -> bool:
    """Whether :func:`grid_values_moment` takes ``net`` mod p: real weights (a Gaussian
    weight is sent through sqrt(-1) mod p, which the moment kernels do not take).

    >>> from seprank.models import SelfAttentionNetwork
    >>> moment_form_applies(SelfAttentionNetwork.random(1, 2, 1, seed=0), 101)
    True
    """
    return network_residues(net, p)[1] is None


def grid_values_moment(net, templates: np.ndarray, I, J, rows: np.ndarray, cols: np.ndarray,
                       p: int, *, position: int, coordinate: int) -> np.ndarray:
    """The (R, C) grid sub-matrix of :func:`seprank.models.network_mod_p.grid_values_mod_p`
    (same arguments, same residues), evaluated through the moment form (module docstring).

    Parameters
    ----------
    net : a :class:`~seprank.models.SelfAttentionNetwork` with real exact weights.
    templates : (M, d_x) int64 residues mod p.
    I, J : the positions holding the row and the column templates (a partition of 0..N-1).
    rows : (R, len(I)) and cols : (C, len(J)) template indices.
    p : a prime <= 2^31 - 1.
    position, coordinate : the 0-based output position and coordinate.

    Returns
    -------
    (R, C) int64 residues.

    Raises
    ------
    ParameterError
        a Gaussian weight (see :func:`moment_form_applies`), or ``position`` in neither I
        nor J.
    MemoryLimitError
        the output and the per-point moments cannot fit.

    One layer with all weights 1, N = 2: entry (d_1, d_2) at position 0 is
    x_1 (x_1^2 + x_2^2), e.g. (1, 0) gives 2 (4 + 1) = 10 = 3 mod 7:

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", [[[[1]]]]))
    >>> T, idx = np.array([[1], [2]]), np.array([[0], [1]])
    >>> grid_values_moment(net, T, [0], [1], idx, idx, 7, position=0, coordinate=0).tolist()
    [[2, 5], [3, 2]]
    """
    I, J = list(I), list(J)
    if position not in I and position not in J:
        raise ParameterError(f"position = {position!r} is in neither I = {I} nor J = {J}")
    W, s = network_residues(net, p)
    if s is not None:
        raise ParameterError("the moment-form grid evaluator takes real (not Gaussian) weights")
    Q, K, V, O = W
    WQT = np.ascontiguousarray(Q.transpose(0, 1, 3, 2))
    T = np.ascontiguousarray(residues(np.asarray(templates), p, None), dtype=np.int64)
    ra = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, len(I))
    ca = np.ascontiguousarray(cols, dtype=np.int64).reshape(-1, len(J))
    R, C, d = ra.shape[0], ca.shape[0], net.d_x
    require_fits(8 * (R * C + 2 * (R + C) * d * d), f"{R} x {C} grid sub-matrix mod {p}")
    if R * C == 0:
        return np.zeros((R, C), dtype=np.int64)
    inv, rr = 1.0 / p, moment_interval(p)
    Sr, Mr = _point_moments(T, ra, WQT, K, V, O, p, inv, rr)
    Sc, Mc = _point_moments(T, ca, WQT, K, V, O, p, inv, rr)
    on_rows = position in I
    Y = T[ra[:, I.index(position)]] if on_rows else T[ca[:, J.index(position)]]
    out = _grid_kernel(Sr, Mr, Sc, Mc, np.ascontiguousarray(Y), on_rows, WQT, K, V, O,
                       net.residual, int(coordinate), p, inv, rr)
    return out.reshape(R, C)
