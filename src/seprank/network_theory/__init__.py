"""Objects of the analyzed network that several papers share (core, no paper's bounds).

:mod:`.moment_form`: the moment form y = G_L(S) x of a network without residual
connections and the separation-rank bound it gives; :mod:`.one_hot`: the one-hot
family whose outputs are monomials in the moment matrix. Multiset counting is
:mod:`seprank.combinatorics`. A paper's comparison with these objects lives in its
wing (:mod:`seprank.papers`).
"""
