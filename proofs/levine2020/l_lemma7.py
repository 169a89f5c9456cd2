"""L-Lemma7: a unique top-degree permutation makes det A a nonzero polynomial.

Source: levine2020_depth_to_width_self_attention.txt, B.3, Lemma 7 (l.817-824).
Why: B.2 needs det A(Omega) != 0 for all but finitely many Omega (l.718).

Lemma 7 (l.817-824), in our words: let A be an N x N matrix whose entries are
polynomials in one variable x, and write det A = sum_sigma sgn(sigma) p_sigma(x)
with p_sigma = prod_i A_{i, sigma(i)}. If some permutation sigma-bar has
deg p_sigma-bar > deg p_sigma for every other sigma, then A is invertible for
all x outside a finite set. The proof: the top coefficient of det A is
sgn(sigma-bar) times that of p_sigma-bar, so det A is not the zero polynomial
and has finitely many roots.

B.2 (l.712-718) applies it to A(Omega) = [Omega^<q_alpha, q_beta>] over the
compositions of lambda into d parts, with sigma-bar = identity (Lemma 8).

Steps: the statement as printed (it fails in the degenerate case N = 1, where
the hypothesis is vacuous); the corrected statement on constructed polynomial
matrices, with the determinant computed by two independent exact methods;
why the hypothesis matters; and the application to A(Omega): degree, leading
coefficient, cross-checks, bad integer Omega.
"""

from __future__ import annotations

import itertools
import random

import flint
import sympy
from seprank_proofs import LEVINE2020

from seprank.combinatorics import multiset
from seprank.papers.levine2020.omega_polynomial import (
    bad_integer_omegas,
    check_polynomial_at_points,
    composition_exponents,
    count_real_roots,
    identity_exponent,
    leibniz_det_polynomial,
    omega_det_polynomial,
    polynomial_matrix_det,
    top_permutation,
)
from seprank.papers.levine2020.rearrangement import permutation_sign
from seprank.proof.scaffold import erratum_if_failed, paper_check

SRC = LEVINE2020
SEED = 20200717

#: (d, lambda) for the A(Omega) application
OMEGA_CASES = {False: [(1, 1), (1, 3), (2, 1), (2, 2), (3, 1), (2, 3), (3, 2), (4, 1), (2, 4),
                       (3, 3), (4, 2), (5, 2), (3, 4), (4, 3), (2, 9), (5, 3), (4, 4), (3, 5)],
               True: [(1, 1), (1, 3), (2, 1), (2, 2), (3, 1), (2, 3), (3, 2), (4, 1), (2, 4),
                      (3, 3), (4, 2), (5, 2), (3, 4), (4, 3), (2, 9), (5, 3), (4, 4), (3, 5),
                      (6, 2), (7, 2), (6, 3), (5, 4), (3, 7), (10, 2), (3, 9)]}
LEIBNIZ_MAX_N = {False: 8, True: 9}


def _poly_str(p: flint.fmpz_poly) -> str:
    return str(p)


def _random_poly(rng: random.Random, degree: int) -> flint.fmpz_poly:
    """A random integer polynomial of exactly the given degree (-1: the zero polynomial)."""
    if degree < 0:
        return flint.fmpz_poly([])
    coeffs = [rng.randint(-3, 3) for _ in range(degree)]
    coeffs.append(rng.choice([-2, -1, 1, 2, 3]))
    return flint.fmpz_poly(coeffs)


def _unique_top(polys: list[list[flint.fmpz_poly]]) -> tuple[tuple[int, ...] | None, int]:
    """(sigma-bar, t) if exactly one permutation has the largest deg p_sigma, else (None, t)."""
    n = len(polys)
    best, arg, ties = None, None, 0
    for s in itertools.permutations(range(n)):
        if any(polys[i][s[i]].is_zero() for i in range(n)):
            continue
        deg = sum(polys[i][s[i]].degree() for i in range(n))
        if best is None or deg > best:
            best, arg, ties = deg, s, 1
        elif deg == best:
            ties += 1
    return (arg if ties == 1 else None), (-1 if best is None else best)


