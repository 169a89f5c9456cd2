"""Separation ranks of the outputs of levine2020 eq. (3) networks: one front door.

:func:`separation_rank` (also ``seprank.separation_rank`` and ``seprank
sep-rank``) is ``execute(plan_separation(...))``: :func:`plan_separation` checks
the arguments, builds the network once and chooses a route from the registry
(:mod:`seprank.separation.routes`; the protocol: :mod:`seprank.separation.route`)
without computing; the result is a typed :class:`SeparationRankResult`. The API speaks
the papers' symbols and the spelled-out names (:mod:`seprank.separation.vocabulary`).

The package is a tree: the front door at the top (request, planner, frontdoor, result,
sizes, route, routes, vocabulary, bounds, structured weights, and the two pieces of
mathematics several routes share: :mod:`~seprank.separation.monomials`,
:mod:`~seprank.separation.polynomial`), then one subpackage per route, none importing
another:

* :mod:`seprank.separation.coefficient`: ``coefficient``, the exact expansion;
* :mod:`seprank.separation.grid`: ``grid`` and ``template-grid``, evaluations mod p;
* :mod:`seprank.separation.moment`: ``moment``, N -> infinity (its propositions in the
  package docstring; blocks, plan, ranks, apolar ideal, tasks, tokens);
* :mod:`seprank.separation.embedding`: ``embedding``, wies2021's vocabulary and
  convolution embeddings at a finite N (``separation_rank(..., embedding=E)``; the
  older name :func:`embedded_separation_rank`).

Adding a route is one subpackage and one line in
:data:`seprank.separation.routes.BUILTIN_ROUTES` (``docs/extending.md``).
"""

from seprank.models.weights import load_weights, weights_from_json, weights_to_json
from seprank.separation.bounds import network_bounds
from seprank.separation.embedding.route import embedded_separation_rank
from seprank.separation.frontdoor import execute, separation_rank
from seprank.separation.planner import SeparationPlan, plan_separation
from seprank.separation.request import SeparationRequest, build_network
from seprank.separation.result import SeparationRankResult
from seprank.separation.route import SeparationRoute
from seprank.separation.routes import register_route, route_names, unregister_route

__all__ = ["separation_rank", "plan_separation", "execute", "SeparationPlan",
           "SeparationRankResult", "SeparationRequest", "SeparationRoute", "build_network",
           "register_route", "unregister_route", "route_names", "embedded_separation_rank",
           "network_bounds", "load_weights", "weights_from_json", "weights_to_json"]
