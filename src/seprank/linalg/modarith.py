"""Modular-arithmetic constants and helpers shared by the engines.

Constants: the engines' prime caps and default primes, and k_max, the
reduction interval of float64 delayed reduction (one place for what was
written in several modules; the old names in modular_lu are
re-exported from here).

Residues of a numpy array
-------------------------
:func:`residues_int64` turns an array of any numeric dtype into int64 residues
in [0, p), or refuses it with an :class:`~seprank.errors.InputError`; the same
rules apply at every size and on every engine path (issue 12, item 1):

* signed integers (int8..int64) and unsigned up to uint32 are widened to
  int64 first, so ``x % p`` cannot overflow the input dtype (numpy keeps the
  dtype of the array: ``np.int8(5) % 1048573`` does not fit in int8);
* uint64 is reduced in uint64 (``x % p`` with p < 2^63 is exact there) and
  only then narrowed: ``astype(np.int64)`` first would wrap values >= 2^63;
* floats must hold integers of absolute value below 2^53 (above it a float
  may already be a rounded value); NaN, infinity and fractional values are
  refused;
* object arrays are read entry by entry: Python or numpy integers only;
* anything else (bool, complex, strings) is refused.

Random primes
-------------
:func:`random_prime` draws a prime uniformly from a half-open range of
integers (rejection sampling with the deterministic Miller-Rabin test). A
prime the caller picks at random cannot be anticipated by the input: a fixed
matrix whose rank drops mod p for a given set of primes (its r x r minors
share those prime factors) fools a random prime from [2^(b-1), 2^b) with
probability at most (number of prime factors >= 2^(b-1) of a nonzero minor)
/ (number of primes in the range), e.g. below 10^-4 for a minor of 10^5 bits
and b = 31.
"""

from __future__ import annotations

import random

import numpy as np

from seprank.errors import InputError
from seprank.scalars.primes import DEFAULT_PRIME, MAX_WORD_PRIME, is_prime

__all__ = ["residues_int64", "check_residue_dtype", "random_prime", "k_max",
           "FLOAT_EXACT_LIMIT", "FLINT_DEFAULT_PRIME", "FLINT_MAX_PRIME", "NUMBA_MAX_PRIME",
           "NUMBA_DEFAULT_PRIME"]

#: Floats at or above this magnitude may be rounded integers: refused as residues.
FLOAT_EXACT_LIMIT = 2**53
#: python-flint ``nmod_mat``: any word-size prime; default 2^31 - 1 (products of
#: two residues fit in int64, which the verifier's fast path needs).
FLINT_MAX_PRIME = MAX_WORD_PRIME
FLINT_DEFAULT_PRIME = DEFAULT_PRIME
#: float64 delayed reduction (numba LU, CUDA): for p > 2^26 no inner dimension >= 1
#: keeps products exact (k_max(p) < 1).
NUMBA_MAX_PRIME = 2**26
#: the largest prime below 2^20: k_max = 8192, so products of inner dimension up to
#: 8192 stay exact in float64 without reduction.
NUMBA_DEFAULT_PRIME = 1048573


def k_max(p: int) -> int:
    """Largest inner dimension k with k (p-1)^2 + (p-1) <= 2^53 - 1.

    That is k_max(p) = floor((2^53 - p) / (p - 1)^2): the number of products
    of two residues in [0, p) that an entry in [0, p) can take, unreduced,
    while float64 arithmetic stays exact (see seprank.linalg.engines.modular_lu's
    docstring; Dumas, Giorgi, Pernet, ACM TOMS 35(3), 2008, section 3).

    Examples
    --------
    For p = 2 every product is 0 or 1: (2^53 - 2) / 1 of them fit.

    >>> k_max(2) == 2**53 - 2
    True

    For p = 1048573 = 2^20 - 3, (p - 1)^2 = 2^40 - 2^23 + 16 is a little below
    2^40, so the quotient is a little above 2^53 / 2^40 = 8192:

    >>> k_max(1048573)
    8192

    Near the largest accepted prime, (p - 1)^2 is about 2^52: two products.

    >>> k_max(67108859)
    2
    """
    return (FLOAT_EXACT_LIMIT - p) // ((p - 1) ** 2)

_SYS_RANDOM = random.SystemRandom()