def _sympy_det(polys: list[list[flint.fmpz_poly]]) -> flint.fmpz_poly:
    x = sympy.Symbol("x")
    M = sympy.Matrix([[sum(int(c) * x**k for k, c in enumerate(p.coeffs())) for p in row]
                      for row in polys])
    det = sympy.Poly(sympy.expand(M.det(method="berkowitz")), x)
    coeffs = [int(c) for c in reversed(det.all_coeffs())]
    return flint.fmpz_poly(coeffs)


def _constructed_example(rng: random.Random, n: int):
    """A polynomial matrix with a unique top-degree permutation sigma-bar (random)."""
    sigma_bar = list(range(n))
    rng.shuffle(sigma_bar)
    degs = [[rng.randint(-1, 2) for _ in range(n)] for _ in range(n)]
    for i in range(n):
        degs[i][sigma_bar[i]] = rng.randint(3, 4)
    return [[_random_poly(rng, degs[i][j]) for j in range(n)] for i in range(n)]


def _step_printed_n1(ctx):
    """Step 1: the statement as printed fails at N = 1 (A = [[0]])."""
    with ctx.step("Lemma 7 as printed, the case N = 1: S_1 has no permutation other "
                  "than sigma-bar, so the degree hypothesis holds vacuously and the lemma "
                  "claims that every 1 x 1 polynomial matrix is invertible for all but finitely "
                  "many x", source=SRC.cite("l.817-819 (statement), l.820-823 (proof)"),
                  scope="instance", sizes="N = 1, A = [[0]]") as s:
        zero = [[flint.fmpz_poly([])]]
        det = polynomial_matrix_det(zero)
        others = [p for p in itertools.permutations(range(1)) if p != (0,)]
        s.record(N=1, A="[[0]]", permutations_other_than_sigma_bar=len(others),
                 det=_poly_str(det), det_is_zero_polynomial=det.is_zero())
        s.require(not det.is_zero(),
                  "false for A = [[0]]: the hypothesis holds vacuously, yet A is singular at "
                  "every x. The proof takes a nonzero top coefficient of p_sigma-bar for "
                  "granted (l.822), i.e. it needs p_sigma-bar != 0; for N >= 2 that follows "
                  "from the strict degree inequality with deg 0 = -inf",
                  counterexample={"N": 1, "A": [[0]], "det": 0, "sigma_bar": [0],
                                  "p_sigma_bar": "0", "bad_x": "every x"})


def _step_corrected(ctx, rng):
    """Step 2: the corrected lemma on random matrices with a unique top permutation."""
    with ctx.step("Corrected Lemma 7 (add: p_sigma-bar is not the zero polynomial; automatic "
                  "for N >= 2 with deg 0 = -inf): det A has degree t = deg p_sigma-bar and "
                  "top coefficient sgn(sigma-bar) * lc(p_sigma-bar), so A(x) is singular for "
                  "at most t values of x. Checked on random integer polynomial matrices with a "
                  "unique top permutation, det by Kronecker substitution (flint) and by sympy",
                  source=SRC.cite("l.817-824"), corrected=True, scope="sizes",
                  sizes="random integer polynomial matrices, N <= 5 (see evidence)") as s:
        cases = []
        for n in (2, 3, 4, 5) if ctx.full else (2, 3, 4):
            for _ in range(12 if ctx.full else 6):
                polys = _constructed_example(rng, n)
                sigma_bar, t = _unique_top(polys)
                if sigma_bar is None:  # cannot happen by construction; keep the guard honest
                    s.fail("constructed example has no unique top permutation",
                           counterexample=[[str(p) for p in row] for row in polys])
                    continue
                det = polynomial_matrix_det(polys)
                det_sympy = _sympy_det(polys) if n <= 4 else None
                lc_top = 1
                for i in range(n):
                    lc_top *= int(polys[i][sigma_bar[i]].leading_coefficient())
                expected_lc = permutation_sign(sigma_bar) * lc_top
                bad = bad_integer_omegas(det) if not det.is_zero() else None
                entry = {"N": n, "sigma_bar": list(sigma_bar), "t": t,
                         "det_degree": det.degree(),
                         "det_lc": int(det.leading_coefficient()) if not det.is_zero() else 0,
                         "expected_lc": expected_lc, "bad_integer_x": bad,
                         "distinct_real_bad_x": count_real_roots(det)
                         if not det.is_zero() else None}
                cases.append(entry)
                counter = dict(entry, A=[[str(p) for p in row] for row in polys])
                s.require(det_sympy is None or det_sympy == det,
                          "flint and sympy determinants differ", counterexample=counter)
                s.require(det.degree() == t and entry["det_lc"] == expected_lc,
                          "det A does not have degree t and top coefficient "
                          "sgn(sigma-bar) lc(p_sigma-bar)", counterexample=counter)
                s.require(entry["distinct_real_bad_x"] <= t, "more than t bad values",
                          counterexample=counter)
                for x0 in (bad or [])[:2]:
                    Ax = flint.fmpz_mat([[int(p(flint.fmpz(x0))) for p in row] for row in polys])
                    s.require(Ax.det() == 0, "a root of det A is not a singular point",
                              counterexample=dict(counter, x=x0))
        s.record(cases=cases, seed=SEED, examples=len(cases))


