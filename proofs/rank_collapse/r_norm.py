"""R-norm: the composite quantity ||X||_{1,inf} = sqrt(||X||_1 ||X||_inf) and res(X).

Source: rank_collapse_notes.txt, Definition 2.1, l.66-76 (and the notes' own
question at l.130). ||X||_1 and ||X||_inf are read as the induced matrix norms
(largest absolute column sum, largest absolute row sum), as in the paper the
notes discuss. Why: every bound of the notes is stated in this quantity,
and res is what the goal says tends to 0 (R-bound, R-collapse).

Every comparison uses the square ||X||_1 ||X||_inf, so it is exact over Q; the
triangle inequality sqrt(c) <= sqrt(a) + sqrt(b) is decided as: it fails iff
c - a - b > 0 and (c - a - b)^2 > 4ab.

Steps: positivity, absolute homogeneity (hold); the triangle inequality (fails:
the first counterexample of a search by number of entries (two entries: the least, since a
1 x 1 matrix gives |x|), then square shapes and a seeded
random search; also under the entrywise reading); submultiplicativity (not
claimed by the notes; holds); res(X) under the printed 2-norm read as the
spectral norm (the argmin is not unique: explicit family); corrected, the
Frobenius reading (unique minimiser, the column means) and its properties.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import sympy
from seprank_proofs import RANK_COLLAPSE

from seprank.papers.rank_collapse.pure_attention import (
    composite_sq,
    norm1,
    norminf,
    res_frobenius,
    triangle_fails,
)
from seprank.proof import Claim, check

SRC = RANK_COLLAPSE
SEED = 20210522


def _matrices(rows, cols, k):
    order = sorted(range(-k, k + 1), key=lambda v: (abs(v), v < 0))   # 0, 1, -1, 2, -2, ..
    for vals in itertools.product(order, repeat=rows * cols):
        yield [list(vals[i * cols:(i + 1) * cols]) for i in range(rows)]


def _shapes(max_entries):
    return sorted(((r, c) for r in range(1, max_entries + 1) for c in range(1, max_entries + 1)
                   if r * c <= max_entries), key=lambda rc: (rc[0] * rc[1], rc[0]))


def _first_triangle_failure(shapes, k_max, sq):
    for rows, cols in shapes:
        for k in range(1, k_max + 1):
            mats = list(_matrices(rows, cols, k))
            for X, Y in itertools.product(mats, repeat=2):
                if triangle_fails(X, Y, sq):
                    return {"shape": [rows, cols], "entry_bound": k, "X": X, "Y": Y,
                            "sq_X": str(sq(X)), "sq_Y": str(sq(Y)),
                            "sq_X_plus_Y": str(sq([[a + b for a, b in zip(r1, r2, strict=True)]
                                                   for r1, r2 in zip(X, Y, strict=True)])),
                            "reading": "sqrt(sq(X+Y)) > sqrt(sq(X)) + sqrt(sq(Y))"}
    return None


def _entrywise_sq(M):
    flat = [abs(v) for row in M for v in row]
    return sum(flat) * max(flat)


def _matmul(A, B):
    return [[sum(a * B[k][j] for k, a in enumerate(row)) for j in range(len(B[0]))]
            for row in A]


CLAIM_R_NORM = Claim("definition",
                     "Definition 2.1: the composite ||X||_{1,inf} = sqrt(||X||_1 ||X||_inf) is"
                     " a norm, and res(X) = X - 1 x^T with x the argmin of ||X - 1 x^T||_2 is "
                     "well defined",
                     SRC.cite("l.66-76, l.130"))

@check(id="R-norm", title="the composite 'norm' sqrt(||X||_1 ||X||_inf) and res(X)",
       source=SRC.cite("l.66-76, l.130"),
       claim=CLAIM_R_NORM, paper=RANK_COLLAPSE)
def r_norm(ctx):
    small = [m for r, c in _shapes(4) for m in _matrices(r, c, 1)]

    _positivity(ctx, small)
    _absolute_homogeneity(ctx, small)
    _triangle_inequality(ctx)
    _submultiplicativity(ctx)
    _printed_res_is_well_defined(ctx)
    _frobenius_res_is_column_centring(ctx)

    # -- outcome (seprank.proof.claims) --
    tri = "triangle inequality"
    if ctx.failed(tri):
        err = ctx.erratum("l.68-70 (Definition 2.1, 'composite norm')",
                    "||X||_{1,inf} = sqrt(||X||_1 ||X||_inf) is a norm",
                    "it is positive and absolutely homogeneous but violates the triangle "
                    "inequality: not a norm (it is submultiplicative); a bound stated with it "
                    "is still meaningful, but not as a distance (the notes' question, l.130)",
                    "false-statement", step=tri, anchor="Definition 2.1")
        for prop in ("positivity", "absolute homogeneity", "submultiplicativity"):
            ctx.find_step(prop).verifies.append(err)  # the corrected description's parts
    res = "res(X) is well defined as printed"
    if ctx.failed(res):
        ctx.erratum("l.72-74 (residual)", "x = argmin_x ||X - 1 x^T||_2",
                    "x = argmin_x ||X - 1 x^T||_F, whose unique minimiser is the column "
                    "mean m, so res(X) = X - 1 m^T", "notation", step=res,
                    verified_by="corrected (Frobenius reading)", anchor="\\operatorname{res}",
                    slip="symbol")
    ctx.conclude("false", "proof",
                 "an exact counterexample to the triangle inequality (step 3) shows the "
                 "composite is not a norm; res is well defined only with ||.||_F",
                 basis="certificate")


def _positivity(ctx, small):
    with ctx.step("positivity: ||X||_1 ||X||_inf >= 0, with equality only for X = 0 (exhaustive "
                  "over all matrices with <= 4 entries in {-1,0,1}, exact)",
                  source=SRC.cite("l.70"), scope="sizes",
                  sizes="<= 4 entries in {-1, 0, 1}") as s:
        bad = [M for M in small
               if composite_sq(M) < 0 or (composite_sq(M) == 0) != all(v == 0 for r in M
                                                                     for v in r)]
        s.record(matrices=len(small))
        s.require(not bad, "positivity fails", counterexample=bad[:1])


def _absolute_homogeneity(ctx, small):
    with ctx.step("absolute homogeneity: ||cX||_1 ||cX||_inf = c^2 ||X||_1 ||X||_inf, i.e. "
                  "||cX||_{1,inf} = |c| ||X||_{1,inf} (exhaustive small matrices, c in a set "
                  "of rationals)", source=SRC.cite("l.70"), scope="sizes",
                  sizes="<= 4 entries in {-1, 0, 1}, five multipliers") as s:
        cs = [Fraction(-3), Fraction(-1, 2), Fraction(0), Fraction(2, 3), Fraction(5)]
        bad = [(M, str(c)) for M in small for c in cs
               if composite_sq([[c * v for v in r] for r in M]) != c * c * composite_sq(M)]
        s.record(multipliers=[str(c) for c in cs])
        s.require(not bad, "homogeneity fails", counterexample=bad[:1])


def _triangle_inequality(ctx):
    with ctx.step("triangle inequality ||X+Y||_{1,inf} <= ||X||_{1,inf} + ||Y||_{1,inf} (needed "
                  "for Definition 2.1's 'norm'): search by number of entries, then entry bound, "
                  "overall and among square matrices; no counterexample has one entry (a 1 x 1 "
                  "matrix has ||X||_{1,inf} = |x|, a norm), so the first pair found, with two "
                  "entries, has the least number of entries",
                  source=SRC.cite("l.68-70, l.130"), scope="instance",
                  sizes="X = [[0, 1]], Y = [[1, 1]] (1 x 2)") as s:
        smallest = _first_triangle_failure(_shapes(4), 2, composite_sq)
        square = _first_triangle_failure([(2, 2)], 1, composite_sq)
        entrywise = _first_triangle_failure(_shapes(4), 1, _entrywise_sq)
        one_entry = norm1([[7]]) == 7 == norminf([[7]]) and composite_sq([[-3]]) == 9
        if smallest is not None and one_entry:
            n_entries = smallest["shape"][0] * smallest["shape"][1]
            s.least("number of entries of a counterexample", n_entries,
                    proven_by="a 1 x 1 matrix [[x]] has ||X||_1 = ||X||_inf = |x| (computed), "
                              "so ||X||_{1,inf} = |x| obeys the triangle inequality for every "
                              "real x; the pair found has 2 entries")
        if square is not None:
            s.least("square shape of a counterexample", "2 x 2",
                    proven_by="the only smaller square shape is 1 x 1, where no counterexample "
                              "exists (above)")
        rng = random.Random(SEED)
        trials = 20000 if ctx.full else 3000
        hits = 0
        for _ in range(trials):
            X = [[rng.randint(-3, 3) for _ in range(3)] for _ in range(3)]
            Y = [[rng.randint(-3, 3) for _ in range(3)] for _ in range(3)]
            hits += triangle_fails(X, Y)
        s.record(first_found=smallest, first_found_square=square,
                 entrywise_reading_first_found=entrywise, one_entry_is_a_norm=one_entry,
                 random_3x3={"entries": "-3..3", "seed": SEED, "trials": trials,
                             "failures": hits})
        s.require(smallest is None, "the triangle inequality fails, so sqrt(||X||_1 ||X||_inf) "
                  "is not a norm (answering the notes' question at l.130)",
                  counterexample=smallest)


def _submultiplicativity(ctx):
    with ctx.step("submultiplicativity ||XY||_{1,inf} <= ||X||_{1,inf} ||Y||_{1,inf} (not "
                  "claimed by the notes; it follows from submultiplicativity of ||.||_1 and "
                  "||.||_inf): exhaustive 2 x 2 with entries in {-1,0,1}, exact squares",
                  source=SRC.cite("l.70"), scope="sizes",
                  sizes="2 x 2, entries in {-1, 0, 1}") as s:
        mats = list(_matrices(2, 2, 1))
        bad = [(X, Y) for X, Y in itertools.product(mats, repeat=2)
               if composite_sq(_matmul(X, Y)) > composite_sq(X) * composite_sq(Y)]
        s.record(pairs=len(mats) ** 2)
        s.require(not bad, "submultiplicativity fails", counterexample=bad[:1])


def _printed_res_is_well_defined(ctx):
    with ctx.step("res(X) is well defined as printed, reading ||.||_2 as the spectral norm: "
                  "for X = [[1,0],[-1,0]] every x = (0, s) with |s| <= 1 attains the minimum "
                  "||X - 1x^T||_2^2 = 2 (exact: (X-1x^T)^T (X-1x^T) = diag(2, 2s^2), and "
                  "u^T (X-1x^T) e_1 = sqrt 2 for u = (1,-1)/sqrt 2 bounds every x from below)",
                  source=SRC.cite("l.72-74"), scope="instance", sizes="X = [[1, 0], [-1, 0]]") as s:
        X = sympy.Matrix([[1, 0], [-1, 0]])
        x1, x2 = sympy.symbols("x1 x2", real=True)
        M = X - sympy.ones(2, 1) * sympy.Matrix([[x1, x2]])
        u = sympy.Matrix([1, -1])
        lower = sympy.simplify((u.T * M * sympy.Matrix([1, 0]))[0] ** 2 / 2)   # = 2
        minimisers = []
        for sv in (Fraction(0), Fraction(1, 2), Fraction(1)):
            G = (M.T * M).subs({x1: 0, x2: sympy.Rational(sv.numerator, sv.denominator)})
            lam = max(G.eigenvals())
            R = [[Fraction(int(v.p), int(v.q)) for v in M.subs(
                {x1: 0, x2: sympy.Rational(sv.numerator, sv.denominator)}).row(i)]
                for i in range(2)]
            minimisers.append({"x": ["0", str(sv)], "spectral_norm_sq": str(lam),
                               "res": [[str(v) for v in r] for r in R],
                               "composite_sq_of_res": str(composite_sq(R))})
        s_sym = sympy.Symbol("s", real=True)
        family = sympy.simplify((M.T * M).subs({x1: 0, x2: s_sym})
                                - sympy.diag(2, 2 * s_sym ** 2))
        s.record(family_gram_minus_diag_2_2s2=str(family))
        all_min = (family == sympy.zeros(2, 2) and lower == 2
                   and all(m["spectral_norm_sq"] == "2" for m in minimisers))
        distinct = len({m["composite_sq_of_res"] for m in minimisers}) > 1
        s.record(lower_bound_sq=str(lower), minimisers=minimisers)
        s.require(not (all_min and distinct),
                  "under the spectral reading the argmin in res(X) is not unique and "
                  "||res X||_{1,inf}^2 ranges over [2, 4] for this X: res is ill-defined",
                  counterexample={"X": [[1, 0], [-1, 0]], "minimisers": minimisers})


def _frobenius_res_is_column_centring(ctx):
    with ctx.step("corrected (Frobenius reading): ||X - 1x^T||_F^2 = ||X - 1m^T||_F^2 + "
                  "n ||x - m||^2 with m the column means (sympy, symbolic 3 x 2), so the "
                  "minimiser is unique and res(X) = X - 1m^T; then res(X + 1y^T) = res(X), "
                  "res(res X) = res X, res(XW) = res(X) W, res(PX) = res(P res X) for "
                  "row-stochastic P (exact, seeded)", source=SRC.cite("l.72-74"),
                  corrected=True, scope="sizes",
                  sizes="symbolic 3 x 2; rational matrices up to 4 x 3") as s:
        n, d = 3, 2
        A = sympy.Matrix(n, d, lambda i, j: sympy.Symbol(f"a{i}{j}", real=True))
        xs = sympy.Matrix(1, d, lambda i, j: sympy.Symbol(f"x{j}", real=True))
        m = sympy.Matrix(1, d, lambda i, j: sum(A[k, j] for k in range(n)) / n)
        lhs = sum(v ** 2 for v in (A - sympy.ones(n, 1) * xs))
        rhs = sum(v ** 2 for v in (A - sympy.ones(n, 1) * m)) + n * sum(
            v ** 2 for v in (xs - m))
        identity = sympy.expand(lhs - rhs) == 0
        rng = random.Random(SEED)
        bad = []
        for _ in range(100 if ctx.full else 30):
            rows, cols = rng.randint(1, 4), rng.randint(1, 3)
            X = [[Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(cols)]
                 for _ in range(rows)]
            y = [Fraction(rng.randint(-9, 9)) for _ in range(cols)]
            W = [[Fraction(rng.randint(-3, 3)) for _ in range(2)] for _ in range(cols)]
            P = []
            for _ in range(rows):
                w = [rng.randint(1, 5) for _ in range(rows)]
                P.append([Fraction(v, sum(w)) for v in w])
            r = res_frobenius(X)
            ok = (res_frobenius([[v + y[j] for j, v in enumerate(row)] for row in X]) == r
                  and res_frobenius(r) == r
                  and res_frobenius(_matmul(X, W)) == _matmul(r, W)
                  and res_frobenius(_matmul(P, X)) == res_frobenius(_matmul(P, r)))
            if not ok:
                bad.append({"X": [[str(v) for v in row] for row in X]})
        s.record(symbolic_identity=identity, seed=SEED,
                 note="norm_1/norm_inf are the induced norms",
                 example_norms={"X": [[1, 2], [3, -4]], "norm1": str(norm1([[1, 2], [3, -4]])),
                                "norminf": str(norminf([[1, 2], [3, -4]]))})
        s.require(identity and not bad, "Frobenius residual property fails",
                  counterexample=bad[:1])
