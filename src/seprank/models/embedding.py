"""The input embedding layers of wies2021 (sec. 2.1, eqs. (1)-(4), l.56-84), exact.

Vocabulary embedding (eq. (1), l.64-70)
---------------------------------------
Tokens w^1, ..., w^N in [V] become indicators hat w^i = e_{w^i} in R^V and

    y^{0,i} = M_V hat w^i + p^i,

with the vocabulary matrix M_V of shape d_x x V (as printed, l.70) and the
positional embedding p^i in R^{d_x}, stored as the columns of P (d_x x N).
The embedding rank is r = rank(M_V) (eq. (3)). Random embeddings here are
drawn as in the proof of Theorem 3 (eq. (10), l.385): M_V = A B with A
(d_x x r) and B (r x V), P = P_low M_pos with P_low (d_x x r_e) and M_pos
(r_e x N), small random integers; the ranks are then *measured* exactly with
:func:`seprank.rank` and a draw is repeated until rank(M_V) = min(r, d_x, V)
and rank(P) = min(r_e, d_x, N).

Convolution embedding (eq. (2), (4), l.72-80)
---------------------------------------------
M raw vectors x^1, ..., x^M in R^{d_input}, M a multiple of N, k = M / N, and
a kernel W^conv of shape (k, d_x, d_input):

    y^{0,i} = sum_{j=1}^{k} W_j^conv x^{k (i-1) + j} + p^i.

The reshaped kernel tilde W^conv (d_x x V, V = k d_input) has column
``j * d_input + c`` equal to W_j^conv[:, c], so that y^{0,i} - p^i is tilde
W^conv times the concatenation of the i-th patch; r = rank(tilde W^conv)
(eq. (4)). Random kernels are drawn as in eq. (12) (l.460):
W_j^conv = M_low M_j^conv with M_low (d_x x r) and M^conv (k x r x d_input).

Everything is integer or rational arithmetic on Python objects; array indices
are 0-based (position i of the paper is ``i - 1``). Both embeddings return
the (batch, N, d_x) inputs X of :class:`seprank.models.SelfAttentionNetwork`.

>>> emb = VocabularyEmbedding([[1, 0, 2], [0, 1, 1]], [[1, 1], [0, 0]])
>>> emb.embed([[2, 0]]).tolist()     # y^1 = M_V e_3 + p^1, y^2 = M_V e_1 + p^2
[[[3, 1], [2, 0]]]
>>> emb.rank()
2
"""

from __future__ import annotations

import numpy as np

from seprank.budget import Estimate, current, largest_fitting
from seprank.errors import InputError, ParameterError
from seprank.linalg import rank as linalg_rank

__all__ = ["VocabularyEmbedding", "ConvolutionalEmbedding", "exact_rank", "draw_estimate"]

#: Bytes per entry of a factor or product while a random embedding is drawn (the int64
#: draw, its object copy, the product's Python ints, the exact rank's fmpz copy).
_DRAW_BYTES = 96


def draw_estimate(what: str, *products: tuple[int, int, int]) -> Estimate:
    """Memory and work of drawing factor pairs (rows x inner) (inner x cols) and ranking
    each product exactly (one draw; a redraw frees the last).

    >>> draw_estimate("a draw", (2, 10**9, 8)).nbytes > 10**11
    True
    """
    entries = max(a * k + k * b + a * b for a, k, b in products)
    mult = sum(a * k * b for a, k, b in products)
    rank_ops = sum(a * b * min(a, b) for a, _, b in products)
    shapes = ", ".join(f"{a} x {k} times {k} x {b}" for a, k, b in products)
    return Estimate(what, nbytes=_DRAW_BYTES * entries,
                    work=((2 * mult, "python"), (rank_ops, "flint")), detail=shapes)


def _check_draw(what: str, name: str, inner: int, make) -> None:
    """Refuse a draw past the budget, naming the largest ``name`` (an inner rank) that fits;
    ``make(k)`` gives the factor shapes with inner rank k."""
    budget = current()

    def fits(k: int) -> bool:
        return budget.fits(draw_estimate(what, *make(k)))

    def hint() -> str:
        k = largest_fitting(fits, 1, inner - 1)
        return "" if k is None else f"the largest {name} that fits is {k}"

    budget.check(draw_estimate(what, *make(inner)), nearest=hint)


