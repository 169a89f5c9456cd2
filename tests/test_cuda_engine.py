"""The CUDA engine (seprank.linalg.engines.cuda_engine) against the CPU engine and the reference.

These tests run unchanged on a real GPU and under numba's CUDA simulator.
Nothing here turns the simulator on: NUMBA_ENABLE_CUDASIM must be set before
Python starts, so the CI command exports NUMBA_ENABLE_CUDASIM=1 itself when
``nvidia-smi`` is absent. Without numba-cuda, or with neither a GPU nor the
simulator, the CUDA tests are skipped with the reason (the tests that need no
device still run). Sizes stay small (n <= 40): the simulator runs every GPU
thread as a Python thread.
"""

import os
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install "
                    "'seprank[cuda]')")

from seprank.constructions.builders import gram_hadamard_mod_p_f64  # noqa: E402
from seprank.errors import (  # noqa: E402
    InputError,
    MemoryLimitError,
    NotPrimeError,
    ParameterError,
)
from seprank.linalg.engines import cuda_engine as ce  # noqa: E402
from seprank.linalg.engines.modular_lu import MAX_PRIME, k_max, rank_profile_mod_p  # noqa: E402
from seprank.scalars.primes import prev_prime  # noqa: E402

from .reference import column_profile_mod_p, rank_mod_p  # noqa: E402

HAVE_CUDA = ce.cuda_available()
SIM = ce.simulator_active()
needs_cuda = pytest.mark.skipif(
    not HAVE_CUDA, reason="no CUDA GPU, and numba's simulator is off (export "
    "NUMBA_ENABLE_CUDASIM=1 before starting pytest to run these tests without a GPU)")

P_MAX = prev_prime(MAX_PRIME)  # 67108859, the largest prime below 2^26 (k_max = 2)
PRIMES = [2, 3, 1048573, P_MAX]
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}


@pytest.fixture(autouse=True, scope="module")
def _fast_simulator_threads():
    """The simulator's block manager busy-polls its Python threads; with the default
    5 ms GIL switch interval a 40 x 40 rank took ~4 s, with 0.2 ms ~0.8 s."""
    if not SIM:
        yield
        return
    old = sys.getswitchinterval()
    sys.setswitchinterval(2e-4)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def of_rank(rng, m, n, r, bound=4):
    return rng.integers(-bound, bound + 1, size=(m, r)) @ rng.integers(-bound, bound + 1,
                                                                      size=(r, n))


def check(A, p, *, block=ce.DEFAULT_BLOCK, launch=None, reference_profile=False):
    """CUDA answer == CPU answer; the rows pick a nonsingular minor; optional reference."""
    A = np.asarray(A)
    r, rows, cols = ce.rank_profile_mod_p_cuda(A, p, block=block, launch=launch)
    r_cpu, _, cols_cpu = rank_profile_mod_p(A, p)
    assert r == r_cpu == rank_mod_p(A.tolist(), p)
    assert cols == cols_cpu
    assert len(rows) == len(cols) == r and len(set(rows)) == r
    if r:
        assert rank_mod_p(A[np.ix_(rows, cols)].tolist(), p) == r
    if reference_profile:
        assert cols == column_profile_mod_p(A.tolist(), p)
    return r, rows, cols


# ---------------------------------------------------------------- no device needed


def test_import_seprank_does_not_import_numba_cuda():
    code = ("import sys, seprank, seprank.linalg.engines.cuda_engine as ce\n"
            "assert 'numba.cuda' not in sys.modules, 'numba.cuda imported'\n"
            "assert ce.cuda is None\n")
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV, timeout=300)


def test_unavailable_cuda_is_a_parameter_error():
    code = textwrap.dedent("""
        import sys
        import numpy as np
        from seprank.errors import ParameterError
        from seprank.linalg.engines import cuda_engine as ce
        if ce.cuda_available():
            sys.exit(3)  # a real GPU: nothing to check
        assert ce.gpu_info()["available"] is False
        for call in (lambda: ce.rank_profile_mod_p_cuda(np.eye(2, dtype=np.int64), 7),
                     lambda: ce.gram_hadamard_mod_p_device([[1]], 1, 7)):
            try:
                call()
            except ParameterError as e:
                assert "CUDA is not available" in str(e), e
            else:
                raise AssertionError("no ParameterError")
        """)
    res = subprocess.run([sys.executable, "-c", code], env=ENV, timeout=300,
                         capture_output=True, text=True)
    if res.returncode == 3:
        pytest.skip("a real GPU is present")
    assert res.returncode == 0, res.stderr


