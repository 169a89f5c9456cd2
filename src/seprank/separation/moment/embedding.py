"""Moment families behind wies2021's embeddings (eq. (1) vocabulary, eq. (2) convolution).

Vocabulary embedding without positional part (wies2021 eq. (1), l.64-70, P = 0)
--------------------------------------------------------------------------------
Token w enters as x^{0,w} = M_V e_w. Factor M_V = A B exactly (A: the pivot
columns of M_V, d x r; B: the nonzero rows of its reduced row echelon form, r x V,
rank r), so x^{0,w} = A b_w with the columns b_w of B spanning R^r. Then
S = A T A^T with T = sum_j b_{w_j} b_{w_j}^T = B diag(c) B^T (c: the token counts),
and y^i = G_L(A T A^T) A b_{w^i}. Let Sigma = span{b_w b_w^T} in Sym(r), with the
basis b_{w_e} b_{w_e}^T for a maximal independent set of tokens w_e, and
coordinates t. The family is F(xi, t) = e_p^T G_L(A T(t) A^T) A xi with
E_e = A b_{w_e} b_{w_e}^T A^T and P = A; xi = b_w.

The N -> infinity value (every partition with |I| >= C + 1, |J| >= C)
---------------------------------------------------------------------
The token function lives on a finite set; its separation rank is the rank of its
value matrix, at most rank(C_F) (factor C_F). It depends on the tokens of J only
through their counts c (|c| = |J|), via t(c) = sum_w c_w t(e_w). A combination
Q(W) = sum_gamma lambda_gamma W^gamma of columns (all degrees <= C together: on a
finite set the J tokens cannot be scaled, so the degree blocks are not separated)
gives q(c) = Q(t(c)) of degree <= C; if q vanishes on the lattice {c >= 0 integer,
|c| = |J|}, which (the principal lattice of a simplex) is unisolvent for degree
<= |J| on the hyperplane |c| = |J|, then q vanishes on that hyperplane and Q on
its image |J| * aff{t(e_w)}.

* No linear functional l has l(t(e_w)) = 1 for every w (checked exactly): the
  affine hull is all of R^{D'}, so Q = 0. Row side: for each output token w the
  same argument in the counts of I minus w (|I| - 1 >= C) gives
  sum_j (b_w)_j Q_j = 0, and the b_w span R^r, so Q_j = 0. Rows and columns of C_F
  stay independent on the reachable points: sep = rank(C_F).
* Such an l exists (e.g. V = D' tokens): the moments of I and J lie on the
  hyperplanes l = |I| and l = |J|. Write t = n e_0 + t' with e_0 = t(e_{w_0}) and
  t' in K = ker l (basis t(e_w) - e_0 for the other basis tokens). Without residual
  connections g_j is homogeneous of degree C, so
  F(xi, |I| e_0 + U', |J| e_0 + W') = N^C sum_j xi_j g_j(e_0 + (U' + W') / N), N = |I| + |J|,
  whose coefficient matrix in (xi, U' | W') is a diagonal rescaling of that of
  F_aff(xi, U', W') = sum_j xi_j g_j(e_0 + U' + W'): the same rank for every N. The
  argument above, now inside the hyperplanes (whose affine hulls are reached),
  gives sep = rank(C_{F_aff}). The route ranks F_aff: the family with shift
  E_0 = A b_{w_0} b_{w_0}^T A^T and basis of K, mixed degrees (one block). With
  residual connections g_j is not homogeneous and the value may depend on N:
  refused.

Convolution embedding without positional part (eq. (2), (4), l.72-80)
--------------------------------------------------------------------
Position i sees x^{0,i} = W z^i with z^i the i-th patch (k d_input raw inputs) and
W the reshaped kernel (eq. (4)). Factor W = A B as above (rank r); u^i = B z^i
ranges over all of R^r, so the network is the token network in r dimensions:
E_e = A E^(r)_e A^T (unit symmetric matrices of Sym(r)) and P = A. This covers the
partitions of the raw positions that split no patch (a patch is one token);
sep = rank(C_F) once the output side has >= r + 1 patches and the other >= r
(the token theorem of :mod:`seprank.separation.moment` with d replaced by r).
Partitions that split patches are not covered.

Positional embeddings (P != 0) make the output depend on which position holds
which token, not only on the moment matrix: both are refused.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.linalg import rank as linalg_rank
from seprank.network_theory.moment_form import MomentFamily, check_net, moment_pairs

__all__ = ["embedding_family", "rank_factorization"]


def rank_factorization(M: object) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """M = A B exactly: A = the pivot columns of M, B = the nonzero rows of rref(M).

    >>> A, B, piv = rank_factorization([[1, 2, 3], [2, 4, 6]])
    >>> A.tolist(), [[str(x) for x in row] for row in B.tolist()], piv
    ([[1], [2]], [['1', '2', '3']], [0])
    """
    arr = np.asarray(M, dtype=object)
    m, n = arr.shape
    q = flint.fmpq_mat(m, n, [flint.fmpq(Fraction(x).numerator, Fraction(x).denominator)
                              for x in arr.ravel()])
    R, rank = q.rref()
    pivots, B = [], np.empty((rank, n), dtype=object)
    for i in range(rank):
        row = [Fraction(int(R[i, j].p), int(R[i, j].q)) for j in range(n)]
        pivots.append(next(j for j, v in enumerate(row) if v != 0))
        B[i] = row
    A = arr[:, pivots]
    return A, B, pivots


def _sym_vec(v: np.ndarray) -> list:
    r = len(v)
    return [v[a] * v[b] for a, b in moment_pairs(r)]


def _exact_rank(rows: list[list]) -> int:
    return linalg_rank([[Fraction(x) for x in row] for row in rows], "exact").value


def _vocabulary(net, emb, coordinate):
    if any(x != 0 for x in np.asarray(emb.P).ravel()):
        raise ParameterError("a positional embedding (P != 0) breaks permutation equivariance: "
                             "the output is no function of the moment matrix, so the moment "
                             "route does not apply")
    A, B, _ = rank_factorization(emb.M_V)
    r, V = B.shape
    gram = [_sym_vec(B[:, w]) for w in range(V)]           # coordinates of b_w b_w^T
    cols = np.array(gram, dtype=object).T.tolist()          # D_r x V
    _, _, chosen = rank_factorization(cols) if r else (None, None, [])
    moments = [A.dot(np.outer(B[:, w], B[:, w])).dot(A.T) for w in chosen]
    affine = bool(chosen) and _exact_rank(cols + [[1] * V]) == _exact_rank(cols)
    info = {"embedding": "vocabulary", "V": V, "r": r, "moment_dimension": len(chosen),
            "full_moment_span": len(chosen) == r * (r + 1) // 2, "affine_hyperplane": affine,
            "threshold": "|I| >= C + 1 (output side) and |J| >= C"}
    shift = None
    if affine:
        if net.residual:
            raise ParameterError("with residual connections the moment route needs the b_w b_w^T "
                                 "off a common affine hyperplane; here l(b_w b_w^T) = 1 for all "
                                 "w, so the limit need not be the moment-form rank")
        shift, moments = moments[0], [m - moments[0] for m in moments[1:]]
    note = (f"vocabulary embedding: r = {r}, V = {V}, moments in a {len(chosen)}-dimensional "
            "span of the b_w b_w^T" + (", on an affine hyperplane (shifted family)"
                                       if affine else ""))
    E = np.array(moments, dtype=object).reshape(len(moments), net.d_x, net.d_x)
    return MomentFamily(net, coordinate, E, A, "vocabulary", note, shift), info


def _convolution(net, emb, coordinate):
    if any(x != 0 for x in np.asarray(emb.P).ravel()):
        raise ParameterError("a positional embedding (P != 0) breaks permutation equivariance: "
                             "the output is no function of the moment matrix, so the moment "
                             "route does not apply")
    A, _, _ = rank_factorization(emb.reshaped_kernel())
    r = A.shape[1]
    E = []
    for a, b in moment_pairs(r):
        unit = np.zeros((r, r), dtype=object)
        unit[a, b] = unit[b, a] = 1
        E.append(A.dot(unit).dot(A.T))
    E = np.array(E, dtype=object).reshape(len(E), net.d_x, net.d_x)
    info = {"embedding": "convolution", "r": r, "k": emb.k, "d_input": emb.d_input,
            "threshold": "partitions that split no patch, with >= r + 1 patches on the output "
                         "side and >= r on the other"}
    note = f"convolution embedding: kernel rank r = {r}, patches as tokens in R^r"
    return MomentFamily(net, coordinate, E, A, "convolution", note), info


def embedding_family(net, embedding, coordinate: int) -> tuple[MomentFamily, dict]:
    """The moment family of ``net`` behind a wies2021 embedding (module docstring).

    Raises ParameterError for a positional embedding (P != 0), a residual network whose
    vocabulary moments lie on an affine hyperplane, or an unknown embedding; InputError
    for a d_x mismatch.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.models.embedding import VocabularyEmbedding
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    >>> fam, info = embedding_family(net, VocabularyEmbedding([[1, 0, 1], [0, 1, 1]],
    ...                                                       [[0, 0], [0, 0]]), 0)
    >>> fam.n_rows, info["full_moment_span"], info["affine_hyperplane"], fam.n_vars
    (2, True, True, 2)

    (three tokens: their moments span Sym(2) and lie on a plane l = 1, so the family
    is shifted onto that plane, in 2 variables).
    """
    from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding

    if isinstance(coordinate, bool) or not isinstance(coordinate, int) \
            or not 0 <= coordinate < net.d_x:
        raise ParameterError(f"coordinate must be an integer in 0..{net.d_x - 1}, "
                             f"got {coordinate!r}")
    check_net(net)
    if getattr(embedding, "d_x", None) != net.d_x:
        raise InputError(f"the embedding has d_x = {getattr(embedding, 'd_x', None)}, the "
                         f"network {net.d_x}")
    if isinstance(embedding, VocabularyEmbedding):
        return _vocabulary(net, embedding, coordinate)
    if isinstance(embedding, ConvolutionalEmbedding):
        return _convolution(net, embedding, coordinate)
    raise ParameterError(f"unknown embedding {type(embedding).__name__}")
