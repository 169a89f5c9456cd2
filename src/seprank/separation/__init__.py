"""Separation ranks of the outputs of levine2020 eq. (3) networks: one front door.

:func:`separation_rank` (also ``seprank.separation_rank`` and ``seprank
sep-rank``) is ``execute(plan_separation(...))``: :func:`plan_separation` checks
the arguments, builds the network once and chooses a route from the registry
(:mod:`seprank.separation.routes`; the protocol: :mod:`seprank.separation.route`)
without computing; the result is a typed :class:`SeparationRankResult`. Routes:
``coefficient`` (:mod:`seprank.separation.coefficient`, the mathematics in
:mod:`seprank.separation.polynomial`), ``grid`` (:mod:`seprank.separation.gridroute`)
and ``template-grid`` (:mod:`seprank.separation.template_grid`). The API speaks the
papers' symbols and the spelled-out names (:mod:`seprank.separation.vocabulary`).
wies2021's vocabulary and convolution embeddings: :func:`embedded_separation_rank`.
"""

from seprank.separation.bounds import network_bounds
from seprank.separation.embedded import embedded_separation_rank
from seprank.separation.frontdoor import execute, separation_rank
from seprank.separation.planner import SeparationPlan, plan_separation
from seprank.separation.request import SeparationRequest, build_network
from seprank.separation.result import SeparationRankResult
from seprank.separation.route import SeparationRoute
from seprank.separation.routes import register_route, route_names, unregister_route
from seprank.separation.weights import load_weights, weights_from_json, weights_to_json

__all__ = ["separation_rank", "plan_separation", "execute", "SeparationPlan",
           "SeparationRankResult", "SeparationRequest", "SeparationRoute", "build_network",
           "register_route", "unregister_route", "route_names", "embedded_separation_rank",
           "network_bounds", "load_weights", "weights_from_json", "weights_to_json"]