def test_kernels_compile_to_ptx_for_sm90():
    """The simulator runs Python, not the compiled kernels: compile them for a real
    GPU (H100/H200, sm_90) with NVVM, which needs no GPU. Skipped without NVVM."""
    code = textwrap.dedent("""
        import sys
        from seprank.linalg.engines import cuda_engine as ce
        try:
            ce._load_cuda().compile_ptx(lambda: None, "void()", cc=(9, 0))
        except Exception as e:
            print(type(e).__name__, e)
            sys.exit(3)
        for launch in (ce.LaunchConfig(), ce.SIMULATOR_LAUNCH):
            ptx = ce._compile_ptx((9, 0), launch)
            assert set(ptx) == set(ce.SIGNATURES), ptx.keys()
            assert all(".entry" in text for text in ptx.values())
            assert "ld.local" not in ptx["k_gemm"]  # accumulators in registers
        """)
    res = subprocess.run([sys.executable, "-c", code], env=ENV, timeout=600,
                         capture_output=True, text=True)
    if res.returncode == 3:
        pytest.skip("NVVM/NVRTC not found (pip install 'cuda-toolkit[nvvm,nvrtc]'): "
                    + res.stdout.strip()[-200:])
    assert res.returncode == 0, res.stderr[-3000:]


def test_launch_config_validation():
    with pytest.raises(ParameterError):
        ce.LaunchConfig(tile_threads=0)
    with pytest.raises(ParameterError):
        ce.LaunchConfig(tile_threads=33)
    with pytest.raises(ParameterError):
        ce.LaunchConfig(build_threads=(64, 32))


# ---------------------------------------------------------------- rank and profile


CASES = [  # m, n, r, p, block
    (5, 5, 3, 101, 2),
    (12, 9, 9, 2, 4),
    (9, 12, 4, 3, 1),
    (17, 23, 11, 1048573, 4),
    (23, 17, 17, 1048573, 8),
    (30, 30, 30, 1048573, 4),
    (40, 40, 40, 1048573, 8),
    (40, 36, 21, 3, 4),
    (36, 40, 25, 2, 8),
    (40, 40, 33, P_MAX, 4),
    (31, 40, 31, P_MAX, 16),
    (40, 40, 7, 1048573, 64),
]


@needs_cuda
@pytest.mark.parametrize("m,n,r,p,block", CASES)
def test_known_rank_matches_cpu_and_reference(m, n, r, p, block):
    rng = np.random.default_rng([m, n, r, block])
    A = of_rank(rng, m, n, r)
    got, _, _ = check(A, p, block=block, reference_profile=m * n <= 500)
    if p == 1048573:
        assert got == r  # entries are small: a large prime keeps the rank over Q


@needs_cuda
@pytest.mark.parametrize("p", PRIMES)
def test_zero_and_repeated_columns(p):
    rng = np.random.default_rng(p % 1000)
    B = of_rank(rng, 24, 14, 9)
    A = np.zeros((24, 30), dtype=np.int64)
    A[:, 2:16] = B                      # leading zero columns
    A[:, 18:25] = B[:, :7] * 3          # dependent copies
    A[:, 27] = B[:, 1] + B[:, 5]        # a sum
    check(A, p, block=4, reference_profile=True)


@needs_cuda
def test_rows_start_zero_and_need_swaps():
    rng = np.random.default_rng(7)
    A = of_rank(rng, 30, 26, 12)
    A[:10, :] = 0                       # every pivot search must pass 10 zero rows
    A[:, ::3] *= 1048573                # zero mod p: more swaps and skipped columns
    check(A, 1048573, block=4)


@needs_cuda
@pytest.mark.parametrize("p", [2, 3, P_MAX])
def test_entries_near_p_exercise_delayed_reduction(p):
    rng = np.random.default_rng(p % 97)
    A = rng.integers(p - 3, p, size=(40, 40)) if p > 3 else rng.integers(0, p, size=(40, 40))
    if p == P_MAX:
        assert k_max(p) == 2  # the GEMM reduces every 2 products
    check(A, p, block=4)


@needs_cuda
def test_full_rank_large_prime_entries_negative_and_big():
    rng = np.random.default_rng(11)
    A = rng.integers(-(2**40), 2**40, size=(20, 20))
    check(A, P_MAX, block=4)


@needs_cuda
@pytest.mark.parametrize("A,p,expected", [
    ([[0]], 2, (0, [], [])),
    ([[5]], 5, (0, [], [])),
    ([[3]], 5, (1, [0], [0])),
    ([[0, 0, 4]], 7, (1, [0], [2])),
    ([[0], [0], [9]], 7, (1, [2], [0])),
])
def test_tiny(A, p, expected):
    assert ce.rank_profile_mod_p_cuda(np.array(A, dtype=np.int64), p) == expected


