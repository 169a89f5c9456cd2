"""L-Lemma3: the AM-GM inequality for products of multiset coefficients.

Source: levine2020_depth_to_width_self_attention.txt, A.5, Lemma 3 (l.540-548)
and its proof (l.550-565). Why: Theorem 4's proof bounds its count of separable
terms with it (the case n = 2, A.3 l.463-465), so an error here would reach
eq. (19).

Lemma 3 (l.540-548): for integers n >= 1, k >= 1 and r_1..r_k >= 0 with sum M,
``prod_j ((n, r_j)) <= (prod_{t=1}^{n-1} (M/k + t))^k / ((n-1)!)^k``.
Its proof (l.550-565) writes ``((n, r)) = prod_{t=1}^{n-1} (r + t) / (n-1)!``,
applies AM-GM to ``f_t = prod_j (r_j + t)``, and remarks on the value at an
equal split. Every step is checked with exact integers and Fractions.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod

import sympy as sp
from seprank_proofs import LEVINE2020

from seprank.combinatorics import compositions, multiset, num_head_indices
from seprank.papers.levine2020.lemma_bounds import (
    lemma3_equal_split_printed,
    lemma3_lhs,
    lemma3_rhs,
)
from seprank.proof.scaffold import erratum_if_failed, paper_check

PAPER = LEVINE2020
SEED = 20200703


def _tuples(n_max: int, k_max: int, r_max: int):
    """All (n, sorted r-tuple) with 1 <= n <= n_max, 1 <= k <= k_max, 0 <= r_j <= r_max.

    Both sides of Lemma 3 are symmetric in the r_j, so sorted tuples suffice.
    """
    for n in range(1, n_max + 1):
        for k in range(1, k_max + 1):
            for rs in combinations_with_replacement(range(r_max + 1), k):
                yield n, rs


def _step_multiset_as_product(ctx, n_max, r_max):
    """Step 1: ((n, r)) as a product of n - 1 shifted factors."""
    with ctx.step("a multiset coefficient is a product of n-1 shifted factors: "
                  "((n, r)) = C(n + r - 1, r) = prod_{t=1}^{n-1} (r + t) / (n-1)! (sympy: the "
                  "product is RisingFactorial(r + 1, n - 1), symbolic n, r); cross-check: "
                  "exact integers on a range",
                  source=PAPER.cite("l.558-559 (first line of the chain)"),
                  kind="symbolic") as s:
        n_, r_, t_ = sp.symbols("n r t", integer=True, positive=True)

        def product_ratio(shift):
            return sp.combsimp(sp.expand_func(sp.product(r_ + t_ + shift, (t_, 1, n_ - 1))
                                              / (sp.binomial(n_ + r_ - 1, r_)
                                                 * sp.factorial(n_ - 1))))

        ratio = product_ratio(0)
        s.could_fail("product form", lambda shift: sp.simplify(product_ratio(shift)) == 1, 0,
                     {"factors r + t + 1": 1})
        s.require(sp.simplify(ratio) == 1, "the product form fails symbolically",
                  ratio=str(ratio))
        bad = [(n, r) for n in range(1, 3 * n_max) for r in range(0, 6 * r_max)
               if multiset(n, r) * factorial(n - 1) != prod(r + t for t in range(1, n))]
        s.record(n_range=[1, 3 * n_max - 1], r_range=[0, 6 * r_max - 1],
                 cases=(3 * n_max - 1) * 6 * r_max)
        s.require(not bad, "identity fails", counterexample=bad[:1])


def _step_am_gm_per_shift(ctx, n_max, k_max, r_max):
    """Step 2: AM-GM for each shift t, over both ranges of t."""
    with ctx.step("AM-GM for each shift: f_t = prod_j (r_j + t) <= (M/k + t)^k, the mean of "
                  "the k numbers r_j + t being M/k + t (sympy, symbolic k); AM-GM is Jensen's "
                  "inequality for the log, concave as (log x)'' = -1/x^2 < 0 (sympy); the "
                  "proof needs t = 1..n-1 (it prints the range as t in [k]), so both ranges "
                  "are also checked exactly on a range", source=PAPER.cite("l.552-554"),
                  kind="prose") as s:
        k_, j_, t_ = sp.symbols("k j t", integer=True, positive=True)
        x_ = sp.Symbol("x", positive=True)
        rr = sp.IndexedBase("r")
        mean = sp.simplify(sp.Sum(rr[j_] + t_, (j_, 1, k_)) / k_
                           - (sp.Sum(rr[j_], (j_, 1, k_)) / k_ + t_))
        concave = sp.diff(sp.log(x_), x_, 2)
        s.require(mean == 0 and concave == -1 / x_ ** 2, "the AM-GM facts fail",
                  mean=str(mean), second_derivative=str(concave))
        cases, bad = 0, []
        for n, rs in _tuples(n_max, k_max, r_max):
            k, M = len(rs), sum(rs)
            for t in range(1, max(k, n - 1) + 1):
                cases += 1
                if prod(r + t for r in rs) * k**k > (M + k * t) ** k:
                    bad.append({"n": n, "r": list(rs), "t": t})
        s.record(cases=cases, n_max=n_max, k_max=k_max, r_max=r_max)
        s.require(not bad, "AM-GM step fails", counterexample=bad[:1])


def _step_lemma3_exhaustive(ctx, n_max, k_max, r_max):
    """Step 3: Lemma 3 on the exhaustive range; returns (n, rs, lhs == rhs) per tuple."""
    with ctx.step("Lemma 3 as printed holds on every tuple of the exhaustive range, with "
                  "exact rationals", source=PAPER.cite("l.544-548"), scope="sizes",
                  sizes=f"n <= {n_max}, k <= {k_max}, r_j <= {r_max}") as s:
        cases, equal, bad = 0, 0, []
        max_ratio, at = Fraction(0), None
        equality_seen = []  # (n, rs, lhs == rhs), reused by the next step
        for n, rs in _tuples(n_max, k_max, r_max):
            lhs, rhs = lemma3_lhs(n, rs), lemma3_rhs(n, rs)
            cases += 1
            equality_seen.append((n, rs, lhs == rhs))
            if lhs > rhs:
                bad.append({"n": n, "r": list(rs), "lhs": lhs, "rhs": rhs})
                continue
            ratio = lhs / rhs
            if ratio == 1:
                equal += 1
            elif ratio > max_ratio:
                max_ratio, at = ratio, {"n": n, "r": list(rs)}
        s.record(cases=cases, equality_cases=equal,
                 largest_ratio_lhs_over_rhs_below_1=max_ratio, attained_at=at,
                 n_range=[1, n_max], k_range=[1, k_max], r_range=[0, r_max])
        s.require(not bad, "Lemma 3 fails", counterexample=bad[:1])
    return equality_seen


def _step_equality_cases(ctx, equality_seen):
    """Step 4: equality exactly in the AM-GM equality case."""
    with ctx.step("equality holds exactly when n = 1 or all r_j are equal (the AM-GM equality "
                  "case); otherwise the inequality is strict",
                  source=PAPER.cite("l.554, l.561-565"), scope="sizes",
                  sizes="the tuples of the exhaustive range") as s:
        wrong = [{"n": n, "r": list(rs), "equal": eq} for n, rs, eq in equality_seen
                 if eq != (n == 1 or len(set(rs)) == 1)]
        s.record(cases_checked=len(equality_seen))
        s.require(not wrong, "equality case differs from the AM-GM prediction",
                  counterexample=wrong[:1])


def _step_random_search(ctx):
    """Step 5: a seeded random search beyond the exhaustive range."""
    with ctx.step("seeded random search for counterexamples over a larger range "
                  "(n <= 40, k <= 12, r_j <= 300; half of the samples near-equal r_j, "
                  "where the slack is smallest)", source=PAPER.cite("l.544-548"),
                  scope="sizes", sizes="n <= 40, k <= 12, r_j <= 300, seeded samples") as s:
        rng = random.Random(SEED)
        samples = 20000 if ctx.full else 1500
        bad, worst, worst_at = [], Fraction(0), None
        for i in range(samples):
            n, k = rng.randint(1, 40), rng.randint(1, 12)
            if i % 2:
                base = rng.randint(0, 300)
                rs = [max(0, base + rng.randint(-2, 2)) for _ in range(k)]
            else:
                rs = [rng.randint(0, 300) for _ in range(k)]
            lhs, rhs = lemma3_lhs(n, rs), lemma3_rhs(n, rs)
            if lhs > rhs:
                bad.append({"n": n, "r": rs})
            elif lhs != rhs and lhs / rhs > worst:
                worst, worst_at = lhs / rhs, {"n": n, "r": rs}
        s.record(seed=SEED, samples=samples, largest_ratio_below_1=worst,
                 largest_ratio_float=float(worst), attained_at=worst_at)
        s.require(not bad, "random search found a counterexample", counterexample=bad[:1])


def _equal_splits(n_max, k_max, r_max):
    """(n, k, q) with k | M = k q, in the order n, then k, then M ascending."""
    for n in range(1, n_max + 1):
        for k in range(1, k_max + 1):
            for q in range(0, r_max + 1):
                yield n, k, q


def _step_closing_remark_printed(ctx, n_max, k_max, r_max):
    """Step 6: the closing remark's last equality as printed (it drops 1/((n-1)!)^k)."""
    with ctx.step("the proof's closing remark as printed: for k | M, "
                  "phi(M/k, ..., M/k) = (prod_{t=1}^{n-1} (M/k + t))^k (no factorial)",
                  source=PAPER.cite("l.561-563 (last equality)"), scope="sizes",
                  sizes=f"n <= {n_max}, k <= {k_max}, M/k <= {r_max}") as s:
        first, fails, cases = None, 0, 0
        for n, k, q in _equal_splits(n_max, k_max, r_max):
            M = k * q
            cases += 1
            value = lemma3_lhs(n, [q] * k)
            printed = lemma3_equal_split_printed(n, k, M)
            if value != printed:
                fails += 1
                if first is None:
                    first = {"n": n, "k": k, "M": M, "phi": value,
                             "printed_value": printed}
        s.record(cases=cases, failing_cases=fails,
                 search_order="n, then k, then M ascending")
        if first is not None:
            s.fail("the printed last equality drops the factor 1/((n-1)!)^k; it fails "
                   "whenever n >= 3", smallest_counterexample=first)


