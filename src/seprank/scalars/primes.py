"""Primes for modular rank computations.

``is_prime`` is a deterministic Miller-Rabin test: with the first twelve primes
as bases it is exact for every n < 3.3 * 10^24 (Sorenson & Webster, 2015,
"Strong pseudoprimes to twelve prime bases"), far beyond the word-size moduli
(< 2^63) that the modular engines accept; larger n are refused.
"""

from __future__ import annotations

from seprank.errors import NotPrimeError, ParameterError

__all__ = ["is_prime", "next_prime", "prev_prime", "require_prime", "DEFAULT_PRIME",
           "MAX_WORD_PRIME"]

_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
_DETERMINISTIC_LIMIT = 3_317_044_064_679_887_385_961_981

#: Largest modulus the flint ``nmod_mat`` engine accepts (one machine word).
MAX_WORD_PRIME = 2**63 - 25
#: Default prime of the modular engine: the Mersenne prime 2^31 - 1. Products of
#: two residues fit in a signed 64-bit integer, so the independent verifier can
#: recompute minors with numpy int64 arithmetic.
DEFAULT_PRIME = 2**31 - 1


def is_prime(n: int) -> bool:
    """Exact primality for 0 <= n < 3.3e24 (deterministic Miller-Rabin).

    >>> [p for p in range(20) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19]
    """
    if n < 2:
        return False
    if n >= _DETERMINISTIC_LIMIT:
        raise ParameterError(f"primality of {n} is not decided by this test (n >= 3.3e24)")
    for p in _BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _BASES:
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


def next_prime(n: int) -> int:
    """Smallest prime > n.

    Examples
    --------
    >>> next_prime(13), next_prime(0), next_prime(-5)
    (17, 2, 2)
    """
    n = max(n + 1, 2)
    while not is_prime(n):
        n += 1
    return n


def prev_prime(n: int) -> int:
    """Largest prime < n (n > 2).

    Examples
    --------
    >>> prev_prime(10), prev_prime(3), prev_prime(2**31)
    (7, 2, 2147483647)
    """
    if n <= 2:
        raise ParameterError("there is no prime below 2")
    n -= 1
    while not is_prime(n):
        n -= 1
    return n


def require_prime(p: object, *, max_value: int = MAX_WORD_PRIME) -> int:
    """Return ``p`` as an int if it is a prime <= ``max_value``, else raise NotPrimeError.

    Examples
    --------
    >>> require_prime(7)
    7
    >>> require_prime(9)
    Traceback (most recent call last):
    ...
    seprank.errors.NotPrimeError: 9 is not prime
    >>> require_prime(11, max_value=10)
    Traceback (most recent call last):
    ...
    seprank.errors.NotPrimeError: prime 11 is larger than the engine's limit 10
    """
    if isinstance(p, bool) or not isinstance(p, int):
        try:
            import numpy as np

            if isinstance(p, np.integer):
                p = int(p)
        except ImportError:  # pragma: no cover
            pass
    if isinstance(p, bool) or not isinstance(p, int):
        raise NotPrimeError(f"prime must be an integer, got {p!r}")
    if p > max_value:
        raise NotPrimeError(f"prime {p} is larger than the engine's limit {max_value}")
    if not is_prime(p):
        raise NotPrimeError(f"{p} is not prime")
    return p
