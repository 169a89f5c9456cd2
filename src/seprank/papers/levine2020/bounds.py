"""The bounds of levine2020's Theorems 1-6 (and Lemma 2) as exact functions.

Source: ``levine2020_depth_to_width_self_attention.txt`` (line numbers below are
of that file; its formulas are quoted from their LaTeX source). Notation:

* ``L`` depth, ``d_x`` width, ``H`` heads per layer, ``d_a = d_x / H`` the
  attention dimension (sec 2.1 l.63: ``d_a = d_x/H``, so ``H`` divides ``d_x``);
* ``C(L) = (3^L - 1)/2`` (Lemma 1, l.329-378);
* ``((n, k)) = C(n + k - 1, k)`` the multiset coefficient (l.426, l.682).

How values are returned
-----------------------
* counts and bounds that are rational are Python ``int`` or ``Fraction``;
* a quantity that involves e is returned as an *e-monomial* ``(q, m)``, a pair
  of a positive ``Fraction`` q and an ``int`` m meaning ``q * e**m``; compare
  two of them with :func:`seprank.scalars.enclosures.compare_e_monomials`,
  which uses the certified rational enclosure of e
  (:func:`seprank.scalars.enclosures.e_bounds`) and so decides exactly or says
  it cannot;
* logarithms (the theorems are stated for ``log_3 sep``) are ``flint.arb``
  balls, rigorous enclosures; for exact comparisons use the functions named
  ``*_pow3*``, which give ``3**(the log expression)`` (or a power of it) in
  exact form.

Theorems 1 and 2 (sec 4, l.126-171) are stated with explicit constants
``a, b1, b2, c1, c2``; no O/Omega constant is left unspecified there, so the
functions below implement the printed expressions as they stand. Lemmas 3-4 and
B.2's counts: :mod:`seprank.papers.levine2020.lemma_bounds`.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

import flint

from seprank.combinatorics import multiset, num_head_indices
from seprank.errors import ParameterError
from seprank.scalars.enclosures import arb_of, int_at_least, log3

__all__ = [
    "check_heads",
    "heads_dim",
    "thm1_regime",
    "thm2_regime",
    "thm1_a",
    "thm1_lower_log3",
    "thm1_lower_pow3",
    "thm1_lower_is_positive",
    "thm1_upper_log3",
    "thm1_upper_pow3",
    "thm2_b1",
    "thm2_b2",
    "thm2_c1",
    "thm2_c2",
    "thm2_lower_log3",
    "thm2_lower_pow3_squared",
    "thm2_upper_log3",
    "thm2_upper_pow3",
    "thm2_upper_chain",
    "thm3_bound",
    "thm4_bound",
    "thm4_num_chi",
    "thm4_chi_bound",
    "lemma2_bound",
    "lemma2_term_counts",
    "thm5_log3_bound",
    "thm5_bound",
    "thm5_product_bound",
    "thm5_recursion_bound",
    "thm6_bound",
]


# ---------------------------------------------------------------------------
# parameter checks


def check_heads(d_x: int, H: int) -> tuple[int, int]:
    """``(d_x, H)`` as ints >= 1 with H dividing d_x (levine2020 l.63), else ParameterError.

    >>> check_heads(6, 3)
    (6, 3)
    """
    d_x = int_at_least("d_x", d_x, 1)
    H = int_at_least("H", H, 1)
    if d_x % H:
        raise ParameterError(
            f"H must divide d_x (d_a = d_x/H, levine2020 l.63), got d_x={d_x}, H={H}")
    return d_x, H


def heads_dim(d_x: int, H: int) -> int:
    """The attention dimension ``d_a = d_x / H`` (levine2020 sec 2.1, l.63).

    >>> heads_dim(12, 3)
    4
    """
    d_x, H = check_heads(d_x, H)
    return d_x // H


# ---------------------------------------------------------------------------
# Theorem 1 (sec 4.1, l.126-132; upper bound proof A.2 l.380-422)


def thm1_regime(L: int, d_x: int) -> bool:
    """Whether (L, d_x) lies in Theorem 1's regime ``L < log_3 d_x``, i.e. ``3^L < d_x``.

    levine2020 l.128 (Theorem 1 hypothesis) and l.124 (``d_x > 3^L``). The
    boundary ``d_x = 3^L`` belongs to neither theorem.

    Examples
    --------
    >>> thm1_regime(1, 4), thm1_regime(1, 3)   # 3 < 4 holds; 3 < 3 does not
    (True, False)
    """
    L = int_at_least("L", L, 1)
    d_x = int_at_least("d_x", d_x, 1)
    return 3**L < d_x


def thm2_regime(L: int, d_x: int) -> bool:
    """Whether (L, d_x) lies in Theorem 2's regime ``L > log_3 d_x``, i.e. ``3^L > d_x``.

    levine2020 l.152 (Theorem 2 hypothesis).

    Examples
    --------
    >>> thm2_regime(2, 8), thm2_regime(1, 3)   # 9 > 8 holds; 3 > 3 does not
    (True, False)
    """
    L = int_at_least("L", L, 1)
    d_x = int_at_least("d_x", d_x, 1)
    return 3**L > d_x


def thm1_a(L: int) -> flint.arb:
    """The constant ``a = -L + [2 - log_3 2]`` of Theorem 1 (levine2020 l.132).

    Examples
    --------
    >>> (thm1_a(2) + log3(2)).contains(0)   # a = -2 + 2 - log_3 2
    True
    """
    L = int_at_least("L", L, 1)
    return arb_of(2 - L) - log3(2)


def _thm1_args(L: int, d_x: int, H: int) -> tuple[int, int, int]:
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    if d_x - H <= 0:
        raise ParameterError(
            f"Theorem 1's lower bound needs log_3(d_x - H) with d_x - H > 0, got d_x = H = {H}")
    return L, d_x, H


def thm1_lower_log3(L: int, d_x: int, H: int) -> flint.arb:
    """Theorem 1's lower bound on ``log_3 sep``: ``3^{L-2} (log_3(d_x - H) + a)`` (eq. (7), l.130).

    Printed with ``a = -L + 2 - log_3 2`` (l.132). Raises ParameterError when
    ``d_x - H <= 0`` (the printed logarithm is undefined there).

    Examples
    --------
    >>> thm1_lower_log3(2, 10, 2).overlaps(log3(4))   # 3^0 (log_3 8 - log_3 2)
    True
    """
    L, d_x, H = _thm1_args(L, d_x, H)
    return arb_of(Fraction(3) ** (L - 2)) * (log3(d_x - H) + thm1_a(L))


def thm1_lower_pow3(L: int, d_x: int, H: int) -> tuple[Fraction, Fraction]:
    """Exact form of ``3^{Theorem 1 lower bound}`` as ``(base, exponent)``.

    Since ``log_3(d_x - H) - L + 2 - log_3 2 = log_3(d / lambda)`` with
    ``d = (d_x - H)/2`` and ``lambda = 3^{L-2}`` (the quantities of B.2,
    l.692), eq. (7) says ``sep >= (d / lambda)^lambda``. Returns
    ``(d / lambda, lambda)``; lambda is a Fraction (1/3 when L = 1).

    >>> thm1_lower_pow3(2, 10, 2)
    (Fraction(4, 1), Fraction(1, 1))
    """
    L, d_x, H = _thm1_args(L, d_x, H)
    lam = Fraction(3) ** (L - 2)
    d = Fraction(d_x - H, 2)
    return d / lam, lam


def thm1_lower_is_positive(L: int, d_x: int, H: int) -> bool:
    """Whether ``log_3(d_x - H) + a > 0`` (the remark after eq. (7), l.132), decided exactly.

    The inequality is ``(d_x - H) * 9 / (2 * 3^L) > 1``, i.e.
    ``9 (d_x - H) > 2 * 3^L``. For ``d_x = H`` the printed logarithm is undefined
    and the remark does not hold; this returns False there.

    Examples
    --------
    >>> thm1_lower_is_positive(1, 3, 1)   # 9 * 2 = 18 > 2 * 3 = 6
    True
    >>> thm1_lower_is_positive(2, 3, 1)   # 18 > 18 fails
    False
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    return 9 * (d_x - H) > 2 * 3**L


