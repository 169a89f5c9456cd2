"""``seprank.rank``: the one front door for every rank computation.

Methods
-------
``"exact"``
    rank over Q with python-flint (``fmpz_mat.rank``); kind ``exact``.
``"modular"``
    rank of the matrix reduced mod a prime p with python-flint ``nmod_mat``.
    Reduction mod p can only lower the rank, so the answer over Q is a
    certified *lower bound*, unless it equals min(m, n): a lower bound that
    meets the trivial upper bound is the exact rank, and the result says so.
``"multimodular"``
    exact over Q from primes: ranks mod primes give a certified lower bound
    and, when it is not full, kernel vectors found by p-adic lifting and
    rational reconstruction, verified exactly, give the matching upper bound
    (:mod:`seprank.linalg.multimodular`). Kind ``exact`` when both hold, else
    ``lower_bound``; the primes used are listed. Measured (benchmarks/multimodular.py)
    faster than ``fmpz_mat.rank`` on rank-deficient matrices from n ~ 800
    (random products, 1.4-2.3x) and from n ~ 400 on Gram Hadamard powers
    (1.7-2.1x); level or slower below.
``"float"``
    numpy SVD; kind ``float_estimate``, with the tolerance and singular-value gap.
``"cuda"``
    the modular method on the GPU (``engine="cuda"``): same kinds as
    ``"modular"``. Needs numba-cuda and a GPU, or numba's simulator
    (``NUMBA_ENABLE_CUDASIM=1``, small sizes only).
``"auto"`` (default)
    an exact answer, the cheap way first: the rank mod a prime drawn at random
    (from [2^30, 2^31) on flint, [2^19, 2^20) on numba; listed in ``primes``),
    which is exact when it is full; if not, a second random prime; if neither
    gives full rank, from ``MULTIMODULAR_MIN_DIM`` rows and columns, the
    multimodular method with a random first prime (kept only when it
    certifies an exact answer), and else the exact rank over Q by
    ``fmpz_mat``. Never a float. Random primes matter: a matrix can be built
    whose rank drops modulo any fixed list of primes (issue 12: the Omega = 2
    matrices lose rank mod 2^31 - 1, where 2 has order 31), which sent the
    fixed-prime ``auto`` to the slow exact path; no input can anticipate a
    random prime (benchmarks/adversarial.py).

A matrix given as an ``nmod_mat`` or a :class:`~seprank.linalg.residues.ResidueMatrix`
lives over GF(p); every method except ``float`` returns its exact rank over GF(p).

The modular method has two engines (``engine=``): ``"flint"`` (python-flint
``nmod_mat``, any word-size prime) and ``"numba"`` (blocked LU with BLAS and
delayed reduction, primes below 2^26). Without ``engine``, matrices with at
least ``NUMBA_MIN_DIM`` rows and columns go to numba.

Choosing the engine
-------------------
``"auto"`` tries GF(p) first because a full rank mod p settles the question
without the rational elimination's growing integers and, with certificates,
without the rational RREF that the kernel needs. On the small Omega Gram
matrices of benchmarks/float_vs_exact.py (n up to about 1000) the two rank
calls cost about the same; the difference shows on larger and rank-deficient
matrices (benchmarks/rank_engines.py).
"""

from __future__ import annotations

import time

import flint
import numpy as np

from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.linalg import flint_engine as fe
from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.coerce import ExactMatrix, as_exact, as_float_array
from seprank.linalg.engines import engine_names, get_engine, method_names
from seprank.linalg.float_engine import float_rank
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, LOWER_BOUND
from seprank.linalg.modarith import random_prime, residues_int64
from seprank.linalg.residues import ResidueMatrix
from seprank.linalg.result import RankResult
from seprank.scalars.primes import DEFAULT_PRIME, require_prime

__all__ = ["rank", "METHODS", "ENGINES"]

