"""The first layer's annihilators (seprank.separation.moment.apolar.first_layer_annihilators).

Expectations are independent of the catalecticant machinery: each vector y is read as the
operator Q_y = sum_gamma y_gamma d^gamma and applied to the g_j with python-flint's own
partial derivatives (Q_y g_j must be the zero polynomial); the count is the number of
monomials of order b in the D - rank(Lambda) directions the forms vanish on, with the
forms' matrix Lambda ranked by sympy.
"""

from __future__ import annotations

import json
import math
from math import comb
from pathlib import Path

import numpy as np
import pytest
import sympy

from seprank.models import SelfAttentionNetwork
from seprank.models.generic_weights import seeded_network
from seprank.network_theory.moment_form import moment_polynomials, token_family
from seprank.separation.moment.apolar import first_layer_annihilators
from seprank.separation.moment.blocks import exponents


def _apply(y, b: int, g, n_vars: int):
    """Q_y g for the degree-b exponents' order of ``exponents``."""
    gens = range(n_vars)
    total = g * 0
    for coeff, gamma in zip(y, exponents(n_vars, b), strict=True):
        if not coeff:
            continue
        h = g
        for e in gens:
            for _ in range(int(gamma[e])):
                h = h.derivative(e)
        total = total + int(coeff) * h
    return total


def _forms_rank(fam) -> int:
    net, rows = fam.net, []
    for h in range(net.H):
        V = sympy.Matrix(np.asarray(net.weights["V"][0, h], dtype=object).tolist())
        K = sympy.Matrix(np.asarray(net.weights["K"][0, h], dtype=object).tolist())
        mats = [V * sympy.Matrix(np.asarray(fam.basis[e], dtype=object).tolist()) * K.T
                for e in range(fam.n_vars)]
        rows += [[m[a, c] for m in mats] for a in range(V.rows) for c in range(K.rows)]
    return sympy.Matrix(rows).rank()


def _degenerate(L: int, d: int, H: int, d_a: int, seed: int) -> SelfAttentionNetwork:
    """A drawn network with its first head's V zeroed in the first layer (fewer forms)."""
    net = SelfAttentionNetwork.random(L, d, H, d_a, seed=seed, nonzero=True)
    w = {k: np.array(v, dtype=object) for k, v in net.weights.items()}
    w["V"][0, 0] = 0
    return SelfAttentionNetwork(L, d, H, d_a, weights=w)