def exact_rank(mat: object) -> int:
    """rank of an exact (int/Fraction) matrix, via :func:`seprank.rank`; 0 for an empty one.

    Examples
    --------
    >>> exact_rank([[1, 2], [2, 4]]), exact_rank([])
    (1, 0)
    """
    arr = np.asarray(mat, dtype=object)
    if arr.size == 0:
        return 0
    res = linalg_rank(arr)
    if res.kind != "exact":
        raise RuntimeError(f"rank is not exact (kind {res.kind!r})")
    return int(res.value)


def _int_matrix(mat: object, name: str, ndim: int = 2) -> np.ndarray:
    arr = np.asarray(mat, dtype=object)
    if arr.ndim != ndim:
        raise InputError(f"{name} must have {ndim} axes, got shape {arr.shape}")
    for x in arr.ravel():
        if isinstance(x, (bool, float, complex, np.floating)):
            raise InputError(f"{name} has a non-exact entry {x!r}")
    return arr


def _positive(name: str, v: object, low: int = 1) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
        raise ParameterError(f"{name} must be an integer >= {low}, got {v!r}")
    return int(v)


def _rand(rng: np.random.Generator, shape: tuple[int, ...], bound: int) -> np.ndarray:
    return rng.integers(-bound, bound + 1, size=shape).astype(object)


def _low_rank(rng, rows: int, inner: int, cols: int, bound: int, attempts: int) -> tuple:
    """(A, B, A @ B) with A rows x inner, B inner x cols and rank(A B) = min(inner, rows, cols)."""
    want = min(inner, rows, cols)
    for _ in range(attempts):
        A, B = _rand(rng, (rows, inner), bound), _rand(rng, (inner, cols), bound)
        prod_ = A.dot(B) if inner else np.zeros((rows, cols), dtype=object)
        if exact_rank(prod_) == want:
            return A, B, prod_
    raise RuntimeError(f"no factor pair of rank {want} found in {attempts} draws")


class VocabularyEmbedding:
    """eq. (1): y^{0,i} = M_V hat w^i + p^i, with M_V (d_x x V) and P (d_x x N).

    Examples
    --------
    A random draw has the ranks it was asked for, here min(r, d_x, V) = 1:

    >>> emb = VocabularyEmbedding.random(V=3, d_x=2, N=2, r=1, seed=0)
    >>> (emb.d_x, emb.V, emb.N), emb.rank(), emb.positional_rank()
    ((2, 3, 2), 1, 1)
    >>> emb.embed([[0, 2]]).shape
    (1, 2, 2)
    """

    def __init__(self, M_V: object, P: object, factors: dict | None = None):
        self.M_V = _int_matrix(M_V, "M_V")
        self.P = _int_matrix(P, "P")
        self.d_x, self.V = self.M_V.shape
        if self.P.shape[0] != self.d_x:
            raise InputError(f"P must be d_x x N with d_x = {self.d_x}, got {self.P.shape}")
        self.N = self.P.shape[1]
        self.factors = factors or {}

    @classmethod
    def random(cls, V: int, d_x: int, N: int, r: int, r_e: int = 1, *, seed: int = 0,
               bound: int = 2, attempts: int = 50) -> VocabularyEmbedding:
        """Random integer M_V = A B (inner dimension r) and P = P_low M_pos (inner r_e),
        redrawn until the measured ranks are min(r, d_x, V) and min(r_e, d_x, N)."""
        V, d_x, N = _positive("V", V), _positive("d_x", d_x), _positive("N", N)
        r, r_e = _positive("r", r), _positive("r_e", r_e, 0)
        _check_draw("drawing the vocabulary embedding", "r (--emb-rank)", r,
                    lambda k: ((d_x, k, V), (d_x, r_e, N)))
        rng = np.random.default_rng(seed)
        A, B, M_V = _low_rank(rng, d_x, r, V, bound, attempts)
        P_low, M_pos, P = _low_rank(rng, d_x, r_e, N, bound, attempts)
        return cls(M_V, P, {"A": A, "B": B, "P_low": P_low, "M_pos": M_pos, "r": r,
                            "r_e": r_e})

    def rank(self) -> int:
        """r = rank(M_V), eq. (3), measured exactly."""
        return exact_rank(self.M_V)

    def positional_rank(self) -> int:
        """r_e = rank of the positional embedding matrix (Theorem 3, l.381)."""
        return exact_rank(self.P)

    def embed_indicators(self, W_hat: object) -> np.ndarray:
        """(batch, N, V) indicator (or any) vectors hat w -> (batch, N, d_x) = M_V hat w + p."""
        W = np.asarray(W_hat, dtype=object)
        if W.ndim != 3 or W.shape[1:] != (self.N, self.V):
            raise InputError(f"indicators must have shape (batch, {self.N}, {self.V}), "
                             f"got {W.shape}")
        return W.dot(self.M_V.T) + self.P.T[None]

    def embed(self, tokens: object) -> np.ndarray:
        """(batch, N) tokens in 0..V-1 -> (batch, N, d_x), via the indicators of eq. (1)."""
        t = np.asarray(tokens)
        if t.ndim != 2 or t.shape[1] != self.N or t.dtype.kind not in "iu":
            raise InputError(f"tokens must be an integer array (batch, {self.N}), got {t.shape}")
        if t.size and (t.min() < 0 or t.max() >= self.V):
            raise ParameterError(f"tokens must lie in 0..{self.V - 1}")
        eye = np.eye(self.V, dtype=np.int64).astype(object)
        return self.embed_indicators(eye[t])


