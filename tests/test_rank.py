"""The rank front door: engines agree, answer kinds are honest, certificates verify.

Expected ranks come from construction (a product of random n x r and r x m
integer factors has rank r when the factors have rank r, which a second,
independent engine confirms) and from hand-worked cases.
"""

from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import seprank
from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)

from .reference import rank_q


def random_of_rank(rng, m, n, r, bound=5):
    left = rng.integers(-bound, bound + 1, size=(m, r))
    right = rng.integers(-bound, bound + 1, size=(r, n))
    return left @ right


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_engines_agree_on_products_of_factors(seed, m, n, r):
    rng = np.random.default_rng(seed)
    r = min(r, m, n)
    a = random_of_rank(rng, m, n, r)
    truth = rank_q(a) if m and n else 0  # second, independent engine (pure Python)
    assert truth <= r
    exact = seprank.rank(a, "exact")
    auto = seprank.rank(a)
    modular = seprank.rank(a, "modular")
    assert exact.value == auto.value == truth
    assert exact.kind == auto.kind == "exact"
    assert modular.value <= truth  # a lower bound, never above
    if modular.kind == "exact":
        assert modular.value == min(m, n)
    else:
        assert modular.kind == "lower_bound"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(1, 8), st.integers(0, 8))
def test_certificates_verify_and_prove_the_rank(seed, m, n, r):
    rng = np.random.default_rng(seed)
    a = random_of_rank(rng, m, n, min(r, m, n))
    res = seprank.rank(a, "exact", certify=True)
    cert = res.certificate
    assert cert.proves_exact and cert.lower.bound == cert.upper.bound == res.value
    assert seprank.verify(a, cert)
    assert seprank.verify(a.tolist(), cert)
    assert seprank.verify(flint.fmpz_mat(a.tolist()), cert)


def test_hand_worked_cases():
    assert seprank.rank([[1, 2], [2, 4]]).value == 1
    assert seprank.rank([[0, 0], [0, 0]]).value == 0
    assert seprank.rank([[Fraction(1, 2), Fraction(1, 3)], [3, 2]]).value == 1
    assert seprank.rank([[1, 0, 0], [0, 1, 0]]).value == 2
    assert seprank.rank(sympy.Matrix([[1, sympy.Rational(1, 2)], [2, 1]])).value == 1
    assert seprank.rank(flint.fmpq_mat([[1, 2], [3, 4]])).value == 2
    # a Vandermonde matrix on distinct nodes is nonsingular
    v = [[x**k for k in range(6)] for x in range(1, 7)]
    assert seprank.rank(v, certify=True).value == 6


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0)])
def test_empty_matrices(shape):
    a = np.zeros(shape, dtype=np.int64)
    for method in ("auto", "exact", "modular", "float"):
        assert seprank.rank(a, method).value == 0
    res = seprank.rank(a, "exact", certify=True)
    assert seprank.verify(a, res.certificate)


def test_one_by_one():
    assert seprank.rank([[0]]).value == 0
    assert seprank.rank([[7]], certify=True).value == 1
    # 7 vanishes mod 7: the modular answer is a lower bound, 0, and says so
    res = seprank.rank([[7]], "modular", prime=7)
    assert (res.value, res.kind) == (0, "lower_bound")


def test_modular_lower_bound_is_honest():
    # det = 2 * 3: full rank over Q, rank 1 mod 2 and mod 3
    a = [[2, 0], [0, 3]]
    res = seprank.rank(a, "modular", prime=3, certify=True)
    assert (res.value, res.kind) == (1, "lower_bound")
    assert "lower bound" in str(res)
    assert seprank.verify(a, res.certificate)
    full = seprank.rank(a, "modular", prime=5)
    assert (full.value, full.kind) == (2, "exact")


def test_matrix_over_gf_p():
    m = flint.nmod_mat([[1, 2], [3, 4]], 2)  # = [[1, 0], [1, 0]] over GF(2)
    res = seprank.rank(m, certify=True)
    assert (res.value, res.kind, res.field) == (1, "exact", "GF(2)")
    assert seprank.verify(m, res.certificate)