CASES = [("generic", 2, 4, 2, None), ("generic", 2, 3, 3, None), ("generic", 3, 2, 2, None),
         ("generic", 2, 2, 1, 1), ("degenerate", 2, 3, 1, 2), ("degenerate", 2, 4, 2, 1),
         ("degenerate", 3, 2, 2, 1)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_the_annihilators_kill_every_g_j_and_their_count_is_the_monomial_count(case):
    kind, L, d, H, d_a = case
    net = (seeded_network(L, d, H, d_a, seed=1) if kind == "generic"
           else _degenerate(L, d, H, d_a, seed=2))
    fam = token_family(net, 0)
    found = first_layer_annihilators(fam)
    free = fam.n_vars - _forms_rank(fam)
    C = 3 ** L // 2                          # (3^L - 1) / 2, the degree of the g_j
    b = C - 3 ** (L - 1) + 1
    if free == 0:
        assert found is None
        return
    assert found is not None and found[0] == b
    vectors = found[1]
    assert len(vectors) == comb(free + b - 1, b)
    # independent over Q (sympy), so each counts
    assert sympy.Matrix(vectors).rank() == len(vectors)
    for g in moment_polynomials(fam):
        for y in vectors:
            assert _apply(y, b, g, fam.n_vars) == 0
    # and a vector off the ideal does not (the check can fail): d_0^b alone, unless the
    # directions contain e_0
    probe = tuple(int(i == 0) for i in range(len(exponents(fam.n_vars, b))))
    if sympy.Matrix(vectors + [probe]).rank() > len(vectors):
        assert any(_apply(probe, b, g, fam.n_vars) != 0 for g in moment_polynomials(fam))


def test_no_seeds_for_residual_or_full_rank_forms():
    assert first_layer_annihilators(token_family(seeded_network(2, 2, 1, residual=True), 0)) \
        is None
    # H d_a^2 = 9 >= D = 6 forms, independent for generic weights: no direction left
    assert first_layer_annihilators(token_family(seeded_network(2, 3, 1, seed=0), 0)) is None


@pytest.mark.slow
def test_deep_block_certified_by_the_seeds_without_any_lifting(monkeypatch):
    """L = 3, d_x = 4, H = 2: block 8 (8008 x 24310, rank 7984) is certified by relations
    that are products of block 5's six first-layer annihilators, with every Dixon lifting
    refused; the value equals the atlas row certified by lifting block 5's kernel (code
    before the seeds, docs/atlas/n_infinity.json)."""
    import seprank
    import seprank.linalg.rational.dixon_residues as dixon_residues

    def refuse(*args, **kwargs):
        raise AssertionError("a lifting ran")

    monkeypatch.setattr(dixon_residues, "kernel_from_residues", refuse)
    res = seprank.separation_rank(3, 4, 2, N=math.inf, weights_seed=0)
    rows = json.loads(Path(__file__).parents[1].joinpath(
        "docs/atlas/n_infinity.json").read_text())
    lifted = [r for r in rows if (r.get("family"), r.get("L"), r.get("d_x"), r.get("H"),
                                  r.get("residual"), r.get("seed")) ==
              ("generic", 3, 4, 2, False, 0) and r["kind"] == "exact"]
    assert res.kind == "exact" and lifted and res.value == lifted[0]["sep"]
    block8 = next(b for b in res.blocks if b["degree"] == 8)
    assert block8["kind"] == "exact" and block8["rank"] < min(block8["shape"])
    assert "apolar ideal" in block8["how"]


# ------------------------------------------------------------------ the expansion mod p first


def test_the_expansion_mod_p_agrees_with_the_exact_one_reduced():
    """poly_data_mod (nmod_mpoly) against poly_data (fmpz_mpoly) reduced mod p: the same
    c_beta beta! mod p on every term, terms absent mod p exactly those whose residue is 0."""
    from seprank.separation.moment.blocks import poly_data, poly_data_mod

    p = 101                                   # small, so that some coefficients vanish
    fam = token_family(seeded_network(2, 3, 3, seed=4), 0)
    exact = poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
    mod = poly_data_mod(moment_polynomials(fam, p=p), fam.n_vars, fam.degree, p)
    assert exact.exact and not mod.exact
    vanished = 0
    for j in range(fam.n_rows):
        full = dict(zip(exact.keys[j].tolist(), exact.residue_terms(j, p).tolist(),
                        strict=True))
        have = dict(zip(mod.keys[j].tolist(), mod.residue_terms(j, p).tolist(), strict=True))
        assert set(have) <= set(full)
        for key, value in full.items():
            assert have.get(key, 0) == value
            vanished += key not in have
    # the residues-only data refuses what needs exact coefficients, loudly
    with pytest.raises(TypeError):
        mod.exact_terms(0)


def test_blocks_certified_mod_p_need_no_exact_expansion(monkeypatch):
    """L = 2, d_x = 4, H = 2 and 4 (drawn weights): every block is exact from its rank mod p
    and the first layer's bounds, so the exact expansion never runs; weights in {-1, 0, 1}
    (H = 4, seed 0) leave a block below its cap that needs a lifted kernel, so it does; every
    answer equals that of the exact expansion alone (the mod-p pass switched off)."""
    import seprank
    from seprank.models import SelfAttentionNetwork
    from seprank.separation.moment import run as moment_run

    def runs():
        out = {H: seprank.separation_rank(2, 4, H, N=math.inf, weights_seed=0) for H in (2, 4)}
        out["zeros"] = seprank.separation_rank(
            network=SelfAttentionNetwork.random(2, 4, 4, seed=0, bound=1), N=math.inf)
        return out

    fast = runs()
    for key in (2, 4):
        assert "expansion" not in fast[key].timings and "expansion_mod_p" in fast[key].timings
    assert "expansion" in fast["zeros"].timings
    monkeypatch.setattr(moment_run._BlockRun, "expansion_mod",
                        lambda self: self.expansion())
    for key, ref in runs().items():
        assert "expansion_mod_p" not in ref.timings
        res = fast[key]
        assert (res.value, res.kind, res.upper_bound) == (ref.value, ref.kind, ref.upper_bound)


def test_a_transposed_block_checks_its_seeds_whole(caplog):
    """L = 1, d_x = 4, H = 4 (one-dimensional heads): block b = 1 has 4 rows and 10
    columns, stored transposed. The seeds are checked on the whole block and seeded (no
    warning that they fail a check they never had)."""
    import logging

    from seprank.separation.moment import moment_separation_rank
    from seprank.separation.moment.blocks import block_specs, poly_data
    from seprank.separation.moment.ranks import annihilate_rows

    net = SelfAttentionNetwork.random(1, 4, 4, seed=0, nonzero=True)
    fam = token_family(net, 0)
    b, vectors = first_layer_annihilators(fam)
    spec = next(s for s in block_specs(fam.n_rows, fam.n_vars, fam.degree, False)
                if s.degree == b)
    assert b == 1 and spec.shape[0] < spec.shape[1] and vectors
    pd = poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
    assert annihilate_rows(pd, spec, fam.n_rows, vectors, 2024418569) is True
    assert annihilate_rows(pd, spec, fam.n_rows, [tuple(range(1, 11))], 1000003) is False
    with caplog.at_level(logging.INFO, logger="seprank.moment"):
        res = moment_separation_rank(net, prime=2024418569)
    said = [r.getMessage() for r in caplog.records]
    assert not [m for m in said if "not seeded" in m]
    assert [m for m in said if m.startswith("apolar ideal seeded")] and res.kind == "exact"
