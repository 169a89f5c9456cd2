"""One suite, every modular engine: the same rank, profile and certificate assertions.

Engines: python-flint ``nmod_mat`` ("flint") and the numba blocked LU
("numba"). Expected ranks come from construction (products of random integer
factors, confirmed by the pure-Python reference in tests/reference.py) and the column
rank profile from greedy left-to-right column selection with reference ranks.
"""

import flint
import numpy as np
import pytest

import seprank
import seprank.errors
from seprank.linalg.engines import engine_names
from seprank.linalg.engines.modular_lu import BASE_WIDTH, MAX_PRIME, k_max, rank_profile_mod_p
from seprank.linalg.residues import ResidueMatrix
from seprank.scalars.primes import prev_prime

from .reference import column_profile_mod_p, rank_q


def _cuda_ready() -> bool:
    from seprank.linalg.engines.cuda_engine import cuda_available

    return cuda_available()


def _simulated() -> bool:
    from seprank.linalg.engines.cuda_engine import simulator_active

    return simulator_active()


#: the CUDA engine runs when a GPU or numba's simulator is there; the simulator
#: runs every GPU thread as a Python thread, so only small cases run under it
CUDA = pytest.param("cuda", marks=pytest.mark.skipif(not _cuda_ready(),
                                                      reason="no GPU and no CUDA simulator"))
#: generated from the registry: a new engine is tested without editing this file
ENGINES = [CUDA if name == "cuda" else name for name in engine_names()]
SIMULATOR_MAX_DIM = 40


def skip_large_on_simulator(engine, *dims):
    if engine == "cuda" and _simulated() and max(dims, default=0) > SIMULATOR_MAX_DIM:
        pytest.skip(f"simulated GPU: sizes above {SIMULATOR_MAX_DIM} run only on a real GPU")
PRIMES = [2, 3, 65537, 1048573, prev_prime(MAX_PRIME)]


def of_rank(rng, m, n, r, bound=4):
    return rng.integers(-bound, bound + 1, size=(m, r)) @ rng.integers(-bound, bound + 1,
                                                                      size=(r, n))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("m, n, r", [(6, 6, 3), (40, 25, 25), (70, 90, 33), (33, 33, 33),
                                      (129, 100, 64), (1, 1, 1), (1, 5, 1), (5, 1, 0)])
def test_rank_and_certificate(engine, m, n, r):
    skip_large_on_simulator(engine, m, n)
    rng = np.random.default_rng(m * 1000 + n)
    a = of_rank(rng, m, n, r)
    truth = rank_q(a)
    res = seprank.rank(a, "modular", engine=engine, prime=1048573, certify=True)
    assert res.value <= truth
    # a large random-ish prime keeps the rank of these small matrices
    assert res.value == truth
    assert res.kind == ("exact" if truth == min(m, n) else "lower_bound")
    assert seprank.verify(a, res.certificate)
    auto = seprank.rank(a, "auto", engine=engine)
    assert auto.value == truth and auto.kind == "exact"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("p", PRIMES)
def test_same_profile_as_reference_at_edge_primes(engine, p):
    rng = np.random.default_rng(p % 1000)
    m, n = (45, 70) if not (engine == "cuda" and _simulated()) else (24, 36)
    a = of_rank(rng, m, n, 12, bound=p)  # entries spread over the residues
    a[:, 5] = 0  # a zero column is never a pivot
    nm = flint.nmod_mat(m, n, [int(x) % p for x in a.ravel()], p)
    res = seprank.rank(nm, engine=engine, certify=True)
    assert res.field == f"GF({p})" and res.kind == "exact"
    ref_cols = column_profile_mod_p(a, p)
    assert res.value == len(ref_cols) == int(nm.rank())
    assert list(res.certificate.lower.cols) == ref_cols
    assert seprank.verify(nm, res.certificate)
    r2 = seprank.rank(ResidueMatrix(a % p, p), engine=engine)
    assert r2.value == res.value


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shape", [(0, 0), (0, 4), (4, 0)])
def test_empty(engine, shape):
    a = np.zeros(shape, dtype=np.int64)
    assert seprank.rank(a, "modular", engine=engine).value == 0
    assert seprank.rank(ResidueMatrix(a, 7), engine=engine).value == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_one_by_one(engine):
    assert seprank.rank(np.array([[5]]), "modular", engine=engine, prime=5).value == 0
    assert seprank.rank(np.array([[5]]), "modular", engine=engine, prime=7).value == 1


