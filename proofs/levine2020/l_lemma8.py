"""L-Lemma8: the vector rearrangement inequality.

Source: levine2020_depth_to_width_self_attention.txt, B.3, Lemma 8
(l.825-852). Why: it makes the identity the unique top-degree permutation of
det A(Omega), which Lemma 7 and B.2 need (l.716-718).

Lemma 8 (l.825-832): for N pairwise different vectors with non-negative
entries, every permutation sigma other than the identity has
e(sigma) = sum_i <v_i, v_sigma(i)> strictly below e(id) = sum_i |v_i|^2.
Its proof (l.834-852) quotes the scalar rearrangement inequality with an
equality condition (eq. (55), l.836-838), applies it per coordinate and
argues by contradiction. B.2 (l.716-718) applies it to the compositions of
lambda into d parts, the row labels of A(Omega).

Steps: the lemma exhaustively over all permutations (compositions and random
sets); the exact identity 2(e(id) - e(sigma)) = sum_i |v_i - v_sigma(i)|^2 that
explains it; which hypotheses matter (non-negativity does not, distinctness
does); the proof's equality condition as printed and corrected; and, for sets
too large to enumerate, the identity as the unique optimum of the assignment
problem (an LP-duality certificate, and an independent networkx computation).
"""

from __future__ import annotations

import itertools
import random

from seprank_proofs import LEVINE2020

from seprank.combinatorics import compositions, multiset
from seprank.papers.levine2020.rearrangement import (
    best_non_identity_assignment,
    dual_certificate,
    exhaustive_rearrangement,
    scalar_equality_cases,
    verify_dual_certificate,
)
from seprank.proof.scaffold import erratum_if_failed, paper_check

SRC = LEVINE2020
SEED = 20200708

#: (d, lambda) whose compositions are enumerated over all N! permutations
EXHAUSTIVE = {False: [(2, 1), (3, 1), (2, 2), (4, 1), (2, 3), (5, 1), (2, 4), (3, 2),
                      (6, 1), (2, 5), (7, 1), (2, 6), (8, 1), (2, 7)],
              True: [(2, 1), (3, 1), (2, 2), (4, 1), (2, 3), (5, 1), (2, 4), (3, 2),
                     (6, 1), (2, 5), (7, 1), (2, 6), (8, 1), (2, 7), (9, 1), (2, 8)]}
#: compositions checked through the assignment problem with networkx
NETWORKX = {False: [(3, 3), (4, 2), (3, 4), (4, 3), (5, 3)],
            True: [(3, 3), (4, 2), (3, 4), (4, 3), (5, 3), (4, 4), (3, 9), (6, 3), (10, 2),
                   (7, 3)]}
#: compositions checked with the duality certificate only (cheap, any size)
DUAL = {False: [(6, 3), (3, 9), (4, 9), (10, 3), (8, 4)],
        True: [(6, 3), (3, 9), (4, 9), (10, 3), (8, 4), (3, 27), (5, 9), (12, 4), (30, 3)]}


def _random_distinct_sets(rng: random.Random, count: int, n_max: int, dim_max: int,
                          low: int, high: int) -> list[list[tuple[int, ...]]]:
    sets = []
    while len(sets) < count:
        n = rng.randint(2, n_max)
        dim = rng.randint(1, dim_max)
        if (high - low + 1) ** dim < n:
            continue
        chosen: dict[tuple[int, ...], None] = {}
        while len(chosen) < n:
            chosen[tuple(rng.randint(low, high) for _ in range(dim))] = None
        sets.append(list(chosen))
    return sets


