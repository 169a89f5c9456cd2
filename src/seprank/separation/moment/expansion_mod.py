"""The polynomials g_j of G_L mod p, their last product done in one compiled pass.

What is computed
----------------
g_j = sum_k row_k GP[k][j] + extra_j (:func:`~seprank.network_theory.moment_form.
moment_factors`): row = e_p^T M_L has degree 2c + 1 and GP = G_(L-1) P degree c, where
C = 3c + 1. Every factor is small (L = 3, d_x = 4: row_k has 48620 terms, GP[k][j] 715),
the product is not (497420 terms per g_j). python-flint multiplies the d r pairs one by
one, about 0.9 s each there (14 s for the whole expansion, 26 ns per pair of terms).
This module takes the factors from flint (``nmod_mpoly``) and does the sum of products
itself:

    for every term u of the row's support U and every term v of GP's support V:
        w = the index of u + v in the product's support W
        out[w, j] += sum_k row_k[u] GP[k][j][v]        for every j,

so one lookup of u + v serves all d r products. Monomials are the additive keys of
:mod:`seprank.separation.moment.blocks` (key(u + v) = key(u) + key(v): radix 2C + 1,
no carries). For one v the keys u + v of the sorted U increase, so their places in the
sorted W are found by galloping forward from the last one (a few probes in memory read
in order; a hash table's random probes took twice as long), and the sums are written in
increasing order. The terms of V are dealt round to at most :data:`MAX_CHUNKS` threads,
each with its own copy of the sums, added at the end.

W is every monomial whose degree lies between the least and the largest degree of
u + v (the dense support, enumerated directly) when that is no larger than |U| |V|,
else the distinct sums themselves. Terms whose coefficient is 0 mod p are dropped, as
flint's ``nmod_mpoly`` does: the result is the same
:class:`~seprank.separation.moment.blocks.PolyData` as
``poly_data_mod(moment_polynomials(fam, p=p), ...)`` (tested against it).

Arithmetic: residues < p; a pair adds d products < d p^2 and a slot receives at most
min(|U|, |V|) pairs, so with min(|U|, |V|) d (p - 1)^2 < 2^62 the sums are reduced mod
p once at the end (the route's primes lie below 2^20: 715 * 4 * 2^40 < 2^52); above
that every product is reduced as it is added, which needs p < 2^31. Larger primes stay
on flint (:func:`expand_mod`).

Measured (L = 3, d_x = 4, H = 2, p < 2^20, 2-core machine): see
``benchmarks/results/moment_floor.md``.
"""

from __future__ import annotations

import numba
import numpy as np

from seprank.network_theory.moment_form import moment_factors, moment_polynomials
from seprank.separation.moment.blocks import (
    PolyData,
    factorial_weights_mod,
    poly_data_mod,
    sorted_terms,
)
from seprank.separation.moment.term_table import gallop_from

__all__ = ["expand_mod", "FUSED_PRIME_LIMIT"]

FUSED_PRIME_LIMIT = 2**31
"""Primes below this use the compiled product (every product of two residues < 2^62)."""

MAX_CHUNKS = 4
"""At most this many partial products (one per thread) are summed at the end."""


