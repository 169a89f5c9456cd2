"""The Omega matrices of the lower-bound argument (levine2020 B.2, l.666-718).

Notation (levine2020 l.684-690): d = (d_x - H)/2, lambda = 3^(L-2), and
n = ((d, lambda)) compositions q_1, ..., q_n of lambda into d parts, in the
order of :func:`seprank.combinatorics.compositions`.

* ``omega_rows(d, lam, omega)``: the n x d integer matrix U with rows
  U_alpha = (Omega^{q_alpha,1}, ..., Omega^{q_alpha,d}). The paper's V divides
  each row by its l2 norm; row scaling multiplies (V V^T)^(Hadamard lambda) by
  a nonzero diagonal matrix on both sides and leaves its rank unchanged, so
  seprank works with the unnormalized integer U (checked as a step of L-Omega).
* ``gram_hadamard_exact(U, lam)``: G = (U U^T)^(Hadamard lambda) as an
  ``fmpz_mat`` with big integers.
* ``gram_hadamard_mod_p(U, lam, p)``: the same matrix mod p, built from the
  residues of U without ever forming big integers.
* ``omega_A_matrix(d, lam, omega)``: A[alpha, k] = Omega^<q_alpha, k>, the
  matrix of levine2020 l.708-712; by the multinomial expansion (eq. (26)-(27))
  G = A diag(multinomial(k)) A^T when V = U.
"""

from __future__ import annotations

import flint
import numpy as np

from seprank.combinatorics import check_d_lam, compositions, multinomial, multiset
from seprank.errors import ParameterError
from seprank.linalg.memory import require_fits
from seprank.scalars.primes import require_prime

__all__ = [
    "omega_rows",
    "omega_rows_mod_p",
    "gram_hadamard_exact",
    "gram_hadamard_mod_p",
    "omega_A_matrix",
    "multinomial_diagonal",
]

#: Largest prime for the int64 builders: residues < 2^31 keep every product < 2^62.
MAX_BUILDER_PRIME = 2**31 - 1


def omega_rows(d: int, lam: int, omega: int) -> list[list[int]]:
    """Rows Omega^q over the compositions q of ``lam`` into ``d`` parts (integers).

    The matrix U of levine2020_depth_to_width_self_attention.txt B.2
    (l.684-700) before its rows are normalized (row scaling leaves the rank of
    (U U^T)^(Hadamard lam) unchanged; module docstring). Its Gram Hadamard
    power has rank exactly ((d, lam)) (l.700-712).

    >>> omega_rows(2, 2, 3)
    [[9, 1], [3, 3], [1, 9]]
    """
    check_d_lam(d, lam)
    if not isinstance(omega, int):
        raise ParameterError(f"Omega must be an integer, got {omega!r}")
    return [[omega**qr for qr in q] for q in compositions(lam, d)]


def omega_rows_mod_p(d: int, lam: int, omega: int, p: int) -> np.ndarray:
    """``omega_rows`` reduced mod p, computed with modular powers (int64 array).

    The Omega rows of levine2020_depth_to_width_self_attention.txt B.2
    (l.684-700), for the builders mod p.

    Examples
    --------
    >>> omega_rows_mod_p(2, 2, 3, 5).tolist()   # omega_rows(2, 2, 3) mod 5
    [[4, 1], [3, 3], [1, 4]]
    """
    check_d_lam(d, lam)
    p = require_prime(p, max_value=MAX_BUILDER_PRIME)
    powers = [pow(omega, k, p) for k in range(lam + 1)]
    qs = np.array(compositions(lam, d), dtype=np.int64).reshape(-1, d)
    return np.array(powers, dtype=np.int64)[qs]


def gram_hadamard_exact(U: list[list[int]] | flint.fmpz_mat, lam: int) -> flint.fmpz_mat:
    """(U U^T)^(Hadamard lam) over the integers (big integers; small n only).

    The matrix of levine2020_depth_to_width_self_attention.txt B.2, l.700-712
    (eq. (27)) for U = :func:`omega_rows`.

    A wrapper of :func:`seprank.constructions.gram_hadamard.gram_hadamard`
    (``domain="ZZ"``, flint products) returning an ``fmpz_mat``.

    Examples
    --------
    >>> gram_hadamard_exact([[1, 2], [3, 4]], 2).tolist()   # U U^T = [[5, 11], [11, 25]], squared
    [[25, 121], [121, 625]]
    """
    from seprank.constructions.gram_hadamard import gram_hadamard

    G = gram_hadamard(U, lam, domain="ZZ", backend="flint")
    n = G.shape[0]
    return flint.fmpz_mat(G.tolist()) if n else flint.fmpz_mat(0, 0)


def gram_hadamard_mod_p(U: np.ndarray | list[list[int]], lam: int, p: int,
                        *, as_nmod: bool = True) -> flint.nmod_mat | np.ndarray:
    """(U U^T)^(Hadamard lam) mod p, built from residues (no big integers).

    The matrix of levine2020_depth_to_width_self_attention.txt B.2, l.700-712, reduced mod p.

    ``U`` may hold arbitrary integers (reduced mod p first) or be the int64
    output of :func:`omega_rows_mod_p`. A wrapper of
    :func:`seprank.constructions.gram_hadamard.gram_hadamard` (``domain="GF(p)"``,
    the numba builder :func:`seprank.constructions.builders.gram_hadamard_mod_p_f64`);
    this returns its result as an ``nmod_mat`` (default) or an int64 array.

    Examples
    --------
    >>> gram_hadamard_mod_p([[1, 2], [3, 4]], 2, 7, as_nmod=False).tolist()   # 25, 121, 625 mod 7
    [[4, 2], [2, 2]]
    """
    from seprank.constructions.gram_hadamard import gram_hadamard

    p = require_prime(p, max_value=MAX_BUILDER_PRIME)
    g = gram_hadamard(U, lam, domain="GF(p)", p=p, backend="numba").astype(np.int64)
    if not as_nmod:
        return g
    n = g.shape[0]
    return flint.nmod_mat(n, n, g.ravel().tolist(), p) if n else flint.nmod_mat(0, 0, [], p)


def omega_A_matrix(d: int, lam: int, omega: int) -> flint.fmpz_mat:
    """A[alpha, k] = Omega^<q_alpha, k> over compositions.

    levine2020_depth_to_width_self_attention.txt B.2, l.708-712.

    Rows and columns both run over the compositions of ``lam`` into ``d`` parts
    in the library's fixed order; entries are exact integers.

    Examples
    --------
    >>> omega_A_matrix(2, 1, 2).tolist()   # compositions (1, 0), (0, 1); entries 2^<q, k>
    [[2, 1], [1, 2]]
    """
    check_d_lam(d, lam)
    qs = compositions(lam, d)
    n = len(qs)
    require_fits(n * n * 64, f"the exact {n} x {n} matrix A")
    rows = [[omega ** sum(a * b for a, b in zip(q, k, strict=True)) for k in qs] for q in qs]
    return flint.fmpz_mat(rows) if n else flint.fmpz_mat(0, 0)


def multinomial_diagonal(d: int, lam: int) -> list[int]:
    """The multinomial coefficients lam! / prod k_r! over compositions k.

    levine2020_depth_to_width_self_attention.txt eq. (27).

    Examples
    --------
    >>> multinomial_diagonal(2, 2)   # 2!/(2! 0!), 2!/(1! 1!), 2!/(0! 2!)
    [1, 2, 1]
    """
    check_d_lam(d, lam)
    out = [multinomial(k) for k in compositions(lam, d)]
    assert len(out) == multiset(d, lam)
    return out
