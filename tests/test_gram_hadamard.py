"""gram_hadamard over every (domain, backend) against an independent exact computation.

The reference is written here from the definition G[i, j] = <u_i, u_j>^lam with
Python integers / Fractions, then reduced mod p by Python's ``%`` (levine2020
l.700-712). The CUDA backend runs when a GPU or numba's simulator
(NUMBA_ENABLE_CUDASIM=1 before Python starts) is available, else it is skipped.
"""

from fractions import Fraction

import numpy as np
import pytest

from seprank.constructions.gram_hadamard import BACKENDS, gram_hadamard
from seprank.errors import InputError, ParameterError


def _cuda_ok() -> bool:
    try:
        from seprank.linalg.engines.cuda_engine import cuda_available
    except ImportError:
        return False
    return cuda_available()


def _reference(rows, lam, p=None):
    n = len(rows)
    G = [[sum(a * b for a, b in zip(rows[i], rows[j], strict=True)) ** lam for j in range(n)]
         for i in range(n)]
    return [[g % p for g in row] for row in G] if p else G


CASES = [(dom, b) for b, doms in BACKENDS.items() for dom in doms]
#: 2 and 3 (tiny), 1048573 (the numba default) and 2^31 - 1 (integer path; above cuda's cap)
PRIMES = [2, 3, 1048573, 2**31 - 1]


@pytest.mark.parametrize("domain,backend", CASES)
def test_every_domain_and_backend_matches_the_definition(domain, backend):
    if backend == "cuda" and not _cuda_ok():
        pytest.skip("no CUDA GPU and numba's simulator is off")
    rng = np.random.default_rng(12)
    for trial in range(3):
        n, d = int(rng.integers(0 if trial == 0 else 1, 6)), int(rng.integers(1, 5))
        lam = int(rng.integers(0, 6))
        ints = [[int(x) for x in row] for row in rng.integers(-9, 10, size=(n, d))]
        if domain == "QQ":
            U = [[Fraction(x, int(rng.integers(1, 5))) for x in row] for row in ints]
            assert gram_hadamard(U, lam, domain=domain, backend=backend).tolist() == \
                _reference(U, lam)
        elif domain == "ZZ":
            big = [[x * 2**70 + 1 for x in row] for row in ints]  # beyond int64
            for U in (ints, big):
                assert gram_hadamard(U, lam, domain=domain, backend=backend).tolist() == \
                    _reference(U, lam)
        else:
            for p in PRIMES:
                if backend == "cuda" and p > 2**26:
                    continue
                for U in (np.array(ints, dtype=np.int64).reshape(n, d),
                          [[x * 2**70 - 3 for x in row] for row in ints]):
                    rows = np.asarray(U, dtype=object).reshape(n, d).tolist()
                    G = gram_hadamard(U, lam, domain=domain, p=p, backend=backend)
                    assert np.asarray(G).shape == (n, n)
                    assert np.asarray(G).tolist() == _reference(rows, lam, p)


def test_bad_arguments_are_refused():
    with pytest.raises(ParameterError, match="does not compute over ZZ"):
        gram_hadamard([[1]], 2, backend="numba")
    with pytest.raises(ParameterError, match="needs a prime"):
        gram_hadamard([[1]], 2, domain="GF(p)")
    with pytest.raises(ParameterError, match="unknown domain"):
        gram_hadamard([[1]], 2, domain="RR")
    with pytest.raises(ParameterError, match="lambda"):
        gram_hadamard([[1]], -1)
    with pytest.raises(InputError, match="not an integer"):
        gram_hadamard([[Fraction(1, 2)]], 2, domain="ZZ")
    with pytest.raises(InputError):
        gram_hadamard(np.array([[0.5]]), 2, domain="GF(p)", p=7)
