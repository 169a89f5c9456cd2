"""Executable checks, one module per mission-map row (installed as ``seprank_proofs``).

The checks mirror the paper wings: ``proofs/<key>/`` holds the checks of the paper
``seprank.papers.<key>``. Every module registers its check with
:func:`seprank.proof.check` (with ``paper=`` its paper); ``seprank prove`` and
``pytest proofs/`` run the same registry, which walks the subpackages.
"""

from seprank.papers.amsel import PAPER as AMSEL
from seprank.papers.chapter7 import PAPER as CHAPTER7
from seprank.papers.levine2020 import PAPER as LEVINE2020
from seprank.papers.rank_collapse import PAPER as RANK_COLLAPSE
from seprank.papers.wies2021 import PAPER as WIES2021

#: the papers the checks of this package cite (``Paper.cite("l.720")`` gives a step's source)
PAPERS = (LEVINE2020, WIES2021, CHAPTER7, RANK_COLLAPSE, AMSEL)
