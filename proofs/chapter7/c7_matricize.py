"""C7-matricize: the lecture notes' matricization formula and its order-3 example (fig. 7.3).

Source: tensors_for_dl_theory_chapter7.txt l.80-138. The notes write a
partition as A = {a_1 < ... < a_{N_1}}, B = {b_1 < ... < b_{N_2}} and place
the entry A_{j_1...j_N} of an order-N tensor at (1-based)

    row = 1 + sum_{t=1}^{N_2} (j_{a_t} - 1) M^{N_2 - t},      (as printed, l.117)
    col = 1 + sum_{t=1}^{N_2} (j_{b_t} - 1) M^{N_2 - t},      (l.119)

then show a 6 x 2 matrix of an order-3 tensor (fig. 7.3, l.123-128) and work
the entry A_123 out to row 3, column 2 (l.130-134). levine2020 B.1.1 (l.613)
gives the balanced, uniform-M case with I = {i_1, ..., i_{N/2}}.

Why: the grid-tensor lower bounds of levine2020 and wies2021 (Claim 1) are ranks of such
matricizations, and seprank.tensors.matricize follows this convention, so the formula is
checked against it.

Steps: the figure reproduced by seprank's convention; the worked example's
numbers; the printed row formula (upper limit N_2) against the figure and
against the worked example's own arithmetic; the single radix M = 2 against
the figure's third mode, which takes 3 values; the printed setting (a
"balanced" partition of an order-3 tensor, a matrix typed as an order-N
tensor); the corrected formula (N_1 for rows, one radix per mode); and the
cross-reference to levine2020 B.1.1, with which it agrees in the balanced case.
"""

from __future__ import annotations

from itertools import product
from math import prod

import numpy as np
from seprank_proofs import CHAPTER7, LEVINE2020

from seprank.proof import Claim, check
from seprank.tensors import balanced_partitions, matricize

NOTES = CHAPTER7
PAPER = LEVINE2020

#: fig. 7.3 as printed (l.123-128): rows of the 6 x 2 matrix, entries by their 1-based index
FIG_7_3 = [["111", "121"], ["112", "122"], ["113", "123"],
           ["211", "221"], ["212", "222"], ["213", "223"]]
#: what the figure implies (1-based): the tensor's mode dimensions and the partition
FIG_SHAPE = (2, 2, 3)
FIG_A, FIG_B = (1, 3), (2,)


def _fig_tensor() -> np.ndarray:
    """The order-3 tensor whose entry at (j_1, j_2, j_3) is its own label 'j1j2j3'."""
    A = np.empty(FIG_SHAPE, dtype=object)
    for idx in np.ndindex(*FIG_SHAPE):
        A[idx] = "".join(str(d + 1) for d in idx)
    return A


def _printed(j, A, B, M):
    """The notes' formula exactly as printed: both sums run to N_2 = |B| with radix M."""
    n2 = len(B)
    row = 1 + sum((j[A[t] - 1] - 1) * M ** (n2 - 1 - t) for t in range(n2))
    col = 1 + sum((j[B[t] - 1] - 1) * M ** (n2 - 1 - t) for t in range(n2))
    return row, col


def _uniform(j, A, B, M):
    """Row sum to N_1 = |A| (as the worked example computes it), one radix M for every mode."""
    n1, n2 = len(A), len(B)
    row = 1 + sum((j[A[t] - 1] - 1) * M ** (n1 - 1 - t) for t in range(n1))
    col = 1 + sum((j[B[t] - 1] - 1) * M ** (n2 - 1 - t) for t in range(n2))
    return row, col


def _corrected(j, A, B, dims):
    """Rows over A (N_1 digits), columns over B, each mode with its own radix M_n."""
    def number(side):
        out = 0
        for n in side:
            out = out * dims[n - 1] + (j[n - 1] - 1)
        return 1 + out
    return number(A), number(B)


def _placement(formula, entries, *args):
    """Where each label lands: {label: (row, col)} (1-based) and the cells hit twice."""
    where, cells = {}, {}
    for label in entries:
        j = tuple(int(c) for c in label)
        rc = formula(j, *args)
        where[label] = rc
        cells.setdefault(rc, []).append(label)
    return where, {f"{rc}": labels for rc, labels in cells.items() if len(labels) > 1}


