"""L-Generic2: the first layer's ideal bounds every block of C_F, for every weight (issue 34).

Source: levine2020_depth_to_width_self_attention.txt, eq. (3) l.69-82 (the network). Not a
claim of the paper: the project's own upper bound on the separation rank of plain networks
(:func:`seprank.network_theory.generic_laws.ideal_block_bounds`), below the block caps at
L = 2 exactly when H d_a^2 < D (at L = 1 never), and the generic value wherever a
certified instance meets it.

The argument (each link a step):

1. G_1(S) = sum_h O_h (V_h S K_h^T) Q_h reads S only through the H d_a^2 entries of the
   matrices V_h S K_h^T, linear forms l_1..l_r of S, r <= min(H d_a^2, D) (argument;
   the rank of the linear map S -> G_1(S) is computed exactly at listed sizes);
2. by induction every entry of G_L lies in (l)^e, e = 3^(L-1): an entry of G_{l+1} =
   M_l G_l, M_l = sum_h O_h V_h G_l S G_l^T K_h^T Q_h, is a sum of products of three
   entries of G_l and one of S (argument);
3. row (j, alpha) of block g of C_F is the order-(C - g) derivative d^alpha g_j / alpha! as
   a polynomial in the far side's moments, and a derivative of order k maps (l)^e into
   (l)^(e-k) (argument);
4. in coordinates with l_1..l_r first, the degree-g part of (l)^m has dimension
   sum_{i >= m} M(r, i) M(D - r, g - i) (argument: count the monomials by how many of
   their factors are among the first r variables; the count is checked against a
   brute-force enumeration at listed sizes);
   where it cuts the caps: at L = 2 exactly when H d_a^2 < D, at L = 1 never;
5. cross-check: the block ranks of random networks (integer weights, zeros included,
   d_a = d_x / H or not), from the derivative spans, never exceed the bound (computation);
6. the bound is attained by drawn networks at listed shapes, so there it is the generic
   separation rank (certificate: exact ranks of instances).
"""

from __future__ import annotations

import itertools

import flint
import numpy as np
from seprank_proofs import LEVINE2020

from seprank.combinatorics import multiset
from seprank.models import SelfAttentionNetwork
from seprank.models.generic_weights import seeded_network
from seprank.network_theory.generic_laws import (
    block_caps,
    derivative_span_ranks,
    ideal_block_bounds,
)
from seprank.proof import Claim, check

PAPER = LEVINE2020
NET = PAPER.cite("eq. (3) l.69-82")
#: (L, d_x, H, d_a) of the random cross-checks, and the drawn networks that attain the bound
RANDOM_SHAPES = ((2, 2, 2, 1), (2, 3, 3, 1), (2, 3, 1, 1), (2, 2, 1, 2), (2, 3, 2, 1),
                 (3, 2, 2, 1))
ATTAINED = ((2, 2, 2), (2, 3, 3), (3, 2, 2))

CLAIM = Claim(
    "theorem",
    "For the plain network of eq. (3) (no residual connections), every depth L, width d_x, "
    "H heads of dimension d_a, every weight, N and partition: block g of the moment form's "
    "coefficient matrix C_F has rank at most sum_{i >= m} M(r, i) M(D - r, g - i), with "
    "r = min(H d_a^2, D), m = max(0, 3^(L-1) - (C(L) - g)), M(n, k) = C(n + k - 1, k); so "
    "sep(y_p^i) <= sum_g min(shape cap_g, that bound); at L = 2 this is below the shape "
    "caps exactly when H d_a^2 < D (block 2 loses M(D - r, 2))",
    NET, main_result=True)


def ideal_caps(L, d, H, d_a=None):
    """Per block, min(shape cap, ideal bound) (this check's bound; generic_laws.generic_caps
    is the counted one of L-Generic3, never larger); shared with L-Generic3."""
    d_a = d // H if d_a is None else d_a
    D = d * (d + 1) // 2
    return [min(c, b) for c, b in zip(block_caps(L, d),
                                      ideal_block_bounds(L, D, min(H * d_a * d_a, D)),
                                      strict=True)]


def _random_weights(rng, L, d, H, d_a, low):
    w = {k: rng.integers(low, 3, size=(L, H, d_a, d)) for k in "QKV"}
    w["O"] = rng.integers(low, 3, size=(L, H, d, d_a))
    return w


