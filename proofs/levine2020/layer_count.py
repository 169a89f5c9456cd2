"""Lemma 2's count (A.4, eq. (21), l.491-498) as identities in symbolic sizes.

Not a check: L-Lemma2 calls :func:`count_steps`. Lemma 2 says one layer over inputs g^j
whose entries have separation rank <= K has sep(y_p^i) <= N d_x^4 K^3 / H; the proof
writes the layer as eq. (21) and multiplies "the number of summed terms by K^3" (l.498).
Three steps, each with symbolic sizes (scope ``all-sizes``):

1. the count as printed: the summed terms of eq. (21), over (h, a_1, a_2, j, a_4, a_5, a_6)
   with a_1, a_5 in [d_x/H], number H (d_x/H)^2 d_x^3 N = N d_x^5 / H (sympy reads the
   ranges off the entry of the matrix product W^O W^V G G^T W^K^T W^Q g^i, symbolic
   d_a = d_x/H, d_x, N), which times K^3 is above the printed N d_x^4 K^3/H for d_x >= 2:
   the sentence of l.498 does not give the lemma;
2. the repair: the weights only form coefficients, y_p^i = sum_{a_2, j, a_4, a_6}
   c_{a_2 a_4 a_6} G_{a_2 j} G_{a_4 j} G_{a_6 i} with c = sum_h (W^O W^V)_{p a_2}
   (W^K^T W^Q)_{a_4 a_6} (sympy: the heads' sums combine term by term), N d_x^3 products
   of three input entries, and N d_x^4 K^3/H - N d_x^3 K^3 = N d_x^3 K^3 (d_a - 1) >= 0;
3. separation rank is subadditive and submultiplicative: a product of sums of R_1 and R_2
   separable terms is a double sum of R_1 R_2 separable terms (sympy factors the double
   sum), so a product of three entries has sep <= K^3 and the sum <= N d_x^3 K^3.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["printed_count", "regrouped_identity", "sep_product_identity", "count_steps"]


def _layer_entry(n, m, N):
    """The entry p of W^O W^V G G^T W^K^T W^Q g (one head), a sympy Sum, and its symbols."""
    O = sp.MatrixSymbol("O", n, m)
    V, K, Q = (sp.MatrixSymbol(c, m, n) for c in "VKQ")
    G, g = sp.MatrixSymbol("G", n, N), sp.MatrixSymbol("g", n, 1)
    p = sp.Symbol("p", integer=True)
    return (O * V * G * G.T * K.T * Q * g)[p, 0]


def printed_count() -> dict:
    """The number of summed terms of eq. (21) (l.496), from the ranges of the entry's sums.

    Examples
    --------
    >>> out = printed_count()
    >>> out["terms"], out["printed"], out["ratio"]
    ('N*d_x**5/H', 'N*d_x**4/H', 'd_x')
    """
    d_x, H, N = sp.symbols("d_x H N", integer=True, positive=True)
    d_a = d_x / H
    entry = _layer_entry(d_x, d_a, N)
    ranges = [sp.simplify(hi - lo + 1) for _, lo, hi in entry.limits]
    terms = sp.simplify(H * sp.Mul(*ranges))
    printed = N * d_x ** 4 / H
    return {"ranges": [str(r) for r in ranges], "terms": str(terms),
            "printed": str(printed), "ratio": str(sp.simplify(terms / printed))}


def regrouped_identity() -> dict:
    """Eq. (21) regrouped: two heads' sums combine into one 4-index sum; its count.

    Examples
    --------
    >>> out = regrouped_identity()
    >>> out["heads_combine"], out["products"], out["slack"]
    (True, 'N*d_x**3', 'H**3*K**3*N*a**3*(a - 1)')
    """
    n, N = sp.symbols("d_x N", integer=True, positive=True)
    A1, A2, B1, B2 = (sp.MatrixSymbol(c, n, n) for c in ("A1", "A2", "B1", "B2"))
    G, g = sp.MatrixSymbol("G", n, N), sp.MatrixSymbol("g", n, 1)
    p, a2, j, a4, a6 = sp.symbols("p a2 j a4 a6", integer=True)
    limits = ((a2, 0, n - 1), (j, 0, N - 1), (a4, 0, n - 1), (a6, 0, n - 1))

    def explicit(coef):
        return sp.Sum(coef * G[a2, j] * G[a4, j] * g[a6, 0], *limits)

    one = (A1 * G * G.T * B1 * g)[p, 0]  # A = W^O W^V, B = W^K^T W^Q of one head
    same = one.dummy_eq(explicit(A1[p, a2] * B1[a4, a6]))
    both = sp.simplify(explicit(A1[p, a2] * B1[a4, a6]) + explicit(A2[p, a2] * B2[a4, a6])
                       - explicit(A1[p, a2] * B1[a4, a6] + A2[p, a2] * B2[a4, a6])) == 0
    products = sp.Mul(*[hi - lo + 1 for _, lo, hi in limits])
    H, K, a = sp.symbols("H K a", integer=True, positive=True)
    slack = sp.factor((N * n ** 4 * K ** 3 / H - products * K ** 3).subs(n, H * a))
    return {"one_head_is_the_4_index_sum": same, "heads_combine": same and both,
            "products": str(sp.simplify(products)), "slack": str(slack)}


def sep_product_identity() -> bool:
    """(sum_{r<=R1} a_r b_r)(sum_{s<=R2} c_s d_s) = sum_{r, s} (a_r c_s)(b_r d_s) (sympy).

    Examples
    --------
    >>> sep_product_identity()
    True
    """
    R1, R2 = sp.symbols("R1 R2", integer=True, positive=True)
    r, s_ = sp.symbols("r s", integer=True)
    a, b, c, d = (sp.IndexedBase(x) for x in "abcd")
    double = sp.Sum(sp.Sum((a[r] * c[s_]) * (b[r] * d[s_]), (r, 1, R1)).factor(), (s_, 1, R2))
    inner = sp.Sum(a[r] * b[r], (r, 1, R1))
    outer = sp.Sum(c[s_] * d[s_] * inner, (s_, 1, R2)).factor()
    product = inner * sp.Sum(c[s_] * d[s_], (s_, 1, R2))
    return sp.simplify(double.factor() - product) == 0 and sp.simplify(outer - product) == 0


def _at(found: dict, **sizes: int) -> dict:
    """The printed count and the count of summed terms at given sizes (exact integers)."""
    subs = {sp.Symbol(k, integer=True, positive=True): v for k, v in sizes.items()}
    return sizes | {"summed_terms": int(sp.sympify(found["terms"], locals={
        k: sp.Symbol(k, integer=True, positive=True) for k in sizes}).subs(subs)),
                    "printed": int(sp.sympify(found["printed"], locals={
        k: sp.Symbol(k, integer=True, positive=True) for k in sizes}).subs(subs))}


def count_steps(ctx, source: str, erratum_source: str):
    """The three steps of the module docstring; returns the erratum of l.498 (or None)."""
    with ctx.step("l.498 AS PRINTED: 'multiplying the number of summed terms [of eq. (21)] "
                  "by K^3' gives the bound: the summed terms over (h, a_1, a_2, j, a_4, a_5, "
                  "a_6) number H (d_x/H)^2 d_x^3 N = N d_x^5/H (sympy, read off the ranges of "
                  "the entry of W^O W^V G G^T W^K^T W^Q g with symbolic d_x, d_a = d_x/H, N), "
                  "d_x times the printed N d_x^4/H", erratum_source, kind="symbolic") as s:
        found = printed_count()
        s.record(**found)
        err = None
        if found["ratio"] != "1":
            err = s.erratum(
                "A.4 l.498 (proof of Lemma 2, the count)",
                "multiplying the number of summed terms of eq. (21) by K^3 (which gives "
                "N d_x^5 K^3 / H)",
                "count the distinct products of input entries, N d_x^3, and multiply by K^3: "
                "N d_x^3 K^3 <= N d_x^4 K^3 / H since H <= d_x",
                "proof-error", survives=True, anchor="number of summed terms",
                instance={"summed_terms": found["terms"], "printed": found["printed"],
                          "at": _at(found, d_x=2, H=1, N=2)},
                repair="regroup eq. (21) by the input indices (a_2, j, a_4, a_6): the weights "
                       "form the coefficients, N d_x^3 products of three input entries "
                       "remain, each of separation rank <= K^3 (next steps, all sizes)")
    with ctx.step("Lemma 2 repaired, the count: the weights only form the coefficients, "
                  "y_p^i = sum_{a_2, j, a_4, a_6} c_{a_2 a_4 a_6} G_{a_2 j} G_{a_4 j} G_{a_6 i} "
                  "with c = sum_h (W^O W^V)_{p a_2} (W^K^T W^Q)_{a_4 a_6} (sympy: one head's "
                  "entry is this 4-index sum and the heads' sums combine term by term), so N "
                  "d_x^3 products of three input entries; N d_x^4 K^3/H - N d_x^3 K^3 = K^3 N "
                  "H^3 a^3 (a - 1) >= 0 with d_x = H a (sympy factor)", source,
                  corrected=True, kind="prose") as s:
        if err is not None:
            s.verifies(err)
        found = regrouped_identity()
        s.record(**found)
        s.require(found["heads_combine"] and found["products"] == "N*d_x**3",
                  "the regrouped count fails", found=found)
    with ctx.step("separation rank of sums and products: sep(f + g) <= sep f + sep g (the "
                  "terms concatenate) and sep(f g) <= sep f sep g: (sum_{r <= R1} a_r b_r)"
                  "(sum_{s <= R2} c_s d_s) = sum_{r, s} (a_r c_s)(b_r d_s), R1 R2 separable "
                  "terms (sympy, symbolic R1, R2); so each product of three input entries "
                  "has sep <= K^3 and y_p^i has sep <= N d_x^3 K^3 <= N d_x^4 K^3/H", source,
                  kind="prose") as s:
        ok = sep_product_identity()
        s.record(product_of_sums_is_double_sum=ok)
        s.require(ok, "the product identity fails")
    return err
