"""Kernel vectors of the catalecticant blocks from the apolar ideal of g_1, ..., g_r.

Setting (:mod:`seprank.separation.moment.blocks`, non-residual families): g_j is
homogeneous of degree C in D' variables t, and block b of the catalecticant K has
entries K[(j, alpha), gamma] = (alpha + gamma)! c^(j)_{alpha+gamma} = d^alpha d^gamma g_j (0)
(|alpha| = C - b, |gamma| = b). For y indexed by the exponents gamma write
Q_y = sum_gamma y_gamma d^gamma (a differential operator of order b). Then

    (K y)_{(j, alpha)} = d^alpha (Q_y g_j) (0),

and Q_y g_j is homogeneous of degree C - b, so K y = 0 iff Q_y g_j = 0 for every j:
the column kernel of block b is the degree-b part Ann_b of the annihilator (apolar)
ideal Ann = {Q : Q g_j = 0 for all j} (in the sense of Macaulay's inverse systems).

Two consequences, both exact statements about integer vectors:

* Ann is an ideal: Q in Ann_{b-1} gives d_e Q in Ann_b for each variable t_e
  (d_e Q g_j = d_e (Q g_j) = 0). In coordinates the product shifts every exponent
  gamma to gamma + e_e (:func:`shift_maps`).
* Row kernels: a vector mu on the rows of block b with mu K = 0 is a tuple of
  operators P_j = sum_alpha mu_{(j, alpha)} d^alpha (order C - b) with
  sum_j P_j g_j = 0 (a relation of order C - b); for Q in Ann_{C-b} the tuples
  (0, ..., Q, ..., 0) (Q in place k) are relations, and relations form a module:
  (P_j) of order k - 1 gives (d_e P_j) of order k (d_e sum_j P_j g_j = 0).

So every block's rank has the certified upper bounds
cols_b - dim(known part of Ann_b) and rows_b - dim(known relations of order C - b), where a
known part is a set of integer vectors independent mod p (hence over Q) that lie in
Ann by the two facts above, starting from kernel vectors computed exactly and checked
on every row (:func:`seprank.separation.moment.blocks.verify_kernel`). No lifting is
needed for a block whose deficiency these products already fill.

Seeds without lifting (:func:`first_layer_annihilators`, plain token families): G_1(S)
reads S only through the linear forms l_k(t) = (V_h S(t) K_h^T)_{ac}, and g_j lies in
the 3^(L-1)-th power of their ideal (check L-Generic2's argument; levine2020 eq. (3)).
For directions w with l_k(w) = 0 for every k, the derivative d_w = sum_e w_e d_e kills
every l_k; in coordinates (l, u) with d_w acting on u alone, each monomial of g_j has at
most C - 3^(L-1) factors from u, so every product of C - 3^(L-1) + 1 such derivatives
annihilates g_j: known vectors of Ann_b, b = C - 3^(L-1) + 1, from the weights alone.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, lcm

import flint
import numpy as np

from seprank.separation.moment.blocks import exponents

__all__ = ["ApolarIdeal", "shift_maps", "independent_rows", "first_layer_annihilators",
           "MAX_CANDIDATE_ENTRIES"]

#: Largest candidate matrix (vectors x columns) whose independent rows are selected mod
#: p (flint rref of about 6e6 entries measured 3 s, their conversion 4 s).
MAX_CANDIDATE_ENTRIES = 8_000_000


def shift_maps(n_vars: int, b: int) -> np.ndarray:
    """M[e, i]: the index of gamma_i + e_e among the degree-b exponents, gamma_i the
    i-th exponent of degree b - 1 (:func:`~seprank.separation.moment.blocks.exponents`).

    >>> shift_maps(2, 2).tolist()       # degree 1: (1,0), (0,1); degree 2: (2,0), (1,1), (0,2)
    [[0, 1], [1, 2]]
    """
    low, high = exponents(n_vars, b - 1), exponents(n_vars, b)
    index = {tuple(int(v) for v in g): i for i, g in enumerate(high)}
    out = np.zeros((n_vars, len(low)), dtype=np.int64)
    for e in range(n_vars):
        for i, g in enumerate(low):
            key = list(int(v) for v in g)
            key[e] += 1
            out[e, i] = index[tuple(key)]
    return out


def independent_rows(M: np.ndarray, p: int) -> list[int]:
    """Indices of a maximal set of rows of the int64 residue matrix M independent mod p
    (the pivot columns of the reduced echelon form of M^T).

    >>> independent_rows(np.array([[1, 2], [2, 4], [0, 1]]), 7)
    [0, 2]
    """
    if M.shape[0] == 0:
        return []
    R, rank = flint.nmod_mat(M.T.tolist(), p).rref()
    n = M.shape[0]
    entries = np.array([int(x) for x in R.entries()], dtype=np.int64).reshape(-1, n)[:rank]
    return [int(np.flatnonzero(row)[0]) for row in entries]


class ApolarIdeal:
    """The known part of Ann_b per degree b: integer vectors (rows of an object array
    over the degree-b exponents), independent mod ``p``; and the known row relations of
    order k (vectors over (j, alpha), index j * #alphas + i_alpha) (module docstring).

    >>> ideal = ApolarIdeal(2, 1000003)
    >>> ideal.add(1, [(1, -1)])                       # d_0 - d_1 annihilates
    >>> ideal.candidates(2).tolist()                  # d_0 (d_0 - d_1), d_1 (d_0 - d_1)
    [[1, -1, 0], [0, 1, -1]]
    >>> ideal.extend(2)
    2
    >>> ideal.relation_candidates(1, 2).tolist()      # r = 2: (Q, 0) and (0, Q)
    [[1, -1, 0, 0], [0, 0, 1, -1]]
    """

    def __init__(self, n_vars: int, p: int):
        self.n_vars, self.p = n_vars, p
        self.known: dict[int, np.ndarray] = {}
        self.relations: dict[int, np.ndarray] = {}

    def dim(self, b: int) -> int:
        """How many independent vectors of Ann_b are known."""
        return 0 if b not in self.known else len(self.known[b])

    def _merge(self, store: dict, k: int, vectors) -> None:
        """Join exact vectors to ``store[k]``, keeping a set independent mod p."""
        if not len(vectors):
            return
        new = np.array([[int(v) for v in vec] for vec in vectors], dtype=object)
        rows = new if k not in store else np.vstack([store[k], new])
        store[k] = rows[independent_rows((rows % self.p).astype(np.int64), self.p)]

    def add(self, b: int, vectors) -> None:
        """Add exact kernel vectors of block b (checked on every row by the caller)."""
        self._merge(self.known, b, vectors)

    def candidates(self, b: int) -> np.ndarray | None:
        """d_e Q for every known Q in Ann_{b-1} and every variable (None: none known or
        too many to select from)."""
        low = self.known.get(b - 1)
        if low is None or not len(low):
            return None
        cols = len(exponents(self.n_vars, b))
        if len(low) * self.n_vars * cols > MAX_CANDIDATE_ENTRIES:
            return None
        maps = shift_maps(self.n_vars, b)
        out = np.zeros((self.n_vars * len(low), cols), dtype=object)
        for e in range(self.n_vars):
            out[e * len(low):(e + 1) * len(low)][:, maps[e]] = low
        return out

    def relations_dim(self, k: int) -> int:
        """How many independent row relations of order k are known."""
        return 0 if k not in self.relations else len(self.relations[k])

    def add_relations(self, k: int, vectors, r: int) -> None:
        """Add exact row relations of order k (vectors over (j, alpha), |alpha| = k)."""
        self._merge(self.relations, k, vectors)

    def relation_candidates(self, k: int, r: int) -> np.ndarray | None:
        """(0, .., Q, .., 0) for Q in Ann_k, and d_e (P_1, ..., P_r) for the known
        relations of order k - 1 (None: none known or too many to select from)."""
        n_k = len(exponents(self.n_vars, k))
        parts = []
        ann = self.known.get(k)
        if ann is not None and len(ann):
            emb = np.zeros((r * len(ann), r * n_k), dtype=object)
            for j in range(r):
                emb[j * len(ann):(j + 1) * len(ann), j * n_k:(j + 1) * n_k] = ann
            parts.append(emb)
        low = self.relations.get(k - 1)
        if low is not None and len(low) and \
                len(low) * self.n_vars * r * n_k <= MAX_CANDIDATE_ENTRIES:
            maps = shift_maps(self.n_vars, k)
            n_low = maps.shape[1]
            cols = (np.arange(r)[:, None] * n_k + maps[:, None, :]).reshape(self.n_vars, -1)
            out = np.zeros((self.n_vars * len(low), r * n_k), dtype=object)
            for e in range(self.n_vars):
                out[e * len(low):(e + 1) * len(low)][:, cols[e]] = low.reshape(len(low), r * n_low)
            parts.append(out)
        return np.vstack(parts) if parts else None

    def extend_relations(self, k: int, r: int) -> int:
        """Put the independent relations of :meth:`relation_candidates` into order k."""
        cand = self.relation_candidates(k, r)
        if cand is not None:
            self.add_relations(k, cand, r)
        return self.relations_dim(k)

    def extend(self, b: int) -> int:
        """Put the independent products of Ann_{b-1} into Ann_b; returns dim known."""
        cand = self.candidates(b)
        if cand is not None:
            self.add(b, cand)
        return self.dim(b)


def _kernel_directions(fam) -> list[list[int]]:
    """Integer vectors spanning {w : l_k(w) = 0 for every first-layer form l_k}
    (module docstring), l_k(t) = (V_h S(t) K_h^T)_{ac} with S(t) = sum_e t_e E_e: the
    forms' rows cleared of denominators, then flint's exact ``fmpz_mat.nullspace``."""
    net = fam.net
    rows = []
    for h in range(net.H):
        V = np.asarray(net.weights["V"][0, h], dtype=object)
        K = np.asarray(net.weights["K"][0, h], dtype=object)
        forms = [V.dot(np.asarray(fam.basis[e], dtype=object)).dot(K.T)
                 for e in range(fam.n_vars)]
        for a in range(V.shape[0]):
            for c in range(K.shape[0]):
                row = [Fraction(forms[e][a, c]) for e in range(fam.n_vars)]
                den = lcm(*(x.denominator for x in row))
                rows.append([int(x * den) for x in row])
    null, nullity = flint.fmpz_mat(rows).nullspace()
    return [[int(null[i, k]) for i in range(fam.n_vars)] for k in range(nullity)]


def first_layer_annihilators(fam, max_entries: int = MAX_CANDIDATE_ENTRIES
                             ) -> tuple[int, list[tuple[int, ...]]] | None:
    """(b, vectors of Ann_b) known from the first layer alone (module docstring): the
    products of b = C - 3^(L-1) + 1 derivatives along the directions every first-layer
    form vanishes on, as coefficient vectors over the degree-b exponents
    (:func:`~seprank.separation.moment.blocks.exponents` order). None for a family they
    do not apply to (residual, shifted), when no direction exists (H d_a^2 >= D and the
    forms independent), or past ``max_entries`` entries.

    Valid for every weight; the caller still checks them on every row of block b before
    they join an :class:`ApolarIdeal`.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> row, col = [[[[1, 0]]]], [[[[1], [0]]]]      # d_a = 1: one form, S_00
    >>> net = SelfAttentionNetwork(1, 2, 1, 1, weights=dict(Q=row, K=row, V=row, O=col))
    >>> b, vecs = first_layer_annihilators(token_family(net, 0))
    >>> b, len(vecs)                  # C = 1; D = 3 moments, S_00 read: d_w, w in ker
    (1, 2)
    """
    from seprank.network_theory.moment_form import degree_C

    if fam.mixed or fam.shift is not None:
        return None
    C = degree_C(fam.net.L)
    b = C - 3 ** (fam.net.L - 1) + 1
    dirs = _kernel_directions(fam)
    if not dirs or b < 1:
        return None
    n = fam.n_vars
    cols = exponents(n, b)
    count = comb(len(dirs) + b - 1, b)
    if count * len(cols) > max_entries:
        return None
    ctx = flint.fmpz_mpoly_ctx.get(("t", n), "deglex")
    gens = ctx.gens()
    lin = [sum((int(c) * g for c, g in zip(w, gens, strict=True) if c), ctx.from_dict({}))
           for w in dirs]
    index = {tuple(int(v) for v in g): i for i, g in enumerate(cols)}
    vectors = []
    for multi in combinations_with_replacement(range(len(lin)), b):
        poly = ctx.from_dict({(0,) * n: 1})
        for i in multi:
            poly = poly * lin[i]
        vec = [0] * len(cols)
        for e, c in zip(poly.monoms(), poly.coeffs(), strict=True):
            vec[index[tuple(int(v) for v in e)]] = int(c)
        vectors.append(tuple(vec))
    return b, vectors
