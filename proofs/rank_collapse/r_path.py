"""R-path: path decomposition of a pure-attention network (rank_collapse_notes l.33-64).

Source: rank_collapse_notes.txt, sec. 2.1 l.33-64 (one head l.35-39, one layer l.48-52,
two layers l.56, Theorem 2.1 l.60-64). Why: the notes plan to prove their goal with this
decomposition (l.82), so its formulas are checked as identities.

The attention matrices P_h of a layer depend on that layer's input, but the
decomposition treats them as given matrices and uses only P_h e = e (each row
sums to one, l.37). So exact rational row-stochastic matrices stand in for
them here. Steps:

1. one head (l.35-39): P_h (X W_V + e b_V^T) = P_h X W_V + e b_V^T;
   a matrix whose rows do not sum to one breaks it (so row sums are what is used);
2. one layer (l.48-52): concatenated heads times stacked W_O equal
   sum_h P_h X W_h + e b_O^T with W_h = W_V,h W_O,h, b_O = sum_h W_O,h^T b_V,h;
3. the two-layer formula as printed (l.56): sum_{h1,h2} P_h1 P_h2 X W_h1 W_h2 + e b^T puts
   the head indices in the same order in both products; under every consistent
   reading it is false (counterexamples found by an exhaustive search over small entries);
4. corrected: the P's multiply in the reverse order of the W's,
   P^L_{h_L} ... P^1_{h_1} X W^1_{h_1} ... W^L_{h_L}; expanded in the free
   (noncommutative) algebra with the single rule P e = e, for L <= 3, H <= 2, with and
   without skip connections (a cross-check);
5. Theorem 2.1 (l.60-64) with that ordering, exactly over Q for L <= 4, H <= 3:
   H^L paths, or (H+1)^L with skip connections (a dummy head P = I, W = I per layer),
   plus e b^T with b given by the recursion b_l^T = b_{l-1}^T S_l + b_O,l^T (a cross-check);
6. the induction step for every L, H and size (seprank.papers.rank_collapse.path_induction):
   P_h (F + e c) W_h = P_h F W_h + e c W_h in the free algebra and distributivity over the
   paths; with steps 1-2 (also symbolic) it proves Theorem 2.1.
"""

from __future__ import annotations

import itertools
import random

import flint
import sympy
from seprank_proofs import RANK_COLLAPSE
from seprank_proofs._symbolic import symbolic_step

from seprank.papers.rank_collapse.path_induction import (
    concatenated_heads,
    distribute_over_paths,
    head_step,
)
from seprank.papers.rank_collapse.pure_attention import (
    rand_rational_matrix,
    rand_row_stochastic,
    random_network,
    san_direct,
    san_paths,
)
from seprank.proof import Claim, check

SRC = RANK_COLLAPSE
SEED = 20210521


def _ones(n):
    return flint.fmpq_mat(n, 1, [1] * n)


def _rows_equal(M) -> bool:
    return all(M[i, j] == M[0, j] for i in range(M.nrows()) for j in range(M.ncols()))


def _show(M):
    return [[str(M[i, j]) for j in range(M.ncols())] for i in range(M.nrows())]


def _two_layer(P, W, X, reading):
    """Path sum without bias for L = 2. P[l][h], W[l][h] (l = 0 first layer).

    reading 'correct': P2_b P1_a X W1_a W2_b.   'a': index i <-> layer i for P and W:
    P1_h1 P2_h2 X W1_h1 W2_h2.   'b': index 1 <-> outer layer: P2_h1 P1_h2 X W2_h1 W1_h2.
    'c': factors by position (P layers 2,1; W layers 1,2), same head letters:
    P2_h1 P1_h2 X W1_h1 W2_h2.
    """
    H = len(P[0])
    n, d = X.nrows(), X.ncols()
    tot = flint.fmpq_mat(n, d)
    for h1, h2 in itertools.product(range(H), repeat=2):
        if reading == "correct":
            tot += P[1][h2] * P[0][h1] * X * W[0][h1] * W[1][h2]
        elif reading == "a":
            tot += P[0][h1] * P[1][h2] * X * W[0][h1] * W[1][h2]
        elif reading == "b":
            tot += P[1][h1] * P[0][h2] * X * W[1][h1] * W[0][h2]
        else:
            tot += P[1][h1] * P[0][h2] * X * W[0][h1] * W[1][h2]
    return tot