def _step_closing_remark_corrected(ctx, n_max, k_max, r_max):
    """Step 7: the closing remark with the factor 1/((n-1)!)^k."""
    with ctx.step("corrected closing remark: for k | M, phi(M/k, ..., M/k) equals the bound "
                  "of Lemma 3 including the factor 1/((n-1)!)^k",
                  source=PAPER.cite("l.563 (middle members of the chain)"), corrected=True,
                  scope="sizes", sizes=f"n <= {n_max}, k <= {k_max}, M/k <= {r_max}") as s:
        bad, cases = [], 0
        for n, k, q in _equal_splits(n_max, k_max, r_max):
            cases += 1
            corrected = lemma3_equal_split_printed(n, k, k * q) \
                / Fraction(factorial(n - 1)) ** k
            if lemma3_lhs(n, [q] * k) != corrected:
                bad.append({"n": n, "k": k, "M": k * q})
        s.record(cases=cases)
        s.require(not bad, "corrected equality fails", counterexample=bad[:1])


def _step_theorem4_use(ctx):
    """Step 8: the case n = 2 that Theorem 4 uses, over every split of the powers."""
    with ctx.step("the use in Theorem 4 (n = 2): for every split of 2C(L) powers among "
                  "d_x coordinates, prod_m (n_m + 1) <= (2C(L)/d_x + 1)^{d_x}",
                  source=PAPER.cite("l.463"), scope="sizes", sizes="L <= 2, d_x <= 6") as s:
        cases, bad, tight = 0, [], []
        for L in (1, 2):
            C = num_head_indices(L)
            for d_x in range(1, 7 if ctx.full else 6):
                bound = (Fraction(2 * C, d_x) + 1) ** d_x
                best = 0
                for comp in compositions(2 * C, d_x):
                    cases += 1
                    value = prod(x + 1 for x in comp)
                    best = max(best, value)
                    if value > bound:
                        bad.append({"L": L, "d_x": d_x, "powers": list(comp)})
                tight.append({"L": L, "d_x": d_x, "max_product": best, "bound": bound})
        s.record(compositions_checked=cases, max_product_vs_bound=tight)
        s.require(not bad, "the Theorem 4 use of Lemma 3 fails", counterexample=bad[:1])


