"""The bounds of wies2021 (vocabulary bottleneck paper) as exact functions.

Source: ``wies2021_vocabulary_bottleneck.txt`` (line numbers of that file).
Why: the checks of proofs/wies2021 compare exact separation ranks with these bounds, and
the core reports Theorems 3-4 beside an embedded network's rank (:mod:`.hooks`).
In that text extraction the multiset coefficient is typeset like a binomial:
A.1 (l.351) declares ``\binom{n}{k}`` to mean the multiset coefficient
``((n, k)) = C(n + k - 1, k)``, and the statements of Theorems 3 and 4
(l.381, l.455) use that notation, while their proofs write it with the double
parentheses (l.441, l.515). Here ``((n, k))`` is always
:func:`seprank.combinatorics.multiset`.

Notation: ``L`` depth, ``r`` embedding rank, ``r_e`` rank of the positional
embedding, ``H`` heads, ``d_x`` width, ``C(L) = (3^L - 1)/2`` so that
``2 C(L) + 1 = 3^L``.
"""

from __future__ import annotations

from fractions import Fraction

from seprank.combinatorics import multiset, num_head_indices
from seprank.errors import ParameterError
from seprank.scalars.enclosures import (
    compare_e_monomials,
    int_at_least,
    multiset_e_bound,
    multiset_e_bound_holds,
)

__all__ = [
    "thm3_bound",
    "thm4_bound",
    "thm3_proof_bound",
    "thm3_bound_capped",
    "cor1_lower_bound",
    "lemma3_holds",
    "lemma4_printed_holds",
    "lemma4_proof_lower",
    "exceeds_eq9",
]


def thm3_bound(L: int, r: int, r_e: int) -> int:
    """Theorem 3 (vocabulary embedding): ``sep <= ((r + r_e, 3^L)) ((4, 3^L)) (3^L + 1)^{r + r_e}``.

    wies2021 A.2, eq. (9), l.381. ``r >= 1``; ``r_e >= 0`` (``r_e = 0``: no
    positional embedding).

    >>> thm3_bound(1, 1, 0)   # ((1, 3)) ((4, 3)) 4^1 = 1 * 20 * 4
    80
    """
    L = int_at_least("L", L, 1)
    r = int_at_least("r", r, 1)
    r_e = int_at_least("r_e", r_e, 0)
    t = 3**L
    return multiset(r + r_e, t) * multiset(4, t) * (t + 1) ** (r + r_e)


def thm4_bound(L: int, r: int, r_e: int) -> int:
    """Theorem 4 (convolution embedding): the same expression as Theorem 3 (eq. (11), l.455).

    Examples
    --------
    >>> thm4_bound(1, 1, 0) == thm3_bound(1, 1, 0)
    True
    """
    return thm3_bound(L, r, r_e)


def thm3_proof_bound(L: int, r: int, r_e: int) -> Fraction:
    """The count the proofs of Theorems 3 and 4 end with (l.441 and l.515).

    ``((r + r_e, 2C+1)) ((4, 2C+1)) ((2C+1)/r + 1)^r ((2C+1)/r_e + 1)^{r_e}``
    with ``2C + 1 = 3^L``. For ``r_e = 0`` the last factor is the empty product
    over ``sigma in [r_e]`` (l.441), i.e. 1. It is at most :func:`thm3_bound`,
    because ``3^L / r + 1 <= 3^L + 1`` for ``r >= 1``.

    Examples
    --------
    >>> thm3_proof_bound(1, 1, 0)   # ((1, 3)) ((4, 3)) (3/1 + 1)^1 = 1 * 20 * 4
    Fraction(80, 1)
    >>> thm3_proof_bound(1, 2, 1)   # 10 * 20 * (5/2)^2 * 4
    Fraction(5000, 1)
    >>> thm3_proof_bound(1, 2, 1) <= thm3_bound(1, 2, 1)
    True
    """
    L = int_at_least("L", L, 1)
    r = int_at_least("r", r, 1)
    r_e = int_at_least("r_e", r_e, 0)
    t = 2 * num_head_indices(L) + 1
    out = Fraction(multiset(r + r_e, t) * multiset(4, t)) * (Fraction(t, r) + 1) ** r
    if r_e:
        out *= (Fraction(t, r_e) + 1) ** r_e
    return out


