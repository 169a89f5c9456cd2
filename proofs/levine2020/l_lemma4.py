"""L-Lemma4: the multiset coefficient bound ((n, k)) <= (2e(n+k)/n)^n.

Source: levine2020_depth_to_width_self_attention.txt, A.5, Lemma 4 (l.567-569)
and its proof, a chain through the textbook bound C(N, K) <= (e N/K)^K
(l.571-576). Why: Theorem 2's upper bound follows from Theorem 4's by this
lemma (eq. (20), A.3 l.469-476).

Every comparison is exact: e enters only through the certified rational
enclosure ``S_m < e < S_m + 1/(m! m)`` of :func:`seprank.scalars.enclosures.e_bounds`
(so ``(2e(n+k)/n)^n >= (2 S_m (n+k)/n)^n`` is a certified lower bound of the
right-hand side). arb balls are used only to report how loose the bound is.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import flint
from seprank_proofs import LEVINE2020

from seprank.combinatorics import multiset
from seprank.papers.levine2020.lemma_bounds import binomial_upper_e, lemma4_holds, lemma4_rhs_log3
from seprank.proof.scaffold import paper_check
from seprank.scalars.enclosures import arb_of, compare_e_monomials, e_bounds, log3

PAPER = LEVINE2020
SEED = 20200704


def _decide_all(pairs, decide):
    """Run ``decide`` on each pair; split into failures and undecided cases."""
    failed, undecided = [], []
    for pair in pairs:
        verdict = decide(*pair)
        if verdict is False:
            failed.append(pair)
        elif verdict is None:
            undecided.append(pair)
    return failed, undecided


def _require_decided(s, failed, undecided, message):
    """Fail the step on the first failure; without one, undecided cases leave it open."""
    s.require(not failed, message, counterexample=failed[:1])
    if undecided and not failed:
        s.inconclusive("e enclosure too coarse", undecided=undecided[:5])


def _step_enclosure_of_e(ctx, lo, hi):
    """Step 1: the rational enclosure of e that every comparison uses."""
    with ctx.step("the rational enclosure S_14 < e < S_14 + 1/(14! * 14) is certified "
                  "(positive series tail; cross-checked against arb's e)",
                  source="series e = sum 1/j!; used for every comparison with e below",
                  kind="exhaustive") as s:
        e = flint.arb.const_e()
        s.record(e_lower=lo, e_upper=hi, width=hi - lo, e_lower_float=float(lo))
        s.require(lo < hi and arb_of(lo) < e and e < arb_of(hi),
                  "the enclosure does not contain e")


def _step_binomial_bound(ctx, bounds):
    """Step 2: the textbook bound C(N, K) <= (e N / K)^K."""
    with ctx.step("the textbook bound the proof uses: C(N, K) <= (e N / K)^K for 1 <= K <= N",
                  source=PAPER.cite("l.573"), scope="sizes",
                  sizes="N <= 70 (full tier: N <= 200)") as s:
        N_max = 200 if ctx.full else 70
        pairs = [(N, K) for N in range(1, N_max + 1) for K in range(1, N + 1)]
        failed, undecided = _decide_all(pairs, lambda N, K: binomial_upper_e(N, K, bounds))
        s.record(cases=len(pairs), N_range=[1, N_max])
        _require_decided(s, failed, undecided, "C(N, K) <= (eN/K)^K fails")


def _chain_links(n, k, bounds):
    """The two links of the proof's chain at (n, k): [(link, verdict)], or None when the
    identity ((n, k)) = C(n+k-1, n-1) itself fails."""
    if multiset(n, k) != comb(n + k - 1, n - 1):
        return None
    middle = (Fraction(n + k - 1, n - 1) ** (n - 1), n - 1)
    right = (Fraction(2 * (n + k), n) ** n, n)
    first = compare_e_monomials((Fraction(comb(n + k - 1, n - 1)), 0), middle, bounds)
    second = compare_e_monomials(middle, right, bounds)
    return [("binomial bound", first), ("middle <= right", second)]


def _step_proof_chain(ctx, bounds, n_max, k_max):
    """Step 3: each link of the chain of l.573-575, decided exactly."""
    with ctx.step("the proof's chain for n >= 2: ((n, k)) = C(n+k-1, n-1) <= "
                  "(e (n+k-1)/(n-1))^{n-1} <= (2e(n+k)/n)^n, each link decided exactly",
                  source=PAPER.cite("l.573-575"), scope="sizes",
                  sizes=f"2 <= n <= {n_max}, k <= {k_max}") as s:
        failed, undecided, cases = [], [], 0
        for n in range(2, n_max + 1):
            for k in range(0, k_max + 1):
                cases += 1
                links = _chain_links(n, k, bounds)
                if links is None:
                    failed.append({"n": n, "k": k, "link": "identity"})
                    continue
                for link, verdict in links:
                    if verdict is False:
                        failed.append({"n": n, "k": k, "link": link})
                    elif verdict is None:
                        undecided.append({"n": n, "k": k, "link": link})
        s.record(cases=cases, n_range=[2, n_max], k_range=[0, k_max])
        _require_decided(s, failed, undecided, "a link of the proof's chain fails")


def _step_lemma4_range(ctx, bounds, n_max, k_max):
    """Step 4: Lemma 4 as printed on the whole range, with the smallest log gap."""
    with ctx.step("Lemma 4 as printed holds on the whole range (n >= 1, k >= 0), exactly; "
                  "the evidence reports how close ((n,k)) comes to the bound",
                  source=PAPER.cite("l.567-569"), scope="sizes",
                  sizes=f"n <= {n_max}, k <= {k_max}") as s:
        pairs = [(n, k) for n in range(1, n_max + 1) for k in range(0, k_max + 1)]
        failed, undecided = _decide_all(pairs, lambda n, k: lemma4_holds(n, k, bounds))
        gaps = [(lemma4_rhs_log3(n, k) - log3(multiset(n, k)), n, k)
                for n, k in pairs if (n <= 20 or n % 10 == 0)]
        smallest = min(gaps, key=lambda g: g[0].mid())
        s.record(cases=len(pairs), n_range=[1, n_max], k_range=[0, k_max],
                 smallest_log3_gap=str(smallest[0]), smallest_gap_at={"n": smallest[1],
                                                                      "k": smallest[2]},
                 gap_sampled_on="n <= 20 or n divisible by 10")
        _require_decided(s, failed, undecided, "Lemma 4 fails")


def _step_random_large(ctx, bounds):
    """Step 5: seeded spot checks with n, k up to 3000."""
    with ctx.step("seeded random spot checks with large n and k (up to 3000), exact",
                  source=PAPER.cite("l.567-569"), scope="sizes",
                  sizes="seeded samples with n, k <= 3000") as s:
        rng = random.Random(SEED)
        samples = 200 if ctx.full else 25
        pairs = [(rng.randint(1, 3000), rng.randint(0, 3000)) for _ in range(samples)]
        failed, undecided = _decide_all(pairs, lambda n, k: lemma4_holds(n, k, bounds))
        s.record(seed=SEED, samples=samples, pairs=pairs[:10])
        _require_decided(s, failed, undecided, "Lemma 4 fails")


def _step_links_argued(ctx):
    """Step 6: the links for every n >= 2, k >= 0, by argument (one symbolic identity)."""
    with ctx.step("the chain's links hold for every n >= 2, k >= 0 (argument): C(N, K) <= "
                  "N^K/K! <= (e N/K)^K since e^K >= K^K/K!; 2(n-1)(n+k) - n(n+k-1) = "
                  "n(n-1) + k(n-2) >= 0, so (n+k-1)/(n-1) <= 2(n+k)/n and (e a)^{n-1} <= "
                  "(e b)^{n-1} <= (e b)^n as e b >= 1; n = 1: ((1, k)) = 1 <= 2e(1+k)",
                  source=PAPER.cite("l.573-575"), kind="prose") as s:
        import sympy as sp
        n_, k_ = sp.symbols("n k")
        diff = sp.expand(2 * (n_ - 1) * (n_ + k_) - n_ * (n_ + k_ - 1))
        target = sp.expand(n_ * (n_ - 1) + k_ * (n_ - 2))
        s.record(difference=str(diff), equals=str(target))
        s.require(sp.simplify(diff - target) == 0, "the algebraic identity fails",
                  difference=str(diff))


@paper_check(LEVINE2020, "L-Lemma4", "((n, k)) <= (2e(n+k)/n)^n with a certified enclosure of e",
             where="A.5 l.567-576", kind="lemma",
             statement="Lemma 4: ((n, k)) <= (2e(n+k)/n)^n for n >= 1, k >= 0")
def l_lemma4(ctx):
    n_max, k_max = (120, 300) if ctx.full else (60, 150)
    bounds = e_bounds(14)
    lo, hi = bounds
    _step_enclosure_of_e(ctx, lo, hi)
    _step_binomial_bound(ctx, bounds)
    _step_proof_chain(ctx, bounds, n_max, k_max)
    _step_lemma4_range(ctx, bounds, n_max, k_max)
    _step_random_large(ctx, bounds)

    # -- outcome (seprank.proof.claims) --
    _step_links_argued(ctx)
    ctx.conclude("holds", "proof",
                 "the chain of l.573-575 with each link argued for all n >= 2, k >= 0 (last "
                 "step, symbolic identity) and n = 1 directly; the exact range checks confirm "
                 "it", basis="argument",
                 argument_steps=("the chain's links hold for every n >= 2",))
