"""Steps shared by L-Thm2-corrected and W-Thm1-corrected: the moment form's upper bound.

Not a check: each function adds steps to the check that calls it, with the source the
check passes (its paper's lines for the network, eq. (3) of levine2020 or eq. (5) of
wies2021). Every step states its evidence kind (issue 30): ``symbolic`` when its
computation is an identity in symbolic sizes (sympy with symbolic dimensions, exponents
and binomials) that is also run with a piece changed and seen to fail, ``prose`` when the
claim is an argument in words whose computations check parts or cross-check it (listed
sizes), ``computation`` when it is an exact computation at the listed sizes. The family's
steps (the lower bound) are :mod:`seprank_proofs._corrected_family`.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager
from fractions import Fraction
from itertools import product
from math import comb

import flint
import numpy as np
import sympy as sp

import seprank
from seprank.combinatorics import num_head_indices
from seprank.models import SelfAttentionNetwork
from seprank.network_theory.corrected_bounds import (
    block_upper,
    corrected_upper,
    monomials_up_to,
    upper_power_bound,
)
from seprank.network_theory.moment_form import moment_form_matrix, moment_matrix

__all__ = ["scoped_step", "moment_form_steps", "degree_steps", "count_step",
           "expansion_step", "coefficient_ranks_step", "product_bound_step", "mpoly_output"]

def scoped_step(ctx, claim: str, source: str, kind: str,
                sizes: str | None = None) -> AbstractContextManager:
    """``ctx.step(claim, source, kind=kind, sizes=sizes)``: every step here states its kind.

    ``kind``: ``symbolic``, ``exhaustive``, ``prose`` (all sizes; ``sizes``: where its
    cross-checks ran), ``certificate`` or ``computation`` (at ``sizes``).
    """
    return ctx.step(claim, source, kind=kind, sizes=sizes)


def _is_zero(expr) -> bool:
    """Whether a (matrix) expression expands to zero (scalar powers collected)."""
    out = sp.powsimp(sp.expand(expr))
    return out == 0 or bool(getattr(out, "is_ZeroMatrix", False))


def _layer_identities(right=None) -> dict[str, bool]:
    """The moment form's inductive step as identities of matrix products, symbolic sizes.

    ``right``: what multiplies S from the right in S_l = G S (right) (default G^T); the
    changed ``G`` (a dropped transpose) makes the identities fail."""
    n, m = sp.symbols("n m", integer=True, positive=True)
    G, S, A, B = (sp.MatrixSymbol(c, n, n) for c in ("G", "S", "A", "B"))
    x, y, yi = (sp.MatrixSymbol(c, n, 1) for c in ("x", "y", "y_i"))
    Q, K, V, Q2, K2, V2 = (sp.MatrixSymbol(c, m, n) for c in ("Q", "K", "V", "Q2", "K2", "V2"))
    O, O2 = sp.MatrixSymbol("O", n, m), sp.MatrixSymbol("O2", n, m)
    one = sp.MatrixSymbol("a", 1, 1)
    score = (Q * yi).T * (K * y)  # <W^Q y^i, W^K y^j>, a 1 x 1 matrix
    head = lambda Qh, Kh, Vh, Oh, M, v: Oh * Vh * M * Kh.T * Qh * v  # noqa: E731
    eye = sp.Identity(n)
    Gt = G.T if right is None else right(G)
    step = head(Q, K, V, O, G * S * Gt, G) + head(Q2, K2, V2, O2, G * S * Gt, G)
    return {
        "1x1 matrix equals its transpose": one.T.as_explicit() == one.as_explicit(),
        "score * O V y^j = O V y^j y^jT K^T Q y^i": _is_zero(
            O * V * y * score.T - head(Q, K, V, O, y * y.T, yi)),
        "sum over j (induction on N): O V (A + y y^T) K^T Q y^i splits": _is_zero(
            head(Q, K, V, O, A + y * y.T, yi) - head(Q, K, V, O, A, yi)
            - head(Q, K, V, O, y * y.T, yi)),
        "(G x)(G x)^T = G x x^T G^T": _is_zero((G * x) * (G * x).T - G * (x * x.T) * Gt),
        "G (A + B) G^T = G A G^T + G B G^T": _is_zero(G * (A + B) * Gt - G * A * Gt
                                                      - G * B * Gt),
        "plain: sum_h O V S_l K^T Q (G x) = G_{l+1} x with S_l = G S G^T (two heads)": _is_zero(
            head(Q, K, V, O, G * S * G.T, G * x) + head(Q2, K2, V2, O2, G * S * G.T, G * x)
            - step * x),
        "residual: G + sum_h (...) G = (I + sum_h O V G S G^T K^T Q) G": _is_zero(
            G + step - (eye + O * V * G * S * Gt * K.T * Q + O2 * V2 * G * S * Gt * K2.T * Q2)
            * G),
    }


MOMENT_INSTANCES = [(1, 2, 1, 2, 3, False), (2, 3, 2, 2, 2, False), (3, 2, 2, 1, 4, False),
                    (2, 4, 2, 3, 3, False), (2, 2, 1, 2, 3, True), (3, 2, 2, 1, 3, True),
                    (2, 3, 3, 1, 4, True)]


def moment_form_steps(ctx, source: str) -> None:
    """The moment form y^{L,i} = G_L(S) x^i: symbolic inductive step, then instances."""
    with scoped_step(ctx, "moment form: one layer maps y^{l,i} to sum_h W^O W^V S_l (W^K)^T "
                     "W^Q y^{l,i}, S_l = sum_j y^{l,j} y^{l,j}^T; if y^{l,j} = G_l x^j for "
                     "every j then S_l = G_l S G_l^T and y^{l+1,i} = G_{l+1} x^i with G_{l+1} "
                     "= sum_h W^O W^V G_l S G_l^T (W^K)^T W^Q G_l (residual: G_l + the same "
                     "sum); so y^{L,i} = G_L(S) x^i, G_0 = I. Checked as identities of matrix "
                     "products with symbolic sizes d_x = n, d_a = m (sympy MatrixSymbol); the "
                     "sum over j by induction on N (one added term), the sum over h is linear; "
                     "with S_l = G S G (a dropped transpose) the identities fail",
                     source, "symbolic") as s:
        found = _layer_identities()
        s.could_fail("layer_identities", lambda right: all(_layer_identities(right).values()),
                     None, {"S_l = G S G (transpose dropped)": lambda G: G})
        s.record(identities=found, sizes="symbolic n x n, m x n matrices")
        s.require(all(found.values()), "an identity of the inductive step fails",
                  failing=[k for k, v in found.items() if not v])
    with scoped_step(ctx, "cross-check: G_L(S) x^i equals the network's output exactly at "
                     "random rational inputs (plain and residual networks)", source,
                     "computation",
                     "L <= 3, d_x <= 4, H <= 3, d_a <= 3, N <= 4") as s:
        rng, rows = random.Random(2024), []
        for L, d_x, H, d_a, N, residual in MOMENT_INSTANCES:
            net = SelfAttentionNetwork.random(L, d_x, H, d_a, seed=rng.randrange(10 ** 6),
                                              kind="rational", residual=residual)
            X = [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(d_x)]
                 for _ in range(N)]
            pos = rng.randrange(N)
            G = moment_form_matrix(net, moment_matrix(X))
            ok = G.dot(np.array(X[pos], dtype=object)).tolist() == \
                net.evaluate([X], "QQ")[0, pos].tolist()
            rows.append({"L": L, "d_x": d_x, "H": H, "d_a": d_a, "N": N, "residual": residual,
                         "position": pos + 1, "equal": ok})
        s.record(instances=rows)
        s.require(all(r["equal"] for r in rows), "the moment form differs from the network",
                  counterexample=next((r for r in rows if not r["equal"]), None))


def _degree_symbolic(added: int = 1) -> dict:
    """The degree step; ``added``: the degree a layer adds beyond 3c (1; 0 fails)."""
    n, m = sp.symbols("n m", integer=True, positive=True)
    t, c = sp.symbols("t", positive=True), sp.symbols("c", integer=True, nonnegative=True)
    G, S = sp.MatrixSymbol("G", n, n), sp.MatrixSymbol("S", n, n)
    Q, K, V = (sp.MatrixSymbol(ch, m, n) for ch in "QKV")
    O = sp.MatrixSymbol("O", n, m)
    scaled = O * V * (t ** c * G) * (t * S) * (t ** c * G).T * K.T * Q * (t ** c * G)
    homog = _is_zero(scaled - t ** (3 * c + added) * (O * V * G * S * G.T * K.T * Q * G))
    f, l_ = sp.Function("c"), sp.symbols("l", integer=True, nonnegative=True)
    sol = sp.rsolve(f(l_ + 1) - 3 * f(l_) - added, f(l_), {f(0): 0})
    return {"G_l(tS) = t^c G_l(S) implies each head term of G_{l+1}(tS) is t^(3c+1) times "
            "its value at S": homog,
            "c_{l+1} = 3 c_l + 1, c_0 = 0 solves to": str(sol),
            "equals (3^L - 1)/2": sp.simplify(sol - (3 ** l_ - 1) / 2) == 0}


def _poly_matrix(d: int, entry) -> np.ndarray:
    out = np.empty((d, d), dtype=object)
    for a in range(d):
        for b in range(d):
            out[a, b] = entry(a, b)
    return out


DEGREE_INSTANCES = [(1, 3, 1, False), (2, 2, 2, False), (3, 2, 1, False), (2, 3, 1, False),
                    (2, 2, 1, True), (3, 2, 1, True), (3, 3, 3, True), (4, 2, 2, False)]


def degree_steps(ctx, source: str) -> None:
    """deg G_L = C(L) (homogeneous for the plain network, <= C(L) with residual connections)."""
    with scoped_step(ctx, "degree: if G_l is homogeneous of degree c in S, each term W^O W^V G_l "
                     "S G_l^T (W^K)^T W^Q G_l is homogeneous of degree 3c + 1 (symbolic scaling "
                     "S -> tS, G_l -> t^c G_l, symbolic c and sizes); the recurrence c_{l+1} = "
                     "3 c_l + 1, c_0 = 0 solves to c_L = (3^L - 1)/2 = C(L) (sympy rsolve). With "
                     "residual connections G_{l+1} = G_l + (terms of degree 3c + 1): degree "
                     "<= C(L), not homogeneous", source, "symbolic") as s:
        found = _degree_symbolic()
        s.record(**found)
        s.could_fail("degree_recurrence",
                     lambda added: all(v is True for v in _degree_symbolic(added).values()
                                       if isinstance(v, bool)),
                     1, {"a layer adds degree 3c (no + 1)": 0})
        s.require(found["G_l(tS) = t^c G_l(S) implies each head term of G_{l+1}(tS) is t^(3c+1) "
                        "times its value at S"] and found["equals (3^L - 1)/2"],
                  "the degree recurrence fails")
    with scoped_step(ctx, "cross-check: the entries of G_L(S0 + t S1) are polynomials of degree "
                     "<= C(L) in t (= C(L) for these weights), and for the plain network every "
                     "entry of G_L(t S0) is a single monomial c t^C(L) (exact fmpz_poly "
                     "arithmetic)", source, "computation", "L <= 4, d_x <= 3") as s:
        rng, rows = random.Random(77), []
        T = flint.fmpz_poly([0, 1])
        for L, d, H, residual in DEGREE_INSTANCES:
            net = SelfAttentionNetwork.random(L, d, H, seed=rng.randrange(10 ** 6),
                                              residual=residual, nonzero=True)
            A, B = ([[rng.randint(-3, 3) for _ in range(d)] for _ in range(d + 1)]
                    for _ in range(2))
            S0, S1 = moment_matrix(A), moment_matrix(B)
            St = _poly_matrix(d, lambda a, b, S0=S0, S1=S1: S0[a, b] + T * S1[a, b])
            G = moment_form_matrix(net, St)
            deg = max(flint.fmpz_poly(e).degree() for e in G.flat)
            G2 = moment_form_matrix(net, _poly_matrix(d, lambda a, b, S0=S0: T * S0[a, b]))
            mono = all(flint.fmpz_poly(e) == 0 or flint.fmpz_poly(e).coeffs()[:-1] ==
                       [0] * num_head_indices(L) for e in G2.flat)
            rows.append({"L": L, "d_x": d, "H": H, "residual": residual, "degree": deg,
                         "C(L)": num_head_indices(L), "top_monomial_only": mono})
        s.record(instances=rows)
        bad = [r for r in rows if r["degree"] > r["C(L)"]
               or (not r["residual"] and not (r["top_monomial_only"] and r["degree"] == r["C(L)"]))]
        s.require(not bad, "a degree differs from C(L)", counterexample=bad[:1])


def _brute_count(C: int, D: int) -> int:
    return sum(1 for g in product(range(C + 1), repeat=D) if sum(g) <= C)


def count_step(ctx, source: str) -> None:
    """#{gamma in N^D : |gamma| <= C} = C(C + D, D), symbolically."""
    with scoped_step(ctx, "count: T(D, C) = #{gamma in N^D : |gamma| <= C} satisfies T(D, C) = "
                     "T(D-1, C) + T(D, C-1) (gamma_1 = 0, or lower gamma_1 by one) and T(0, C) = "
                     "T(D, 0) = 1; C(C + D, D) satisfies the same recurrence (Pascal, sympy "
                     "combsimp with symbolic C, D) and boundary values, so T(D, C) = C(C + D, D) "
                     "for all C, D (double induction); cross-check: brute-force enumeration",
                     source, "symbolic") as s:
        C, D = sp.symbols("C D", integer=True, positive=True)

        def pascal_of(closed):
            return sp.simplify(sp.combsimp(closed(C, D) - closed(C, D - 1)
                                           - closed(C - 1, D)))

        pascal = pascal_of(lambda c, d: sp.binomial(c + d, d))
        s.could_fail("pascal_and_boundary",
                     lambda closed: pascal_of(closed) == 0 and closed(C, 0) == 1
                     and sp.simplify(closed(0, D)) == 1,
                     lambda c, d: sp.binomial(c + d, d),
                     {"C(C + D, D + 1) in place of C(C + D, D)":
                      lambda c, d: sp.binomial(c + d, d + 1)})
        boundary = (sp.binomial(C + 0, 0) == 1, sp.simplify(sp.binomial(0 + D, D)) == 1)
        brute = [(c, d) for c in range(9) for d in range(1, 7)
                 if _brute_count(c, d) != monomials_up_to(c, d)]
        s.record(pascal_difference=str(pascal), boundary_values=list(boundary),
                 brute_force_range="C <= 8, D <= 6", brute_force_mismatches=brute)
        s.require(pascal == 0 and all(boundary) and not brute, "the count fails")