#: The methods, from :data:`seprank.linalg.engines.METHOD_REGISTRY` (what each does,
#: answers and needs).
METHODS = method_names()
#: Back ends of the modular method (the registry of :mod:`seprank.linalg.engines`):
#: python-flint ``nmod_mat``, the numba blocked LU with delayed reduction
#: (:mod:`seprank.linalg.modular_lu`) and its GPU counterpart
#: (:mod:`seprank.linalg.cuda_engine`, numba-cuda).
ENGINES = engine_names()
#: ``auto`` picks the numba engine from this many rows and columns on (for primes
#: below its 2^26 limit). Set from benchmarks/rank_engines.py: below it, flint
#: is as fast and starts without compiling.
NUMBA_MIN_DIM = 600
#: ``auto`` tries the multimodular method on matrices that are not of full rank mod
#: two random primes from this min(m, n) on. Measured (2-core machine shared with
#: other jobs, so +-30%): on rank-deficient random products multimodular is 0.6-0.8x
#: of fmpz_mat.rank at n = 250-400 (0.1-0.2 s slower) and level at 600, 1.4-2.3x faster
#: from 800 (benchmarks/results/multimodular.csv); on Gram Hadamard powers 2x
#: faster from 400; on structured matrices with huge entries (the Omega matrices
#: of issue 12, 561 x 561 with 1025-bit entries) fmpz_mat.rank took 76-89 s where
#: multimodular took 0.5-0.8 s. A small loss on easy inputs buys a bounded worst case.
MULTIMODULAR_MIN_DIM = 200
#: ``auto`` tries this many random primes before a slower exact method.
AUTO_RANK_PRIMES = 2

#: How many primes the exact path tries for a lower-bound certificate before
#: giving up (a prime p loses rank only if it divides every r x r minor; after
#: the first, the primes are random, so each further try fails with tiny probability).
CERTIFICATE_PRIME_TRIES = 40
#: ``auto`` draws its primes at random from these ranges (flint engine: below
#: 2^31, so that the verifier's int64 path applies; numba: below 2^20, so that
#: k_max >= 8192 as with its default prime), and records them in ``primes``.
AUTO_FLINT_PRIME_RANGE = (2**30, 2**31)
AUTO_NUMBA_PRIME_RANGE = (2**19, 2**20)
#: the multimodular method's rank phase, below the numba engine's 2^26 limit
AUTO_MULTIMODULAR_PRIME_RANGE = (2**25, 2**26)


def _lower_for_exact(z: flint.fmpz_mat, r: int, first_prime: int):
    """A lower-bound certificate of size r, trying primes until one keeps the rank.

    The first prime is the caller's; the others are drawn at random from
    [2^30, 2^31) (:func:`~seprank.linalg.modarith.random_prime`), so a matrix
    whose minors are all divisible by a fixed list of primes (issue 12, item 4)
    cannot exhaust them: a prime loses the rank only if it divides the gcd of
    the r x r minors, a nonzero integer with few prime factors in that range.
    """
    p = first_prime
    tried = []
    for _ in range(CERTIFICATE_PRIME_TRIES):
        tried.append(p)
        rp, cert = fe.lower_certificate(fe.reduce_mod_p(z, p))
        if rp == r:
            return cert, tried
        p = random_prime(*AUTO_FLINT_PRIME_RANGE)
    raise ParameterError(  # pragma: no cover - needs astronomically many unlucky draws
        f"no prime among {tried} keeps the rank {r}; pass prime=... explicitly")


def _engine_for(engine: str | None, shape: tuple[int, int], p: int | None) -> str:
    if engine is not None:
        return get_engine(engine).name
    if min(shape) >= NUMBA_MIN_DIM and (p is None or p <= get_engine("numba").max_prime):
        return "numba"
    return "flint"


