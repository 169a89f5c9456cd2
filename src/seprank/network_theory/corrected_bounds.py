"""The corrected separation-rank bounds of the analyzed network, as exact functions.

What replaces levine2020's Theorem 2 upper bound and Theorems 4, 6
(``levine2020_depth_to_width_self_attention.txt`` eq. (8) l.154, eq. (19) l.432,
l.524-528) and wies2021's Theorems 1, 3, 4 (``wies2021_vocabulary_bottleneck.txt``
eq. (6) l.133, eq. (9) l.381, eq. (11) l.455). The proofs are the checks
``L-Thm2-corrected`` and ``W-Thm1-corrected``; the comparisons with the printed bounds
live in the wings (``seprank.papers.levine2020.corrected``,
``seprank.papers.wies2021.corrected``). Notation: C = C(L) = (3^L - 1)/2,
D = d(d+1)/2 for a width d (the entries of a symmetric d x d moment matrix).

Upper bound (every weight, every partition)
-------------------------------------------
The output is y^{L,i} = G_L(S) x^i with S = sum_j x^j x^j^T and G_L a matrix
polynomial of degree <= C in S (:mod:`seprank.network_theory.moment_form`). With
S = S_I + S_J and i in I, expanding G_L(S_I + S_J) in the monomials W^gamma of the D
entries of S_J (|gamma| <= C) writes y_p^i as a sum of at most

    #{gamma in N^D : |gamma| <= C} = C(C + D, D)        (:func:`monomials_up_to`)

separable terms (:func:`corrected_upper`). Grouping the terms by |gamma| = g gives the
sharper *block form* (:func:`block_upper`): the I-side factor of block g lies in the span
of x^i_k S_I^alpha, k <= d, |alpha| = C - g (plain network: G_L is homogeneous of degree
C) or |alpha| <= C - g (residual network), so

    sep <= sum_{g=0}^{C} min(d ((C - g, D)), ((g, D)))  with ((c, D)) = C(c + D - 1, D - 1)

(plain; residual: d C(C - g + D, D) in place of d ((C - g, D))). Since C(C + D, D) =
prod_{k=1}^{D} (C + k)/k <= (C + 1)^D and C + 1 = (3^L + 1)/2 < 3^L:
log_3 sep <= D log_3((3^L + 1)/2) < D L (:func:`upper_power_bound`).

Lower bound (the one-hot family)
--------------------------------
The family of :mod:`seprank.network_theory.one_hot` (width s, H = s one-hot heads of
dimension 1) has every exponent >= 3^(L - floor(s/2) - s), so for |I|, |J| >= s
log_3 sep >= D_s (L - floor(s/2) - s) (:func:`family_log3_lower`).

Regime boundary
---------------
C(C + D, D) = C(C + D, C) behaves like (e (C + D)/C)^C while C(L) << D (double
exponential in L) and like (e (C + D)/D)^D once C(L) >> D (linear in L in the log); the
two exponents meet at C(L) = D, i.e. 3^L = d^2 + d + 1 (:func:`moment_boundary`).

Atlas hook
----------
:func:`atlas_n_infinity_points` reads exact N -> infinity separation ranks from
``docs/atlas/n_infinity.json`` when that file exists (for the figures of the two checks).
:func:`figure_series` and :func:`draw_figure` draw log_3 of a printed bound (given by
the paper's wing), of the corrected upper bound and of the family against L per width.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

from seprank.combinatorics import num_head_indices
from seprank.errors import ParameterError
from seprank.network_theory.one_hot import family_log3_lower_bound, family_seps_by_layer
from seprank.scalars.enclosures import int_at_least, log3

__all__ = [
    "moment_entries",
    "monomials_up_to",
    "corrected_upper",
    "block_upper",
    "embedded_upper",
    "upper_power_bound",
    "binomial_e_bound",
    "moment_boundary",
    "family_log3_lower",
    "atlas_n_infinity_points",
    "ATLAS_FILE",
    "figure_series",
    "draw_figure",
]

#: the file (under docs/atlas/) with exact N -> infinity separation ranks the figures add
ATLAS_FILE = "n_infinity.json"


def moment_entries(d: int) -> int:
    """D = d(d+1)/2, the number of entries of a symmetric d x d moment matrix.

    Examples
    --------
    >>> [moment_entries(d) for d in (1, 2, 3, 8)]
    [1, 3, 6, 36]
    """
    d = int_at_least("d", d, 1)
    return d * (d + 1) // 2


def monomials_up_to(C: int, D: int) -> int:
    """#{gamma in N^D : |gamma| <= C} = C(C + D, D): the monomials of degree <= C in D variables.

    Stars and bars with a slack variable (the check L-Thm2-corrected proves the count
    symbolically; tests compare it with a brute-force count).

    Examples
    --------
    >>> monomials_up_to(1, 3), monomials_up_to(4, 1), monomials_up_to(0, 5)
    (4, 5, 1)
    """
    C = int_at_least("C", C, 0)
    D = int_at_least("D", D, 0)
    return comb(C + D, D)


def corrected_upper(L: int, d: int) -> int:
    """The corrected upper bound C(C(L) + D, D), D = d(d+1)/2, on sep(y_p^i) at width d.

    levine2020's eq. (3) network, plain or residual, every H, d_a, N, weight and
    partition (module docstring); it replaces eq. (19) (A.3 l.432) and Theorem 6
    (A.4 l.524-528).

    Examples
    --------
    >>> corrected_upper(1, 1), corrected_upper(2, 2), corrected_upper(1, 4)
    (2, 35, 11)
    """
    L = int_at_least("L", L, 1)
    return monomials_up_to(num_head_indices(L), moment_entries(d))


def _crossover(C: int, a_of, b_of) -> int:
    """The first g in [0, C + 1] with a_of(g) <= b_of(g) (a decreasing, b increasing)."""
    lo, hi = 0, C + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if a_of(mid) <= b_of(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def block_upper(L: int, k: int, D: int, residual: bool = False) -> int:
    """The block form sum_g min(I-side dimension, #{gamma : |gamma| = g}) (module docstring).

    ``k``: the number of coordinates of the query vector x^i (d_x for levine2020's
    network, s = r + r_e behind an embedding); ``D``: the number of moment entries.
    The minimum switches once (the I-side count falls with g, the J-side count
    rises), so the sum is evaluated in closed form with the hockey-stick identity.

    Examples
    --------
    >>> block_upper(1, 4, 10)           # d_x + 1 at L = 1
    5
    >>> block_upper(2, 3, 6), block_upper(2, 4, 10)   # attained by random networks (atlas)
    (49, 110)
    >>> block_upper(2, 2, 3), block_upper(2, 2, 3, residual=True)
    (18, 20)
    """
    L = int_at_least("L", L, 1)
    k = int_at_least("k", k, 1)
    D = int_at_least("D", D, 1)
    C = num_head_indices(L)
    shift = 1 if residual else 0

    def a_of(g: int) -> int:  # I-side dimension of block g
        return k * comb(C - g + D - 1 + shift, D - 1 + shift) if g <= C else 0

    def b_of(g: int) -> int:  # #{gamma in N^D : |gamma| = g}
        return comb(g + D - 1, D - 1)

    g0 = _crossover(C, a_of, b_of)
    low = comb(g0 - 1 + D, D) if g0 >= 1 else 0                # sum_{g < g0} b_g
    high = k * comb(C - g0 + D + shift, D + shift) if g0 <= C else 0  # sum_{g >= g0} a_g
    return low + high


def embedded_upper(L: int, s: int, d_x: int) -> int:
    """C(C(L) + D_t, D_t) with t = min(s, d_x): the bound behind a rank-s embedding.

    wies2021's setting: y^{0,j} = F u^j with u^j in R^s (s = r + r_e), so the moments
    live in min(s, d_x) dimensions (check W-Thm1-corrected).

    Examples
    --------
    >>> embedded_upper(2, 1, 8) == corrected_upper(2, 1)
    True
    >>> embedded_upper(1, 5, 2) == corrected_upper(1, 2)
    True
    """
    s = int_at_least("s", s, 1)
    d_x = int_at_least("d_x", d_x, 1)
    return corrected_upper(L, min(s, d_x))


def upper_power_bound(L: int, d: int) -> int:
    """(C(L) + 1)^D >= C(C + D, D): the power whose log_3 is D log_3((3^L + 1)/2) < D L.

    Examples
    --------
    >>> upper_power_bound(1, 2), corrected_upper(1, 2)      # 2^3 >= C(4, 3)
    (8, 4)
    """
    L = int_at_least("L", L, 1)
    return (num_head_indices(L) + 1) ** moment_entries(d)


def binomial_e_bound(n: int, k: int) -> tuple[Fraction, int]:
    """C(n, k) <= (e n / k)^k as the e-monomial ((n/k)^k, k), for 1 <= k <= n.

    Compare it with :func:`seprank.scalars.enclosures.compare_e_monomials`. Applied to
    C(C + D, D) with k = C (shallow side) or k = D (deep side) of the regime boundary.

    Examples
    --------
    >>> binomial_e_bound(4, 2)      # C(4, 2) = 6 <= (2e)^2
    (Fraction(4, 1), 2)
    """
    n = int_at_least("n", n, 1)
    k = int_at_least("k", k, 1)
    if k > n:
        raise ParameterError(f"binomial_e_bound needs k <= n, got n={n}, k={k}")
    return Fraction(n, k) ** k, k


def moment_boundary(d: int) -> dict:
    """Where C(L) = D: 3^L = d^2 + d + 1; the least integer L with C(L) >= D.

    Below it (C(L) < D) the corrected bound's log grows like C(L) (double exponential in
    L), above it like D log C(L) (linear in L).

    Examples
    --------
    >>> moment_boundary(4)
    {'d': 4, 'D': 10, 'threshold_3^L': 21, 'least_L_with_C(L)>=D': 3}
    """
    d = int_at_least("d", d, 1)
    D, t = moment_entries(d), d * d + d + 1
    L = 0
    while 3 ** L < t:
        L += 1
    return {"d": d, "D": D, "threshold_3^L": t, "least_L_with_C(L)>=D": L}


def family_log3_lower(s: int, L: int) -> int:
    """D_s max(0, L - floor(s/2) - s): the one-hot family's proven log_3 sep lower bound.

    The same as :func:`seprank.network_theory.one_hot.family_log3_lower_bound`.

    Examples
    --------
    >>> family_log3_lower(4, 10), family_log3_lower(8, 9)
    (40, 0)
    """
    return family_log3_lower_bound(s, L)


#: the atlas families whose weights are drawn at random: ``generic`` (the draw of
#: ``models.generic_weights``, since issue 28) and ``random`` (the atlas files before it)
WEIGHT_DRAWS = ("generic", "random")


def _atlas_row(row: dict) -> dict | None:
    try:
        L, d_x = int(row["L"]), int(row["d_x"])
        sep = int(str(row["sep"]))
    except (KeyError, TypeError, ValueError):
        return None
    kind = str(row.get("kind", "exact"))
    if sep < 1 or kind != "exact":     # the figures plot exact values only
        return None
    if row.get("family", "generic") not in WEIGHT_DRAWS:   # structured: not "almost all"
        return None
    return {"L": L, "d_x": d_x, "H": row.get("H"), "sep": sep, "kind": kind}


def atlas_n_infinity_points(folder: str | Path | None) -> list[dict]:
    """Exact N -> infinity separation ranks from ``folder/n_infinity.json``, if that file exists.

    The hook for the figures of L-Thm2-corrected and W-Thm1-corrected. The file holds
    a JSON list of objects with ``L``, ``d_x``, ``sep`` (an int, or its decimal
    string), optional ``H``, ``kind`` (default ``exact``) and ``family`` (default
    ``generic``); rows that are not of this form, rows of another kind (a budget-cut
    ``lower_bound``) and rows of structured weights (``family`` other than ``generic`` or
    the older ``random``: particular weights, not the drawn ones the figures stand for)
    are skipped. Returns
    ``[]`` when the folder or the file does not exist, so the figures show the atlas
    points only once the atlas provides them.

    Examples
    --------
    >>> atlas_n_infinity_points(None), atlas_n_infinity_points("/nonexistent")
    ([], [])
    """
    if folder is None:
        return []
    path = Path(folder) / ATLAS_FILE
    if not path.is_file():
        return []
    try:
        rows = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    if not isinstance(rows, list):
        return []
    return [r for r in (_atlas_row(x) for x in rows if isinstance(x, dict)) if r is not None]


def figure_series(widths: tuple[int, ...], L_max: int, printed, atlas_folder=None) -> dict:
    """The figure's series per width d (log_3 values as floats, from exact numbers).

    ``printed(L, d)``: log_3 of the paper's printed bound as a float, or None where the
    paper does not state it (the wing supplies it); ``upper``: log_3 C(C + D, D);
    ``lower``: the family's proven D (L - floor(d/2) - d) where positive; ``family``:
    log_3 of the family's exact sep (largest over p); ``atlas``: the points of
    :func:`atlas_n_infinity_points` at this width.

    Examples
    --------
    >>> series = figure_series((2,), 3, lambda L, d: None)
    >>> series["d=2"]["L"], series["d=2"]["upper"][0] == float(log3(4).mid())
    ([1, 2, 3], True)
    """
    atlas = atlas_n_infinity_points(atlas_folder)
    out = {}
    for d in widths:
        Ls = list(range(1, L_max + 1))
        out[f"d={d}"] = {
            "L": Ls,
            "printed": [printed(L, d) for L in Ls],
            "upper": [float(log3(corrected_upper(L, d)).mid()) for L in Ls],
            "lower": [family_log3_lower(d, L) or None for L in Ls],
            "family": [float(log3(max(seps)).mid()) for seps in family_seps_by_layer(d, L_max)],
            "atlas": [[r["L"], float(log3(r["sep"]).mid())] for r in atlas if r["d_x"] == d]}
    return out


def draw_figure(value: dict, ax, printed_label: str, title: str) -> None:
    """Draw :func:`figure_series` on a matplotlib Axes: log_3 sep (log scale) against L.

    One color per width; dotted: the printed bound, solid: the corrected upper bound,
    dashed: the family's proven lower bound, dots: the family's exact values, crosses:
    the atlas's N -> infinity values (when present), plus signs: other exact N -> infinity
    values a check adds under ``random``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> draw_figure(figure_series((2, 3), 6, lambda L, d: None), ax, "printed", "demo")
    >>> ax.get_yscale(), len(ax.get_legend().get_texts())
    ('log', 6)
    >>> plt.close(fig)
    """
    styles = (("printed", ":", printed_label),
              ("upper", "-", "corrected upper bound log_3 C(C+D, D)"),
              ("lower", "--", "one-hot family, proven lower bound"))
    for n, (name, series) in enumerate(value.items()):
        color, Ls = f"C{n}", series["L"]
        for key, ls, _ in styles:
            pts = [(L, v) for L, v in zip(Ls, series[key], strict=True) if v]
            if pts:
                ax.plot(*zip(*pts, strict=True), ls, color=color, lw=1.2)
        ax.plot(Ls, series["family"], "o", color=color, ms=2.5, label=name)
        for key, marker in (("atlas", "x"), ("random", "+")):
            if series.get(key):
                ax.plot(*zip(*series[key], strict=True), marker, color=color, ms=6)
    for _, ls, label in styles:
        ax.plot([], [], ls, color="k", label=label)
    ax.plot([], [], "o", color="k", ms=2.5, label="one-hot family, exact sep")
    if any(series.get("atlas") for series in value.values()):
        ax.plot([], [], "x", color="k", label="atlas, exact sep at N -> infinity")
    if any(series.get("random") for series in value.values()):
        ax.plot([], [], "+", color="k", label="random networks, exact sep at N -> infinity")
    ax.set(yscale="log", xlabel="depth L", ylabel="log_3 sep", title=title)
    ax.legend(fontsize=6, ncol=2)