def _stochastic_2x2():
    half = flint.fmpq(1, 2)
    rows = [[1, 0], [0, 1], [half, half]]
    return [flint.fmpq_mat(2, 2, r1 + r2) for r1 in rows for r2 in rows]


def _search_counterexample(reading):
    """Smallest instance (n = 2; d, H as small as the reading allows) where the printed sum
    differs from the correct one by more than e b^T (rows of the difference not equal)."""
    Ps = _stochastic_2x2()
    ident = flint.fmpq_mat(2, 2, [1, 0, 0, 1])
    if reading == "a":      # d = 1, H = 1, W = 1; n = 2, then n = 3 with 0/1 rows
        units3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        Ps3 = [flint.fmpq_mat(3, 3, r1 + r2 + r3)
               for r1, r2, r3 in itertools.product(units3, repeat=3)]
        for n, pool in ((2, Ps), (3, Ps3)):
            for P1, P2, xs in itertools.product(pool, pool,
                                                itertools.product((0, 1), repeat=n)):
                X = flint.fmpq_mat(n, 1, list(xs))
                W = [[flint.fmpq_mat(1, 1, [1])]] * 2
                D = (_two_layer([[P1], [P2]], W, X, "a")
                     - _two_layer([[P1], [P2]], W, X, "correct"))
                if not _rows_equal(D):
                    return {"n": n, "d": 1, "H": 1, "P1": _show(P1), "P2": _show(P2),
                            "X": _show(X), "W1": [["1"]], "W2": [["1"]],
                            "difference": _show(D)}
    elif reading == "b":    # d = 2, H = 1, P = I, entries of X, W in {0, 1}
        for xs, w1, w2 in itertools.product(itertools.product((0, 1), repeat=4), repeat=3):
            X = flint.fmpq_mat(2, 2, list(xs))
            W = [[flint.fmpq_mat(2, 2, list(w1))], [flint.fmpq_mat(2, 2, list(w2))]]
            P = [[ident], [ident]]
            D = _two_layer(P, W, X, "b") - _two_layer(P, W, X, "correct")
            if not _rows_equal(D):
                return {"n": 2, "d": 2, "H": 1, "P1": _show(ident), "P2": _show(ident),
                        "X": _show(X), "W1": _show(W[0][0]), "W2": _show(W[1][0]),
                        "difference": _show(D)}
    else:                   # d = 1, H = 2, X = (1, 0)^T, W scalars in {0, 1}
        X = flint.fmpq_mat(2, 1, [1, 0])
        for ps in itertools.product(Ps, repeat=4):
            for ws in itertools.product((0, 1), repeat=4):
                P = [[ps[0], ps[1]], [ps[2], ps[3]]]
                W = [[flint.fmpq_mat(1, 1, [ws[0]]), flint.fmpq_mat(1, 1, [ws[1]])],
                     [flint.fmpq_mat(1, 1, [ws[2]]), flint.fmpq_mat(1, 1, [ws[3]])]]
                D = _two_layer(P, W, X, "c") - _two_layer(P, W, X, "correct")
                if not _rows_equal(D):
                    return {"n": 2, "d": 1, "H": 2, "X": _show(X),
                            "P": {f"P{l + 1}_{h + 1}": _show(P[l][h])
                                  for l in range(2) for h in range(2)},
                            "W": {f"W{l + 1}_{h + 1}": str(W[l][h][0, 0])
                                  for l in range(2) for h in range(2)},
                            "difference": _show(D)}
    return None


