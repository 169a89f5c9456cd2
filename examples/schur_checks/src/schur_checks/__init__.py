"""Example seprank check package: Hadamard (entrywise) products of matrices.

Checks (module :mod:`schur_checks.hadamard`):

* ``Schur-PSD``: the Schur product theorem, A, B positive semidefinite =>
  A o B positive semidefinite, by the Gram argument, each step exact;
* ``Schur-rank``: rank(A o B) <= rank(A) rank(B), by the same argument for
  rank factorizations, with a certified instance where the bound is attained;
* ``Schur-sum``: the false variant rank(A o B) <= rank(A) + rank(B), refuted
  by a counterexample search.

The package is also a paper wing: ``PAPER`` (the cited paper, key ``schur1911``) is
registered under the entry-point group ``seprank.papers``, so ``seprank papers`` lists
it and ``seprank errata schur1911`` writes its erratum sheet.
"""

from seprank.proof import Paper

SCHUR1911 = Paper("schur1911", "Bemerkungen zur Theorie der beschraenkten Bilinearformen mit "
                  "unendlich vielen Veraenderlichen", key="schur1911", authors=("I. Schur",),
                  venue="J. reine angew. Math. 140", year=1911)
#: the wing's paper (what the ``seprank.papers`` entry point reads)
PAPER = SCHUR1911
