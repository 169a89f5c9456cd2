"""The matrices of the papers, built exactly: what a user needs to compute with them.

Gram Hadamard powers (the matrix every separation-rank bound is about)
    :func:`gram_hadamard` (U, lam, domain="ZZ" | "QQ" | "GF(p)", p, backend):
    G = (U U^T)^(Hadamard lam), G[i, j] = <u_i, u_j>^lam, exactly over ZZ or QQ or
    as residues mod p (levine2020 l.700-712, eq. (27); wies2021 eqs. (24)-(26)).
    :func:`gram_hadamard_mod_p_f64` and :func:`gram_hadamard_rows_mod_p`: the
    direct numba builder mod p (no big integers; all of G, or a block of rows).

The Omega rows (levine2020 B.2, l.666-718)
    :func:`omega_rows` (d, lam, omega): one row Omega^q per composition q of lam
    into d parts; :func:`omega_rows_mod_p`; :func:`gram_hadamard_exact` and
    :func:`gram_hadamard_mod_p`, their G as an ``fmpz_mat`` / ``nmod_mat``;
    :func:`omega_A_matrix` and :func:`multinomial_diagonal`, the factors of
    G = A diag(multinomial) A^T (eqs. (26)-(27)). G has rank exactly
    ((d, lam)) = C(d + lam - 1, lam) (the check ``seprank prove L-Omega``).

Lemma 6's network and templates (levine2020 B.3, l.720-815)
    :func:`lemma6_V` (the unit-norm rows V of the lemma), :func:`templates`
    (the M + 1 template vectors of l.750), :func:`assignment` (all weight
    matrices of l.740-746, printed or corrected, :data:`CORRECTIONS`),
    :func:`index_sets`, :func:`lemma6_inputs` and :func:`lemma6_constant` (the
    constant c of sub-matrix = c (V V^T)^(Hadamard 3^(L-2)), corrected).

Equal-norm witnesses (wies2021 B.3, Lemma 8, l.704-732)
    :func:`equal_norm_witness` (d, lam): natural rows of one common norm whose
    Hadamard power has full rank ((d, lam)), an :class:`EqualNormWitness`;
    :func:`check_witness_shape` checks everything but the rank.

Names are loaded on first use (the builders load numba), so importing this
package is cheap. ``seprank.hadamard_rank`` ranks the G of any of these V (or
of your own) beside its float64 rank and the bound ((d, lam)).

Examples
--------
>>> from seprank import constructions as c
>>> c.omega_rows(2, 2, 3)                      # compositions (2, 0), (1, 1), (0, 2)
[[9, 1], [3, 3], [1, 9]]
>>> c.gram_hadamard([[1, 2], [3, 4]], 2).tolist()
[[25, 121], [121, 625]]
>>> sorted(c.__all__)[:3]
['CORRECTIONS', 'EqualNormWitness', 'assignment']
"""

from __future__ import annotations

import importlib

# Eager: the function shares its name with its module, and must win the attribute.
from seprank.constructions.gram_hadamard import gram_hadamard

_OMEGA = "seprank.constructions.omega"
_LEMMA6 = "seprank.constructions.lemma6"
_EQUAL = "seprank.constructions.equal_norm"
_BUILDERS = "seprank.constructions.builders"

#: public name -> the module that defines it (loaded on first use)
_LAZY = {
    "gram_hadamard_mod_p_f64": _BUILDERS,
    "gram_hadamard_rows_mod_p": _BUILDERS,
    "omega_rows": _OMEGA,
    "omega_rows_mod_p": _OMEGA,
    "gram_hadamard_exact": _OMEGA,
    "gram_hadamard_mod_p": _OMEGA,
    "omega_A_matrix": _OMEGA,
    "multinomial_diagonal": _OMEGA,
    "lemma6_V": _LEMMA6,
    "templates": _LEMMA6,
    "assignment": _LEMMA6,
    "index_sets": _LEMMA6,
    "lemma6_inputs": _LEMMA6,
    "lemma6_constant": _LEMMA6,
    "CORRECTIONS": _LEMMA6,
    "equal_norm_witness": _EQUAL,
    "EqualNormWitness": _EQUAL,
    "check_witness_shape": _EQUAL,
}

__all__ = ["gram_hadamard", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'seprank.constructions' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
