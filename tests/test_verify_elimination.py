"""The verifier's own elimination mod p against flint's determinant, on inputs that force
pivoting, panel edges and the trailing block's delayed reductions."""

from __future__ import annotations

import importlib

import flint
import numpy as np
import pytest

# the verifier's elimination module (split from seprank.linalg.verifier.verify, which still
# exports _det_nonzero_mod_p); its own globals are patched below
V = importlib.import_module("seprank.linalg.verifier.elimination")

# 2, 3, 5: residues in [0, p); 7 up: balanced; 2097143 < 2^21 <= 2097169: products split
PRIMES = [2, 3, 5, 7, 11, 13, 1048573, 2097143, 2097169, 1073741827, 2**31 - 1]


def det_nonzero_flint(a: np.ndarray, p: int) -> bool:
    n = a.shape[0]
    return n == 0 or int(flint.nmod_mat(n, n, [int(x) % p for x in a.ravel()], p).det()) != 0


def cases(rng, n: int, p: int):
    """Matrices of size n: random; zero leading block (pivoting); duplicated row
    (singular); last row a combination mod p only (singular mod p, not over Z);
    sparse with zeros in every panel; huge entries; entries just below 2^50 (not
    reduced first); -2^63."""
    yield rng.integers(0, p, size=(n, n))
    a = rng.integers(0, p, size=(n, n))
    a[: n // 2, : n // 2] = 0
    yield a
    if n > 1:
        a = rng.integers(-5, 6, size=(n, n))
        a[-1] = a[0]
        yield a
        a = rng.integers(0, p, size=(n, n))
        a[-1] = (a[0] * 3 + a[1] * (p - 2) + p * rng.integers(-3, 4, size=n)) % p + p * 5
        yield a
    a = rng.integers(0, p, size=(n, n)) * (rng.random((n, n)) < 0.08)
    yield a + np.eye(n, dtype=np.int64)[rng.permutation(n)]  # a permutation, rarely singular
    yield rng.integers(-(2**60), 2**60, size=(n, n))
    yield rng.integers(-(2**50) + 1, 2**50, size=(n, n))  # unreduced, taken as they are
    a = rng.integers(0, p, size=(n, n))
    a[0, 0] = -(2**63)  # |x| overflows int64's abs: must still be reduced
    yield a


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("n", [1, 2, 5, 47, 48, 49, 97, 150])
def test_elimination_agrees_with_flint(n, p):
    rng = np.random.default_rng(n * 1009 + p)
    for a in cases(rng, n, p):
        assert V.det_nonzero_mod_p(a, p) == det_nonzero_flint(a, p), (n, p)
        assert V.det_nonzero_mod_p(a.tolist(), p) == det_nonzero_flint(a, p), (n, p)


@pytest.mark.parametrize("p", [5, 1048573, 2097143, 2**31 - 1])
def test_trailing_reductions_keep_it_exact(monkeypatch, p):
    """With the growth limit lowered, the trailing block is reduced after every panel or
    two (2^52 allows about 80 panels, more than a fast test can build)."""
    h = p // 2 + 2
    step = h if p >= V._SPLIT_PRIME else V._PANEL * h * h
    monkeypatch.setattr(V, "_GROWTH_LIMIT", 2 * step + p)
    rng = np.random.default_rng(p)
    for a in cases(rng, 200, p):
        assert V.det_nonzero_mod_p(a, p) == det_nonzero_flint(a, p)


def test_balanced_residues():
    p = 2097143
    x = np.array([0.0, p, -p, 2.0**52 - 1, -(2.0**52) + 1, 5 * p + 1, p // 2, -(p // 2) - 1])
    y = V._balance(x.copy(), p)
    assert (np.abs(y) <= p / 2 + 2).all()
    assert [int(v) % p for v in y] == [int(v) % p for v in x]
    assert (y == 0).tolist() == [int(v) % p == 0 for v in x]


def test_the_verify_module_keeps_its_old_names():
    from seprank.linalg.verifier import primes as verify_primes
    from seprank.linalg.verifier.verify import _det_nonzero_mod_p, _isprime

    assert _det_nonzero_mod_p is V.det_nonzero_mod_p and _isprime is verify_primes.isprime


# 2^31 + 11, 2^61 - 1, 2^62 - 57: the int64 path with extended-precision quotients;
# 2^64 - 59 and 2^89 - 1: Python integers (issue 32: 2^61 - 1 took half a minute at 400)
WIDE_PRIMES = [2**31 + 11, 2**61 - 1, 2**62 - 57]
BIG_PRIMES = [2**64 - 59, 2**89 - 1]


def det_nonzero_exact(rows: list[list[int]], p: int) -> bool:
    """The reference: flint's determinant over Z, reduced mod p (any p)."""
    n = len(rows)
    return n == 0 or int(flint.fmpz_mat(rows).det()) % p != 0


def wide_cases(rng, n: int, p: int):
    """Python-int matrices for a large p: random residues; a zero leading block; a
    duplicated row; a last row that is a combination mod p only; sparse with a
    permutation; entries near +-2^62 and -2^63 (reduced first); residues p - 1 (the
    largest products)."""
    def rand():
        return [[int(x) for x in rng.integers(0, p, size=n)] for _ in range(n)]
    yield rand()
    a = rand()
    for i in range(n // 2):
        a[i][: n // 2] = [0] * (n // 2)
    yield a
    if n > 1:
        a = rand()
        a[-1] = list(a[0])
        yield a
        a = rand()
        a[-1] = [(3 * x + (p - 2) * y) % p + p * 5 for x, y in zip(a[0], a[1], strict=True)]
        yield a
    a = [[int(x) * (rng.random() < 0.08) for x in row] for row in rand()]
    for i, j in enumerate(rng.permutation(n)):
        a[i][int(j)] += 1
    yield a
    yield [[int(x) for x in rng.integers(-(2**62), 2**62, size=n)] for _ in range(n)]
    a = [[p - 1] * n for _ in range(n)]
    for i in range(n):
        a[i][i] = int(rng.integers(0, p))
    yield a
    a = rand()
    a[0][0] = -(2**63)
    yield a


@pytest.mark.parametrize("p", WIDE_PRIMES)
@pytest.mark.parametrize("n", [1, 2, 5, 33, 70])
def test_wide_primes_agree_with_flint(n, p):
    rng = np.random.default_rng(n * 7919 + p % 10**6)
    for rows in wide_cases(rng, n, p):
        want = det_nonzero_exact(rows, p)
        assert V.det_nonzero_mod_p(rows, p) == want, (n, p)
        if all(-(2**63) <= x < 2**63 for row in rows for x in row):
            assert V.det_nonzero_mod_p(np.array(rows, dtype=np.int64), p) == want, (n, p)


@pytest.mark.parametrize("p", WIDE_PRIMES[1:] + BIG_PRIMES)
def test_python_integer_path_agrees(monkeypatch, p):
    """Above 2^62 (and wherever numpy's long double is no wider than float64) the
    elimination takes Python integers; the same answers."""
    monkeypatch.setattr(V, "_WIDE_OK", False)
    rng = np.random.default_rng(p % 10**6)
    for n in (1, 3, 12):
        for rows in wide_cases(rng, n, min(p, 2**62)):
            assert V.det_nonzero_mod_p(rows, p) == det_nonzero_exact(rows, p), (n, p)


def test_wide_blocks_of_rows(monkeypatch):
    """Rank-one updates taken a few rows at a time (the block bound lowered) agree."""
    monkeypatch.setattr(V, "_WIDE_BLOCK", 50)
    rng = np.random.default_rng(5)
    for rows in wide_cases(rng, 40, 2**61 - 1):
        assert V.det_nonzero_mod_p(rows, 2**61 - 1) == det_nonzero_exact(rows, 2**61 - 1)


def test_mulmod_wide_at_the_extremes():
    p = 2**62 - 57
    x = np.array([0, 1, p - 1, p - 2, 2**61, 12345678901234567], dtype=np.int64)
    for y in (1, p - 1, p - 2, 2**61 + 3):
        yv = np.full(x.size, y, dtype=np.int64)
        got = V._mulmod_wide(x, yv, yv.astype(np.longdouble) / np.longdouble(p), p)
        assert got.tolist() == [int(a) * y % p for a in x.tolist()]
