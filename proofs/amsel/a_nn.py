"""A-nn: the nearest neighbour function is one full-rank hardmax attention head.

Source: amsel_benefits_of_rank_talk.txt, "Target Function: Nearest Neighbor" and "Upper
Bound", l.491-515. For unit vectors y, x_1..x_N the talk writes (l.500)
argmin ||x - y|| = argmax x^T y = X hm(X^T y) = I_d X sm(X^T (10^10 I_d) y), and states
(l.509) that a single full-rank hardmax head represents the nearest neighbour function
exactly, for any inputs (l.513). Why: this is the upper bound that the talk's lower bound
(Theorem 2, A-Thm2) is set against: one full-rank head does exactly what many low-rank
heads only approximate.

Our construction (the talk's): M = I_d, W = I_d, hardmax scores X^T M y. Checked exactly on
rational points of the sphere (Fractions); the softmax line is checked with rigorous
interval enclosures (mpmath.iv).
"""

from __future__ import annotations

import random
from fractions import Fraction

from mpmath import iv
from seprank_proofs import AMSEL

import seprank
from seprank.papers.amsel.nearest_neighbor import (
    dot,
    hardmax_head,
    nearest_indices,
    random_rational_sphere_point,
    rational_sphere_point,
    softmax_error_interval,
    sq_dist,
)
from seprank.proof import Claim, check

SRC = AMSEL
PRINTED_SCALE = 10**10


def _eye(d: int) -> list[list[Fraction]]:
    return [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]


CLAIM_A_NN = Claim("claim",
                   "for unit vectors y, x_1..x_N the nearest-neighbour function is exactly "
                   "represented by one full-rank hardmax head, X hm(X^T I_d y) (r = d, H = 1 "
                   "suffices)",
                   SRC.cite("l.491-515"))

@check(id="A-nn", title="nearest neighbour = one full-rank hardmax head",
       source=SRC.cite("l.491-515"),
       claim=CLAIM_A_NN, paper=AMSEL)
def a_nn(ctx):
    rng = random.Random(7)
    n_inst = 1500 if ctx.full else 300

    _distance_is_an_inner_product(ctx, rng)
    _hardmax_head_returns_the_nearest(ctx, n_inst, rng)
    _printed_softmax_equality(ctx)
    _softmax_error_bound_by_score_gap(ctx, rng)

    # -- outcome (seprank.proof.claims) --
    if ctx.failed("As printed, the last equality"):
        ctx.erratum("l.495 (last member of the display)",
                    "X hm(X^T y) = I_d X sm(X^T (10^10 I_d) y)",
                    "X hm(X^T y) = lim_{s -> inf} I_d X sm(X^T (s I_d) y) for inputs with a "
                    "unique nearest neighbour, with error <= 2 (N-1) exp(-s g) at score gap g "
                    "(not uniform in the inputs)",
                    "notation", step="As printed, the last equality",
                    verified_by="Corrected: for fixed inputs", anchor="10^{10}", slip="symbol",
                    message="an informal '=': the softmax head at scale 10^10 only approximates "
                            "the hardmax head (positive weight on every target; far off on "
                            "near-tied inputs); the headline claim is about the hardmax head")
    ctx.conclude("holds", "proof",
                 "on the unit sphere ||x - y||^2 = 2 - 2 x^T y (identity, step 1), so the argmin "
                 "of the distance is the argmax of x^T y, which X hm(X^T I_d y) returns (step 2 "
                 "checks it exactly); the failing '=' concerns the softmax approximation only",
                 basis="argument", argument_steps=["On the unit sphere", "The head I_d X hm"])