def _gf_p_rank(em, p: int, engine: str, certify: bool, numpy_data=None):
    """Rank over GF(p) of a matrix given mod p: (rank, certificate or None, method)."""
    m, n = em.shape
    if engine in ("numba", "cuda"):
        rank_profile_mod_p = get_engine(engine).rank_profile
        data = numpy_data
        if data is None:
            nm = em.nmat if em.nmat is not None else fe.reduce_mod_p(em.zmat, p)
            data = np.array(nm.tolist(), dtype=np.int64).reshape(m, n) if m else \
                np.zeros((m, n), dtype=np.int64)
        r, rows, cols = rank_profile_mod_p(data, p)
        cert = None
        if certify:
            lower = LowerBoundCertificate(prime=p, rows=tuple(rows), cols=tuple(cols))
            upper = None
            if r == min(m, n):
                upper = UpperBoundCertificate(bound=r, side="trivial", modulus=p)
            cert = RankCertificate(lower=lower, upper=upper)
        return r, cert, "numba-lu" if engine == "numba" else "cuda-lu"
    nm = em.nmat if em.nmat is not None else (
        ResidueMatrix(numpy_data, p).to_nmod_mat() if numpy_data is not None
        else fe.reduce_mod_p(em.zmat, p))
    if certify:
        r, lower = fe.lower_certificate(nm)
        return r, RankCertificate(lower=lower, upper=None), "flint-nmod"
    return fe.rank_mod_p(nm), None, "flint-nmod"


def _multimodular_result(mm, shape: tuple[int, int], certify: bool, start: float
                         ) -> RankResult:
    """The RankResult of a :func:`~seprank.linalg.multimodular.rank_multimodular` run."""
    cert = RankCertificate(lower=mm.lower, upper=mm.upper) if certify else None
    return RankResult(value=mm.rank, kind=EXACT if mm.exact else LOWER_BOUND,
                      method="multimodular", field="QQ", shape=shape,
                      certificate=cert, primes=mm.primes,
                      note=("lower bound mod p met by exact kernel vectors (p-adic "
                            "lifting, verified)" if mm.exact else
                            "kernel vectors not found within the digit budget: "
                            "certified lower bound only"),
                      seconds=time.perf_counter() - start)


def rank(matrix: object, method: str = "auto", *, prime: int | None = None,
         certify: bool = False, engine: str | None = None, tol: float | None = None,
         rtol: float | None = None) -> RankResult:
    """Rank of ``matrix``, with the kind of answer it is.

    Parameters
    ----------
    matrix
        list of rows of ints/Fractions, numpy integer array, python-flint
        ``fmpz_mat``/``fmpq_mat``/``nmod_mat``, sympy Matrix of rationals, or a
        ``ResidueMatrix`` (float arrays only with ``method="float"``).
    method
        one of ``METHODS``: ``"auto"``, ``"exact"``, ``"modular"``,
        ``"multimodular"``, ``"float"``, ``"cuda"`` (module docstring).
    prime
        the prime for ``"modular"`` (default 2^31 - 1 on flint, 1048573 on
        numba), the first one tried by ``"auto"`` (default: drawn at random,
        see the module docstring) and by ``"exact"`` certificates.
    certify
        attach a :class:`~seprank.linalg.certificates.RankCertificate`:
        a nonsingular minor mod p (lower bound) and, for exact answers, integer
        kernel vectors (upper bound). Check it with :func:`seprank.verify`.
    engine
        a name in ``ENGINES`` (:mod:`seprank.linalg.engines`) for the modular
        work (default: by size).
    tol, rtol
        absolute / relative singular-value tolerance for ``"float"`` only.

    Returns
    -------
    RankResult

    Raises
    ------
    InputError, NotPrimeError, ParameterError, MemoryLimitError
        with a one-line message naming the problem.

    Examples
    --------
    >>> r = rank([[1, 2], [2, 4]])
    >>> r.value, r.kind
    (1, 'exact')
    >>> rank([[1, 0], [0, 3]], method="modular", prime=3).kind
    'lower_bound'
    >>> rank([[1.0, 0.0], [0.0, 1e-20]], method="float").kind
    'float_estimate'
    """
    if method not in METHODS:
        raise ParameterError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if (tol is not None or rtol is not None) and method != "float":
        raise ParameterError("tol and rtol apply to method='float' only")
    if engine is not None and method not in ("modular", "auto"):
        raise ParameterError("engine applies to method='modular' or 'auto' only")
    if method == "cuda":
        method, engine = "modular", "cuda"
    start = time.perf_counter()

    if method == "float":
        if certify:
            raise ParameterError("a float estimate cannot be certified; use an exact method")
        if isinstance(matrix, ResidueMatrix):
            raise InputError("a matrix over GF(p) has no float rank; use method='modular'")
        arr = as_float_array(matrix)
        r, details = float_rank(arr, tol=tol, rtol=rtol)
        return RankResult(value=r, kind=FLOAT_ESTIMATE, method="numpy-svd", field="RR",
                          shape=arr.shape, details=details,
                          note="floating-point estimate: no guarantee",
                          seconds=time.perf_counter() - start)

    if prime is not None:
        prime = require_prime(prime)
    if isinstance(matrix, (ResidueMatrix, flint.nmod_mat)):
        return _rank_over_gf_p(matrix, prime, engine, certify, start)
    if method in ("modular", "auto"):
        return _rank_modular_or_auto(matrix, method, prime, engine, certify, start)
    em = as_exact(matrix)
    if method == "multimodular":
        from seprank.linalg.multimodular import rank_multimodular

        mm = rank_multimodular(em.zmat, use_numba=min(em.shape) >= NUMBA_MIN_DIM)
        return _multimodular_result(mm, em.shape, certify, start)
    return _rank_exact(em, prime if prime is not None else DEFAULT_PRIME, certify, start, [])


