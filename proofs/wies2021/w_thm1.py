"""W-Thm1: wies2021 Theorem 1, log sep(y_p^{i,L,d_x,H,r}) = O~(L min{r, d_x}) (eq. (6)).

Source: wies2021_vocabulary_bottleneck.txt, Theorem 1 (l.127-135, with footnote 1: the
positional embedding is ignored), its proof = Theorem 3 (A.2, l.375-443) resp. Theorem 4
(A.3, l.449-520) with r_e = 1 and Lemma 3 (l.443, l.520).

What is computed:

* the step from Theorem 3 to eq. (6): eq. (9) <= (3^L + 1)^(2s + 2) <= 4^(L (2s + 2)),
  s = r + r_e, exactly on a range and by the one-line argument of
  seprank.papers.wies2021.moment_comparison.thm3_power_bound;
* the displays of A.2 as identities: l.393 drops B^{(0,h)}_{r_1,p} (its right side does
  not depend on p), l.405 splits the r-sums between two brackets, and l.417-427 ("group
  monomials by the powers n_1..n_r") is a symmetric function of the tokens while y_p^i is
  not (exact values on a token pair and its swap); the final count (l.439-441) is checked;
* the repaired argument (seprank.network_theory.moment_form): y^{L,i} = G_L(S) y^{0,i}
  with the moment matrix S (an identity, sympy and rational points), sep <= s ((s(s+1)/2 + 1, C(L)))
  against exact separation ranks where it binds, and against eq. (9) for all L at once
  (s <= 4) and all s at once (L <= 4);
* a partition splitting every convolution patch: sep >= 2N + 2 (exact rank);
* structured weights (seprank.network_theory.one_hot): one-hot 1-dimensional heads
  make y_p^i = x^i_p prod S_bc^{e_bc}; the closed form is checked against the network and
  by exact ranks, sep = prod(e + 1) is certified by the Jacobian rank of the moments, it
  exceeds Theorem 4's eq. (11) at d_x = r = 8, L = 9, and log2 sep >= (s(s+1)/2)(L -
  floor(s/2) - s) decides eq. (6): false (the rate is L min{r, d_x}^2).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import sympy
from seprank_proofs import WIES2021
from seprank_proofs._corrected_family import (
    closed_form_steps,
    coefficient_matrix_step,
    exponent_floor_step,
    independence_steps,
    shift_lemma_step,
)
from seprank_proofs.wies2021.w_thm3_thm4 import vocab_case

from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import VocabularyEmbedding
from seprank.network_theory.moment_form import moment_bound, moment_form_output
from seprank.network_theory.one_hot import (
    exponents_by_layer,
    monomial_exponents,
    monomial_sep,
    shift_schedule,
)
from seprank.papers.levine2020.bounds import thm4_bound as levine_thm4_bound
from seprank.papers.wies2021.bounds import thm3_bound, thm3_proof_bound, thm4_bound
from seprank.papers.wies2021.moment_comparison import (
    moment_vs_thm3,
    moment_vs_thm3_at_L,
    rate_beats_every_polylog,
    split_patch_rank,
    thm3_power_bound,
    thm3_printed_count,
)
from seprank.proof import check
from seprank.proof.claims import Claim

PAPER = WIES2021
SEED = 127
#: (L, d_x, H, V, N, r, r_e): small moment bounds, so that exact ranks can reach them
BIND_FAST = [(1, 2, 1, 4, 2, 1, 0), (1, 2, 1, 4, 4, 1, 0), (2, 2, 1, 6, 2, 1, 0),
             (1, 3, 1, 8, 2, 2, 0), (1, 2, 1, 6, 2, 1, 1)]
BIND_FULL = BIND_FAST + [(2, 2, 1, 6, 4, 1, 0), (1, 3, 3, 8, 4, 2, 0), (2, 2, 1, 8, 2, 1, 1),
                         (1, 4, 2, 10, 2, 3, 0)]

SPLIT_N = 40

CLAIM = Claim(
    "theorem",
    "For the H-headed depth-L width-d_x network of eq. (5) after a vocabulary (eq. (3)) or "
    "convolution (eq. (4)) embedding of rank r, positional embedding ignored (footnote 1): "
    "log sep(y_p^{i,L,d_x,H,r}) = O~(L min{r, d_x})",
    PAPER.cite("Theorem 1, eq. (6), l.127-135"), main_result=True, asymptotic=True)


def _swap_asymmetry(seed):
    """A token pair (a, b) with y_1^1(a, b) != y_1^1(b, a), r = 1, r_e = 0, L = 1."""
    emb = VocabularyEmbedding.random(4, 2, 2, 1, 0, seed=seed, bound=3)
    net = SelfAttentionNetwork.random(1, 2, 1, seed=seed, nonzero=True)
    for a, b in itertools.combinations(range(4), 2):
        X = emb.embed(np.array([[a, b], [b, a]]))
        out = net.evaluate(X, "ZZ")
        if out[0, 0, 0] != out[1, 0, 0]:
            return {"L": 1, "d_x": 2, "H": 1, "V": 4, "N": 2, "r": emb.rank(), "r_e": 0,
                    "M_V": emb.M_V.tolist(), "tokens": [a + 1, b + 1],
                    "y_1^1(w)": out[0, 0, 0], "y_1^1(swapped w)": out[1, 0, 0]}
    return None


@check(id="W-Thm1", title="Theorem 1: log sep = O~(L min{r, d_x}); proof displays as identities, "
       "a repaired bound", source=PAPER.cite("Theorem 1 l.127-135; A.2-A.3 l.375-520"),
       depends=("W-Thm3", "W-Thm4", "W-embed", "L-net"), claim=CLAIM, paper=WIES2021)
def w_thm1(ctx):
    _eq9_below_a_power_of_four(ctx)
    _a2_displays_lose_the_output_index(ctx)
    err = _grouping_by_powers_is_not_an_identity(ctx)
    _final_count_below_eq9(ctx)
    _moment_form_equals_the_network(ctx, err)
    _moment_bound_against_exact_ranks(ctx, err)
    _moment_bound_below_eq9_for_small_s_or_L(ctx)
    _patch_splitting_partition_grows_with_N(ctx)
    _one_hot_family_for_every_width(ctx)
    _one_hot_rate_refutes_eq6(ctx)
    _one_hot_family_exceeds_eq11(ctx)

    ctx.conclude(
        "false", "proof",
        "an argument whose every step holds for all widths s (the one-hot family's steps, "
        "shared with L-Thm2-corrected): one-hot 1-dimensional heads give y = x_p prod "
        "S_bc^{e_bc} (the diagonal update involves three channels only), every exponent is >= "
        "3^(L - floor(s/2) - s) (shift lemma: (2I + P)^(s-1) >= 1 entrywise, rows of (2I + P)^m "
        "sum to 3^m), sep = prod(e+1) (the moment map is submersive at X = I; the coefficient "
        "matrix is a Kronecker product of nonsingular anti-diagonals), so log_3 sep >= "
        "(s(s+1)/2)(L - floor(s/2) - s) >= (5/4) s^3 at L = 4s, beyond every K L s "
        "log^m(L s): the rate is L min{r,d_x}^2, not O~(L min{r,d_x}); the exact runs at listed "
        "sizes are cross-checks; the proof's grouping display fails, and the moment argument "
        "bounds the rate by D_t L, t = min(r + r_e, d_x) (W-Thm1-corrected)",
        basis="argument",
        argument_steps=["family, closed form:", "coefficient matrix:",
                        "family, separation rank:", "shift lemma:", "exponent floor:",
                        "all sizes, the rate"])


def _one_hot_family_for_every_width(ctx):
    """The family's steps for every width s (proofs/_corrected_family.py)."""
    src = PAPER.cite("eq. (5) l.108; sec. 3 l.120-124")
    closed_form_steps(ctx, src)
    coefficient_matrix_step(ctx, src)
    independence_steps(ctx, src)
    shift_lemma_step(ctx, src)
    exponent_floor_step(ctx, src)


