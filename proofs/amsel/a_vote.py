"""A-vote: a random rank-1 hardmax head guesses the nearest of two targets with probability
about 1/2 + c/sqrt(d); a majority vote of many such heads, tallied in extra dimensions, is
a two-layer rank-1 construction for N = 2.

Source: amsel_benefits_of_rank_talk.txt, "Modified Attention Construction: L = 2, N = 2",
l.781-831. The head is hm(X^T q q^T y) (l.793); the vote is tallied with an index
coordinate (+1 for x_1, -1 for x_2) and a scratchpad coordinate (l.815-819); layer 2 looks
up the target whose index sign matches the tally (l.831). Why: it is the talk's answer to
the one-layer lower bound (A-Thm2): with a second layer, rank-1 heads solve N = 2.

Analysis used here (our own): with u = x_1 - x_2 the head picks x_1 iff
sign(q^T u) = sign(q^T y); for Gaussian q the pair (q^T u, q^T y) is rotation invariant in
span(u, y), so the head is right with probability 1/2 + arcsin|rho| / pi, rho the cosine of
the angle between u and y. For y uniform on S^{d-1}, rho has density proportional to
(1 - rho^2)^((d-3)/2) whatever x_1, x_2 are.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache

import mpmath
import numpy as np
import sympy
from seprank_proofs import AMSEL

import seprank
from seprank.papers.amsel.nearest_neighbor import (
    dot,
    hardmax_head,
    random_rational_sphere_point,
)
from seprank.proof import Claim, check

SRC = AMSEL
Z999 = 3.2905267314919255  # two-sided 99.9% normal quantile


def _wilson(k: int, n: int, z: float = Z999) -> tuple[float, float]:
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h


@cache
def _p_exact_sympy(d: int):
    """1/2 + E[arcsin|rho|]/pi in closed form (rho = sin theta, theta in [0, pi/2])."""
    th = sympy.symbols("theta")
    n = d - 2
    num = sympy.integrate(th * sympy.cos(th) ** n, (th, 0, sympy.pi / 2))
    den = sympy.integrate(sympy.cos(th) ** n, (th, 0, sympy.pi / 2))
    return sympy.nsimplify(sympy.Rational(1, 2) + sympy.simplify(num / den) / sympy.pi)


def _p_quad(d: int) -> mpmath.mpf:
    """The same expectation by mpmath quadrature (for large d)."""
    n = d - 2
    num = mpmath.quad(lambda t: t * mpmath.cos(t) ** n, [0, mpmath.pi / 2])
    den = mpmath.quad(lambda t: mpmath.cos(t) ** n, [0, mpmath.pi / 2])
    return mpmath.mpf(1) / 2 + num / den / mpmath.pi


def _hoeffding_bound(d: int, H: int) -> mpmath.mpf:
    """1 - E[exp(-2H (arcsin|rho|/pi)^2)]: a lower bound on the majority's success for odd H
    (Hoeffding for H independent votes, each right w.p. 1/2 + arcsin|rho|/pi)."""
    n = d - 2
    cut = min(mpmath.pi / 2, 10 / mpmath.sqrt(H))
    num = mpmath.quad(lambda t: mpmath.exp(-2 * H * (t / mpmath.pi) ** 2) * mpmath.cos(t) ** n,
                      [0, cut, mpmath.pi / 2])
    den = mpmath.quad(lambda t: mpmath.cos(t) ** n, [0, mpmath.pi / 2])
    return 1 - num / den


def _e_abs_rho(d: int):
    """E|rho| for y uniform on S^{d-1}: Gamma(d/2) / (sqrt(pi) Gamma((d+1)/2))."""
    return sympy.gamma(sympy.Rational(d, 2)) / (sympy.sqrt(sympy.pi)
                                                * sympy.gamma(sympy.Rational(d + 1, 2)))


def _unit_rows(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    g = rng.standard_normal((n, d))
    return g / np.linalg.norm(g, axis=1, keepdims=True)


CLAIM_A_VOTE = Claim("claim",
                     "a random rank-1 hardmax head hm(X^T q q^T y) guesses correctly with "
                     "probability ~ 1/2 + 1/sqrt(d) (l.793, as printed); a majority of H such "
                     "heads is right with high probability",
                     SRC.cite("l.781-831"))

@check(id="A-vote", title="random rank-1 hardmax vote: 1/2 + 1/sqrt(d) as printed, 1/2 + "
       "0.254/sqrt(d) in fact; majority for N = 2",
       source=SRC.cite("l.781-831"), depends=("A-nn",),
       claim=CLAIM_A_VOTE, paper=AMSEL)
def a_vote(ctx):
    n_mc = 200_000 if ctx.full else 40_000
    dims = [4, 16, 64, 256, 1024] if ctx.full else [4, 16, 64, 256]

    _exact_success_probability(ctx)
    _printed_constant(ctx)
    _monte_carlo_matches_the_exact_probability(ctx, dims, n_mc)
    _majority_vote_computes_the_tally(ctx)
    _majority_of_heads_is_correct_whp(ctx)

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds-corrected", "proof",
                 "the printed constant 1 is wrong (step 2: p(3) = 0.682 < 1/2 + 1/sqrt 3, and "
                 "sqrt(d)(p(d) - 1/2) -> sqrt(2)/pi^(3/2) ~ 0.254); corrected, step 1's "
                 "argument: p(d) = 1/2 + E[arcsin|rho|]/pi exactly, and |rho| <= "
                 "arcsin|rho| <= (pi/2)|rho| sandwiches p(d) - 1/2 between multiples of "
                 "E|rho| = Gamma(d/2)/(sqrt(pi) Gamma((d+1)/2)) ~ sqrt(2/(pi d)), so "
                 "p(d) = 1/2 + Theta(1/sqrt(d)); given the inputs the H votes are independent, "
                 "so Hoeffding bounds the majority's error by E[exp(-2H (arcsin|rho|/pi)^2)] "
                 "-> 0 (step 4); the Monte Carlo steps only illustrate", basis="argument",
                 argument_steps=["Exact success probability", "The majority-vote construction"])


def _exact_success_probability(ctx):
    with ctx.step("Exact success probability: p(d) = 1/2 + E[arcsin|rho|]/pi in closed form "
                  "(sympy) for d = 3..8, and (1/pi) E|rho| <= p(d) - 1/2 <= (1/2) E|rho| with "
                  "E|rho| = Gamma(d/2)/(sqrt(pi) Gamma((d+1)/2)) ~ sqrt(2/(pi d)), so "
                  "p(d) - 1/2 = Theta(1/sqrt(d)), and sqrt(d)(p(d) - 1/2) -> sqrt(2)/pi^(3/2) "
                  "(arcsin|rho|/|rho| -> 1 where rho concentrates, |rho| ~ 1/sqrt(d))",
                  source=SRC.cite("l.793"), corrected=True, kind="prose",
                  sizes="closed forms d = 3..8; quadrature d <= 4096") as s:
        rows = []
        for d in range(3, 9):
            p = _p_exact_sympy(d)
            e = _e_abs_rho(d)
            lo, hi = e / sympy.pi, e / 2
            ok = bool(sympy.N(p - sympy.Rational(1, 2) - lo, 50) >= 0
                      and sympy.N(hi - (p - sympy.Rational(1, 2)), 50) >= 0)
            rows.append({"d": d, "p_exact": str(p), "p_float": float(p),
                         "sqrt_d_times_excess": float(sympy.sqrt(d) * (p - sympy.Rational(1, 2))),
                         "sandwich_holds": ok})
            s.require(ok, "sandwich failed", counterexample=rows[-1])
        c_lim = math.sqrt(2) / math.pi ** 1.5
        large = {d: float(mpmath.sqrt(d) * (_p_quad(d) - mpmath.mpf(1) / 2))
                 for d in (64, 256, 1024, 4096)}
        s.record(rows=rows, limit_constant=c_lim, sqrt_d_excess_by_quadrature=large,
                 sandwich_argument="|rho| <= arcsin|rho| <= (pi/2)|rho|",
                 constant_note="the printed constant 1 ('~ 1/2 + 1/sqrt(d)') is wrong: the "
                               "limit constant is sqrt(2)/pi^1.5 ~ 0.254 (next step); the order "
                               "of growth 1/sqrt(d) holds")


def _printed_constant(ctx):
    """The printed '~ 1/2 + 1/sqrt(d)': constant 1, against the exact p(d)."""
    with ctx.step("the printed constant: '~ 1/2 + 1/sqrt(d)' (l.793) with constant 1 is no "
                  "probability at d = 3 (1/2 + 1/sqrt 3 > 1) while the exact p(3) = 0.682..., "
                  "and sqrt(d)(p(d) - 1/2) tends to sqrt(2)/pi^(3/2) ~ 0.254, not 1 (exact "
                  "closed forms d = 3..8; the limit by step 1)", source=SRC.cite("l.793"),
                  kind="computation", sizes="d = 3..8") as s:
        rows = []
        for d in range(3, 9):
            p = _p_exact_sympy(d)
            printed = sympy.Rational(1, 2) + 1 / sympy.sqrt(d)
            rows.append({"d": d, "p_exact": str(p), "p_exact_float": f"{float(p):.4f}",
                         "printed_1/2+1/sqrt(d)": f"{float(printed):.4f}",
                         "printed_minus_exact_positive": bool(sympy.N(printed - p, 50) > 0)})
        s.record(rows=rows, limit_constant=f"{math.sqrt(2) / math.pi ** 1.5:.4f}")
        if all(r["printed_minus_exact_positive"] for r in rows):
            err = s.erratum("l.793, l.797, l.802, l.812, l.823 (one slide, repeated)",
                            "guesses correctly w.p. ~ 1/2 + 1/sqrt(d)",
                      "w.p. 1/2 + c(d)/sqrt(d) with c(d) -> sqrt(2)/pi^(3/2) ~ 0.254 (p(3) = "
                      "0.682, not 1/2 + 1/sqrt 3 = 1.077); the order 1/2 + Theta(1/sqrt(d)) "
                      "holds", "constant", in_statement=True, instance=rows[0],
                      anchor="sqrt{d}", slip="constant")
            ctx.find_step("Exact success").verifies.append(err)


def _monte_carlo_matches_the_exact_probability(ctx, dims, n_mc):
    with ctx.step("Monte Carlo (seeded, full-dimensional q, x_1, x_2, y uniform): the observed "
                  "success rate of hm(X^T q q^T y); test: the exact p(d) lies in each 99.9% "
                  "Wilson interval, and the interval for p - 1/2 excludes 0",
                  source=SRC.cite("l.793")) as s:
        s.set_scope("sizes", f"d in {dims}, {n_mc} samples each (Monte Carlo)")
        rng = np.random.default_rng(20240607)
        rows = []
        for d in dims:
            x1, x2, y = (_unit_rows(rng, n_mc, d) for _ in range(3))
            q = rng.standard_normal((n_mc, d))
            qy = np.einsum("ij,ij->i", q, y)
            pick1 = np.einsum("ij,ij->i", x1 - x2, q) * qy >= 0
            truth1 = np.einsum("ij,ij->i", x1 - x2, y) >= 0
            k = int(np.sum(pick1 == truth1))
            lo, hi = _wilson(k, n_mc)
            p_ref = float(_p_quad(d))
            row = {"d": d, "n": n_mc, "rate": k / n_mc, "ci999": [lo, hi], "p_exact": p_ref,
                   "sqrt_d_excess_ci": [math.sqrt(d) * (lo - .5), math.sqrt(d) * (hi - .5)]}
            rows.append(row)
            s.require(lo <= p_ref <= hi, "exact p(d) outside the 99.9% interval",
                      counterexample=row)
            s.require(lo > 0.5, "no significant advantage over 1/2", counterexample=row)
        s.record(rows=rows, test="per-d two-sided 99.9% Wilson score interval",
                 seed=20240607)


def _majority_vote_computes_the_tally(ctx):
    with ctx.step("The majority-vote construction (rank-1 attention matrices, tokens "
                  "[x1; 1; 0], [x2; -1; 0], [y; 0; 0]) computes, exactly on rational points "
                  "with integer q_h, the target whose index sign matches the tally of the "
                  "votes; layer 2 returns x_1 iff the tally is positive",
                  source=SRC.cite("l.815-831"), scope="sizes",
                  sizes="60 rational instances, d <= 5, H <= 7") as s:
        rr = random.Random(11)
        bad, done, rank_m = [], 0, set()
        for _ in range(60):
            d, H = rr.randint(2, 5), rr.choice([1, 3, 5, 7])
            x1, x2, y = (random_rational_sphere_point(rr, d) for _ in range(3))
            D = d + 2
            z1 = x1 + [Fraction(1), Fraction(0)]
            z2 = x2 + [Fraction(-1), Fraction(0)]
            z3 = y + [Fraction(0), Fraction(0)]
            tally, direct = Fraction(0), Fraction(0)
            W1 = [[Fraction(int(i == d + 1 and j == d)) for j in range(D)] for i in range(D)]
            for _h in range(H):
                q = [Fraction(rr.randint(-5, 5)) for _ in range(d)] + [Fraction(0)] * 2
                M = [[q[i] * q[j] for j in range(D)] for i in range(D)]
                rank_m.add(seprank.rank([[int(v) for v in row] for row in M]).value)
                tally += hardmax_head([z1, z2], z3, M, W1)[d + 1]
                s1, s2 = dot(x1, q[:d]) * dot(q[:d], y), dot(x2, q[:d]) * dot(q[:d], y)
                direct += 1 if s1 > s2 else (-1 if s1 < s2 else 0)
            z3b = z3[:d + 1] + [z3[d + 1] + tally]
            M2 = [[Fraction(int(i == d and j == d + 1)) for j in range(D)] for i in range(D)]
            W2 = [[Fraction(int(i == j and i < d)) for j in range(D)] for i in range(D)]
            out = hardmax_head([z1, z2], z3b, M2, W2)[:d]
            mid = [(a + b) / 2 for a, b in zip(x1, x2, strict=True)]
            want = x1 if tally > 0 else (x2 if tally < 0 else mid)
            done += 1
            if out != want or tally != direct:
                bad.append({"d": d, "H": H, "tally": str(tally), "direct": str(direct)})
        s.record(instances=done, failures=bad[:1], ranks_of_layer1_M=sorted(rank_m),
                 layer2={"M": "e_index e_scratch^T (rank 1)",
                         "W": "copies the d x-coordinates (rank d; equivalently d heads with "
                              "rank-1 W sharing the rank-1 M)"},
                 attention_over="the targets x_1, x_2 only (y is the query), as in the talk's "
                                "source/target setup l.491; a tied head casts vote 0")
        s.require(not bad, "construction output differs from the majority vote",
                  counterexample=bad[:1])
        s.require(rank_m <= {0, 1}, "a layer-1 attention matrix has rank > 1")


def _majority_of_heads_is_correct_whp(ctx):
    with ctx.step("Majority of H random rank-1 heads is correct with high probability: Monte "
                  "Carlo (2-d reduction of q onto span(u, y), exact in distribution) with "
                  "99.9% Wilson intervals; success grows towards 1 with H",
                  source=SRC.cite("l.798"), scope="sizes",
                  sizes="d in (16, 64), H <= 10001 (Monte Carlo)") as s:
        rng = np.random.default_rng(99)
        n = 4000 if ctx.full else 2000
        rows = []
        for d in (16, 64):
            for H in (1, 11, 101, 1001, 10001):
                # rho for y uniform on S^{d-1}: first coordinate of a uniform point
                rho = _unit_rows(rng, n, d)[:, 0]
                theta = np.arccos(rho)  # angle between u and y
                done = np.zeros(n)
                chunk = 200
                for a in range(0, n, chunk):
                    b = min(n, a + chunk)
                    g = rng.standard_normal((b - a, H, 2))
                    qu = g[:, :, 0]
                    qy = (np.cos(theta[a:b])[:, None] * g[:, :, 0]
                          + np.sin(theta[a:b])[:, None] * g[:, :, 1])
                    votes = np.sign(qu * qy)  # +1: picks x_1
                    tally = votes.sum(axis=1)
                    done[a:b] = np.sign(tally) == np.sign(rho[a:b])
                k = int(done.sum())
                lo, hi = _wilson(k, n)
                rows.append({"d": d, "H": H, "n": n, "rate": k / n, "ci999": [lo, hi]})
        s.record(rows=rows, seed=99, note="u = x_1 - x_2; the truth is sign(rho)",
                 test="per-(d, H) 99.9% Wilson interval must reach the Hoeffding lower bound "
                      "1 - E[exp(-2H (arcsin|rho|/pi)^2)] (quadrature); rates must rise with "
                      "H (interval at H = 10001 above the one at H = 1)",
                 scaling="the bound tends to 1 as H grows; failure ~ sqrt(d/H), so 'high "
                         "probability' needs H >> d")
        for row in rows:
            row["hoeffding_lower_bound"] = float(_hoeffding_bound(row["d"], row["H"]))
            s.require(row["ci999"][1] >= row["hoeffding_lower_bound"],
                      "Monte Carlo rate significantly below the Hoeffding lower bound",
                      counterexample=row)
        for d in (16, 64):
            rs = [r for r in rows if r["d"] == d]
            s.require(rs[-1]["ci999"][0] > rs[0]["ci999"][1],
                      "majority vote did not improve with H", counterexample=rs)