def thm3_bound_capped(L: int, r: int, r_e: int, d_x: int) -> int:
    """:func:`thm3_bound` with ``r`` replaced by ``min(r, d_x)``.

    The main text's Theorem 1 (eq. (6), l.133) is stated with
    ``min{r, d_x}``: an embedding of rank r into ``R^{d_x}`` has rank at most
    ``d_x``, so the factorization used in eq. (10) (l.385) exists with inner
    dimension ``min(r, d_x)``.

    Examples
    --------
    >>> thm3_bound_capped(1, 5, 0, 1) == thm3_bound(1, 1, 0)   # r is capped at d_x = 1
    True
    """
    d_x = int_at_least("d_x", d_x, 1)
    r = int_at_least("r", r, 1)
    return thm3_bound(L, min(r, d_x), r_e)


def cor1_lower_bound(L: int, r: int, H: int) -> int:
    """Corollary 1's lower bound ``sep >= (((r - H)/2, 3^{L-2}))`` (eq. (14), l.564).

    Needs ``L >= 2`` and ``(r - H)/2`` an integer ``>= 1``.

    Examples
    --------
    >>> cor1_lower_bound(3, 5, 1)   # ((2, 3)) = C(4, 3)
    4
    """
    L = int_at_least("L", L, 2)
    r = int_at_least("r", r, 1)
    H = int_at_least("H", H, 1)
    if (r - H) % 2 or r - H < 2:
        raise ParameterError(f"(r - H)/2 must be an integer >= 1, got r={r}, H={H}")
    return multiset((r - H) // 2, 3 ** (L - 2))


def lemma3_holds(n: int, k: int) -> bool | None:
    """wies2021 Lemma 3 (l.367): ``((n, k)) <= (2e(n+k)/n)^n``; the same as levine2020 Lemma 4.

    Both are :func:`seprank.scalars.enclosures.multiset_e_bound_holds`.

    Examples
    --------
    >>> lemma3_holds(1, 1)   # ((1, 1)) = 1 <= 4e
    True
    """
    return multiset_e_bound_holds(n, k)


def lemma4_printed_holds(n: int, k: int, bounds: tuple[Fraction, Fraction] | None = None
                         ) -> bool | None:
    """Decide wies2021 Lemma 4 *as printed* (l.568): ``((n, k)) >= (2e(n+k)/n)^n``.

    The printed direction is the reverse of Lemma 3 (l.367); this decides it
    exactly with the certified enclosure of e (None: enclosure too coarse).

    Examples
    --------
    >>> lemma4_printed_holds(1, 1)   # ((1, 1)) = 1 >= 4e fails
    False
    """
    n = int_at_least("n", n, 1)
    k = int_at_least("k", k, 0)
    return compare_e_monomials(multiset_e_bound(n, k), (Fraction(multiset(n, k)), 0), bounds)


def lemma4_proof_lower(n: int, k: int) -> Fraction:
    """What the proof of wies2021 Lemma 4 derives (l.570): ``((n, k)) >= ((n+k-1)/(n-1))^{n-1}``.

    Returns the right-hand side; needs ``n >= 2``.

    Examples
    --------
    >>> lemma4_proof_lower(3, 2)   # (4/2)^2, and indeed ((3, 2)) = 6 >= 4
    Fraction(4, 1)
    """
    n = int_at_least("n", n, 2)
    k = int_at_least("k", k, 0)
    return Fraction(n + k - 1, n - 1) ** (n - 1)


def exceeds_eq9(sep: int, L: int, d_x: int) -> bool:
    """Whether sep > eq. (9)/(11) with r = d_x, r_e = 0 (A.2 l.381, A.3 l.455), exactly.

    The predicate :func:`seprank.network_theory.one_hot.first_exceeding` takes for the
    one-hot family (its rank-d_x convolution embedding has r = d_x and no positional
    part).

    >>> exceeds_eq9(80, 1, 1), exceeds_eq9(81, 1, 1)      # eq. (9) at (1, 1, 0) is 80
    (False, True)
    """
    return sep > thm3_bound(L, d_x, 0)
