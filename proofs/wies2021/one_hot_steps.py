"""The one-hot family against wies2021's eq. (9) (Theorem 3) and eq. (11) (Theorem 4).

Not a check: :func:`family_counterexample` is called by one line from W-Thm3 and W-Thm4.
Source: wies2021_vocabulary_bottleneck.txt, A.2 eq. (9) l.381, A.3 eq. (11) l.455.
Why: both theorems state the same explicit (non-asymptotic) bound; one network that
exceeds it at one size refutes it, so the decisive step is one certified instance
(``proof (certificate)``, the claims are not asymptotic). The family and its certificates
are those of L-Thm2-corrected (:mod:`seprank.network_theory.one_hot`; the step functions of
``proofs/_corrected_family.py``, each with its scope); this module adds the embedding
that feeds it (vocabulary grid or width-1 convolution) and the comparison with the printed
bound as exact integers. The depth at which the family first exceeds the bound is a *least
found* depth: other weights may exceed earlier; below the depth where W-Thm1's moment bound
exceeds eq. (9) no network can (recorded per r; for Theorem 4 only among the partitions that
keep every patch whole: a partition that splits patches is W-Thm4's other counterexample).
"""

from __future__ import annotations

import random

import numpy as np
from seprank_proofs import WIES2021
from seprank_proofs._corrected_family import (
    closed_form_steps,
    coefficient_matrix_step,
    independence_steps,
)

import seprank
from seprank.network_theory.moment_form import moment_bound
from seprank.network_theory.one_hot import (
    family_seps_by_layer,
    first_exceeding,
    monomial_network,
    shift_schedule,
)
from seprank.papers.wies2021.bounds import exceeds_eq9, thm3_bound
from seprank.papers.wies2021.moment_comparison import moment_vs_thm3

PAPER = WIES2021
#: the decisive instance: r = d_x = H = 8, d_a = 1, L = 9, N = 16
R_STAR, L_STAR = 8, 9


def family_counterexample(ctx, theorem: int) -> None:
    """The steps that certify the family and refute eq. (9) (``theorem=3``) or (11) (``4``)."""
    src = PAPER.cite("eq. (5) l.108; sec. 3 l.120-124")
    closed_form_steps(ctx, src)
    coefficient_matrix_step(ctx, src)
    independence_steps(ctx, src)
    if theorem == 4:
        _width_one_convolution_is_the_identity(ctx)
        setting = ("convolution embedding, kernel width 1, W^conv = I (r = d_x = s), "
                   "r_e = 0, M = N")
    else:
        _vocabulary_grid_keeps_the_rank(ctx)
        setting = "vocabulary embedding of the grid {0..3^L}^s (M_V of rank r = s), r_e = 0"
    _family_exceeds_the_bound(ctx, theorem, setting)


def _width_one_convolution_is_the_identity(ctx):
    with ctx.step("the convolution embedding with kernel width 1 (M = N), W^conv = I_s (rank "
                  "r = s) and positional embedding 0 (r_e = 0) is the identity, so the embedded "
                  "network is the family's plain network: eq. (2) with k = 1 reads "
                  "y^(0,i) = W^conv x^i = x^i for every s (exact at s = 3)",
                  source=PAPER.cite("eq. (2) l.70-76"), scope="instance", sizes="s = 3") as s:
        from seprank.models.embedding import ConvolutionalEmbedding

        sv = 3
        eye = [[[int(a == b) for b in range(sv)] for a in range(sv)]]
        emb = ConvolutionalEmbedding(eye, [[0] * 4 for _ in range(sv)])
        X = [[[1, -2, 3], [0, 1, 2], [4, 1, -1], [2, 2, 0]]]
        Y = emb.embed(X)
        s.record(rank=emb.rank(), embedded_equals_input=Y.tolist() == X)
        s.require(Y.tolist() == X and emb.rank() == sv, "the embedding is not the identity")


