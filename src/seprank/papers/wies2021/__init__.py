"""The wies2021 wing: Wies et al., a vocabulary bottleneck in self-attention.

Text: ``wies2021_vocabulary_bottleneck.txt`` (arXiv:2105.03928). Modules:
:mod:`.bounds` (Theorems 3-4, Corollary 1 and Lemmas 3-4 as exact functions),
:mod:`.moment_comparison` (the repaired moment bound against Theorem 3's),
:mod:`.assignments` (B.2's Lemmas 5-7), :mod:`.scalar_chain` (Theorem 2's
one-coordinate network) and :mod:`.hooks` (the embedding bounds, for the core).

Why a wing: these formulas are the paper's, some of them wrong as printed; the checks of
proofs/wies2021 decide them, and the core reaches the bounds it reports (Theorems 3-4,
A.2-A.3 l.375-520) only through :mod:`seprank.paper_hooks`, never by importing this
package.
"""

from seprank.paper_hooks.paper_record import Paper

from .sections import OUTLINE

__all__ = ["PAPER", "HOOKS"]

PAPER = Paper(
    "wies2021_vocabulary_bottleneck.txt",
    "Which Transformer architecture fits my data? A vocabulary bottleneck in self-attention",
    key="wies2021",
    authors=("Noam Wies", "Yoav Levine", "Daniel Jannai", "Amnon Shashua"),
    venue="Proceedings of the 38th International Conference on Machine Learning "
          "(ICML 2021), PMLR 139, pp. 11170-11181",
    year=2021,
    arxiv="2105.03928",
    url="https://arxiv.org/abs/2105.03928",
    outline=OUTLINE,
)

#: hook name -> "module:function" (seprank.paper_hooks loads it on first use)
HOOKS = {"embedding_bounds": "seprank.papers.wies2021.hooks:embedding_bounds"}