class ConvolutionalEmbedding:
    """eq. (2): y^{0,i} = sum_j W_j^conv x^{k(i-1)+j} + p^i, kernel (k, d_x, d_input).

    Examples
    --------
    k = 2, d_x = 1, d_input = 2 with W_1 = [1, 0], W_2 = [0, 1] and p = (5, 6):
    y^1 = 1 + 4 + 5 = 10 from x^1 = (1, 2), x^2 = (3, 4), and y^2 = 5 + 8 + 6 = 19.

    >>> emb = ConvolutionalEmbedding([[[1, 0]], [[0, 1]]], [[5, 6]])
    >>> emb.embed([[[1, 2], [3, 4], [5, 6], [7, 8]]]).tolist()
    [[[10], [19]]]
    >>> emb.reshaped_kernel().tolist(), emb.rank()
    ([[1, 0, 0, 1]], 1)
    """

    def __init__(self, W_conv: object, P: object, factors: dict | None = None):
        self.W = _int_matrix(W_conv, "W_conv", ndim=3)
        self.k, self.d_x, self.d_input = self.W.shape
        self.P = _int_matrix(P, "P")
        if self.P.shape[0] != self.d_x:
            raise InputError(f"P must be d_x x N with d_x = {self.d_x}, got {self.P.shape}")
        self.N = self.P.shape[1]
        self.M = self.k * self.N
        self.factors = factors or {}

    @classmethod
    def random(cls, k: int, d_input: int, d_x: int, N: int, r: int, r_e: int = 1, *,
               seed: int = 0, bound: int = 2, attempts: int = 50) -> ConvolutionalEmbedding:
        """W_j = M_low M_j^conv (eq. (12)); redrawn until rank(tilde W) = min(r, d_x, k d_input)
        and rank(P) = min(r_e, d_x, N)."""
        k, d_input = _positive("k = M/N", k), _positive("d_input", d_input)
        k_ = k
        d_x, N, r, r_e = (_positive("d_x", d_x), _positive("N", N), _positive("r", r),
                          _positive("r_e", r_e, 0))
        _check_draw("drawing the convolution embedding", "r (--emb-rank)", r,
                    lambda k: ((d_x, k, k_ * d_input), (d_x, r_e, N)))
        rng = np.random.default_rng(seed)
        M_low, B, Wt = _low_rank(rng, d_x, r, k * d_input, bound, attempts)
        P_low, M_pos, P = _low_rank(rng, d_x, r_e, N, bound, attempts)
        W = Wt.reshape(d_x, k, d_input).transpose(1, 0, 2)
        return cls(W, P, {"M_low": M_low, "M_conv": B.reshape(r, k, d_input).transpose(1, 0, 2),
                          "P_low": P_low, "M_pos": M_pos, "r": r, "r_e": r_e})

    def reshaped_kernel(self) -> np.ndarray:
        """tilde W^conv (d_x x k d_input): column j * d_input + c is W_j[:, c] (eq. (4))."""
        return self.W.transpose(1, 0, 2).reshape(self.d_x, self.k * self.d_input)

    def rank(self) -> int:
        """r = rank(tilde W^conv), eq. (4), measured exactly."""
        return exact_rank(self.reshaped_kernel())

    def positional_rank(self) -> int:
        return exact_rank(self.P)

    def embed(self, x: object) -> np.ndarray:
        """(batch, M, d_input) raw inputs -> (batch, N, d_x), eq. (2)."""
        X = np.asarray(x, dtype=object)
        if X.ndim != 3 or X.shape[1:] != (self.M, self.d_input):
            raise InputError(f"x must have shape (batch, {self.M}, {self.d_input}), got {X.shape}")
        patches = X.reshape(X.shape[0], self.N, self.k * self.d_input)
        return patches.dot(self.reshaped_kernel().T) + self.P.T[None]
