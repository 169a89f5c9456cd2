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
    an exact answer, the cheap way first: the rank mod a large prime, which is
    exact when it is full; otherwise, from ``MULTIMODULAR_MIN_DIM`` rows and
    columns, the multimodular method (kept only when it certifies an exact
    answer), and else the exact rank over Q by ``fmpz_mat``. Never a float.

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
from seprank.linalg.float_engine import float_rank
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, LOWER_BOUND
from seprank.linalg.residues import ResidueMatrix
from seprank.linalg.result import RankResult
from seprank.scalars.primes import DEFAULT_PRIME, prev_prime, require_prime

__all__ = ["rank", "METHODS", "ENGINES"]

METHODS = ("auto", "exact", "modular", "multimodular", "float", "cuda")
#: Back ends of the modular method: python-flint ``nmod_mat``, the numba
#: blocked LU with delayed reduction (:mod:`seprank.linalg.modular_lu`) and its
#: GPU counterpart (:mod:`seprank.linalg.cuda_engine`, numba-cuda).
ENGINES = ("flint", "numba", "cuda")
#: ``auto`` picks the numba engine from this many rows and columns on (for primes
#: below its 2^26 limit). Set from benchmarks/rank_engines.py: below it, flint
#: is as fast and starts without compiling.
NUMBA_MIN_DIM = 600
#: ``auto`` tries the multimodular method on matrices that are not of full rank mod
#: p from this min(m, n) on (benchmarks/results/multimodular.csv: level with
#: fmpz_mat.rank at 400-600 on random products, 1.4x faster at 800, 2.3x at 1600).
MULTIMODULAR_MIN_DIM = 800
#: Default prime of the numba engine (largest prime below 2^20: products of
#: inner dimension up to 8192 stay exact in float64).
NUMBA_DEFAULT_PRIME = 1048573

#: How many primes the exact path tries for a lower-bound certificate before
#: giving up (a prime p loses rank only if it divides every r x r minor).
CERTIFICATE_PRIME_TRIES = 8


def _lower_for_exact(z: flint.fmpz_mat, r: int, first_prime: int):
    """A lower-bound certificate of size r, trying primes until one keeps the rank."""
    p = first_prime
    tried = []
    for _ in range(CERTIFICATE_PRIME_TRIES):
        tried.append(p)
        rp, cert = fe.lower_certificate(fe.reduce_mod_p(z, p))
        if rp == r:
            return cert, tried
        p = prev_prime(p)
    raise ParameterError(  # pragma: no cover - needs a matrix with huge minors' gcd
        f"no prime among {tried} keeps the rank {r}; pass prime=... explicitly")


def _engine_for(engine: str | None, shape: tuple[int, int], p: int | None) -> str:
    if engine is not None:
        if engine not in ENGINES:
            raise ParameterError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
        return engine
    from seprank.linalg.modular_lu import MAX_PRIME

    if min(shape) >= NUMBA_MIN_DIM and (p is None or p <= MAX_PRIME):
        return "numba"
    return "flint"


def _gf_p_rank(em, p: int, engine: str, certify: bool, numpy_data=None):
    """Rank over GF(p) of a matrix given mod p: (rank, certificate or None, method)."""
    m, n = em.shape
    if engine in ("numba", "cuda"):
        if engine == "numba":
            from seprank.linalg.modular_lu import rank_profile_mod_p
        else:
            from seprank.linalg.cuda_engine import rank_profile_mod_p_cuda as rank_profile_mod_p

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
        ``"auto"``, ``"exact"``, ``"modular"`` or ``"float"`` (module docstring).
    prime
        the prime for ``"modular"`` (and the first one tried by ``"auto"`` and by
        certificates); default 2^31 - 1 (flint) or 1048573 (numba).
    certify
        attach a :class:`~seprank.linalg.certificates.RankCertificate`:
        a nonsingular minor mod p (lower bound) and, for exact answers, integer
        kernel vectors (upper bound). Check it with :func:`seprank.verify`.
    engine
        ``"flint"`` or ``"numba"`` for the modular work (default: by size).
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

    if isinstance(matrix, ResidueMatrix) or isinstance(matrix, flint.nmod_mat):
        if isinstance(matrix, ResidueMatrix):
            em = ExactMatrix(shape=matrix.shape, modulus=matrix.p)
            data = matrix.data
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

    numpy_int = isinstance(matrix, np.ndarray) and matrix.dtype.kind in "iu" \
        and matrix.ndim == 2
    if method in ("modular", "auto"):
        shape = matrix.shape if numpy_int else None
        em = None
        if shape is None:
            em = as_exact(matrix)
            shape = em.shape
        eng = _engine_for(engine, shape, prime)
        p = prime if prime is not None else (
            NUMBA_DEFAULT_PRIME if eng in ("numba", "cuda") else DEFAULT_PRIME)
        if numpy_int and eng in ("numba", "cuda"):
            data, em = matrix % p, ExactMatrix(shape=shape)
        else:
            em = em or as_exact(matrix)
            data = None
        m, n = shape
        rp, cert, used = _gf_p_rank(em, p, eng, certify, data)
        full = rp == min(m, n)
        if full or method == "modular":
            if certify:
                upper = UpperBoundCertificate(bound=min(m, n), side="trivial") if full else None
                cert = RankCertificate(lower=cert.lower, upper=upper)
            note = ("full rank mod p: the certified lower bound meets the trivial upper "
                    "bound min(m, n), so the rank over Q is exact" if full else
                    "rank mod p: a certified lower bound for the rank over Q")
            return RankResult(value=rp, kind=EXACT if full else LOWER_BOUND,
                              method=used, field="QQ", shape=(m, n), certificate=cert,
                              primes=[p], note=note, seconds=time.perf_counter() - start)
        if em.zmat is None:
            em = as_exact(matrix)
        if method == "auto" and min(m, n) >= MULTIMODULAR_MIN_DIM:
            from seprank.linalg.multimodular import rank_multimodular

            mm = rank_multimodular(em.zmat, use_numba=min(m, n) >= NUMBA_MIN_DIM)
            if mm.exact:
                return _multimodular_result(mm, (m, n), certify, start)
    else:
        em = as_exact(matrix)
        p = prime if prime is not None else DEFAULT_PRIME
    if method == "multimodular":
        from seprank.linalg.multimodular import rank_multimodular

        mm = rank_multimodular(em.zmat, use_numba=min(em.shape) >= NUMBA_MIN_DIM)
        return _multimodular_result(mm, em.shape, certify, start)
    if em.modulus is not None:  # pragma: no cover - handled above
        raise AssertionError("matrix over GF(p) reached the rational path")

    # exact over Q (method "exact", or "auto" when the prime did not give full rank)
    z = em.zmat
    m, n = em.shape
    r = fe.rank_exact(z)
    cert, primes = None, []
    if certify:
        lower, primes = _lower_for_exact(z, r, p if p <= 2**62 else DEFAULT_PRIME)
        cert = RankCertificate(lower=lower, upper=fe.kernel_certificate(z, r))
    return RankResult(value=r, kind=EXACT, method="flint-fmpz", field="QQ", shape=(m, n),
                      certificate=cert, primes=primes,
                      note="exact rank over Q (fraction-free elimination)",
                      seconds=time.perf_counter() - start)