def _errata(ctx):
    """The printed range of t in the AM-GM display (a step and its erratum), and the
    closing remark's erratum when its printed step failed."""
    rng_step = "the printed range of the AM-GM display"
    with ctx.step(rng_step + ", 'for all t in [k]' (l.554), is the range the chain uses "
                  "(t = 1..n-1, l.556-559)", source=PAPER.cite("l.554, l.556-559"),
                  scope="instance", sizes="n = 3, k = 1") as s:
        s.record(failing_instance={"n": 3, "k": 1, "t_printed": [1], "t_used": [1, 2]})
    ctx.erratum("l.554 (AM-GM display)", "for all t in [k]", "for all t in [n-1]",
                "notation", step=rng_step, verified_by="AM-GM for each shift", slip="range",
                anchor="\\forall t\\in\\text{$\\left[k\\right]$",
                instance={"n": 3, "k": 1},
                message="the chain multiplies f_t over t = 1..n-1, while the display bounds "
                        "f_t only for t in [k]; with n - 1 > k (e.g. n = 3, k = 1) f_2 is not "
                        "covered; step 2 checks both ranges")
    erratum_if_failed(ctx, "the proof's closing remark as printed",
                      "l.561-563 (closing remark, last equality)",
                      "phi(M/k, ..., M/k) = (prod_{t=1}^{n-1} (M/k + t))^k",
                      "phi(M/k, ..., M/k) = (prod_{t=1}^{n-1} (M/k + t))^k / ((n-1)!)^k",
                      "constant", verified_by="corrected closing remark", slip="constant",
                      anchor="\\left(\\left(n-1\\right)!\\right)^{k}")