def _free_algebra_check(L, H, skip):
    """Expand SA_L(...SA_1(X)) in noncommuting symbols, apply P e -> e, compare with the
    corrected path sum plus e times the accumulated bias word. Returns (ok, n_terms)."""
    X, e = sympy.symbols("X e", commutative=False)
    P = [[sympy.Symbol(f"P{l}_{h}", commutative=False) for h in range(H)] for l in range(L)]
    W = [[sympy.Symbol(f"W{l}_{h}", commutative=False) for h in range(H)] for l in range(L)]
    b = [sympy.Symbol(f"b{l}", commutative=False) for l in range(L)]
    if skip:
        P = [row + [sympy.Integer(1)] for row in P]
        W = [row + [sympy.Integer(1)] for row in W]
    Y = X
    for l in range(L):
        Y = sympy.expand(sum(P[l][h] * Y * W[l][h] for h in range(len(P[l]))) + e * b[l])
        for h in range(H):          # the only rule: P e = e
            Y = Y.subs(P[l][h] * e, e)
        Y = sympy.expand(Y)
    paths = 0
    expected = sympy.Integer(0)
    for path in itertools.product(*[range(len(row)) for row in P]):
        left, right = sympy.Integer(1), sympy.Integer(1)
        for l, h in enumerate(path):
            left = P[l][h] * left
            right = right * W[l][h]
        expected += left * X * right
        paths += 1
    bias = sympy.Integer(0)
    for l in range(L):
        bias = bias * sum(W[l]) + b[l]
    expected = sympy.expand(expected + e * bias)
    return sympy.expand(Y - expected) == 0, paths


CLAIM_R_PATH = Claim("theorem",
                     "Theorem 2.1 (path decomposition): SAN(X) = sum over paths in [H]^L of "
                     "P_path X W_path + e b^T, (H+1)^L paths with skip connections",
                     SRC.cite("l.33-64"),
                     main_result=True)

@check(id="R-path", title="path decomposition of a pure-attention network (Theorem 2.1)",
       source=SRC.cite("l.33-64"),
       claim=CLAIM_R_PATH, paper=RANK_COLLAPSE)
def r_path(ctx):
    rng = random.Random(SEED)

    _one_head_carries_the_bias(ctx, rng)
    _one_layer_is_a_sum_over_heads(ctx, rng)
    _printed_two_layer_order(ctx)
    _corrected_path_order(ctx)
    _theorem_2_1_over_q(ctx, rng)
    _induction_step_for_every_l(ctx)

    # -- outcome (seprank.proof.claims) --
    two = "the two-layer formula as printed"
    if ctx.failed(two):
        ctx.erratum("l.56 (second line of the SA o SA display)",
                    "sum_{h1,h2} P_{h1} P_{h2} X W_{h1} W_{h2} + e b^T",
                    "sum_{h1,h2} P_{h2} P_{h1} X W_{h1} W_{h2} + e b^T (the P's in reverse "
                    "layer order; Theorem 2.1's P_path = P^L_{h_L} ... P^1_{h_1})",
                    "notation", step=two, verified_by="all sizes: the induction step",
                    anchor="SA \\circ SA", slip="order")
    ctx.conclude("holds", "proof",
                 "Theorem 2.1 with P_path read as P^L_{h_L}..P^1_{h_1}, by induction on L, "
                 "every step a symbolic identity for all L, H and matrix sizes: one head keeps "
                 "its bias (P e = e, free algebra), concatenated heads are a sum (blocks of "
                 "symbolic size), and the induction step P_h (F + e c) W_h = P_h F W_h + e c W_h "
                 "with distributivity extends every path by one head (step 6). The free-algebra "
                 "expansion for L <= 3, H <= 2 (step 4) and the exact evaluation over Q for "
                 "L <= 4, H <= 3 (step 5) are cross-checks. Only the l.56 display is wrong",
                 basis="argument", argument_steps=["one head:", "one layer:",
                                                   "all sizes: the induction step"])


