"""R-shift: row-wise softmax ignores a constant added to each row (rank_collapse_notes l.27-31).

Source: rank_collapse_notes.txt l.27-31. Why: the notes name this invariance as the basis
of the path decomposition theorem (l.31, R-path).

The notes write softmax(A + x 1^T) = softmax(A): x 1^T adds x_i to every entry
of row i, and softmax acts on each row. Steps: a symbolic proof with sympy for
small shapes (exp(a + c) = exp(a) exp(c), then the common factor cancels); the
same identity in multiplicative form over the rationals (u_j = exp(a_j) and
t = exp(c) are arbitrary positive numbers, so t u_i / sum_j t u_j = u_i / sum_j u_j
is the whole content); and, as a remark, that a column shift 1 y^T is not
invariant (the section 2.4 formula softmax(1 r^T + E) keeps r for that reason).
"""

from __future__ import annotations

import random
from fractions import Fraction

import sympy
from seprank_proofs import RANK_COLLAPSE

from seprank.papers.rank_collapse.pure_attention import softmax_rows_symbolic
from seprank.proof import Claim, check

SRC = RANK_COLLAPSE
SEED = 20210520


CLAIM_R_SHIFT = Claim("proposition",
                      "the row-wise softmax is shift invariant: softmax(A + x 1^T) = softmax(A)",
                      SRC.cite("l.27-31"))

@check(id="R-shift", title="softmax(A + x 1^T) = softmax(A), row-wise softmax",
       source=SRC.cite("l.27-31"),
       claim=CLAIM_R_SHIFT, paper=RANK_COLLAPSE)
def r_shift(ctx):
    shapes = [(n, m) for n in range(1, 4) for m in range(1, 4)]
    if ctx.full:
        shapes += [(4, 4), (2, 5), (5, 2)]

    with ctx.step("for symbolic A (n x m) and x (n): every entry of softmax(A + x 1^T) minus "
                  "the entry of softmax(A) simplifies to 0 once exp(a + c) is split into "
                  "exp(a) exp(c) (sympy, all shapes listed); and for a row of symbolic length m, "
                  "exp(a_j + c) / sum_{k<=m} exp(a_k + c) = exp(a_j) / sum_{k<=m} exp(a_k) once "
                  "exp(c) is taken out of the sum (sympy, symbolic m)", source=SRC.cite("l.29"),
                  kind="symbolic") as s:
        general = _row_identity_of_symbolic_length()
        s.could_fail("row_of_length_m", _row_identity_of_symbolic_length, True,
                     {"the shift c added to the numerator only": False})
        s.record(symbolic_row_of_length_m=general)
        s.require(general, "the row identity fails for symbolic m")
        bad = []
        for n, m in shapes:
            A = sympy.Matrix(n, m, lambda i, j: sympy.Symbol(f"a{i}{j}", real=True))
            x = [sympy.Symbol(f"x{i}", real=True) for i in range(n)]
            shifted = A + sympy.Matrix(n, 1, x) * sympy.ones(1, m)
            D = softmax_rows_symbolic(shifted) - softmax_rows_symbolic(A)
            for i in range(n):
                for j in range(m):
                    expr = sympy.expand(D[i, j], power_exp=True, mul=False)
                    if sympy.cancel(sympy.together(expr)) != 0:
                        bad.append({"shape": [n, m], "entry": [i, j], "residue": str(expr)})
        s.record(shapes=shapes)
        s.require(not bad, "a shifted softmax entry differs", counterexample=bad[:1])

    with ctx.step("multiplicative form over Q: for positive rationals u_1..u_m (standing for "
                  "exp(a_j)) and t (standing for exp(c)), t u_i / sum_j t u_j = u_i / sum_j u_j "
                  "exactly (seeded random rows)", source=SRC.cite("l.29"), scope="sizes",
                  sizes="rows of length <= 6") as s:
        rng = random.Random(SEED)
        trials = 2000 if ctx.full else 300
        bad = []
        for _ in range(trials):
            m = rng.randint(1, 6)
            u = [Fraction(rng.randint(1, 50), rng.randint(1, 50)) for _ in range(m)]
            t = Fraction(rng.randint(1, 10 ** 6), rng.randint(1, 10 ** 6))
            lhs = [t * v / sum(t * w for w in u) for v in u]
            rhs = [v / sum(u) for v in u]
            if lhs != rhs:
                bad.append({"u": [str(v) for v in u], "t": str(t)})
        s.record(seed=SEED, trials=trials)
        s.require(not bad, "the multiplicative identity fails", counterexample=bad[:1])

    with ctx.step("with rational entries the identity also holds in sympy's exact arithmetic "
                  "(exp of rationals kept symbolic): seeded 3 x 3 instances",
                  source=SRC.cite("l.29"), scope="sizes", sizes="3 x 3") as s:
        rng = random.Random(SEED + 1)
        bad = []
        for _ in range(5 if ctx.full else 2):
            A = sympy.Matrix(3, 3, lambda i, j: sympy.Rational(rng.randint(-9, 9),
                                                               rng.randint(1, 4)))
            x = sympy.Matrix(3, 1, lambda i, j: sympy.Rational(rng.randint(-9, 9),
                                                               rng.randint(1, 4)))
            D = softmax_rows_symbolic(A + x * sympy.ones(1, 3)) - softmax_rows_symbolic(A)
            if any(sympy.simplify(v) != 0 for v in D):
                bad.append({"A": str(A), "x": str(x)})
        s.require(not bad, "an exact rational instance differs", counterexample=bad[:1])

    with ctx.step("remark (not a claim of the notes): a constant added to each column, 1 y^T, "
                  "does change a row-wise softmax; the notes' identity is about rows only",
                  source=SRC.cite("l.29, l.118"), scope="instance", sizes="1 x 2") as s:
        A = sympy.zeros(1, 2)
        y = sympy.Matrix([[0, 1]])
        changed = softmax_rows_symbolic(A + y) - softmax_rows_symbolic(A)
        s.record(A=str(A), y=str(y), difference=str(sympy.simplify(changed)))
        s.require(any(sympy.simplify(v) != 0 for v in changed),
                  "column shift unexpectedly invariant")

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "a symbolic identity for general A and x, rows of symbolic length (step 1: "
                 "exp(a + c) = exp(a) exp(c) cancels in each row's quotient)", basis="identity")


def _row_identity_of_symbolic_length(shift_denominator: bool = True) -> bool:
    """exp(a_j + c) / sum_{k<=m} exp(a_k + c) = exp(a_j) / sum_{k<=m} exp(a_k), symbolic m.

    ``shift_denominator=False`` shifts the numerator only, and the identity fails."""
    m_, j_, k_ = sympy.Symbol("m", integer=True, positive=True), *sympy.symbols(
        "j k", integer=True)
    c_, a_ = sympy.Symbol("c", real=True), sympy.IndexedBase("a")
    shift = c_ if shift_denominator else 0
    row = sympy.expand(sympy.exp(a_[j_] + c_) / sympy.Sum(sympy.exp(a_[k_] + shift),
                                                           (k_, 1, m_)), power_exp=True)
    row = row.replace(lambda e: isinstance(e, sympy.Sum), lambda e: sympy.factor_terms(
        sympy.Sum(sympy.expand(e.function, power_exp=True), *e.limits)))
    general = sympy.simplify(row - sympy.exp(a_[j_]) / sympy.Sum(sympy.exp(a_[k_]),
                                                                 (k_, 1, m_))) == 0
    return general