def _eq9_below_a_power_of_four(ctx):
    with ctx.step("Theorem 1 from Theorem 3 (and 4) with r_e = 1 (l.443): eq. (9) <= "
                  "(3^L+1)^(2s+2) <= 4^(L(2s+2)) with s = r + r_e, since ((s, t)) = "
                  "prod_{i<s} (t+i)/i <= (t+1)^(s-1), ((4, t)) <= (t+1)^3 and 3^L + 1 <= 4^L; "
                  "so log sep <= (2r+4) L log 4 <= 6 L r log 4 (r = rank(M_V) <= min{r, d_x}); "
                  "checked exactly for L <= 8, s <= 12",
                  source=PAPER.cite("l.133, l.367, l.443"), scope="sizes",
                  sizes="L <= 8, s <= 12") as s:
        bad, n = None, 0
        for L in range(1, 9):
            for sv in range(1, 13):
                b = thm3_bound(L, sv, 0)
                n += 1
                if not b <= thm3_power_bound(L, sv) <= 4 ** (L * (2 * sv + 2)):
                    bad = bad or {"L": L, "s": sv}
        s.record(cases=n, argument="each factor (t+i)/i of a multiset coefficient is <= t+1")
        s.require(bad is None, "the chain of inequalities fails", counterexample=bad)