def mpoly_output(net, d: int, residual_ok: bool = True):
    """y_1^i = e_1^T G_L(U + W) x as an fmpz_mpoly in the entries of U, W (symmetric d x d)
    and x; returns (polynomial, D)."""
    D = d * (d + 1) // 2
    idx = [(a, b) for a in range(d) for b in range(a, d)]
    names = [f"u{a}{b}" for a, b in idx] + [f"w{a}{b}" for a, b in idx] + \
        [f"x{k}" for k in range(d)]
    gens = flint.fmpz_mpoly_ctx.get(tuple(names), "lex").gens()
    U, W = np.empty((d, d), dtype=object), np.empty((d, d), dtype=object)
    for n, (a, b) in enumerate(idx):
        U[a, b] = U[b, a] = gens[n]
        W[a, b] = W[b, a] = gens[D + n]
    x = np.empty(d, dtype=object)
    for k in range(d):
        x[k] = gens[2 * D + k]
    return moment_form_matrix(net, U + W).dot(x)[0], D


def _expansion_row(L, d, H, residual, seed) -> dict:
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, nonzero=True)
    y, D = mpoly_output(net, d)
    C = num_head_indices(L)
    blocks_ok, gammas = True, set()
    for exps in y.monoms():
        u, w, xk = exps[:D], exps[D:2 * D], exps[2 * D:]
        gammas.add(w)
        if sum(xk) != 1 or (not residual and sum(u) + sum(w) != C) or sum(u) + sum(w) > C:
            blocks_ok = False
    return {"L": L, "d_x": d, "H": H, "residual": residual, "C(L)": C,
            "distinct_W_monomials": len(gammas), "C(C+D,D)": monomials_up_to(C, D),
            "degree_in_x_is_1_and_blocks_as_stated": blocks_ok}


