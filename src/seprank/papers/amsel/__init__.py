"""The amsel wing: the talk "Benefits of Rank in Attention Layers" (Amsel et al.).

Text: ``amsel_benefits_of_rank_talk.txt``. Modules: :mod:`.nearest_neighbor`
(exact points, hardmax heads, the nearest-neighbour target), :mod:`.nn_reduction`
(Theorem 2's reduction) and :mod:`.harmonics` (spherical-harmonic dimensions by
exact rank). Why a wing: the talk's objects (the nearest-neighbour target, hardmax
heads, spherical harmonics) are used only by its checks (proofs/amsel), not by the core.
"""

from seprank.paper_hooks.paper_record import Paper

from .sections import OUTLINE

__all__ = ["PAPER", "HOOKS"]

PAPER = Paper(
    "amsel_benefits_of_rank_talk.txt",
    "Benefits of Rank in Attention Layers",
    key="amsel",
    authors=("Noah Amsel",),
    venue="Talk, with Gilad Yehudai and Joan Bruna",
    note='The paper: Noah Amsel, Gilad Yehudai, Joan Bruna, "On the Benefits of Rank in '
         'Attention Layers", arXiv:2407.16153, 2024',
    url="https://arxiv.org/abs/2407.16153",
    outline=OUTLINE,
)

HOOKS: dict[str, str] = {}
