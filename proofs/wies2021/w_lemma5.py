"""W-Lemma5: wies2021 Lemma 5, the convolutional embedding assignment.

Source: wies2021_vocabulary_bottleneck.txt, B.2.1, l.572-606 (statement and eq. (15)
l.574-578, kernel l.588, templates l.594, derivation l.596-604); the embedding is
eq. (2) (l.80) and its rank eq. (4) (l.84).

Why: Lemma 5 is how the convolution embedding meets Corollary 1's hypothesis, the
convolution route of Theorem 2 (W-Thm2 depends on it).

Notation: d = (r - H)/2, n = ((d, 3^(L-2))) rows of A (exactly l2-unit rows), E = 2n,
d_x = H d_a, k = M/N the kernel width, d_in the raw input dimension, r <= min(d_x, k d_in).

Steps: the printed kernel and templates are fed through eq. (2) exactly, for every
token of [E + 1] at every position, and compared with eq. (15); the derivation's
step (2) (l.600) is compared with eq. (15); the rank of the reshaped kernel is
measured exactly; a corrected ("packed") kernel, which sends the at most r
coordinates eq. (15) can make nonzero to the first input slots, is checked on
every case. The phi of eq. (15) is kept as printed (its dropped columns are a
step of W-Lemma6).
"""

from __future__ import annotations

import numpy as np
from seprank_proofs import WIES2021
from seprank_proofs._symbolic import symbolic_step

import seprank
from seprank.combinatorics import multiset
from seprank.papers.wies2021 import assignments as wa
from seprank.papers.wies2021 import index_identities as ia
from seprank.proof import Claim, check
from seprank.scalars.sphere import sphere_points

PAPER = WIES2021
SEED = 5