def _figure_positions() -> dict[str, tuple[int, int]]:
    return {label: (r + 1, c + 1) for r, row in enumerate(FIG_7_3) for c, label in enumerate(row)}


CLAIM_C7_MATRICIZE = Claim("definition",
                           "the matricization of a tensor w.r.t. a balanced partition (A, B) "
                           "puts entry A_{j_1..j_N} at row 1 + sum_{t=1}^{N_2} (j_{a_t} - 1) "
                           "M^(N_2 - t) (columns alike); fig. 7.3 is its order-3 example",
                           NOTES.cite("l.80-138"),
                           universal=False)

@check(id="C7-matricize", title="the matricization formula and fig. 7.3 of the lecture notes",
       source=NOTES.cite("l.80-138", PAPER.cite("B.1.1 l.609-613")),
       claim=CLAIM_C7_MATRICIZE, paper=CHAPTER7)
def c7_matricize(ctx):
    fig = _figure_positions()
    labels = sorted(fig)

    _figure_is_seprank_matricization(ctx)
    _worked_example_agrees(ctx, fig)
    _printed_row_formula_places_the_figure(ctx, fig, labels)
    _single_radix_places_the_figure(ctx, fig, labels)
    _stated_setting_fits_the_example(ctx)
    _corrected_formula_is_matricize(ctx, fig, labels)
    _levine_b11_agrees_in_the_balanced_case(ctx)

    # -- outcome (seprank.proof.claims) --
    fix = "Corrected formula: row = 1 + sum_{t=1}^{N_1}"
    one = "As printed, the row formula"
    if ctx.failed(one):
        ctx.erratum("l.117 (row formula)", "row = 1 + sum_{t=1}^{N_2} (j_{a_t} - 1) M^(N_2 - t)",
                    "row = 1 + sum_{t=1}^{N_1} (j_{a_t} - 1) prod_{s>t} M_{a_s} (the rows are "
                    "indexed by A, |A| = N_1)", "notation", in_statement=True, step=one,
                    verified_by=fix, anchor="\\text{row} = 1 + \\sum", slip="range")
    two = "With the row sum corrected to N_1"
    if ctx.failed(two):
        ctx.erratum("l.84, l.117 (radix)", "one radix M for every mode",
                    "mixed radix prod_{s>t} M_{a_s} (fig. 7.3's third mode has 3 values)",
                    "notation", in_statement=True, step=two, verified_by=fix,
                    anchor="M^{N_2-t}", slip="symbol")
    three = "The stated setting fits the example"
    if ctx.failed(three):
        ctx.erratum("l.102 (setting and type)",
                    "w.r.t. the balanced partition (A, B), [[A]]_{A,B} in R^{M_1 x ... x M_N}",
                    "w.r.t. any partition (A, B), [[A]]_{A,B} in R^{(prod_{a in A} M_a) x "
                    "(prod_{b in B} M_b)}", "notation", in_statement=True, step=three,
                    verified_by=fix, anchor="balanced partition", slip="symbol")
    ctx.conclude("holds-corrected", "proof",
                 "the corrected mixed-radix formula places every entry of fig. 7.3 where the "
                 "figure shows it (exhaustive over the example's 12 entries) and agrees with "
                 "levine2020 B.1.1; as a definition it is a bijection by the mixed-radix "
                 "argument", basis="exhaustive")


def _figure_is_seprank_matricization(ctx):
    with ctx.step("Fig. 7.3 is the matricization of an order-3 tensor with mode dimensions "
                  "(2, 2, 3) w.r.t. A = {1, 3} (rows), B = {2} (columns), the first position "
                  "of A most significant: seprank.tensors.matricize reproduces it entry by entry",
                  source=NOTES.cite("l.123-136 (fig. 7.3)"), kind="exhaustive") as s:
        Mat = matricize(_fig_tensor(), [a - 1 for a in FIG_A], [b - 1 for b in FIG_B])
        s.record(figure_as_printed=FIG_7_3, seprank_matricization=Mat.tolist(),
                 inferred={"mode_dimensions": FIG_SHAPE, "A": FIG_A, "B": FIG_B})
        s.require(Mat.tolist() == FIG_7_3, "seprank's matricization differs from fig. 7.3",
                  counterexample={"got": Mat.tolist(), "figure": FIG_7_3})


