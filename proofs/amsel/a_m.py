"""A-M: a head that sees an r-dimensional projection of x touches at most M(d, l) <= C(r+l, l)
directions of the degree-l harmonic space.

Source: amsel_benefits_of_rank_talk.txt, "Expansion of the head functions", l.691-700.
The talk's lemma (l.695) says phi_h(K_h^T x, y) is orthogonal to T(Y_l^i (x) Y_l^i) for all
Y_l^i in the l-th harmonic except a subspace of dimension M(d, l) <= C(r+l, l). We check the
x-side count behind it: after a rotation, K_h^T x is the first r coordinates x' of x, and any
square-integrable function of x' is a limit of polynomials in x'; the H_l components of those
polynomials span the part of H_l the head can touch. Its dimension is an exact rank
(seprank.papers.amsel.harmonics.touched_harmonic_dimension). The operator T and the y side
are not checked here. Why: this count is the head lemma of Theorem 2's sketch (l.695); A-Thm2
depends on it.
"""

from __future__ import annotations

from math import comb

from seprank_proofs import AMSEL

from seprank.combinatorics import compositions
from seprank.papers.amsel.harmonics import (
    harmonic_dimension_closed_form,
    laplacian_power_on_subspace,
    touched_harmonic_dimension,
)
from seprank.proof import Claim, check

SRC = AMSEL

FAST = {"d": range(2, 7), "l": range(0, 7), "extra": 2}
FULL = {"d": range(2, 8), "l": range(0, 7), "extra": 2}


CLAIM_A_M = Claim("claim",
                  "a head that sees only an r-dimensional projection x' of its input touches "
                  "at most M(d, l) <= C(r+l, l) directions of the degree-l harmonics",
                  SRC.cite("l.691-700"))

def _grid_sizes(grid) -> str:
    return f"d <= {max(grid['d'])}, r <= d, l <= {max(grid['l'])}"


@check(id="A-M", title="a rank-r head touches at most C(r+l, l) degree-l harmonic directions",
       source=SRC.cite("l.691-700"), depends=("A-harm",),
       claim=CLAIM_A_M, paper=AMSEL)
def a_m(ctx):
    grid = FULL if ctx.full else FAST

    with ctx.step("Laplacian^k of a polynomial in x_1..x_r is again a polynomial in x_1..x_r, so "
                  "the H_l components of all polynomials in x' lie in the H_l components of "
                  "P_l(x'), a space of dimension <= C(r+l-1, l)", source=SRC.cite("l.693"),
                  scope="sizes", sizes=_grid_sizes(grid)) as s:
        outside = []
        for d in grid["d"]:
            for r in range(1, d + 1):
                for l in grid["l"]:
                    for k in range(grid["extra"] + 1):
                        mons = compositions(l, d)
                        rows = laplacian_power_on_subspace(d, r, l + 2 * k, k)
                        for row in rows:
                            for c, e in zip(row, mons, strict=True):
                                if c and any(e[r:]):
                                    outside.append({"d": d, "r": r, "l": l, "k": k,
                                                    "monomial": e})
        s.record(violations=outside[:3])
        s.require(not outside, "Laplacian power left the x' variables",
                  counterexample=outside[:1])

    with ctx.step("Exact dimension M(d, l) of the touched part of H_l for every d, r <= d, l in "
                  "the grid (polynomials in x' of degree l, l+2, ..., l+2K; the rank stops "
                  "growing after degree l), against the printed bound M(d, l) <= C(r+l, l)",
                  source=SRC.cite("l.695-696"), scope="sizes", sizes=_grid_sizes(grid)) as s:
        table, rows = {}, []
        for d in grid["d"]:
            for r in range(1, d + 1):
                dims = []
                for l in grid["l"]:
                    by_extra = [touched_harmonic_dimension(d, r, l, e)["touched_dim"]
                                for e in (0, grid["extra"])]
                    m = by_extra[-1]
                    row = {"d": d, "r": r, "l": l, "M_deg_l_vs_up_to_l+2K": by_extra, "M": m,
                           "printed_bound_C(r+l,l)": comb(r + l, l),
                           "N(d,l)": harmonic_dimension_closed_form(d, l)}
                    rows.append(row)
                    dims.append(m)
                    s.require(m <= comb(r + l, l), "M(d, l) exceeds the printed C(r+l, l)",
                              counterexample=row)
                    s.require(len(set(by_extra)) == 1,
                              "higher-degree polynomials in x' touched more of H_l",
                              counterexample=row)
                table[f"d={d},r={r}"] = dims
        s.record(degrees=list(grid["l"]), table_M=table, rows=rows)

    with ctx.step("Sharper exact value (our observation, not printed): M(d, l) = C(r+l-1, l) for "
                  "r < d and M(d, l) = N(d, l) for r = d, so the printed bound holds with room",
                  source=SRC.cite("l.695"), scope="sizes", sizes=_grid_sizes(grid)) as s:
        mism = []
        for d in grid["d"]:
            for r in range(1, d + 1):
                for l in grid["l"]:
                    m = touched_harmonic_dimension(d, r, l, 0)["touched_dim"]
                    want = comb(r + l - 1, l) if r < d else harmonic_dimension_closed_form(d, l)
                    if m != want:
                        mism.append({"d": d, "r": r, "l": l, "M": m, "formula": want})
        s.record(mismatches=mism[:5])
        s.require(not mism, "exact M differs from C(r+l-1, l)", counterexample=mism[:1])

    _printed_example_is_orthogonal(ctx)

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "step 1's argument: the degree-l harmonic part of a polynomial in x' is a "
                 "combination of Laplacian powers of polynomials in x' (again polynomials in "
                 "x' of degree <= l), a space of dimension C(r+l, l); steps 2-3 confirm the "
                 "count exactly on the grid", basis="argument",
                 argument_steps=["Laplacian^k of a polynomial"])


def _printed_example_is_orthogonal(ctx):
    with ctx.step("The printed example phi([x1; x2], y) is orthogonal to x3^5: every monomial "
                  "of g(x1, x2) * x3^5 has an odd exponent of x3, and the sphere measure is "
                  "invariant under x3 -> -x3, so each integral is zero: the integrand "
                  "g(x1, x2) x3^5 changes sign under x3 -> -x3 for every function g (sympy, g "
                  "an undefined function; with the even power x3^4 it would not)",
                  source=SRC.cite("l.694"), kind="symbolic") as s:
        import sympy

        x1, x2, x3 = sympy.symbols("x1 x2 x3")
        g = sympy.Function("g")

        def is_odd(power):
            integrand = g(x1, x2) * x3 ** power
            return sympy.simplify(integrand.subs(x3, -x3) + integrand) == 0

        odd = s.could_fail("odd_in_x3", is_odd, 5, {"x3^4 in place of x3^5": 4})
        s.record(argument="the reflection x3 -> -x3 preserves the sphere measure and negates "
                          "g * x3^5, so its integral over S^{d-1} equals its negative",
                 integrand_is_odd_in_x3=odd, d_required=">= 3")
        s.require(odd, "g(x1, x2) x3^5 is not odd in x3")