def _a2_displays_lose_the_output_index(ctx):
    with ctx.step("A.2 l.391-393 ('separating between the tokens and the positional "
                  "embeddings') and l.403-405 ('open the inner products') as printed: the first "
                  "drops the factor B^{(0,h)}_{r_1,p}, so its right side does not depend on the "
                  "output coordinate p; the second sums r_0..r_C separately inside the "
                  "positional and the token bracket, with B^{(0,h)}_{r_1,p} outside both (r_1 "
                  "free), although each r_c links A^{(c,h)} and B^{(c-1,h)}. Exact outputs "
                  "y_1^1 and y_2^1 of one network on one token sequence",
                  source=PAPER.cite("A.2 l.389-405"), scope="instance",
                  sizes="L = 1, d_x = 2, H = 1, r = r_e = 1, tokens (2, 3)") as s:
        emb = VocabularyEmbedding.random(4, 2, 2, 1, 1, seed=SEED, bound=3)
        net = SelfAttentionNetwork.random(1, 2, 1, seed=SEED, nonzero=True)
        out = net.evaluate(emb.embed(np.array([[1, 2]])), "ZZ")[0, 0]
        inst = {"L": 1, "d_x": 2, "H": 1, "r": 1, "r_e": 1, "tokens": [2, 3],
                "y_1^1": out[0], "y_2^1": out[1]}
        s.record(instance=inst)
        if out[0] != out[1]:
            s.erratum("A.2 l.393", "sum_{I_A, I_B} sum_j sum_h sum_r (positional products)"
                      "(token products)", "the same with the factor B^{(0,h)}_{r_1,p} (restored "
                      "at l.405)", "notation", instance=inst, anchor="the indices of tokens",
                      slip="term",
                      message="the printed right side is the same for every p; y_1 != y_2")
            s.erratum("A.2 l.405-409 (and tau, l.413)",
                      "B^{(0,h)}_{r_1,p} (sum_{gamma,delta} sum_{r_0..r_C} positional products) "
                      "(sum_{gamma,delta} sum_{r_0..r_C} token products)",
                      "sum_{r_0..r_C} B^{(0,h)}_{r_1,p} (sum_gamma,delta positional products) "
                      "(sum_gamma,delta token products): one sum over r enclosing both brackets",
                      "notation", instance={"free_index": "r_1 in B^{(0,h)}_{r_1,p}"},
                      anchor="\\tau_{I_A", slip="range")


