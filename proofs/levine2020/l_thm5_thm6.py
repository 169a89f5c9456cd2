"""L-Thm5, L-Thm6: separation-rank bounds with residual connections.

Source: levine2020_depth_to_width_self_attention.txt, A.4 (l.500-536).
Theorem 5 (l.502-506) as printed:
    log_3 sep <= L log_3 L + (4 log_3 d_x + log_3 N - log_3 H) (3^L - 1)/2,
i.e. sep <= L^L (N d_x^4 / H)^C(L) (an integer: H divides d_x). Its proof
(l.508-518) ends with prod_{l=1}^L (l+1) (N d_x^4/H)^(3^(l-1)), and the
recursion it describes, unrolled, gives the larger thm5_recursion_bound.
Theorem 6 (l.520-536): sep <= d_x (C+1)^2 ((d_x, 2C)) (2C/d_x + 1)^d_x.

Computed: exact separation ranks of y_1^1 of random residual networks
(x^{l+1} = x^l + f_l(x^l)) over all balanced partitions, certified as for
L-Thm3 (seprank.constructions.known_seprank.network_sep_ranks).

Why: the paper says its analysis carries over to residual networks (A.4
l.478-484, l.508). L-Thm5 first runs the moment-form steps it shares with
L-Thm2-corrected (:mod:`.corrected_common`: y = G_L(S) x, deg G_L <= C(L), the count
C(C + D, D), each for all sizes), then the steps of its proof's displays
(:mod:`.levine_residual_displays`), whose repaired chain ends the argument; L-Thm6 runs
its displays and ends with the one-hot family (:mod:`.levine_counterexample`).
"""

from __future__ import annotations

from seprank_proofs import LEVINE2020
from seprank_proofs._corrected_common import (
    count_step,
    degree_steps,
    expansion_step,
    moment_form_steps,
)
from seprank_proofs.levine2020.l_thm3_thm4 import _binding as _plain_binding
from seprank_proofs.levine2020.levine_counterexample import thm6_counterexample
from seprank_proofs.levine2020.levine_residual_displays import thm56_displays

from seprank.combinatorics import num_head_indices
from seprank.constructions.known_seprank import network_sep_ranks
from seprank.papers.levine2020.bounds import (
    thm5_bound,
    thm5_log3_bound,
    thm5_product_bound,
    thm5_recursion_bound,
    thm6_bound,
)
from seprank.proof.scaffold import BoundTally, paper_check
from seprank.scalars.enclosures import log3
from seprank.separation.grid.route import size_cap

SRC = LEVINE2020
SEEDS_FAST = (3, 17)
SEEDS_FULL = (3, 17, 29, 41)
#: (L, d_x, H, N)
FAST = [(1, 1, 1, 2), (1, 2, 1, 2), (1, 2, 2, 2), (1, 4, 4, 2), (2, 1, 1, 2), (2, 2, 1, 2),
        (2, 2, 2, 2), (3, 1, 1, 2), (1, 1, 1, 4), (1, 2, 2, 4), (2, 1, 1, 4)]
FULL = FAST + [(1, 3, 3, 2), (2, 3, 3, 2), (1, 3, 1, 4), (1, 6, 3, 2)]
#: the sizes of the exact-rank steps (both tiers)
SIZES = "L <= 3, d_x <= 6, N <= 4 (the FAST / FULL lists)"
#: the steps of Theorem 5's repaired argument (claim prefixes), each for all sizes; the
#: moment-form steps are L-Thm2-corrected's (seprank_proofs._corrected_common)
THM5_ARGUMENT = ("moment form:", "degree:", "count:", "upper bound:",
                 "REPAIRED argument for Theorem 5")


def _cases(ctx):
    out = []
    for L, d_x, H, N in (FULL if ctx.full else FAST):
        for seed in (SEEDS_FULL if ctx.full else SEEDS_FAST):
            out.append(network_sep_ranks(L, d_x, H, N, residual=True, seed=seed))
    return out