def _substitution_degree() -> bool:
    """prod_k (t U_k + t W_k)^{a_k} = t^{sum a_k} prod_k (U_k + W_k)^{a_k}, symbolic a_k."""
    t = sp.symbols("t", positive=True)
    a1, a2 = sp.symbols("a1 a2", integer=True, nonnegative=True)
    u1, u2, w1, w2 = sp.symbols("u1 u2 w1 w2", positive=True)
    ratio = ((t * u1 + t * w1) ** a1 * (t * u2 + t * w2) ** a2
             / ((u1 + w1) ** a1 * (u2 + w2) ** a2))
    return sp.powsimp(sp.simplify(ratio)) == t ** (a1 + a2)


def expansion_step(ctx, source: str) -> None:
    """The separation argument: y_p^i = sum_gamma A_gamma(X_I) W^gamma, |gamma| <= C."""
    with scoped_step(ctx, "upper bound: with S = S_I + S_J (S_J = sum_{j in J} x^j x^j^T a "
                     "function of the J inputs; i in I, or swap the roles), y_p^i = sum_k x^i_k "
                     "g_pk(S_I + S_J) with deg g_pk <= C(L). Substituting S_k = U_k + W_k in a "
                     "monomial of degree c gives a polynomial homogeneous of degree c in (U, W) "
                     "(sympy: prod_k (t U_k + t W_k)^{a_k} = t^{sum a_k} prod_k (U_k + W_k)^{a_k} "
                     "for symbolic exponents; more factors by induction), so of W-degree <= C: "
                     "y_p^i = sum_{|gamma| <= C} A_gamma(X_I) W(X_J)^gamma and sep(y_p^i; I, J) "
                     "<= C(C + D, D) for every N, partition, weights, H, d_a, plain or residual. "
                     "Block form: the I-side factor of |gamma| = g lies in span{x^i_k S_I^alpha "
                     ": |alpha| = C - g} (plain: G_L homogeneous) or |alpha| <= C - g "
                     "(residual). Cross-check: y_1^i = e_1^T G_L(U + W) x expanded exactly "
                     "(fmpz_mpoly) has <= C(C + D, D) W-monomials, is linear in x and has "
                     "S-degree C (plain) or <= C (residual) in every term", source,
                     "prose", "cross-check at L <= 3, d_x <= 3") as s:
        symbolic = _substitution_degree()
        cases = [(1, 3, 1, False, 7), (2, 2, 1, False, 7), (2, 2, 1, True, 7),
                 (2, 3, 3, False, 7), (3, 2, 1, False, 7), (3, 2, 2, True, 7)]
        rows = [_expansion_row(*c) for c in cases]
        s.record(substitution_is_homogeneous_symbolic=symbolic, cross_check=rows,
                 cross_check_sizes="L <= 3, d_x <= 3")
        bad = [r for r in rows if r["distinct_W_monomials"] > r["C(C+D,D)"]
               or not r["degree_in_x_is_1_and_blocks_as_stated"]
               or r["distinct_W_monomials"] == 0]  # a vanishing output would check nothing
        s.require(symbolic and not bad, "the expansion is not of the stated form",
                  counterexample=(bad or [None])[0])