def _worked_example_agrees(ctx, fig):
    with ctx.step("The worked example: j = (1, 2, 3) goes to row 3, column 2, and the figure "
                  "shows A_123 there", source=NOTES.cite("l.130-134"), kind="exhaustive") as s:
        printed_answer = (3, 2)
        s.record(printed_answer=printed_answer, figure_position=fig["123"],
                 corrected_formula=_corrected((1, 2, 3), FIG_A, FIG_B, FIG_SHAPE))
        s.require(fig["123"] == printed_answer == _corrected((1, 2, 3), FIG_A, FIG_B, FIG_SHAPE),
                  "worked example, figure and convention disagree")


def _printed_row_formula_places_the_figure(ctx, fig, labels):
    with ctx.step("As printed, the row formula sums t = 1..N_2 with M^(N_2 - t), N_2 = |B|; "
                  "it should place every entry where fig. 7.3 shows it",
                  source=NOTES.cite("l.117 (row formula)"), scope="instance",
                  sizes="fig. 7.3") as s:
        where, clashes = _placement(_printed, labels, FIG_A, FIG_B, 2)
        wrong = {lab: {"printed_formula": where[lab], "figure": fig[lab]} for lab in labels
                 if where[lab] != fig[lab]}
        s.record(N_1=len(FIG_A), N_2=len(FIG_B), M=2, misplaced=len(wrong), of=len(labels))
        s.require(not wrong,
                  "the printed row formula runs to N_2 = |B| = 1 where the rows are indexed by "
                  "A (N_1 = 2 positions): A_123 lands in row 1, not row 3 as in fig. 7.3 and in "
                  "the notes' own worked example, which sums t = 1..2 with 2^(2-t) (l.131)",
                  counterexample={"entry": "A_123", "j": (1, 2, 3),
                                  "printed_formula_row_col": where["123"],
                                  "figure_row_col": fig["123"], "misplaced_entries": wrong,
                                  "cells_hit_twice": clashes})


def _single_radix_places_the_figure(ctx, fig, labels):
    with ctx.step("With the row sum corrected to N_1 as in the worked example, one radix M = 2 "
                  "(the worked example's 2^(2-t); 'M_1 = M_2 = M_3 = 2' at l.84) should still "
                  "place every entry of fig. 7.3 in its own cell",
                  source=NOTES.cite("l.84, l.117, l.131"), scope="instance",
                  sizes="fig. 7.3") as s:
        where, clashes = _placement(_uniform, labels, FIG_A, FIG_B, 2)
        wrong = {lab: {"radix_2_formula": where[lab], "figure": fig[lab]} for lab in labels
                 if where[lab] != fig[lab]}
        s.record(radix=2, third_mode_values=sorted({lab[2] for lab in labels}))
        s.require(not wrong and not clashes,
                  "the third mode of fig. 7.3 takes 3 values (j_3 = 1, 2, 3), so radix 2 is "
                  "not a positional system for it: A_113 and A_211 both land in row 3, "
                  "A_213 in row 5; the worked example gets row 3 for A_123 only because "
                  "j_1 = 1 (with j_1 = 2, A_223 would land in row 5, the figure has row 6)",
                  counterexample={"misplaced_entries": wrong, "cells_hit_twice": clashes})


def _stated_setting_fits_the_example(ctx):
    with ctx.step("The stated setting fits the example: the matricization is defined 'w.r.t. "
                  "the balanced partition (A, B)' with [[A]]_{A,B} in R^{M_1 x ... x M_N}",
                  source=NOTES.cite("l.102"), scope="instance",
                  sizes="fig. 7.3") as s:
        n = len(FIG_SHAPE)
        rows, cols = prod(FIG_SHAPE[a - 1] for a in FIG_A), prod(FIG_SHAPE[b - 1] for b in FIG_B)
        s.record(order=n, A=FIG_A, B=FIG_B, balanced=len(FIG_A) == len(FIG_B),
                 stated_type="R^{M_1 x M_2 x ... x M_N} (an order-N tensor type)",
                 actual_shape=(rows, cols))
        s.require(len(FIG_A) == len(FIG_B),
                  "the example is an order-3 tensor, which has no balanced partition "
                  "(|A| = 2, |B| = 1), and the stated type R^{M_1 x ... x M_N} is the tensor's, "
                  "not the matrix's: the matricization is (M_1 M_3) x M_2 = 6 x 2; the "
                  "definition works for any partition with type "
                  "R^{(prod_{a in A} M_a) x (prod_{b in B} M_b)}",
                  counterexample={"A": FIG_A, "B": FIG_B, "matrix_shape": (rows, cols)})