def _step_hypothesis_matters(ctx):
    """Step 3: two top permutations can cancel; the hypothesis is not necessary."""
    with ctx.step("The hypothesis is not idle: with two top-degree permutations the top terms "
                  "can cancel (A = [[x, x], [x, x]]: det = 0 for all x), and it is sufficient "
                  "but not necessary (A = [[x, x], [x, 2x]]: two top permutations, det = x^2)",
                  source=SRC.cite("l.818-819"),
                  scope="instance", sizes="N = 2, two 2 x 2 matrices") as s:
        x1 = flint.fmpz_poly([0, 1])
        x2 = flint.fmpz_poly([0, 2])
        cancel = [[x1, x1], [x1, x1]]
        keep = [[x1, x1], [x1, x2]]
        d_cancel, d_keep = polynomial_matrix_det(cancel), polynomial_matrix_det(keep)
        s.record(cancel_det=_poly_str(d_cancel), cancel_unique_top=_unique_top(cancel)[0],
                 keep_det=_poly_str(d_keep), keep_unique_top=_unique_top(keep)[0])
        s.require(d_cancel.is_zero() and _unique_top(cancel)[0] is None,
                  "expected the cancelling example to have det 0 and no unique top")
        s.require(d_keep == flint.fmpz_poly([0, 0, 1]) and _unique_top(keep)[0] is None,
                  "expected det = x^2 without a unique top")


def _step_omega_application(ctx):
    """Step 4: the application to A(Omega) of B.2 (degree, leading coefficient)."""
    with ctx.step("Application (B.2): for A(Omega) = [Omega^<q_a, q_b>] every p_sigma is the "
                  "monomial Omega^{e(sigma)} and the identity is the unique top permutation "
                  "(Lemma 8, duality certificate), so det A(Omega) has degree "
                  "D = sum_a |q_a|^2 and leading coefficient sgn(id) = +1",
                  source=SRC.cite("l.712-718"),
                  scope="sizes", sizes="the (d, lambda) of the evidence") as s:
        rows = []
        for d, lam in OMEGA_CASES[ctx.full]:
            Q, E = composition_exponents(d, lam)
            n = len(Q)
            poly = omega_det_polynomial(d, lam)
            D = identity_exponent(d, lam)
            top = top_permutation(d, lam)
            evals = check_polynomial_at_points(poly, E, (2, 3, -2, 7))
            leib = None
            if n <= LEIBNIZ_MAX_N[ctx.full]:
                leib = leibniz_det_polynomial(E, max_n=LEIBNIZ_MAX_N[ctx.full]) == poly
            lowest = next(j for j, c in enumerate(poly.coeffs()) if c != 0)
            entry = {"d": d, "lam": lam, "n": n, "identity_exponent": D,
                     "degree": poly.degree(),
                     "leading_coefficient": int(poly.leading_coefficient()),
                     "lowest_degree": lowest, "terms": sum(1 for c in poly.coeffs() if c != 0),
                     "identity_unique_top": top["unique"],
                     "second_best_exponent": top["second_best_exponent"],
                     "evaluations_agree": evals["agree"], "leibniz_agrees": leib,
                     "bad_integer_omegas": bad_integer_omegas(poly),
                     "distinct_real_bad_omegas": count_real_roots(poly)}
            if n <= 4:
                entry["polynomial"] = _poly_str(poly)
            rows.append(entry)
            s.require(top["unique"] and top["certificate_valid"],
                      "identity is not the certified unique top permutation", counterexample=entry)
            s.require(poly.degree() == D and entry["leading_coefficient"] == 1,
                      "det A(Omega) does not have degree D and leading coefficient +1",
                      counterexample=entry)
            s.require(evals["agree"], "polynomial disagrees with exact determinants",
                      counterexample=dict(entry, mismatches=evals["mismatches"]))
            s.require(leib is not False, "polynomial disagrees with the Leibniz sum",
                      counterexample=entry)
        s.record(cases=rows, largest_n=max(r["n"] for r in rows),
                 bad_integer_omegas_union=sorted({w for r in rows
                                                  for w in r["bad_integer_omegas"]}))


