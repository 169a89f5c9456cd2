"""The checks of rank_collapse, one module per statement of the notes.

Notes: rank_collapse_notes.txt (pure attention loses rank), wing
:mod:`seprank.papers.rank_collapse`. The rows are the softmax shift (l.27-31), the path
decomposition and Theorem 2.1 (l.33-64), the composite norm and res of Definition 2.1
(l.66-76), the residual bound of Theorem 2.2 (l.76-82) and the notes' goal, res -> 0 with
depth (l.76). Why: the goal is argued through these statements, so each is checked
before the goal is decided (MISSION_MAP.md lists the rows).
"""
