"""L-Claim1: the rank of a grid-tensor matricization is at most the separation rank.

Source: levine2020_depth_to_width_self_attention.txt, B.1.2, Claim 1 (l.615-645),
eq. (23): for any M and any templates, sep_(I,J)(y) >= rank [[A(y)]]_{I,J}.
The proof writes y = sum_{nu=1}^K g_nu^I g_nu^J and observes that the
matricized grid tensor is then sum_nu v_nu u_nu^T (l.636-643).

Why: every lower bound of the paper goes through it. B.2 bounds the separation
rank from below by the rank of a grid matricization (l.674), and the exact
ranks of the other checks are grid ranks with templates that certify them.

Computed: functions of known separation rank R, y = sum_{r=1}^R f_r(x_I) g_r(x_J)
with random integer polynomials f_r, g_r (R is certified exactly as the rank
of the coefficient matrix, which for a polynomial *is* its separation rank:
see seprank.constructions.known_seprank); the proof's identity
[[A]] = sum_r v_r u_r^T entrywise; rank <= R for generic, degenerate (few or
repeated templates) and random small template sets; rank = R for templates
whose monomial matrices have full column rank; and the same inequality for
network outputs (grid ranks with random small template sets never exceed the
network's certified exact separation rank).
"""

from __future__ import annotations

import numpy as np
from seprank_proofs import LEVINE2020

import seprank
from seprank.constructions.known_seprank import (
    certified_templates,
    coefficient_rank,
    eval_poly,
    min_templates,
    network_sep_ranks,
    poly_product_function,
    random_poly,
    side_points,
)
from seprank.proof.scaffold import paper_check
from seprank.tensors import grid_tensor, matricize

SRC = LEVINE2020
#: (N, d, R, D, I): positions, template dimension, number of terms, degree, the set I
FAST = [(2, 1, 3, 3, (0,)), (2, 2, 4, 2, (0,)), (2, 2, 6, 3, (0,)), (4, 1, 3, 2, (0, 1)),
        (4, 1, 5, 2, (0, 2)), (4, 1, 3, 1, (1, 3))]
FULL = FAST + [(2, 3, 8, 2, (0,)), (4, 2, 6, 2, (0, 3)), (4, 1, 9, 3, (0, 1))]


def _instance(N, d, R, D, I, seed):
    rng = np.random.default_rng(seed)
    P = len(I)
    while True:
        fs = [random_poly(rng, P * d, D, bound=3) for _ in range(R)]
        gs = [random_poly(rng, (N - P) * d, D, bound=3) for _ in range(R)]
        if coefficient_rank(fs, gs) == R:
            return fs, gs


def _grid_rank(f, T, N, I):
    J = tuple(n for n in range(N) if n not in I)
    return seprank.rank(matricize(grid_tensor(f, T, N), I, J), "exact").value


def _step_identity_of_the_proof(ctx, cases):
    """Step 1: the matricized grid tensor is the sum of outer products the proof writes."""
    with ctx.step("The proof's identity: for y = sum_r f_r(x_I) g_r(x_J), the matricized grid "
                  "tensor equals sum_r v_r u_r^T with v_r (u_r) the values of f_r (g_r) on the "
                  "row (column) assignments, entrywise and exactly, for contiguous and "
                  "interleaved partitions",
                  source=SRC.cite("B.1.2 l.631-643"), scope="sizes",
                  sizes="the functions and partitions of the evidence") as s:
        rows = []
        for k, (N, d, R, D, I) in enumerate(cases):
            fs, gs = _instance(N, d, R, D, I, 6150 + k)
            rng = np.random.default_rng(k)
            T = rng.integers(-4, 5, size=(3, d)).astype(object)
            J = tuple(n for n in range(N) if n not in I)
            A = matricize(grid_tensor(poly_product_function(fs, gs, N, I), T, N), I, J)
            PI, PJ = side_points(T, len(I)), side_points(T, len(J))
            S = sum(np.outer(eval_poly(fr, PI), eval_poly(gr, PJ))
                    for fr, gr in zip(fs, gs, strict=True))
            equal = bool((A == S).all())
            rows.append({"N": N, "d": d, "R": R, "I": [i + 1 for i in I], "shape": A.shape,
                         "identity_holds": equal})
            s.require(equal, "grid matricization != sum of outer products", case=rows[-1])
        s.record(cases=rows)