def _grouping_by_powers_is_not_an_identity(ctx):
    """The erratum of the grouped display (l.417-427), or None; later steps verify its repair."""
    with ctx.step("A.2 l.417-427 as printed: after grouping by the total powers n_alpha, "
                  "y = sum lambda_{N, n, p} (sum over every distribution n_{alpha,j} of the "
                  "powers over the positions) prod M^vocab...; with r_e = 0 the right-hand "
                  "side is then a symmetric function of the N tokens. Exact values of "
                  "y_1^1 on a token pair and its swap", source=PAPER.cite("A.2 l.417-427"),
                  scope="instance", sizes="L = 1, d_x = 2, H = 1, V = 4, N = 2") as s:
        inst = None
        for k in range(20):
            inst = _swap_asymmetry(SEED + k)
            if inst is not None:
                break
        s.record(instance=inst)
        if inst is not None:
            err = s.erratum(
                "A.2 l.417-427 (and A.3 l.481-491)",
                "the coefficient of prod_j prod_alpha (M^vocab_{alpha,w^j})^{n_{alpha,j}} "
                "depends only on the total powers n_alpha (and p_sigma): y = sum lambda_{N,n,p} "
                "sum_{distributions} prod ...",
                "the coefficient depends on how the powers are distributed over the "
                "positions (j_0 = i is fixed; at L = 1, y = k v_i sum_j v_j^2 has no v_j^3 "
                "term for j != i). Repaired argument (seprank.bounds.moments): y^{L,i} = "
                "G_L(S) y^{0,i} with S = sum_j u^j u^j^T, so sep <= s ((s(s+1)/2+1, C(L))), "
                "s = r + r_e, and log sep = O(L min{r + r_e, d_x}^2) (for the convolution "
                "embedding on partitions that keep every patch whole); the linear rate O~(L "
                "min{r, d_x}) of eq. (6) does not survive (one-hot family, below)",
                "proof-error", survives=False, instance=inst, anchor="group monomials",
                correction_id="wies2021-moment-bound",
                message="the grouped display is symmetric in the positions, the network "
                        "output is not")
        else:
            err = None
            s.inconclusive("no asymmetric instance found in 20 draws")
    return err


def _final_count_below_eq9(ctx):
    with ctx.step("the count that ends the proof (l.439-441): the printed sum of "
                  "prod ((2, n_alpha)) prod ((2, p_sigma)) over N_{A Delta B}, N_{A cap B} (from 1 "
                  "as printed), the powers and the (m_P, m_Q), (z_P, z_Q) pairs is <= "
                  "((r+r_e, 3^L)) ((4, 3^L)) (3^L/r + 1)^r (3^L/r_e + 1)^r_e <= eq. (9); exact "
                  "for L <= 2, r <= 3, r_e <= 2 (the count is only meaningful if the grouping "
                  "above were an identity; the printed ranges also leave out I_A cap I_B = {} "
                  "and the all-positional terms)", source=PAPER.cite("A.2 l.437-443"),
                  scope="sizes", sizes="L <= 2, r <= 3, r_e <= 2") as s:
        rows, bad = [], None
        for L in (1, 2):
            for r in (1, 2, 3):
                for r_e in (0, 1, 2):
                    cnt = thm3_printed_count(L, r, r_e)
                    rhs = thm3_proof_bound(L, r, r_e)
                    rows.append({"L": L, "r": r, "r_e": r_e, "count": cnt,
                                 "l441_rhs": rhs, "eq9": thm3_bound(L, r, r_e)})
                    if not cnt <= rhs <= thm3_bound(L, r, r_e):
                        bad = bad or rows[-1]
        s.record(table=rows)
        s.require(bad is None, "the final count exceeds its bound", counterexample=bad)


