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
``"float"``
    numpy SVD; kind ``float_estimate``, with the tolerance and singular-value gap.
``"auto"`` (default)
    an exact answer, the cheap way first: the rank mod a large prime, which is
    exact when it is full; otherwise the exact rank over Q. Never a float.

A matrix given as an ``nmod_mat`` lives over GF(p); every method except
``float`` returns its exact rank over GF(p).

Choosing the engine
-------------------
``"auto"`` tries GF(p) first because a full rank mod p settles the question at
a fraction of the cost of exact rational elimination (on a 300 x 300 Omega
Gram matrix, ``nmod_mat.rank`` is about 100x faster than ``fmpz_mat.rank``);
the foundation issue's measurements are in ``benchmarks/float_vs_exact.py``.
"""

from __future__ import annotations

import time

import flint

from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.linalg import flint_engine as fe
from seprank.linalg.certificates import RankCertificate, UpperBoundCertificate
from seprank.linalg.coerce import as_exact, as_float_array
from seprank.linalg.float_engine import float_rank
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, LOWER_BOUND
from seprank.linalg.result import RankResult
from seprank.scalars.primes import DEFAULT_PRIME, prev_prime, require_prime

__all__ = ["rank", "METHODS"]

METHODS = ("auto", "exact", "modular", "float")

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


def rank(matrix: object, method: str = "auto", *, prime: int | None = None,
         certify: bool = False, tol: float | None = None,
         rtol: float | None = None) -> RankResult:
    """Rank of ``matrix``, with the kind of answer it is.

    Parameters
    ----------
    matrix
        list of rows of ints/Fractions, numpy integer array, python-flint
        ``fmpz_mat``/``fmpq_mat``/``nmod_mat``, or sympy Matrix of rationals
        (float arrays only with ``method="float"``).
    method
        ``"auto"``, ``"exact"``, ``"modular"`` or ``"float"`` (module docstring).
    prime
        the prime for ``"modular"`` (and the first one tried by ``"auto"`` and by
        certificates); default 2^31 - 1.
    certify
        attach a :class:`~seprank.linalg.certificates.RankCertificate`:
        a nonsingular minor mod p (lower bound) and, for exact answers, integer
        kernel vectors (upper bound). Check it with :func:`seprank.verify`.
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
        if method == "cuda":
            raise ParameterError("method 'cuda' is not available in this build; "
                                 f"choose one of {', '.join(METHODS)}")
        raise ParameterError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if (tol is not None or rtol is not None) and method != "float":
        raise ParameterError("tol and rtol apply to method='float' only")
    start = time.perf_counter()

    if method == "float":
        if certify:
            raise ParameterError("a float estimate cannot be certified; use an exact method")
        arr = as_float_array(matrix)
        r, details = float_rank(arr, tol=tol, rtol=rtol)
        return RankResult(value=r, kind=FLOAT_ESTIMATE, method="numpy-svd", field="RR",
                          shape=arr.shape, details=details,
                          note="floating-point estimate: no guarantee",
                          seconds=time.perf_counter() - start)

    if prime is not None:
        prime = require_prime(prime)
    em = as_exact(matrix)
    m, n = em.shape

    if em.modulus is not None:  # a matrix over GF(p)
        if prime is not None and prime != em.modulus:
            raise InputError(f"matrix is over GF({em.modulus}) but prime={prime} was given")
        try:
            require_prime(em.modulus)
        except NotPrimeError as exc:
            raise NotPrimeError(f"nmod_mat modulus {em.modulus} is not prime: rank over "
                                "Z/nZ is not defined here") from exc
        cert = None
        if certify:
            r, lower = fe.lower_certificate(em.nmat)
            cert = RankCertificate(lower=lower, upper=fe.kernel_certificate_mod_p(em.nmat, r))
        else:
            r = fe.rank_mod_p(em.nmat)
        return RankResult(value=r, kind=EXACT, method="flint-nmod", field=em.field,
                          shape=(m, n), certificate=cert, primes=[em.modulus],
                          note="exact rank over GF(p) (the matrix was given over GF(p))",
                          seconds=time.perf_counter() - start)

    z = em.zmat
    p = prime if prime is not None else DEFAULT_PRIME

    if method in ("modular", "auto"):
        nm = fe.reduce_mod_p(z, p)
        if certify:
            rp, lower = fe.lower_certificate(nm)
        else:
            rp, lower = fe.rank_mod_p(nm), None
        full = rp == min(m, n)
        if full or method == "modular":
            cert = None
            if certify:
                upper = UpperBoundCertificate(bound=min(m, n), side="trivial") if full else None
                cert = RankCertificate(lower=lower, upper=upper)
            note = ("full rank mod p: the certified lower bound meets the trivial upper "
                    "bound min(m, n), so the rank over Q is exact" if full else
                    "rank mod p: a certified lower bound for the rank over Q")
            return RankResult(value=rp, kind=EXACT if full else LOWER_BOUND,
                              method="flint-nmod", field="QQ", shape=(m, n), certificate=cert,
                              primes=[p], note=note, seconds=time.perf_counter() - start)

    # exact over Q (method "exact", or "auto" when the prime did not give full rank)
    r = fe.rank_exact(z)
    cert, primes = None, []
    if certify:
        lower, primes = _lower_for_exact(z, r, p)
        cert = RankCertificate(lower=lower, upper=fe.kernel_certificate(z, r))
    return RankResult(value=r, kind=EXACT, method="flint-fmpz", field="QQ", shape=(m, n),
                      certificate=cert, primes=primes,
                      note="exact rank over Q (fraction-free elimination)",
                      seconds=time.perf_counter() - start)
