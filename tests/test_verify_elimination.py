"""The verifier's own elimination mod p against flint's determinant, on inputs that force
pivoting, panel edges and the trailing block's delayed reductions."""

from __future__ import annotations

import importlib

import flint
import numpy as np
import pytest

# the verifier's elimination module (split from seprank.linalg.verify, which still
# exports _det_nonzero_mod_p); its own globals are patched below
V = importlib.import_module("seprank.linalg.verify_elimination")

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
    from seprank.linalg import verify_primes
    from seprank.linalg.verify import _det_nonzero_mod_p, _isprime

    assert _det_nonzero_mod_p is V.det_nonzero_mod_p and _isprime is verify_primes.isprime
