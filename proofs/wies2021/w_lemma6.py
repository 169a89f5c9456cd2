"""W-Lemma6: wies2021 Lemma 6, the vocabulary embedding assignment with V >= 2((d, lambda)) + 1.

Source: wies2021_vocabulary_bottleneck.txt, B.2.2, l.608-634 (statement l.614-618,
assignment l.620-624, rank claim l.626, output l.628).

Why: Lemma 6 is how the vocabulary embedding meets Corollary 1's hypothesis when V is
large, the first vocabulary route of Theorem 2 (W-Thm2 and W-Cor1 depend on it).

Notation: d = (r - H)/2, lambda = 3^(L-2), n = ((d, lambda)) rows of A, E = 2n,
d_x = H d_a. A is exactly l2-normalized (rational sphere points). Templates
w^i := i (one-hot tokens), p := 0; the embedding is eq. (1), y = M_V w + p.

The argument (every step for all sizes, seprank.papers.wies2021.index_identities): the
one-hot templates read column i_j of M_V; the l.624 entries with i_j read as the column
index i and the statement's guard phi(.) <= d restored are, class of coordinate by class,
the stated outputs (symbolic identity); phi is strictly increasing on each half of a
segment, so at most d rows per half are nonzero, and rank(M_V) <= 2d + 1 <= r. The exact
runs (printed M_V, guarded M_V, and the corrected phi against levine2020 Lemma 6's
templates) are at listed sizes. Lemma 6 as printed, with its phi (stride d_a - 1), holds;
that this phi drops columns of A from the outputs matters where the outputs are used, in
Corollary 1 (W-Cor1).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
from seprank_proofs import WIES2021
from seprank_proofs._symbolic import symbolic_step

import seprank
from seprank.combinatorics import multiset
from seprank.constructions import lemma6 as l6
from seprank.errors import ParameterError
from seprank.papers.wies2021 import assignments as wa
from seprank.papers.wies2021 import index_identities as ia
from seprank.proof import Claim, check
from seprank.scalars.sphere import sphere_points

PAPER = WIES2021
SEED = 7


def _cases(full: bool):
    """(H, d_a, r, L) with d_x = H d_a, r - H even, H + 2 <= r <= d_x; smallest first."""
    Hs, das, Ls = ((1, 2, 3, 4), (3, 5, 7, 9), (2, 3, 4)) if full else ((1, 2, 3), (3, 5, 7),
                                                                         (2, 3))
    out = []
    for H in Hs:
        for da in das:
            for r in range(H + 2, H * da + 1, 2):
                for L in Ls:
                    n = multiset((r - H) // 2, 3 ** (L - 2))
                    if n <= (80 if full else 30):
                        out.append((H, da, r, L))
    return sorted(out, key=lambda c: (c[0] * c[1], c[2], c[0], c[3]))


def _sizes(full: bool) -> str:
    return ("H <= 4, d_a <= 9, L <= 4, ((d, 3^(L-2))) <= 80" if full
            else "H <= 3, d_a <= 7, L <= 3, ((d, 3^(L-2))) <= 30")


def _A(n: int, d: int) -> np.ndarray:
    if d == 1:
        out = np.empty((n, 1), dtype=object)
        out[:, 0] = [1 if k % 2 == 0 else -1 for k in range(n)]
        return out
    return sphere_points(n, d, seed=SEED)


def _case(H, da, r, L):
    d = wa.check_parameters(r=r, H=H, d_a=da)
    n = multiset(d, 3 ** (L - 2))
    return d, n, _A(n, d)


def _matches(A, M, H, da, d, printed_phi, sequences):
    """First mismatch of the embedding outputs against the stated y, or None."""
    for seq in sequences:
        Y = wa.vocabulary_embedding(M, seq)
        for j, i in enumerate(seq):
            want = wa.lemma6_target(A, i, H=H, d_a=da, d=d, printed_phi=printed_phi)
            if list(Y[j]) != want:
                return {"token": i, "position": j + 1, "got": [str(x) for x in Y[j]],
                        "stated": [str(x) for x in want]}
    return None


def _sequences(E: int, rng: random.Random):
    tokens = [(i,) for i in range(1, E + 2)]
    seqs = [tuple(rng.randint(1, E + 1) for _ in range(N)) for N in (2, 3, 4) for _ in range(3)]
    if E + 1 <= 5:
        seqs += list(itertools.product(range(1, E + 2), repeat=2))
    return tokens + seqs


CLAIM_W_LEMMA6 = Claim("lemma",
                       "Lemma 6: for V >= 2((d, 3^(L-2))) + 1 a vocabulary matrix M_V of rank "
                       "<= r gives token i the first-layer input y^(0,i) stated at l.616 "
                       "(entries of row i of A, constants)",
                       PAPER.cite("B.2.2 l.608-634"))

@check(id="W-Lemma6", title="Lemma 6: vocabulary embedding assignment (V >= 2((d, lambda)) + 1)",
       source=PAPER.cite("B.2.2 l.608-634"), depends=("L-Lemma6",),
       claim=CLAIM_W_LEMMA6, paper=WIES2021)
def w_lemma6(ctx):
    cases = _cases(ctx.full)
    rng = random.Random(SEED)

    _bad_parameters_are_refused(ctx)
    _printed_mv_gives_the_stated_outputs(ctx, cases)
    _guarded_mv_gives_the_stated_outputs(ctx, cases, rng)
    _corrected_phi_gives_the_levine_templates(ctx, cases, rng)
    _columns_are_the_stated_outputs(ctx)
    _rank_at_most_r(ctx)

    # -- outcome (seprank.proof.claims) --
    mv = "M_V as printed"
    if ctx.failed(mv):
        ctx.erratum("l.624 (M_V)", "(M_V)_{alpha,i} := A_{i_j, phi(alpha)} if i_j <= ((d, "
                    "3^(L-2))) and (alpha-1) mod d_a < (d_a-1)/2, ... (no guard phi(.) <= "
                    "(r-H)/2; i_j for the column index i)",
                    "the same entries with i for i_j and the guards phi(alpha) <= (r-H)/2, "
                    "phi(alpha - (d_a-1)/2) <= (r-H)/2 of the statement (l.616) restored",
                    "notation", step=mv, verified_by="all sizes: one-hot templates",
                    anchor="(M_V)_{\\alpha,i} :=", slip="term")
    ctx.conclude("holds", "proof",
                 "an argument whose steps hold for all sizes: one-hot templates make the "
                 "embedding output column i_j of M_V, and the l.624 entries with the "
                 "statement's guards restored are, coordinate class by coordinate class, the "
                 "stated outputs (symbolic identity in the token, the sizes and phi's stride); "
                 "phi is strictly increasing on each half of a segment, so at most (r-H)/2 "
                 "rows per half are nonzero and the H constant rows are equal: rank(M_V) <= "
                 "r - H + 1 <= r. The exact runs at listed sizes are cross-checks; the printed "
                 "M_V lacks the guards (a slip of the line, repaired by the statement's own "
                 "conditions)", basis="argument",
                 argument_steps=["all sizes: one-hot templates", "all sizes: rank(M_V)"])


def _bad_parameters_are_refused(ctx):
    with ctx.step("Parameters: d_a odd >= 3, r - H even >= 2, V >= E + 1; anything else is "
                  "refused with a ParameterError", source=PAPER.cite("l.608, footnote 3"),
                  scope="instance", sizes="four refused parameter sets") as s:
        refused = {}
        for label, kw in [("d_a even", dict(r=3, H=1, d_a=4)), ("r - H odd", dict(r=4, H=1, d_a=3)),
                          ("r - H = 0", dict(r=2, H=2, d_a=3))]:
            try:
                wa.check_parameters(**kw)
            except ParameterError as exc:
                refused[label] = str(exc)
        try:
            wa.lemma6_MV(_A(2, 1), 4, H=1, d_a=3, d=1, printed=False)
        except ParameterError as exc:
            refused["V = E"] = str(exc)
        s.record(refused=refused)
        s.require(len(refused) == 4, "a bad parameter was accepted", refused=list(refused))


def _printed_mv_gives_the_stated_outputs(ctx, cases):
    with ctx.step("M_V as printed (l.624; i_j read as the column index i, no guard "
                  "phi(.) <= (r-H)/2) is defined and outputs the stated y^(0,j) (l.616)",
                  source=PAPER.cite("l.624, l.628-632")) as s:
        s.set_scope("sizes", _sizes(ctx.full))
        first = None
        ok = 0
        for H, da, r, L in cases:
            d, n, A = _case(H, da, r, L)
            try:
                M = wa.lemma6_MV(A, 2 * n + 1, H=H, d_a=da, d=d, printed=True)
            except wa.PrintedFormulaUndefined as exc:
                first = first or {"H": H, "d_a": da, "d_x": H * da, "r": r, "L": L, "d": d,
                                  "undefined": str(exc)}
                continue
            bad = _matches(A, M, H, da, d, True, [(i,) for i in range(1, 2 * n + 2)])
            if bad:
                first = first or {"H": H, "d_a": da, "r": r, "L": L, **bad}
                continue
            ok += 1
        s.record(cases=len(cases), defined_and_matching=ok)
        if first:
            s.fail("the printed M_V lacks the statement's guard phi(.) <= (r-H)/2 and reads a "
                   "column of A that does not exist whenever some phi(alpha) > (r-H)/2",
                   smallest_counterexample=first)


def _guarded_mv_gives_the_stated_outputs(ctx, cases, rng):
    with ctx.step("corrected M_V (the guards of l.616 restored, printed phi kept): the "
                  "embedding (eq. 1, w^i = i, p = 0) outputs exactly the stated y^(0,j) for "
                  "every token in [E+1] and for token sequences, and rank(M_V) <= r exactly, "
                  "at most r nonzero rows (cross-check at listed sizes)",
                  source=PAPER.cite("l.616, l.620-632"), corrected=True) as s:
        s.set_scope("sizes", _sizes(ctx.full))
        ranks, bad = [], None
        for H, da, r, L in cases:
            d, n, A = _case(H, da, r, L)
            for V in (2 * n + 1, 2 * n + 3):
                M = wa.lemma6_MV(A, V, H=H, d_a=da, d=d, printed=False)
                mism = _matches(A, M, H, da, d, True, _sequences(2 * n, rng))
                rk = seprank.rank(M.tolist(), "exact").value
                nz = sum(1 for row in M if any(x != 0 for x in row))
                ranks.append((H, da, r, L, V, rk))
                if mism or rk > r or nz > r:
                    bad = bad or {"H": H, "d_a": da, "r": r, "L": L, "V": V, "rank": rk,
                                  "nonzero_rows": nz, "mismatch": mism}
        s.record(cases=len(ranks), max_rank_minus_r=max(rk - c[2] for *c, rk in ranks),
                 sample=[{"H": c[0], "d_a": c[1], "r": c[2], "L": c[3], "V": c[4],
                          "rank": c[5]} for c in ranks[:6]])
        s.require(bad is None, "output or rank claim fails", counterexample=bad)


def _corrected_phi_gives_the_levine_templates(ctx, cases, rng):
    with ctx.step("corrected phi (stride (d_a-1)/2) and guards: outputs exact, rank(M_V) <= r, "
                  "token i <= E/2 (resp. E/2 < i <= E) carries A_i (A_{i-E/2}) with unit norm; "
                  "the columns of M_V for tokens 1..E+1 are exactly the corrected first-layer "
                  "templates of levine2020 Lemma 6 (l.750) with V := A zero-padded to "
                  "H (d_a-1)/2 columns (the stride W-Cor1's phi correction uses)",
                  source=PAPER.cite("l.616-632; levine2020 l.750"), corrected=True) as s:
        s.set_scope("sizes", _sizes(ctx.full))
        bad, n_cases = None, 0
        for H, da, r, L in cases:
            d, n, A = _case(H, da, r, L)
            m = (da - 1) // 2
            M = wa.lemma6_MV(A, 2 * n + 1, H=H, d_a=da, d=d, printed=False, printed_phi=False)
            mism = _matches(A, M, H, da, d, False, _sequences(2 * n, rng))
            rk = seprank.rank(M.tolist(), "exact").value
            norms_ok = all(
                sum(M[a, i] ** 2 for a in range(H * da) if (a % da) != da - 1) == 1
                and sorted(M[a, i] for a in range(H * da) if (a % da) != da - 1
                           and M[a, i] != 0)
                == sorted(x for x in A[i % n] if x != 0)
                for i in range(2 * n))
            A_pad = np.zeros((n, H * m), dtype=object)
            A_pad[:, :d] = A
            T = l6.templates(A_pad, H, da, printed=False)
            same = T.shape == M.T.shape and all(
                T[t, a] == M[a, t] for t in range(2 * n + 1) for a in range(H * da))
            n_cases += 1
            if mism or rk > r or not norms_ok or not same:
                bad = bad or {"H": H, "d_a": da, "r": r, "L": L, "rank": rk, "mismatch": mism,
                              "unit_rows": norms_ok, "equals_levine_templates": same}
        s.record(cases=n_cases)
        s.require(bad is None, "corrected assignment fails", counterexample=bad)


def _columns_are_the_stated_outputs(ctx):
    symbolic_step(ctx,
                  "all sizes: one-hot templates (w^i := i, p := 0) make the embedding output "
                  "column i_j of M_V (a KroneckerDelta sum over the V tokens), and the l.624 "
                  "entries with i_j read as the column index i and the statement's guards "
                  "phi(.) <= (r-H)/2 restored equal the stated outputs (l.616) in each class of "
                  "coordinate (first half, second half, constant; alpha = h d_a + p + 1 is "
                  "unique by division with remainder), for symbolic token, sizes and phi "
                  "stride; as printed the entries differ exactly where phi(.) > (r-H)/2 "
                  "(sympy; without the restored guard the identity fails)",
                  PAPER.cite("l.614-628"), ia.lemma6_columns, kind="symbolic",
                  mutants={"lemma6_columns": {"guard phi(.) <= (r-H)/2 dropped": False}},
                  corrected=True)


def _rank_at_most_r(ctx):
    symbolic_step(ctx,
                  "all sizes: rank(M_V) <= r (l.626): phi(alpha) = h * stride + p + 1 on the "
                  "first half is strictly increasing in (h, p) (the step across segments adds "
                  "stride - m + 1 >= 1, either stride), so at most d = (r-H)/2 first-half and d "
                  "second-half rows carry a column of A; the H constant rows are all ones, one "
                  "row up to repetition: rank <= 2d + 1 <= 2d + H = r (sympy, symbolic h, p, m, "
                  "H; with stride 0 the check fails)", PAPER.cite("l.626"),
                  ia.phi_on_the_halves, kind="symbolic",
                  mutants={"phi_on_the_halves": {"stride 0 (phi repeats across segments)":
                                                 lambda m: 0}})
