"""Ranks of Hadamard powers G = (V V^T)^(Hadamard lam) (levine2020 B.2, l.700-712, eq. (27);
wies2021 B.3, eqs. (24)-(26)): :func:`seprank.hadamard.rank.hadamard_rank` (also
``seprank.hadamard_rank``) and its work estimates (:mod:`seprank.hadamard.estimates`).
"""