def _moment_form_equals_the_network(ctx, err):
    with ctx.step("repaired argument, identity: one layer maps y^{l,i} to sum_h W^O W^V S_l "
                  "(W^K)^T W^Q y^{l,i} with S_l = sum_j y^{l,j} y^{l,j}^T, hence y^{L,i} = "
                  "G_L(S) y^{0,i}, G_{l+1} = sum_h W^O W^V G_l S G_l^T (W^K)^T W^Q G_l; as "
                  "polynomials in symbolic inputs (L = 2, d_x = 2, N = 2) and at random "
                  "rational points (L <= 3, H <= 2, N <= 4)",
                  source=PAPER.cite("eq. (5) l.108; A.2 eq. (10) l.385"), corrected=True,
                  scope="sizes", sizes="symbolic at L = 2, d_x = 2, N = 2; rational points at "
                  "L <= 3, H <= 2, N <= 4") as s:
        if err is not None:
            s.verifies(err)
        net = SelfAttentionNetwork.random(2, 2, 1, seed=SEED, nonzero=True)
        xs = sympy.symbols("x1:5")
        X = np.array([[xs[0], xs[1]], [xs[2], xs[3]]], dtype=object)
        direct = _symbolic_network(net, X, 0)
        moment = moment_form_output(net, X, 0)
        sym_ok = all(sympy.expand(a - b) == 0 for a, b in zip(direct, moment, strict=True))
        rng, points, bad = random.Random(SEED), 0, None
        for L, d_x, H, d_a, N in [(1, 2, 1, 2, 3), (2, 3, 2, 2, 2), (3, 2, 2, 1, 4),
                                  (2, 4, 2, 3, 3)]:
            net = SelfAttentionNetwork.random(L, d_x, H, d_a, seed=rng.randrange(10**6),
                                              kind="rational")
            for _ in range(3):
                Xr = [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(d_x)]
                      for _ in range(N)]
                pos = rng.randrange(N)
                got = moment_form_output(net, Xr, pos).tolist()
                want = net.evaluate([Xr], "QQ")[0, pos].tolist()
                points += 1
                if got != want:
                    bad = bad or {"L": L, "d_x": d_x, "H": H, "N": N, "position": pos}
        s.record(symbolic_identity=sym_ok, rational_points=points, degree_in_S="C(L)")
        s.require(sym_ok, "the moment form differs from the network as polynomials")
        s.require(bad is None, "the moment form differs at a rational point", counterexample=bad)


def _moment_bound_against_exact_ranks(ctx, err):
    with ctx.step("repaired bound against exact separation ranks: for vocabulary-embedded "
                  "networks (every partition of [N], grid over all of [V]^N, so grid rank = "
                  "sep), sep <= s ((s(s+1)/2 + 1, C(L))), s = r + r_e, at sizes where the "
                  "bound is small enough to be reached", source=PAPER.cite("A.2 l.375-441"),
                  corrected=True) as s:
        s.set_scope("sizes", "L <= 2, d_x <= 4, N <= 4" if ctx.full else
                    "L <= 2, d_x <= 3, N <= 4")
        if err is not None:
            s.verifies(err)
        rows, bad = [], None
        for params in (BIND_FULL if ctx.full else BIND_FAST):
            for seed in (3, 17):
                row = vocab_case(*params, seed, emb_bound=5)
                bound = moment_bound(row["L"], row["r"] + row["r_e"])
                rows.append({k: row[k] for k in ("L", "d_x", "H", "V", "N", "r", "r_e",
                                                 "grid_cap", "max_rank")}
                            | {"seed": seed, "moment_bound": bound,
                               "thm3_bound": thm3_bound(row["L"], row["r"], row["r_e"])})
                if row["max_rank"] > bound:
                    bad = bad or rows[-1]
        reached = [r for r in rows if r["max_rank"] == r["moment_bound"]]
        s.record(instances=rows, reached_the_bound=len(reached))
        s.require(bad is None, "an exact separation rank exceeds the moment bound",
                  counterexample=bad)


