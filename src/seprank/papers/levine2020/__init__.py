"""The levine2020 wing: Levine et al., the depth-to-width interplay in self-attention.

Text: ``levine2020_depth_to_width_self_attention.txt`` (arXiv:2006.12467). Modules:
:mod:`.bounds` (Theorems 1-6 as exact functions), :mod:`.lemma_bounds` (Lemmas 3-4
and B.2's counts), :mod:`.identities` (both sides of the proofs' displays, by
theorem), :mod:`.omega_polynomial` and :mod:`.rearrangement` (B.2-B.3's lower-bound
constructions), :mod:`.counterexample` (the one-hot family against this paper's
bounds), :mod:`.binding` (the smallest binding instances of Theorems 3-6) and
:mod:`.hooks` (the bounds that apply to a network shape, for the core).

Why a wing: the paper's formulas (bounds, both sides of each display, the lower-bound
construction's counts) are written once, exactly, here; the checks that decide the
paper's claims (``proofs/levine2020/``, one module per mission-map row) and the core
(through :mod:`.hooks`) both call them, and nothing in the core imports this package.
"""

from seprank.paper_hooks.paper_record import Paper

from .sections import OUTLINE

__all__ = ["PAPER", "HOOKS"]

PAPER = Paper(
    "levine2020_depth_to_width_self_attention.txt",
    "The Depth-to-Width Interplay in Self-Attention",
    key="levine2020",
    authors=("Yoav Levine", "Noam Wies", "Or Sharir", "Hofit Bata", "Amnon Shashua"),
    venue='Published as "Limits to Depth Efficiencies of Self-Attention", Advances in '
          "Neural Information Processing Systems 33 (NeurIPS 2020)",
    year=2020,
    arxiv="2006.12467",
    url="https://arxiv.org/abs/2006.12467",
    note="The bundled text is the arXiv version",
    outline=OUTLINE,
)

#: hook name -> "module:function" (seprank.paper_hooks loads it on first use)
HOOKS = {"network_bounds": "seprank.papers.levine2020.hooks:network_bounds"}
