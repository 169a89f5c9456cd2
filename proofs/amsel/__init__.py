"""The checks of amsel, one module per statement of the talk.

Talk: amsel_benefits_of_rank_talk.txt ("Benefits of Rank in Attention Layers"), wing
:mod:`seprank.papers.amsel`. The rows are the parameter count of multi-head attention
(l.216-256), the nearest-neighbour target and its exact full-rank head (l.491-515), the
lower bound for low-rank heads, Theorem 2 (l.722-736) with the pieces of its sketch
(spherical harmonics l.648-674, the head lemma l.691-700), and the two-layer rank-1
construction (l.781-831). Why: the talk's claim, that low-rank heads need many more heads
than one full-rank head, is decided piece by piece (MISSION_MAP.md lists the rows).
"""
