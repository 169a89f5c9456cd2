"""Multi-modular exact rank (seprank.linalg.rational.multimodular) against fmpz_mat.rank.

Every certificate is re-checked by :func:`seprank.verify`, which shares no
code with the engine.
"""

from __future__ import annotations

import flint
import numpy as np
import pytest

import seprank
from seprank.linalg.certificates import RankCertificate
from seprank.linalg.rational.multimodular import rank_multimodular


def product_of_rank(rng, m, n, r, bound=5):
    """A random m x n integer matrix of rank (almost surely) r: A (m x r) times B (r x n)."""
    a = flint.fmpz_mat(m, r, [int(x) for x in rng.integers(-bound, bound + 1, m * r)])
    b = flint.fmpz_mat(r, n, [int(x) for x in rng.integers(-bound, bound + 1, r * n)])
    return a * b


def check(z: flint.fmpz_mat, **kw):
    res = rank_multimodular(z, **kw)
    truth = z.rank()
    assert res.rank == truth and res.exact
    cert = RankCertificate(lower=res.lower, upper=res.upper)
    assert cert.proves_exact and seprank.verify(z, cert)
    if res.upper.side != "trivial":
        assert len(res.upper.vectors) == min(z.nrows(), z.ncols()) - truth
    return res


@pytest.mark.parametrize("m,n,r", [
    (30, 30, 20), (30, 30, 30), (40, 25, 10), (25, 40, 10), (40, 25, 25), (25, 40, 25),
    (60, 60, 59), (1, 5, 1), (5, 1, 1), (12, 12, 1),
])
def test_random_products(m, n, r):
    rng = np.random.default_rng(1000 * m + 10 * n + r)
    check(product_of_rank(rng, m, n, r))


@pytest.mark.parametrize("m,n", [(0, 4), (4, 0), (0, 0)])
def test_empty(m, n):
    res = check(flint.fmpz_mat(m, n))
    assert res.rank == 0


def test_one_by_one_and_zero():
    assert check(flint.fmpz_mat([[7]])).rank == 1
    assert check(flint.fmpz_mat([[0]])).rank == 0
    res = check(flint.fmpz_mat(5, 3))
    assert res.rank == 0 and len(res.upper.vectors) == 3  # right kernel: the unit vectors


def test_big_entries_use_the_flint_path():
    # entries of ~100 bits: too large for the float64 lifting, FLINT loop instead
    rng = np.random.default_rng(7)
    a = product_of_rank(rng, 20, 20, 14)
    big = flint.fmpz_mat(20, 20, [int(x) * (2**90 + 12345) for x in a.entries()])
    res = check(big)
    assert res.primes[-1] > 2**60
    mixed = flint.fmpz_mat(a)
    mixed[0, 0] = a[0, 0] + 2**80  # one big entry; rank may change, fmpz_mat.rank decides
    check(mixed)


def test_medium_entries_fast_path():
    # ~40-bit entries still fit the float64 lifting (several chunks of M)
    rng = np.random.default_rng(11)
    a = product_of_rank(rng, 50, 45, 30, bound=2**18)
    res = check(a)
    assert res.primes[-1] < 2**21


def test_gram_hadamard_power_is_rank_deficient():
    from math import comb

    from seprank.constructions.omega import gram_hadamard_exact

    rng = np.random.default_rng(3)
    d, lam, m = 3, 4, 40
    u = rng.integers(-3, 4, (m, d)).tolist()
    g = gram_hadamard_exact(u, lam)
    res = check(g)
    assert res.rank == comb(d + lam - 1, lam)


def test_front_door_certificate():
    rng = np.random.default_rng(5)
    z = product_of_rank(rng, 35, 30, 22)
    res = seprank.rank(z, "multimodular", certify=True)
    assert res.kind == "exact" and res.value == z.rank() == 22
    assert seprank.verify(z, res.certificate)


def test_unlucky_rank_prime_gives_lower_bound_only():
    # rank mod the first prime is below the rank over Q for this matrix, and a
    # single rank prime is used: no kernel exists, so only the lower bound stands
    from seprank.linalg.rational.multimodular import FIRST_PRIME

    z = flint.fmpz_mat([[FIRST_PRIME, 0], [0, 1], [0, 0]])
    res = rank_multimodular(z, rank_primes=1)
    assert res.rank == 1 and not res.exact and res.upper is None
    assert seprank.verify(z, res.lower)
    assert rank_multimodular(z).rank == 2  # the second prime fixes it


@pytest.mark.parametrize("bound", [3, 2**12, 2**20])
def test_blas_kernel_check_is_exact(bound):
    # the float64-limb check of A K = 0 accepts true kernels and rejects any change,
    # small or large (carries across limbs)
    from seprank.linalg.rational.multimodular import _verified_blas

    rng = np.random.default_rng(bound)
    z = product_of_rank(rng, 30, 24, 15, bound=bound)
    res = check(z)
    a = np.array(z.tolist(), dtype=np.int64)
    vecs = [list(v) for v in res.upper.vectors]
    assert _verified_blas(a, vecs) is True
    assert _verified_blas(a, vecs, max_floats=1) is True  # one vector per block
    for delta in (1, -1, 2**21, 2**63, 3**90):
        bad = [list(v) for v in vecs]
        bad[-1][int(rng.integers(0, 24))] += delta
        assert _verified_blas(a, bad) is False
    sh = 60 - int(np.abs(a).max()).bit_length()
    big = a.copy()
    big[:, 0] *= 2**sh  # entries up to ~2^60
    assert _verified_blas(big, vecs) is False
    fixed = [[x * 2**sh if j else x for j, x in enumerate(v)] for v in vecs]
    assert _verified_blas(big, fixed) is True


def test_auto_routes_rank_deficient_matrices_to_multimodular(monkeypatch):
    """Above MULTIMODULAR_MIN_DIM, auto answers a rank-deficient matrix by the
    multimodular method: exact, equal to fmpz_mat.rank, certificate re-verified."""
    import numpy as np

    import seprank
    import seprank.linalg.planner as planner

    monkeypatch.setattr(planner, "MULTIMODULAR_MIN_DIM", 30)
    rng = np.random.default_rng(7)
    A = rng.integers(-5, 6, size=(40, 28)) @ rng.integers(-5, 6, size=(28, 36))
    res = seprank.rank(A, certify=True)
    assert (res.value, res.kind, res.method) == (flint.fmpz_mat(A.tolist()).rank(), "exact",
                                                 "multimodular")
    assert res.value == 28 and seprank.verify(A, res.certificate)
    monkeypatch.setattr(planner, "MULTIMODULAR_MIN_DIM", 10**9)
    assert seprank.rank(A).method == "flint-fmpz"