@needs_cuda
@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 0)])
def test_empty(shape):
    assert ce.rank_profile_mod_p_cuda(np.zeros(shape, dtype=np.int64), 7) == (0, [], [])


@needs_cuda
def test_zero_matrix():
    assert ce.rank_profile_mod_p_cuda(np.zeros((9, 13), dtype=np.int64), 3) == (0, [], [])


@needs_cuda
def test_float64_and_object_input():
    rng = np.random.default_rng(3)
    A = of_rank(rng, 15, 18, 8)
    r = check(A, 1048573, block=4)
    assert ce.rank_profile_mod_p_cuda(A.astype(np.float64), 1048573, block=4) == r
    obj = np.array([[int(x) * 10**30 + int(x) for x in row] for row in A], dtype=object)
    r_obj = ce.rank_profile_mod_p_cuda(obj, 1048573, block=4)
    assert r_obj == rank_profile_mod_p(obj, 1048573)


@needs_cuda
@pytest.mark.parametrize("launch", [
    ce.LaunchConfig(tile_threads=3, tile_regs=1, tile_k=5, threads=3, max_blocks=1,
                    pivot_threads=1, build_threads=(3, 2), trsm_base=1),
    ce.LaunchConfig(tile_threads=1, tile_regs=3, tile_k=2, threads=5, max_blocks=3,
                    pivot_threads=7, build_threads=(1, 1), trsm_base=3),
], ids=["odd-tiles", "one-thread-tiles"])
def test_any_launch_shape_gives_the_same_answer(launch):
    rng = np.random.default_rng(5)
    A = of_rank(rng, 26, 29, 17)
    A[:, 4] = 0
    check(A, 1048573, block=2, launch=launch)


@needs_cuda
def test_gpu_launch_shapes():
    """The default GPU shapes (16 x 16 GEMM threads, 64 x 64 tiles, 128-thread kernels)."""
    rng = np.random.default_rng(9)
    A = of_rank(rng, 14, 12, 9)
    check(A, 1048573, block=2, launch=ce.LaunchConfig())


# ---------------------------------------------------------------- device builder


@needs_cuda
@pytest.mark.parametrize("d,lam,p", [
    (2, 3, 1048573), (3, 5, 2), (4, 9, 3), (3, 0, 101), (2, 1, 7), (3, 7, P_MAX),
    (5, 2, 1048573),
])
def test_device_builder_matches_cpu_builder(d, lam, p):
    rng = np.random.default_rng([d, lam])
    U = rng.integers(-(2**35), 2**35, size=(23, d))
    G = ce.gram_hadamard_mod_p_device(U, lam, p).copy_to_host()
    assert G.dtype == np.float64 and G.flags.c_contiguous
    assert np.array_equal(G, gram_hadamard_mod_p_f64(U, lam, p))


@needs_cuda
@pytest.mark.parametrize("d", [2, 3, 6])
def test_device_builder_large_residues_reduce_mid_dot_product(d):
    """Residues near p = 67108859: every product is close to 2^52, so a dot product
    of length >= 3 passes 2^53 unless it is reduced every k_max(p) = 2 terms."""
    rng = np.random.default_rng(d)
    U = rng.integers(P_MAX - 40, P_MAX, size=(17, d))
    for lam in (1, 2):
        G = ce.gram_hadamard_mod_p_device(U, lam, P_MAX).copy_to_host()
        assert np.array_equal(G, gram_hadamard_mod_p_f64(U, lam, P_MAX))


@needs_cuda
def test_device_builder_nested_lists_and_empty():
    U = [[1, 2], [3, 4]]
    assert ce.gram_hadamard_mod_p_device(U, 2, 7).copy_to_host().tolist() == [[4.0, 2.0],
                                                                            [2.0, 2.0]]
    assert ce.gram_hadamard_mod_p_device(np.zeros((0, 3), dtype=np.int64), 2, 7).shape == (0, 0)


@needs_cuda
def test_device_pipeline_builder_to_rank():
    from seprank.constructions.omega import omega_rows

    U = np.array(omega_rows(3, 5, 2), dtype=np.int64)  # n = 21, rank-deficient G
    p = 1048573
    G_cpu = gram_hadamard_mod_p_f64(U, 5, p)
    expected = rank_profile_mod_p(G_cpu, p)
    dG = ce.gram_hadamard_mod_p_device(U, 5, p)
    r, rows, cols = ce.rank_profile_mod_p_cuda(dG, p, block=4)  # a copy: dG survives
    assert (r, cols) == (expected[0], expected[2])
    assert np.array_equal(dG.copy_to_host(), G_cpu)
    r2, rows2, cols2 = ce.rank_profile_mod_p_cuda(dG, p, block=4, overwrite=True)
    assert (r2, rows2, cols2) == (r, rows, cols)
    assert rank_mod_p(G_cpu[np.ix_(rows, cols)].astype(np.int64).tolist(), p) == r


