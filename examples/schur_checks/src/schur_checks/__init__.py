"""Example seprank check package: Hadamard (entrywise) products of matrices.

Checks (module :mod:`schur_checks.hadamard`):

* ``Schur-PSD``: the Schur product theorem, A, B positive semidefinite =>
  A o B positive semidefinite, by the Gram argument, each step exact;
* ``Schur-rank``: rank(A o B) <= rank(A) rank(B), by the same argument for
  rank factorizations, with a certified instance where the bound is attained;
* ``Schur-sum``: the false variant rank(A o B) <= rank(A) + rank(B), refuted
  by a counterexample search.
"""

from seprank.proof import Paper

SCHUR1911 = Paper("schur1911", "I. Schur, Bemerkungen zur Theorie der beschraenkten "
                  "Bilinearformen mit unendlich vielen Veraenderlichen, J. reine angew. Math. "
                  "140 (1911)", key="schur1911")
