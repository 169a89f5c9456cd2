"""The inductions behind eq. (3)'s degree and Lemma 1's chains, checked for every size.

Not a check: L-net calls :func:`homogeneity_step`, L-Lemma1 calls
:func:`chain_induction_step` and :func:`position_sums_step`, L-Lemma5 calls
:func:`residual_induction_step`. Each step checks the
inductive step of its induction as identities of matrix products with symbolic sizes
(sympy MatrixSymbol: d_x = n, d_a = m, N positions), and solves the recurrences it
leads to with sympy's rsolve, so its scope is ``all-sizes``; the checks keep their exact
evaluations of networks as cross-checks at listed sizes.

* degree (eq. (3), l.71-75): a layer f(Y) = sum_h W^O W^V Y Y^T (W^K)^T W^Q Y is
  homogeneous of degree 3 (f(tY) = t^3 f(Y)), so the depth-L output has degree d_L with
  d_{l+1} = 3 d_l, d_0 = 1: d_L = 3^L = 2 C(L) + 1;
* Lemma 1 (eq. (13), A.1 l.339-364): if each of three copies of Y is a chain T X (T an
  n x n product P_0 G P_1 ... G P_c with G = X X^T), the layer's term W^O W^V (T1 X)(T2
  X)^T (W^K)^T W^Q (T3 X) is the chain (W^O W^V T1) G (T2^T (W^K)^T W^Q T3) X with c1 +
  c2 + c3 + 1 factors G, the new junction (T2^T W^K^T)(W^Q T3) a product of n x d_a and
  d_a x n matrices (rank <= d_a, eq. (13)'s B^T A); a sum of chains expands trilinearly;
  the counts c_{l+1} = 3 c_l + 1, c_0 = 0 (factors G) and H-exponent h_{l+1} = 3 h_l + 1
  (chains H^C) solve to C(L) = (3^L - 1)/2;
* Corollary 3 (eq. (16), l.366-378): X X^T = sum_j x^j x^j^T (induction on N, one column
  added) and a chain is linear in each G (induction on the number of factors), so the
  output is a sum over (j_1..j_C) in [N]^C.
"""

from __future__ import annotations

from itertools import product

import sympy as sp

__all__ = ["is_zero", "layer_identities", "homogeneity_step", "chain_induction_step",
           "position_sums_step", "residual_induction_step"]


def is_zero(expr) -> bool:
    """Whether a (matrix) expression of sympy expands to zero (the identities' test)."""
    out = sp.expand(expr)
    return out == 0 or bool(getattr(out, "is_ZeroMatrix", False))


def _symbols():
    n, m, N = sp.symbols("n m N", integer=True, positive=True)
    O = sp.MatrixSymbol("O", n, m)
    V, K, Q = (sp.MatrixSymbol(c, m, n) for c in "VKQ")
    return n, m, N, O, V, K, Q


def layer_identities() -> dict[str, bool]:
    """The inductive steps of the degree and of Lemma 1 with symbolic sizes (sympy).

    Examples
    --------
    >>> all(layer_identities().values())
    True
    """
    n, m, N, O, V, K, Q = _symbols()
    t = sp.Symbol("t")
    X, Y1, Y2 = (sp.MatrixSymbol(c, n, N) for c in ("X", "Y1", "Y2"))
    T1, T2, T3 = (sp.MatrixSymbol(c, n, n) for c in ("T1", "T2", "T3"))

    def f(a, b, c):
        return O * V * a * b.T * K.T * Q * c

    chain = (O * V * T1) * (X * X.T) * (T2.T * K.T * Q * T3) * X
    split = [f(a, b, c) for a, b, c in product((Y1, Y2), repeat=3)]
    return {
        "f(tY) = t^3 f(Y) (a layer is homogeneous of degree 3)": is_zero(
            f(t * Y1, t * Y1, t * Y1) - t ** 3 * f(Y1, Y1, Y1)),
        "O V (T1 X)(T2 X)^T K^T Q (T3 X) = (O V T1) (X X^T) (T2^T K^T Q T3) X": is_zero(
            f(T1 * X, T2 * X, T3 * X) - chain),
        "junction T2^T K^T Q T3 = (T2^T K^T)(Q T3), an n x d_a times a d_a x n matrix":
            (T2.T * K.T).shape == (n, m) and (Q * T3).shape == (m, n)
            and is_zero(T2.T * K.T * Q * T3 - (T2.T * K.T) * (Q * T3)),
        "f(Y1 + Y2) = the 8 terms f(E, F, G), E, F, G in {Y1, Y2} (sums of chains)": is_zero(
            f(Y1 + Y2, Y1 + Y2, Y1 + Y2) - sp.MatAdd(*split)),
    }


def _rsolve(step, start) -> sp.Expr:
    c, l_ = sp.Function("c"), sp.symbols("l", integer=True, nonnegative=True)
    return sp.rsolve(c(l_ + 1) - step(c(l_)), c(l_), {c(0): start})


def homogeneity_step(ctx, source: str) -> None:
    """Step (L-net): the depth-L output is homogeneous of degree 3^L, for every size."""
    with ctx.step("degree for every size: a layer f(Y) = sum_h W^O W^V Y Y^T (W^K)^T W^Q Y "
                  "satisfies f(tY) = t^3 f(Y) (sympy, MatrixSymbols of symbolic sizes d_x, "
                  "d_a, N), so by induction on L the output is homogeneous of degree d_L with "
                  "d_{l+1} = 3 d_l, d_0 = 1 (sympy rsolve: d_L = 3^L = 2 C(L) + 1); with "
                  "residual connections x + f(x) mixes degrees 1 and 3 (not homogeneous)",
                  source, kind="prose") as s:
        found = layer_identities()
        key = "f(tY) = t^3 f(Y) (a layer is homogeneous of degree 3)"
        degree = _rsolve(lambda c: 3 * c, 1)
        L = sp.symbols("l", integer=True, nonnegative=True)
        s.record(homogeneous_layer=found[key], degree_solves_to=str(degree),
                 equals_2C_plus_1=sp.simplify(degree - (2 * (3 ** L - 1) / 2 + 1)) == 0)
        s.require(found[key] and sp.simplify(degree - 3 ** L) == 0,
                  "the degree induction fails", degree=str(degree))


