"""The kinds of answer a rank computation can give.

* ``exact``: the rank itself, proven (exact arithmetic over the field named in
  the result, or a certified lower bound that meets a certified upper bound);
* ``lower_bound``: certified rank >= value (a nonzero value x value minor
  modulo a prime; a minor nonzero mod p is nonzero over Q);
* ``upper_bound``: certified rank <= value (exact kernel vectors);
* ``probabilistic``: equal to the rank with high probability, not proven;
* ``float_estimate``: what floating point said; no guarantee at all.
"""

EXACT = "exact"
LOWER_BOUND = "lower_bound"
UPPER_BOUND = "upper_bound"
PROBABILISTIC = "probabilistic"
FLOAT_ESTIMATE = "float_estimate"

KINDS = (EXACT, LOWER_BOUND, UPPER_BOUND, PROBABILISTIC, FLOAT_ESTIMATE)

__all__ = ["EXACT", "LOWER_BOUND", "UPPER_BOUND", "PROBABILISTIC", "FLOAT_ESTIMATE", "KINDS"]