def test_k_max_bound_at_its_edge():
    for p in [2, 3, 65537, 1048573, 8388593, prev_prime(MAX_PRIME)]:
        k = k_max(p)
        assert k >= 1
        assert k * (p - 1) ** 2 + (p - 1) <= 2**53 - 1
        assert (k + 1) * (p - 1) ** 2 + (p - 1) > 2**53 - 1
    assert k_max(1048573) >= 8192


def test_worst_case_entries_stay_exact_at_the_largest_prime():
    # every entry p - 1: products (p-1)^2 ~ 2^52, so chunks of k_max(p) = 2 terms are forced
    p = prev_prime(MAX_PRIME)
    assert k_max(p) < BASE_WIDTH
    rng = np.random.default_rng(3)
    a = np.full((3 * BASE_WIDTH, 3 * BASE_WIDTH), p - 1, dtype=np.int64)
    a += np.triu(rng.integers(0, 2, size=a.shape), 1)  # make it nonsingular-ish, entries <= p
    nm = flint.nmod_mat(a.shape[0], a.shape[1], [int(x) % p for x in a.ravel()], p)
    r, rows, cols = rank_profile_mod_p(a, p)
    assert r == int(nm.rank())
    sub = flint.nmod_mat(r, r, [int(a[i, j]) % p for i in rows for j in cols], p)
    assert int(sub.rank()) == r


def test_numba_engine_refuses_large_primes():
    with pytest.raises(seprank.errors.NotPrimeError, match="2\\^26"):
        rank_profile_mod_p(np.eye(3, dtype=np.int64), 2**31 - 1)
    # the front door falls back to flint for such primes unless numba is forced
    assert seprank.rank(np.eye(700, dtype=np.int64), prime=2**31 - 1).method == "flint-nmod"


@pytest.mark.parametrize("blas_path", ["cblas", "numpy"])
@pytest.mark.parametrize("p", [3, 1048573, prev_prime(MAX_PRIME)])
def test_numba_engine_both_product_paths(monkeypatch, blas_path, p):
    """The ctypes cblas_dgemm path and the numpy fallback give FLINT's profile.

    Sizes above BASE_WIDTH so that the blocked products run; p at the edge makes
    k_max(p) = 2, so products are chunked and reduced, and p = 3 exercises the
    lazy regime (min(m, n) <= k_max).
    """
    import seprank.linalg.engines.modular_lu as lu

    if blas_path == "numpy":
        monkeypatch.setattr(lu, "_cblas_dgemm", lambda: None)
    rng = np.random.default_rng(p)
    for m, n, r in [(150, 120, 77), (4 * BASE_WIDTH + 5, 4 * BASE_WIDTH + 5, 4 * BASE_WIDTH)]:
        A = of_rank(rng, m, n, r) % p
        rank, rows, cols = rank_profile_mod_p(A, p)
        nm = flint.nmod_mat(A.tolist(), p)
        R, rk = nm.rref()
        ref_cols = [next(j for j in range(n) if int(R[i, j]) != 0) for i in range(rk)]
        assert (rank, cols) == (rk, ref_cols)
        minor = flint.nmod_mat([[int(A[i, j]) for j in cols] for i in rows], p)
        assert minor.det() != 0


def test_manual_method_table_is_the_generated_one():
    """The manual's block between the markers (docs/ranks.md) is exactly method_table()
    (the registry)."""
    from pathlib import Path

    from seprank.linalg.engines import method_table
    from seprank.linalg.engines.methods import BEGIN as _BEGIN
    from seprank.linalg.engines.methods import END as _END

    text = (Path(__file__).resolve().parents[1] / "docs" / "ranks.md").read_text()
    block = text.split(_BEGIN, 1)[1].split(_END, 1)[0]
    assert block.strip("\n") == method_table()


def test_methods_and_cli_choices_come_from_the_registries():
    from seprank.cli import build_parser
    from seprank.linalg import METHODS
    from seprank.linalg.engines import METHOD_REGISTRY, REGISTRY, method_table

    assert METHODS == tuple(METHOD_REGISTRY) == (
        "auto", "exact", "modular", "multimodular", "float", "cuda")
    rank = build_parser()._subparsers._group_actions[0].choices["rank"]
    choices = {a.dest: a.choices for a in rank._actions if a.choices}
    assert list(choices["method"]) == list(METHOD_REGISTRY)
    assert list(choices["engine"]) == list(REGISTRY)
    lines = method_table().splitlines()
    start = lines.index("| method | what it does | kind | needs |") + 2
    rows = lines[start:lines.index("", start)]
    assert [row.split("|")[1].strip(" `") for row in rows] == list(METHOD_REGISTRY)