def _rank_over_gf_p(matrix, prime: int | None, engine: str | None, certify: bool,
                    start: float) -> RankResult:
    """Exact rank of a matrix given over GF(p) (``nmod_mat`` or ``ResidueMatrix``)."""
    if isinstance(matrix, ResidueMatrix):
        em = ExactMatrix(shape=matrix.shape, modulus=matrix.p)
        # float64 residues go to the numba engine as they are (validated when the
        # ResidueMatrix was built); every other dtype is reduced exactly first
        data = matrix.data if matrix.data.dtype == np.float64 else matrix.residues()
    else:
        em = as_exact(matrix)
        data = None
    p = em.modulus
    if prime is not None and prime != p:
        raise InputError(f"matrix is over GF({p}) but prime={prime} was given")
    try:
        require_prime(p)
    except NotPrimeError as exc:
        raise NotPrimeError(f"modulus {p} is not prime: rank over Z/nZ is not "
                            "defined here") from exc
    eng = _engine_for(engine, em.shape, p)
    r, cert, used = _gf_p_rank(em, p, eng, certify, data)
    if certify and cert.upper is None:
        nm = em.nmat if em.nmat is not None else matrix.to_nmod_mat()
        cert = RankCertificate(lower=cert.lower, upper=fe.kernel_certificate_mod_p(nm, r))
    return RankResult(value=r, kind=EXACT, method=used, field=f"GF({p})",
                      shape=em.shape, certificate=cert, primes=[p],
                      note="exact rank over GF(p) (the matrix was given over GF(p))",
                      seconds=time.perf_counter() - start)


def _auto_prime(eng: str) -> int:
    """A random prime for ``auto`` on engine ``eng`` (see AUTO_*_PRIME_RANGE)."""
    lo_hi = AUTO_NUMBA_PRIME_RANGE if eng in ("numba", "cuda") else AUTO_FLINT_PRIME_RANGE
    return random_prime(*lo_hi)


def _full_rank_result(rp: int, shape, cert, used: str, primes: list[int], certify: bool,
                      start: float) -> RankResult:
    """Label a rank mod p: exact when full (lower bound meets min(m, n)), else a lower bound."""
    m, n = shape
    full = rp == min(m, n)
    if certify:
        upper = UpperBoundCertificate(bound=min(m, n), side="trivial") if full else None
        cert = RankCertificate(lower=cert.lower, upper=upper)
    note = ("full rank mod p: the certified lower bound meets the trivial upper "
            "bound min(m, n), so the rank over Q is exact" if full else
            "rank mod p: a certified lower bound for the rank over Q")
    return RankResult(value=rp, kind=EXACT if full else LOWER_BOUND,
                      method=used, field="QQ", shape=(m, n), certificate=cert,
                      primes=primes, note=note, seconds=time.perf_counter() - start)


