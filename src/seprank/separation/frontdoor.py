"""``seprank.separation_rank``: the separation rank of one output of an eq. (3) network.

``separation_rank(...)`` is ``execute(plan_separation(...))``: the planner
(:mod:`seprank.separation.planner`) checks the arguments, builds the network once
and chooses a route from the registry (:mod:`seprank.separation.routes`:
``coefficient``, ``grid``, ``template-grid``, ``embedding``, ``moment``); :func:`execute`
runs the chosen route, the fallback when ``auto`` planned one and the answer was not
exact, and attaches the paper bounds (:func:`seprank.separation.bounds.network_bounds`,
or the route's own: the embedding route's are wies2021's Theorems 3 and 4).

Conventions: positions and coordinates are 0-based (the paper's y_p^i is
``position = i - 1``, ``coordinate = p - 1``); the partition is (I, J) of
0..N-1 (I given, J its complement, or both); default I = the first half. Behind a
wies2021 embedding (``embedding=``) N is the embedding's, and a convolution embedding's
partition is of its M = k N raw input positions (:mod:`seprank.separation.planner`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from seprank.budget import Budget
from seprank.linalg.kinds import EXACT
from seprank.models.weights import weights_to_json
from seprank.separation.bounds import network_bounds
from seprank.separation.planner import SeparationPlan, plan_separation
from seprank.separation.result import SeparationRankResult
from seprank.separation.route import RouteOutcome
from seprank.separation.routes import get_route

__all__ = ["separation_rank", "execute"]

#: the facts of a first (non-exact) answer kept beside the fallback's answer
_FIRST_FACTS = ("prime", "error_bound", "probabilistic", "evaluations", "matrix_points",
                "points_digest")


def _require_budget(plan: SeparationPlan) -> None:
    """Refuse in one line when the plan's estimate (the route's own, now that its blocks
    are known) exceeds the request's budget (the planner checked the cheap one)."""
    from seprank.separation.sizes import nearest_hint

    req = plan.request
    est = plan.route_plan.estimate.as_estimate(f"the {plan.route} route")
    req.budget.check(est, nearest=lambda: nearest_hint(get_route(plan.route), req, req.budget))


def execute(plan: SeparationPlan, *, start: float | None = None) -> SeparationRankResult:
    """Run a :class:`~seprank.separation.SeparationPlan` and return its result.

    Runs the chosen route; when the plan has a fallback and the answer is not
    exact, runs the fallback and keeps the first answer's facts (``first_route``,
    ``first_value``). Refuses (MemoryLimitError or TimeLimitError, one line) when the
    chosen route's estimate exceeds the request's budget; runs inside it
    (:meth:`seprank.budget.Budget.active`).

    Examples
    --------
    >>> plan = plan_separation(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"})
    >>> execute(plan).value
    2
    """
    start = time.perf_counter() if start is None else start
    req = plan.request
    _require_budget(plan)
    with req.budget.active():  # allocations deeper down ask the same budget
        outcome = get_route(plan.route).run(req, plan.route_plan)
        answered, first, first_route = plan.route, None, None
        if outcome.kind != EXACT and plan.fallback is not None:
            first, first_route = outcome, plan.route
            outcome = get_route(plan.fallback).run(req, plan.fallback_plan)
            answered = plan.fallback
    return _result(plan, answered, outcome, first, first_route, time.perf_counter() - start)


def _result(plan: SeparationPlan, route: str, o: RouteOutcome, first: RouteOutcome | None,
            first_route: str | None, seconds: float) -> SeparationRankResult:
    req, net = plan.request, plan.request.network
    facts = {k: getattr(o, k) for k in _FIRST_FACTS}
    if first is not None:
        facts.update({k: getattr(first, k) for k in _FIRST_FACTS if getattr(o, k) is None})
    route_facts = dict(o.facts)
    degenerate = net.degeneracies(req.coordinate)
    if o.value == 0 and not degenerate:
        degenerate = [f"output y[{req.position}][{req.coordinate}] is identically zero for "
                      "these weights (separation rank 0)"]
    if degenerate:
        route_facts["degenerate"] = degenerate
        route_facts["text"] = list(route_facts.get("text", [])) + [
            f"degenerate network: {line}" for line in degenerate]
    return SeparationRankResult(
        value=o.value, kind=o.kind, upper_bound=o.upper_bound, partition=plan.partition,
        position=req.position, coordinate=req.coordinate, seq_len=req.N,
        residual=net.residual, network=req.shape, route=route,
        bounds=(network_bounds(net.L, net.d_x, net.H, net.d_a, req.N, net.residual, o.value)
                if o.bounds is None else o.bounds),
        weights=weights_to_json(net.weights), blocks=o.blocks, matrix_words=o.matrix_words,
        matrix_shape=o.matrix_shape, possible_terms=req.possible_terms, degree=req.degree,
        terms=o.terms, first_route=first_route,
        first_value=None if first is None else first.value, timings=dict(o.timings),
        seconds=round(seconds, 4), certificates_verified=o.certificates_verified,
        matrix_rank=o.matrix_rank, template_certificate=o.template_certificate,
        embedding=o.embedding, facts=route_facts, route_asked=plan.route_asked,
        weights_seed=req.weights_seed, points_seed=req.points_seed, plan=plan, **facts)