@needs_cuda
def test_device_input_is_reduced_and_checked():
    cuda = ce._load_cuda()
    rng = np.random.default_rng(2)
    A = of_rank(rng, 12, 12, 6) * 1000003 - 5
    check_r = rank_profile_mod_p(A, 101)
    dA = cuda.to_device(A.astype(np.float64))
    assert ce.rank_profile_mod_p_cuda(dA, 101, block=4) == check_r
    for bad in (0.5, np.nan, np.inf, 2.0**53):
        B = A.astype(np.float64)
        B[3, 4] = bad
        with pytest.raises(InputError, match="not integers"):
            ce.rank_profile_mod_p_cuda(cuda.to_device(B), 101)
    with pytest.raises(InputError, match="float64"):
        ce.rank_profile_mod_p_cuda(cuda.to_device(A), 101)
    with pytest.raises(InputError, match="C-contiguous"):
        ce.rank_profile_mod_p_cuda(cuda.to_device(np.asfortranarray(A.astype(np.float64))),
                                   101)


# ---------------------------------------------------------------- errors and info


@needs_cuda
def test_bad_arguments():
    A = np.eye(3, dtype=np.int64)
    with pytest.raises(NotPrimeError):
        ce.rank_profile_mod_p_cuda(A, 9)
    with pytest.raises(NotPrimeError):
        ce.rank_profile_mod_p_cuda(A, 2**31 - 1)
    with pytest.raises(NotPrimeError):
        ce.gram_hadamard_mod_p_device([[1]], 1, 2**31 - 1)
    with pytest.raises(ParameterError):
        ce.gram_hadamard_mod_p_device([[1]], -1, 7)
    with pytest.raises(ParameterError):
        ce.rank_profile_mod_p_cuda(A, 7, block=0)
    with pytest.raises(InputError):
        ce.rank_profile_mod_p_cuda(np.zeros((2, 2, 2), dtype=np.int64), 7)
    with pytest.raises(InputError):
        ce.rank_profile_mod_p_cuda(np.array([[0.5]]), 7)
    with pytest.raises(InputError):
        ce.rank_profile_mod_p_cuda([[1, 2]], 7)
    with pytest.raises(InputError):
        ce.rank_profile_mod_p_cuda(np.array([["a"]]), 7)


@needs_cuda
def test_device_memory_is_checked_before_allocating(monkeypatch):
    monkeypatch.setattr(ce, "simulator_active", lambda: False)
    info = SimpleNamespace(get_memory_info=lambda: (10_000, 20_000))
    monkeypatch.setattr(ce.cuda, "current_context", lambda: info)
    with pytest.raises(MemoryLimitError, match="GPU memory"):
        ce.rank_profile_mod_p_cuda(np.ones((100, 100), dtype=np.int64), 7)
    with pytest.raises(MemoryLimitError, match="GPU memory"):
        ce.gram_hadamard_mod_p_device(np.ones((100, 2), dtype=np.int64), 2, 7)


@needs_cuda
def test_gpu_info_and_gemm_timer():
    info = ce.gpu_info()
    assert info["available"] is True and info["simulator"] is SIM
    assert info["numba_cuda"]
    if SIM:
        assert info["name"] == "simulator"
    else:
        assert info["name"] and info["total_memory_bytes"] > 0
        assert len(info["compute_capability"]) == 2
    assert ce.time_modular_gemm(6, 3, 7, repeat=1) > 0


@needs_cuda
def test_simulator_shared_arrays_survive_thread_switches(monkeypatch):
    """numba-cuda's simulator allocates a block's shared array without a lock; a thread
    switch between its lookup and its store gave threads different "shared" arrays and
    the engine a rank above the true one (seen under load). Force that switch at every
    first allocation: with seprank's guard the ranks stay right."""
    if not ce.simulator_active():
        pytest.skip("the guard is for numba's CUDA simulator")
    import time

    from numba.cuda.simulator import kernelapi

    class SlowFirstLookup(dict):
        def get(self, key, default=None):
            found = super().get(key, default)
            if found is None:
                time.sleep(0.002)  # another thread of the block runs here
            return found

    original_init = kernelapi.FakeCUDAShared.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self._allocations = SlowFirstLookup()

    monkeypatch.setattr(kernelapi.FakeCUDAShared, "__init__", init)
    for m, n, r, p, block in [(36, 40, 25, 2, 8), (17, 23, 11, 1048573, 4)]:
        A = of_rank(np.random.default_rng([m, n, r, block]), m, n, r)
        check(A, p, block=block)