def chain_induction_step(ctx, source: str) -> None:
    """Step (L-Lemma1): eq. (13)'s induction for every size."""
    with ctx.step("Lemma 1's induction for every size: if Y = a sum of chains T X (T = P_0 G "
                  "P_1 ... G P_c, G = X X^T), one layer maps three copies to W^O W^V (T1 X)(T2 "
                  "X)^T W^K^T W^Q (T3 X) = (W^O W^V T1) G (T2^T W^K^T W^Q T3) X, a chain with "
                  "c1 + c2 + c3 + 1 factors G whose new junction (T2^T W^K^T)(W^Q T3) goes "
                  "through d_a (rank <= d_a: eq. (13)'s B^T A), and a sum of chains expands "
                  "into the 8 trilinear terms (sympy, MatrixSymbols of symbolic sizes); the "
                  "counts c_{l+1} = 3 c_l + 1, c_0 = 0 (factors G) and h_{l+1} = 3 h_l + 1 "
                  "(exponent of H in the number of chains) solve to C(L) = (3^L - 1)/2 (sympy "
                  "rsolve)", source, kind="prose") as s:
        found = layer_identities()
        count = _rsolve(lambda c: 3 * c + 1, 0)
        L = sp.symbols("l", integer=True, nonnegative=True)
        ok_count = sp.simplify(count - (3 ** L - 1) / 2) == 0
        s.record(identities=found, factors_of_G_solve_to=str(count),
                 chains="H^C(L), the exponent of H obeying the same recurrence")
        s.require(all(found.values()) and ok_count, "the induction of eq. (13) fails",
                  failing=[k for k, v in found.items() if not v], count=str(count))


def position_sums_step(ctx, source: str) -> None:
    """Step (L-Lemma1): Corollary 3's position sums for every size."""
    with ctx.step("Corollary 3 for every size: X X^T = sum_j x^j x^j^T (induction on N: "
                  "appending a column x to X_1 gives X_1 X_1^T + x x^T, sympy block matrices "
                  "of symbolic sizes) and a chain is linear in each factor G (T (A + B) U = "
                  "T A U + T B U, induction on the number of factors), so the output at i is "
                  "a sum over (j_1, ..., j_C) in [N]^C(L) of chains with G_c = x^(j_c) x^(j_c)T: "
                  "2 C(L) + 1 = 3^L linear forms per summand", source, kind="prose") as s:
        n, N = sp.symbols("n N", integer=True, positive=True)
        X1, x = sp.MatrixSymbol("X1", n, N), sp.MatrixSymbol("x", n, 1)
        block = sp.BlockMatrix([[X1, x]])
        T, A, B, U = (sp.MatrixSymbol(c, n, n) for c in "TABU")
        found = {"(X_1 | x)(X_1 | x)^T = X_1 X_1^T + x x^T": is_zero(
                     sp.block_collapse(block * block.T) - X1 * X1.T - x * x.T),
                 "T (A + B) U = T A U + T B U": is_zero(T * (A + B) * U - T * A * U - T * B * U)}
        s.record(identities=found)
        s.require(all(found.values()), "a position-sum identity fails",
                  failing=[k for k, v in found.items() if not v])


def residual_induction_step(ctx, source: str) -> None:
    """Step (L-Lemma5): the residual form (22) by induction, for every size."""
    with ctx.step("Lemma 5's induction for every size: with the skip term, Y^(l+1) = Y^l + "
                  "f(Y^l); writing Y^l = X + Z (Z a sum of chains with >= 1 factor G = X X^T), "
                  "f(X + Z) is the 8 terms f(E, F, G), E, F, G in {X, Z} (l.596, sympy with "
                  "symbolic sizes), each a chain with j_1 + j_2 + j_3 + 1 >= 1 factors G (X = "
                  "I X is the chain with none; the chain identity of Lemma 1), one head index "
                  "per factor; so Y^(l+1) = X + chains with 1..c_(l+1) factors, c_(l+1) = 3 c_l "
                  "+ 1, c_0 = 0, i.e. up to C(L) = (3^L - 1)/2 (rsolve): statement (22)",
                  source, kind="prose") as s:
        n, m, N, O, V, K, Q = _symbols()
        X, Z = sp.MatrixSymbol("X", n, N), sp.MatrixSymbol("Z", n, N)

        def f(a, b, c):
            return O * V * a * b.T * K.T * Q * c

        eight = sp.MatAdd(*[f(a, b, c) for a, b, c in product((X, Z), repeat=3)])
        found = {"f(X + Z) = the 8 terms f(E, F, G)": is_zero(f(X + Z, X + Z, X + Z) - eight),
                 "chain identity (Lemma 1)": all(layer_identities().values())}
        count = _rsolve(lambda c: 3 * c + 1, 0)
        L = sp.symbols("l", integer=True, nonnegative=True)
        s.record(identities=found, most_factors_solve_to=str(count))
        s.require(all(found.values()) and sp.simplify(count - (3 ** L - 1) / 2) == 0,
                  "the residual induction fails", failing=[k for k, v in found.items() if not v])
