"""L-Cor1, L-Cor2: depth efficiency (Cor. 1) and its loss past L = log_3 d_x (Cor. 2).

Source: levine2020_depth_to_width_self_attention.txt, sec. 4.
Corollary 1 (l.140-144): a random deep network (L^deep, d_x^deep > 3^L^deep) can
only be realized by a shallower network of depth L^deep/d and width
"d_x^shallow = w d_x^shallow" (as printed, l.142) if w ~ exp(exp(d)).
Corollary 2 (l.164-170): for L^deep > log_3 d_x^deep, beta_1 = log_3 d_x / L < 1,
there is beta_2 = O(log H log d_x log L) such that a network of depth
beta_1 L + beta_2 and width 3^beta_2 d_x has a higher separation rank (eq. (9)).

Numeric illustrations from the bound functions of seprank.papers.levine2020.bounds,
exact integer / Fraction arithmetic (logs only as rigorous arb balls, for
reporting): for Cor. 1 the least integer width factor w for which the
shallower network's upper bound (Thm 3 / eq. (18)) reaches the deep network's
lower bound (Thm 1, eq. (7)); for Cor. 2 the least integer beta_2 for which
the shallow network's certified B.2 rank ((d, 3^(L-2))) exceeds the smaller of
the deep network's proven upper bounds (Thms 3 and 4).

Why: the corollaries are the paper's conclusions on depth efficiency (sec. 4.1,
4.2): they are only as strong as Theorems 1 and 2 (L-Thm1, L-Thm2), and these
checks say which parts of them the theorems carry. Both claims are rates
(``asymptotic``): no finite instance decides them. L-Cor2 decides Corollary 2: at H = 1
the printed beta_2 = O(log H log d_x log L) is 0 and the corollary fails for every d_x =
3^k (a missing hypothesis, H >= 2); for H >= 2 it holds in its printed shape, with the
corrected upper bound of L-Thm2-corrected for the deep network and B.2's rank for the
shallow one, whose width 3^(L_s) is odd (:func:`seprank.papers.levine2020.corrected.
cor2_odd_width`): no case of Theorem 1 that L-Thm1 leaves open is used. The integer root
L-Cor1 uses is :func:`seprank.papers.levine2020.corrected.least_root`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
from seprank_proofs import LEVINE2020

from seprank.combinatorics import num_head_indices
from seprank.papers.levine2020.bounds import (
    thm1_lower_pow3,
    thm1_regime,
    thm1_upper_pow3,
    thm2_regime,
    thm2_upper_pow3,
    thm3_bound,
)
from seprank.papers.levine2020.corrected import (
    cor2_odd_width,
    cor2_shallower_from,
    least_root,
)
from seprank.papers.levine2020.lemma_bounds import b2_rank
from seprank.proof import Claim, check
from seprank.proof.scaffold import erratum_if_failed
from seprank.scalars.enclosures import arb_le, compare_e_monomials, log3

SRC = LEVINE2020


def cor1_min_width_factor(L: int, d: int, d_x: int, H: int) -> dict:
    """Least integer w >= 1 with (w d_x + H)^C(L/d) >= Theorem 1's lower bound of the deep net."""
    base, lam = thm1_lower_pow3(L, d_x, H)
    lower = base ** int(lam)
    Ls = L // d
    X = least_root(lower, num_head_indices(Ls))  # least w d_x + H
    w = max(1, -(-(X - H) // d_x))
    assert thm1_upper_pow3(Ls, w * d_x, H) >= lower
    assert w == 1 or thm1_upper_pow3(Ls, (w - 1) * d_x, H) < lower
    return {"L_deep": L, "d": d, "L_shallow": Ls, "d_x_deep": d_x, "H": H,
            "deep_in_thm1_regime": thm1_regime(L, d_x),
            "log3_deep_lower_bound": str(log3(lower)),
            "min_w": w if w < 10 ** 12 else f"~3^{float(log3(w).mid()):.6g}",
            "log3_w": str(log3(w)) if w > 1 else "0",
            "log3_log3_w": str(log3(log3(w))) if w > 3 else None,
            "_ll": log3(log3(w)) if w > 3 else None}


def cor2_min_beta2(L: int, d_x: int, H: int, max_beta: int = 12) -> dict:
    """Least integer beta_2 >= 1 such that the shallow net (depth log_3 d_x + beta_2, width
    3^beta_2 d_x) has B.2 rank > the deep net's proven upper bound min(Thm 3, C(C + D, D)),
    D = d_x(d_x+1)/2 (Theorem 4's eq. (19) is false: L-Thm4; C(C + D, D) is the corrected
    bound of L-Thm2-corrected, seprank.network_theory.corrected_bounds.corrected_upper)."""
    k = round(math.log(d_x, 3))
    assert 3 ** k == d_x, "illustration needs d_x a power of 3 so that beta_1 L is an integer"
    C, D = num_head_indices(L), d_x * (d_x + 1) // 2
    upper = Fraction(min(thm3_bound(L, H, d_x // H), math.comb(C + D, D)))
    for beta in range(1, max_beta + 1):
        Ls, ws = k + beta, 3 ** beta * d_x
        lower = b2_rank(Ls, ws, H)
        if lower > upper:
            return {"L_deep": L, "d_x_deep": d_x, "H": H, "beta_1": f"{k}/{L}",
                    "deep_in_thm2_regime": thm2_regime(L, d_x), "beta_2": beta,
                    "L_shallow": Ls, "d_x_shallow": ws, "shallower": Ls < L,
                    "shallow_on_boundary_3^L_eq_d_x": 3 ** Ls == ws,
                    "log3_deep_upper": str(log3(upper)), "log3_shallow_b2_rank": str(log3(lower)),
                    "thm2_printed_upper_below_b2_rank": compare_e_monomials(
                        thm2_upper_pow3(L, d_x), (Fraction(lower), 0)),
                    "log_H_log_dx_log_L": f"{math.log(H) * math.log(d_x) * math.log(L):.4g}"}
    return {"L_deep": L, "d_x_deep": d_x, "H": H, "beta_2": None}


COR1 = Claim("corollary",
             "Corollary 1: with probability 1 a random deep network (depth L, width d_x > 3^L) "
             "may be realized by a network of depth L/d and width d_x^shallow = w d_x^shallow "
             "(sic), d, w > 1, only if w ~ exp(exp(d))",
             SRC.cite("sec. 4.1 Cor. 1 l.140-144"), main_result=True, asymptotic=True)


@check("L-Cor1", "depth efficiency: a shallower network needs width factor w ~ exp(exp(d))",
       source=SRC.cite("sec. 4.1 Cor. 1 l.138-144"), depends=("L-Thm1", "L-Thm3"), claim=COR1,
       paper=LEVINE2020)
def l_cor1(ctx):
    with ctx.step("Corollary 1 as printed defines the shallow width by d_x^shallow = w "
                  "d_x^shallow with w > 1 (l.142): no positive width satisfies it",
                  source=SRC.cite("Cor. 1 l.142"), scope="instance",
                  sizes="w = 2, d_x^shallow = 1") as s:
        s.record(printed="d_x^{shallow} = w d_x^{shallow}, w > 1",
                 evident_reading="d_x^{shallow} = w d_x^{deep}")
        s.fail("the printed width relation is self-referential: d = w d with w > 1 forces "
               "d = 0; read d_x^shallow = w d_x^deep",
               counterexample={"w": 2, "d_x_shallow": 1, "w_times_d_x_shallow": 2})

    rows = _cor1_rows(ctx)

    # -- outcome (seprank.proof.claims) --
    erratum_if_failed(ctx, "Corollary 1 as printed", "l.140-142 (Corollary 1, the shallow width)",
                      "d_x^shallow = w d_x^shallow, w > 1", "d_x^shallow = w d_x^deep",
                      "notation", in_statement=True, verified_by="Corrected (d_x^shallow",
                      anchor="Corollary 1", slip="symbol")
    ctx.conclude("open", "instances",
                 "the corollary rests on Theorem 1's lower bound for every deep network of "
                 "width d_x > 3^L and on Theorem 3's upper bound for the shallow one; at the "
                 "illustrated widths d_x = 2 3^L + 2, H = 2 (d_a = 3^L + 1 even, >= 4 for "
                 "L >= 3) Theorem 1's lower bound is proven (B.2 with one head dimension "
                 "unused), while at L = 2 with even d_a and at d_a = 2 it is not decided; the "
                 "rate w ~ exp(exp(d)) is asymptotic, which no finite instance decides; the "
                 "illustration (the exact width factor w of each size) is consistent: log_3 "
                 "log_3 w lies within 1 of L (1 - 1/d)", given=("L-Thm1", "L-Thm3"),
                 count=len(rows) or 1,
                 largest={"L": max(r["L_deep"] for r in rows), "d": max(r["d"] for r in rows),
                          "d_x": max(r["d_x_deep"] for r in rows)}, binding=True)


def _cor1_rows(ctx) -> list[dict]:
    """The corrected reading of Corollary 1 as a necessary condition from the bounds."""
    with ctx.step("Corrected (d_x^shallow = w d_x^deep), as a necessary condition from the "
                  "bounds: the least integer w for which the depth-L/d network's Theorem 3 "
                  "upper bound (w d_x + H)^C(L/d) reaches the deep network's Theorem 1 lower "
                  "bound ((d_x - H)/(2 3^(L-2)))^(3^(L-2)), d_x = 2 3^L + 2, H = 2 (exact: the "
                  "bound increases with w and w - 1 falls short); for L = 12 and d = 2, 3, 4, "
                  "6, log_3 log_3 w lies within 1 of L (1 - 1/d) (rigorous arb balls): w is "
                  "double exponential in the depth",
                  source=SRC.cite("Cor. 1 l.140-144; Thm. 1 eq. (7) l.130"), corrected=True,
                  scope="sizes", sizes="(L, d) in (4, 2), (6, 2), (8, 2), (12, 2..6) (full "
                                       "tier: and (10, 2))") as s:
        rows = []
        fixed_d = [(L, 2, 2 * 3 ** L + 2, 2) for L in (4, 6, 8)]
        vary_d = [(12, d, 2 * 3 ** 12 + 2, 2) for d in (2, 3, 4, 6)]
        if ctx.full:
            fixed_d.append((10, 2, 2 * 3 ** 10 + 2, 2))
        for L, d, d_x, H in fixed_d + vary_d:
            rows.append(cor1_min_width_factor(L, d, d_x, H))
            s.require(rows[-1]["deep_in_thm1_regime"], "deep network outside Thm 1's regime",
                      case=rows[-1])
        for r in rows[len(fixed_d):]:
            ll = r["_ll"]
            target = r["L_deep"] * (1 - Fraction(1, r["d"]))
            gap = ll - flint.arb(flint.fmpq(target.numerator, target.denominator))
            r["log3_log3_w_minus_L(1-1/d)"] = str(gap)
            s.require(ll is not None and arb_le(abs(gap), flint.arb(1)) is True,
                      "log_3 log_3 w is not within 1 of L (1 - 1/d)", case=str(r))
        for r in rows:
            r.pop("_ll")
        s.least("w per (L, d)", {f"(L, d) = ({r['L_deep']}, {r['d']})": r["min_w"]
                                 for r in rows},
                proven_by="(w d_x + H)^C(L/d) increases with w; least_root gives the least "
                          "integer root and cor1_min_width_factor asserts that w - 1 falls "
                          "short")
        s.record(fixed_d_2=rows[:len(fixed_d)], L_12_varying_d=rows[len(fixed_d):])
    return rows


COR2 = Claim("corollary",
             "Corollary 2: past L = log_3 d_x there is beta_2 = O(log H log d_x log L) such "
             "that a network of depth beta_1 L + beta_2 (beta_1 = log_3 d_x / L) and width "
             "3^beta_2 d_x has higher separation rank (eq. (9))",
             SRC.cite("sec. 4.2 Cor. 2 l.164-170"), main_result=True, asymptotic=True)


@check("L-Cor2", "past L = log_3 d_x a shallower, polynomially wider network has higher "
       "separation rank", source=SRC.cite("sec. 4.2 Cor. 2 l.162-170"),
       depends=("L-Thm2-corrected", "L-Thm3", "L-Lemma6", "L-Omega", "L-Claim2", "L-Thm1",
                "L-Thm2"),
       claim=COR2, paper=LEVINE2020)
def l_cor2(ctx):
    rows = _cor2_illustration(ctx)
    _cor2_boundary(ctx)
    err = _cor2_one_head(ctx)
    corrected = _cor2_corrected(ctx, err)

    # -- outcome (seprank.proof.claims) --
    obs = "Observation: with the printed choice"
    boundary = [c for c in ctx.find_step(obs).evidence.get("cases", [])
                if c.get("shallow_on_boundary_3^L_eq_d_x")]
    if boundary and not ctx.failed(obs):
        ctx.erratum("l.164-170 (Corollary 2 and 'follows from theorems 1 and 2')",
                    "L^shallow = beta_1 L^deep + beta_2, d_x^shallow = 3^beta_2 d_x^deep, the "
                    "corollary following from Theorems 1 and 2",
                    "this choice gives 3^(L^shallow) = d_x^shallow exactly, the boundary that "
                    "neither Theorem 1 (L < log_3 d_x) nor Theorem 2 (L > log_3 d_x) covers; "
                    "the argument needs a bound at L = log_3 d_x (B.2's regime-free certified "
                    "rank, as the illustration uses) and, for the deep network, the corrected "
                    "upper bound C(C + D, D) in place of eq. (8)'s (false: L-Thm2)",
                    "proof-error", step=obs, survives=True,
                    repair="B.2's rank ((d, 3^(L_s - 2))) >= 4^(3^(L_s - 2)) for the shallow "
                           "network of odd width 3^(L_s) (one head) against the deep "
                           "network's C(C + D, D) < 3^(D L) (the corrected step)",
                    instance=boundary[0], anchor="Corollary 2",
                    verified_by="Corrected Corollary 2",
                    message="the shallow network of the corollary lies on the boundary "
                            "3^L = d_x, where neither theorem applies, so the corollary does "
                            "not follow from them as stated; at small sizes the 'shallow' "
                            "network is often not shallower")
    ctx.conclude("holds-corrected", "proof",
                 "with H >= 2 (at H = 1 the printed beta_2 is 0 and the corollary fails for "
                 "every d_x = 3^k: step 3): the shallow network of depth L_s and width "
                 "3^(L_s) = 3^beta_2 d_x, one head, has B.2's rank ((d, 3^(L_s - 2))) >= "
                 "4^(3^(L_s - 2)) for almost every weight (odd head dimension: no case of "
                 "Theorem 1 left open is used), the deep network has sep <= C(C + D, D) < "
                 "3^(D L) for every weight, so the first L_s with 4^(3^(L_s - 2)) > 3^(D L) "
                 "works, with beta_2 <= 3 + log_3((d_x + 1) L / (2 log_3 4)) = O(log d_x + "
                 "log L), which is O(log H log d_x log L) for H, L >= 2; the shallow network "
                 "is shallower from a deep depth on (listed per d_x) and its width 3^(L_s) is "
                 f"of order d_x^2 L ({len(corrected)} deep sizes exact; the B.2 illustration "
                 f"on {len(rows)} sizes)", basis="argument",
                 argument_steps=["Corrected Corollary 2"],
                 given=("L-Thm2-corrected", "L-Lemma6", "L-Omega", "L-Claim2"),
                 own_argument="the deep network's bound is L-Thm2-corrected's C(C + D, D), not "
                              "eq. (8) (false, L-Thm2); the shallow network's lower bound is "
                              "B.2's rank at an odd head dimension, not Theorem 1's open cases")


def _cor2_illustration(ctx) -> list[dict]:
    with ctx.step("Illustration: deep networks with L > log_3 d_x (d_x = 9, 27); the least "
                  "integer beta_2 (every beta_2 from 1 up tried) for which the network of depth "
                  "log_3 d_x + beta_2 and width 3^beta_2 d_x has certified rank ((d, 3^(L_s-2))) "
                  "(B.2) above the deep network's smaller proven upper bound min(Thm 3, C(C + "
                  "D, D)) (eq. (19) is false, L-Thm4); beta_2 exists and grows slowly with L",
                  source=SRC.cite("Cor. 2 eq. (9) l.166-168"), scope="sizes",
                  sizes="(d_x, H) in (9, 1), (9, 3), (27, 3), L <= 8 (full tier: L <= 12)") as s:
        rows = []
        Ls = (3, 4, 5, 6, 8) if not ctx.full else (3, 4, 5, 6, 8, 10, 12)
        for d_x, H in ((9, 1), (9, 3), (27, 3)):
            for L in Ls:
                if 3 ** L <= d_x:
                    continue
                rows.append(cor2_min_beta2(L, d_x, H))
                s.require(rows[-1]["beta_2"] is not None, "no beta_2 <= 12 found",
                          case=rows[-1])
        found = {f"(L, d_x, H) = ({r['L_deep']}, {r['d_x_deep']}, {r['H']})": r["beta_2"]
                 for r in rows if r["beta_2"] is not None}
        if found:
            s.least("beta_2 per deep network", found,
                    proven_by="cor2_min_beta2 tries every integer beta_2 from 1 up and "
                              "returns the first that works")
        s.record(cases=rows)
    return rows


def _cor2_boundary(ctx) -> None:
    with ctx.step("Observation: with the printed choice L^shallow = beta_1 L + beta_2 = "
                  "log_3 d_x + beta_2 and d_x^shallow = 3^beta_2 d_x, 3^(L^shallow) = "
                  "d_x^shallow exactly, the boundary that neither Theorem 1 (L < log_3 d_x) "
                  "nor Theorem 2 (L > log_3 d_x) covers; the illustration therefore uses "
                  "B.2's regime-free certified rank; and at these small sizes the 'shallow' "
                  "network is often not shallower",
                  source=SRC.cite("Cor. 2 l.166; Thm. 1 l.128; Thm. 2 l.152"), scope="sizes",
                  sizes="d_x = 9, H = 1, L in 3, 4, 6, 8") as s:
        cases = [cor2_min_beta2(L, 9, 1) for L in (3, 4, 6, 8)]
        on_boundary = [c["shallow_on_boundary_3^L_eq_d_x"] for c in cases]
        s.record(cases=[{k: c[k] for k in ("L_deep", "beta_2", "L_shallow", "d_x_shallow",
                                           "shallower", "shallow_on_boundary_3^L_eq_d_x")}
                        for c in cases])
        s.require(all(on_boundary), "expected the shallow network on the boundary",
                  cases=cases)


def _cor2_one_head(ctx):
    """H = 1: the printed beta_2 = O(log H log d_x log L) is 0, and the corollary fails."""
    with ctx.step("Corollary 2 as printed at H = 1: beta_2 = O(log H log d_x log L) = O(0) "
                  "forces beta_2 = 0, so the 'shallow' network has depth log_3 d_x = k and "
                  "width d_x = 3^k (any head count H_s | d_x). For every k >= 1 and the deep "
                  "depth L = k 3^k + 1: Theorem 3 gives sep(shallow) <= (d_x + H_s)^C(k) <= "
                  "(2 3^k)^((3^k - 1)/2) < 3^((k + 1) 3^k / 2) <= 3^(k 3^k) for every weight, "
                  "while the deep network (one head) has sep >= C(L) + 1 = (3^L + 1)/2 > "
                  "3^(k 3^k) for almost every weight (the family on one channel, y = x_p "
                  "S_pp^C(L), L-Thm2-corrected). So sep(shallow) < sep(deep): the corollary "
                  "fails at every d_x = 3^k, arbitrarily large d_x and L. Cross-check: both "
                  "sides exactly for k <= 5", source=SRC.cite("sec. 4.2 Cor. 2 l.166"),
                  kind="prose", sizes="k <= 5") as s:
        rows = []
        for k in range(1, 6):
            d_x, L = 3 ** k, k * 3 ** k + 1
            shallow = max(thm3_bound(k, H_s, d_x // H_s)
                          for H_s in range(1, d_x + 1) if d_x % H_s == 0)
            deep = num_head_indices(L) + 1
            rows.append({"k": k, "d_x": d_x, "H": 1, "L_deep": L, "L_shallow": k,
                         "log3_shallow_upper": str(log3(shallow)),
                         "log3_deep_lower": str(log3(deep)),
                         "shallow_upper < 3^(k 3^k) < deep_lower":
                             shallow < 3 ** (k * 3 ** k) < deep})
        s.record(cases=rows)
        err = None
        if all(r["shallow_upper < 3^(k 3^k) < deep_lower"] for r in rows):
            err = s.erratum("l.166 (Corollary 2, beta_2)",
                            "beta_2 = O(log(H) log(d_x^deep) log(L^deep))",
                            "beta_2 = O(log d_x + log L) (the corrected step reaches beta_2 <= "
                            "3 + log_3((d_x + 1) L / (2 log_3 4))); this is O(log H log d_x log "
                            "L) only when H, L >= 2: at H = 1 the printed bound forces beta_2 = "
                            "0, the shallow network is as wide as the deep one, and the "
                            "corollary fails",
                            "missing-hypothesis",
                            hypothesis="H >= 2 and L >= 2 (so that log H log d_x log L > 0)",
                            instance=rows[0], anchor="O(log(H)")
        return err


def _cor2_corrected(ctx, err) -> list[dict]:
    with ctx.step("Corrected Corollary 2 (H >= 2, L >= 2; printed shape): for the deep "
                  "network (L, d_x, H) with 3^L > d_x let D = d_x (d_x + 1)/2 and L_s the first "
                  "integer >= 2 with 4^(3^(L_s - 2)) > 3^(D L). The network of depth L_s = "
                  "log_3 d_x + beta_2 and width 3^(L_s) = 3^beta_2 d_x with one head has the "
                  "odd head dimension 3^(L_s), d = (3^(L_s) - 1)/2 and lambda = 3^(L_s - 2): "
                  "B.2 (Lemma 6, the Omega rank, one weight point) gives sep >= ((d, lambda)) "
                  ">= (d/lambda)^lambda >= 4^lambda for almost every weight (d/lambda = 9/2 - "
                  "1/(2 lambda) >= 4), and the deep network has sep <= C(C + D, D) <= (C + "
                  "1)^D < 3^(D L) for every weight (L-Thm2-corrected): so sep(shallow) > "
                  "sep(deep). As L_s is the first such, 3^(L_s - 3) log_3 4 <= D L, so "
                  "beta_2 <= 3 + log_3((d_x + 1) L / (2 log_3 4)) = O(log d_x + log L), "
                  "O(log H log d_x "
                  "log L) for H, L >= 2, and the width 3^(L_s) <= 27 D L / log_3 4 is "
                  "polynomial. The network is shallower (L_s < L) exactly when 4^(3^(L - 3)) > "
                  "3^(D L), which then holds at every larger L (the left side cubes, the right "
                  "side less than triples). Cross-checks (exact): L_s, beta_2 within its "
                  "bound, the first shallow depth the exact ranks reach, and the deep depth from "
                  "which the network is shallower", source=SRC.cite("sec. 4.2 Cor. 2 eq. (9) "
                  "l.164-170"), corrected=True, kind="prose",
                  sizes="deep (d_x, H) in (9, 1), (27, 3), (81, 3), L in 6, 12, 24; "
                        "shallower-from depth for d_x in 3, 9, 27, 81") as s:
        if err is not None:
            s.verifies(err)
        rows = [cor2_odd_width(L, d_x, H) for d_x, H in ((9, 1), (27, 3), (81, 3))
                for L in (6, 12, 24)]
        from_L = {d_x: cor2_shallower_from(d_x) for d_x in (3, 9, 27, 81)}
        s.record(cases=rows, shallower_from_deep_L=from_L)
        s.require(all(r["beta_2_within_bound"] and r["L_s_exact"] <= r["L_s"] for r in rows)
                  and all(from_L.values()), "the corrected corollary fails", cases=rows)
    return rows