def _forms_step(ctx) -> None:
    with ctx.step("G_1(S) = sum_h O_h (V_h S K_h^T) Q_h reads S only through the H d_a^2 "
                  "entries of the V_h S K_h^T: the linear map S -> G_1(S) has rank <= "
                  "min(H d_a^2, D) (argument: associativity; the rank is computed exactly "
                  "for random weights at the listed sizes)", NET, kind="prose",
                  sizes="d_x <= 4, H in 1..d_x, d_a in 1, 2") as s:
        rng, rows = np.random.default_rng(34), []
        for d, H, d_a in ((2, 2, 1), (3, 3, 1), (4, 2, 1), (4, 4, 1), (3, 1, 1), (4, 2, 2)):
            w = _random_weights(rng, 1, d, H, d_a, -3)
            cols = []
            for a, b in itertools.combinations_with_replacement(range(d), 2):
                S = np.zeros((d, d), dtype=object)
                S[a, b] = S[b, a] = 1
                G = sum(w["O"][0, h].astype(object) @ (w["V"][0, h].astype(object) @ S
                        @ w["K"][0, h].T.astype(object)) @ w["Q"][0, h].astype(object)
                        for h in range(H))
                cols.append([int(x) for x in G.ravel()])
            rank = flint.fmpz_mat(cols).rank()
            rows.append({"d_x": d, "H": H, "d_a": d_a, "rank": rank,
                         "bound": min(H * d_a * d_a, d * (d + 1) // 2)})
        bad = [r for r in rows if r["rank"] > r["bound"]]
        s.record(cases=rows)
        s.require(not bad, "the first layer reads more linear forms of S", failures=bad)


def _ideal_power_step(ctx) -> None:
    with ctx.step("every entry of G_L lies in (l)^e, e = 3^(L-1): G_1's entries are linear "
                  "in the l's (step 1), and an entry of G_{l+1} = M_l G_l, M_l = sum_h O_h V_h "
                  "G_l S G_l^T K_h^T Q_h, is a sum of products of three entries of G_l and one "
                  "of S, so the power triples (induction on l)", NET, kind="prose") as s:
        s.record(exponents={L: 3 ** (L - 1) for L in range(1, 6)})


def _derivative_step(ctx) -> None:
    with ctx.step("row (j, alpha) of block g of C_F is d^alpha g_j / alpha! as a polynomial of "
                  "degree g in the far side's moments (binomial expansion of g_j(U + W)), and "
                  "one derivative maps (l)^e into (l)^(e-1) (product rule; the l's are "
                  "linear): block g's rows lie in (l)^m, m = max(0, e - (C - g))", NET,
                  kind="prose") as s:
        s.record(rows="order-(C - g) derivatives of the g_j")


def _count_step(ctx) -> None:
    with ctx.step("the degree-g part of (l)^m, l_1..l_r independent linear forms in D "
                  "variables, has dimension sum_{i >= m} M(r, i) M(D - r, g - i) (argument: "
                  "take the l's as the first r coordinates; a monomial lies in (l)^m iff at "
                  "least m of its factors are among them; checked against enumerating the "
                  "monomials for D <= 5, g <= 5)", NET, kind="prose",
                  sizes="D <= 5, g <= 5, every r and m") as s:
        bad, checked = [], 0
        for D in range(1, 6):
            for g in range(6):
                mons = [c for c in itertools.combinations_with_replacement(range(D), g)]
                for r in range(D + 1):
                    for m in range(g + 2):
                        brute = sum(1 for c in mons if sum(v < r for v in c) >= m)
                        formula = sum(multiset(r, i) * multiset(D - r, g - i)
                                      for i in range(m, g + 1))
                        checked += 1
                        if brute != formula:
                            bad.append({"D": D, "g": g, "r": r, "m": m, "brute": brute,
                                        "formula": formula})
        s.record(cases=checked, failures=bad[:5])
        s.require(not bad, "the count differs from the enumeration", failures=bad[:5])


def _where_below_step(ctx) -> None:
    with ctx.step("at L = 2 (e = 3, C = 4) block 2's bound is M(D, 2) - M(D - r, 2) and its "
                  "shape cap is M(D, 2) (d_x M(D, 2) rows), so the bound cuts it iff r < D, "
                  "i.e. H d_a^2 < D; with r = D no block is cut (every monomial counts); at "
                  "L = 1 block 1's bound is r >= d_x = its cap when d_a = d_x / H (argument; "
                  "the sums are compared for d_x <= 12, every H | d_x and d_a <= 3)", NET,
                  kind="prose", sizes="d_x <= 12, H | d_x, d_a in d_x / H, 1, 2, 3") as s:
        bad, checked = [], 0
        for d in range(1, 13):
            D = d * (d + 1) // 2
            for H in (h for h in range(1, d + 1) if d % h == 0):
                for d_a in sorted({d // H, 1, 2, 3}):
                    checked += 1
                    cut = sum(ideal_caps(2, d, H, d_a)) < sum(block_caps(2, d))
                    if cut != (H * d_a * d_a < D):
                        bad.append({"L": 2, "d_x": d, "H": H, "d_a": d_a})
                    if ideal_caps(1, d, H) != block_caps(1, d):
                        bad.append({"L": 1, "d_x": d, "H": H})
        s.record(cases=checked, failures=bad[:5])
        s.require(not bad, "the cut does not match H d_a^2 < D", failures=bad[:5])


def ranks_under(caps, shapes, seed: int) -> tuple[list[dict], list[dict]]:
    """(rows, rows over a cap): the exact block ranks (derivative spans) of networks with
    random integer weights, zeros included and not, at ``shapes`` (L, d_x, H, d_a), beside
    ``caps(L, d_x, H, d_a)``; shared with L-Generic3."""
    rng, rows = np.random.default_rng(seed), []
    for L, d, H, d_a in shapes:
        for low in (-2, 1):
            net = SelfAttentionNetwork(L, d, H, d_a,
                                       weights=_random_weights(rng, L, d, H, d_a, low))
            rows.append({"shape": [L, d, H, d_a], "ranks": derivative_span_ranks(net),
                         "bounds": caps(L, d, H, d_a)})
    return rows, [r for r in rows if any(a > b for a, b in zip(r["ranks"], r["bounds"],
                                                               strict=True))]


def _random_step(ctx) -> None:
    with ctx.step("cross-check: for random integer weights (zeros included; d_a = d_x / H or "
                  "not) every block's exact rank (derivative spans, no code shared with the "
                  "route) is at most min(shape cap, ideal bound)", NET, kind="computation",
                  sizes="(L, d_x, H, d_a) in " + ", ".join(map(str, RANDOM_SHAPES))) as s:
        rows, bad = ranks_under(ideal_caps, RANDOM_SHAPES, 3402)
        s.record(cases=rows, failures=bad)
        s.require(not bad, "a block's rank exceeds the ideal bound", failures=bad)


def _attained_step(ctx) -> None:
    with ctx.step("attained: the drawn networks (seed 0) of the listed shapes have every block "
                  "at the bound (exact ranks of derivative spans), below the shape caps: there "
                  "the bound is the generic separation rank (a nonzero minor at one weight is "
                  "nonzero for almost every weight)", NET, kind="certificate",
                  sizes="(L, d_x, H) in " + ", ".join(map(str, ATTAINED))) as s:
        rows, bad = [], []
        for L, d, H in ATTAINED:
            ranks = derivative_span_ranks(seeded_network(L, d, H, seed=0))
            caps = ideal_caps(L, d, H)
            rows.append({"shape": [L, d, H], "sep": sum(ranks), "bound": sum(caps),
                         "shape_caps": sum(block_caps(L, d)),
                         "ideal": ideal_block_bounds(L, d * (d + 1) // 2,
                                                     min(H * (d // H) ** 2, d * (d + 1) // 2))})
            if ranks != caps or sum(caps) >= sum(block_caps(L, d)):
                bad.append(rows[-1])
        s.record(cases=rows, failures=bad)
        s.require(not bad, "a drawn network does not attain the bound", failures=bad)


@check(id="L-Generic2", title="The first layer's ideal: a bound on every block of C_F for "
       "every weight, below the caps at L = 2 iff H d_a^2 < D, attained at listed shapes",
       source=NET, depends=("L-net",), claim=CLAIM, paper=LEVINE2020)
def l_generic_ideal(ctx):
    _forms_step(ctx)
    _ideal_power_step(ctx)
    _derivative_step(ctx)
    _count_step(ctx)
    _where_below_step(ctx)
    _random_step(ctx)
    _attained_step(ctx)
    ctx.conclude(
        "holds", "proof",
        "the first layer reads S through r <= min(H d_a^2, D) linear forms, the entries of G_L "
        "lie in the 3^(L-1)-th power of their ideal, block g's rows are derivatives of order "
        "C - g (each lowers the power by at most one), and the degree-g part of a power of the "
        "ideal has the stated dimension (arguments, with exact cross-checks at listed sizes); "
        "random networks never exceed the bound and drawn networks attain it at the listed "
        "shapes",
        basis="argument", argument_steps=(0, 1, 2, 3, 4))
