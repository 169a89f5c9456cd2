"""Lemma 6's corrected construction (B.3, l.738-815) checked for every size, symbolically.

Not a check: L-Lemma6 calls :func:`lemma6_symbolic_steps`. The corrected assignment is that
of :mod:`seprank.constructions.lemma6` (phi, templates, W^{V,1}, last layer corrected);
each step below transcribes its formulas as sympy expressions in symbolic sizes (m =
(d_a - 1)/2, H, N, M/2, the segment h, the row r) and evaluates them: the weight matrices
act through sums of KroneckerDelta over a segment (sympy evaluates them with symbolic
bounds; a row range r <= m is written m = r + k, k >= 0, so every condition is decided),
the recurrences are solved with rsolve, the final value is an identity of sums over the d
columns of V. So the steps hold for all sizes (scope ``all-sizes``); L-Lemma6's exact
network evaluations at listed sizes cross-check the transcription.

Notation: segment h of the d_x = H d_a coordinates starts after base = d_a (h - 1) and holds
m "V" coordinates, m complements and one constant; q = j_1 - M/2 is the row of V the
column template j_1 reads; v is the layer-1 output, a_r = (V_{i1, phi(h, r)} + i
V_{q, phi(h, r)})/N its r-th V coordinate in segment h, s_h = sum_{r <= m} a_r^2, S =
sum_h s_h.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["phi_facts", "layer1_facts", "later_layer_facts", "final_value_facts",
           "lemma6_symbolic_steps"]

_POS = {"integer": True, "positive": True}
_NONNEG = {"integer": True, "nonnegative": True}
I_ = sp.I


def _sum_delta(row, start, stop, u, shift=0):
    """sum_{j = start}^{stop} [row = j - shift] u[j] with symbolic bounds (sympy)."""
    j = sp.Symbol("j", integer=True)
    return sp.simplify(sp.Sum(sp.KroneckerDelta(row, j - shift) * u[j], (j, start, stop)).doit())


def phi_facts() -> dict:
    """phi maps the V coordinates of the H segments one-to-one onto columns 1..d = H m.

    Coordinate j = base + o + 1 (0 <= o < m) has floor((j-1)/d_a) = h - 1 and (j-1) mod
    d_a = o (division with remainder), so phi(j) = (h - 1) stride + o + 1. Corrected
    stride m: segment h fills (h-1) m + 1 .. h m, contiguous (the next starts right after)
    and the last ends at H m = d: a bijection. Printed stride d_a - 1 = 2m (also eq. (51)'s
    column (d_a - 1)(h - 1) + k): the last column is (H - 1) 2m + m, above d by (H - 1) m > 0
    for every H >= 2 (no such column of V).

    Examples
    --------
    >>> f = phi_facts()
    >>> f["corrected_last_column_minus_d"], f["printed_last_column_minus_d"]
    ('0', 'm*(H - 1)')
    """
    m, H, h = (sp.Symbol(c, **_POS) for c in ("m", "H", "h"))

    def col(stride, hh, o):
        return (hh - 1) * stride + o + 1

    gap = sp.simplify(col(m, h + 1, 0) - col(m, h, m - 1))
    return {"corrected_first_column": str(col(m, 1, 0)),
            "corrected_next_segment_starts_after_the_last": str(gap),
            "corrected_last_column_minus_d": str(sp.simplify(col(m, H, m - 1) - H * m)),
            "printed_last_column_minus_d": str(sp.factor(col(2 * m, H, m - 1) - H * m)),
            "bijection": col(m, 1, 0) == 1 and gap == 1
                         and sp.simplify(col(m, H, m - 1) - H * m) == 0}


def _template(i, o, half, m, V, phi, printed=False):
    """x^(i) at a coordinate of residue o = (j - 1) mod d_a (l.750; corrected row i - M/2)."""
    row2 = i - half + (1 if printed else 0)
    return sp.Piecewise((V[i, phi(o)], (i <= half) & (o < m)),
                        (V[row2, phi(o - m)], (i > half) & (i <= 2 * half) & (o >= m)
                         & (o < 2 * m)),
                        (1, sp.Eq(o, 2 * m)), (0, True))


def _template_sums() -> dict:
    """The per-coordinate sum u = x^(i1) + x^(j1) + (N - 2) x^(M+1) of eq. (33), by class."""
    t, k, p, r_ = (sp.Symbol(c, **_POS if c == "t" else _NONNEG) for c in ("t", "k", "p", "r"))
    i1, q = sp.Symbol("i1", **_POS), sp.Symbol("q", **_POS)
    m = t + k                          # a V coordinate t <= m of the segment
    V, phi = sp.IndexedBase("V"), sp.Function("phi")
    classes = {"V coordinate": t - 1, "complement": m + t - 1, "constant": 2 * m}
    out = {}
    for name, o in classes.items():
        x_i1 = sp.simplify(_template(i1, o, i1 + p, m, V, phi))          # i1 <= M/2
        x_j1 = sp.simplify(_template(q + r_ + q, o, q + r_, m, V, phi))  # j1 = M/2 + q
        x_last = sp.simplify(_template(2 * (q + r_) + 1, o, q + r_, m, V, phi))
        out[name] = (x_i1, x_j1, x_last)
    printed_top = sp.simplify(_template(2 * (q + r_), m + t - 1, q + r_, m, V, phi,
                                       printed=True).subs(r_, 0))
    return {"classes": out, "printed_row_at_j1_eq_M": printed_top, "V": V, "phi": phi,
            "t": t, "i1": i1, "q": q}


def _value_rows(N) -> dict:
    """W^{V,1,h} u (l.740) per row class, corrected and printed, as KroneckerDelta sums."""
    r, s_, k = sp.Symbol("r", **_POS), sp.Symbol("s", **_POS), sp.Symbol("k", **_NONNEG)
    base = sp.Symbol("base", **_NONNEG)
    u = sp.IndexedBase("u")
    m = r + k                           # rows r <= m
    first = (_sum_delta(r, base + 1, base + m, u, base)
             + I_ * _sum_delta(r, base + m + 1, base + 2 * m, u, base + m)) / N
    m2 = s_ + k                         # rows r = m + s, 1 <= s <= m
    const = u[base + 2 * m2 + 1] / N
    corrected = (-_sum_delta(s_, base + 1, base + m2, u, base)
                 - I_ * _sum_delta(s_, base + m2 + 1, base + 2 * m2, u, base + m2)) / N + const
    printed = (-_sum_delta(m2 + s_, base + 1, base + m2, u, base)
               - I_ * _sum_delta(m2 + s_, base + m2 + 1, base + 2 * m2, u, base + m2)) / N \
        + const
    return {"V rows r <= m": first, "complement rows, corrected": corrected,
            "complement rows, printed": printed, "u": u, "base": base, "r": r, "s": s_,
            "m_first": m, "m_second": m2}


def layer1_facts() -> dict:
    """Layer 1 (eq. (31)-(37)) with the corrected templates and W^{V,1}: v_h = (a, 1 - a, 1).

    Examples
    --------
    >>> f = layer1_facts()
    >>> f["segment_is_a_1_minus_a_1"], f["printed_complement_rows_are_constant"]
    (True, True)
    """
    N = sp.Symbol("N", **_POS)
    sums = _template_sums()
    V, phi, t, i1, q = (sums[c] for c in ("V", "phi", "t", "i1", "q"))
    cls = sums["classes"]
    u_vals = {"V": cls["V coordinate"][0] + cls["V coordinate"][1]
                   + (N - 2) * cls["V coordinate"][2],
              "comp": cls["complement"][0] + cls["complement"][1]
                      + (N - 2) * cls["complement"][2],
              "const": sum(cls["constant"][:2], sp.Integer(0)) + (N - 2) * cls["constant"][2]}
    rows = _value_rows(N)
    u, base, r, s_ = rows["u"], rows["base"], rows["r"], rows["s"]
    a = (V[i1, phi(t - 1)] + I_ * V[q, phi(t - 1)]) / N
    at = {u[base + r]: u_vals["V"].subs(t, r), u[base + rows["m_first"] + r]:
          u_vals["comp"].subs(t, r)}
    v_first = sp.simplify(rows["V rows r <= m"].subs(at) - a.subs(t, r))
    at2 = {u[base + s_]: u_vals["V"].subs(t, s_), u[base + rows["m_second"] + s_]:
           u_vals["comp"].subs(t, s_), u[base + 2 * rows["m_second"] + 1]: u_vals["const"]}
    v_comp = sp.simplify(rows["complement rows, corrected"].subs(at2) - (1 - a.subs(t, s_)))
    v_const = sp.simplify(u_vals["const"] / N - 1)
    printed_comp = sp.simplify(rows["complement rows, printed"].subs(at2))
    top = sums["printed_row_at_j1_eq_M"]
    return {"u_per_class": {k: str(v) for k, v in u_vals.items()},
            "scores": "W^{Q,1} x = W^{K,1} x = x_{d_a} e_1 = e_1 (x_{d_a} = 1 in every "
                      "template, the constant class), so every score is 1",
            "segment_is_a_1_minus_a_1": v_first == 0 and v_comp == 0 and v_const == 0,
            "printed_complement_rows": str(printed_comp),
            "printed_complement_rows_are_constant": printed_comp == 1,
            "printed_template_row_at_j1_eq_M": str(top),
            "printed_row_past_M_over_2": top == V[q + 1, phi(t - 1)]}


def later_layer_facts() -> dict:
    """Layers 2..L-1 (eq. (38)-(48)) and the corrected last layer, for symbolic sizes.

    Examples
    --------
    >>> f = later_layer_facts()
    >>> f["pairs_sum_to_m"], f["layer_map"], f["closed_forms"]
    (True, True, True)
    """
    m, N, A, S = (sp.Symbol(c, **_POS) for c in ("m", "N", "A", "S"))
    b = sp.Symbol("beta", **_NONNEG)
    r = sp.Symbol("r", integer=True)
    a = sp.IndexedBase("a")
    projections = _projections()
    pairs = sp.simplify(sp.Sum(a[r], (r, 1, m)) + sp.Sum(1 - a[r], (r, 1, m))
                        - sp.Sum(a[r] + 1 - a[r], (r, 1, m)).doit()) == 0 and \
        sp.Sum(a[r] + 1 - a[r], (r, 1, m)).doit() == m
    query = A * m * S ** (b + 1)        # sum of the non-constant coordinates (l.746)
    layer = sp.simplify(N * query ** 2 * A * S ** b - N * m ** 2 * A ** 3 * S ** (3 * b + 2))
    f, l_ = sp.Function("f"), sp.Symbol("l", integer=True)
    alpha = sp.rsolve(f(l_ + 1) - 3 * f(l_) - 1, f(l_), {f(2): 1})
    beta = sp.rsolve(f(l_ + 1) - 3 * f(l_) - 2, f(l_), {f(2): 0})
    closed = sp.simplify(alpha - (3 ** (l_ - 1) - 1) / 2) == 0 and \
        sp.simplify(beta - (3 ** (l_ - 2) - 1)) == 0
    last = sp.simplify(N * query ** 2 * I_ * A * S ** b - I_ * N * m ** 2 * A ** 3
                       * S ** (3 * b + 3) / S)
    at3 = (alpha.subs(l_, 3), beta.subs(l_, 3), beta.subs(l_, 3))
    return {"projections": projections, "pairs_sum_to_m": pairs, "layer_map": layer == 0,
            "alpha_l (powers of N)": str(alpha), "beta_l (powers of S), mu_l (powers of m)":
            str(beta), "closed_forms": closed, "last_layer_L>=3": last == 0,
            "alpha_beta_mu_at_l_3": [str(v) for v in at3],
            "eq43_printed_alpha_beta_mu": [4, 2, 0],
            "eq43_loses_m_squared": at3[:2] == (4, 2) and at3[2] == 2}


def _projections() -> dict:
    """The segment maps of layers >= 2 (l.741-746) as KroneckerDelta sums (symbolic sizes).

    W^{V,l,h}_{r,j} = [r = j - base] on segment h reads coordinate base + r; W^{O,l,h}_{k,r} =
    [r = k - base] writes row r to base + r; W^{Q,2,h} = W^{K,2,h} read the first m
    coordinates; the corrected W^{V,L,h} = i [j = base + d_a] reads segment h's constant.
    """
    r, k = sp.Symbol("r", **_POS), sp.Symbol("k", **_NONNEG)
    base = sp.Symbol("base", **_NONNEG)
    u = sp.IndexedBase("u")
    d_a = r + k                         # any row r <= d_a
    j = sp.Symbol("j", integer=True)
    m = sp.Symbol("m", **_POS)
    const = sp.simplify(sp.Sum(sp.KroneckerDelta(j, base + 2 * m + 1) * u[j],
                               (j, base + 1, base + 2 * m + 1)).doit())
    return {"W^{V,l,h} row r reads base + r": _sum_delta(r, base + 1, base + d_a, u, base)
            == u[base + r],
            "W^{Q,2,h} row r <= m reads base + r": _sum_delta(r, base + 1, base + r + k, u, base)
            == u[base + r],
            "W^{V,L,h} (corrected) reads the constant base + d_a": const == u[base + 2 * m + 1]}


def _linear_sum(expr, limits):
    """A Sum of a sum of terms as the sum of Sums with the constants pulled out."""
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(expr)):
        coeff, rest = term.as_independent(*[lim[0] for lim in limits])
        total += coeff * sp.Sum(rest, *limits)
    return total


def final_value_facts() -> dict:
    """S = 2i G/N^2 (eq. (51)-(54) corrected) and y = c G^lambda with the constant c.

    Examples
    --------
    >>> f = final_value_facts()
    >>> f["S"], f["constant_matches"], f["L2_constant_matches"]
    ('2*I*G/N**2', True, True)
    """
    d, N, m = (sp.Symbol(c, **_POS) for c in ("d", "N", "m"))
    c_ = sp.Symbol("c", integer=True)
    x, w = sp.IndexedBase("V_i1"), sp.IndexedBase("V_q")
    G = sp.Symbol("G")
    lim = ((c_, 1, d),)
    S = _linear_sum((x[c_] + I_ * w[c_]) ** 2 / N ** 2, lim)
    S = S.subs({sp.Sum(x[c_] ** 2, *lim): 1, sp.Sum(w[c_] ** 2, *lim): 1,
                sp.Sum(x[c_] * w[c_], *lim): G})
    S = sp.simplify(S)
    lam = sp.Symbol("lambda", **_POS)
    alpha, beta = (lam - 1) / 2, lam / 3 - 1      # at layer L - 1: lambda = 3^(L-2)
    A = N ** alpha * m ** beta
    y = I_ * N * m ** 2 * A ** 3 * S ** (3 * beta + 3)
    c = I_ ** (lam + 1) * 2 ** lam * m ** (lam - 1) * N ** (-(lam + 1) / 2)
    same = sp.simplify(sp.powsimp(sp.expand_power_base(y / (c * G ** lam), force=True),
                                  force=True)) == 1
    two = sp.simplify(I_ * N * S - c.subs(lam, 1) * G) == 0
    return {"S": str(S), "y_L>=3": str(sp.powsimp(y, force=True)), "c": str(c),
            "constant_matches": same, "L2_constant_matches": two}


def lemma6_symbolic_steps(ctx, source: str) -> None:
    """The four steps of the corrected construction for every size (module docstring)."""
    with ctx.step("phi and eq. (51) for every size: coordinate j = d_a (h - 1) + o + 1, 0 <= "
                  "o < m, has phi(j) = (h - 1) stride + o + 1; with the corrected stride m "
                  "segment h fills columns (h - 1) m + 1 .. h m, each segment starts right "
                  "after the previous one and the last ends at H m = d: a bijection onto the "
                  "columns of V; with the printed stride d_a - 1 (and eq. (51)'s column "
                  "(d_a - 1)(h - 1) + k) the last column is (H - 1) m beyond d, for every "
                  "H >= 2 (sympy, symbolic m, H, h)", source, corrected=True,
                  kind="prose") as s:
        found = phi_facts()
        s.record(**found)
        s.require(found["bijection"] and found["printed_last_column_minus_d"] == "m*(H - 1)",
                  "the phi facts fail", found=found)
    with ctx.step("layer 1 for every size (eq. (31)-(37)): every score is 1; the templates "
                  "(l.750, corrected row j_1 - M/2) sum, per coordinate class of a segment, to "
                  "u = (V_{i1, phi}, V_{q, phi}, N) (Piecewise templates decided with symbolic "
                  "i_1 <= M/2 < j_1 <= M); W^{V,1,h} (l.740, corrected complement rows) and "
                  "W^{O,1,h} (l.741) map u to the segment (a_r, 1 - a_r, 1), a_r = (V_{i1, "
                  "phi} + i V_{q, phi})/N, at every position (sympy sums of KroneckerDelta with "
                  "symbolic bounds); the layer sums over the positions, so where i_1 and j_1 "
                  "sit (any balanced partition) does not matter; as printed, the complement "
                  "rows give the constant 1 and the second template case names row M/2 + 1 "
                  "at j_1 = M", source,
                  corrected=True, kind="prose") as s:
        found = layer1_facts()
        s.record(**found)
        s.require(found["segment_is_a_1_minus_a_1"], "layer 1 differs from (a, 1 - a, 1)",
                  found=found)
    with ctx.step("layers 2 to L for every size (eq. (38)-(50), corrected): layer 2's "
                  "W^{Q,2} = W^{K,2} (l.745) read the first m coordinates of a segment (score "
                  "s_h), W^{V,l} (l.742) and W^{O,l} (l.741) project segment h, so y^(2) = N "
                  "sum_h s_h v^(h); each later layer's query = key = the sum of the "
                  "non-constant coordinates (l.746) = A m S^(beta + 1), since each pair a_r, "
                  "1 - a_r sums to 1 (sympy Sum, symbolic m), so A S^beta sum_h s_h v^(h) -> "
                  "N m^2 A^3 S^(3 beta + 2) sum_h s_h v^(h); A_l = N^alpha_l m^mu_l with "
                  "alpha_{l+1} = 3 alpha_l + 1, beta and mu: x_{l+1} = 3 x_l + 2, from (1, 0, 0) "
                  "at l = 2 (rsolve: alpha_l = (3^(l-1) - 1)/2, beta_l = mu_l = 3^(l-2) - 1; "
                  "eq. (43) has mu_3 = 0); the corrected last layer returns i N m^2 A^3 "
                  "S^(3 beta + 3) (L >= 3) or i N S (L = 2) at every coordinate", source,
                  corrected=True, kind="prose") as s:
        found = later_layer_facts()
        s.record(**found)
        s.require(all(found["projections"].values()) and found["pairs_sum_to_m"]
                  and found["layer_map"] and found["closed_forms"] and found["last_layer_L>=3"]
                  and found["eq43_loses_m_squared"], "a later-layer fact fails", found=found)
    with ctx.step("final value for every size (eq. (51)-(54), corrected): S = sum_h s_h = "
                  "sum_{c <= d} (V_{i1, c} + i V_{q, c})^2 / N^2 (phi a bijection) = (|V_i1|^2 "
                  "- |V_q|^2 + 2i <V_i1, V_q>)/N^2 = 2i G/N^2 (unit rows; sympy sums over "
                  "symbolic d), so every output entry is c G^lambda, G = (V V^T)_{i1, q}, "
                  "lambda = 3^(L-2), c = i^(lambda+1) 2^lambda m^(lambda-1) N^(-(lambda+1)/2) "
                  "(symbolic lambda; L = 2 too): the sub-matrix on eq. (29)-(30) is c (V "
                  "V^T)^(Hadamard lambda)", source, corrected=True, kind="prose") as s:
        found = final_value_facts()
        s.record(**found)
        s.require(found["S"] == "2*I*G/N**2" and found["constant_matches"]
                  and found["L2_constant_matches"], "the final value fails", found=found)
