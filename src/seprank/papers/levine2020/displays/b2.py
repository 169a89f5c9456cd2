"""B.2 of levine2020 (l.684-718): the displays of the lower-bound construction.

Source: ``levine2020_depth_to_width_self_attention.txt``, B.2 (eq. (25)-(27),
l.692-718). Why: the lower bounds of Theorems 1 and 2 rest on this construction;
each function is one side of a display, so that the checks
(``proofs/levine2020/levine_residual_displays.py``, ``lower_bound_displays``) can
compare both sides exactly.

The multinomial expansion eq. (26)-(27) (:func:`hadamard_power_terms`,
:func:`multinomial_expansion_is_identity`), the normalized Omega rows
(:func:`omega_power_squares`), and the Leibniz form of det A
(:func:`omega_det_and_leibniz`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations

import numpy as np

from seprank.combinatorics import compositions, multinomial
from seprank.papers.levine2020.chains import obj_array

__all__ = [
    "hadamard_power_terms",
    "multinomial_expansion_is_identity",
    "omega_power_squares",
    "omega_det_and_leibniz",
]


def hadamard_power_terms(V, lam: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Eq. (25)-(27): ((V V^T)^(Hadamard lam), sum_k multinomial(k) a^(k) b^(k)T, #terms).

    a^(k)_alpha = prod_r (v^(alpha)_r)^{k_r}, b^(k) the same (with the
    multinomial coefficient put on one side), k over the ((d, lam))
    compositions of lam into d parts.

    >>> lhs, rhs, n = hadamard_power_terms([[1, 2], [3, -1]], 2)
    >>> lhs.tolist() == rhs.tolist(), n
    (True, 3)
    """
    V = obj_array(V)
    m, d = V.shape
    G = V @ V.T
    lhs = obj_array([[G[a, b] ** lam for b in range(m)] for a in range(m)])
    rhs = np.zeros((m, m), dtype=object)
    ks = compositions(lam, d)
    for k in ks:
        vec = obj_array([np.prod([V[a, r] ** k[r] for r in range(d)], dtype=object)
                    for a in range(m)])
        rhs = rhs + multinomial(k) * np.outer(vec, vec)
    return lhs, rhs, len(ks)


def multinomial_expansion_is_identity(d: int, lam: int) -> bool:
    """Eq. (26)-(27) as a polynomial identity in 2d symbols (sympy expansion).

    ``(sum_r v_r w_r)^lam - sum_{|k| = lam} multinomial(k) prod v_r^k_r prod w_r^k_r``
    expands to 0.

    >>> multinomial_expansion_is_identity(2, 3)
    True
    """
    import sympy

    v = sympy.symbols(f"v1:{d + 1}")
    w = sympy.symbols(f"w1:{d + 1}")
    lhs = sum(a * b for a, b in zip(v, w, strict=True)) ** lam
    rhs = sum(multinomial(k) * sympy.Mul(*[v[r] ** k[r] * w[r] ** k[r] for r in range(d)])
              for k in compositions(lam, d))
    return sympy.expand(lhs - rhs) == 0


def omega_power_squares(q: Sequence[int], k: Sequence[int], omega: Fraction) -> tuple:
    """Both sides of l.711-712, squared, at Omega: (prod_r v_r^{2 k_r}, s^{-lam} Omega^{2 <q, k>}).

    v_r = Omega^{q_r} / sqrt(s), s = sum_r Omega^{2 q_r} (l.707), lam = sum k.
    Both sides of l.711-712 are positive for Omega > 0, so equal squares mean
    equal sides. Also returns sum_r v_r^2 (= 1: the rows are l2-normalized).

    >>> omega_power_squares((2, 0), (1, 1), Fraction(3))
    (Fraction(81, 6724), Fraction(81, 6724), Fraction(1, 1))
    """
    omega = Fraction(omega)
    s = sum(omega ** (2 * qr) for qr in q)
    v2 = [omega ** (2 * qr) / s for qr in q]
    lhs = Fraction(1)
    for vr2, kr in zip(v2, k, strict=True):
        lhs *= vr2 ** kr
    rhs = s ** (-sum(k)) * omega ** (2 * sum(a * b for a, b in zip(q, k, strict=True)))
    return lhs, rhs, sum(v2)


def omega_det_and_leibniz(d: int, lam: int) -> tuple:
    """l.716-718: det A(Omega) and sum_sigma sgn(sigma) Omega^{sum_q <q, sigma(q)>}, as fmpz_poly.

    A_{alpha, k} = Omega^{<q^alpha, k>}, rows and columns indexed by the
    ((d, lam)) compositions of lam into d parts.

    >>> det, leib = omega_det_and_leibniz(2, 2)
    >>> det == leib, det.degree()
    (True, 10)
    """
    import flint

    qs = compositions(lam, d)
    n = len(qs)
    x = flint.fmpz_poly([0, 1])
    expo = [[sum(a * b for a, b in zip(q, k, strict=True)) for k in qs] for q in qs]
    # det independently of the Leibniz sum: Bareiss elimination over Z[Omega]
    M = [[x ** e for e in row] for row in expo]
    sign, prev = 1, flint.fmpz_poly(1)
    M = [row[:] for row in M]
    for col in range(n):
        piv = next((r for r in range(col, n) if M[r][col] != 0), None)
        if piv is None:
            det = flint.fmpz_poly(0)
            break
        if piv != col:
            M[col], M[piv] = M[piv], M[col]
            sign = -sign
        for r in range(col + 1, n):
            for c2 in range(col + 1, n):
                num = M[r][c2] * M[col][col] - M[r][col] * M[col][c2]
                M[r][c2] = num // prev
            M[r][col] = flint.fmpz_poly(0)
        prev = M[col][col]
    else:
        det = sign * M[n - 1][n - 1]
    leib = flint.fmpz_poly(0)
    for perm in permutations(range(n)):
        inv = sum(1 for a in range(n) for b in range(a + 1, n) if perm[a] > perm[b])
        leib += (-1) ** inv * x ** sum(expo[a][perm[a]] for a in range(n))
    return det, leib