def _step_closed_forms(ctx):
    """Step 5: closed forms of det A(Omega) for lambda = 1 and d = 1 (ours)."""
    with ctx.step("Closed forms we found for the simplest ladders (our observation, exact): "
                  "lambda = 1 gives A = (Omega - 1) I + J and det = (Omega - 1)^(d-1) "
                  "(Omega + d - 1), bad Omega {1, 1 - d}; d = 1 gives det = Omega^(lambda^2), "
                  "bad Omega {0}", source=SRC.cite("l.712-718 (specializations)"), scope="sizes",
                  sizes="lambda = 1 and d = 1 ladders of the evidence") as s:
        out = []
        for d in range(1, 9 if ctx.full else 7):
            poly = omega_det_polynomial(d, 1)
            expected = flint.fmpz_poly([-1, 1]) ** (d - 1) * flint.fmpz_poly([d - 1, 1])
            out.append({"d": d, "lam": 1, "ok": poly == expected})
            s.require(poly == expected, "lambda = 1 closed form fails",
                      counterexample={"d": d, "poly": _poly_str(poly)})
        for lam in range(0, 6):
            poly = omega_det_polynomial(1, lam)
            expected = flint.fmpz_poly([0] * lam * lam + [1])
            out.append({"d": 1, "lam": lam, "ok": poly == expected, "n": multiset(1, lam)})
            s.require(poly == expected, "d = 1 closed form fails",
                      counterexample={"lam": lam, "poly": _poly_str(poly)})
        s.record(cases=out)


@paper_check(LEVINE2020, "L-Lemma7", "a unique top-degree permutation makes det A(x) a nonzero "
                                     "polynomial, so A(x) is singular at finitely many x",
             where="B.3 l.817-824", depends=("L-Lemma8",), kind="lemma",
             statement="Lemma 7: if one permutation sigma-bar has deg p_sigma-bar > deg "
                       "p_sigma for every other sigma, then A(x) is invertible for all but "
                       "finitely many x")
def l_lemma7(ctx):
    rng = random.Random(SEED)

    _step_printed_n1(ctx)
    _step_corrected(ctx, rng)
    _step_hypothesis_matters(ctx)
    _step_omega_application(ctx)
    _step_closed_forms(ctx)

    # -- outcome (seprank.proof.claims) --
    erratum_if_failed(ctx, "Lemma 7 as printed, the case N = 1", "l.817-819 (statement)",
                      "no condition on p_sigma-bar",
                      "p_sigma-bar is not the zero polynomial (automatic for N >= 2 with "
                      "deg 0 = -infinity)", "missing-hypothesis",
                      hypothesis="p_sigma-bar != 0 (equivalently N >= 2 under the strict degree "
                                 "hypothesis)", verified_by="Corrected Lemma 7",
                      anchor="Lemma 7")
    ctx.conclude("holds-corrected", "proof",
                 "with p_sigma-bar != 0 the top coefficient of det A is sgn(sigma-bar) times "
                 "that of p_sigma-bar (the paper's argument, l.820-823), so det A is a nonzero "
                 "polynomial with finitely many roots; step 2 checks it with two independent "
                 "determinants", basis="argument", argument_steps=("Corrected Lemma 7",))
