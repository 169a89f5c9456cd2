"""The one-hot monomial family decides the upper bounds it exceeds (issue 10, integration).

Not a check: the functions are called by one line from the checks they decide
(``thm4_counterexample`` from L-Thm4, ``thm6_counterexample`` from L-Thm6,
``thm2_counterexample`` from L-Thm2; wies2021's Theorems 3-4 use the family through
:mod:`seprank_proofs.wies2021.one_hot_steps`).
Each adds the steps that certify the family (closed form against the eq. (3) network,
exact value-matrix ranks, the Jacobian certificate of algebraic independence) and one
step that compares the family's exact separation rank with the printed bound as exact
integers / Fractions (e by its certified rational enclosure) and records the
``false-statement`` erratum with the decisive instance.

The family: :mod:`seprank.network_theory.one_hot` (weights, closed form, why one weight
point decides an "almost everywhere" bound: a nonzero minor of a value matrix is a
polynomial in the weights, nonzero off a null set); each paper's bounds as predicates:
:mod:`seprank.papers.levine2020.counterexample`, :func:`seprank.papers.wies2021.bounds.exceeds_eq9`
(:data:`BOUNDS` puts both papers side by side, here, beside the checks that use it).
After each COUNTEREXAMPLE step, :mod:`.least_search` says how small a counterexample can
be (proven limits, then a search over one-hot schedules): the smallest failing sizes are
"least found" unless the proven limit meets them. Every step states its scope: the
family's steps at the sizes they run (the family's closed form and its separation rank
for every size are steps of L-Thm2-corrected), each COUNTEREXAMPLE step one instance.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import prod

import numpy as np
from seprank_proofs import LEVINE2020, WIES2021
from seprank_proofs._corrected_family import value_rank
from seprank_proofs.levine2020.least_search import least_steps

from seprank.combinatorics import multiset, num_head_indices
from seprank.network_theory.one_hot import (
    family_seps_by_layer,
    moment_jacobian_rank,
    monomial_exponents,
    monomial_network,
    padded_network,
    shift_schedule,
)
from seprank.network_theory.one_hot import first_exceeding as _first_exceeding
from seprank.papers.levine2020.bounds import thm2_upper_pow3, thm4_bound, thm6_bound
from seprank.papers.levine2020.counterexample import (
    exceeds_eq8_upper,
    exceeds_eq19,
    exceeds_eq20,
    exceeds_thm2_upper,
)
from seprank.papers.wies2021.bounds import exceeds_eq9
from seprank.scalars.enclosures import e_bounds

LEV = LEVINE2020
WIES = WIES2021
WEIGHTS = ("one-hot 1-dimensional heads (seprank.network_theory.one_hot."
           "monomial_network(s, shift_schedule(s, L))): d_x = H = s, d_a = 1; in layer l the "
           "head of channel a has W^Q = e_a^T, W^K = e_c^T, W^V = e_b^T, W^O = e_a with "
           "(b, c) = (a, a + delta_l mod s), delta_l = l for l <= floor(s/2), else 1")
PADDED = ("padded variant (seprank.network_theory.one_hot.padded_network(s, L)): "
          "d_x = 2s, H = s, d_a = 2, head a uses its first dimension with the same one-hot "
          "rows on channels 0..s-1, all other weights 0")

#: the bounds the family is compared with: name -> (sep, L, d_x) -> True when sep exceeds
#: the bound (exactly); each paper's predicate comes from its own wing
BOUNDS = {"levine2020 eq. (19)": exceeds_eq19, "levine2020 eq. (20)": exceeds_eq20,
          "levine2020 eq. (8) upper": exceeds_eq8_upper,
          "wies2021 eq. (9)/(11), r_e = 0": exceeds_eq9}


def first_exceeding(bound: str, s: int, L_max: int, padded: bool = False) -> dict | None:
    """The least L <= L_max where the width-s family exceeds ``bound`` (a key of BOUNDS)."""
    return _first_exceeding(BOUNDS[bound], s, L_max, padded)


#: a one-hot schedule (per layer, per channel a: the pair (b, c) its head reads) of width 8
#: and depth 7, found by a hill-climbing search over schedules (seeded, not rerun here;
#: :func:`seprank.network_theory.one_hot.anneal_schedule` finds such schedules too):
#: y_8 exceeds eq. (19) at L = 7, one layer less than the shift schedule needs
SEARCHED_8_7 = [
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (7, 6), (6, 6), (7, 7)],
    [(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (5, 6), (4, 1), (7, 0)],
    [(2, 0), (3, 7), (4, 2), (3, 5), (6, 4), (5, 7), (6, 0), (7, 1)],
    [(4, 0), (3, 0), (5, 2), (3, 6), (4, 7), (5, 0), (1, 6), (2, 7)],
    [(5, 5), (7, 4), (2, 6), (3, 1), (4, 0), (5, 1), (4, 0), (6, 2)],
    [(7, 0), (2, 0), (0, 6), (2, 0), (3, 0), (1, 3), (6, 0), (2, 6)],
    [(5, 4), (4, 5), (0, 3), (2, 0), (6, 3), (2, 0), (3, 4), (5, 5)],
]


def _closed_form_ok(net, s, L, N, rng, d_x=None, schedule=None) -> bool:
    d_x = d_x or s
    ex = monomial_exponents(s, schedule or shift_schedule(s, L))
    X = [[Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(d_x)]
         for _ in range(N)]
    out = net.evaluate([X], "QQ")[0, 0]
    A = np.array([row[:s] for row in X], dtype=object)
    S = A.T.dot(A)
    return all(out[p] == X[0][p] * prod(S[b][c] ** e for (b, c), e in ex[p].items())
               for p in range(s)) and all(out[p] == 0 for p in range(s, d_x))


def family_steps(ctx, source: str, jacobian_s: tuple[int, ...], padded: bool = False) -> None:
    """Certify the family: closed form = network, exact ranks, Jacobian certificate."""
    with ctx.step("the one-hot family (re-verified here): the eq. (3) network with one-hot "
                  "1-dimensional heads equals x^i_p prod_{b<=c} S_bc^{e_bc} exactly at rational "
                  "points" + (" (also the padded variant d_x = 2s, H = s, d_a = 2)" if padded
                              else "") + "; for N >= 2s and a balanced partition its "
                  "separation rank is prod(e_bc + 1): the exact rank of value matrices on "
                  "random P- and Q-points equals prod(e + 1) at small sizes (rank <= sep <= "
                  "prod(e+1) by the binomial expansion of S = S^P + S^Q)",
                  source=source, scope="sizes",
                  sizes="closed form (s, L) in (3, 3), (4, 4)" + (", padded (3, 3)" if padded
                                                                   else "")
                  + "; ranks (s, L) in (2, 2), (3, 2)") as s:
        rng = random.Random(1010)
        ident = []
        for sv, L, N in ((3, 3, 6), (4, 4, 8)):
            ok = _closed_form_ok(monomial_network(sv, shift_schedule(sv, L)), sv, L, N, rng)
            ident.append({"s": sv, "L": L, "N": N, "closed_form_equals_network": ok})
        if padded:
            ok = _closed_form_ok(padded_network(3, 3), 3, 3, 6, rng, d_x=6)
            ident.append({"s": 3, "d_x": 6, "H": 3, "d_a": 2, "L": 3, "N": 6,
                          "closed_form_equals_network": ok})
        ranks = [value_rank(2, 2, 4, 0, 7), value_rank(3, 2, 6, 1, 8)]
        s.record(identities=ident, value_matrix_ranks=ranks, weights=WEIGHTS,
                 general_argument="a diagonal moment form G = diag(g) stays diagonal: "
                                  "g_a <- g_a g_b g_c S_bc (seprank.network_theory."
                                  "moment_form; L-Thm2-corrected, step 'family, closed "
                                  "form', every s and L)")
        s.require(all(r["closed_form_equals_network"] for r in ident),
                  "the closed form differs from the network", cases=ident)
        s.require(all(r["rank"] == r["prod(e+1)"] for r in ranks),
                  "a value-matrix rank differs from prod(e + 1)", ranks=ranks)

    with ctx.step("certificate: the Jacobian of the s(s+1)/2 entries of S^P = sum_{j in P} "
                  "x^j x^j^T w.r.t. |P| = s inputs has exact rank s(s+1)/2 at a rational point "
                  f"(s in {list(jacobian_s)}), so the entries are algebraically independent and "
                  "sep(y_p^i) = prod(e_bc + 1) exactly for N = 2s (and any N >= 2s); a nonzero "
                  "minor of a value matrix at these weights is a polynomial in the weights, "
                  "nonzero off a null set, so sep > B at this point gives sep > B for almost "
                  "every weight", source=source, scope="sizes",
                  sizes=f"s in {list(jacobian_s)}") as s:
        jac = {sv: moment_jacobian_rank(sv, sv, seed=127) for sv in jacobian_s}
        s.record(jacobian_ranks=jac)
        s.require(all(jac[sv] == sv * (sv + 1) // 2 for sv in jac), "Jacobian rank deficient",
                  jacobian_ranks=jac)


def _sci(x) -> str:
    """A positive int or Fraction in scientific notation (no float overflow)."""
    import mpmath

    x = Fraction(x)
    with mpmath.workdps(12):
        return mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 5)


def _verified_by(ctx, err, prefix: str) -> None:
    """The corrected bound C(C + D, D) is proved by the repaired step of the identities work
    (same check); it verifies the correction when that step passed."""
    found = [st for st in ctx.steps if st.claim.startswith(prefix)]
    if len(found) == 1:
        found[0].verifies.append(err)


def _instance(found: dict, bound_name: str, bound_value, ratio_to=None) -> dict:
    L, d_x = found["L"], found["d_x"]
    ratio_to = bound_value if ratio_to is None else ratio_to
    return {"weights": WEIGHTS if found["d_a"] == 1 else PADDED, "s": found["s"],
            "d_x": d_x, "H": found["H"], "d_a": found["d_a"], "L": L, "C(L)": num_head_indices(L),
            "N": 2 * d_x, "partition": "P = positions 1..N/2, Q = the rest", "i": 1,
            "p": found["p"], "exponents": found["exponents"], "sep": found["sep"],
            bound_name: str(bound_value),
            "sep_over_bound": _sci(Fraction(found['sep']) / Fraction(ratio_to))}


def _table(bound: str, s_range, L_max, padded=False) -> list[dict]:
    rows = []
    for sv in s_range:
        f = first_exceeding(bound, sv, L_max, padded)
        rows.append({"d_x": 2 * sv if padded else sv, "H": sv,
                     "first_L": None if f is None else f["L"]})
    return rows


def _repaired_bound(L: int, d_x: int) -> int:
    D = d_x * (d_x + 1) // 2
    return multiset(D + 1, num_head_indices(L))


#: the correction of eq. (19), Theorem 6 and eq. (8)'s upper bound: the moment bound,
#: proven for all sizes in L-Thm2-corrected; one id, so one verified copy verifies all
MOMENT_BOUND = "levine2020-moment-bound"
#: the lower side of the corrected text (L-Thm2-corrected, base 3)
FAMILY_RATE = "the one-hot family has log_3 sep > D (L - floor(d_x/2) - d_x) (L-Thm2-corrected)"
#: why d_x <= 3 never fails each bound (the least failing width is 4)
SMALL_WIDTHS = {
    "eq. (19)": "d_x <= 3: C(C + D, D) <= eq. (19) at every L (polynomial comparison in C, "
                "step 'REPAIRED argument for l.448-467'); d_x = 4 fails (COUNTEREXAMPLE step)",
    "Theorem 6": "d_x <= 3: C(C + D, D) <= Theorem 6's bound at every L (polynomial "
                 "comparison in C, step 'REPAIRED argument for Theorem 6'); d_x = 4 fails at "
                 "L = 23 (shift schedule, per-width table)",
    "eq. (8) upper": "d_x <= 3: eq. (8)'s upper bound holds at every L (L-Thm2-corrected, "
                     "step 'eq. (8)'s upper bound against the corrected bounds', all sizes); "
                     "d_x = 4 fails at L = 32 (COUNTEREXAMPLE step)",
}


def thm4_counterexample(ctx) -> None:
    """L-Thm4: eq. (19) is false (d_x = 4, L = 12 first for d_x = 4)."""
    family_steps(ctx, LEV.cite("eq. (3) l.69-82; A.3 eq. (19)"), (4, 5, 6, 7, 8))
    with ctx.step("COUNTEREXAMPLE to eq. (19): the family at d_x = H = 4, d_a = 1, L = 12, "
                  "N = 8 has sep(y_p^1) = prod(e + 1) > d_x (C+1) ((d_x, 2C)) (2C/d_x + 1)^d_x "
                  "(exact integers); the first failing L of the shift schedule per d_x = 2..9 "
                  "is tabled (d_x <= 3: never, since the proven C(C + D, D) is below eq. (19) "
                  "there)", source=LEV.cite("A.3 Theorem 4 eq. (19) l.428-432"),
                  scope="instance", sizes="d_x = H = 4, d_a = 1, L = 12, N = 8") as s:
        found = first_exceeding("levine2020 eq. (19)", 4, 12)
        bound = thm4_bound(found["L"], found["d_x"])
        inst = _instance(found, "eq19", bound)
        inst["proven_upper_C(C+D,D)"] = str(_repaired_bound(found["L"], found["d_x"]))
        s.record(counterexample=inst, shift_first_L_per_d_x=_table("levine2020 eq. (19)",
                                                                   range(2, 10), 16),
                 two_sided=f"{found['sep']} <= sep <= C(C + D, D) = "
                           f"{inst['proven_upper_C(C+D,D)']} at this size is consistent: "
                           "the family is a lower bound, C(C+D, D) the proven upper bound")
        s.require(found["sep"] <= _repaired_bound(found["L"], 4),
                  "the family exceeds the proven C(C + D, D): contradiction", instance=inst)
        if found["sep"] > bound:
            err = s.erratum("A.3 Theorem 4, eq. (19), l.428-432",
                      "sep(y_p^i) <= d_x (C(L)+1) ((d_x, 2C(L))) (2C(L)/d_x + 1)^d_x",
                      "sep(y_p^i) <= C(C(L) + D, D), D = d_x(d_x+1)/2 (proven through "
                      "y^(i) = F_L(S) x^(i)); log sep = Theta(L d_x^2) in the worst case: "
                      + FAMILY_RATE, "false-statement", instance=inst, anchor="(19)",
                      correction_id=MOMENT_BOUND,
                      message=f"sep = {_sci(found['sep'])} > eq. (19) = {_sci(bound)} at "
                              "d_x = 4, L = 12")
            _verified_by(ctx, err, "REPAIRED argument for l.448-467")
    _searched_step(ctx)
    least_steps(ctx, "eq. (19)", {"d_x": 8, "L": 7}, LEV.cite("A.3 Theorem 4 eq. (19) l.428-432"),
                widths=range(4, 10), least_width_proof=SMALL_WIDTHS["eq. (19)"],
                search=[(7, 6), (8, 6), (9, 6)])


def _searched_step(ctx) -> None:
    with ctx.step("a second counterexample to eq. (19), at a smaller depth (the same printed "
                  "bound, so the same erratum, not counted again): the one-hot schedule "
                  "SEARCHED_8_7 (d_x = H = 8, d_a = 1, L = 7, N = 16; found by a search over "
                  "schedules) gives y_8^1 = x^1_8 prod S_bc^{e_bc} (closed form checked against "
                  "the network at a rational point; the diagonal moment form holds for every "
                  "one-hot schedule) with sep = prod(e + 1) > eq. (19), exactly (Jacobian "
                  "certificate for s = 8 above)",
                  source=LEV.cite("A.3 Theorem 4 eq. (19) l.428-432"), kind="certificate",
                  sizes="d_x = H = 8, d_a = 1, L = 7, N = 16") as s:
        sched = [[tuple(p) for p in layer] for layer in SEARCHED_8_7]
        ok = _closed_form_ok(monomial_network(8, sched), 8, 7, 16, random.Random(87),
                             schedule=sched)
        ex = monomial_exponents(8, sched)
        seps = [prod(v + 1 for v in e.values()) for e in ex]
        p = max(range(8), key=lambda k: seps[k])
        bound = thm4_bound(7, 8)
        found = {"L": 7, "d_x": 8, "H": 8, "d_a": 1, "s": 8, "p": p + 1, "sep": seps[p],
                 "exponents": {f"S_{b + 1}{c + 1}": v for (b, c), v in sorted(ex[p].items())}}
        inst = _instance(found, "eq19", bound) | {
            "weights": "one-hot 1-dimensional heads with the schedule SEARCHED_8_7 "
                       "(seprank_proofs.levine2020.levine_counterexample.SEARCHED_8_7; network: "
                       "seprank.network_theory.one_hot.monomial_network(8, SEARCHED_8_7)): head "
                       "a of layer l has W^Q = e_a^T, W^K = e_c^T, W^V = e_b^T, W^O = e_a, "
                       "(b, c) = SEARCHED_8_7[l][a]",
            "schedule": SEARCHED_8_7}
        s.record(another_counterexample=inst, closed_form_equals_network=ok,
                 sep_over_eq19=f"{float(Fraction(seps[p], 1) / bound):.4g}")
        s.require(ok, "the closed form differs from the network")
        s.require(seps[p] > bound, "the searched schedule does not exceed eq. (19)",
                  sep=_sci(seps[p]), eq19=_sci(bound))


def _residual_top_step(ctx) -> None:
    with ctx.step("the residual network with the family's weights: its degree-3^L homogeneous "
                  "part is the family's plain network (exact, s = 2, L = 2), and sep(f) >= "
                  "sep(top-degree part of f): f(t x)/t^(3^L) -> f_top(x) as t -> oo, sep is "
                  "invariant under x -> t x, and grid-matrix rank is lower semicontinuous "
                  "(the degree-C(l) part for every s and L: L-Thm2-corrected, step 'residual "
                  "networks')", source=LEV.cite("A.4 l.530-534"), scope="sizes",
                  sizes="s = 2, L = 2") as s:
        from seprank.models import SelfAttentionNetwork
        from seprank.papers.levine2020.identities import top_degree_part

        plain = monomial_network(2, shift_schedule(2, 2))
        res = SelfAttentionNetwork(2, 2, 2, 1, weights=plain.weights, residual=True)
        X = [[1, 2], [-1, 3], [2, 0], [1, -2]]
        ok = top_degree_part(res, X).tolist() == plain.evaluate([X], "ZZ")[0].tolist()
        s.record(top_degree_part_equals_plain=ok)
        s.require(ok, "the top-degree part is not the plain network")


def thm6_counterexample(ctx) -> None:
    """L-Thm6: eq. (20)'s residual bound (C+1) eq. (19) is false (first d_x = 5, L = 11)."""
    family_steps(ctx, LEV.cite("A.4 l.520-536"), (4, 5, 6, 7, 8))
    _residual_top_step(ctx)
    with ctx.step("COUNTEREXAMPLE to Theorem 6: the residual network with the family's weights "
                  "at d_x = H = 5, d_a = 1, L = 11, N = 10 has sep >= prod(e + 1) > d_x (C+1)^2 "
                  "((d_x, 2C)) (2C/d_x + 1)^d_x (exact integers); the first failing L of the "
                  "shift schedule per d_x = 2..9 is tabled",
                  source=LEV.cite("A.4 Theorem 6 l.524-528"), scope="instance",
                  sizes="d_x = H = 5, d_a = 1, L = 11, N = 10") as s:
        found = first_exceeding("levine2020 eq. (20)", 5, 11)
        bound = thm6_bound(found["L"], found["d_x"])
        inst = _instance(found, "theorem6_bound", bound) | {"residual": True,
                                                            "sep": f">= {found['sep']}"}
        s.record(counterexample=inst,
                 shift_first_L_per_d_x=_table("levine2020 eq. (20)", range(2, 10), 24))
        if found["sep"] > bound:
            err = s.erratum("A.4 Theorem 6, l.524-528",
                      "sep <= d_x (C(L)+1)^2 ((d_x, 2C(L))) (2C(L)/d_x + 1)^d_x",
                      "sep <= C(C(L) + D, D), D = d_x(d_x+1)/2 (residual form y^(i) = "
                      "G_L(S) x^(i), deg G_L <= C(L))", "false-statement", instance=inst,
                      anchor="Theorem 6", correction_id=MOMENT_BOUND,
                      message=f"sep >= {_sci(found['sep'])} > {_sci(bound)} at d_x = 5, "
                              "L = 11")
            _verified_by(ctx, err, "REPAIRED argument for Theorem 6")
    least_steps(ctx, "Theorem 6", {"d_x": 8, "L": 8}, LEV.cite("A.4 Theorem 6 l.524-528"),
                widths=range(4, 10), least_width_proof=SMALL_WIDTHS["Theorem 6"],
                search=[(9, 6), (7, 7), (8, 7)])


