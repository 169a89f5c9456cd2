"""The grid routes: separation ranks from network evaluations mod p.

* :mod:`seprank.separation.grid.route`: the ``grid`` route (degree blocks of the
  coefficient matrix recovered from evaluations on random points, levine2020 Claim 1);
* :mod:`seprank.separation.grid.template`: the ``template-grid`` route (the grid
  tensor on given templates, levine2020 B.1.2, a certified lower bound);
* :mod:`seprank.separation.grid.moment_values`: the grid's values through the moment
  form when that is cheaper (the kernels live in :mod:`seprank.models.moment_mod_p`).
"""
