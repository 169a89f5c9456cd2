"""The coefficient matrix C_F of a moment family, block by block: shapes, entries, exact kernels.

C_F and its blocks (the mathematics is proved in :mod:`seprank.separation.moment`)
-------------------------------------------------------------------------------
For F(xi, U, W) = sum_j xi_j g_j(U + W) with g_j = sum_beta c^(j)_beta t^beta
(:func:`~seprank.network_theory.moment_form.moment_polynomials`), binomial expansion of
(u_e + w_e)^beta_e gives the coefficient of xi_j U^alpha W^gamma:

    C_F[(j, alpha), gamma] = c^(j)_{alpha+gamma} prod_e binom(alpha_e + gamma_e, alpha_e).

Without residual connections every g_j is homogeneous of degree C, so the entry
vanishes unless |alpha| + |gamma| = C: C_F is block diagonal, block b (b = |gamma|)
with rows (j, alpha), |alpha| = C - b and columns gamma, |gamma| = b. With residual
connections (or a shifted family) the degrees mix; the matrix is ranked whole
(rows |alpha| <= C, columns |gamma| <= C).

What is built: the catalecticant
--------------------------------
Multiplying row (j, alpha) by alpha! and column gamma by gamma! (nonzero integers)
turns C_F into

    K[(j, alpha), gamma] = (alpha + gamma)! c^(j)_{alpha+gamma}     (beta! = prod_e beta_e!),

of the same rank, whose entries are the terms of g_j times a factor that depends on
the term alone: every entry is a lookup, c_beta beta! precomputed per term. Ranks
mod p use K (its nonzero minors are nonzero minors of C_F times nonzero factors).
Exact kernels use C_F itself (``form="binomial"``): the kernel vectors of K are
those of C_F divided by gamma!, whose common denominators make p-adic lifting much
longer (measured: L = 3, d = 3, block 7, 3.5 s with C_F, minutes with K). A kernel
vector x of C_F is checked on K: C_F x = 0 iff K y = 0 with the integer vector
y_gamma = (C! / gamma!) x_gamma.

Exponent vectors are encoded as integers key(e) = sum_v e_v (2C+1)^v. Every
exponent of alpha, gamma and of the terms of g_j is <= C, so every exponent of
alpha + gamma is <= 2C < 2C + 1: no digit carries, the key is additive
(key(alpha + gamma) = key(alpha) + key(gamma)) and injective on such vectors; the
term alpha + gamma is found by a binary search in the sorted keys of g_j (with
residual connections |alpha| + |gamma| may exceed C: no term, entry 0). Entries
are built mod p or exactly (int64 when every entry provably fits in 62 bits,
Python ints otherwise), for any subset of rows and columns.

Exact kernels of tall blocks (:func:`verify_kernel`)
--------------------------------------------------
A kernel vector x of a row subset of K is a kernel vector of the whole block iff
K x = 0 row by row. That is checked modulo primes q_1, ..., q_k < 2^21 (float64
BLAS products are exact: entries < 2^21, inner dimension split into pieces of
<= 2^10, so every partial sum stays below 2^53) whose product exceeds
2 n max|K| max|x| >= 2 |(K x)_i|: a residue 0 modulo that product then forces
(K x)_i = 0 (Chinese remainder theorem).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb, factorial, prod

import numpy as np

from seprank.errors import ParameterError
from seprank.scalars.primes import prev_prime

__all__ = ["exponents", "BlockSpec", "block_specs", "staircase_bound", "PolyData", "poly_data",
           "poly_data_mod", "factorial_weights_mod", "sorted_terms",
           "block_entries", "block_positions", "entries_mod", "verify_kernel", "KEY_LIMIT"]

#: Exponent keys (2C+1)^D' must stay below this (int64).
KEY_LIMIT = 2**62


@lru_cache(maxsize=64)
def _exponents_cached(n: int, k: int) -> np.ndarray:
    if n == 0:
        return np.zeros((1 if k == 0 else 0, 0), dtype=np.int64)
    if n == 1:
        return np.array([[k]], dtype=np.int64)
    parts = []
    for v in range(k, -1, -1):
        rest = _exponents_cached(n - 1, k - v)
        col = np.full((rest.shape[0], 1), v, dtype=np.int64)
        parts.append(np.hstack([col, rest]))
    out = np.vstack(parts)
    out.setflags(write=False)
    return out


def exponents(n: int, k: int, *, up_to: bool = False) -> np.ndarray:
    """All exponent vectors of degree k (or <= k) in n variables, shape (count, n).

    >>> exponents(2, 2).tolist()
    [[2, 0], [1, 1], [0, 2]]
    >>> len(exponents(3, 2, up_to=True))   # 1 + 3 + 6
    10
    """
    if up_to:
        return np.vstack([_exponents_cached(n, j) for j in range(k + 1)])
    return _exponents_cached(n, k)


@dataclass(frozen=True)
class BlockSpec:
    """One block of C_F: ``degree`` b (columns |gamma| = b; None: the whole residual
    matrix), ``row_degree`` C - b, ``shape`` (rows, columns), ``bound``: a bound on its
    rank valid for every weight besides min(shape) (the residual matrix's
    :func:`staircase_bound`; None: none), ``cap`` = the smaller of the two.

    >>> BlockSpec(2, 2, (220, 55)).cap, BlockSpec(None, None, (70, 35)).label
    (55, 'all')
    >>> BlockSpec(None, None, (1120, 560), bound=232).cap
    232
    """

    degree: int | None
    row_degree: int | None
    shape: tuple[int, int]
    bound: int | None = None

    @property
    def cap(self) -> int:
        return min(self.shape) if self.bound is None else min(min(self.shape), self.bound)

    @property
    def label(self) -> str:
        return "all" if self.degree is None else str(self.degree)


def staircase_bound(n_rows: int, n_vars: int, C: int, *,
                    kernel: tuple[int, int] | None = None) -> int:
    """A bound on the rank of the residual C_F valid for every weight (the staircase).

    With residual connections the entry of row x_k U^alpha and column W^gamma vanishes
    unless |alpha| + |gamma| <= C (G_L has degree <= C in S). For any s in -1..C the
    columns with |gamma| > s meet only the rows with |alpha| <= C - s - 1, so

        rank C_F <= #{gamma : |gamma| <= s} + r #{alpha : |alpha| <= C - s - 1},

    and the bound is the least over s (s = C: the columns; s = -1: the rows). With
    M(k) = C(D' + k, k) monomials of degree <= k in D' variables:
    min_s M(s) + r M(C - s - 1). Residual L = 3, d_x = 2 (r = 2, D' = 3, C = 13): 232 at
    s = 7 (the trivial cap is 560).

    ``kernel`` = (k, m): m independent kernel vectors of C_F supported on the columns of
    order k (:func:`~seprank.separation.moment.leading_forms.word_bound`); a split with
    k <= s counts m columns fewer.

    >>> staircase_bound(2, 3, 13), staircase_bound(4, 10, 13)
    (232, 31460)
    >>> staircase_bound(4, 10, 13, kernel=(7, 4))
    31456
    """
    def upto(k: int) -> int:
        return comb(n_vars + k, k) if k >= 0 else 0

    k, m = kernel if kernel is not None else (C + 1, 0)
    return min(upto(s) - m * (k <= s) + n_rows * upto(C - s - 1) for s in range(-1, C + 1))


def block_specs(n_rows: int, n_vars: int, C: int, residual: bool) -> list[BlockSpec]:
    """The blocks of C_F for r = n_rows linear variables, D' = n_vars moment variables and
    degree C (module docstring).

    >>> [(s.degree, s.shape) for s in block_specs(2, 3, 4, False)]   # L = 2, d = 2
    [(0, (30, 1)), (1, (20, 3)), (2, (12, 6)), (3, (6, 10)), (4, (2, 15))]
    >>> block_specs(2, 3, 4, True)[0].shape
    (70, 35)
    """
    if residual:
        n = comb(n_vars + C, C)
        return [BlockSpec(None, None, (n_rows * n, n), bound=staircase_bound(n_rows, n_vars, C))]
    return [BlockSpec(b, C - b, (n_rows * comb(n_vars + C - b - 1, C - b),
                                 comb(n_vars + b - 1, b))) for b in range(C + 1)]


@dataclass
class PolyData:
    """The polynomials g_j as sorted keys, exponents and coefficients (module docstring).

    >>> import flint
    >>> (t,) = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex").gens()
    >>> pd = poly_data([3 * t**2], 1, 2)
    >>> pd.entry_bits, pd.residue_terms(0, 7).tolist()    # 3 * 2! = 6
    (4, [6])
    """

    n_vars: int
    C: int
    radix: int
    keys: list
    exps: list
    coeffs: list          # per j: object array of ints (exact) or None
    max_bits: int

    def weights(self) -> np.ndarray:
        return np.array([self.radix**v for v in range(self.n_vars)], dtype=np.int64)

    def key_exponents(self, keys: np.ndarray) -> np.ndarray:
        """The exponent vectors of monomial keys (their radix digits), shape (len, n_vars).

        >>> import flint
        >>> (t0, t1) = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex").gens()
        >>> pd = poly_data([t0 * t1**2], 2, 3)              # radix 7: key 1 + 2 * 7
        >>> pd.key_exponents(pd.keys[0]).tolist()
        [[1, 2]]
        """
        return (np.asarray(keys)[:, None] // self.weights()[None, :]) % self.radix

    def residue_terms(self, j: int, p: int) -> np.ndarray:
        """c_beta beta! mod p for the terms of g_j (cached per prime; p > C)."""
        cache = self.__dict__.setdefault("_mod_cache", {})
        if (j, p) not in cache:
            cache[(j, p)] = (self.coeff_residues(j, p)
                             * factorial_weights_mod(self.exps[j], self.C, p) % p)
        return cache[(j, p)]

    def exact_terms(self, j: int) -> np.ndarray:
        """c_beta beta! exactly (object array, cached)."""
        cache = self.__dict__.setdefault("_exact_cache", {})
        if j not in cache:
            fact = [factorial(k) for k in range(self.C + 1)]
            cache[j] = np.array([int(c) * prod(fact[int(k)] for k in e)
                                 for c, e in zip(self.coeffs[j], self.exps[j], strict=True)],
                                dtype=object)
        return cache[j]

    def coeff_residues(self, j: int, p: int) -> np.ndarray:
        """c mod p for the terms of g_j, from 30-bit limbs of |c| (vectorized)."""
        limbs = self.__dict__.setdefault("_limbs", {})
        if j not in limbs:
            co = self.coeffs[j]
            n_limbs = max(1, (self.max_bits + 29) // 30)
            mags = np.array([abs(int(c)) for c in co], dtype=object)
            arr = np.zeros((len(co), n_limbs), dtype=np.int64)
            for k in range(n_limbs):
                arr[:, k] = ((mags >> (30 * k)) & (2**30 - 1)).astype(np.int64)
            sign = np.array([int(c) < 0 for c in co], dtype=bool)
            limbs[j] = (arr, sign)
        arr, sign = limbs[j]
        out = np.zeros(arr.shape[0], dtype=np.int64)
        for k in range(arr.shape[1]):
            out = (out + (arr[:, k] % p) * pow(2, 30 * k, p)) % p
        return np.where(sign, (p - out) % p, out)

    def residues_only(self, p: int) -> PolyData:
        """A copy with what the catalecticant entries mod ``p`` need (keys, exponents and
        c_beta beta! mod p) and no exact coefficients: small to send to a Dask worker.

        >>> import flint
        >>> (t,) = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex").gens()
        >>> small = poly_data([3 * t**2], 1, 2).residues_only(7)
        >>> small.coeffs, small.residue_terms(0, 7).tolist()
        ([None], [6])
        """
        out = PolyData(self.n_vars, self.C, self.radix, self.keys, self.exps,
                       [None] * len(self.keys), self.max_bits)
        out.__dict__["_mod_cache"] = {(j, p): self.residue_terms(j, p)
                                      for j in range(len(self.keys))}
        return out

    @property
    def exact(self) -> bool:
        """Whether the exact coefficients are held (not only residues mod one prime)."""
        return all(c is not None for c in self.coeffs)

    @property
    def entry_bits(self) -> int:
        """|K entries| < 2^entry_bits: |c| < 2^max_bits and beta! <= C!."""
        return self.max_bits + factorial(self.C).bit_length()


def poly_data(polys, n_vars: int, C: int) -> PolyData:
    """Sorted keys, exponents and exact integer coefficients of flint polynomials.

    >>> import flint
    >>> ctx = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex")
    >>> t0, t1 = ctx.gens()
    >>> pd = poly_data([3 * t0 * t1 + t1**2], 2, 2)
    >>> pd.keys[0].tolist(), pd.max_bits       # radix 2C + 1 = 5: t0 t1 -> 1 + 5
    ([6, 10], 2)
    """
    radix, keys, exps, coeffs = sorted_terms(polys, n_vars, C, object)
    bits = max((abs(int(c)).bit_length() for co in coeffs for c in co), default=0)
    return PolyData(n_vars, C, radix, keys, exps, coeffs, bits)


def sorted_terms(polys, n_vars: int, C: int, dtype) -> tuple[int, list, list, list]:
    """(radix, keys, exponents, coefficients as ``dtype``) of each polynomial's terms,
    sorted by key (the radix-(2C+1) number of the exponents); ParameterError when the keys
    would overflow int64.

    >>> import flint
    >>> t0, t1 = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex").gens()
    >>> radix, keys, exps, co = sorted_terms([4 * t1 + t0**2], 2, 2, np.int64)
    >>> radix, keys[0].tolist(), co[0].tolist()        # t0^2 -> 2, t1 -> 5
    (5, [2, 5], [1, 4])
    """
    radix = 2 * C + 1
    if radix**max(n_vars, 1) >= KEY_LIMIT:
        raise ParameterError(f"(2C+1)^D' = {radix}^{n_vars} exceeds the int64 key range")
    w = np.array([radix**v for v in range(n_vars)], dtype=np.int64)
    keys, exps, coeffs = [], [], []
    for g in polys:
        mons = g.monoms()
        ex = np.array(mons, dtype=np.int64).reshape(len(mons), n_vars)
        co = np.array([int(c) for c in g.coeffs()], dtype=dtype)
        k = ex.dot(w)
        order = np.argsort(k, kind="stable")
        keys.append(k[order])
        exps.append(ex[order])
        coeffs.append(co[order])
    return radix, keys, exps, coeffs


def poly_data_mod(polys, n_vars: int, C: int, p: int) -> PolyData:
    """:func:`poly_data` of polynomials over Z/p (python-flint ``nmod_mpoly``): keys,
    exponents and c_beta beta! mod p, no exact coefficients (``exact`` is False: the
    catalecticant entries mod p are all it serves; a term whose coefficient vanishes mod
    p is absent, an entry 0 mod p as it should be).

    >>> import flint
    >>> ctx = flint.nmod_mpoly_ctx.get(("t", 2), modulus=7, ordering="deglex")
    >>> t0, t1 = ctx.gens()
    >>> pd = poly_data_mod([3 * t0 * t1 + t1**2], 2, 2, 7)
    >>> pd.exact, pd.keys[0].tolist(), pd.residue_terms(0, 7).tolist()   # 3 * 1!1!, 1 * 2!
    (False, [6, 10], [3, 2])
    """
    radix, keys, exps, coeffs = sorted_terms(polys, n_vars, C, np.int64)
    residues = {(j, p): co % p * factorial_weights_mod(ex, C, p) % p
                for j, (ex, co) in enumerate(zip(exps, coeffs, strict=True))}
    out = PolyData(n_vars, C, radix, keys, exps, [None] * len(keys), 0)
    out.__dict__["_mod_cache"] = residues
    return out


def factorial_weights_mod(exps: np.ndarray, C: int, p: int) -> np.ndarray:
    """beta! = prod_v beta_v! mod p for each row beta of ``exps`` (entries <= C; p > C).

    >>> factorial_weights_mod(np.array([[2, 3], [0, 1]]), 3, 7).tolist()   # 2! 3! = 12
    [5, 1]
    """
    f, _ = _fact_mod(C, p)
    fb = np.ones(exps.shape[0], dtype=np.int64)
    for v in range(exps.shape[1]):
        fb = fb * f[exps[:, v]] % p
    return fb


def _fact_mod(C: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    f = [1] * (C + 1)
    for i in range(1, C + 1):
        f[i] = f[i - 1] * i % p
    return (np.array(f, dtype=np.int64),
            np.array([pow(x, -1, p) for x in f], dtype=np.int64))


def _lookup(pd: PolyData, j: int, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hit mask, term positions) of the keys K among the terms of g_j (a hash table built
    once per polynomial: :mod:`seprank.separation.moment.term_table`)."""
    from seprank.separation.moment.term_table import find_terms

    if len(pd.keys[j]) == 0:
        return np.zeros(K.shape, dtype=bool), np.zeros(K.shape, dtype=np.int64)
    pos = find_terms(_table(pd, j), K)
    hit = pos >= 0
    return hit, np.where(hit, pos, 0)


def _table(pd: PolyData, j: int):
    """The hash table of g_j's keys (built once per polynomial, kept on ``pd``)."""
    from seprank.separation.moment.term_table import build_table

    tables = pd.__dict__.setdefault("_tables", {})
    if j not in tables:
        tables[j] = build_table(pd.keys[j])
    return tables[j]


def entries_mod(pd: PolyData, rows: np.ndarray, alphas: np.ndarray, gammas: np.ndarray,
                p: int, dtype=np.int64) -> np.ndarray:
    """The catalecticant's entries mod p (c_beta beta! mod p) at rows (rows[a], alphas[a])
    and columns gammas, in one compiled pass per g_j
    (:func:`~seprank.separation.moment.term_table.gather_block`: no array of keys or
    positions of the block's size).

    >>> import flint
    >>> (t,) = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex").gens()
    >>> pd = poly_data([5 * t**2], 1, 2)
    >>> entries_mod(pd, np.array([0]), np.array([[1]]), np.array([[1]]), 7).tolist()  # 10
    [[3]]
    """
    from seprank.separation.moment.term_table import gather_block

    w = pd.weights()
    ka, kg = alphas.dot(w), gammas.dot(w)
    out = np.zeros((len(alphas), len(gammas)), dtype=dtype)
    for j in map(int, np.unique(rows)):
        if len(pd.keys[j]):
            sel = np.nonzero(rows == j)[0]
            gather_block(pd.keys[j], pd.residue_terms(j, p), ka[sel], kg, sel, out)
    return out


def block_positions(pd: PolyData, rows: np.ndarray, alphas: np.ndarray,
                    gammas: np.ndarray) -> list:
    """Where the entries of a block sit among the terms of the g_j (shared by every prime):
    a list of (j, row selection, hit mask, term positions).

    >>> import flint
    >>> (t,) = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex").gens()
    >>> pd = poly_data([t**2], 1, 2)
    >>> [(j, h.tolist()) for j, _, h, _ in block_positions(pd, np.array([0]), np.array([[1]]),
    ...                                                      np.array([[0], [1]]))]
    [(0, [[False, True]])]
    """
    w = pd.weights()
    ka, kg = alphas.dot(w), gammas.dot(w)
    out = []
    for j in np.unique(rows):
        sel = np.nonzero(rows == j)[0]
        hit, pos = _lookup(pd, int(j), ka[sel, None] + kg[None, :])
        out.append((int(j), sel, hit, pos))
    return out


def block_entries(pd: PolyData, rows: np.ndarray, alphas: np.ndarray, gammas: np.ndarray,
                  *, p: int | None = None, transpose: bool = False,
                  form: str | None = None) -> np.ndarray:
    """Entries [(rows[a], alphas[a]), gammas[c]] of the catalecticant K or of C_F itself.

    ``rows``: the index j of each row, ``alphas`` its exponent vector; ``gammas``: the
    columns. ``form``: "catalecticant" (K, the default mod p) or "binomial" (C_F, the
    default exact). Mod p: int64 residues; exact: int64 when the entries provably fit,
    else an object array of Python ints. ``transpose`` returns the transpose.

    >>> import flint
    >>> ctx = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex")
    >>> (t,) = ctx.gens()
    >>> pd = poly_data([5 * t**3], 1, 3)             # F = 5 xi (u + w)^3
    >>> a, g = np.array([[1]]), np.array([[2]])      # xi u w^2: 15 in C_F, 5 3! = 30 in K
    >>> block_entries(pd, np.array([0]), a, g).tolist(), block_entries(
    ...     pd, np.array([0]), a, g, form="catalecticant").tolist()
    ([[15]], [[30]])
    """
    form = form or ("catalecticant" if p is not None else "binomial")
    if p is not None:
        out = entries_mod(pd, rows, alphas, gammas, p)
        if form == "binomial":
            _, fi = _fact_mod(pd.C, p)
            out = out * _fact_rows(alphas, fi, p)[:, None] % p * \
                _fact_rows(gammas, fi, p)[None, :] % p
        return out.T if transpose else out
    located = block_positions(pd, rows, alphas, gammas)
    shape = (len(alphas), len(gammas))
    exact64 = pd.entry_bits < 62
    out = np.zeros(shape, dtype=np.int64 if exact64 else object)
    fa = _fact_exact(alphas) if form == "binomial" else None
    fg = _fact_exact(gammas) if form == "binomial" else None
    for j, sel, hit, pos in located:
        if hit.any():
            vals = np.where(hit, pd.exact_terms(j)[pos], 0)
            if form == "binomial":   # c beta! / (alpha! gamma!), an exact division
                vals = vals // fa[sel, None] // fg[None, :]
            out[sel] = vals.astype(np.int64) if exact64 else vals
    return out.T if transpose else out


def _fact_rows(E: np.ndarray, fi: np.ndarray, p: int) -> np.ndarray:
    out = np.ones(len(E), dtype=np.int64)
    for v in range(E.shape[1]):
        out = out * fi[E[:, v]] % p
    return out


def _fact_exact(E: np.ndarray) -> np.ndarray:
    fact = [factorial(k) for k in range(int(E.max(initial=0)) + 1)]
    return np.array([prod(fact[int(k)] for k in e) for e in E], dtype=object)


def _verify_primes(bits_needed: int) -> list[int]:
    primes, q, total = [], 2**21, 0
    while total <= bits_needed:
        q = prev_prime(q)
        primes.append(q)
        total += q.bit_length() - 1
    return primes


def verify_kernel(residues_of, n_long: int, X: list, entry_bits: int,
                  chunk: int = 4096) -> bool:
    """True iff B X = 0 exactly, for the block B given by its rows mod primes (module docstring).

    ``residues_of(lo, hi, primes)`` returns the rows lo..hi-1 of B modulo each prime (a
    list of float64 arrays of residues); ``X``: kernel vectors (tuples of ints, length = number of
    columns); ``entry_bits``: |B entries| < 2^entry_bits. The check is modulo primes
    < 2^21 whose product exceeds 2 n max|B| max|x|.

    >>> B = np.array([[1, 2], [2, 4], [3, 6]])
    >>> rows = lambda lo, hi, qs: [(B[lo:hi] % q).astype(float) for q in qs]
    >>> verify_kernel(rows, 3, [(2, -1)], 3), verify_kernel(rows, 3, [(1, 1)], 3)
    (True, False)
    """
    if not X:
        return True
    n = len(X[0])
    xbits = max(abs(int(v)).bit_length() for x in X for v in x)
    primes = _verify_primes(entry_bits + xbits + n.bit_length() + 2)
    Xo = np.array([[int(v) for v in x] for x in X], dtype=object).T   # n x k
    Xq = [np.mod(Xo, q).astype(np.float64) for q in primes]
    for lo in range(0, n_long, chunk):
        for q, Bf, Xqq in zip(primes, residues_of(lo, min(n_long, lo + chunk), primes), Xq,
                              strict=True):
            acc = np.zeros((Bf.shape[0], Xqq.shape[1]), dtype=np.float64)
            for c0 in range(0, n, 1024):
                acc = np.mod(acc + Bf[:, c0:c0 + 1024] @ Xqq[c0:c0 + 1024], q)
            if acc.any():
                return False
    return True