def test_float_estimate_carries_gap_and_tolerance():
    res = seprank.rank([[1.0, 0.0], [0.0, 1e-20]], "float")
    assert res.kind == "float_estimate" and res.value == 1
    assert res.details["tolerance"] > 0 and res.details["gap"] > 1e3
    assert "float estimate" in str(res)
    assert seprank.rank([[1.0, 0.0], [0.0, 1e-20]], "float", tol=1e-30).value == 2


def test_auto_never_returns_a_float():
    rng = np.random.default_rng(1)
    for _ in range(5):
        a = random_of_rank(rng, 6, 6, 3)
        assert seprank.rank(a).kind == "exact"


def test_tampered_certificates_are_rejected():
    a = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    cert = seprank.rank(a, certify=True).certificate
    assert seprank.verify(a, cert)
    low, up = cert.lower, cert.upper
    # a singular minor
    assert not seprank.verify(a, LowerBoundCertificate(low.prime, (0, 1), (0, 1)))
    # claiming more rank than the matrix has
    assert not seprank.verify(a, LowerBoundCertificate(low.prime, (0, 1, 2), (0, 1, 2)))
    # a composite "prime"
    assert not seprank.verify(a, LowerBoundCertificate(15, low.rows, low.cols))
    # repeated or out-of-range indices
    assert not seprank.verify(a, LowerBoundCertificate(low.prime, (0, 0), (0, 1)))
    assert not seprank.verify(a, LowerBoundCertificate(low.prime, (0, 5), (0, 1)))
    # a vector that is not in the kernel
    bad_vec = tuple(x + 1 if i == 0 else x for i, x in enumerate(up.vectors[0]))
    assert not seprank.verify(a, UpperBoundCertificate(up.bound, up.side, (bad_vec,), up.pivots))
    # dependent kernel vectors (the same vector twice) do not prove a smaller rank
    twice = UpperBoundCertificate(1, up.side, up.vectors * 2, (up.pivots[0], 0))
    assert not seprank.verify(a, twice)
    # a bound the vectors do not reach
    assert not seprank.verify(a, UpperBoundCertificate(1, up.side, up.vectors, up.pivots))
    # trivial upper bound below min(m, n)
    assert not seprank.verify(a, UpperBoundCertificate(2, "trivial"))
    # bounds that contradict each other
    assert not seprank.verify(a, RankCertificate(lower=low, upper=UpperBoundCertificate(
        1, up.side, up.vectors, up.pivots)))


def test_verify_rational_left_kernel():
    a = [[Fraction(1, 2), 1, Fraction(3, 2), 2], [1, 2, 3, 4]]
    res = seprank.rank(a, certify=True)
    assert res.value == 1 and res.certificate.upper.side == "left"
    assert seprank.verify(a, res.certificate)


def test_large_prime_verifier_path():
    p = 2**61 - 1  # verifier uses Python integers above 2^31
    a = [[1, 2, 3], [4, 5, 6], [7, 8, 10]]
    res = seprank.rank(a, "modular", prime=p, certify=True)
    assert res.kind == "exact" and seprank.verify(a, res.certificate)


def test_result_to_dict_and_str():
    res = seprank.rank([[1, 2], [3, 4]], certify=True)
    d = res.to_dict()
    assert d["kind"] == "exact" and d["value"] == 2 and d["certificate"]["proves_exact"]
    assert str(res).startswith("rank 2 (exact over QQ")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 12), st.integers(0, 12))
def test_multimodular_is_exact_and_certified(seed, m, n, r):
    rng = np.random.default_rng(seed)
    a = random_of_rank(rng, m, n, min(r, m, n), bound=30)
    res = seprank.rank(a, "multimodular", certify=True)
    assert res.value == rank_q(a) and res.kind == "exact"
    assert len(res.primes) >= 2 and seprank.verify(a, res.certificate)