def separation_rank(L: int | None = None, d_x: int | None = None, H: int | None = None,
                    d_a: int | None = None, *, N: int | None = None, partition=None,
                    position: int = 0, coordinate: int = 0, residual: bool | None = None,
                    seed: int | None = None, weights_seed: int | None = None,
                    points_seed: int | None = None, weights: Mapping | None = None,
                    network=None, route: str = "auto", prime: int | None = None,
                    certify: bool = False, templates=None, rank_method: str | None = None,
                    embedding=None, options: Mapping | None = None, depth: int | None = None,
                    width: int | None = None, heads: int | None = None,
                    head_dim: int | None = None, seq_len: int | None = None,
                    max_memory: int | str | None = None, max_seconds: float | str | None = None,
                    budget: Budget | None = None) -> SeparationRankResult:
    """Separation rank of y_coordinate^position of an eq. (3) network w.r.t. (I, J).

    Parameters
    ----------
    L, d_x, H, d_a (also ``depth``, ``width``, ``heads``, ``head_dim``)
        the shape (levine2020 sec. 2.2, l.81; H defaults to 1, d_a to d_x / H, which
        needs H | d_x); with ``weights`` or ``network`` they may be left out (if given
        they must match). Each in one spelling only.
    N (also ``seq_len``)
        sequence length (>= 2; default 2, or the embedding's N); ``math.inf``: the limit
        N -> infinity, by the moment route (:mod:`~seprank.separation.moment.route`; a
        partition is I alone).
    partition
        I (0-based positions; J the rest), or the pair (I, J), or {"I", "J"}; default
        I = the first half (N // 2 positions). Behind a convolution embedding: of its
        M = k N raw input positions (default the first M // 2).
    position, coordinate: the output y_p^i (0-based).
    residual
        skip connections x + f(x) (levine2020 A.4); default: the network's, else False.
    weights_seed (older name: ``seed``)
        draws nonzero integer weights uniform in [-G, G], G = 2^20, 2^12, 2^3 for L = 1,
        2, >= 3 (:func:`seprank.models.generic_weights.seeded_network`: the one draw a seed
        names in every command, so that the value is the generic one with a stated
        probability); with ``weights`` or
        ``network``, ``weights_seed`` is checked to draw exactly them, while ``seed``
        then only sets the default ``points_seed`` (as it always did).
    points_seed
        the grid route's random points (default: the weights seed, else ``seed``, else 0).
    weights, network
        the JSON object of :mod:`seprank.models.weights` (or exact arrays), or a
        :class:`~seprank.models.SelfAttentionNetwork` to use as it is.
    route
        ``"auto"`` or a registered route (:func:`seprank.separation.routes.route_names`:
        ``coefficient``, ``grid``, ``template-grid``, ``embedding``, ``moment``).
    prime
        the grid route's prime (default 2^31 - 1).
    certify
        attach rank certificates to every block and verify them with
        :func:`seprank.verify` (``certificates_verified``).
    templates, rank_method, embedding, options
        route options: the template-grid route's M x d_x templates; the
        :func:`seprank.linalg.rank` method of the coefficient and template-grid
        routes (``auto``, ``exact``, ``modular``); a wies2021 input embedding
        (:class:`~seprank.models.embedding.VocabularyEmbedding` or
        :class:`~seprank.models.embedding.ConvolutionalEmbedding`): the embedding route
        at a finite N (:mod:`~seprank.separation.embedding.route`, bounds W-Thm3 /
        W-Thm4), the moment route at N = inf (no positional part); more options of
        other routes.
    max_memory, max_seconds, budget
        the limits (:mod:`seprank.budget`): peak bytes (or a size such as ``"2G"``) and
        seconds by the estimate, or a :class:`~seprank.budget.Budget`; default: the
        machine's memory. Checked before the network is drawn and before the route runs.

    Returns
    -------
    SeparationRankResult

    Raises
    ------
    ParameterError, InputError, NotPrimeError, MemoryLimitError, TimeLimitError
        bad arguments (one line each; :func:`~seprank.separation.plan_separation`), a
        route that cannot run the request, an estimate past the budget (the refusal names
        the largest N that fits).

    Examples
    --------
    One layer, d_x = H = d_a = 1, all weights 1: y^1 = x_1 (x_1^2 + x_2^2), two
    separable terms, not one (x_1^3 and x_1 x_2^2 have different x_1 parts):

    >>> separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"}).value
    2
    >>> r = separation_rank(depth=2, width=2, heads=1, weights_seed=1, route="grid")
    >>> r.kind in ("exact", "lower_bound"), r.value <= r.upper_bound, r.points_seed
    (True, True, 1)
    """
    start = time.perf_counter()
    plan = plan_separation(
        L, d_x, H, d_a, N=N, partition=partition, position=position, coordinate=coordinate,
        residual=residual, seed=seed, weights_seed=weights_seed, points_seed=points_seed,
        weights=weights, network=network, route=route, prime=prime, certify=certify,
        templates=templates, rank_method=rank_method, embedding=embedding, options=options,
        depth=depth, width=width, heads=heads, head_dim=head_dim, seq_len=seq_len,
        max_memory=max_memory, max_seconds=max_seconds, budget=budget)
    return execute(plan, start=start)
