"""The checks of chapter7: the lecture notes against the papers they restate.

Notes: tensors_for_dl_theory_chapter7.txt, wing :mod:`seprank.papers.chapter7`. The rows
are the matricization formula and its figure (l.80-138) and the claims, propositions and
theorems that restate levine2020 and wies2021 (l.140-375). Why: the notes are read by
people who may not open the papers, so each restatement is compared with its source and
the differences are recorded as errata (MISSION_MAP.md lists the rows).
"""