def thm1_upper_log3(L: int, d_x: int, H: int) -> flint.arb:
    """Theorem 1's upper bound on ``log_3 sep``: ``(3^L - 1)/2 log_3(d_x + H)`` (eq. (7), l.130).

    Examples
    --------
    >>> thm1_upper_log3(1, 2, 1).contains(1)   # C(1) log_3 3 = 1
    True
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    return arb_of(num_head_indices(L)) * log3(d_x + H)


def thm1_upper_pow3(L: int, d_x: int, H: int) -> int:
    """``3^{Theorem 1 upper bound} = (d_x + H)^{C(L)}`` exactly (eq. (7) and eq. (18), l.422).

    Equal to :func:`thm3_bound` with ``d_a = d_x / H`` because
    ``H (d_a + 1) = d_x + H``.

    Examples
    --------
    >>> thm1_upper_pow3(2, 4, 2)   # (4 + 2)^C(2) = 6^4
    1296
    >>> thm1_upper_pow3(2, 4, 2) == thm3_bound(2, 2, 2)
    True
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    return (d_x + H) ** num_head_indices(L)


# ---------------------------------------------------------------------------
# Theorem 2 (sec 4.2, l.150-156; upper bound proof A.3 eq. (20), l.469-476)


def thm2_b1(L: int, H: int) -> Fraction:
    """``b_1 = -L (H/2 + 1)`` (levine2020 l.156).

    Examples
    --------
    >>> thm2_b1(2, 2)   # -2 (2/2 + 1)
    Fraction(-4, 1)
    """
    L = int_at_least("L", L, 1)
    H = int_at_least("H", H, 1)
    return -L * (Fraction(H, 2) + 1)