def _step_compositions_exhaustive(ctx):
    """Step 1: the lemma over all permutations of the compositions; returns their results."""
    with ctx.step("Lemma 8 as printed, over every permutation: for the compositions of lambda "
                  "into d parts (distinct vectors, entries >= 0) no permutation other than the "
                  "identity reaches sum_i |v_i|^2", source=SRC.cite("l.825-832; applied at l.716"),
                  scope="sizes", sizes="the (d, lambda) of EXHAUSTIVE") as s:
        rows = []
        exhaustive = {}
        for d, lam in EXHAUSTIVE[ctx.full]:
            Q = compositions(lam, d)
            r = exhaustive_rearrangement(Q)
            exhaustive[(d, lam)] = r
            entry = {"d": d, "lam": lam, "N": r["n"], "permutations": r["permutations"],
                     "identity_exponent": r["identity_exponent"],
                     "second_best": r["second_best"],
                     "identity_unique_max": r["identity_unique_max"]}
            rows.append(entry)
            s.require(r["identity_unique_max"], "a non-identity permutation reaches the maximum",
                      counterexample=dict(entry, vectors=[list(q) for q in Q],
                                          violations=r["violations"]))
        s.record(cases=rows, permutations_total=sum(r["permutations"] for r in rows),
                 largest_N=max(r["N"] for r in rows))
    return exhaustive


def _step_random_sets(ctx, rng):
    """Step 2: the lemma on random sets of distinct non-negative vectors."""
    with ctx.step("Lemma 8 as printed on random sets of pairwise different vectors with "
                  "non-negative integer entries (N <= 7, every permutation)",
                  source=SRC.cite("l.825-832"), scope="sizes", sizes="N <= 7") as s:
        sets = _random_distinct_sets(rng, 60 if ctx.full else 25, 7 if ctx.full else 6, 4, 0, 3)
        perms = 0
        gap_ok = True
        for vs in sets:
            r = exhaustive_rearrangement(vs)
            perms += r["permutations"]
            gap_ok &= r["gap_identity_ok"]
            s.require(r["identity_unique_max"], "a non-identity permutation reaches the maximum",
                      counterexample={"vectors": [list(v) for v in vs],
                                      "violations": r["violations"]})
        s.record(sets=len(sets), permutations=perms, seed=SEED,
                 example=[list(v) for v in sets[0]])


def _step_gap_identity(ctx, exhaustive):
    """Step 3: 2 (e(id) - e(sigma)) = sum_i |v_i - v_sigma(i)|^2 on the permutations of step 1."""
    with ctx.step("Why it holds (our identity, exact): 2 (e(id) - e(sigma)) = "
                  "sum_i |v_i - v_sigma(i)|^2 for every permutation; each index that sigma "
                  "moves adds a positive square when the vectors are different",
                  source=SRC.cite("l.831 (right-hand side minus left-hand side)"), scope="sizes",
                  sizes="the sets of the two previous steps") as s:
        checked = 0
        bad = None
        for (d, lam), r in exhaustive.items():  # the permutations of the first step
            checked += r["permutations"]
            if not r["gap_identity_ok"] and bad is None:
                bad = {"d": d, "lam": lam}
        s.record(permutations_checked=checked)
        s.require(bad is None, "the identity failed for some permutation", counterexample=bad)


def _step_negative_entries(ctx, rng):
    """Step 4: the strict inequality without the non-negativity hypothesis."""
    with ctx.step("Non-negative entries are not needed: the strict inequality also holds for "
                  "pairwise different vectors with negative entries (the printed hypothesis "
                  "is stronger than necessary; it does no harm)",
                  source=SRC.cite("l.827 (hypothesis v_j^(i) >= 0)"), scope="sizes",
                  sizes="random sets with negative entries, N <= 6") as s:
        sets = _random_distinct_sets(rng, 40 if ctx.full else 20, 6, 3, -3, 3)
        sets.append([(-1,), (1,)])  # smallest example with a negative entry
        perms = 0
        for vs in sets:
            r = exhaustive_rearrangement(vs)
            perms += r["permutations"]
            s.require(r["identity_unique_max"] and r["gap_identity_ok"],
                      "strict inequality fails for vectors with negative entries",
                      counterexample={"vectors": [list(v) for v in vs],
                                      "violations": r["violations"]})
        s.record(sets=len(sets), permutations=perms,
                 smallest_example={"vectors": [[-1], [1]], "identity": 2, "swap": -2})


