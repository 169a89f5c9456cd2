"""The checks of wies2021, one module per statement (or pair) of the paper.

Paper: wies2021_vocabulary_bottleneck.txt (Wies et al., ICML 2021), wing
:mod:`seprank.papers.wies2021`. The rows are its two main results, Theorems 1-2
(l.127-140), the upper bounds behind Theorem 1 (Theorems 3-4, A.2-A.3 l.375-520), the
lemmas and corollaries behind Theorem 2 (B.1-B.3 l.534-732) and the embedding layers
both rest on (sec. 2.1 l.56-84). Why: every statement the paper's theorems use gets its
own row, so a failure shows where the argument breaks, not only that it does
(MISSION_MAP.md lists the rows).
"""
