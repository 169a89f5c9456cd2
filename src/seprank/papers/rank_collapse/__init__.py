"""The rank_collapse wing: lecture notes on the rate at which pure attention loses rank.

Text: ``rank_collapse_notes.txt``. Modules: :mod:`.pure_attention` (softmax,
pure-attention networks exactly and in interval arithmetic, the norms of the
notes) and :mod:`.collapse_family` (a two-token family that decides the
collapse goal). Why a wing: these objects are the notes' (softmax networks
without MLPs, the composite norm); only the checks of proofs/rank_collapse use them.
"""

from seprank.paper_hooks.paper_record import Paper

from .sections import OUTLINE

__all__ = ["PAPER", "HOOKS"]

PAPER = Paper(
    "rank_collapse_notes.txt",
    "Attention, section 2: Bound of the 'losing rank' rate (lecture notes)",
    key="rank_collapse",
    authors=("Xie Zejian",),
    venue="Department of Finance, SUSTech, May 20",
    year=2021,
    note='Notes on Yihe Dong, Jean-Baptiste Cordonnier, Andreas Loukas, "Attention is not '
         'all you need: pure attention loses rank doubly exponentially with depth", '
         "ICML 2021, arXiv:2103.03404",
    outline=OUTLINE,
)

HOOKS: dict[str, str] = {}
