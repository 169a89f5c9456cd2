"""The ``cuda`` engine: the blocked LU of the numba engine on an NVIDIA GPU (numba-cuda).

The computation is :func:`seprank.linalg.engines.cuda_engine.rank_profile_mod_p_cuda`,
imported on first use (``import seprank`` never imports ``numba.cuda``). It has
the numba engine's arithmetic, so its primes (below 2^26, ``auto``'s from
``AUTO_NUMBA_PRIME_RANGE``) and certificate parts; it prefers no input (it runs
when asked: ``engine="cuda"`` or ``method="cuda"``), and it can run only where
numba-cuda finds a GPU or numba's simulator is on.
"""

from __future__ import annotations

from seprank.linalg.engines.numba_lu import AUTO_NUMBA_PRIME_RANGE
from seprank.linalg.engines.protocol import FULL_RANK_BOUND, MINOR, RESIDUES, ModularEngine
from seprank.linalg.modarith import NUMBA_DEFAULT_PRIME, NUMBA_MAX_PRIME

__all__ = ["ENGINE"]


def _profile(data, p: int, overwrite: bool = False) -> tuple[int, list[int], list[int]]:
    from seprank.linalg.engines.cuda_engine import rank_profile_mod_p_cuda

    return rank_profile_mod_p_cuda(data, p, overwrite=overwrite)


def _available() -> bool:
    from seprank.linalg.engines.cuda_engine import cuda_available

    return cuda_available()


#: the engine (registered in seprank.linalg.engines)
ENGINE = ModularEngine(
    name="cuda", description="the blocked LU on an NVIDIA GPU (numba-cuda)",
    label="cuda-lu", max_prime=NUMBA_MAX_PRIME, default_prime=NUMBA_DEFAULT_PRIME,
    auto_primes=AUTO_NUMBA_PRIME_RANGE, auto_primes_name="AUTO_NUMBA_PRIME_RANGE",
    _profile=_profile, takes=RESIDUES, certificate_parts=(MINOR, FULL_RANK_BOUND),
    needs="numba-cuda and an NVIDIA GPU", _available=_available)