def _row(case, **bounds):
    cap = size_cap(case["L"], case["d_x"], case["N"], tuple(range(case["N"] // 2)), 0, True)
    first = next(iter(bounds.values()))
    return {k: case[k] for k in ("L", "d_x", "H", "d_a", "N", "seed", "M", "grid_cap",
                                 "sep_ranks")} | {k: str(v) for k, v in bounds.items()} | {
        "size_cap": cap, "binding": cap >= first}


def _thm5_bounds(case):
    """The printed bound of Theorem 5 at a case, then the proof's product and recursion."""
    L, d_x, H, N = case["L"], case["d_x"], case["H"], case["N"]
    return {"thm5_printed": thm5_bound(L, d_x, N, H),
            "proof_product": thm5_product_bound(L, d_x, N, H),
            "proof_recursion": thm5_recursion_bound(L, d_x, N, H)}


def _ranks_below(ctx, s, bounds_of, name):
    """Exact separation ranks of the residual cases beside the first bound of
    ``bounds_of(case)`` (a dict; ``name`` says which bound in the failure message)."""
    rows, tally = [], BoundTally()
    for case in _cases(ctx):
        bounds = bounds_of(case)
        bound = next(iter(bounds.values()))
        row = _row(case, **bounds)
        rows.append(row)
        s.require(case["certificate"]["ok"], "templates did not certify the rank", case=row)
        tally.add(s, case["max_rank"], bound, row,
                  f"exact sep rank {case['max_rank']} exceeds the {name} {bound}",
                  counterexample=dict(row, templates=case["templates"], weights=case["weights"]))
    s.record(cases=rows, largest_ratio=tally.largest_ratio(),
             binding=any(r["binding"] for r in rows))


def _binding(ctx, s, bound_of, name, shapes_fast, shapes_full, **kw):
    """Exact ranks of residual networks at the smallest binding N (the L-Thm3/L-Thm4 helper)."""
    return _plain_binding(ctx, s, bound_of, name, shapes_fast, shapes_full, residual=True, **kw)


def _step_exact_form(ctx):
    """Step: the exact form L^L (N d_x^4/H)^C(L) is 3^(the printed bound)."""
    with ctx.step("The exact form L^L (N d_x^4/H)^C(L) used below is 3^(printed bound): its "
                  "log_3 lies in the arb ball of the printed expression",
                  source=SRC.cite("A.4 Theorem 5 l.506"), scope="sizes", sizes=SIZES) as s:
        rows = []
        for L, d_x, H, N in (FULL if ctx.full else FAST):
            exact = thm5_bound(L, d_x, N, H)
            ball = thm5_log3_bound(L, d_x, N, H)
            ok = log3(exact).overlaps(ball)
            rows.append({"L": L, "d_x": d_x, "H": H, "N": N, "printed_pow3": exact,
                         "log3_ball": str(ball), "consistent": bool(ok)})
            s.require(ok, "exact form disagrees with the printed log bound", case=rows[-1])
        s.record(cases=rows)


def _step_thm5_exact_ranks(ctx):
    """Step: exact ranks of residual networks beside the printed bound."""
    with ctx.step("Exact separation ranks of residual networks never exceed the printed "
                  "Theorem 5 bound L^L (N d_x^4/H)^C(L) (nor the proof's product and recursion "
                  "bounds, which are larger)", source=SRC.cite("A.4 Theorem 5 l.502-506"),
                  scope="sizes", sizes=SIZES) as s:
        _ranks_below(ctx, s, _thm5_bounds, "printed bound")


def _step_thm5_binding(ctx):
    """Step: the same at the smallest binding N."""
    with ctx.step("Binding instances: at the least N whose size cap reaches the printed "
                  "Theorem 5 bound L^L (N d_x^4/H)^C(L) (it grows with N), the exact separation "
                  "rank of random and structured residual networks stays <= it; rank/bound "
                  "recorded, and the shapes where no N <= 64 binds",
                  source=SRC.cite("A.4 Theorem 5 l.502-506"), scope="sizes",
                  sizes="(L, d_x, H) in (1, 1, 1), (1, 2, 2), (1, 2, 1), (2, 1, 1) (full tier: "
                        "and (1, 4, 4), (2, 2, 2)), N <= 64") as s:
        _binding(ctx, s, lambda L, d_x, H, d_a, N: thm5_bound(L, d_x, N, H), "thm5_printed",
                 [(1, 1, 1), (1, 2, 2), (1, 2, 1), (2, 1, 1)],
                 [(1, 1, 1), (1, 2, 2), (1, 2, 1), (1, 4, 4), (2, 1, 1), (2, 2, 2)],
                 depends_on_N=True, N_max=64)


def _step_printed_product_recursion(ctx):
    """Step: the printed bound, the proof's product and its recursion compared."""
    with ctx.step("Where the printed bound, the proof's final product (l.518) and the proof's "
                  "own recursion (l.512-516: S_l <= (N d_x^4/H) (l S_{l-1})^3, sep <= (L+1) S_L) "
                  "differ (observation): the printed L^L is below the product's (L+1)! for "
                  "L = 1, 2, and the recursion exceeds the product for L >= 2, so the proof "
                  "does not establish the printed statement for those L",
                  source=SRC.cite("A.4 l.506, l.512-518"), scope="sizes",
                  sizes="L <= 4, d_x = 2, N = 2, H = 1") as s:
        rows = []
        for L in (1, 2, 3, 4):
            d_x, N, H = 2, 2, 1
            printed = thm5_bound(L, d_x, N, H)
            prod_b = thm5_product_bound(L, d_x, N, H)
            rec_b = thm5_recursion_bound(L, d_x, N, H)
            k_pow = (N * d_x ** 4 // H) ** num_head_indices(L)
            rows.append({"L": L, "d_x": d_x, "N": N, "H": H,
                         "printed_factor_L^L": L ** L,
                         "product_factor_(L+1)!": prod_b // k_pow,
                         "recursion_factor": rec_b // k_pow,
                         "printed_le_product": printed <= prod_b,
                         "product_le_recursion": prod_b <= rec_b})
        s.record(d_x=2, N=2, H=1, comparison=rows)
        s.require(rows[0]["printed_factor_L^L"] < rows[0]["product_factor_(L+1)!"],
                  "expected the printed factor below the proof's at L = 1", rows=rows)


@paper_check(LEVINE2020, "L-Thm5", "Theorem 5: residual networks, log_3 sep <= L log_3 L + "
                                   "(4 log_3 d_x + log_3 N - log_3 H) C(L)",
             where="A.4 l.500-518", claim_where="A.4 l.500-506", depends=("L-net", "L-Lemma2"),
             kind="theorem", main_result=True,
             statement="Theorem 5 (residual): log_3 sep <= L log_3 L + "
                       "(4 log_3 d_x + log_3 N - log_3 H) C(L)")
def l_thm5(ctx):
    net = SRC.cite("eq. (3) l.69-82; A.4 l.478-484")
    moment_form_steps(ctx, net)
    degree_steps(ctx, net)
    count_step(ctx, SRC.cite("A.3 l.426"))
    expansion_step(ctx, net)
    thm56_displays(ctx, part=5)
    _step_exact_form(ctx)
    _step_thm5_exact_ranks(ctx)
    _step_thm5_binding(ctx)
    _step_printed_product_recursion(ctx)

    # -- outcome (seprank.proof.claims) --
    # The l.512-518 failure is recorded once, by the verified proof-error of the step
    # "l.516-518 AS PRINTED" (thm56_displays); the comparison step is an observation.
    from seprank_proofs._verdicts import bound_instances
    info = bound_instances(ctx, "Exact separation ranks of residual networks", "thm5_printed")
    ctx.conclude("holds", "proof", "repaired argument, every step for all sizes: the residual "
                 "network's output is y^(i) = G_L(S) x^(i) (the moment form, symbolic matrix "
                 "identities, shared with L-Thm2-corrected), deg G_L <= C(L) (symbolic "
                 "recurrence), so sep <= C(C + D, D) for every weight and partition (symbolic "
                 "count and expansion), and C(C + D, D) <= (D + 1)^C <= (2 d_x^3)^C <= (N d_x^4/"
                 "H)^C <= L^L (N d_x^4/H)^C(L) for N >= 2, H | d_x (each link a fact about "
                 "symbolic sizes); the printed recursion (l.512-518) is a verified proof-error; "
                 f"exact ranks agree ({info['count']} instances)", basis="argument",
                 argument_steps=THM5_ARGUMENT,
                 own_argument="the moment-form count does not use Lemma 2 or Lemma 5")


@paper_check(LEVINE2020, "L-Thm6", "Theorem 6: residual networks, sep <= d_x (C+1)^2 ((d_x, 2C)) "
                                   "(2C/d_x + 1)^d_x",
             where="A.4 l.520-536", claim_where="A.4 l.520-528", depends=("L-net", "L-Lemma5"),
             kind="theorem", main_result=True,
             statement="Theorem 6 (residual): sep <= d_x (C(L)+1)^2 ((d_x, 2C(L))) "
                       "(2C(L)/d_x + 1)^d_x")
def l_thm6(ctx):
    thm56_displays(ctx, part=6)
    with ctx.step("Binding instances: at the least N (up to 64) whose size cap reaches Theorem "
                  "6's bound, the exact separation rank of random and structured residual "
                  "networks stays <= it; rank/bound recorded",
                  source=SRC.cite("A.4 Theorem 6 l.524-528"), scope="sizes",
                  sizes="(L, d_x, H) in (1, 1, 1), (2, 1, 1) (full tier: and (1, 2, 1))") as s:
        _binding(ctx, s, lambda L, d_x, H, d_a: thm6_bound(L, d_x), "thm6_bound",
                 [(1, 1, 1), (2, 1, 1)], [(1, 1, 1), (1, 2, 1), (2, 1, 1)], N_max=64)

    with ctx.step("Exact separation ranks of residual networks never exceed Theorem 6's bound",
                  source=SRC.cite("A.4 Theorem 6 l.524-528"), scope="sizes", sizes=SIZES) as s:
        _ranks_below(ctx, s, lambda case: {"thm6_bound": thm6_bound(case["L"], case["d_x"])},
                     "bound")

    # -- outcome (seprank.proof.claims) --
    from seprank_proofs._verdicts import bound_instances
    bound_instances(ctx, "Exact separation ranks of residual networks", "thm6_bound")
    thm6_counterexample(ctx)
    ctx.conclude("false", "proof", "certified counterexample: the residual network with the "
                 "one-hot family's weights at d_x = H = 5, d_a = 1, L = 11, N = 10 has sep >= "
                 "sep(top-degree part) = prod(e + 1) (Jacobian certificate) > Theorem 6's bound, "
                 "exactly; the proven bound is C(C + D, D), D = d_x(d_x+1)/2",
                 basis="certificate")
