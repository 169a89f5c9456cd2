"""The numba GF(p) kernels of seprank.models.network_mod_p against the numpy path and Q/Q(i).

Three evaluations of levine2020 eq. (3) (with the A.4 residual variant) must give the
same residues: the numba kernel, the numpy ``ModularBackend`` (``kernel=False``) and
the exact rational / Gaussian-rational evaluation reduced mod p.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.errors import InputError, MemoryLimitError, NotPrimeError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.models.network_mod_p import (
    MAX_KERNEL_PRIME,
    evaluate_mod_p,
    grid_values_mod_p,
    reduction_interval,
)
from seprank.models.reference import gaussian_batch, rational_batch
from seprank.scalars.gaussian import residues, sqrt_minus_one
from seprank.tensors import grid_matrix, grid_tensor, submatrix

# primes of every size the kernel treats differently: tiny (p <= 2^12: float-exact
# accumulator), mid-size (the Lemma 6 prime), and the largest ones (a reduction after
# every product); 2^31 - 1 is the largest accepted, 2147483629 the largest = 1 mod 4;
# 1239850223 has r = 3, so dot products longer than 3 reduce part-way
PRIMES = [2, 5, 13, 4093, 1048573, 1239850223, 2147483629, MAX_KERNEL_PRIME]
GAUSSIAN_PRIMES = [5, 13, 1048573, 2147483629]  # = 1 mod 4: i has a square root

nets = st.tuples(st.integers(1, 3),                     # L
                 st.integers(1, 3),                     # H
                 st.integers(1, 4),                     # d_a
                 st.integers(1, 4),                     # d_x
                 st.integers(1, 4),                     # N
                 st.booleans(),                         # residual
                 st.sampled_from(["int", "rational", "gaussian"]),
                 st.integers(0, 10**6))                 # seed


def _case(params):
    L, H, d_a, d_x, N, residual, kind, seed = params
    rng = np.random.default_rng(seed)
    net = SelfAttentionNetwork.random(L, d_x, H, d_a, residual=residual, seed=seed, kind=kind,
                                      bound=3)
    if kind == "int":
        X = rng.integers(-4, 5, size=(3, N, d_x)).astype(object)
    else:
        X = (gaussian_batch if kind == "gaussian" else rational_batch)(rng, 3, N, d_x)
    primes = GAUSSIAN_PRIMES if kind == "gaussian" else PRIMES
    return net, X, primes, ("QQ(i)" if kind == "gaussian" else "QQ")


def _reduce(exact, p):
    return residues(exact, p, sqrt_minus_one(p) if p % 4 == 1 else None)


@settings(max_examples=25)
@given(nets)
def test_kernel_equals_numpy_equals_exact(params):
    net, X, primes, exact_domain = _case(params)
    exact = net.evaluate(X, exact_domain)
    for p in primes:
        try:
            numpy_path = net.evaluate(X, "GF(p)", p=p, kernel=False)
        except ParameterError:  # a denominator divisible by p: no image in GF(p)
            with pytest.raises(ParameterError, match="divisible by p"):
                evaluate_mod_p(net, X, p)
            continue
        want = _reduce(exact, p)  # weights and inputs reduce, so the output does
        kernel = net.evaluate(X, "GF(p)", p=p, kernel=True)
        assert kernel.dtype == np.int64
        assert (numpy_path == want).all()
        assert (kernel == want).all(), (params, p)
        pos = params[4] - 1
        assert (evaluate_mod_p(net, X, p, position=pos) == want[:, pos]).all()


@pytest.mark.parametrize("L,H,d_a,d_x,N,residual", [(1, 1, 1, 1, 1, False), (3, 2, 3, 4, 4, True),
                                                    (2, 3, 1, 3, 2, False), (4, 1, 2, 2, 3, True)])
@pytest.mark.parametrize("p", [3, 1048573, 1239850223, MAX_KERNEL_PRIME])
def test_kernel_on_large_residues(L, H, d_a, d_x, N, residual, p):
    # inputs and weights near p - 1 (as large as residues get): exercises the overflow bound
    rng = np.random.default_rng(p % 1000 + L)
    net = SelfAttentionNetwork.random(L, d_x, H, d_a, residual=residual, seed=L, bound=3)
    X = rng.integers(p - 3, p, size=(7, N, d_x)).astype(object)  # -3..-1 mod p
    exact = net.evaluate(X, "ZZ")
    want = residues(exact, p)
    assert (net.evaluate(X, "GF(p)", p=p, kernel=True) == want).all()
    assert (net.evaluate(X, "GF(p)", p=p, kernel=False) == want).all()


def test_automatic_choice_uses_kernel_for_large_batches():
    net = SelfAttentionNetwork.random(2, 4, 2, residual=True, seed=3)
    X = np.random.default_rng(0).integers(-5, 6, size=(600, 3, 4))
    auto = net.evaluate(X, "GF(p)", p=10007)  # 600 >= KERNEL_MIN_BATCH: the kernel
    assert (auto == net.evaluate(X, "GF(p)", p=10007, kernel=False)).all()
    assert (auto == residues(net.evaluate(X, "ZZ"), 10007)).all()


@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("kind,p", [("int", 101), ("rational", MAX_KERNEL_PRIME),
                                    ("gaussian", 1048573), ("gaussian", 2147483629)])
def test_grid_submatrix_kernel_equals_old_path(residual, kind, p):
    L, H, d_a, d_x, N = 2, 2, 2, 3, 4
    net = SelfAttentionNetwork.random(L, d_x, H, d_a, residual=residual, seed=11, kind=kind)
    rng = np.random.default_rng(1)
    T = rng.integers(-3, 4, size=(3, d_x)).astype(object)
    for I in [(0, 1), (1, 3), (0,), (0, 1, 2, 3)]:
        J = tuple(n for n in range(N) if n not in I)
        rows = [int(x) for x in rng.integers(0, 3 ** len(I), size=5)]
        cols = list(range(3 ** len(J)))
        for position, coordinate in [(0, 0), (N - 1, d_x - 1), (2, 1)]:
            fast = net.as_function(position, coordinate, "GF(p)", p=p)
            old = net.as_function(position, coordinate, "GF(p)", p=p, kernel=False)
            a = submatrix(fast, T, N, I, None, rows, cols)
            b = submatrix(old, T, N, I, None, rows, cols)
            c = submatrix(fast, T, N, I, None, rows, cols, use_kernel=False)
            assert a.dtype == np.int64 and a.shape == (5, len(cols))
            assert (a == b).all() and (a == c).all()
    # the whole grid tensor and a matricization, against Q(i) reduced mod p
    f = net.as_function(1, 2, "GF(p)", p=p)
    exact = grid_tensor(net.as_function(1, 2, "QQ(i)"), T, N)
    s = sqrt_minus_one(p) if p % 4 == 1 else None
    assert (grid_tensor(f, T, N) == residues(exact, p, s)).all()
    assert (grid_matrix(f, T, N, (1, 2)) == grid_matrix(f, T, N, (1, 2), use_kernel=False)).all()


def test_grid_single_layer_and_odd_n():
    # L = 1 takes the kernel's first-layer-only branch; N = 3 splits the tensor 2 + 1
    for residual in (False, True):
        net = SelfAttentionNetwork.random(1, 2, 2, 3, residual=residual, seed=4, kind="rational")
        T = [[1, -2], [0, 3], [2, 2], [-1, 1]]
        for position in range(3):
            f = net.as_function(position, 1, "GF(p)", p=97)
            g = net.as_function(position, 1, "GF(p)", p=97, kernel=False)
            assert (grid_tensor(f, T, 3) == grid_tensor(g, T, 3)).all()
    # N = 1: the tensor is one row block with an empty column side
    net = SelfAttentionNetwork.random(2, 2, 1, seed=0, residual=True)
    f, g = net.as_function(0, 1, "GF(13)"), net.as_function(0, 1, "GF(13)", kernel=False)
    assert (grid_tensor(f, T, 1) == grid_tensor(g, T, 1)).all()
    assert (submatrix(f, T, 1, (), None, [()], [0, 3]) == submatrix(g, T, 1, (), None, [()],
                                                                     [0, 3])).all()
    assert submatrix(f, T, 2, (0,), None, [], [0, 1]).shape == (0, 2)


def test_grid_values_hand_worked():
    # one layer, weights 1: y^0 = x_0 (x_0^2 + x_1^2); templates 1, 2:
    # (1, 1) -> 2, (1, 2) -> 5, (2, 1) -> 10, (2, 2) -> 16, mod 7: 2, 5, 3, 2
    one = [[[[1]]]]
    net = SelfAttentionNetwork(1, 1, 1, weights={"Q": one, "K": one, "V": one, "O": one})
    got = grid_values_mod_p(net, [[1], [2]], [0], [1], [[0], [1]], [[0], [1]], 7,
                            position=0, coordinate=0)
    assert got.tolist() == [[2, 5], [3, 2]]
    empty = grid_values_mod_p(net, [[1]], [0], [1], np.zeros((0, 1)), [[0]], 7, position=0,
                              coordinate=0)
    assert empty.shape == (0, 1)


def test_reduction_interval_bound():
    for p in PRIMES:
        r = reduction_interval(p)
        bound = 2**53 if p <= 2**12 else 2**62
        assert r >= 1 and (p - 1) + r * (p - 1) ** 2 <= bound
        if p > 2:
            assert (p - 1) + (r + 1) * (p - 1) ** 2 > bound
    assert reduction_interval(MAX_KERNEL_PRIME) == 1
    assert reduction_interval(1239850223) == 3


def test_prime_errors():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    X = [[[1, 2]]]
    with pytest.raises(NotPrimeError, match="larger"):
        evaluate_mod_p(net, X, 2**31 + 11)
    with pytest.raises(NotPrimeError, match="not prime"):
        evaluate_mod_p(net, X, 91)
    with pytest.raises(NotPrimeError):
        grid_values_mod_p(net, [[1, 2]], [0], [], [[0]], [[]], 2**61 - 1, position=0,
                          coordinate=0)
    with pytest.raises(NotPrimeError):
        reduction_interval(1)
    with pytest.raises(NotPrimeError):
        net.evaluate(X, "GF(p)", p=2**31 + 11, kernel=True)
    gauss = SelfAttentionNetwork.random(1, 2, 1, seed=0, kind="gaussian")
    with pytest.raises(ParameterError, match="1 mod 4"):
        evaluate_mod_p(gauss, X, 7)


def test_shape_and_parameter_errors():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=0)
    with pytest.raises(InputError, match="shape"):
        evaluate_mod_p(net, [[[1, 2, 3]]], 7)
    with pytest.raises(ParameterError, match="position"):
        evaluate_mod_p(net, [[[1, 2]]], 7, position=1)
    with pytest.raises(InputError, match="float"):
        evaluate_mod_p(net, [[[1.5, 2]]], 7)
    T = [[1, 0], [0, 1]]
    with pytest.raises(InputError, match="templates"):
        grid_values_mod_p(net, [[1, 0, 0]], [0], [1], [[0]], [[0]], 7, position=0, coordinate=0)
    with pytest.raises(ParameterError, match="partition"):
        grid_values_mod_p(net, T, [0], [0], [[0]], [[0]], 7, position=0, coordinate=0)
    with pytest.raises(ParameterError, match="template indices"):
        grid_values_mod_p(net, T, [0], [1], [[2]], [[0]], 7, position=0, coordinate=0)
    with pytest.raises(InputError, match="rows"):
        grid_values_mod_p(net, T, [0], [1], [[0, 1]], [[0]], 7, position=0, coordinate=0)
    with pytest.raises(ParameterError, match="coordinate"):
        grid_values_mod_p(net, T, [0], [1], [[0]], [[0]], 7, position=0, coordinate=2)
    with pytest.raises(ParameterError, match="position"):
        grid_values_mod_p(net, T, [0], [1], [[0]], [[0]], 7, position=2, coordinate=0)
    with pytest.raises(ParameterError, match="kernel=True needs domain GF"):
        net.evaluate([[[1, 2]]], "QQ", kernel=True)
    with pytest.raises(ParameterError, match="kernel=True needs domain GF"):
        net.as_function(0, 0, "ZZ", kernel=True)
    with pytest.raises(ParameterError, match="kernel must be"):
        net.evaluate([[[1, 2]]], "GF(7)", kernel="yes")
    with pytest.raises(ParameterError, match="position"):
        submatrix(net.as_function(3, 0, "GF(7)"), T, 2, (0,), None, [0], [0])


def test_memory_refused_before_allocating(monkeypatch):
    import seprank.budget as budget  # the machine's memory, as every budget reads it

    monkeypatch.setattr(budget, "machine_memory", lambda: (10**6, "free memory"))
    net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    f = net.as_function(0, 0, "GF(p)", p=101)
    rows = np.zeros((400, 1), dtype=np.int64)
    with pytest.raises(MemoryLimitError, match="grid sub-matrix"):
        grid_values_mod_p(net, [[1, 0], [0, 1]], [0], [1], rows, rows, 101, position=0,
                          coordinate=0)
    with pytest.raises(MemoryLimitError):
        submatrix(f, [[1, 0], [0, 1]], 2, (0,), None, [0] * 400, [1] * 400)
    with pytest.raises(MemoryLimitError):
        submatrix(f, [[1, 0], [0, 1]], 2, (0,), None, [0] * 400, [1] * 400, use_kernel=False)
    with pytest.raises(MemoryLimitError):
        grid_tensor(f, [[1, 0], [0, 1]], 17)
    with pytest.raises(MemoryLimitError):
        evaluate_mod_p(net, np.zeros((10**5, 1, 2), dtype=np.int64), 101)
