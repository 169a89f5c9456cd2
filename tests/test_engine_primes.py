"""Primes chosen by the engine that eliminates (issue 28, item 1), and the exact kernels
that lift from residues.

Each engine's fast range is pinned by the property that makes it fast: the numba LU
accumulates k_max(p) >= 8192 products of residues exactly in float64 between reductions
(so a block of short side <= 8192 needs no reduction inside its products), flint's
nmod_mat takes word-size primes whose products fit in 64 bits. The routes must take their
primes from the engine that ranks their largest matrix."""

from __future__ import annotations

import math
import random

import flint
import numpy as np
import pytest

from seprank.linalg.engines import REGISTRY, get_engine
from seprank.linalg.engines.modular_lu import lu_factor_mod_p, lu_solve_mod_p
from seprank.linalg.modarith import k_max
from seprank.linalg.planner import engine_primes
from seprank.linalg.rational.dixon_residues import kernel_from_residues
from seprank.scalars.primes import is_prime


def test_each_engine_states_its_fast_range():
    numba = get_engine("numba")
    lo, hi = numba.auto_primes
    assert hi <= 2**20 and k_max(hi - 1) >= 8192 and lo >= 2**19
    flint_lo, flint_hi = get_engine("flint").auto_primes
    assert (flint_hi - 1) ** 2 < 2**63 and flint_lo >= 2**30
    for eng in REGISTRY.values():
        a, b = eng.auto_primes
        assert a < b <= eng.max_prime + 1 and is_prime(eng.default_prime)


def test_callers_ask_the_engine_for_primes():
    big, small = engine_primes((5000, 4000)), engine_primes((50, 40))
    assert big.engine == "numba" and big.span == get_engine("numba").auto_primes
    assert small.engine == "flint" and small.span == get_engine("flint").auto_primes
    p = big.draw(random.Random(3))
    assert big.span[0] <= p < big.span[1] and is_prime(p)
    from seprank.linalg.rational.multimodular import FIRST_PRIME

    assert FIRST_PRIME == get_engine("numba").default_prime < 2**20


def test_moment_route_draws_its_prime_from_the_engine_of_its_largest_block():
    from seprank.models import SelfAttentionNetwork
    from seprank.separation.moment import largest_matrix, prepare_moment

    prep = prepare_moment(SelfAttentionNetwork.random(2, 4, 2, seed=0, nonzero=True))
    ep = engine_primes(largest_matrix(prep.plan))
    assert ep.span[0] <= prep.prime < ep.span[1] and prep.prime_source == str(ep)
    # a plan with a block of short side >= 600 goes to the numba engine's range
    shape = (3000, 2000)
    assert engine_primes(shape).span[1] <= 2**20


def test_lu_factor_and_solve_mod_p():
    rng = np.random.default_rng(0)
    for n, p in ((1, 7), (7, 101), (150, 1048573), (700, 786431)):
        M = rng.integers(0, p, size=(n, n))
        fac = lu_factor_mod_p(M, p)
        assert fac is not None
        B = rng.integers(0, p, size=(n, 3))
        X = lu_solve_mod_p(*fac, B, p)
        assert np.array_equal(M.astype(object).dot(X.astype(object)) % p, B.astype(object) % p)
    S = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1]])
    assert lu_factor_mod_p(S, 101) is None                 # singular: refused, not solved


@pytest.mark.parametrize("bits,seed", [(3, 0), (60, 1), (200, 2)])
def test_kernel_from_residues_matches_flint(bits, seed):
    """Low-rank integer matrices with entries of `bits` bits: the lifted vectors are exact
    kernel vectors (an exact product) and their number is n - rank_Q (flint's fmpz rank)."""
    rng = np.random.default_rng(seed)
    m, n, r = 30, 24, 17
    L = np.array([[int(x) << (bits // 2) for x in row]
                  for row in rng.integers(-9, 10, size=(m, r))], dtype=object)
    R = np.array([[int(x) << (bits - bits // 2) for x in row]
                  for row in rng.integers(-9, 10, size=(r, n))], dtype=object)
    A = L.dot(R)
    ebits = max(abs(int(x)).bit_length() for x in A.ravel())
    rank, vecs = kernel_from_residues(
        lambda q: np.array([[int(x) % q for x in row] for row in A]), A.shape, ebits)
    exact = flint.fmpz_mat(A.tolist()).rank()
    assert rank == exact and len(vecs) == n - exact
    assert all(int(v) == 0 for vec in vecs for v in A.dot(np.array(vec, dtype=object)))
    M = flint.fmpz_mat([list(v) for v in vecs])
    assert M.rank() == len(vecs)                           # independent


def test_term_table_finds_every_key():
    from seprank.separation.moment.term_table import build_table, find_terms, gather_terms

    rng = np.random.default_rng(1)
    keys = np.sort(rng.choice(2**40, size=5000, replace=False))
    table = build_table(keys)
    q = np.concatenate([keys, keys + 1])
    pos = find_terms(table, q)
    hit = pos >= 0
    assert np.array_equal(pos[:5000], np.arange(5000))
    assert np.array_equal(hit[5000:], np.isin(keys + 1, keys))
    vals = rng.integers(0, 100, size=5000)
    got = gather_terms(vals, np.where(hit, pos, 0), hit)
    assert np.array_equal(got, np.where(hit, vals[np.where(hit, pos, 0)], 0))
    assert math.isclose(len(table[0]), 2 ** table[2])
