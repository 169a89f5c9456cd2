"""Why the exponents of the one-hot family grow like 3^L for every width s (all sizes).

The one-hot family (:mod:`seprank.network_theory.one_hot`) outputs y_p^i = x^i_p
prod_{b<=c} S_bc^{e_bc}. Its separation rank prod(e_bc + 1) refutes a linear rate in the
width (wies2021 Theorem 1, eq. (6), l.133; the ``W-Thm1`` row) once every exponent is
shown to be large for *every* width s, not only for the widths a machine can run. This
module holds that argument as symbolic computations whose sizes (s, N, L) are symbols:

1. :func:`one_hot_layer_identity`: one layer of one-hot heads maps a diagonal form
   y^{l,j}_t = g_t x^j_t to g_a g_b g_c x^i_a S_bc in channel a (sympy, symbolic s, N and
   channel indices), so e_a <- e_a + e_b + e_c + [k = {b, c}] (exponents of monomials);
2. :func:`shift_layer_dominance`: a shift-1 layer (b, c) = (a, a + 1 mod s) gives
   E' >= (2I + P) E entrywise (P the cyclic shift), the first floor(s/2) + 1 layers introduce
   every unordered pair {b, c} (min(delta, s - delta) <= floor(s/2));
3. :func:`shift_power_facts`: (2I + P)^n = sum_j C(n, j) 2^(n-j) P^j (binomial theorem,
   I and P commute; its inductive step, Pascal's rule, symbolic), so (2I + P)^(s-1) >= J
   (every cyclic shift P^j, j < s, occurs with a coefficient >= 1) and the rows of
   (2I + P)^m sum to 3^m ((2I + P) 1 = 3 . 1); hence every exponent after L layers is
   >= 3^(L - floor(s/2) - s) (:func:`exponent_lower_bound`);
4. :func:`moment_map_is_submersive`: the differential of X -> X^T X at X = I is
   dX -> dX^T + dX, onto the symmetric matrices (symbolic size s), so the s(s+1)/2
   entries of S^P are algebraically independent when |P| >= s (Jacobian criterion);
5. :func:`rate_beats_every_polylog`: log sep >= (s(s+1)/2)(L - floor(s/2) - s) log 3 is
   at least (5/4) s^3 log 3 at L = 4s, and s^3 / (4 s^2 log^m(4 s^2)) -> infinity for
   every m > 0 (sympy limits).

Every function returns a dictionary of evidence whose ``holds`` entry says whether the
symbolic computation came out as stated.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

__all__ = [
    "one_hot_layer_identity",
    "shift_layer_dominance",
    "shift_power_facts",
    "moment_map_is_submersive",
    "rate_beats_every_polylog",
    "exponent_lower_bound",
    "family_log3_lower_bound",
    "delta_sum",
]


def _in_range(expr: sp.Expr, indices: list, size: sp.Expr) -> sp.Expr:
    """Piecewise((f, cond), (0, True)) -> f where cond only says 1 <= u <= size, u in indices.

    A KroneckerDelta sum over t = 1..size evaluates to such a Piecewise; every channel
    index of a one-hot head lies in [1, size] by construction, so the first branch is taken.
    """
    allowed = set()
    for u in indices:
        allowed |= {sp.Le(u, size), sp.Ge(size, u), sp.Ge(u, 1), sp.Le(1, u)}

    def first_branch(pw):
        (value, cond), *_ = pw.args
        parts = cond.args if isinstance(cond, sp.And) else (cond,)
        return value if all(p in allowed or p is sp.true for p in parts) else pw

    return expr.replace(lambda e: isinstance(e, sp.Piecewise), first_branch)


def delta_sum(expr: sp.Expr, index: sp.Symbol, size: sp.Expr, in_range: list) -> sp.Expr:
    """sum_{index = 1}^{size} expr, evaluated by sympy, for ``in_range`` indices in [1, size].

    ``expr`` contains KroneckerDelta(u, index) for some u of ``in_range``; the sum picks the
    term index = u, valid because u lies in [1, size] (the hypothesis the caller states).

    Examples
    --------
    >>> t, a, s = sp.symbols("t a s", integer=True, positive=True)
    >>> y = sp.IndexedBase("y")
    >>> delta_sum(sp.KroneckerDelta(a, t) * y[t], t, s, [a])
    y[a]
    """
    return _in_range(sp.Sum(expr, (index, 1, size)).doit(), in_range, size)


def one_hot_layer_identity() -> dict[str, Any]:
    """One layer of one-hot heads, as a symbolic identity in the width s and length N.

    Head h (one per channel, h = 1..s) has W^Q = e_h^T, W^K = e_{C_h}^T, W^V = e_{B_h}^T,
    W^O = e_h (wies2021 eq. (5), l.108; the family of :mod:`.one_hot`). Its output at
    position i, coordinate a, summed over the heads, is computed with KroneckerDelta sums
    over symbolic ranges and compared with y^i_a sum_j y^j_{B_a} y^j_{C_a}; substituting
    the diagonal form y^j_t = g_t x^j_t it becomes g_a g_{B_a} g_{C_a} x^i_a S_{B_a C_a}.

    Returns
    -------
    dict
        ``holds`` (both identities simplify to 0) and the two expressions as text.

    Examples
    --------
    >>> one_hot_layer_identity()["holds"]
    True
    """
    s, N = sp.symbols("s N", integer=True, positive=True)
    i, j, t, h, a = sp.symbols("i j t h a", integer=True, positive=True)
    y, B, C, g, x = (sp.IndexedBase(n) for n in "yBCgx")

    def read(channel, pos):          # e_channel^T y^pos, a sum over the s coordinates
        return _in_range(sp.Sum(sp.KroneckerDelta(channel, t) * y[pos, t], (t, 1, s)).doit(),
                         [channel], s)

    head = sp.Sum(read(h, i) * read(C[h], j) * read(B[h], j), (j, 1, N))
    layer = _in_range(sp.Sum(sp.KroneckerDelta(a, h) * head, (h, 1, s)).doit(), [a], s)
    moment = sp.Sum(y[j, B[a]] * y[j, C[a]], (j, 1, N))
    first = sp.simplify(layer - y[i, a] * moment) == 0
    diagonal = layer.replace(lambda e: isinstance(e, sp.Indexed) and e.base == y,
                             lambda e: g[e.indices[1]] * x[e.indices[0], e.indices[1]])
    want = g[a] * g[B[a]] * g[C[a]] * x[i, a] * sp.Sum(x[j, B[a]] * x[j, C[a]], (j, 1, N))
    second = sp.simplify(sp.factor_terms(diagonal) - want) == 0
    return {"holds": bool(first and second), "layer_output_channel_a": str(layer),
            "diagonal_form": str(sp.factor_terms(diagonal)),
            "sizes": "symbolic s (width), N (positions), channel indices a, B_a, C_a in [1, s]"}


def shift_layer_dominance() -> dict[str, Any]:
    """E' >= (2I + P) E in a shift-1 layer; the first floor(s/2) + 1 layers meet every pair.

    The exponent recursion of :func:`one_hot_layer_identity` with (b, c) = (a, a + 1):
    E'_{a,k} - (2 E_{a,k} + E_{a+1,k}) = [k = {a, a + 1}] >= 0 (symbolic). An unordered pair
    {b, c} of channels has delta = (c - b) mod s and s - delta as its two differences;
    min(delta, s - delta) <= s/2, so a layer with shift <= floor(s/2) (the schedule's first
    layers, :func:`seprank.network_theory.one_hot.shift_schedule`) introduces it.

    Examples
    --------
    >>> shift_layer_dominance()["holds"]
    True
    """
    E_a, E_next, unit = sp.symbols("E_a E_next unit", nonnegative=True)
    new = E_a + E_a + E_next + unit                      # e_a + e_b + e_c + [k = {b, c}]
    slack = sp.simplify(new - (2 * E_a + E_next))
    s, delta = sp.symbols("s delta", integer=True, nonnegative=True)
    # the smaller of delta and s - delta is at most their mean s/2
    mean_gap = sp.simplify((delta + (s - delta)) / 2 - s / 2)
    return {"holds": bool(slack == unit and mean_gap == 0), "slack": str(slack),
            "pair_cover": "min(delta, s - delta) <= (delta + (s - delta))/2 = s/2",
            "sizes": "symbolic exponents, symbolic s and delta"}


def shift_power_facts() -> dict[str, Any]:
    """(2I + P)^n = sum_j C(n, j) 2^(n-j) P^j; rows of (2I + P)^m sum to 3^m (symbolic n, m).

    I and P commute, so the binomial theorem holds for 2I + P. Its inductive step is Pascal's
    rule C(n+1, j) = C(n, j) + C(n, j-1) (multiply the expansion of (u + v)^n by u + v and
    collect u^(n+1-j) v^j), checked by sympy for symbolic n, j. Each C(n, j) 2^(n-j),
    0 <= j <= n, is a positive integer, and P^0, ..., P^(s-1) are the s cyclic shifts whose
    sum is the all-ones J, so (2I + P)^(s-1) >= J entrywise. With P 1 = 1, (2I + P) 1 = 3 . 1.

    Examples
    --------
    >>> shift_power_facts()["holds"]
    True
    """
    n, j, m = sp.symbols("n j m", integer=True, positive=True)
    pascal = sp.binomial(n + 1, j) - sp.binomial(n, j) - sp.binomial(n, j - 1)
    pascal_ok = sp.simplify(sp.combsimp(pascal)) == 0
    row_sum = (2 + 1) ** m                      # (2I + P) applied m times to the ones vector
    return {"holds": bool(pascal_ok and sp.simplify(row_sum - 3 ** m) == 0),
            "pascal_rule": "C(n+1, j) - C(n, j) - C(n, j-1) = 0 (sympy, symbolic n, j)",
            "row_sums": "(2I + P) 1 = 2 . 1 + P 1 = 3 . 1, so (2I + P)^m 1 = 3^m 1",
            "sizes": "symbolic n, j, m; any width s"}


def moment_map_is_submersive() -> dict[str, Any]:
    """The differential of X -> X^T X at X = I_s is onto the symmetric matrices (symbolic s).

    d(X^T X) = dX^T X + X^T dX is dX^T + dX at X = I; for symmetric B the direction
    dX = B/2 maps to B (sympy MatrixSymbol of symbolic size s). So the Jacobian of the
    s(s+1)/2 entries of S^P = sum_{j in P} x^j x^j^T w.r.t. the s inputs x^j = e_j has full
    rank s(s+1)/2, and the entries are algebraically independent (Jacobian criterion).

    Examples
    --------
    >>> moment_map_is_submersive()["holds"]
    True
    """
    s = sp.Symbol("s", integer=True, positive=True)
    B = sp.MatrixSymbol("B", s, s)
    I = sp.Identity(s)
    dX = B / 2
    image = dX.T * I + I.T * dX                           # d(X^T X) at X = I
    image = image.subs(B.T, B)                            # B symmetric
    return {"holds": bool(sp.simplify(image - B) == sp.ZeroMatrix(s, s)),
            "differential_at_identity": "dX^T + dX", "preimage_of_symmetric_B": "B/2",
            "sizes": "symbolic s"}


def rate_beats_every_polylog() -> dict[str, Any]:
    """(5/4) s^3 log 3 outgrows K L s log^m(L s) at L = 4s for all constants K, m > 0.

    At L = 4s: (s(s+1)/2)(L - floor(s/2) - s) >= (s^2/2)(4s - s/2 - s) = (5/4) s^3; the
    ratio to 4 s^2 log^m(4 s^2) is (5/16) s / log^m(4 s^2) (constant K aside), whose limit
    as s -> infinity sympy finds infinite for a positive symbol m.

    Examples
    --------
    >>> rate_beats_every_polylog()["holds"]
    True
    """
    s, m = sp.symbols("s m", positive=True)
    lower = sp.Rational(1, 2) * s ** 2 * (4 * s - s / 2 - s)
    lower_ok = sp.simplify(lower - sp.Rational(5, 4) * s ** 3) == 0
    limit = sp.limit(s / sp.log(4 * s ** 2) ** m, s, sp.oo)
    return {"holds": bool(lower_ok and limit == sp.oo), "lower_at_L=4s": "(5/4) s^3",
            "limit_s_over_log^m(4s^2)": str(limit), "sizes": "symbolic s, m"}


def exponent_lower_bound(s: int, L: int) -> int:
    """3^(L - floor(s/2) - s): every exponent of the shift schedule after L layers is at least
    this (0 when L < floor(s/2) + s; the module docstring's argument).

    Examples
    --------
    >>> exponent_lower_bound(4, 10), exponent_lower_bound(4, 5)
    (81, 0)
    """
    n = L - s // 2 - s
    return 3 ** n if n >= 0 else 0


def family_log3_lower_bound(s: int, L: int) -> int:
    """(s(s+1)/2) (L - floor(s/2) - s): log_3 of prod (e + 1) is at least this.

    Examples
    --------
    >>> family_log3_lower_bound(4, 10)   # 10 * (10 - 2 - 4)
    40
    """
    return (s * (s + 1) // 2) * max(0, L - s // 2 - s)
