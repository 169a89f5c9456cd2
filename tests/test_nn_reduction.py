"""Tests of seprank.papers.amsel.nn_reduction and A-Thm2's regimes, worked by hand.

* The best rank-2 approximation of I_3 leaves ||I_3 - A||_F^2 = 1 (the rank gap that
  repairs the 'Combining' display of the talk's Theorem 2 sketch).
* Regime 2 of Theorem 2 is empty at d = 5, r = 1 because 5 < 2e (the base d / (2e r) < 1).
"""

from __future__ import annotations

from fractions import Fraction

from seprank.papers.amsel.nn_reduction import frobenius_gap


def test_a_thm2_hand_worked_rank_gap_and_empty_regime():
    assert frobenius_gap([[1, 0, 0], [0, 1, 0], [0, 0, 0]]) == 1
    assert frobenius_gap([[1, 0], [0, 1]], Fraction(1)) == 0
    from seprank.scalars.enclosures import e_bounds

    lo, _hi = e_bounds(14)
    assert 5 < 2 * lo * 1          # d = 5, r = 1: d / (2 e r) < 1
