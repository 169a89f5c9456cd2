"""L-Generic4: with skip connections, C_F lies between the plain network's and the layered
staircase, for every weight; so the residual generic rank is the plain one wherever the
plain network meets its counted bound (issue 28).

Source: levine2020_depth_to_width_self_attention.txt, eq. (3) l.69-82 (the network) and
appendix A.4 (residual connections). Not a claim of the paper: the project's own bounds
(:mod:`seprank.separation.moment.leading_forms`,
:func:`seprank.network_theory.generic_laws.layered_staircase_bound`).

The argument (each link a step):

1. the degree-C part of the residual G_L is the plain G_L with the same weights: the top
   part of a product is the product of the top parts, and the skip's identity has degree
   0 (argument; checked against flint's expansion at listed sizes);
2. ordered by decreasing |alpha| and increasing |gamma|, the residual C_F is block lower
   triangular with the plain blocks on its diagonal, so its rank is at least their sum
   (argument);
3. nu(G_L) <= T = (3^(L-1) - 1)/2, nu the largest u-degree in coordinates (l, u) where l
   are the first layer's r forms: nu(G_1) = 0 and nu(G_{l+1}) <= 3 nu(G_l) + 1; the skip
   adds nothing (argument);
4. entries vanish unless |alpha| + |gamma| <= C and u(alpha) + u(gamma) <= T; columns
   split by decreasing thresholds s_j into two groups, each of rank at most its columns
   or its rows, give the layered staircase (argument; the dynamic programme against every
   threshold sequence, and its equality with the plain count, at listed sizes);
5. cross-check: the exact rank over Q of the whole residual C_F of random networks (zeros
   included) lies between the plain network's (derivative spans) and the bound;
6. drawn residual networks meet the bound where the plain ones meet theirs (certificate).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

import flint
import numpy as np
from seprank_proofs import LEVINE2020

from seprank.models import SelfAttentionNetwork
from seprank.models.generic_weights import generic_bound, seeded_network
from seprank.network_theory.generic_laws import (
    derivative_span_ranks,
    generic_caps,
    layered_staircase_bound,
)
from seprank.network_theory.moment_form import moment_polynomials, token_family
from seprank.proof import Claim, check
from seprank.separation.moment import moment_separation_rank
from seprank.separation.moment.blocks import staircase_bound
from seprank.separation.moment.leading_forms import leading_network, whole_matrix

PAPER = LEVINE2020
NET = PAPER.cite("eq. (3) l.69-82")
#: shapes of the expansion check (step 1) and of the random cross-check (step 5)
TOP_SHAPES = ((1, 3, 3), (2, 2, 1), (2, 2, 2), (2, 3, 1), (3, 1, 1))
RANDOM_SHAPES = ((2, 2, 2), (2, 3, 3), (2, 3, 1), (3, 2, 2))
#: shapes of the exhaustive check of the dynamic programme (step 4)
SEARCH_SHAPES = ((2, 4, 4), (3, 3, 3), (3, 4, 2), (3, 4, 4), (3, 6, 3))
#: drawn residual networks (seed 0) that meet the bound (step 6)
ATTAINED = ((2, 4, 4), (3, 3, 3), (4, 2, 2))

CLAIM = Claim(
    "theorem",
    "For the network of eq. (3) with a skip connection at every layer (A.4), every depth L, "
    "width d_x, H heads of dimension d_a and every weight: rank C_F is at least the plain "
    "network's with the same weights and at most the layered staircase min over s_0 >= .. "
    ">= s_T of sum_j [sum_{e <= s_j} n(e, j) + d_x sum_{a < C - s_j} n(a, T - j)], "
    "n(e, j) = M(D - r, j) M(r, e - j), r = min(H d_a^2, D), T = (3^(L-1) - 1)/2; the "
    "bound equals the plain counted bound (L-Generic3) at every L <= 4, d_x <= 7, H | d_x",
    NET, main_result=True)


def _shape(L, d, H):
    D = d * (d + 1) // 2
    return D, min(H * (d // H) ** 2, D), (3**L - 1) // 2


def _top_step(ctx) -> None:
    with ctx.step("the degree-C part of the residual G_L is the plain G_L with the same "
                  "weights: G_1 = I + (plain G_1), and the top part of a product of "
                  "polynomial matrices is the product of the top parts (argument; the top "
                  "part of each residual g_j against the plain g_j, flint's exact expansion)",
                  NET, kind="prose",
                  sizes="(L, d_x, H) in " + ", ".join(map(str, TOP_SHAPES))) as s:
        bad, rng = [], np.random.default_rng(4101)
        for L, d, H in TOP_SHAPES:
            net = SelfAttentionNetwork.random(L, d, H, residual=True, nonzero=True,
                                              seed=int(rng.integers(10**6)))
            C = (3**L - 1) // 2
            res = moment_polynomials(token_family(net, 0))
            plain = moment_polynomials(token_family(leading_network(net), 0))
            for g, h in zip(res, plain, strict=True):
                top = g.context().from_dict({e: c for e, c in g.to_dict().items()
                                             if sum(e) == C})
                if top != h:
                    bad.append([L, d, H])
        s.record(shapes=[list(x) for x in TOP_SHAPES], failures=bad)
        s.require(not bad, "a residual network's top part is not the plain one", failures=bad)


def _triangular_step(ctx) -> None:
    with ctx.step("ordered by decreasing |alpha| and increasing |gamma|, the residual C_F is "
                  "block lower triangular (entry zero when |alpha| + |gamma| > C) with the "
                  "plain network's blocks on the diagonal; a block triangular matrix has "
                  "rank >= the sum of its diagonal blocks' ranks (their nonsingular minors "
                  "together index a nonsingular block triangular minor)", NET,
                  kind="prose") as s:
        s.record(lower_bound="rank C_F(residual) >= sum_b rank(plain block b)")


def _degree_step(ctx) -> None:
    with ctx.step("nu(G_L) <= T = (3^(L-1) - 1)/2 for the residual network: nu(G_1) = 0 "
                  "(G_1 = I + sum_h O_h V_h S K_h^T Q_h reads only the l's), "
                  "nu(G_l S G_l^T) <= 2 nu(G_l) + 1, the layer map X -> I + sum_h O_h V_h X "
                  "K_h^T Q_h keeps nu, so nu(G_{l+1}) <= 3 nu(G_l) + 1", NET,
                  kind="prose") as s:
        s.record(T={L: (3 ** (L - 1) - 1) // 2 for L in range(1, 6)})


def _search(L, d, H):
    """The layered staircase by every decreasing threshold sequence (no programme)."""
    D, r, C = _shape(L, d, H)
    T = (3 ** (L - 1) - 1) // 2

    def n(e, j):
        if not 0 <= j <= e:
            return 0
        return (comb(D - r + j - 1, j) if D - r else int(j == 0)) * comb(r + e - j - 1, e - j)

    best = None
    for seq in combinations_with_replacement(range(-1, C + 1), T + 1):
        s = sorted(seq, reverse=True)
        total = (sum(n(e, j) for j in range(T + 1) for e in range(s[j] + 1))
                 + d * sum(n(a, i) for i in range(T + 1) for a in range(C - s[T - i])))
        best = total if best is None else min(best, total)
    return best


def _staircase_step(ctx) -> None:
    with ctx.step("in coordinates (l, u) the entry of (k, alpha), gamma vanishes unless "
                  "|alpha| + |gamma| <= C and u(alpha) + u(gamma) <= T; the columns (e, j) "
                  "with e <= s_j count themselves, the others meet only the rows "
                  "a <= C - 1 - s_{T-i} of level i: rank <= the layered staircase "
                  "(argument); the dynamic programme's value is the bound taken over every "
                  "decreasing sequence, enumerated one by one, and it equals the plain "
                  "counted bound",
                  NET, kind="prose",
                  sizes="search: " + ", ".join(map(str, SEARCH_SHAPES))
                  + "; identity: L <= 4, d_x <= 7, H | d_x") as s:
        bad, cases = [], 0
        for L, d, H in SEARCH_SHAPES:
            D, r, _ = _shape(L, d, H)
            if layered_staircase_bound(L, D, r, d) != _search(L, d, H):
                bad.append({"search": [L, d, H]})
        for L in range(1, 5):
            for d in range(1, 8):
                for H in (h for h in range(1, d + 1) if d % h == 0):
                    D, r, _ = _shape(L, d, H)
                    cases += 1
                    if layered_staircase_bound(L, D, r, d) != sum(generic_caps(L, d, H)):
                        bad.append({"identity": [L, d, H]})
        s.record(identity_cases=cases, failures=bad)
        s.require(not bad, "the programme or the identity fails", failures=bad)


def _whole_rank(net) -> int:
    return flint.fmpz_mat(whole_matrix(token_family(net, 0)).tolist()).rank()


def _random_step(ctx) -> None:
    with ctx.step("cross-check: for random integer weights (zeros included) the exact rank "
                  "over Q of the whole residual C_F (flint) is at least the plain network's "
                  "(derivative spans: no code shared with the route) and at most the "
                  "layered staircase", NET, kind="computation",
                  sizes="(L, d_x, H) in " + ", ".join(map(str, RANDOM_SHAPES))) as s:
        rows, bad, rng = [], [], np.random.default_rng(4102)
        for L, d, H in RANDOM_SHAPES:
            net = SelfAttentionNetwork.random(L, d, H, residual=True, bound=2,
                                              seed=int(rng.integers(10**6)))
            D, r, C = _shape(L, d, H)
            plain = sum(derivative_span_ranks(leading_network(net)))
            whole = _whole_rank(net)
            bound = layered_staircase_bound(L, D, r, d)
            rows.append({"shape": [L, d, H], "plain": plain, "residual": whole,
                         "layered": bound, "staircase": staircase_bound(d, D, C)})
            if not plain <= whole <= bound:
                bad.append(rows[-1])
        s.record(cases=rows, failures=bad)
        s.require(not bad, "a residual rank leaves [plain, layered staircase]", failures=bad)


def _attained_step(ctx) -> None:
    with ctx.step("attained: drawn residual networks (seed 0) whose certified rank (the "
                  "plain blocks mod p, a lower bound by step 2) meets the layered staircase, "
                  "below the plain staircase: there it is the generic separation rank",
                  NET, kind="certificate",
                  sizes="(L, d_x, H) in " + ", ".join(map(str, ATTAINED))) as s:
        rows, bad = [], []
        for L, d, H in ATTAINED:
            res = moment_separation_rank(seeded_network(L, d, H, residual=True, seed=0),
                                         weight_bound=generic_bound(L))
            D, r, C = _shape(L, d, H)
            bound = layered_staircase_bound(L, D, r, d)
            rows.append({"shape": [L, d, H], "certified": res.lower_bound, "layered": bound,
                         "staircase": staircase_bound(d, D, C)})
            if res.lower_bound != bound or bound >= rows[-1]["staircase"]:
                bad.append(rows[-1])
        s.record(cases=rows, failures=bad)
        s.require(not bad, "a drawn residual network does not meet the bound", failures=bad)


@check(id="L-Generic4", title="Skip connections: C_F between the plain network's and the "
       "layered staircase, for every weight; equal to the plain value at listed shapes",
       source=NET, depends=("L-Generic3",), claim=CLAIM, paper=LEVINE2020)
def l_generic_residual(ctx):
    _top_step(ctx)
    _triangular_step(ctx)
    _degree_step(ctx)
    _staircase_step(ctx)
    _random_step(ctx)
    _attained_step(ctx)
    ctx.conclude(
        "holds", "proof",
        "the residual G_L's top part is the plain G_L, so the residual C_F is block "
        "triangular over the plain blocks; every monomial keeps u-degree <= T, so splitting "
        "the columns by degree and u-degree bounds the rank by the layered staircase "
        "(arguments, with exact cross-checks at listed sizes); drawn networks meet it",
        basis="argument", argument_steps=(0, 1, 2, 3))
