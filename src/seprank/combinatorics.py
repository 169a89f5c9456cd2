"""Counting and enumeration used throughout the separation-rank papers.

* multiset coefficient ((n, k)) = C(n + k - 1, k): the number of multisets of
  size k drawn from n kinds (levine2020 l.672, the notation of Thms 1-2);
* compositions of lambda into d non-negative parts, in the one fixed order that
  indexes the rows and columns of every Hadamard-power matrix in seprank;
* multinomial coefficients (levine2020 eq. (27));
* C(L) = (3^L - 1)/2, the number of head indices in the depth-L expansion
  (levine2020 Lemma 1, A.1 l.329-378).

Order of compositions
---------------------
``compositions(lam, d)`` lists the tuples (q_1, ..., q_d) with q_r >= 0 and
sum q_r = lam in *lexicographically decreasing* order: the first is
(lam, 0, ..., 0), the last is (0, ..., 0, lam). For lam = 2, d = 3::

    (2,0,0) (1,1,0) (1,0,1) (0,2,0) (0,1,1) (0,0,2)

Every matrix indexed by compositions (the Omega matrix V, the Gram Hadamard
power, the matrix A of levine2020 B.2) uses this order for rows and columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb, factorial

from seprank.errors import ParameterError

__all__ = [
    "check_d_lam",
    "multiset",
    "compositions",
    "iter_compositions",
    "composition_index",
    "multinomial",
    "num_head_indices",
]


def _check_nonneg_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import numpy as np

            if isinstance(value, np.integer):
                return _check_nonneg_int(name, int(value))
        except ImportError:  # pragma: no cover
            pass
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    if value < 0:
        raise ParameterError(f"{name} must be >= 0, got {value}")
    return value


def check_d_lam(d: object, lam: object) -> None:
    """Raise ParameterError unless d >= 1 and lam >= 0 are integers (compositions of lam
    into d parts, as indexed by every Omega and Hadamard-power matrix).

    Examples
    --------
    >>> check_d_lam(3, 0) is None
    True
    >>> try:
    ...     check_d_lam(0, 2)
    ... except ParameterError as exc:
    ...     print(exc)
    d must be >= 1, got 0
    """
    for name, v in (("d", d), ("lam", lam)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ParameterError(f"{name} must be an integer, got {v!r}")
    if d < 1:
        raise ParameterError(f"d must be >= 1, got {d}")
    if lam < 0:
        raise ParameterError(f"lam must be >= 0, got {lam}")


def multiset(n: int, k: int) -> int:
    """Multiset coefficient ((n, k)) = C(n + k - 1, k).

    The number of ways to choose k items from n kinds with repetition; also the
    number of compositions of k into n non-negative parts, and the dimension of
    homogeneous polynomials of degree k in n variables (levine2020 l.672).

    Conventions: ((n, 0)) = 1 for every n >= 0 (the empty multiset), and
    ((0, k)) = 0 for k > 0.

    >>> multiset(3, 2)
    6
    >>> multiset(10, 9)
    48620
    """
    n = _check_nonneg_int("n", n)
    k = _check_nonneg_int("k", k)
    if k == 0:
        return 1
    if n == 0:
        return 0
    return comb(n + k - 1, k)


def iter_compositions(lam: int, d: int) -> Iterator[tuple[int, ...]]:
    """Yield the compositions of ``lam`` into ``d`` non-negative parts.

    Order: lexicographically decreasing (see the module docstring). There are
    ``multiset(d, lam)`` of them. Iterative (no recursion, any d): the
    successor of q moves one unit out of the rightmost nonzero part q_i with
    i < d - 1 and puts everything to its right, plus that unit, into q_(i+1).

    Examples
    --------
    >>> list(iter_compositions(2, 2))
    [(2, 0), (1, 1), (0, 2)]
    >>> len(list(iter_compositions(3, 3))) == multiset(3, 3)
    True
    """
    lam = _check_nonneg_int("lam", lam)
    d = _check_nonneg_int("d", d)
    if d == 0:
        if lam == 0:
            yield ()
        return
    q = [0] * d
    q[0] = lam
    while True:
        yield tuple(q)
        # Invariant: sum(q) == lam, and q is the last composition yielded.
        i = d - 2
        while i >= 0 and q[i] == 0:
            i -= 1
        if i < 0:
            return
        tail = sum(q[i + 1:])
        q[i] -= 1
        for j in range(i + 1, d):
            q[j] = 0
        q[i + 1] = tail + 1


def compositions(lam: int, d: int) -> list[tuple[int, ...]]:
    """All compositions of ``lam`` into ``d`` parts, as a list (see ``iter_compositions``).

    >>> compositions(2, 3)
    [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1), (0, 0, 2)]
    """
    return list(iter_compositions(lam, d))


def composition_index(q: tuple[int, ...]) -> int:
    """Position of the composition ``q`` in ``compositions(sum(q), len(q))``.

    Computed by counting, without enumerating: the compositions that come
    before q are those with a larger first part, plus (recursively) those with
    the same first part that come before q's tail.

    >>> composition_index((1, 0, 1))
    2
    """
    q = tuple(_check_nonneg_int("part", x) for x in q)
    index = 0
    remaining = sum(q)
    d = len(q)
    for pos, part in enumerate(q[:-1]):
        parts_left = d - pos - 1
        # first parts larger than `part` each leave (remaining - first) to share
        for first in range(remaining, part, -1):
            index += multiset(parts_left, remaining - first)
        remaining -= part
    return index


def multinomial(ks: tuple[int, ...] | list[int]) -> int:
    """Multinomial coefficient (sum ks)! / prod(k_i!)  (levine2020 eq. (27)).

    >>> multinomial((2, 1, 1))
    12
    """
    ks = [_check_nonneg_int("k", k) for k in ks]
    out = factorial(sum(ks))
    for k in ks:
        out //= factorial(k)
    return out


def num_head_indices(L: int) -> int:
    """C(L) = (3^L - 1)/2, the length of the head-index tuples h in [H]^C(L).

    levine2020 Lemma 1 (A.1, l.329-378): a depth-L network's output is a sum
    over h in [H]^C(L). It satisfies C(1) = 1 and C(L+1) = 3 C(L) + 1.

    >>> [num_head_indices(L) for L in range(1, 5)]
    [1, 4, 13, 40]
    """
    L = _check_nonneg_int("L", L)
    return (3**L - 1) // 2