def _moment_bound_below_eq9_for_small_s_or_L(ctx):
    with ctx.step("the moment bound against eq. (9): (a) for s = r + r_e <= 4 and every L at "
                  "once (both sides are polynomials in t = 3^L; their difference has no real root "
                  "in [3, oo) and is positive at 3, exact Sturm count); (b) for L <= 4 and every "
                  "s at once (exact below s0, an integer-checked tail argument above): the "
                  "moment bound lies below eq. (9) whenever s <= 4 or L <= 4, so a network above "
                  "eq. (9) needs s >= 5 and L >= 5 (vocabulary embedding; for the convolution "
                  "embedding only on partitions that keep every patch whole, and a partition "
                  "splitting them exceeds eq. (11) already at r = 1: W-Thm4). Where the moment "
                  "bound exceeds eq. (9) the bound alone decides nothing; at such (L, s) with L "
                  "<= 6 eq. (9) is >= 1.5e42, beyond any dense exact rank",
                  source=PAPER.cite("eq. (9) l.381"), corrected=True, scope="sizes",
                  sizes="s <= 4 (every L), L <= 4 (every s)") as s:
        by_s = [moment_vs_thm3(sv) for sv in range(1, 8)]
        by_L = [moment_vs_thm3_at_L(L) for L in range(1, 7)]
        smallest_open = min(thm3_bound(row["L"], row["failing_s"][0], 0)
                            for row in by_L if row["failing_s"])
        s.record(by_s=by_s, by_L=[{k: (v[:10] if k == "failing_s" else v) for k, v in r.items()}
                                  for r in by_L],
                 smallest_eq9_value_where_undecided_L_le_6=f"{float(smallest_open):.3e}")
        s.require(all(row["holds_for_all_L"] for row in by_s[:4]),
                  "the moment bound is not below eq. (9) for some s <= 4")
        s.require(all(row["holds_for_all_s"] for row in by_L[:4]),
                  "the moment bound is not below eq. (9) for some L <= 4")


def _patch_splitting_partition_grows_with_N(ctx):
    with ctx.step("the convolution embedding and a partition of the M raw inputs that splits "
                  "every patch (Theorem 4: 'any partition P u Q = [M]'; Theorem 1 names no "
                  "restriction): L = 1, d_x = H = 1, kernel (1, 2) of rank r = 1, no positional "
                  f"embedding (r_e = 0), N = {SPLIT_N} patches of 2 inputs, P = the first input "
                  "of every patch. The rank of a K x K matrix of exact values y_1^1(p_a, q_b) "
                  "is a lower bound on sep (any sample of g_1 h_1 + ... + g_R h_R has rank <= R)",
                  source=PAPER.cite("A.3 Theorem 4 eq. (11) l.451-456; Cor. 1 l.562"),
                  scope="instance", sizes=f"L = 1, d_x = H = 1, r = 1, N = {SPLIT_N}") as s:
        inst = split_patch_rank(SPLIT_N, seed=SEED)
        s.record(instance=inst)
        if inst["rank"] > inst["eq11_bound"]:
            s.erratum("Theorem 1, l.127-133 (statement, convolution embedding)",
                      "log sep(y) = O~(L min{r, d_x}) for the convolution embedding (any "
                      "partition)",
                      "the same for partitions of the M raw inputs that do not split a patch "
                      "(at L = 1, r = 1 a partition splitting every patch gives sep >= 2N + 2, "
                      "unbounded in N, and above Theorem 4's eq. (11) = 80 from N = 40 on); the "
                      "moment argument covers patch-respecting partitions",
                      "missing-hypothesis",
                      hypothesis="for the convolution embedding, the partition does not split a "
                                 "patch (the hypothesis Corollary 1 states, l.562)",
                      instance=inst, anchor="Theorem 1")


def _one_hot_rate_refutes_eq6(ctx):
    with ctx.step("all sizes, the rate of eq. (6): by the steps above, for the convolution "
                  "embedding of kernel width 1 with W^conv = I (r = d_x = s, no patch to split), "
                  "N >= 2s, log_3 sep >= (s(s+1)/2)(L - floor(s/2) - s), which at L = 4s is >= "
                  "(5/4) s^3, while eq. (6) allows K L s log^m(L s) = 4K s^2 log^m(4 s^2); "
                  "s / log^m(4 s^2) -> infinity for every m > 0 (sympy limit): eq. (6) is false",
                  source=PAPER.cite("eq. (6) l.133"), kind="prose") as s:
        ev = rate_beats_every_polylog()
        s.record(**ev)
        if s.require(ev["holds"], "the rate comparison fails"):
            s.erratum("Theorem 1, eq. (6), l.133",
                      "log sep(y_p^{i,L,d_x,H,r}) = O~(L min{r, d_x})",
                      "log_3 sep < D_t L, D_t = t(t+1)/2, t = min{r + r_e, d_x} (moment bound, "
                      "W-Thm1-corrected; for the convolution embedding on partitions that keep "
                      "every patch whole); with r_e = 0 the one-hot family has log_3 sep > D_s "
                      "(L - floor(s/2) - s), s = min{r, d_x}, so the rate D_s L is reached as L "
                      "grows (the family's bound is 0 for L <= floor(s/2) + s, so not at small "
                      "L); the bottleneck (no dependence on d_x beyond r + r_e) survives with "
                      "the rate L r^2/2",
                      "false-statement", anchor="(6)",
                      instance={"family": "shift_schedule(s, L), d_x = H = s, d_a = 1, "
                                          "convolution embedding of width 1, W^conv = I",
                                "at_L=4s": "log_3 sep >= (5/4) s^3 > 4K s^2 log^m(4 s^2) "
                                           "for s large, every K, m"})


