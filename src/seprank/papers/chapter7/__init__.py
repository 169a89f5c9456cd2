"""The chapter7 wing: Levine et al., tensors for deep learning theory (book chapter).

Text: ``tensors_for_dl_theory_chapter7.txt``. Its checks (``proofs/chapter7/``)
compare the chapter's claims with levine2020 and wies2021; the wing itself holds
only the paper. Why a wing: the notes cite the papers' results by their own
numbers (Claims 7.1-7.2, Thms 7.1-7.3, l.140-375), and their checks group and report
under this paper.
"""

from seprank.paper_hooks.paper_record import Paper

from .sections import OUTLINE

__all__ = ["PAPER", "HOOKS"]

PAPER = Paper(
    "tensors_for_dl_theory_chapter7.txt",
    "Tensors for deep learning theory: Analyzing deep learning architectures via "
    "tensorization",
    key="chapter7",
    authors=("Yoav Levine", "Noam Wies", "Or Sharir", "Nadav Cohen", "Amnon Shashua"),
    venue='Chapter 7 of "Tensors for Data Processing: Theory, Methods, and Applications", '
          "Elsevier (Academic Press), pp. 215-248",
    year=2022,
    note="Copyright 2022 (some catalogues say 2021); no arXiv version",
    outline=OUTLINE,
)

HOOKS: dict[str, str] = {}