def _distance_is_an_inner_product(ctx, rng):
    with ctx.step("On the unit sphere ||x - y||^2 = 2 - 2 x^T y, so argmin of the distance is "
                  "argmax of the inner product: sum_i (x_i - y_i)^2 = sum x_i^2 - 2 sum x_i y_i + "
                  "sum y_i^2 as a symbolic identity (sympy, symbolic dimension d), confirmed "
                  "exactly on rational sphere points", source=SRC.cite("l.497-499"),
                  kind="symbolic") as s:
        import sympy as sp

        dim, i = sp.Symbol("d", integer=True, positive=True), sp.Symbol("i", integer=True)
        xv, yv = sp.IndexedBase("x"), sp.IndexedBase("y")
        lhs = sp.Sum(sp.expand((xv[i] - yv[i]) ** 2), (i, 1, dim)).expand()

        def expansion(cross):
            rhs = (sp.Sum(xv[i] ** 2, (i, 1, dim)) - cross * sp.Sum(xv[i] * yv[i], (i, 1, dim))
                   + sp.Sum(yv[i] ** 2, (i, 1, dim)))
            return sp.simplify(lhs - rhs) == 0

        symbolic = s.could_fail("square_expansion", expansion, 2,
                                {"cross term - x^T y (factor 1)": 1})
        bad = []
        for _ in range(100):
            d = rng.randint(2, 6)
            x, y = random_rational_sphere_point(rng, d), random_rational_sphere_point(rng, d)
            if dot(x, x) != 1 or dot(y, y) != 1 or sq_dist(x, y) != 2 - 2 * dot(x, y):
                bad.append({"x": [str(v) for v in x], "y": [str(v) for v in y]})
        s.record(instances=100, failures=bad[:1], symbolic_identity=symbolic)
        s.require(symbolic, "the symbolic expansion fails")
        s.require(not bad, "identity failed", counterexample=bad[:1])


def _hardmax_head_returns_the_nearest(ctx, n_inst, rng):
    with ctx.step("The head I_d X hm(X^T I_d y) returns the nearest neighbour exactly, for every "
                  "instance with a unique nearest neighbour (random rational instances, "
                  "d in 2..6, N in 2..8, plus near-ties); M = W = I_d have exact rank d. For "
                  "every N: hm(X^T y) is the indicator e_j* of the unique argmax j*, and "
                  "X e_j* = sum_t x_t [t = j*] = x_j* (KroneckerDelta sum, symbolic N)",
                  source=SRC.cite("l.495, l.509"), kind="prose",
                  sizes="d in 2..6, N in 2..8") as s:
        import sympy as sp

        from seprank.network_theory.symbolic_sums import delta_sum

        t_, j_, N_ = sp.symbols("t j N", integer=True, positive=True)
        xs_ = sp.IndexedBase("x")
        picks = delta_sum(sp.KroneckerDelta(j_, t_) * xs_[t_], t_, N_, [j_]) == xs_[j_]
        mism, ties, checked = [], 0, 0
        for it in range(n_inst):
            d, n = rng.randint(2, 6), rng.randint(2, 8)
            xs = [random_rational_sphere_point(rng, d) for _ in range(n)]
            y = random_rational_sphere_point(rng, d)
            if it % 10 == 0:  # a near tie: x_2 is x_1 nudged in its parameter
                xs[1] = rational_sphere_point([Fraction(1, 2) + Fraction(1, 10**12)]
                                              + [Fraction(0)] * (d - 2))
                xs[0] = rational_sphere_point([Fraction(1, 2)] + [Fraction(0)] * (d - 2))
            near = nearest_indices(xs, y)
            if len(near) > 1:
                ties += 1
                continue
            checked += 1
            out = hardmax_head(xs, y, _eye(d), _eye(d))
            if out != xs[near[0]]:
                mism.append({"d": d, "N": n, "y": [str(v) for v in y]})
        ranks = {d: seprank.rank([[int(i == j) for j in range(d)] for i in range(d)],
                                 certify=True).value for d in range(2, 7)}
        s.record(instances_checked=checked, skipped_ties=ties, mismatches=mism[:1],
                 hardmax_picks_the_argmax_symbolic=picks,
                 rank_of_I_d=ranks,
                 tie_convention="with tied nearest neighbours the argmin is a set; hm then "
                                "averages them, so only tie-free inputs are claimed")
        s.require(picks, "X e_j* is not x_j*")
        s.require(not mism, "hardmax head differs from the nearest neighbour",
                  counterexample=mism[:1])
        s.require(all(ranks[d] == d for d in ranks), "I_d not full rank")