def _template_ranks(k, N, d, R, D, I):
    """One case of step 2: the grid ranks of y (separation rank R) for five template sets."""
    fs, gs = _instance(N, d, R, D, I, 6150 + k)
    f = poly_product_function(fs, gs, N, I)
    rng = np.random.default_rng(100 + k)
    M = min_templates(d, D)
    T, cert, _ = certified_templates(rng, d, M, N, D)
    # the certificate is for I = the first N/2 positions; the side sizes are
    # what matters (product sets), so it holds for any balanced I
    generic = _grid_rank(f, T, N, I)
    small = rng.integers(-3, 4, size=(2, d)).astype(object)
    repeated = np.concatenate([T[:2], T[:2], T[:1]])
    few = _grid_rank(f, small, N, I)
    rep = _grid_rank(f, repeated, N, I)
    rand = [_grid_rank(f, rng.integers(-5, 6, size=(3, d)).astype(object), N, I)
            for _ in range(2)]
    return {"N": N, "d": d, "R": R, "degree": D, "I": [i + 1 for i in I],
            "known_sep_rank": R, "certified_templates_M": M,
            "certificate_ok": cert["ok"], "rank_generic": generic,
            "rank_two_templates": few, "rank_repeated_templates": rep,
            "rank_random_3_templates": rand}


def _step_rank_at_most_R(ctx, cases):
    """Step 2: eq. (23), rank <= R for every template set, = R for certified ones."""
    with ctx.step("rank <= R for every template set tried: generic certified ones, random "
                  "small ones, too few templates (M^|I| < R) and repeated templates; and rank "
                  "= R exactly for templates whose monomial matrices have full column rank",
                  source=SRC.cite("Claim 1 eq. (23) l.623-627"), scope="sizes",
                  sizes="the functions and template sets of the evidence") as s:
        rows = []
        for k, (N, d, R, D, I) in enumerate(cases):
            row = _template_ranks(k, N, d, R, D, I)
            rows.append(row)
            few, rep, rand = (row["rank_two_templates"], row["rank_repeated_templates"],
                              row["rank_random_3_templates"])
            s.require(max(few, rep, *rand) <= R and row["rank_generic"] <= R,
                      "a grid rank exceeds the separation rank", counterexample=row)
            s.require(row["certificate_ok"] and row["rank_generic"] == R,
                      "certified templates did not reach rank R", case=row)
        s.record(cases=rows,
                 strict_drops=sum(r["rank_two_templates"] < R or r["rank_repeated_templates"] < R
                                  for r, (_, _, R, _, _) in zip(rows, cases, strict=True)))


def _step_network_outputs(ctx):
    """Step 3: the inequality for network outputs of eq. (3)."""
    with ctx.step("For network outputs y_1^1 (eq. (3)): grid ranks with random small template "
                  "sets never exceed the network's exact separation rank (certified as in "
                  "L-Thm3)", source=SRC.cite("Claim 1 l.619-627"), scope="sizes",
                  sizes="the networks of the evidence") as s:
        from seprank.models import SelfAttentionNetwork

        rows = []
        for L, d_x, H, N in [(1, 2, 1, 2), (2, 1, 1, 2), (1, 2, 2, 4), (2, 2, 1, 2)]:
            case = network_sep_ranks(L, d_x, H, N, seed=3)
            net = SelfAttentionNetwork.random(L, d_x, H, seed=3, nonzero=True)
            rng = np.random.default_rng(L * 100 + d_x * 10 + N)
            I = tuple(range(N // 2))
            ranks = [_grid_rank(net.as_function(0, 0, "ZZ"),
                                rng.integers(-3, 4, size=(m, d_x)).astype(object), N, I)
                     for m in (2, 3, 4)]
            rows.append({"L": L, "d_x": d_x, "H": H, "N": N,
                         "sep_rank": case["sep_ranks"], "grid_ranks_M_2_3_4": ranks})
            s.require(max(ranks) <= case["max_rank"], "grid rank above the separation rank",
                      counterexample=rows[-1])
        s.record(cases=rows)


@paper_check(LEVINE2020, "L-Claim1", "rank of a grid-tensor matricization <= separation rank",
             where="B.1.2 l.615-645", kind="claim",
             statement="Claim 1: the rank of any grid-tensor matricization is at most the "
                       "separation rank")
def l_claim1(ctx):
    cases = FULL if ctx.full else FAST
    _step_identity_of_the_proof(ctx, cases)
    _step_rank_at_most_R(ctx, cases)
    _step_network_outputs(ctx)
    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "the proof's identity (step 1): y = sum_{r <= R} f_r g_r gives a grid matrix "
                 "sum_r v_r u_r^T of rank <= R, for any templates", basis="identity")
