"""Direct numba builders mod p agree with big-integer construction, on both paths."""

import numpy as np
import pytest

import seprank
from seprank.constructions.builders import gram_hadamard_mod_p_f64, gram_hadamard_rows_mod_p
from seprank.constructions.omega import gram_hadamard_exact, omega_rows
from seprank.errors import MemoryLimitError
from seprank.linalg.residues import ResidueMatrix


@pytest.mark.parametrize("p", [2, 101, 1048573, 2**31 - 1])  # 2^31 - 1 takes the int64 path
@pytest.mark.parametrize("d, lam, omega", [(2, 3, 2), (3, 3, 3), (4, 2, -2)])
def test_matches_big_integers(p, d, lam, omega):
    U = omega_rows(d, lam, omega)
    exact = gram_hadamard_exact(U, lam)
    n = exact.nrows()
    expected = np.array([[int(exact[i, j]) % p for j in range(n)] for i in range(n)],
                        dtype=np.float64)
    assert np.array_equal(gram_hadamard_mod_p_f64(U, lam, p), expected)
    assert np.array_equal(gram_hadamard_rows_mod_p(U, lam, p, 1, n - 1), expected[1:n - 1])


def test_random_rows_and_rank_through_front_door():
    rng = np.random.default_rng(5)
    U = rng.integers(-1000, 1000, size=(40, 3))
    G = gram_hadamard_mod_p_f64(U, 4, 1048573)
    res = seprank.rank(ResidueMatrix(G, 1048573), certify=True)
    # rank of (U U^T)^(Hadamard 4) is at most ((3, 4)) = 15
    assert res.value <= 15 and res.kind == "exact" and res.field == "GF(1048573)"
    assert seprank.verify(ResidueMatrix(G, 1048573), res.certificate)


def test_memory_refused_before_allocating(monkeypatch):
    import seprank.budget as budget  # the machine's memory, as every budget reads it

    monkeypatch.setattr(budget, "machine_memory", lambda: (100, "free memory"))
    with pytest.raises(MemoryLimitError):
        gram_hadamard_mod_p_f64(omega_rows(3, 3, 2), 3, 101)