def _printed_softmax_equality(ctx):
    with ctx.step("As printed, the last equality X hm(X^T y) = I_d X sm(X^T (10^10 I_d) y) is "
                  "exact for all unit inputs", source=SRC.cite("l.495"), scope="instance",
                  sizes="d = 2, N = 2") as s:
        # smallest instance: d = 2, N = 2, a rational near tie around y = (0, 1)
        y_ = [Fraction(0), Fraction(1)]
        x1 = rational_sphere_point([Fraction(2)])  # (4/5, 3/5)
        x2 = rational_sphere_point([Fraction(2) + Fraction(1, 10**12)])
        x2 = [-x2[0], x2[1]]  # mirrored across the y-axis: a slightly higher score
        xs = [x1, x2]
        near = nearest_indices(xs, y_)
        gap = dot(xs[near[0]], y_) - max(dot(x, y_) for i, x in enumerate(xs) if i != near[0])
        err = softmax_error_interval(xs, y_, PRINTED_SCALE, near[0])
        # the plainest case too: orthogonal targets, error exp(-10^10)-sized but nonzero
        xs0 = [[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]]
        err0 = softmax_error_interval(xs0, y_, PRINTED_SCALE, 0)
        s.fail("not an equality: at scale 10^10 the softmax head puts positive weight on every "
               "target, and on near-tied inputs it is far from the nearest neighbour",
               counterexample={"d": 2, "N": 2, "y": ["0", "1"],
                               "x1": [str(v) for v in x1], "x2": [str(v) for v in x2],
                               "nearest": near[0] + 1, "score_gap": str(gap),
                               "error_enclosure": iv.nstr(err, 12),
                               "distance_x1_x2": float(sq_dist(x1, x2)) ** 0.5},
               orthogonal_case={"x": [["0", "1"], ["1", "0"]], "y": ["0", "1"],
                                "error_enclosure": iv.nstr(err0, 12)})
        s.record(error_lower_bound_positive=bool(err.a > 0 and err0.a > 0))


def _softmax_error_bound_by_score_gap(ctx, rng):
    with ctx.step("Corrected: for fixed inputs with a unique nearest neighbour and score gap "
                  "g > 0, ||I_d X sm(X^T (s I_d) y) - f|| <= 2 (N-1) exp(-s g) -> 0 as s grows "
                  "(the talk's 'scale up the weights', l.505); not uniform in the inputs",
                  source=SRC.cite("l.495, l.505"), corrected=True, scope="sizes",
                  sizes="d <= 5, N <= 6, scales 1 .. 10^10") as s:
        scales = [1, 10, 100, 1000, 10**4, PRINTED_SCALE]
        rows, bad = [], []
        for _ in range(40 if ctx.full else 12):
            d, n = rng.randint(2, 5), rng.randint(2, 6)
            xs = [random_rational_sphere_point(rng, d) for _ in range(n)]
            y = random_rational_sphere_point(rng, d)
            near = nearest_indices(xs, y)
            if len(near) > 1:
                continue
            i = near[0]
            g = dot(xs[i], y) - max(dot(x, y) for j, x in enumerate(xs) if j != i)
            errs = []
            for sc in scales:
                e = softmax_error_interval(xs, y, sc, i)
                bound = 2 * (n - 1) * iv.exp(-iv.mpf(sc) * iv.mpf(g.numerator) / g.denominator)
                errs.append(iv.nstr(e.b, 8))
                if not (e.b <= bound.b or e.b <= bound.a) or not e.a >= 0:
                    bad.append({"d": d, "N": n, "scale": sc, "gap": str(g)})
            rows.append({"d": d, "N": n, "gap": float(g), "error_upper_by_scale": errs})
        s.record(scales=[str(v) for v in scales], rows=rows,
                 bound_proof="out - x_i = sum_{j != i} w_j (x_j - x_i), ||x_j - x_i|| <= 2, "
                             "w_j <= exp(-s (s_i - s_j)) <= exp(-s g)",
                 uniformity="for any fixed s a near-tied input with gap << 1/s gives error "
                            "close to ||x_1 - x_2|| / 2 (previous step)")
        s.require(not bad, "softmax error exceeded 2(N-1)exp(-s g)", counterexample=bad[:1])
