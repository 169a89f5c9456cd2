"""Executable checks, one module per mission-map row (installed as ``seprank_proofs``).

Every module registers its check with :func:`seprank.proof.check`; ``seprank
prove`` and ``pytest proofs/`` run the same registry.
"""

from seprank.proof.paper import Paper

LEVINE2020 = Paper("levine2020_depth_to_width_self_attention.txt",
                   "The Depth-to-Width Interplay in Self-Attention (Levine et al.)",
                   key="levine2020")
WIES2021 = Paper("wies2021_vocabulary_bottleneck.txt",
                 "Which Transformer architecture fits my data? A vocabulary bottleneck in "
                 "self-attention (Wies et al.)", key="wies2021")
CHAPTER7 = Paper("tensors_for_dl_theory_chapter7.txt", "Tensors for deep learning theory, "
                 "chapter 7", key="chapter7")
RANK_COLLAPSE = Paper("rank_collapse_notes.txt", "Notes on rank collapse in attention",
                      key="rank_collapse")
AMSEL = Paper("amsel_benefits_of_rank_talk.txt", "Benefits of Rank in Attention Layers (talk)",
              key="amsel")
#: the papers the checks of this package cite (``Paper.cite("l.720")`` gives a step's source)
PAPERS = (LEVINE2020, WIES2021, CHAPTER7, RANK_COLLAPSE, AMSEL)