def _coefficient_rank(L, d, H, residual, seed) -> dict:
    """Exact rank of the coefficient matrix of y_1 in (U, x) x W: sep for |I| > d_x, |J| >= d_x."""
    net = SelfAttentionNetwork.random(L, d, H, seed=seed, residual=residual, nonzero=True)
    y, D = mpoly_output(net, d)
    rows, cols, ent = {}, {}, {}
    for exps, coeff in zip(y.monoms(), y.coeffs(), strict=True):
        r = rows.setdefault(exps[:D] + exps[2 * D:], len(rows))
        c = cols.setdefault(exps[D:2 * D], len(cols))
        ent[r, c] = int(coeff)
    M = [[ent.get((i, j), 0) for j in range(len(cols))] for i in range(len(rows))]
    rank = seprank.rank(M, "exact").value if M else 0
    return {"L": L, "d_x": d, "H": H, "d_a": d // H, "residual": residual, "seed": seed,
            "sep_N_to_infinity": rank, "block_form": block_upper(L, d, D, residual),
            "C(C+D,D)": corrected_upper(L, d)}


COEFF_FAST = [(1, 3, 1, False), (1, 4, 2, False), (2, 2, 1, False), (2, 2, 2, False),
              (2, 2, 1, True), (2, 3, 1, False), (2, 3, 3, False)]
