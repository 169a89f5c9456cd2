"""The verifier's own primes: a deterministic Miller-Rabin test and the CRT moduli.

Part of :mod:`seprank.linalg.verifier.verify`; shares no code with the engines (they test
primality in :mod:`seprank.scalars.primes`): the certificate's prime is tested
here, by Miller-Rabin with the first 13 prime bases, deterministic below 3.3e24
(Sorenson and Webster, Math. Comp. 86 (2017)), and by SymPy above that bound.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["isprime", "crt_primes"]


def _sympy():
    """SymPy, imported on first use (``import seprank`` stays fast)."""
    import sympy

    return sympy


#: Miller-Rabin with the first 13 prime bases is deterministic below this bound
#: (Sorenson and Webster, Math. Comp. 86 (2017), psi_13 = 3317044064679887385961981).
_MR_BOUND = 3317044064679887385961981
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def isprime(n: int) -> bool:
    """Whether the Python int ``n`` is prime, by the verifier's own test.

    Deterministic Miller-Rabin below :data:`_MR_BOUND` (every word-size prime);
    SymPy above it. Importing SymPy costs 0.4-0.7 s, more than checking the minor
    of a 1000 x 1000 certificate, so it is avoided on the common path.

    Parameters
    ----------
    n : int (a plain Python int: the verifier's snapshot)

    Returns
    -------
    bool; False for n < 2

    Examples
    --------
    >>> [isprime(n) for n in (1, 2, 561, 2**31 - 1, 2**61 - 1, 3215031751)]
    [False, True, False, True, True, False]
    """
    if n < 2:
        return False
    for q in _MR_BASES:
        if n % q == 0:
            return n == q
    if n >= _MR_BOUND:
        return bool(_sympy().isprime(n))
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=1)
def crt_primes() -> tuple[int, ...]:
    """The 4096 largest primes below 2^21, largest first: the moduli of the exact kernel
    product over Z (:mod:`seprank.linalg.verifier.kernel`), computed once.

    A sieve of Eratosthenes over the top 2^17 integers below 2^21 (they hold 8000-odd
    primes), crossed out by the primes up to sqrt(2^21) < 1449, each of those tested by
    :func:`isprime`: about 2 ms. (SymPy's ``prevprime``, used before, took 0.4 s plus
    0.6 s to import SymPy, so verifying a 24 x 24 certificate took 100 times as long as
    computing it.)

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> crt_primes()[:2]
    (2097143, 2097133)
    >>> len(crt_primes()), all(isprime(q) for q in crt_primes()[::97])
    (4096, True)
    """
    import numpy as np

    top, span = 2**21, 2**17
    low = top - span
    composite = np.zeros(span, dtype=bool)
    for q in range(2, 1449):                   # 1449^2 > 2^21
        if isprime(q):
            first = max(q * q, -(-low // q) * q)
            composite[first - low::q] = True
    found = low + np.flatnonzero(~composite)
    return tuple(int(q) for q in found[::-1][:4096])
