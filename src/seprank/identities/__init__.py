"""Displayed equalities of the papers' proofs, as functions that can be compared exactly.

Each module holds, for one paper, the left and right sides of the displays in
the proofs of its main results, written as functions of exact inputs (network
weights, input vectors, Fractions), so that a proof check can evaluate both
sides at random rational points, or expand them as polynomials, and compare
them exactly. :mod:`seprank.identities.levine2020` covers levine2020's
Theorems 2-6 (A.2-A.4, B.2).
"""