def _cases(full: bool):
    """(H, d_a, r, L, k, d_in) with r <= min(d_x, k d_in); smallest d_x, r, k d_in first."""
    Hs, das, ks = ((1, 2, 3), (3, 5, 7), (1, 2, 3)) if full else ((1, 2), (3, 5), (1, 2))
    out = []
    for H in Hs:
        for da in das:
            dx = H * da
            for r in range(H + 2, dx + 1, 2):
                for L in (2, 3):
                    if multiset((r - H) // 2, 3 ** (L - 2)) > (40 if full else 15):
                        continue
                    for k in ks:
                        for d_in in sorted({-(-r // k), -(-dx // k)}):
                            out.append((H, da, r, L, k, d_in))
    return sorted(out, key=lambda c: (c[0] * c[1], c[2], c[4] * c[5], c))


def _sizes(full: bool) -> str:
    return ("H <= 3, d_a <= 7, k <= 3, L <= 3, ((d, 3^(L-2))) <= 40" if full
            else "H <= 2, d_a <= 5, k <= 2, L <= 3, ((d, 3^(L-2))) <= 15")


def _A(n: int, d: int) -> np.ndarray:
    if d == 1:
        out = np.empty((n, 1), dtype=object)
        out[:, 0] = [1 if t % 2 == 0 else -1 for t in range(n)]
        return out
    return sphere_points(n, d, seed=SEED)


def _run(case, *, packed: bool):
    """(first mismatch or None, rank of W~) for one case, all tokens, N = 2 positions."""
    H, da, r, L, k, d_in = case
    d = (r - H) // 2
    n = multiset(d, 3 ** (L - 2))
    A = _A(n, d)
    dx = H * da
    W = wa.conv_W(k, dx, d_in, da, d, packed=packed)
    rk = seprank.rank(wa.conv_reshaped(W).tolist(), "exact").value
    toks = list(range(1, 2 * n + 2))
    for i1, i2 in zip(toks, toks[1:] + toks[:1], strict=True):
        X = np.concatenate([wa.conv_templates(A, i, k=k, d_x=dx, d_in=d_in, d_a=da, d=d,
                                              packed=packed) for i in (i1, i2)])
        Y = wa.conv_embedding(W, X)
        for pos, i in enumerate((i1, i2)):
            want = wa.lemma6_target(A, i, H=H, d_a=da, d=d)
            if list(Y[pos]) != want:
                bad = [a + 1 for a in range(dx) if Y[pos][a] != want[a]]
                return {"token": i, "position": pos + 1, "wrong_coordinates": bad,
                        "got": [str(x) for x in Y[pos]], "eq15": [str(x) for x in want]}, rk
    return None, rk


def _label(case):
    H, da, r, L, k, d_in = case
    return {"H": H, "d_a": da, "d_x": H * da, "r": r, "L": L, "k": k, "d_input": d_in,
            "k_d_input": k * d_in}


CLAIM_W_LEMMA5 = Claim("lemma",
                       "Lemma 5: a convolution embedding of rank r exists whose first-layer "
                       "inputs are those of eq. (15) (the assignment of l.576-604)",
                       PAPER.cite("B.2.1 l.572-606"))

@check(id="W-Lemma5", title="Lemma 5: convolutional embedding assignment gives eq. (15)",
       source=PAPER.cite("B.2.1 l.572-606"), depends=("W-Lemma6",),
       claim=CLAIM_W_LEMMA5, paper=WIES2021)
def w_lemma5(ctx):
    cases = _cases(ctx.full)

    _printed_kernel_gives_eq15(ctx, cases)
    _derivation_step2_equals_eq15(ctx, cases)
    _printed_kernel_rank_at_most_r(ctx, cases)
    _packed_kernel_gives_eq15(ctx, cases)
    _packing_for_every_size(ctx)

    # -- outcome (seprank.proof.claims) --
    k = "kernel (l.588) and templates (l.594) as printed"
    if ctx.failed(k):
        ctx.erratum("l.588 (kernel)", "kernel reads coordinate alpha from input slot "
                    "alpha = k(lambda-1) + l",
                    "pack the <= r coordinates eq. (15) can make nonzero into input slots "
                    "1, 2, ... in order", "proof-error", step=k,
                    verified_by="all sizes: the packed kernel", survives=True,
                    repair="the packed kernel outputs eq. (15) exactly with rank <= r, for "
                           "every size (step 5)", anchor="W_{l,\\alpha}^{\\text{conv}}")
    d2 = "the derivation's step (2)"
    if ctx.failed(d2):
        ctx.erratum("l.599 (derivation, step (2))",
                    "'alpha <= r' in every case; A_{i_j - M/2, phi(alpha)}",
                    "no 'alpha <= r' on the constant coordinates; A_{i_j - V/2, "
                    "phi(alpha - (d_a-1)/2)} (eq. (15)'s own second case)", "notation",
                    step=d2, verified_by="all sizes: the packed kernel",
                    anchor="\\stackrel{(2)}", slip="index")
    ctx.conclude("holds", "proof",
                 "an argument whose steps hold for all sizes: eq. (15) makes at most (r-H)/2 + "
                 "(r-H)/2 + H = r coordinates nonzero (phi is strictly increasing on each half "
                 "of a segment), and a kernel that sends them to input slots 1, 2, ... (packed) "
                 "outputs any such target exactly, with at most r nonzero rows, whenever r <= "
                 "k d_input (eq. (4)'s rank condition); symbolic identities, step 5. The "
                 "printed kernel reads slot alpha, which is missing when k d_input < d_x; the "
                 "exact runs at listed sizes are cross-checks", basis="argument",
                 argument_steps=["all sizes: the packed kernel"])


def _printed_kernel_gives_eq15(ctx, cases):
    with ctx.step("kernel (l.588) and templates (l.594) as printed, through eq. (2) with P = 0: "
                  "the embedding outputs exactly eq. (15) for every token of [E+1]",
                  source=PAPER.cite("l.576, l.588, l.594, l.80")) as s:
        s.set_scope("sizes", _sizes(ctx.full))
        first, ok, ok_wide = None, 0, 0
        for c in cases:
            bad, _ = _run(c, packed=False)
            if bad is None:
                ok += 1
                ok_wide += c[4] * c[5] >= c[0] * c[1]
            else:
                first = first or {**_label(c), **bad}
        s.record(cases=len(cases), matching=ok, matching_with_k_d_input_ge_d_x=ok_wide,
                 cases_with_k_d_input_ge_d_x=sum(c[4] * c[5] >= c[0] * c[1] for c in cases))
        if first:
            s.fail("the printed kernel reads coordinate alpha from slot alpha = k(lambda-1) + l, "
                   "which does not exist for alpha > k d_input; r <= min(d_x, k d_input) "
                   "(l.84) allows k d_input < d_x, and then constant coordinates come out 0",
                   smallest_counterexample=first)


def _derivation_step2_equals_eq15(ctx, cases):
    with ctx.step("the derivation's step (2) (l.599) equals eq. (15)",
                  source=PAPER.cite("l.599-604")) as s:
        s.set_scope("sizes", _sizes(ctx.full))
        first, n_cases = None, 0
        for c in cases:
            H, da, r, L, _, _ = c
            d = (r - H) // 2
            n = multiset(d, 3 ** (L - 2))
            A = _A(n, d)
            n_cases += 1
            for i in range(1, 2 * n + 2):
                want = wa.lemma6_target(A, i, H=H, d_a=da, d=d)
                try:
                    got = wa.lemma5_proof_line2(A, i, H=H, d_a=da, d=d, r=r)
                except wa.PrintedFormulaUndefined as exc:
                    first = first or {**_label(c), "token": i, "undefined": str(exc)}
                    break
                if got != want:
                    first = first or {**_label(c), "token": i,
                                      "wrong_coordinates": [a + 1 for a in range(H * da)
                                                            if got[a] != want[a]],
                                      "line2": [str(x) for x in got],
                                      "eq15": [str(x) for x in want]}
                    break
        s.record(cases=n_cases)
        if first:
            s.fail("step (2) adds 'alpha <= r' to every case (so constant coordinates "
                   "alpha > r vanish) and writes A_{i_j - M/2, phi(alpha)} for "
                   "A_{i_j - V/2, phi(alpha - (d_a-1)/2)}", smallest_counterexample=first)


def _printed_kernel_rank_at_most_r(ctx, cases):
    with ctx.step("the printed kernel reshaped as in eq. (4) has rank <= r (exact)",
                  source=PAPER.cite("l.590, l.84")) as s:
        s.set_scope("sizes", _sizes(ctx.full) + " (the first 40 cases)")
        ranks = [(c, _run(c, packed=False)[1]) for c in cases[:40]]
        bad = [{**_label(c), "rank": rk} for c, rk in ranks if rk > c[2]]
        s.record(cases=len(ranks), max_rank_minus_r=max(rk - c[2] for c, rk in ranks))
        s.require(not bad, "rank exceeds r", counterexample=bad[:1])


def _packed_kernel_gives_eq15(ctx, cases):
    with ctx.step("corrected (packed) kernel: the <= r coordinates eq. (15) can make nonzero "
                  "go to input slots 1, 2, ... in order; eq. (2) then outputs exactly eq. (15) "
                  "for every token, and rank(W~) <= r, whenever r <= min(d_x, k d_input)",
                  source=PAPER.cite("l.576-604"), corrected=True) as s:
        s.set_scope("sizes", _sizes(ctx.full))
        bad = None
        for c in cases:
            mism, rk = _run(c, packed=True)
            if mism or rk > c[2]:
                bad = bad or {**_label(c), "rank": rk, "mismatch": mism}
        s.record(cases=len(cases))
        s.require(bad is None, "packed assignment fails", counterexample=bad)


def _packing_for_every_size(ctx):
    symbolic_step(ctx,
                  "all sizes: the packed kernel outputs eq. (15): the coordinates eq. (15) can "
                  "make nonzero (at most (r-H)/2 per half, phi being strictly increasing there, "
                  "and H constant ones: |S| <= r <= k d_input) go to slots pi(alpha) = 1, 2, ... "
                  "in increasing order; then y_alpha = sum_sigma [sigma = pi(alpha)] "
                  "x_sigma = T(alpha) on S and 0 off S for any target T (KroneckerDelta sum, "
                  "symbolic k d_input), slot sigma = k(lambda-1) + l is the pair (l, lambda) of "
                  "eq. (2) (division with remainder), and W~ has |S| <= r nonzero rows "
                  "(sympy, symbolic sizes; the printed kernel's slot alpha, or phi of stride 0, "
                  "makes the check fail)", PAPER.cite("l.576-604, l.80-84"),
                  ia.lemma5_packing, ia.phi_on_the_halves, kind="symbolic",
                  mutants={"lemma5_packing": {"the printed kernel: row alpha reads slot alpha":
                                              lambda alpha: alpha},
                           "phi_on_the_halves": {"stride 0 (phi repeats across segments)":
                                                 lambda m: 0}},
                  corrected=True)