def _vocabulary_grid_keeps_the_rank(ctx):
    with ctx.step("the vocabulary embedding of the grid {0..3^L}^s (V = (3^L+1)^s tokens, M_V "
                  "of rank r = s, r_e = 0): the P- and Q-side functions have degree <= 3^L in "
                  "each coordinate, and a polynomial of degree <= 3^L per variable vanishing on "
                  "a product grid with 3^L + 1 points per variable is 0, so they stay linearly "
                  "independent on tokens and sep over tokens = prod(e + 1); checked: exact rank "
                  "of values on random token tuples of the grid {0..9}^2 (s = 2, L = 2, N = 4)",
                  source=PAPER.cite("eq. (1) l.62-68"), scope="instance",
                  sizes="s = 2, L = 2, N = 4") as s:
        sv, L, N = 2, 2, 4
        want = max(family_seps_by_layer(sv, L)[-1])
        net = monomial_network(sv, shift_schedule(sv, L))
        rng = random.Random(33)
        K = want + 3
        pts = [[[rng.randint(0, 3 ** L) for _ in range(sv)] for _ in range(N // 2)]
               for _ in range(2 * K)]
        Xv = np.array([pts[a] + pts[K + b] for a in range(K) for b in range(K)], dtype=object)
        out = net.evaluate(Xv, "ZZ")
        rank = seprank.rank([[out[a * K + b, 0, 0] for b in range(K)] for a in range(K)],
                            "exact").value
        s.record(rank_on_tokens=rank, prod_e_plus_1=want)
        s.require(rank == want, "the token-grid rank differs from prod(e + 1)")


def _depth_table(s, theorem: int) -> list[dict]:
    """Per r = 4..9: the family's first exceeding depth and the depth from which the moment
    bound (W-Thm1) exceeds the printed bound (below it the moment bound rules out every
    network; for Theorem 4 every network and partition that keeps the patches whole)."""
    rows = []
    key = ("moment_bound_exceeds_eq9_from_L" if theorem == 3 else
           "moment_bound_exceeds_eq11_from_L (patch-keeping partitions)")
    for r in range(4, 10):
        found = first_exceeding(exceeds_eq9, r, 24)
        cmp = moment_vs_thm3(r)
        no_network_below = "never" if cmp["holds_for_all_L"] else cmp["first_failure"]
        rows.append({"r": r, "family_first_L": None if found is None else found["L"],
                     key: no_network_below})
        if found is not None:
            rows[-1]["phrase"] = s.least(f"L at r = {r} (shift schedule)", found["L"])
    return rows


def _family_exceeds_the_bound(ctx, theorem, setting):
    eq = "eq. (9)" if theorem == 3 else "eq. (11)"
    src = PAPER.cite(f"A.2 {eq} l.381") if theorem == 3 else PAPER.cite(f"A.3 {eq} l.451-456")
    with ctx.step(f"COUNTEREXAMPLE to {eq}: the family ({setting}) at r = d_x = H = {R_STAR}, "
                  f"d_a = 1, L = {L_STAR}, N = {2 * R_STAR} has sep(y_p^1) = prod(e + 1) > "
                  "((r+r_e, 3^L)) ((4, 3^L)) (3^L+1)^(r+r_e) (exact integers); tabled per r: "
                  "the family's first exceeding L (least found: other weights may exceed "
                  "earlier) and the depth from which W-Thm1's moment bound exceeds the "
                  "printed one", source=src, kind="certificate",
                  sizes=f"r = d_x = H = {R_STAR}, L = {L_STAR}, N = {2 * R_STAR}") as s:
        found = first_exceeding(exceeds_eq9, R_STAR, L_STAR)
        bound = thm3_bound(L_STAR, R_STAR, 0)
        inst = {"r": R_STAR, "r_e": 0, "d_x": R_STAR, "H": R_STAR, "d_a": 1, "L": L_STAR,
                "N": 2 * R_STAR, "p": found["p"], "exponents": found["exponents"],
                "sep": found["sep"], f"{eq}_r_e=0": str(bound), "embedding": setting,
                "moment_bound": moment_bound(L_STAR, R_STAR)}
        s.record(counterexample=inst, first_L_per_r=_depth_table(s, theorem),
                 r_e_1="with a rank-1 positional embedding written into an extra channel that "
                       "no head reads (d_x = H = s + 1, one zero head) the sep is unchanged (an "
                       "argument, not a computed network)",
                 r_e_1_first_L=next((L for L, seps in enumerate(family_seps_by_layer(8, 16), 1)
                                     if max(seps) > thm3_bound(L, 8, 1)), None))
        if found["sep"] > bound:
            s.erratum(f"Theorem {theorem}, {eq}" + (", l.381" if theorem == 3 else ", l.455"),
                      "sep <= ((r+r_e, 3^L)) ((4, 3^L)) (3^L+1)^(r+r_e)",
                      "sep <= C(C(L) + D_t, D_t), t = min(r + r_e, d_x), D_t = t(t+1)/2 "
                      "(W-Thm1-corrected" + ("" if theorem == 3 else
                                             "; for partitions of the raw inputs that keep "
                                             "every patch on one side") + "); with r_e = 0 "
                      "the one-hot family has log_3 sep > D_t (L - floor(t/2) - t), so log sep "
                      "grows like D_t L as L -> infinity; with r_e > 0 the positional block of "
                      "the moments is constant and the rate is at most (D_r + r r_e) L",
                      "false-statement",
                      instance=inst, anchor="(9)" if theorem == 3 else "(11)",
                      correction_id="wies2021-moment-bound",
                      message=f"sep = {float(found['sep']):.4e} > {float(bound):.4e} at "
                              f"r = {R_STAR}, L = {L_STAR}")