def _corrected_formula_is_matricize(ctx, fig, labels):
    with ctx.step("Corrected formula: row = 1 + sum_{t=1}^{N_1} (j_{a_t} - 1) prod_{s>t} M_{a_s}, "
                  "col = 1 + sum_{t=1}^{N_2} (j_{b_t} - 1) prod_{s>t} M_{b_s}; it places all 12 "
                  "entries of fig. 7.3 as printed, is a bijection onto [6] x [2], and equals "
                  "seprank.tensors.matricize on random tensors of orders 1-5 for every partition",
                  source=NOTES.cite("l.108-136"), corrected=True, scope="sizes",
                  sizes="fig. 7.3 (all 12 entries); random tensors of order <= 5, dims <= 3, "
                  "every partition") as s:
        where, clashes = _placement(_corrected, labels, FIG_A, FIG_B, FIG_SHAPE)
        s.require(where == fig and not clashes, "corrected formula misplaces fig. 7.3",
                  counterexample={"where": where, "figure": fig})
        rng = np.random.default_rng(7)
        tested = 0
        for order in range(1, 6):
            dims = tuple(int(d) for d in rng.integers(1, 4, size=order))
            T = rng.integers(-9, 10, size=dims)
            for mask in product((0, 1), repeat=order):
                A = tuple(n + 1 for n in range(order) if mask[n])
                B = tuple(n + 1 for n in range(order) if not mask[n])
                Mat = matricize(T, [a - 1 for a in A], [b - 1 for b in B])
                for idx in np.ndindex(*dims):
                    r, c = _corrected(tuple(d + 1 for d in idx), A, B, dims)
                    if Mat[r - 1, c - 1] != T[idx]:
                        s.fail("corrected formula and matricize disagree",
                               counterexample={"dims": dims, "A": A, "B": B, "index": idx})
                        break
                tested += 1
        s.record(placement=where, partitions_tested=tested)


def _levine_b11_agrees_in_the_balanced_case(ctx):
    with ctx.step("Cross-reference: levine2020 B.1.1 places A_{d_1...d_N} at row 1 + sum_{t=1}^"
                  "{N/2} (d_{i_t} - 1) M^{N/2 - t} (columns alike over J), balanced partitions "
                  "and one M only; reading i_1 < ... < i_{N/2} (the paper does not say), it "
                  "equals the notes' formula, whose N_1/N_2 slip vanishes when N_1 = N_2 = N/2, "
                  "and seprank's matricize, for every balanced partition of orders 2, 4, 6",
                  source=PAPER.cite("B.1.1 l.613", NOTES.cite("l.108-119")), scope="sizes",
                  sizes="orders 2, 4, 6 with M = 3, 3, 2, every balanced partition") as s:
        rng = np.random.default_rng(11)
        tested = []
        for order, M in ((2, 3), (4, 3), (6, 2)):
            T = rng.integers(-9, 10, size=(M,) * order)
            for I0, J0 in balanced_partitions(order, ordered=True):
                I1, J1 = tuple(i + 1 for i in I0), tuple(j + 1 for j in J0)
                Mat = matricize(T, I0, J0)
                for idx in np.ndindex(*T.shape):
                    d = tuple(x + 1 for x in idx)
                    paper = (1 + sum((d[i - 1] - 1) * M ** (order // 2 - 1 - t)
                                     for t, i in enumerate(I1)),
                             1 + sum((d[j - 1] - 1) * M ** (order // 2 - 1 - t)
                                     for t, j in enumerate(J1)))
                    notes = _printed(d, I1, J1, M)
                    if not (paper == notes and Mat[paper[0] - 1, paper[1] - 1] == T[idx]):
                        s.fail("B.1.1, the notes' formula and matricize disagree (balanced case)",
                               counterexample={"order": order, "M": M, "I": I1, "J": J1,
                                               "index": d, "paper": paper, "notes": notes})
                        break
            tested.append({"order": order, "M": M,
                           "ordered_balanced_partitions":
                               len(balanced_partitions(order, ordered=True))})
        s.record(cases=tested,
                 ambiguity="B.1.1 does not state the order of i_1, ..., i_{N/2}; the notes fix "
                           "a_1 < ... < a_{N_1}, and seprank follows them")