def thm2_c1(L: int) -> int:
    """``c_1 = L`` (levine2020 l.156).

    Examples
    --------
    >>> thm2_c1(3)
    3
    """
    return int_at_least("L", L, 1)


def thm2_b2(d_x: int, H: int) -> flint.arb:
    """``b_2 = -d_x (1 + 1/2 log_3((d_x - H)/2))`` (levine2020 l.156).

    Raises ParameterError for ``d_x = H`` (logarithm of 0).

    Examples
    --------
    >>> thm2_b2(3, 1)   # (3 - 1)/2 = 1, so b_2 = -3 (1 + 0)
    -3.00000000000000
    """
    d_x, H = check_heads(d_x, H)
    if d_x == H:
        raise ParameterError(f"b_2 needs log_3((d_x - H)/2) with d_x > H, got d_x = H = {H}")
    return -arb_of(d_x) * (1 + log3(Fraction(d_x - H, 2)) / 2)


def thm2_c2(d_x: int) -> flint.arb:
    """``c_2 = -2 d_x log_3(d_x / (2 sqrt(2e))) + log_3 d_x`` (levine2020 l.156).

    Examples
    --------
    >>> thm2_c2(1).overlaps(log3(8) + 1 / flint.arb(3).log())   # c_2 = log_3(8e) at d_x = 1
    True
    """
    d_x = int_at_least("d_x", d_x, 1)
    e = flint.arb.const_e()
    return (-2 * arb_of(d_x) * (arb_of(d_x) / (2 * (2 * e).sqrt())).log() / flint.arb(3).log()
            + log3(d_x))


def thm2_lower_log3(L: int, d_x: int, H: int) -> flint.arb:
    """Theorem 2's lower bound on ``log_3 sep``: ``d_x L / 2 + b_1 + b_2`` (eq. (8), l.154).

    Examples
    --------
    >>> thm2_lower_log3(2, 3, 1)   # 3 + b_1 + b_2 = 3 - 3 - 3
    -3.00000000000000
    """
    L = int_at_least("L", L, 1)
    return arb_of(Fraction(d_x * L, 2)) + arb_of(thm2_b1(L, H)) + thm2_b2(d_x, H)