COEFF_FULL = COEFF_FAST + [(3, 2, 1, False), (3, 2, 2, False), (3, 2, 1, True)]


def coefficient_ranks_step(ctx, source: str) -> list[dict]:
    """Exact N -> infinity separation ranks of random networks against the block form."""
    sizes = "L <= 3, d_x <= 3" if ctx.full else "L <= 2, d_x <= 4"
    with scoped_step(ctx, "block form against exact separation ranks: for |I| >= d_x + 1 and "
                     "|J| >= d_x, sep(y_1^i; I, J) is the rank of the coefficient matrix of "
                     "y_1 (rows: monomials in S_I and x^i, columns: monomials in S_J), since "
                     "(x^i, S_{I - i}) -> (x^i, S_I) is invertible and S_{I - i}, S_J fill open "
                     "sets of symmetric matrices; the exact rank for random integer networks "
                     "is <= the block form <= C(C + D, D), and equals the block form at some "
                     "sizes", source, "computation", sizes) as s:
        cases = COEFF_FULL if ctx.full else COEFF_FAST
        rows = [_coefficient_rank(*c, seed=7) for c in cases]
        s.record(instances=rows, attained=[r for r in rows
                                           if r["sep_N_to_infinity"] == r["block_form"]])
        bad = [r for r in rows if not r["sep_N_to_infinity"] <= r["block_form"] <= r["C(C+D,D)"]]
        s.require(not bad, "an exact rank exceeds the block form", counterexample=bad[:1])
    return rows


