"""Grid tensors and matricization (one convention: rows = I ascending, first most significant)."""

from itertools import permutations
from math import comb, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import seprank
from seprank.errors import InputError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.tensors import (
    balanced_partitions,
    check_partition,
    grid_inputs,
    grid_matrix,
    grid_tensor,
    matricization_index,
    matricize,
    submatrix,
    tensor_index,
    unmatricize,
)


@st.composite
def tensors_and_partitions(draw):
    order = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=order, max_size=order)))
    mask = draw(st.lists(st.booleans(), min_size=order, max_size=order))
    I = tuple(n for n in range(order) if mask[n])
    A = np.arange(prod(shape)).reshape(shape)
    return A, I


def test_figure_7_3_layout():
    A = np.array([f"{a}{b}{c}" for a in (1, 2) for b in (1, 2) for c in (1, 2, 3)],
                 dtype=object).reshape(2, 2, 3)
    assert matricize(A, [0, 2], [1]).tolist() == [
        ["111", "121"], ["112", "122"], ["113", "123"],
        ["211", "221"], ["212", "222"], ["213", "223"]]


def test_balanced_convention_by_hand():
    # N = 4, M = 2, I = {2, 4} (1-based): row = 2 (d_2 - 1) + (d_4 - 1) + 1
    A = np.arange(16).reshape(2, 2, 2, 2)
    Mat = matricize(A, (1, 3))
    for idx in np.ndindex(A.shape):
        assert Mat[2 * idx[1] + idx[3], 2 * idx[0] + idx[2]] == A[idx]


@settings(max_examples=60)
@given(tensors_and_partitions())
def test_matricize_round_trip_and_index_maps(data):
    A, I = data
    J = tuple(n for n in range(A.ndim) if n not in I)
    Mat = matricize(A, I)
    assert Mat.shape == (prod(A.shape[i] for i in I), prod(A.shape[j] for j in J))
    assert (unmatricize(Mat, A.shape, I) == A).all()
    for idx in np.ndindex(A.shape):
        r, c = matricization_index(idx, A.shape, I, J)
        assert Mat[r, c] == A[idx]
        assert tensor_index(r, c, A.shape, I, J) == idx
    assert (matricize(A, J, I) == Mat.T).all()


def test_partition_order_given_does_not_matter():
    A = np.arange(24).reshape(2, 3, 4)
    assert (matricize(A, [2, 0]) == matricize(A, (0, 2))).all()


def test_partition_errors():
    with pytest.raises(ParameterError, match="both"):
        check_partition(4, (0, 1), (1, 2, 3))
    with pytest.raises(ParameterError, match="neither"):
        check_partition(4, (0, 1), (2,))
    with pytest.raises(ParameterError, match="outside 0..3"):
        check_partition(4, (0, 4))
    with pytest.raises(ParameterError, match="repeats"):
        check_partition(4, (0, 0))
    with pytest.raises(ParameterError, match="odd"):
        balanced_partitions(5)
    with pytest.raises(InputError, match="numpy array"):
        matricize([[1, 2]], (0,))
    with pytest.raises(InputError, match="needs"):
        unmatricize(np.zeros((2, 3)), (2, 2), (0,))


@pytest.mark.parametrize("N", [2, 4, 6, 8])
def test_balanced_partition_counts(N):
    assert len(balanced_partitions(N)) == comb(N, N // 2) // 2
    ordered = balanced_partitions(N, ordered=True)
    assert len(ordered) == comb(N, N // 2)
    assert all(len(I) == len(J) == N // 2 and set(I) | set(J) == set(range(N))
               for I, J in ordered)


def _poly(X):
    # a function of 3 positions, deliberately asymmetric: x1_0 * x2_1 + x3_0 ** 2
    return X[:, 0, 0] * X[:, 1, 1] + X[:, 2, 0] ** 2


def test_grid_tensor_definition():
    T = np.array([[1, 2], [3, -1], [0, 5]], dtype=object)
    A = grid_tensor(_poly, T, 3)
    assert A.shape == (3, 3, 3)
    for d in np.ndindex(A.shape):
        assert A[d] == T[d[0]][0] * T[d[1]][1] + T[d[2]][0] ** 2
    assert (grid_tensor(_poly, T, 3, chunk=4) == A).all()
    X = grid_inputs(T, [[0, 2, 1]])
    assert X.tolist() == [[[1, 2], [0, 5], [3, -1]]]


def test_submatrix_evaluates_only_what_it_needs():
    T = np.array([[1, 2], [3, -1], [0, 5]], dtype=object)
    seen = []

    def f(X):
        seen.append(len(X))
        return _poly(X)

    full = grid_matrix(_poly, T, 3, (0, 2))
    sub = submatrix(f, T, 3, (0, 2), None, [0, (2, 1), 5], [(1,), 2])
    assert sub.shape == (3, 2)
    assert (sub == full[np.ix_([0, 7, 5], [1, 2])]).all()
    assert sum(seen) == 6


def test_submatrix_errors():
    T = np.array([[1, 2], [3, -1]])
    with pytest.raises(ParameterError, match="row 4 is outside"):
        submatrix(_poly, T, 3, (0, 2), None, [4], [0])
    with pytest.raises(ParameterError, match="one template index"):
        submatrix(_poly, T, 3, (0, 2), None, [(0,)], [0])
    with pytest.raises(ParameterError, match="template indices"):
        grid_inputs(T, [[0, 2, 1]])
    with pytest.raises(InputError, match="one value per sequence"):
        grid_tensor(lambda X: X[:, 0], T, 3)
    with pytest.raises(InputError, match="templates"):
        grid_tensor(_poly, np.zeros(3), 3)


def test_network_grid_submatrix_matches_full():
    net = SelfAttentionNetwork.random(2, 2, 1, seed=3, nonzero=True)
    T = np.array([[1, 0], [1, 2], [-1, 1]])
    f = net.as_function(0, 1, "ZZ")
    full = grid_matrix(f, T, 4, (1, 2))
    sub = submatrix(f, T, 4, (1, 2), (0, 3), [(2, 2), 1], [(0, 1), (2, 0)])
    assert (sub == full[np.ix_([8, 1], [1, 6])]).all()
    mod = submatrix(net.as_function(0, 1, "GF(p)", p=101), T, 4, (1, 2), None, [8, 1], [1, 6])
    assert (mod == np.mod(sub.astype(object), 101).astype(np.int64)).all()


@settings(max_examples=15)
@given(st.integers(0, 10**6), st.sampled_from([(4, 3), (5, 2), (3, 4)]))
def test_grid_rank_invariant_under_permuting_non_output_positions(seed, NM):
    N, M = NM
    rng = np.random.default_rng(seed)
    net = SelfAttentionNetwork.random(1, 2, 1, seed=seed, nonzero=True)
    T = rng.integers(-2, 3, size=(M, 2))
    i = int(rng.integers(0, N))
    A = grid_tensor(net.as_function(i, 0, "ZZ"), T, N)
    size = int(rng.integers(1, N))
    I = tuple(int(x) for x in sorted(rng.choice(N, size=size, replace=False)))
    base = seprank.rank(matricize(A, I), "exact").value
    others = [n for n in range(N) if n != i]
    for perm in list(permutations(others))[:6]:
        pi = dict(zip(others, perm, strict=True))
        pi[i] = i
        I2 = tuple(sorted(pi[n] for n in I))
        assert seprank.rank(matricize(A, I2), "exact").value == base