def _thm2_rows() -> list[dict]:
    """The three instances of eq. (8)'s failure: d_x = 8 (first L of the shift schedule at
    its width), d_x = 4 (the least failing width) and d_x = 18, H = 9 (H < d_x)."""
    rows = []
    for sv, padded, L_max in ((8, False, 9), (4, False, 32), (9, True, 24)):
        f = first_exceeding("levine2020 eq. (8) upper", sv, L_max, padded)
        q, m = thm2_upper_pow3(f["L"], f["d_x"])
        e_hi = e_bounds(20)[1]
        inst = _instance(f, "3^upper", f"{_sci(q)} * e^{m}", ratio_to=q * e_hi ** m)
        inst["regime_3^L>d_x"] = 3 ** f["L"] > f["d_x"]
        inst["previous_L_exceeds"] = exceeds_thm2_upper(
            max(family_seps_by_layer(sv, f["L"] - 1)[-1]), f["L"] - 1, f["d_x"])
        rows.append(inst)
    return rows


def thm2_counterexample(ctx) -> None:
    """L-Thm2: the upper bound of eq. (8) is false (also with H < d_x)."""
    family_steps(ctx, LEV.cite("sec 4.2 l.150-156"), (4, 8, 9), padded=True)
    with ctx.step("COUNTEREXAMPLE to the upper bound of eq. (8): log_3 sep <= 2 d_x L + c_1 + "
                  "c_2 fails for the family inside the regime 3^L > d_x, compared exactly "
                  "(3^(upper) = q e^(d_x), q rational, e in a certified rational interval): "
                  "with H < d_x as the lower bound's hypothesis requires, at d_x = 18, H = 9, "
                  "d_a = 2, L = 24 (padded variant); with H = d_x at d_x = 8, L = 9 and at "
                  "d_x = 4, L = 32 (d_x <= 3 never fails: next steps)",
                  source=LEV.cite("Theorem 2 eq. (8) l.150-156"), scope="instance",
                  sizes="d_x = 18, H = 9, L = 24; d_x = H = 8, L = 9; d_x = H = 4, "
                        "L = 32") as s:
        rows = _thm2_rows()
        s.record(counterexamples=rows,
                 shift_first_L_per_d_x=_table("levine2020 eq. (8) upper", range(2, 10), 40),
                 note="d_x <= 3: the upper bound holds at every L (L-Thm2-corrected)")
        if all(r["regime_3^L>d_x"] for r in rows):
            s.erratum("Theorem 2, eq. (8), upper bound, l.154-156",
                      "log_3 sep <= 2 d_x L + c_1 + c_2 (for all weights but a null set)",
                      "log_3 sep <= log_3 C(C(L) + D, D) <= D log_3(C(L) + 1), D = "
                      "d_x(d_x+1)/2: log sep = O(L d_x^2), and the one-hot family shows the "
                      "d_x^2 rate is attained", "false-statement", instance=rows[2],
                      anchor="(8)", correction_id=MOMENT_BOUND,
                      message=f"sep = {_sci(rows[2]['sep'])} > 3^(upper) at d_x = 18, H = 9 "
                              f"(H < d_x), L = 24; also at d_x = H = 8, L = 9 (sep = "
                              f"{_sci(rows[0]['sep'])}) and d_x = H = 4, L = 32")
    least_steps(ctx, "eq. (8) upper", {"d_x": 8, "L": 9}, LEV.cite("Theorem 2 eq. (8) l.154"),
                widths=range(4, 10), least_width_proof=SMALL_WIDTHS["eq. (8) upper"],
                search=[(9, 7), (7, 8), (8, 8)], max_width=12)