def _one_head_carries_the_bias(ctx, rng):
    with ctx.step("one head: P(X W_V + e b_V^T) = P X W_V + e b_V^T for row-stochastic P: an "
                  "identity in the free noncommutative algebra with the rewrite P e -> e "
                  "(sympy, any sizes), confirmed on rational matrices; with row sums != 1 it "
                  "fails", source=SRC.cite("l.35-39"), kind="symbolic") as s:
        symbolic = head_step()
        s.could_fail("head_step", lambda stochastic: head_step(stochastic)["holds"], True,
                     {"without P e = e (P not row-stochastic)": False})
        s.record(free_algebra=symbolic)
        s.require(symbolic["holds"], "the free-algebra identity fails")
        bad = []
        for _ in range(40 if ctx.full else 10):
            n, d, dv = rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 3)
            P = rand_row_stochastic(rng, n)
            X, WV = rand_rational_matrix(rng, n, d), rand_rational_matrix(rng, d, dv)
            bV = rand_rational_matrix(rng, 1, dv)
            if P * (X * WV + _ones(n) * bV) != P * X * WV + _ones(n) * bV:
                bad.append({"P": _show(P), "X": _show(X)})
        Q = flint.fmpq_mat(2, 2, [1, 1, 0, 1])   # row sums 2 and 1
        one = flint.fmpq_mat(1, 1, [1])
        Xq = flint.fmpq_mat(2, 1, [0, 0])
        control = Q * (Xq * one + _ones(2) * one) != Q * Xq * one + _ones(2) * one
        s.record(seed=SEED, control_matrix=_show(Q), control_breaks_identity=control)
        s.require(not bad and control, "single-head bias identity fails", counterexample=bad[:1])


def _one_layer_is_a_sum_over_heads(ctx, rng):
    with ctx.step("one layer: [SA_1 .. SA_H] [W_O,1; ..; W_O,H] = sum_h P_h X W_h + e b_O^T "
                  "with W_h = W_V,h W_O,h and b_O^T = sum_h b_V,h^T W_O,h: a block product of "
                  "symbolic sizes is the sum of the blocks' products (sympy; induction on H), "
                  "then the one-head identity per head; confirmed exactly on rational networks",
                  source=SRC.cite("l.48-52"), kind="prose",
                  sizes="rational networks H <= 3, n <= 4, d <= 4") as s:
        blocks = concatenated_heads()
        s.record(block_product=blocks)
        s.require(blocks["holds"], "the block product identity fails")
        bad = []
        for _ in range(30 if ctx.full else 10):
            H, n, d, dv = rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 4), \
                rng.randint(1, 3)
            net = random_network(rng, 1, H, n, d, dv)
            X = rand_rational_matrix(rng, n, d)
            direct = san_direct(X, net)
            bO = flint.fmpq_mat(1, d)
            for (_P, _WV, bV, WO) in net[0]:
                bO += bV * WO
            formula = sum((P * X * (WV * WO) for (P, WV, _bV, WO) in net[0]),
                          flint.fmpq_mat(n, d)) + _ones(n) * bO
            if direct != formula:
                bad.append({"H": H, "n": n, "d": d})
        s.require(not bad, "one-layer formula fails", counterexample=bad[:1])


def _printed_two_layer_order(ctx):
    with ctx.step("the two-layer formula as printed, sum_{h1,h2} P_h1 P_h2 X W_h1 W_h2 + e b^T "
                  "(same index order in both products), equals SA o SA(X) for some b: tested "
                  "under each consistent reading of the indices (a: h_i is layer i; b: h_1 is "
                  "the outer layer; c: factors by position, P layers (2,1), W layers (1,2))",
                  source=SRC.cite("l.56"), scope="sizes",
                  sizes="n = 2, 3; d <= 2; H <= 2 (exhaustive over the listed entries)") as s:
        found = {r: _search_counterexample(r) for r in ("a", "b", "c")}
        s.record(first_counterexamples_found=found,
                 search="n = 2; P rows from {(1,0), (0,1), (1/2,1/2)}; reading a: d = H = 1, "
                        "n = 2 then n = 3 with P rows unit vectors (at n = 2 no instance can "
                        "fail: the commutator of two 2 x 2 row-stochastic matrices has equal "
                        "rows); "
                        "b: d = 2, H = 1, P = I, X and W entries in {0,1}; c: d = 1, H = 2, "
                        "X = (1,0)^T, W in {0,1}; first hit in lexicographic order")
        failing = [r for r, ce in found.items() if ce is not None]
        s.require(not failing, f"the printed two-layer path sum differs from SA o SA(X) by "
                  f"more than e b^T under readings {failing}: the P's must multiply in the "
                  f"reverse order of the W's", counterexample=found)


