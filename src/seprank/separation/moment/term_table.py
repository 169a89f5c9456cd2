"""Where a monomial sits among the terms of g_j: a hash table for scattered queries, a
forward galloping search for queries in increasing order (numba).

Every entry of a catalecticant block is a lookup: row alpha, column gamma, the term
alpha + gamma of g_j, found by its additive key key(alpha) + key(gamma)
(:mod:`seprank.separation.moment.blocks`). A binary search in the sorted keys costs
about 0.5 microseconds per entry on the blocks of L = 3, d_x = 4 (hundreds of millions
of entries, keys of half a million terms: the search, not the ranks, dominated those
blocks); this table answers in one or two probes.

The table has a power-of-two size at least twice the number of keys; slot
h(k) = (k * 0x9E3779B97F4A7C15 mod 2^64) >> (64 - bits) (Fibonacci hashing), linear
probing; an empty slot holds key -1 (every key is >= 0).

A whole block is read faster another way (:func:`gather_block`): with the columns in
increasing key, each row's sums alpha + gamma increase, so each is found by galloping
forward from the last in the sorted keys (:func:`gallop_from`), memory read in order.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["build_table", "find_terms", "gather_terms", "gather_block", "gallop_from"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@numba.njit(cache=True)
def hash_slot(key, shift):  # pragma: no cover - compiled
    return (np.uint64(key) * _GOLDEN) >> shift


@numba.njit(cache=True)
def _build(keys, tkeys, tvals, shift, mask):  # pragma: no cover - compiled
    for i in range(keys.shape[0]):
        s = hash_slot(keys[i], shift)
        while tkeys[s] != -1:
            s = (s + np.uint64(1)) & mask
        tkeys[s] = keys[i]
        tvals[s] = i


@numba.njit(cache=True)
def _find(tkeys, tvals, queries, out, shift, mask):  # pragma: no cover - compiled
    for i in range(queries.shape[0]):
        q = queries[i]
        s = hash_slot(q, shift)
        out[i] = -1
        while tkeys[s] != -1:
            if tkeys[s] == q:
                out[i] = tvals[s]
                break
            s = (s + np.uint64(1)) & mask


def build_table(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(table keys, table values, bits) for the distinct nonnegative int64 ``keys``.

    >>> tk, tv, bits = build_table(np.array([5, 17, 2**40], dtype=np.int64))
    >>> find_terms((tk, tv, bits), np.array([17, 6, 2**40])).tolist()
    [1, -1, 2]
    """
    n = max(int(keys.shape[0]), 1)
    bits = max(4, (2 * n - 1).bit_length())
    size = 1 << bits
    tkeys = np.full(size, -1, dtype=np.int64)
    tvals = np.zeros(size, dtype=np.int64)
    _build(np.ascontiguousarray(keys, dtype=np.int64), tkeys, tvals, np.uint64(64 - bits),
           np.uint64(size - 1))
    return tkeys, tvals, bits


def find_terms(table: tuple[np.ndarray, np.ndarray, int], queries: np.ndarray) -> np.ndarray:
    """The index of each query among the table's keys, -1 where it is not one (any shape).

    >>> find_terms(build_table(np.array([3, 9], dtype=np.int64)), np.array([[9, 4]])).tolist()
    [[1, -1]]
    """
    tkeys, tvals, bits = table
    flat = np.ascontiguousarray(queries, dtype=np.int64).ravel()
    out = np.empty(flat.shape[0], dtype=np.int64)
    _find(tkeys, tvals, flat, out, np.uint64(64 - bits), np.uint64((1 << bits) - 1))
    return out.reshape(np.shape(queries))


@numba.njit(cache=True)
def _gather(vals, pos, hit, out):  # pragma: no cover - compiled
    for i in range(pos.shape[0]):
        out[i] = vals[pos[i]] if hit[i] else 0


def gather_terms(vals: np.ndarray, pos: np.ndarray, hit: np.ndarray, dtype=np.int64
                 ) -> np.ndarray:
    """``where(hit, vals[pos], 0)`` in one compiled pass (no temporaries), any shape.

    >>> gather_terms(np.array([7, 8, 9]), np.array([[2, 0]]), np.array([[True, False]])).tolist()
    [[9, 0]]
    """
    out = np.empty(pos.size, dtype=dtype)
    _gather(np.ascontiguousarray(vals, dtype=dtype), np.ascontiguousarray(pos).ravel(),
            np.ascontiguousarray(hit).ravel(), out)
    return out.reshape(pos.shape)


@numba.njit(cache=True)
def gallop_from(keys, pos, q):  # pragma: no cover - compiled
    """The first index i >= pos with keys[i] >= q in the sorted ``keys`` (the last index
    when there is none), galloping forward from pos: a few probes when the queries come
    in increasing order (the caller checks keys[i] == q)."""
    n = keys.shape[0]
    if keys[pos] >= q or keys[n - 1] < q:
        return pos if keys[pos] >= q else n - 1
    step = 1
    while pos + step < n and keys[pos + step] < q:
        pos += step
        step *= 2
    lo, hi = pos + 1, min(pos + step, n - 1)
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < q:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(parallel=True, cache=True)
def _gather_block(keys, vals, ka, kg, cols, rows, out):  # pragma: no cover - compiled
    # kg sorted; cols[c]: the output column of kg[c]
    for i in numba.prange(ka.shape[0]):
        r = rows[i]
        pos = 0
        for c in range(kg.shape[0]):
            q = ka[i] + kg[c]
            pos = gallop_from(keys, pos, q)
            out[r, cols[c]] = vals[pos] if keys[pos] == q else 0


def gather_block(keys: np.ndarray, vals: np.ndarray, row_keys: np.ndarray,
                 col_keys: np.ndarray, rows: np.ndarray, out: np.ndarray) -> None:
    """out[rows[i], c] = vals[t] where keys[t] = row_keys[i] + col_keys[c], 0 where no key
    is that sum (``keys`` sorted and distinct): a block of lookups in one compiled pass,
    rows in parallel, no key, position or mask array of the block's size (the entries of
    a catalecticant block, :func:`seprank.separation.moment.blocks.entries_mod`). The
    columns are taken in increasing key, so each row's sums increase and are found by
    galloping forward in ``keys`` (memory read in order; the hash table's random probes
    were 2-3 times slower on L = 3, d_x = 4's blocks).

    >>> out = np.zeros((2, 2), dtype=np.int64)
    >>> gather_block(np.array([3, 9]), np.array([30, 90]), np.array([1, 4]),
    ...              np.array([5, 2]), np.array([1, 0]), out)
    >>> out.tolist()          # row keys 1 and 4 land in rows 1 and 0; 1 + 2 = 3, 4 + 5 = 9
    [[90, 0], [0, 30]]
    """
    if len(keys) == 0:
        out[np.asarray(rows)] = 0
        return
    col_keys = np.asarray(col_keys, dtype=np.int64)
    order = np.argsort(col_keys, kind="stable")
    _gather_block(np.ascontiguousarray(keys, dtype=np.int64),
                  np.ascontiguousarray(vals, dtype=np.int64),
                  np.ascontiguousarray(row_keys, dtype=np.int64),
                  np.ascontiguousarray(col_keys[order]), order.astype(np.int64),
                  np.ascontiguousarray(rows, dtype=np.int64), out)