def thm2_lower_pow3_squared(L: int, d_x: int, H: int) -> Fraction:
    """``3^{2 * (Theorem 2 lower bound)}`` exactly.

    With ``d = (d_x - H)/2``: ``2 (d_x L/2 + b_1 + b_2)
    = L (d_x - H) - 2L - 2 d_x - d_x log_3 d``, so the value is
    ``3^{L (d_x - H) - 2L - 2 d_x} * d^{-d_x}`` (eq. (8) and l.156).

    Examples
    --------
    >>> thm2_lower_pow3_squared(2, 3, 1)   # 3^(2 * (-3))
    Fraction(1, 729)
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    if d_x == H:
        raise ParameterError(f"Theorem 2's lower bound is undefined for d_x = H = {H}")
    d = Fraction(d_x - H, 2)
    return Fraction(3) ** (L * (d_x - H) - 2 * L - 2 * d_x) / d**d_x


def thm2_upper_log3(L: int, d_x: int) -> flint.arb:
    """Theorem 2's upper bound on ``log_3 sep``: ``2 d_x L + c_1 + c_2`` (eq. (8), l.154).

    Examples
    --------
    >>> thm2_upper_log3(1, 1).overlaps(log3(216) + 1 / flint.arb(3).log())   # log_3(216 e)
    True
    """
    L = int_at_least("L", L, 1)
    return arb_of(2 * d_x * L) + thm2_c1(L) + thm2_c2(d_x)


def thm2_upper_pow3(L: int, d_x: int) -> tuple[Fraction, int]:
    """``3^{Theorem 2 upper bound}`` as the e-monomial ``(q, d_x)``, exactly.

    ``3^{2 d_x L + L} * d_x * (2 sqrt(2e) / d_x)^{2 d_x}
    = 3^{(2 d_x + 1) L} * d_x * 8^{d_x} / d_x^{2 d_x} * e^{d_x}``
    (eq. (8) with c_1, c_2 of l.156).

    Examples
    --------
    >>> thm2_upper_pow3(1, 1)   # 3^3 * 1 * 8 / 1, times e^1
    (Fraction(216, 1), 1)
    """
    L = int_at_least("L", L, 1)
    d_x = int_at_least("d_x", d_x, 1)
    q = Fraction(3 ** ((2 * d_x + 1) * L) * d_x * 8**d_x, d_x ** (2 * d_x))
    return q, d_x


def thm2_upper_chain(L: int, d_x: int) -> list[dict]:
    """The six lines of eq. (20) (A.3, l.469-476), each as ``3^{line}`` in exact e-monomial form.

    Returns a list of ``{"line": label, "value": (q, m)}``, value meaning
    ``q * e^m``. The printed chain claims each line is ``<=`` the next; the
    fourth step is marked there as valid only for ``3^L > d_x``:

    0. ``d_x (C+1) ((d_x, 2C)) (2C/d_x + 1)^{d_x}``          (Theorem 4's bound)
    1. ``d_x (C+1) (2e(d_x+2C)/d_x)^{d_x} (2C/d_x + 1)^{d_x}`` (Lemma 4)
    2. ``3^L d_x (2e)^{d_x} ((3^L - 1)/d_x + 1)^{2 d_x}``
    3. ``3^L d_x (2e)^{d_x} (2 (3^L - 1)/d_x)^{2 d_x}``       (only for 3^L > d_x)
    4. ``3^{L + log_3 d_x + d_x log_3 2e + 2 d_x log_3(2 * 3^L / d_x)}``
    5. ``3^{(2 d_x + 1) L + log_3 d_x + 2 d_x (log_3 2 sqrt(2e) - log_3 d_x)}``

    Examples
    --------
    >>> chain = thm2_upper_chain(1, 1)
    >>> chain[0]["value"]   # 1 * 2 * ((1, 2)) * (2/1 + 1)^1 = 6
    (Fraction(6, 1), 0)
    >>> chain[-1]["value"] == thm2_upper_pow3(1, 1)
    True
    """
    L = int_at_least("L", L, 1)
    d_x = int_at_least("d_x", d_x, 1)
    C = num_head_indices(L)
    t = 3**L
    r = Fraction(2 * C, d_x) + 1
    lines = [
        ("thm4 bound", (Fraction(d_x * (C + 1) * multiset(d_x, 2 * C)) * r**d_x, 0)),
        ("lemma 4", (d_x * (C + 1) * (2 * Fraction(d_x + 2 * C, d_x)) ** d_x * r**d_x, d_x)),
        ("C+1 <= 3^L", (t * d_x * Fraction(2) ** d_x * (Fraction(t - 1, d_x) + 1) ** (2 * d_x),
                        d_x)),
        ("only for 3^L > d_x", (t * d_x * Fraction(2) ** d_x * Fraction(2 * (t - 1), d_x)
                                ** (2 * d_x), d_x)),
        ("3^L - 1 <= 3^L", (t * d_x * Fraction(2) ** d_x * Fraction(2 * t, d_x) ** (2 * d_x),
                            d_x)),
        ("regrouped", (Fraction(3 ** ((2 * d_x + 1) * L) * d_x * 8**d_x, d_x ** (2 * d_x)),
                       d_x)),
    ]
    return [{"line": name, "value": value} for name, value in lines]


# ---------------------------------------------------------------------------
# Theorems 3 and 4 (A.2 l.384-388, A.3 l.428-432) and Lemma 2 (A.4 l.487-491)


def thm3_bound(L: int, H: int, d_a: int) -> int:
    """Theorem 3: ``sep <= (H (d_a + 1))^{C(L)}`` (levine2020 A.2, l.388).

    >>> thm3_bound(1, 2, 3)
    8
    """
    L = int_at_least("L", L, 1)
    H = int_at_least("H", H, 1)
    d_a = int_at_least("d_a", d_a, 1)
    return (H * (d_a + 1)) ** num_head_indices(L)


def thm4_num_chi(L: int, d_x: int) -> int:
    """The count ``d_x ((d_x, 2C(L)))`` of the functions chi in Theorem 4's proof (l.465-467).

    Examples
    --------
    >>> thm4_num_chi(1, 2)   # 2 * ((2, 2)) = 2 * 3
    6
    """
    L = int_at_least("L", L, 1)
    d_x = int_at_least("d_x", d_x, 1)
    return d_x * multiset(d_x, 2 * num_head_indices(L))


def thm4_chi_bound(L: int, d_x: int) -> Fraction:
    """Bound on the separation rank of each chi: ``(C+1) (2C/d_x + 1)^{d_x}`` (l.463, Lemma 3).

    Examples
    --------
    >>> thm4_chi_bound(1, 2)   # (1 + 1) (2/2 + 1)^2
    Fraction(8, 1)
    """
    L = int_at_least("L", L, 1)
    d_x = int_at_least("d_x", d_x, 1)
    C = num_head_indices(L)
    return (C + 1) * (Fraction(2 * C, d_x) + 1) ** d_x


def thm4_bound(L: int, d_x: int) -> Fraction:
    """Theorem 4: ``sep <= d_x (C(L)+1) ((d_x, 2C(L))) (2C(L)/d_x + 1)^{d_x}`` (eq. (19), l.432).

    A Fraction (the last factor need not be an integer).

    >>> thm4_bound(1, 2)   # 2 * 2 * ((2, 2)) * (2/2 + 1)^2 = 2 * 2 * 3 * 4
    Fraction(48, 1)
    """
    return thm4_num_chi(L, d_x) * thm4_chi_bound(L, d_x)


def lemma2_bound(N: int, d_x: int, H: int, K: int) -> int:
    """Lemma 2 as printed: one layer over inputs of separation rank <= K has
    ``sep <= N d_x^4 K^3 / H`` (levine2020 A.4, l.491).

    An integer because H divides d_x. See :func:`lemma2_term_counts` for the
    counts of eq. (21) that the proof (l.498) refers to.

    >>> lemma2_bound(2, 4, 2, 1)
    256
    """
    N = int_at_least("N", N, 1)
    d_x, H = check_heads(d_x, H)
    K = int_at_least("K", K, 1)
    return N * d_x**4 * K**3 // H


def lemma2_term_counts(N: int, d_x: int, H: int) -> dict[str, int]:
    """Two counts of the terms of eq. (21) (levine2020 l.496), the sum in Lemma 2's proof.

    * ``index_tuples``: the number of index tuples ``(h, a1, a2, j, a4, a5, a6)``,
      ``H (d_x/H) d_x N d_x (d_x/H) d_x = N d_x^5 / H``;
    * ``input_products``: the number of distinct products ``G_{a2 j} G_{j a4}
      G_{a6 i}`` (h, a1, a5 index weights only), ``N d_x^3``.

    Each input product has separation rank <= K^3, so ``N d_x^3 K^3`` bounds the
    layer's separation rank; the printed ``N d_x^4 K^3 / H`` lies between the two
    counts (``H <= d_x``), so it is valid, but it is neither count literally.

    >>> lemma2_term_counts(2, 4, 2)
    {'index_tuples': 1024, 'input_products': 128}
    """
    N = int_at_least("N", N, 1)
    d_x, H = check_heads(d_x, H)
    return {"index_tuples": N * d_x**5 // H, "input_products": N * d_x**3}


# ---------------------------------------------------------------------------
# Theorems 5 and 6 (A.4, residual connections, l.502-536)


def thm5_log3_bound(L: int, d_x: int, N: int, H: int) -> flint.arb:
    """Theorem 5 as printed: ``L log_3 L + (4 log_3 d_x + log_3 N - log_3 H) (3^L - 1)/2`` (l.506).

    Note: the proof (l.518) arrives at :func:`thm5_product_bound`, whose
    ``prod (l + 1) = (L+1)!`` exceeds the printed ``3^{L log_3 L} = L^L`` for
    L = 1, 2; and the recursion the proof describes gives the still larger
    :func:`thm5_recursion_bound`.

    Examples
    --------
    >>> thm5_log3_bound(1, 3, 1, 1).contains(4)   # 1 log_3 1 + 4 log_3 3 * C(1)
    True
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    N = int_at_least("N", N, 1)
    return (arb_of(L) * log3(L)
            + (4 * log3(d_x) + log3(N) - log3(H)) * arb_of(num_head_indices(L)))


def thm5_bound(L: int, d_x: int, N: int, H: int) -> int:
    """3^(Theorem 5's printed right-hand side) = L^L (N d_x^4 / H)^C(L), exactly (A.4 l.506).

    An integer (H divides d_x); its log_3 is :func:`thm5_log3_bound`.

    Examples
    --------
    >>> thm5_bound(1, 2, 2, 1), thm5_bound(2, 1, 2, 1)   # 1 * 32^1, 4 * 2^4
    (32, 64)
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    N = int_at_least("N", N, 1)
    return L ** L * (N * d_x ** 4 // H) ** num_head_indices(L)


def thm5_product_bound(L: int, d_x: int, N: int, H: int) -> int:
    """The bound the proof of Theorem 5 ends with: ``prod_{l=1}^L (l+1) (N d_x^4 / H)^{3^{l-1}}``.

    levine2020 A.4, l.518 (an integer: H divides d_x).

    Examples
    --------
    >>> thm5_product_bound(1, 2, 1, 2)   # (1 + 1) (1 * 2^4 / 2)^1
    16
    >>> thm5_product_bound(2, 1, 1, 1)   # (L + 1)! = 3! when N d_x^4 / H = 1
    6
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    N = int_at_least("N", N, 1)
    k = N * d_x**4 // H
    return prod((l + 1) * k ** (3 ** (l - 1)) for l in range(1, L + 1))


def thm5_recursion_bound(L: int, d_x: int, N: int, H: int) -> int:
    """The bound the recursion in Theorem 5's proof gives, unrolled exactly (l.512-516).

    With ``K_1 = N d_x^4 / H`` (Lemma 2 with K = 1, the stopping condition) and
    ``S_1 = K_1``, ``S_l = K_1 (l S_{l-1})^3`` (Lemma 2 applied to an input of
    separation rank <= l S_{l-1}), the proof bounds ``sep <= (L + 1) S_L``.
    The power of K_1 is ``(3^L - 1)/2`` as in the printed product
    (:func:`thm5_product_bound`), but the integer factor is
    ``(L+1) prod_{l=2}^{L} l^{3^{L-l+1}}``, larger than ``(L+1)!`` for L >= 2.

    >>> thm5_recursion_bound(2, 1, 1, 1)   # 3 * 1 * (2 * 1)^3
    24
    """
    L = int_at_least("L", L, 1)
    d_x, H = check_heads(d_x, H)
    N = int_at_least("N", N, 1)
    k = N * d_x**4 // H
    s = k
    for l in range(2, L + 1):
        s = k * (l * s) ** 3
    return (L + 1) * s


def thm6_bound(L: int, d_x: int) -> Fraction:
    """Theorem 6: ``d_x (C+1)^2 ((d_x, 2C)) (2C/d_x + 1)^{d_x}`` (A.4, l.528).

    Examples
    --------
    >>> thm6_bound(1, 2) == thm4_bound(1, 2) * 2   # C(1) + 1 = 2
    True
    """
    L = int_at_least("L", L, 1)
    return thm4_bound(L, d_x) * (num_head_indices(L) + 1)
