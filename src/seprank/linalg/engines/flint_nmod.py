"""The ``flint`` engine: python-flint ``nmod_mat``, any word-size prime.

It prefers no input: it runs what no other engine prefers (it is registered
first, and can run every prime up to 2^63), and the rank over Q of the
``fmpz_mat.rank`` path, which is python-flint's own, finds its certificate
minor mod primes from this engine's range too. Without a certificate it takes
``nmod_mat.rank``; with one, the pivots of the RREFs of the matrix and its
transpose (:func:`seprank.linalg.engines.flint_engine.lower_certificate`).
"""

from __future__ import annotations

import flint
import numpy as np

import seprank.linalg.engines.flint_engine as fe
from seprank.linalg.engines.protocol import NMOD_MAT, ModularEngine
from seprank.linalg.modarith import FLINT_DEFAULT_PRIME, FLINT_MAX_PRIME, residues_int64

__all__ = ["ENGINE", "AUTO_FLINT_PRIME_RANGE"]

#: ``auto`` draws its primes on this engine from [2^30, 2^31): below 2^31, a
#: product of two residues fits in int64, so the verifier (seprank.verify) checks
#: the minor on its int64 path; from 2^30, a prime divides a nonzero minor of
#: b bits with probability at most about b / 30 / (number of primes in the
#: range, ~5e7), and no input can anticipate which prime is drawn (issue 12,
#: benchmarks/adversarial.py). The ``fmpz_mat.rank`` path draws its certificate
#: primes from here too (seprank.linalg.planner.CERTIFICATE_PRIME_TRIES).
AUTO_FLINT_PRIME_RANGE = (2**30, 2**31)


def _as_nmod(data, p: int) -> flint.nmod_mat:
    """An ``nmod_mat`` as it is, or a 2-D numpy array's residues mod p as one."""
    if isinstance(data, flint.nmod_mat):
        return data
    m, n = data.shape
    return flint.nmod_mat(m, n, residues_int64(np.asarray(data), p).ravel().tolist(), p)


def _profile(data, p: int, overwrite: bool = False) -> tuple[int, list[int], list[int]]:
    r, cert = fe.lower_certificate(_as_nmod(data, p))
    return r, list(cert.rows), list(cert.cols)


def _rank(data, p: int) -> int:
    return fe.rank_mod_p(_as_nmod(data, p))


#: the engine (registered in seprank.linalg.engines)
ENGINE = ModularEngine(
    name="flint", description="python-flint nmod_mat (any word-size prime)",
    label="flint-nmod", max_prime=FLINT_MAX_PRIME, default_prime=FLINT_DEFAULT_PRIME,
    auto_primes=AUTO_FLINT_PRIME_RANGE, auto_primes_name="AUTO_FLINT_PRIME_RANGE",
    _profile=_profile, _rank=_rank, takes=NMOD_MAT, needs="python-flint")