def _step_distinctness_needed(ctx):
    """Step 5: with two equal vectors the swap ties with the identity."""
    with ctx.step("Distinctness cannot be dropped: with two equal vectors the swap reaches "
                  "equality (the case N = 2, one coordinate, v_1 = v_2 = 0)",
                  source=SRC.cite("l.827 ('a set of N different vectors')"), scope="instance",
                  sizes="N = 2, v_1 = v_2 = 0") as s:
        r = exhaustive_rearrangement([(0,), (0,)])
        r1 = exhaustive_rearrangement([(1, 2), (1, 2), (0, 3)])
        s.record(equal_pair=r, repeated_in_three=r1["argmax"])
        s.require(not r["identity_unique_max"] and r["max_exponent"] == r["identity_exponent"],
                  "expected the swap of equal vectors to tie with the identity")


def _step_eq55_printed(ctx):
    """Step 6: the equality condition of eq. (55) as printed."""
    with ctx.step("Proof, eq. (55) as printed: for non-negative numbers, sum_i a_i a_sigma(i) <= "
                  "sum_i a_i^2 with equality ONLY for sigma satisfying 'sigma(i) = j iff "
                  "a_i = a_j' (checked exhaustively over all lists with N <= 4, values 0..2)",
                  source=SRC.cite("l.836-838, eq. (55)"), scope="sizes",
                  sizes="every list with N <= 4, values 0..2") as s:
        lists = [list(a) for N in range(1, 5) for a in itertools.product(range(3), repeat=N)]
        first_bad = None
        inequality_ok = True
        for a in lists:
            r = scalar_equality_cases(a)
            inequality_ok &= r["inequality_ok"]
            if r["printed_mismatch"] is not None and first_bad is None:
                first_bad = {"a": a, **r["printed_mismatch"]}
        # the flaw bites where the proof uses (55): coordinates of compositions repeat
        first_coords = [q[0] for q in compositions(2, 3)]
        s.record(lists=len(lists), inequality_part_holds=inequality_ok,
                 application_has_repeated_values={"d": 3, "lam": 2,
                                                  "first_coordinates": first_coords})
        s.require(inequality_ok, "the inequality part of eq. (55) fails")
        s.require(first_bad is None,
                  "the printed equality condition is wrong whenever two numbers are equal: "
                  "then no permutation satisfies 'sigma(i) = j iff a_i = a_j' (i would have "
                  "to map to every j with a_j = a_i), yet the identity always gives equality",
                  counterexample=first_bad)


def _step_eq55_corrected(ctx):
    """Step 7: the corrected equality condition of eq. (55)."""
    with ctx.step("Corrected eq. (55): equality holds iff a_sigma(i) = a_i for every i (sigma "
                  "only permutes indices with equal values); the inequality itself holds for "
                  "all real numbers. The proof's use of it (per coordinate, l.846-848) is "
                  "sound with this condition",
                  source=SRC.cite("l.836-848"), corrected=True, scope="sizes",
                  sizes="every list with N <= 4, values 0..2") as s:
        lists = [list(a) for N in range(1, 6) for a in itertools.product(range(-1, 3), repeat=N)
                 if N <= 4 or ctx.full]
        bad = None
        for a in lists:
            r = scalar_equality_cases(a)
            if (r["corrected_mismatch"] is not None or not r["inequality_ok"]) and bad is None:
                bad = {"a": a, **(r["corrected_mismatch"] or {}),
                       "inequality_ok": r["inequality_ok"]}
        s.record(lists=len(lists), value_range=[-1, 2], max_N=5 if ctx.full else 4)
        s.require(bad is None, "corrected equality condition fails", counterexample=bad)


