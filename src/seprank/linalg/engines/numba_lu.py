"""The ``numba`` engine: the blocked LU with BLAS products and delayed reduction (CPU).

The computation is :func:`seprank.linalg.engines.modular_lu.rank_profile_mod_p`
(imported on first use, so that ``import seprank`` does not compile numba
code). Primes below 2^26; residues in float64. Its rank profile proves a full
rank by itself (the trivial bound min(m, n) mod p), and it prefers every input
of at least ``NUMBA_MIN_DIM`` rows and columns whose prime it can take.
"""

from __future__ import annotations

from seprank.linalg.engines.protocol import (
    FULL_RANK_BOUND,
    MINOR,
    RESIDUES,
    ModularEngine,
    Verdict,
)
from seprank.linalg.modarith import NUMBA_DEFAULT_PRIME, NUMBA_MAX_PRIME

__all__ = ["ENGINE", "NUMBA_MIN_DIM", "AUTO_NUMBA_PRIME_RANGE"]

#: The engine prefers matrices with at least this many rows and columns (for the
#: primes below its 2^26 limit). Set by benchmarks/rank_engines.py (README there,
#: "rank_engines.py"; benchmarks/results/rank_engines.*): below about n = 600 flint's
#: nmod_mat is as fast or faster, since the LU's fixed costs (the first call's
#: compilation, BLAS thread wake-ups, the float64 copy) dominate; above it the LU
#: gains, 12-15x at n = 4368-6188. Read at call time, so a test may set it here.
NUMBA_MIN_DIM = 600
#: ``auto`` draws its primes on this engine from [2^19, 2^20): below 2^20,
#: k_max(p) >= 8192 as for the default prime 1048573, so products of inner
#: dimension up to 8192 stay exact in float64 without reduction
#: (seprank.linalg.modarith.k_max), and the range still holds ~38000 primes.
AUTO_NUMBA_PRIME_RANGE = (2**19, 2**20)


def _profile(data, p: int, overwrite: bool = False) -> tuple[int, list[int], list[int]]:
    from seprank.linalg.engines.modular_lu import rank_profile_mod_p

    return rank_profile_mod_p(data, p, overwrite=overwrite)


def _prefers(shape: tuple[int, int], p: int | None) -> Verdict:
    """From ``NUMBA_MIN_DIM`` rows and columns on (the prime is checked by the protocol).

    Examples
    --------
    >>> _prefers((599, 1000), None)
    Verdict(ok=False, reason='min(m, n) = 599 < NUMBA_MIN_DIM = 600')
    """
    k, cut = min(shape), NUMBA_MIN_DIM
    if k < cut:
        return Verdict(False, f"min(m, n) = {k} < NUMBA_MIN_DIM = {cut}")
    return Verdict(True, f"min(m, n) = {k} >= NUMBA_MIN_DIM = {cut}")


#: the engine (registered in seprank.linalg.engines)
ENGINE = ModularEngine(
    name="numba", description="blocked LU, BLAS products, delayed reduction (CPU)",
    label="numba-lu", max_prime=NUMBA_MAX_PRIME, default_prime=NUMBA_DEFAULT_PRIME,
    auto_primes=AUTO_NUMBA_PRIME_RANGE, auto_primes_name="AUTO_NUMBA_PRIME_RANGE",
    _profile=_profile, takes=RESIDUES, certificate_parts=(MINOR, FULL_RANK_BOUND),
    needs="numba", _prefers=_prefers)