@paper_check(LEVINE2020, "L-Lemma3", "AM-GM inequality for products of multiset coefficients",
             where="A.5 l.540-566", claim_where="A.5 l.540-548", kind="lemma",
             statement="Lemma 3: prod_j ((n, r_j)) <= (prod_{t=1}^{n-1} (M/k + t))^k / "
                       "((n-1)!)^k, M = sum_j r_j")
def l_lemma3(ctx):
    n_max, k_max, r_max = (12, 7, 12) if ctx.full else (9, 5, 9)
    _step_multiset_as_product(ctx, n_max, r_max)
    _step_am_gm_per_shift(ctx, n_max, k_max, r_max)
    equality_seen = _step_lemma3_exhaustive(ctx, n_max, k_max, r_max)
    _step_equality_cases(ctx, equality_seen)
    _step_random_search(ctx)
    _step_closing_remark_printed(ctx, n_max, k_max, r_max)
    _step_closing_remark_corrected(ctx, n_max, k_max, r_max)
    _step_theorem4_use(ctx)

    # -- outcome (seprank.proof.claims) --
    _errata(ctx)
    ctx.conclude("holds", "proof",
                 "((n, r)) = prod_{t<n} (r + t)/(n-1)! (step 1, symbolic) and AM-GM for each t "
                 "(step 2: the mean symbolic, Jensen for the concave log) multiply to the bound "
                 "for every n, k, r; exact checks on an exhaustive range confirm it; the errata "
                 "are in the proof's display and closing remark", basis="argument",
                 argument_steps=("a multiset coefficient is a product", "AM-GM for each shift"))
