"""Both sides of the displayed equalities in levine2020's upper- and lower-bound proofs.

Source: ``levine2020_depth_to_width_self_attention.txt`` (line numbers of that
file; read the LaTeX half of each formula). Every function evaluates one side
of one display exactly (Python ints and Fractions, numpy object arrays), so
that the checks (``proofs/levine2020/levine_proof_displays.py`` for Theorems 3-4,
``proofs/levine2020/levine_residual_displays.py`` for A.4 and B.2) can compare the
two sides at random rational points, or compare counts, or expand with sympy.

The displays live in one module per part of the proofs; this module gathers
them under one name (``from seprank.papers.levine2020 import identities as idl``):

* :mod:`.chains`: Lemma 1 (A.1, eq. (13)-(15)) and the conventions;
* :mod:`.thm3_displays`: Theorem 3 (A.2, l.380-423);
* :mod:`.thm4_displays`: Theorem 4 (A.3, l.424-477) and its repaired count;
* :mod:`.residual_displays`: Lemma 2 and Theorems 5-6 (A.4);
* :mod:`.b2_displays`: B.2's lower-bound construction (l.684-718).
"""

from seprank.papers.levine2020.chains import (
    Chain,
    chain_output,
    gram,
    lemma1_chains,
    side_sequence_value,
)
from seprank.papers.levine2020.displays.b2 import (
    hadamard_power_terms,
    multinomial_expansion_is_identity,
    omega_det_and_leibniz,
    omega_power_squares,
)
from seprank.papers.levine2020.displays.residual import (
    lemma2_eq21,
    lemma2_regrouped,
    top_degree_part,
    unraveled_output,
)
from seprank.papers.levine2020.displays.thm3 import (
    swap_blocks,
    swap_tuple_count,
    swap_tuples,
    thm3_separated_terms,
    thm3_sequence_sum,
    thm3_swap_sum,
)
from seprank.papers.levine2020.displays.thm4 import (
    gram_form,
    gram_monomial_count,
    gram_split_count,
    sym_monomial_count,
    thm4_chi,
    thm4_chi_split,
    thm4_coefficients,
    thm4_expansion,
    thm4_grouped,
    thm4_monomial_sums,
    thm4_repaired_count,
    thm4_shape,
)

__all__ = [
    "Chain",
    "gram",
    "lemma1_chains",
    "chain_output",
    "side_sequence_value",
    "thm3_sequence_sum",
    "swap_tuples",
    "swap_tuple_count",
    "swap_blocks",
    "thm3_swap_sum",
    "thm3_separated_terms",
    "thm4_coefficients",
    "thm4_monomial_sums",
    "thm4_expansion",
    "thm4_chi",
    "thm4_grouped",
    "thm4_chi_split",
    "gram_form",
    "sym_monomial_count",
    "thm4_repaired_count",
    "gram_monomial_count",
    "gram_split_count",
    "thm4_shape",
    "lemma2_eq21",
    "lemma2_regrouped",
    "unraveled_output",
    "top_degree_part",
    "hadamard_power_terms",
    "multinomial_expansion_is_identity",
    "omega_power_squares",
    "omega_det_and_leibniz",
]
