"""The checks of levine2020 (mission-map rows of the paper seprank.papers.levine2020).

Source: levine2020_depth_to_width_self_attention.txt (Levine et al., the
depth-to-width interplay in self-attention). One module per mission-map row
(``l_*.py``: L-net, L-Prop1, L-Claim1-2, L-Lemma1-8, L-Omega, L-Thm1-6,
L-Cor1-2); each check is the list of its steps, one ``_step_*`` function per
step (or group of steps), followed by its errata and its conclusion. Shared by
several checks, and registering nothing themselves: :mod:`.levine_proof_displays`
(the displays of Theorems 3-4's proofs), :mod:`.levine_residual_displays` (A.4
and B.2), :mod:`.levine_counterexample` (the one-hot family that decides the
false upper bounds) and :mod:`.lemma6_evaluation` (Lemma 6's network on its
sub-matrix). The frame of a check (claim and check declared together, the
erratum of a failed printed step, ranks beside a bound, the "open on instances"
conclusion) is :mod:`seprank.proof.scaffold`.
"""
