"""The coefficient route: the output expanded exactly, its coefficient matricization ranked.

:mod:`seprank.separation.coefficient.route` holds the route object (``ROUTE``,
registered as ``coefficient`` in :mod:`seprank.separation.routes`); the mathematics
(the separation rank is the rank of the coefficient matrix, block diagonal by degree)
is in :mod:`seprank.separation.polynomial`, shared with the embedding route.
"""