def _corrected_path_order(ctx):
    with ctx.step("corrected: SA_L o .. o SA_1(X) = sum_paths P^L_{h_L}..P^1_{h_1} X "
                  "W^1_{h_1}..W^L_{h_L} + e b^T, with b^T = (..(b_1^T S_2 + b_2^T)..) S_L + "
                  "b_L^T, S_l = sum_h W^l_h; proved in the free noncommutative algebra using "
                  "only the rewrite P e -> e (sympy), without and with skip connections",
                  source=SRC.cite("l.56-64"), corrected=True, scope="sizes",
                  sizes="L <= 3, H <= 2") as s:
        cases = [(L, H) for L in (1, 2, 3) for H in (1, 2)]
        results = []
        for L, H in cases:
            for skip in (False, True):
                ok, paths = _free_algebra_check(L, H, skip)
                results.append({"L": L, "H": H, "skip": skip, "paths": paths, "ok": ok})
        s.record(cases=results)
        bad = [r for r in results if not r["ok"]]
        counts = all(r["paths"] == (r["H"] + r["skip"]) ** r["L"] for r in results)
        s.require(not bad and counts, "free-algebra expansion differs", counterexample=bad[:1])


def _theorem_2_1_over_q(ctx, rng):
    with ctx.step("Theorem 2.1 with that ordering, exactly over Q: for L <= 4, H <= 3 the "
                  "sum over the H^L paths (or (H+1)^L with skip connections) plus e b^T equals "
                  "the direct layer-by-layer evaluation; SAN(X) - path sum has equal rows",
                  source=SRC.cite("l.60-64"), scope="sizes",
                  sizes="L <= 4, H <= 3, n = d = 3") as s:
        rows = []
        bad = []
        reps = 2 if ctx.full else 1
        for L, H, skip in itertools.product(range(1, 5), range(1, 4), (False, True)):
            for _ in range(reps):
                n, d, dv = 3, 3, 2
                net = random_network(rng, L, H, n, d, dv)
                X = rand_rational_matrix(rng, n, d)
                direct = san_direct(X, net, skip=skip)
                total, paths, b = san_paths(X, net, skip=skip)
                expected_paths = (H + 1) ** L if skip else H ** L
                ok = direct == total and paths == expected_paths
                rows.append({"L": L, "H": H, "skip": skip, "paths": paths, "ok": ok})
                if not ok:
                    bad.append({"L": L, "H": H, "skip": skip, "X": _show(X)})
        s.record(seed=SEED, n=3, d=3, d_v=2, instances=rows)
        s.require(not bad, "path decomposition differs from direct evaluation",
                  counterexample=bad[:1])


def _induction_step_for_every_l(ctx):
    symbolic_step(ctx,
                  "all sizes: the induction step. If Y_l = F_l + e c_l with F_l the sum over the "
                  "paths of length l of P_path X W_path, then for every head P_h (F_l + e c_l) "
                  "W_h = P_h F_l W_h + e c_l W_h (free algebra, P e -> e) and P_h F_l W_h = "
                  "sum_path (P_h P_path) X (W_path W_h) (distributivity), so Y_{l+1} = sum_h "
                  "P_h Y_l W_h + e b is F_{l+1} + e (c_l S + b): the paths of length l + 1 with "
                  "the new head's P on the left; a skip connection is the head P = W = I "
                  "((H+1)^L paths). Symbolic for every L, H and size (sympy)",
                  SRC.cite("l.56-64"),
                  head_step, distribute_over_paths, kind="prose", corrected=True)