def _terms(polys, n_vars: int, C: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sorted keys of the union of the supports, their degrees, residues: one row per
    polynomial) of flint ``nmod_mpoly`` polynomials (their terms read by
    :func:`~seprank.separation.moment.blocks.sorted_terms`)."""
    _, keys, exps, coeffs = sorted_terms(polys, n_vars, C, np.int64)
    union, first = np.unique(np.concatenate(keys or [np.zeros(0, np.int64)]),
                             return_index=True)
    degs = np.concatenate(exps or [np.zeros((0, n_vars), np.int64)]).sum(axis=1)[first]
    vals = np.zeros((len(polys), union.size), dtype=np.int64)
    for i, (k, c) in enumerate(zip(keys, coeffs, strict=True)):
        vals[i, np.searchsorted(union, k)] = c
    return union, degs, vals


def _dense_keys(n_vars: int, lo: int, hi: int, radix: int) -> np.ndarray:
    """Keys of every monomial in n_vars variables of degree in lo..hi (unsorted).

    >>> sorted(_dense_keys(2, 1, 2, 10).tolist())     # t0, t1, t0^2, t0 t1, t1^2
    [1, 2, 10, 11, 20]
    """
    keys = np.zeros(1, dtype=np.int64)
    deg = np.zeros(1, dtype=np.int64)
    for v in range(n_vars):
        low = np.maximum(lo - deg, 0) if v == n_vars - 1 else np.zeros_like(deg)
        counts = hi - deg - low + 1
        keep = counts > 0
        keys, deg, low, counts = keys[keep], deg[keep], low[keep], counts[keep]
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        e = np.arange(int(counts.sum()), dtype=np.int64) - starts + np.repeat(low, counts)
        keys = np.repeat(keys, counts) + e * radix**v
        deg = np.repeat(deg, counts) + e
    if n_vars == 0:
        return keys if lo <= 0 <= hi else keys[:0]
    return keys


@numba.njit(parallel=True, cache=True)
def _fused(uk, A, vk, B, W, p, lazy, out):  # pragma: no cover - compiled
    # A: (|U|, K) residues; B: (|V|, R, K); out: (chunks, |W|, R), zero on entry; chunk c
    # takes every chunks-th term of V. For one v the sums u + v of the sorted U are
    # increasing: their places in the sorted W are found by galloping forward, and out is
    # written in increasing order. Returns False if some u + v is not in W.
    K = A.shape[1]
    R = B.shape[1]
    chunks = out.shape[0]
    ok = np.ones(chunks, dtype=np.bool_)
    for c in numba.prange(chunks):
        for iv in range(c, vk.shape[0], chunks):
            kv = vk[iv]
            pos = 0
            for iu in range(uk.shape[0]):
                q = uk[iu] + kv
                pos = gallop_from(W, pos, q)
                if W[pos] != q:
                    ok[c] = False
                    break
                for j in range(R):
                    acc = 0
                    if lazy:
                        for k in range(K):
                            acc += A[iu, k] * B[iv, j, k]
                        out[c, pos, j] += acc
                    else:
                        for k in range(K):
                            acc = (acc + A[iu, k] * B[iv, j, k]) % p
                        out[c, pos, j] = (out[c, pos, j] + acc) % p
    return ok.all()


def _product_support(uk, ud, vk, vd, n_vars: int, radix: int, extra_keys) -> np.ndarray:
    """Sorted keys of W (module docstring): the dense range of degrees, or the sums."""
    from math import comb

    lo, hi = int(ud.min() + vd.min()), int(ud.max() + vd.max())
    dense = sum(comb(n_vars + k - 1, k) if n_vars else int(k == 0) for k in range(lo, hi + 1))
    if dense <= uk.size * vk.size:
        keys = _dense_keys(n_vars, lo, hi, radix)
    else:
        keys = (uk[:, None] + vk[None, :]).ravel()
    return np.unique(np.concatenate([keys, extra_keys]))


def expand_mod(fam, p: int) -> PolyData:
    """:func:`~seprank.separation.moment.blocks.poly_data_mod` of the family's g_j mod p,
    the last product compiled (module docstring); primes >= 2^31 go through flint.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> fam = token_family(SelfAttentionNetwork.random(2, 2, 1, seed=1), 0)
    >>> pd = expand_mod(fam, 101)
    >>> ref = poly_data_mod(moment_polynomials(fam, p=101), fam.n_vars, fam.degree, 101)
    >>> all((a == b).all() for a, b in zip(pd.keys, ref.keys))
    True
    """
    n_vars, C = fam.n_vars, fam.degree
    if p >= FUSED_PRIME_LIMIT:
        return poly_data_mod(moment_polynomials(fam, p=p), n_vars, C, p)
    row, GP, extra = moment_factors(fam, p=p)
    radix = 2 * C + 1
    K, R = len(row), len(extra)
    uk, ud, A = _terms(row, n_vars, C)
    vk, vd, Bflat = _terms([g for r in GP for g in r], n_vars, C)
    ek, _, E = _terms(extra, n_vars, C)
    if uk.size == 0 or vk.size == 0:
        W = ek
    else:
        W = _product_support(uk, ud, vk, vd, n_vars, radix, ek)
    out = np.zeros((W.size, R), dtype=np.int64)
    if uk.size and vk.size:
        B = np.ascontiguousarray(Bflat.reshape(K, R, vk.size).transpose(2, 1, 0))
        lazy = min(uk.size, vk.size) * K * (p - 1) ** 2 < 2**62
        chunks = max(1, min(numba.get_num_threads(), MAX_CHUNKS, vk.size))
        parts = np.zeros((chunks, W.size, R), dtype=np.int64)
        if not _fused(uk, np.ascontiguousarray(A.T), vk, B, W, p, lazy, parts):
            raise AssertionError("a product term outside its support (a bug)")
        for part in parts:                   # each part < 2^62 (lazy) or < p: no overflow
            out = (out + part) % p
    if ek.size:
        out[np.searchsorted(W, ek)] += E.T
    out %= p
    exps = np.empty((W.size, n_vars), dtype=np.int64)
    rest = W.copy()
    for v in range(n_vars):
        rest, exps[:, v] = np.divmod(rest, radix)
    fb = factorial_weights_mod(exps, C, p)
    keys, ex, residues = [], [], {}
    for j in range(R):
        nz = np.nonzero(out[:, j])[0]
        keys.append(W[nz])
        ex.append(exps[nz])
        residues[(j, p)] = out[nz, j] * fb[nz] % p
    pd = PolyData(n_vars, C, radix, keys, ex, [None] * R, 0)
    pd.__dict__["_mod_cache"] = residues
    return pd