def _one_hot_family_exceeds_eq11(ctx):
    with ctx.step("Theorem 1's proof for the convolution embedding rests on Theorem 4's eq. "
                  "(11) (l.520), which the family exceeds: convolution embedding with M = N "
                  "(kernel width 1, no patch to split), W^conv = I of rank r = d_x = s = 8, no "
                  "positional embedding (r_e = 0), L = 9, N = 16, P = the first 8 positions: "
                  "sep = prod (e + 1) > eq. (11), the counterexample W-Thm4 records as its "
                  "erratum (not counted again here)",
                  source=PAPER.cite("A.3 eq. (11) l.451-456"), kind="certificate",
                  sizes="r = d_x = H = 8, L = 9, N = 16") as s:
        sv, L = 8, 9
        ex = monomial_exponents(sv, shift_schedule(sv, L))
        sep = monomial_sep(ex[0])
        inst = {"s=r=d_x": sv, "H": sv, "d_a": 1, "L": L, "N": 2 * sv, "output": "y_1^1",
                "schedule": "shift_schedule(8, 9)", "exponents": {str(k): v for k, v in
                                                               ex[0].items()},
                "sep": sep, "eq11": thm4_bound(L, sv, 0),
                "moment_bound": moment_bound(L, sv),
                "levine2020_thm4_bound": str(levine_thm4_bound(L, sv))}
        levine = []
        for sv in range(4, 9):
            for L2, ex2 in enumerate(_exponents_by_layer(sv, shift_schedule(sv, 16)), start=1):
                sep2 = min(monomial_sep(e) for e in ex2)
                if sep2 > levine_thm4_bound(L2, sv):
                    levine.append({"d_x=H": sv, "d_a": 1, "L": L2, "N": 2 * sv,
                                   "sep": f"{float(sep2):.3e}",
                                   "levine2020_eq19": f"{float(levine_thm4_bound(L2, sv)):.3e}"})
                    break
        s.record(instance=inst, sep_le_moment_bound=sep <= inst["moment_bound"],
                 sep_over_eq11=f"{float(sep) / float(inst['eq11']):.4g}",
                 levine2020_theorem4_exceeded_first_at=levine,
                 note="the same family (inputs x^j in R^{d_x}, no embedding) exceeds levine2020 "
                      "Theorem 4, eq. (19), at the sizes listed (rows L-Thm3/L-Thm4)")
        s.require(sep > inst["eq11"], "the family does not exceed eq. (11)", instance=inst)


def _exponents_by_layer(sv, sched):
    """The exponents of monomial_exponents after each prefix of the schedule (one pass)."""
    for g in exponents_by_layer(sv, sched):
        yield [dict(e) for e in g]


def _symbolic_network(net, X, position):
    """The network's output at ``position`` on a symbolic input, layer by layer (eq. (5))."""
    Y = X
    w = net.weights
    for layer in range(net.L):
        rows = []
        for i in range(Y.shape[0]):
            acc = np.zeros(net.d_x, dtype=object)
            for h in range(net.H):
                Q, K, V, O = (w[k][layer, h] for k in "QKVO")
                q = Q.dot(Y[i])
                for j in range(Y.shape[0]):
                    acc = acc + O.dot(V.dot(Y[j])) * q.dot(K.dot(Y[j]))
            rows.append(acc)
        Y = np.array(rows, dtype=object)
    return Y[position]