def product_bound_step(ctx, source: str) -> None:
    """C(C + D, D) <= (C + 1)^D and C + 1 < 3^L, symbolically; log_3 sep < D L."""
    with scoped_step(ctx, "log form: C(C + D, D) = prod_{k=1}^{D} (C + k)/k (sympy: the product "
                     "is RisingFactorial(C + 1, D)/D! = binomial), each factor <= C + 1 since "
                     "(C + 1) k - (C + k) = C (k - 1) >= 0, so C(C + D, D) <= (C + 1)^D; and "
                     "3^L - (C(L) + 1) = C(L) > 0 for L >= 1. Hence log_3 sep <= D log_3((3^L + "
                     "1)/2) < D L, symbolic in C, D, L; cross-check: exact integers", source,
                     "symbolic") as s:
        C, D, k, L = sp.symbols("C D k L", integer=True, positive=True)
        prod_form = sp.product((C + k) / k, (k, 1, D))
        same = sp.simplify(sp.combsimp(sp.expand_func(prod_form / sp.binomial(C + D, D)))) == 1
        factor = sp.factor((C + 1) * k - (C + k))
        s.could_fail("factor_bound",
                     lambda cap: sp.factor(cap * k - (C + k)) == C * (k - 1),
                     C + 1, {"each factor <= C (not C + 1)": C})
        gap = sp.simplify(3 ** L - ((3 ** L - 1) / 2 + 1) - (3 ** L - 1) / 2)
        bad = [(L_, d) for L_ in range(1, 31) for d in range(1, 13)
               if not corrected_upper(L_, d) <= upper_power_bound(L_, d)
               < 3 ** (L_ * d * (d + 1) // 2)]
        s.record(product_form=str(prod_form), equals_binomial=same, factor_gap=str(factor),
                 three_L_minus_C_plus_1_minus_C=str(gap), exact_range="L <= 30, d_x <= 12",
                 exact_failures=bad)
        s.require(same and factor == C * (k - 1) and gap == 0 and not bad,
                  "the log form fails")


def binomial_count_table(L_max: int, d_max: int) -> list[dict]:
    """C(C + D, D) and the block form per (L, d_x) for the report (exact integers)."""
    return [{"L": L, "d_x": d, "C(C+D,D)": corrected_upper(L, d),
             "block_form": block_upper(L, d, d * (d + 1) // 2)}
            for L in range(1, L_max + 1) for d in range(1, d_max + 1)
            if comb(num_head_indices(L) + d, d) < 10 ** 30]