def _step_assignment_networkx(ctx, rng):
    """Step 8: the identity as the unique optimal assignment (networkx)."""
    with ctx.step("Large sets: the identity is the unique optimum of the assignment problem "
                  "max_sigma sum_i <q_i, q_sigma(i)> over the compositions, recomputed "
                  "independently with networkx (one matching per forbidden diagonal edge); "
                  "the best non-identity value equals e(id) - min_{i != j} |q_i - q_j|^2 = "
                  "e(id) - 2", source=SRC.cite("l.716-718 (application of Lemma 8)"),
                  scope="sizes", sizes="the compositions of the evidence") as s:
        rows = []
        for d, lam in NETWORKX[ctx.full]:
            Q = compositions(lam, d)
            r = best_non_identity_assignment(Q)
            cert = dual_certificate(Q)
            entry = {"d": d, "lam": lam, "N": len(Q), "identity_weight": r["identity_weight"],
                     "best_weight": r["best_weight"], "second_best": r["second_best"],
                     "closed_form_second_best": cert["second_best_exponent"]}
            rows.append(entry)
            s.require(r["best_weight"] == r["identity_weight"] and r["identity_unique"],
                      "the identity is not the unique optimal assignment", counterexample=entry)
            s.require(r["second_best"] == cert["second_best_exponent"]
                      == r["identity_weight"] - 2,
                      "networkx and the closed form disagree on the second best",
                      counterexample=entry)
        for vs in _random_distinct_sets(rng, 6 if ctx.full else 3, 25, 5, 0, 3):
            r = best_non_identity_assignment(vs)
            cert = dual_certificate(vs)
            entry = {"N": len(vs), "dim": len(vs[0]), "identity_weight": r["identity_weight"],
                     "second_best": r["second_best"],
                     "closed_form_second_best": cert["second_best_exponent"]}
            rows.append(entry)
            s.require(r["identity_unique"] and r["second_best"] == cert["second_best_exponent"],
                      "random set: networkx and the closed form disagree",
                      counterexample=dict(entry, vectors=[list(v) for v in vs]))
        s.record(cases=rows)


def _step_dual_certificate(ctx):
    """Step 9: larger compositions through the LP-duality certificate."""
    with ctx.step("Larger compositions through the LP-duality certificate (potentials "
                  "u_i = |q_i|^2 / 2; reduced costs |q_i - q_j|^2 / 2 are zero on the diagonal "
                  "and > 0 off it), re-verified from scratch in exact integers",
                  source=SRC.cite("l.716-718 (application of Lemma 8)"), scope="sizes",
                  sizes="the compositions of the evidence") as s:
        rows = []
        for d, lam in DUAL[ctx.full]:
            Q = compositions(lam, d)
            cert = dual_certificate(Q)
            ver = verify_dual_certificate(Q, cert)
            entry = {"d": d, "lam": lam, "N": multiset(d, lam),
                     "identity_exponent": cert["identity_exponent"],
                     "second_best_exponent": cert["second_best_exponent"],
                     "min_gap": ver["min_gap"], "valid": ver["valid"],
                     "identity_unique": ver["identity_unique"]}
            rows.append(entry)
            s.require(ver["valid"] and ver["identity_unique"],
                      "duality certificate does not prove uniqueness", counterexample=entry)
        s.record(cases=rows, largest_N=max(r["N"] for r in rows))


@paper_check(LEVINE2020, "L-Lemma8", "vector rearrangement inequality: the identity is the "
                                     "unique maximizer of sum_i <v_i, v_sigma(i)>",
             where="B.3 l.825-852", kind="lemma",
             statement="Lemma 8: for N distinct vectors with non-negative entries the identity"
                       " is the unique maximizer of sum_i <v_i, v_sigma(i)>")
def l_lemma8(ctx):
    rng = random.Random(SEED)

    exhaustive = _step_compositions_exhaustive(ctx)
    _step_random_sets(ctx, rng)
    _step_gap_identity(ctx, exhaustive)
    _step_negative_entries(ctx, rng)
    _step_distinctness_needed(ctx)
    _step_eq55_printed(ctx)
    _step_eq55_corrected(ctx)
    _step_assignment_networkx(ctx, rng)
    _step_dual_certificate(ctx)

    # -- outcome (seprank.proof.claims) --
    erratum_if_failed(ctx, "Proof, eq. (55) as printed", "l.836-838 (eq. (55), equality condition)",
                      "equality only for sigma with 'sigma(i) = j iff a_i = a_j'",
                      "equality iff a_sigma(i) = a_i for every i", "proof-error",
                      verified_by="Corrected eq. (55)", survives=True, anchor="(55)",
                      repair="2 (e(id) - e(sigma)) = sum_i |v_i - v_sigma(i)|^2 (step 3), "
                             "positive for every sigma != id when the vectors are distinct")
    ctx.conclude("holds", "proof",
                 "the identity 2 (e(id) - e(sigma)) = sum_i |v_i - v_sigma(i)|^2 (step 3, exact) "
                 "is positive for sigma != id and distinct vectors; non-negativity is not even "
                 "needed (step 4)", basis="identity")