def _float_check(data: np.ndarray, row0: int = 0) -> None:
    """Refuse floats that are not exact integers below 2^53 (row indices offset by row0)."""
    if (np.isfinite(data).all() and (data == np.floor(data)).all()
            and (np.abs(data) < np.float64(FLOAT_EXACT_LIMIT)).all()):
        return
    finite = np.isfinite(data)
    if not finite.all():
        i, j = map(int, np.argwhere(~finite)[0])
        raise InputError(f"residue entry ({i + row0}, {j}) is {data[i, j]}: NaN and infinity "
                         "are not residues")
    bad = data != np.floor(data)
    if bad.any():
        i, j = map(int, np.argwhere(bad)[0])
        raise InputError(f"residue entry ({i + row0}, {j}) is {float(data[i, j])!r}, "
                         "not an integer")
    i, j = map(int, np.argwhere(np.abs(data) >= FLOAT_EXACT_LIMIT)[0])
    raise InputError(f"residue entry ({i + row0}, {j}) is {float(data[i, j])!r}: floats of "
                     "magnitude >= 2^53 may be rounded; give integers")


def _float_residues(data: np.ndarray, p: int) -> np.ndarray:
    _float_check(data)
    return np.mod(data.astype(np.float64), float(p)).astype(np.int64)


def _object_residues(data: np.ndarray, p: int) -> np.ndarray:
    m, n = data.shape
    out = np.empty((m, n), dtype=np.int64)
    for i in range(m):
        for j in range(n):
            x = data[i, j]
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
                raise InputError(f"residue entry ({i}, {j}) is {x!r} "
                                 f"({type(x).__name__}), not an integer")
            out[i, j] = int(x) % p
    return out


def residues_int64(data: np.ndarray, p: int) -> np.ndarray:
    """The entries of the 2-D array ``data`` reduced mod ``p``, as int64 in [0, p).

    ``p`` must be a prime below 2^63 (not checked here). Raises InputError for
    data that are not exact integers (see the module docstring).

    Examples
    --------
    >>> residues_int64(np.array([[2**63 + 6, 0]], dtype=np.uint64), 7).tolist()
    [[0, 0]]
    >>> residues_int64(np.array([[-1, 127]], dtype=np.int8), 1048573).tolist()
    [[1048572, 127]]
    >>> residues_int64(np.array([[0.5, 1.0]]), 7)
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: residue entry (0, 0) is 0.5, not an integer
    """
    if not isinstance(data, np.ndarray) or data.ndim != 2:
        raise InputError("residues must be a 2-dimensional numpy array")
    kind = data.dtype.kind
    if kind == "u" and data.dtype.itemsize == 8:
        return (data % np.uint64(p)).astype(np.int64)
    if kind in "iu":
        return data.astype(np.int64, copy=False) % p
    if kind == "f":
        return _float_residues(data, p)
    if kind == "O":
        return _object_residues(data, p)
    raise InputError(f"residues of dtype {data.dtype} are not integers")


def check_residue_dtype(data: np.ndarray) -> None:
    """Refuse (InputError) an array whose entries cannot be exact integer residues.

    Cheap (a pass over the array only for floats and object arrays); what it
    accepts :func:`residues_int64` reduces exactly.

    Examples
    --------
    >>> check_residue_dtype(np.array([[1.0, 2.0]])) is None
    True
    >>> check_residue_dtype(np.array([[float("nan")]]))
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: residue entry (0, 0) is nan: NaN and infinity are not residues
    """
    kind = data.dtype.kind
    if kind in "iu":
        return
    if kind == "f":
        # row blocks keep the temporaries small for the builders' large outputs
        step = max(1, 2**22 // max(1, data.shape[1]))
        for r0 in range(0, data.shape[0], step):
            _float_check(data[r0:r0 + step], r0)
        return
    if kind == "O":
        _object_residues(data, 2)
        return
    raise InputError(f"residues of dtype {data.dtype} are not integers")


def random_prime(low: int, high: int, rng: random.Random | None = None) -> int:
    """A prime drawn uniformly at random from [low, high) (2 <= low < high <= 2^63).

    ``rng`` defaults to the operating system's entropy source, so that no
    input can be built to fool the prime (see the module docstring).

    Examples
    --------
    >>> p = random_prime(2**30, 2**31)
    >>> 2**30 <= p < 2**31 and is_prime(p)
    True
    >>> random_prime(8, 12)
    11
    """
    if not 2 <= low < high:
        raise ValueError(f"empty range [{low}, {high})")
    gen = rng or _SYS_RANDOM
    for _ in range(100 * max(1, (high - 1).bit_length())):
        x = gen.randrange(low, high)
        if is_prime(x):
            return x
    for x in range(low, high):  # tiny ranges with few primes
        if is_prime(x):
            return x
    raise ValueError(f"no prime in [{low}, {high})")
