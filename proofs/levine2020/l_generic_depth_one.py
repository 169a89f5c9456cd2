"""L-Generic1: the generic separation rank of a one-layer network is d_x + 1 (issue 34).

Source: levine2020_depth_to_width_self_attention.txt, eq. (3) l.69-82 (the network). Not a
claim of the paper: the project's own law of the generic separation rank
(:mod:`seprank.network_theory.generic_laws`), proved for every width and head count.

The argument (each link a step):

1. caps for every weight: at L = 1 (C = 1) C_F has two blocks, d_x D x 1 and d_x x D, so
   sep <= 1 + min(d_x, D) = d_x + 1, as D - d_x = d_x (d_x - 1)/2 >= 0 (symbolic);
2. a witness at every size: the weights of
   :func:`~seprank.network_theory.generic_laws.depth_one_witness` give G_1(S) = e_p e_0^T S,
   whose degree-1 block has the d_x distinct unit rows S_00, S_01, ..., S_0(d_x-1): rank d_x
   (argument; the block is computed exactly at listed sizes);
3. the same witness through the moment route (an independent engine: expansion of G_1,
   blocks ranked and certified): d_x + 1 exact at listed sizes;
4. almost every weight: the minors of C_F are polynomials in the weights, nonzero at the
   witness, so the rank d_x + 1 holds off the zero set of one nonzero polynomial, and by
   Proposition 2' (:mod:`seprank.separation.moment`) it is sep as N -> infinity.
"""

from __future__ import annotations

import math

import flint
import numpy as np
import sympy as sp
from seprank_proofs import LEVINE2020

from seprank.network_theory.generic_laws import block_caps, depth_one_block, depth_one_witness
from seprank.proof import Claim, check

PAPER = LEVINE2020
NET = PAPER.cite("eq. (3) l.69-82")
#: sizes of the exact cross-checks: the block at the witness, and the moment route
BLOCK_WIDTHS = tuple(range(1, 13))
ROUTE_WIDTHS = tuple(range(1, 7))

CLAIM = Claim(
    "theorem",
    "For the plain network of eq. (3) with one layer (L = 1), every width d_x >= 1 and every "
    "head count H dividing d_x (d_a = d_x / H): for almost every weight, sep(y_p^i) = d_x + 1 "
    "as N -> infinity (every partition with at least d_x positions on each side); and "
    "sep(y_p^i) <= d_x + 1 for every weight, N and partition",
    NET, main_result=True)


def _divisors(d: int) -> list[int]:
    return [h for h in range(1, d + 1) if d % h == 0]


def _caps_step(ctx) -> None:
    with ctx.step("caps for every weight: at L = 1 the blocks of C_F are d_x D x 1 and d_x x "
                  "D (D = d_x (d_x + 1)/2), so sep <= 1 + min(d_x, D) = d_x + 1; D - d_x = "
                  "d_x (d_x - 1)/2 >= 0 for d_x >= 1 (sympy; the block shapes of the route "
                  "agree at d_x <= 50)", NET, kind="symbolic") as s:
        d = sp.Symbol("d_x", integer=True, positive=True)

        def gap(D) -> bool:
            return sp.expand(D - d - d * (d - 1) / 2) == 0

        s.could_fail("D - d_x", gap, d * (d + 1) / 2,
                     {"D counted without the diagonal, d_x (d_x - 1)/2": d * (d - 1) / 2})
        bad = [w for w in range(1, 51) if block_caps(1, w) != [1, w]]
        s.record(route_caps_checked="d_x = 1..50", disagree=bad)
        s.require(not bad, "the route's block caps differ from [1, d_x]", widths=bad)


def _witness_step(ctx) -> None:
    with ctx.step("a witness at every size: with Q_h = K_h selecting head h's d_a coordinates "
                  "(sum_h K_h^T Q_h = I) and O_h V_h = e_p e_0^T, G_1(S) = e_p e_0^T S, so "
                  "y_p^i = sum_j S_0j x^i_j and the degree-1 block has the d_x distinct unit "
                  "rows of the entries S_0j: rank d_x for every d_x (argument; the block is "
                  "computed exactly for d_x <= 12 and every H | d_x)", NET, kind="prose",
                  sizes="d_x <= 12, every H dividing d_x") as s:
        checked, bad = 0, []
        for d in BLOCK_WIDTHS:
            cols = [(a, b) for a in range(d) for b in range(a, d)]
            want = np.zeros((d, len(cols)), dtype=np.int64)
            for j in range(d):
                want[j, cols.index((0, j))] = 1
            for H in _divisors(d):
                block = depth_one_block(depth_one_witness(d, H))
                rank = flint.fmpz_mat(block.tolist()).rank()   # exact, over Z
                checked += 1
                if not (np.array_equal(block, want) and rank == d):
                    bad.append({"d_x": d, "H": H, "rank": rank})
        s.record(networks=checked, failures=bad)
        s.require(not bad, "the witness's degree-1 block is not the unit rows S_0j", failures=bad)


def _route_step(ctx) -> None:
    from seprank.models import SelfAttentionNetwork
    from seprank.separation import separation_rank

    with ctx.step("the moment route at the witness (its own expansion of G_1 and certified "
                  "block ranks): sep = d_x + 1, exact, for d_x <= 6 and every H | d_x",
                  NET, kind="computation", sizes="d_x <= 6, every H dividing d_x") as s:
        rows, bad = [], []
        for d in ROUTE_WIDTHS:
            for H in _divisors(d):
                net = SelfAttentionNetwork(1, d, H, weights=depth_one_witness(d, H))
                res = separation_rank(network=net, N=math.inf)
                rows.append({"d_x": d, "H": H, "sep": res.value, "kind": res.kind})
                if res.value != d + 1 or res.kind != "exact":
                    bad.append(rows[-1])
        s.record(rows=rows, failures=bad)
        s.require(not bad, "the route's value at the witness is not d_x + 1", failures=bad)


def _generic_step(ctx) -> None:
    with ctx.step("almost every weight: every entry of C_F is a polynomial in the weights; a "
                  "(d_x + 1)-minor (block 0's entry times a d_x-minor of block 1) that is "
                  "nonzero at the witness is a nonzero polynomial, so rank C_F = d_x + 1 off "
                  "its zero set, a proper algebraic subset of the weights (measure zero); by "
                  "Proposition 2' (seprank.separation.moment: sep = rank_Q(C_F) on every "
                  "partition with at least d_x positions on each side, N -> infinity) this "
                  "is sep, and with step 1 it is the largest value", NET, kind="prose") as s:
        s.record(argument="lower semicontinuity of the rank of a polynomial matrix",
                 proposition="Proposition 2' (moment route docstring)")


@check(id="L-Generic1", title="Generic separation rank at depth one: sep = d_x + 1 for almost "
       "every weight, every d_x and H | d_x (caps, a witness at every size, the route)",
       source=NET, depends=("L-net",), claim=CLAIM, paper=LEVINE2020)
def l_generic_depth_one(ctx):
    _caps_step(ctx)
    _witness_step(ctx)
    _route_step(ctx)
    _generic_step(ctx)
    ctx.conclude(
        "holds", "proof",
        "the caps give sep <= d_x + 1 for every weight (symbolic); one weight assignment, "
        "the same construction at every d_x and H, makes the degree-1 block the d_x unit "
        "rows of the moment entries S_0j (argument, computed exactly at d_x <= 12 and "
        "confirmed by the moment route at d_x <= 6), so the largest rank d_x + 1 is taken "
        "off a proper algebraic set of weights, which Proposition 2' turns into sep",
        basis="argument", argument_steps=(0, 1, 3))
