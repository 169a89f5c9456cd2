"""A-params: 4rHd parameters, and the merged form with rank-r M_h and W_h.

Source: amsel_benefits_of_rank_talk.txt, "Multi-head Attention", l.216-256. Each head has
W^Q, W^K, W^V, W^O in R^{r x d} (l.222), so H heads have 4rHd entries (l.224); merged,
the layer is sum_h W_h X sm(X^T M_h y) with M_h = (W^K)^T W^Q and W_h = (W^O)^T W^V rank-r
d x d matrices (l.232-240); with H = d/r the count is 4d^2, the same as H = 1, r = d
(l.255-256). Why: the talk compares low-rank and full-rank heads at this equal parameter budget,
so the count and the merged form are what the comparison rests on.
"""

from __future__ import annotations

import random

import flint
import sympy
from seprank_proofs import AMSEL

import seprank
from seprank.proof import Claim, check

SRC = AMSEL

FAST_DR = [(d, r) for d in (2, 3, 4, 6, 8) for r in range(1, d + 1)]
FULL_DR = FAST_DR + [(d, r) for d in (12, 16) for r in (1, 2, 3, d // 2, d - 1, d)]


def _randmat(rng: random.Random, rows: int, cols: int, bound: int = 9) -> flint.fmpz_mat:
    return flint.fmpz_mat(rows, cols, [rng.randint(-bound, bound) for _ in range(rows * cols)])


def _jacobian_rank(rng: random.Random, d: int, r: int) -> int:
    """Exact rank of the differential of (A, B) -> A^T B (A, B in Z^{r x d}) at a random point.

    Columns: the d^2 entries of dA^T B + A^T dB for each unit dA (r*d of them) and dB."""
    A, B = _randmat(rng, r, d), _randmat(rng, r, d)
    cols = []
    for which in (0, 1):
        for i in range(r):
            for j in range(d):
                E = flint.fmpz_mat(r, d)
                E[i, j] = 1
                D = E.transpose() * B if which == 0 else A.transpose() * E
                cols.append([int(D[p, q]) for p in range(d) for q in range(d)])
    J = flint.fmpz_mat(d * d, len(cols), [cols[c][k] for k in range(d * d)
                                          for c in range(len(cols))])
    return seprank.rank(J, certify=True).value


CLAIM_A_PARAMS = Claim("claim",
                       "a multi-head layer has 4rHd parameters (4d^2 with H = d/r); merging "
                       "gives M_h = (W^K)^T W^Q and W_h = (W^O)^T W^V of rank <= r",
                       SRC.cite("l.216-256"))

@check(id="A-params", title="4rHd parameters; merged rank-r M_h and W_h",
       source=SRC.cite("l.216-256"),
       claim=CLAIM_A_PARAMS, paper=AMSEL)
def a_params(ctx):
    dr = FULL_DR if ctx.full else FAST_DR
    rng = random.Random(20240601)

    _parameter_count(ctx)
    _merging_is_exact(ctx, dr, rng)
    _merged_ranks_are_r(ctx, dr, rng)
    _merged_set_dimension(ctx, dr, rng)

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "the count is arithmetic (step 1, symbolic); merging is associativity of matrix "
                 "products (step 2) and rank(A^T B) <= r for r x d factors is the rank of a "
                 "product (step 3 confirms it exactly, generic rank = r)", basis="argument",
                 argument_steps=["Counting", "Merging is exact", "Exact ranks"])


def _parameter_count(ctx):
    with ctx.step("Counting: four r x d matrices per head, H heads: 4rHd entries; with H = d/r "
                  "this is 4d^2, equal to the count for H = 1, r = d",
                  source=SRC.cite("l.222-224, l.255-256"), kind="symbolic") as s:
        r, H, d = sympy.symbols("r H d", positive=True)
        per_head = 4 * r * d
        total = sympy.expand(H * per_head)
        std = sympy.simplify(total.subs(H, d / r))
        s.could_fail("same_count_as_one_head",
                     lambda heads: sympy.simplify(total.subs(H, heads) - 4 * d ** 2) == 0,
                     d / r, {"H = d/(2r) heads": d / (2 * r)})
        s.record(per_head=str(per_head), total=str(total), with_H_eq_d_over_r=str(std),
                 H1_rd=str(total.subs({H: 1, r: d})))
        s.require(total == 4 * r * H * d and sympy.simplify(std - 4 * d**2) == 0
                  and total.subs({H: 1, r: d}) == 4 * d**2, "count differs from 4rHd")


def _merging_is_exact(ctx, dr, rng):
    with ctx.step("Merging is exact: (W^K X)^T (W^Q y) = X^T M y with M = (W^K)^T W^Q and "
                  "(W^O)^T (W^V X) a = W X a with W = (W^O)^T W^V: associativity, as an identity "
                  "of sympy MatrixSymbols of symbolic sizes, and on random integer data",
                  source=SRC.cite("l.232-236"), kind="symbolic") as s:
        r_, d_, n_ = sympy.symbols("r d n", integer=True, positive=True)
        WQs, WKs, WVs, WOs = (sympy.MatrixSymbol(k, r_, d_) for k in ("WQ", "WK", "WV", "WO"))
        Xs, ys, As = (sympy.MatrixSymbol("X", d_, n_), sympy.MatrixSymbol("y", d_, 1),
                      sympy.MatrixSymbol("a", n_, 1))

        def merged(pair):
            (Mk, Mq), (Wo, Wv) = pair
            return ((WKs * Xs).T * (WQs * ys)).doit() == (Xs.T * (Mk.T * Mq) * ys).doit() \
                and (WOs.T * (WVs * Xs) * As).doit() == ((Wo.T * Wv) * Xs * As).doit()

        symbolic = s.could_fail("associativity", merged, ((WKs, WQs), (WOs, WVs)),
                                {"M = (W^Q)^T W^K (factors swapped)": ((WQs, WKs), (WOs, WVs)),
                                 "W = (W^V)^T W^O (factors swapped)": ((WKs, WQs),
                                                                       (WVs, WOs))})
        bad = []
        for d, r in dr[:12]:
            WQ, WK, WV, WO = (_randmat(rng, r, d) for _ in range(4))
            X, y, a = _randmat(rng, d, 3), _randmat(rng, d, 1), _randmat(rng, 3, 1)
            M, W = WK.transpose() * WQ, WO.transpose() * WV
            ok = ((WK * X).transpose() * (WQ * y) == X.transpose() * M * y
                  and WO.transpose() * (WV * X) * a == W * X * a)
            if not ok:
                bad.append({"d": d, "r": r})
        s.record(cases=len(dr[:12]), failures=bad, symbolic_identity=symbolic)
        s.require(symbolic, "the symbolic merged form differs")
        s.require(not bad, "merged form differs", counterexample=bad[:1])


def _merged_ranks_are_r(ctx, dr, rng):
    with ctx.step("Exact ranks: for random integer factors, rank M_h = rank W_h = r (generic) "
                  "for every (d, r) with r <= d; and rank never exceeds r, also for "
                  "adversarial (rank-deficient) factors", source=SRC.cite("l.238")) as s:
        s.set_scope("sizes", "d <= 16, r <= d" if ctx.full else "d <= 8, r <= d")
        rows, over = [], []
        for d, r in dr:
            WQ, WK, WV, WO = (_randmat(rng, r, d) for _ in range(4))
            rm = seprank.rank(WK.transpose() * WQ, certify=True)
            rw = seprank.rank(WO.transpose() * WV, certify=True)
            # a deficient factor: last row copies the first
            WQd = flint.fmpz_mat(WQ)
            for j in range(d):
                WQd[r - 1, j] = WQd[0, j]
            rd = seprank.rank(WK.transpose() * WQd, certify=True).value
            row = {"d": d, "r": r, "rank_M": rm.value, "rank_W": rw.value, "kinds": [rm.kind,
                   rw.kind], "rank_M_deficient_factor": rd}
            rows.append(row)
            if rm.value > r or rw.value > r or rd > r:
                over.append(row)
            s.require(rm.value == r and rw.value == r, "random factors did not give rank r",
                      counterexample=row)
            s.require(rm.kind == "exact" and rw.kind == "exact", "rank not exact",
                      counterexample=row)
        s.record(rows=rows, exceeding_r=over,
                 argument="rank(A^T B) <= min(rank A, rank B) <= r for A, B in R^{r x d}; "
                          "conversely any rank-r d x d matrix is such a product (rank "
                          "factorization)")
        s.require(not over, "merged rank exceeded r", counterexample=over[:1])


def _merged_set_dimension(ctx, dr, rng):
    with ctx.step("Remark on the count: the merged matrices range over rank-<= r d x d matrices, "
                  "a set of dimension 2dr - r^2 (exact Jacobian rank of (A, B) -> A^T B at "
                  "random integer points), so the layer has 2H(2dr - r^2) = 4rHd - 2Hr^2 "
                  "independent directions; 4rHd counts the entries of the factors",
                  source=SRC.cite("l.240, l.248"), scope="sizes", sizes="d <= 8, r <= d") as s:
        rows, bad = [], []
        for d, r in dr:
            if d > 8:
                continue
            jr = _jacobian_rank(rng, d, r)
            row = {"d": d, "r": r, "jacobian_rank": jr, "2dr-r^2": 2 * d * r - r * r,
                   "factor_entries_2rd": 2 * r * d}
            rows.append(row)
            if jr != 2 * d * r - r * r:
                bad.append(row)
        s.record(rows=rows)
        s.require(not bad, "Jacobian rank differs from 2dr - r^2", counterexample=bad[:1])
