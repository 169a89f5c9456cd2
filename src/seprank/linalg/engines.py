"""The modular engines behind one small protocol, in one registry.

Each :class:`ModularEngine` has a name, says whether it can run here, its
largest and default prime, and computes the rank profile mod p of an array of
residues: ``(r, rows, cols)`` with ``matrix[rows, cols]`` nonsingular mod p.
``seprank.rank``'s ``engine=`` choices, the CLI's ``--engine`` choices and the
engine test parametrization (tests/test_engines.py) are read from
:data:`REGISTRY`, so adding an engine is adding one entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seprank.linalg.modarith import (
    FLINT_DEFAULT_PRIME,
    FLINT_MAX_PRIME,
    NUMBA_DEFAULT_PRIME,
    NUMBA_MAX_PRIME,
    residues_int64,
)

__all__ = ["ModularEngine", "REGISTRY", "engine_names", "get_engine"]


def _flint_profile(residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
    import flint

    from seprank.linalg.flint_engine import lower_certificate

    m, n = residues.shape
    vals = residues_int64(residues, p).ravel().tolist()
    r, cert = lower_certificate(flint.nmod_mat(m, n, vals, p))
    return r, list(cert.rows), list(cert.cols)


def _numba_profile(residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
    from seprank.linalg.modular_lu import rank_profile_mod_p

    return rank_profile_mod_p(residues, p)


def _cuda_profile(residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
    from seprank.linalg.cuda_engine import rank_profile_mod_p_cuda

    return rank_profile_mod_p_cuda(residues, p)


def _always() -> bool:
    return True


def _cuda_available() -> bool:
    from seprank.linalg.cuda_engine import cuda_available

    return cuda_available()


@dataclass(frozen=True)
class ModularEngine:
    """One engine for ranks over GF(p).

    Examples
    --------
    >>> eng = get_engine("flint")
    >>> eng.available(), eng.default_prime == 2**31 - 1
    (True, True)
    >>> eng.rank_profile(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 5)
    (2, [0, 2], [0, 1])
    """

    name: str
    description: str
    max_prime: int
    default_prime: int
    _profile: Callable[[np.ndarray, int], tuple[int, list[int], list[int]]]
    _available: Callable[[], bool] = _always

    def available(self) -> bool:
        """Whether this engine can run on this machine now."""
        return bool(self._available())

    def rank_profile(self, residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
        """(rank mod p, pivot rows, pivot columns) of a 2-D integer (or float64) array."""
        return self._profile(residues, p)


#: Every modular engine, by name (the order is the order of the CLI's choices).
REGISTRY: dict[str, ModularEngine] = {
    "flint": ModularEngine("flint", "python-flint nmod_mat (any word-size prime)",
                           FLINT_MAX_PRIME, FLINT_DEFAULT_PRIME, _flint_profile),
    "numba": ModularEngine("numba", "blocked LU, BLAS products, delayed reduction (CPU)",
                           NUMBA_MAX_PRIME, NUMBA_DEFAULT_PRIME, _numba_profile),
    "cuda": ModularEngine("cuda", "the blocked LU on an NVIDIA GPU (numba-cuda)",
                          NUMBA_MAX_PRIME, NUMBA_DEFAULT_PRIME, _cuda_profile,
                          _cuda_available),
}


def engine_names() -> tuple[str, ...]:
    """Names of the registered engines.

    >>> engine_names()
    ('flint', 'numba', 'cuda')
    """
    return tuple(REGISTRY)


def get_engine(name: str) -> ModularEngine:
    """The engine called ``name`` (ParameterError for an unknown name).

    >>> get_engine("numba").max_prime == 2**26
    True
    """
    from seprank.errors import ParameterError

    try:
        return REGISTRY[name]
    except KeyError:
        raise ParameterError(f"unknown engine {name!r}; choose one of "
                             f"{', '.join(REGISTRY)}") from None