def _rank_modular_or_auto(matrix, method: str, prime: int | None, engine: str | None,
                          certify: bool, start: float) -> RankResult:
    """``modular``: rank mod one prime. ``auto``: see the module docstring.

    ``auto`` tries two primes drawn at random (the first one the caller's, if
    given), so no input can make the rank drop mod every prime it tries; a
    rank that stays below min(m, n) mod both is most likely the true rank, and
    is then proven by the multimodular method (kernel vectors) or, below its
    size limit or when it fails, by ``fmpz_mat.rank``.
    """
    numpy_int = isinstance(matrix, np.ndarray) and matrix.dtype.kind in "iu" \
        and matrix.ndim == 2
    em = None
    if numpy_int:
        shape = matrix.shape
    else:
        em = as_exact(matrix)
        shape = em.shape
    m, n = shape
    eng = _engine_for(engine, shape, prime)
    if prime is not None:
        p = prime
    elif method == "auto":
        p = _auto_prime(eng)
    else:
        p = get_engine(eng).default_prime
    tries = 1 if method == "modular" else AUTO_RANK_PRIMES
    primes: list[int] = []
    best = None
    for t in range(tries):
        if t:
            p = _auto_prime(eng)
        if numpy_int and eng in ("numba", "cuda"):
            data, emp = residues_int64(matrix, p), ExactMatrix(shape=shape)
        else:
            em = em or as_exact(matrix)
            data, emp = None, em
        rp, cert, used = _gf_p_rank(emp, p, eng, certify, data)
        primes.append(p)
        if best is None or rp > best[0]:
            best = (rp, cert, used)
        if rp == min(m, n):
            break
    rp, cert, used = best
    if rp == min(m, n) or method == "modular":
        return _full_rank_result(rp, shape, cert, used, primes, certify, start)
    em = em or as_exact(matrix)
    if min(m, n) >= MULTIMODULAR_MIN_DIM:
        from seprank.linalg.multimodular import rank_multimodular

        mm = rank_multimodular(em.zmat, use_numba=min(m, n) >= NUMBA_MIN_DIM,
                               first_prime=random_prime(*AUTO_MULTIMODULAR_PRIME_RANGE))
        if mm.exact:
            res = _multimodular_result(mm, (m, n), certify, start)
            res.details["primes_tried_mod_p"] = primes
            return res
    # the certificate's primes start at DEFAULT_PRIME (then random ones), so that
    # small documented examples print the same primes on every run
    res = _rank_exact(em, DEFAULT_PRIME, certify, start, [])
    res.details["primes_tried_mod_p"] = primes
    return res


def _rank_exact(em: ExactMatrix, first_prime: int, certify: bool, start: float,
                primes: list[int]) -> RankResult:
    """Exact rank over Q by ``fmpz_mat.rank``; certificates from a prime and the RREF."""
    if em.modulus is not None:  # pragma: no cover - handled by _rank_over_gf_p
        raise AssertionError("matrix over GF(p) reached the rational path")
    z = em.zmat
    m, n = em.shape
    r = fe.rank_exact(z)
    cert = None
    if certify:
        lower, primes = _lower_for_exact(z, r, first_prime if first_prime <= 2**62
                                         else DEFAULT_PRIME)
        cert = RankCertificate(lower=lower, upper=fe.kernel_certificate(z, r))
    return RankResult(value=r, kind=EXACT, method="flint-fmpz", field="QQ", shape=(m, n),
                      certificate=cert, primes=primes,
                      note="exact rank over Q (fraction-free elimination)",
                      seconds=time.perf_counter() - start)
