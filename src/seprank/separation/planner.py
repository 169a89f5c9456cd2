"""What ``seprank.separation_rank`` will do, decided before it computes anything.

:func:`plan_separation` takes the arguments of :func:`seprank.separation_rank`,
checks them (one-line errors), builds the network once, and makes every decision:
the route and why (asking the registry, :mod:`seprank.separation.routes`), the
fallback, the prime, the seeds, the blocks as far as sizes tell, the estimated
work and peak memory, and the answer kinds it can return. ``separation_rank(...)``
is ``execute(plan_separation(...))`` (:mod:`seprank.separation.frontdoor`);
``seprank sep-rank ... --explain`` prints :meth:`SeparationPlan.explain`.

``auto`` asks the routes in registry order: the first that can run and should run
is chosen (else the first that can run); the first other route that can run and
should run as a fallback (``should_run(request, fallback=True)``) runs after the
chosen one when its answer is not exact. The cutoffs behind ``should_run`` sit in
each route's module (e.g. :data:`seprank.separation.coefficient.route.AUTO_COEFFICIENT_MAX_TERMS`).

Positions: the partition is of the N positions of the sequence, unless a route's option
says otherwise. Before it builds the request the planner asks the route named (under
``auto``: every route that takes all the options given) what its options say
(:meth:`SeparationRoute.positions`): a wies2021 embedding (option ``embedding``) fixes N
(its tokens), and a convolution embedding's partition is of its M = k N raw input
positions. The partition is then parsed against that count, ``position < N`` is checked
against the tokens, and the answer rides along as ``request.positions``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from seprank.budget import Budget, make_budget
from seprank.errors import ParameterError
from seprank.separation.request import Positions, SeparationRequest, build_network
from seprank.separation.route import PlannedBlock, RoutePlan, SeparationRoute, WorkEstimate
from seprank.separation.routes import AUTO, get_route, routes
from seprank.separation.sizes import check_network, check_route, route_estimate
from seprank.separation.vocabulary import (
    check_bool,
    check_int,
    check_seq_len,
    infinite_partition,
    parse_partition,
    resolve_shape_names,
)

__all__ = ["SeparationPlan", "RouteCandidate", "plan_separation"]


@dataclass(frozen=True)
class RouteCandidate:
    """What one registered route answered for this request: whether it can run (and why
    not), whether ``auto`` should choose it, whether it should run as a fallback.

    >>> [c.name for c in plan_separation(1, 1, 1).candidates if c.cannot is None]
    ['coefficient', 'grid']
    """

    name: str
    cannot: str | None
    prefers: bool
    why: str
    fallback: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"name": self.name, "can_run": self.cannot is None, "cannot": self.cannot,
                "prefers": self.prefers, "why": self.why, "fallback": self.fallback}


@dataclass(frozen=True, repr=False)
class SeparationPlan:
    """Every decision of a separation-rank computation, made before it runs.

    Attributes
    ----------
    request : SeparationRequest
        the checked question (network, N, I, J, output, seeds, prime, options).
    route_asked, route, route_reason : str
        the route asked for (``auto`` or a name), the one that runs, and why.
    fallback, fallback_reason : str or None, str
        the route that runs after a non-exact answer (None: none), and why.
    candidates : tuple of RouteCandidate
        every registered route's answers (``auto`` only; empty when a route was named).
    route_plan, fallback_plan : RoutePlan, RoutePlan or None
        the routes' own decisions: prime, blocks, estimate, kinds, notes.
    kinds : tuple of str
        the answer kinds the plan can return.

    Examples
    --------
    >>> plan = plan_separation(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"})
    >>> plan.route, plan.kinds, plan.partition
    ('coefficient', ('exact',), {'I': [0], 'J': [1]})
    >>> plan
    SeparationPlan(coefficient (auto), L=1 d_x=1 H=1 d_a=1, N=2, kinds exact)
    """

    request: SeparationRequest
    route_asked: str
    route: str
    route_reason: str
    route_plan: RoutePlan
    fallback: str | None = None
    fallback_reason: str = ""
    fallback_plan: RoutePlan | None = None
    candidates: tuple[RouteCandidate, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        """The answer kinds the plan can return (the chosen route's, with the fallback's)."""
        if self.fallback_plan is None:
            return self.route_plan.kinds
        return tuple(dict.fromkeys(self.fallback_plan.kinds + self.route_plan.kinds))

    @property
    def partition(self) -> dict[str, list[int]] | None:
        """{"I": [...], "J": [...]} (None for N = inf: a side I given there is
        ``request.I``, and the result's facts name it with J = every other position)."""
        r = self.request
        return None if r.I is None or not r.finite else {"I": list(r.I), "J": list(r.J)}

    @property
    def estimate(self) -> WorkEstimate:
        """The chosen route's estimate (the fallback's is in ``fallback_plan``)."""
        return self.route_plan.estimate

    def __repr__(self) -> str:
        s = self.request.shape
        how = "auto" if self.route_asked == AUTO else "asked"
        return (f"SeparationPlan({self.route} ({how}), L={s['L']} d_x={s['d_x']} H={s['H']} "
                f"d_a={s['d_a']}, N={self.request.N}, kinds {' or '.join(self.kinds)})")

    def to_dict(self) -> dict[str, Any]:
        """The plan as JSON-ready data (``seprank sep-rank ... --explain --json``)."""
        r = self.request

        def route_plan(rp: RoutePlan | None):
            if rp is None:
                return None
            return {"prime": rp.prime, "kinds": list(rp.kinds), "blocks_known": rp.blocks_known,
                    "blocks": [b.to_dict() for b in rp.blocks],
                    "estimate": rp.estimate.to_dict(), "uses_points_seed": rp.uses_points_seed,
                    "notes": list(rp.notes)}

        return {"network": r.shape, "residual": r.network.residual,
                "seq_len": r.N if r.finite else "inf", "partition": self.partition,
                "partition_of": None if r.positions is None else {
                    "positions": r.positions.count, "what": r.positions.what},
                "position": r.position, "coordinate": r.coordinate, "degree": r.degree,
                "possible_terms": r.possible_terms, "weights_seed": r.weights_seed,
                "points_seed": r.points_seed, "prime_asked": r.prime, "certify": r.certify,
                "options": sorted(r.options), "route_asked": self.route_asked,
                "route": self.route, "route_reason": self.route_reason,
                "fallback": self.fallback, "fallback_reason": self.fallback_reason or None,
                "candidates": [c.to_dict() for c in self.candidates],
                "route_plan": route_plan(self.route_plan),
                "fallback_plan": route_plan(self.fallback_plan), "kinds": list(self.kinds)}

    def explain(self) -> str:
        """The plan in a few lines, for people (``seprank sep-rank ... --explain``).

        >>> print(plan_separation(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"},
        ...                       route="grid").explain())   # doctest: +ELLIPSIS
        separation rank of y[0][0], L=1, d_x=1, H=1, d_a=1, N=2, I=[0] | J=[1]
        output degree 3; at most 4 possible monomials
        weights: given; points_seed = 0
        route: grid (route='grid' was asked)
        prime: 2147483647
        ...
        answers: exact or lower_bound
        certificates: none (certify=False)
        """
        return "\n".join(_explain_lines(self))


# ------------------------------------------------------------------ choosing a route


def _candidates(request: SeparationRequest) -> list[tuple[SeparationRoute, RouteCandidate]]:
    out = []
    for route in routes():
        extra = sorted(set(request.options) - set(route.takes))
        cannot = (f"does not take {', '.join(extra)}" if extra else None) or \
            route.can_run(request)
        prefers, why = route.should_run(request) if cannot is None else (False, cannot)
        fb = route.should_run(request, fallback=True)[0] if cannot is None else False
        out.append((route, RouteCandidate(route.name, cannot, prefers, why, fb)))
    return out


def _no_route(request: SeparationRequest, cands) -> ParameterError:
    why = "; ".join(f"{c.name}: {c.cannot}" for _, c in cands)
    return ParameterError(f"no separation route can run this request ({why})")


def _choose(request: SeparationRequest, asked: str, plans: dict):
    """(route, reason, fallback route or None, its reason, candidates); the plans made
    for the budget's check are kept in ``plans`` (route name -> RoutePlan)."""
    if asked != AUTO:
        route = get_route(asked)
        extra = sorted(set(request.options) - set(route.takes))
        cannot = (f"it does not take {', '.join(extra)}" if extra else None) or \
            route.can_run(request)
        if cannot is not None:
            raise ParameterError(f"route {asked!r} cannot run here: {cannot}")
        check_route(route, request, request.budget, plans)
        return route, f"route={asked!r} was asked", None, "", ()
    cands = _candidates(request)
    runnable = [(r, c) for r, c in cands if c.cannot is None]
    if not runnable:
        raise _no_route(request, cands)
    chosen, cand = next(((r, c) for r, c in runnable if c.prefers), runnable[0])
    declined = [f"{c.name} declines: {c.why}" for r, c in runnable if r is not chosen
                and cands.index((r, c)) < cands.index((chosen, cand))]
    reason = "; ".join([*declined, f"{cand.name}: {cand.why}" if declined else cand.why])
    if not cand.prefers:
        reason = f"no route prefers this request; the first that can run ({reason})"
    check_route(chosen, request, request.budget, plans)
    fallback = next(((r, c) for r, c in runnable if c.fallback and r is not chosen), None)
    fb_reason = ""
    if fallback is not None and not request.budget.fits(route_estimate(fallback[0], request,
                                                                       plans)):
        fallback = None  # its estimate exceeds the budget: the first answer stands
    if fallback is not None:
        fb_reason = ("if the answer is not exact: "
                     + fallback[0].should_run(request, fallback=True)[1])
    return (chosen, reason, None if fallback is None else fallback[0], fb_reason,
            tuple(c for _, c in cands))


# ------------------------------------------------------------------ the request


def _seeds(seed, weights_seed, points_seed, drawn: bool) -> tuple[int | None, int | None, int]:
    """(seed for build_network, weights seed recorded, points seed)."""
    if seed is not None and weights_seed is not None:
        raise ParameterError("give weights_seed or seed (its older name), not both")
    for name, v in (("seed", seed), ("weights_seed", weights_seed),
                    ("points_seed", points_seed)):
        if v is not None:
            check_int(name, v, 0)
    first = weights_seed if weights_seed is not None else seed
    points = points_seed if points_seed is not None else (0 if first is None else first)
    if drawn:
        w = 0 if first is None else first
        return w, w, points
    # given weights: ``seed`` only sets the points (as it always did); an explicit
    # weights_seed is checked against the weights by build_network
    return weights_seed, weights_seed, points


def _options(templates, rank_method, embedding, options) -> dict[str, Any]:
    out = dict(options or {})
    if not isinstance(options, (Mapping, type(None))):
        raise ParameterError(f"options must be a mapping, got {type(options).__name__}")
    for name, v in (("templates", templates), ("rank_method", rank_method),
                    ("embedding", embedding)):
        if v is not None:
            if name in out:
                raise ParameterError(f"{name} given twice (as a keyword and in options)")
            out[name] = v
    return out


def _positions(N, options: Mapping[str, Any], asked: str) -> Positions | None:
    """What the route asked for (``auto``: every route that takes all the options given)
    says about the positions (module docstring); None: nothing, the N positions."""
    if not options:
        return None
    named = [get_route(asked)] if asked != AUTO else [
        r for r in routes() if set(options) <= set(r.takes)]
    said = {}
    for route in named:
        answer = getattr(route, "positions", lambda N, options: None)(N, options)
        if answer is not None:
            said.setdefault(answer, route.name)
    if len(said) > 1:
        raise ParameterError("the routes read the positions differently: " + "; ".join(
            f"{name}: N = {p.N}, {p.count} positions" for p, name in said.items()))
    return next(iter(said), None)


def _request(shape: dict, N, partition, position, coordinate, residual, seeds, weights,
             network, prime, certify, options, budget: Budget,
             asked: str = AUTO) -> SeparationRequest:
    positions = _positions(None if N is None else check_seq_len(N), options, asked)
    if positions is not None:
        N = positions.N
    N = check_seq_len(2 if N is None else N)
    P = N if positions is None else check_seq_len(positions.count)
    position = check_int("position", position, 0)
    coordinate = check_int("coordinate", coordinate, 0)
    check_bool("certify", certify)
    if prime is not None:
        check_int("prime", prime, 2)
    drawn = network is None and weights is None
    if drawn:  # nothing is drawn or laid out before its size is known
        check_network(shape, P, budget)
    elif isinstance(P, int):  # given weights: the positions alone
        check_network({"L": 1, "d_x": 1}, P, budget)
    seed, weights_seed, points_seed = seeds(drawn)
    net = build_network(shape["L"], shape["d_x"], shape["H"], shape["d_a"],
                        residual=residual, weights_seed=seed, weights=weights,
                        network=network, budget=budget)
    if position >= N:
        raise ParameterError(f"position = {position} must be < N = {N} (0-based)")
    if coordinate >= net.d_x:
        raise ParameterError(f"coordinate = {coordinate} must be < d_x = {net.d_x} (0-based)")
    if N == math.inf:      # parsed here once: I alone, J is every other position
        I, J = infinite_partition(partition), None
    else:
        try:
            I, J = parse_partition(partition, P)
        except ParameterError as exc:
            if positions is None or not positions.what:
                raise
            raise ParameterError(f"{exc}; the partition is of {positions.what}") from None
    return SeparationRequest(net, N, I, J, position, coordinate, weights_seed, points_seed,
                             prime, certify, options, budget=budget, positions=positions)


def plan_separation(L: int | None = None, d_x: int | None = None, H: int | None = None,
                    d_a: int | None = None, *, N: int | None = None, partition=None,
                    position: int = 0, coordinate: int = 0, residual: bool | None = None,
                    seed: int | None = None, weights_seed: int | None = None,
                    points_seed: int | None = None, weights: Mapping | None = None,
                    network=None, route: str = AUTO, prime: int | None = None,
                    certify: bool = False, templates=None, rank_method: str | None = None,
                    embedding=None, options: Mapping | None = None, depth: int | None = None,
                    width: int | None = None, heads: int | None = None,
                    head_dim: int | None = None, seq_len: int | None = None,
                    max_memory: int | str | None = None, max_seconds: float | str | None = None,
                    budget: Budget | None = None) -> SeparationPlan:
    """The plan of ``seprank.separation_rank(...)``: checks and decisions, no rank work.

    Takes exactly the arguments of :func:`seprank.separation_rank` (see there) and
    raises the same one-line errors; builds the network (a seeded draw or the given
    weights) but evaluates nothing and ranks nothing. Before the draw it checks the
    weights' and positions' size, and before the route plans, the route's estimate,
    against the budget (``max_memory``, ``max_seconds`` or ``budget``; default the
    machine's: :mod:`seprank.budget`); a refusal is one line that names the estimate, the
    limit and the largest N (or L) that fits (:mod:`seprank.separation.sizes`).

    Examples
    --------
    >>> plan = plan_separation(depth=3, width=4, heads=2)
    >>> plan.route, plan.fallback, plan.request.possible_terms
    ('grid', None, 5379616)
    >>> print(plan.route_reason.split("; ")[0])
    coefficient declines: 5379616 possible monomials > AUTO_COEFFICIENT_MAX_TERMS = 200000
    >>> plan_separation(2, 2, 1, depth=2)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: give L or depth, not both (they are one parameter)
    """
    shape = resolve_shape_names({"L": L, "d_x": d_x, "H": H, "d_a": d_a, "N": N},
                                {"depth": depth, "width": width, "heads": heads,
                                 "head_dim": head_dim, "seq_len": seq_len})
    if not isinstance(route, str):
        raise ParameterError(f"route must be a string, got {route!r}")
    if route != AUTO:
        get_route(route)  # an unknown name fails before any other work
    request = _request(shape, shape["N"], partition, position, coordinate, residual,
                       lambda drawn: _seeds(seed, weights_seed, points_seed, drawn),
                       weights, network, prime, certify,
                       _options(templates, rank_method, embedding, options),
                       make_budget(max_memory, max_seconds, budget), route)
    plans: dict[str, RoutePlan] = {}
    chosen, reason, fallback, fb_reason, cands = _choose(request, route, plans)

    def planned(r: SeparationRoute) -> RoutePlan:      # each route planned once
        return plans[r.name] if r.name in plans else r.plan(request)

    return SeparationPlan(request=request, route_asked=route, route=chosen.name,
                          route_reason=reason, route_plan=planned(chosen),
                          fallback=None if fallback is None else fallback.name,
                          fallback_reason=fb_reason,
                          fallback_plan=None if fallback is None else planned(fallback),
                          candidates=cands)


# ------------------------------------------------------------------ explain


def _block_line(b: PlannedBlock) -> str:
    if b.zero_by_parity:
        return f"  I-degree {b.I_degree}: zero by parity"
    pts = "" if b.points is None else f", {b.points} points per side"
    return (f"  I-degree {b.I_degree} / J-degree {b.J_degree}: {b.monomials[0]} x "
            f"{b.monomials[1]} monomials, rank <= {b.cap}{pts}")


def _route_lines(rp: RoutePlan, label: str) -> list[str]:
    lines = []
    if rp.prime is not None:
        lines.append(f"{label}prime: {rp.prime}")
    live = [b for b in rp.blocks if not b.zero_by_parity]
    lines.append(f"{label}blocks ({rp.blocks_known}): {len(live)} "
                 f"(+{len(rp.blocks) - len(live)} zero by parity), caps sum to "
                 f"{sum(b.cap for b in rp.blocks)}")
    lines += [_block_line(b) for b in live[:12]]
    if len(live) > 12:
        lines.append(f"  ... {len(live) - 12} more")
    lines.append(f"{label}work: {rp.estimate}")
    lines += [f"{label}{note}" for note in rp.notes]
    return lines


def _explain_lines(plan: SeparationPlan) -> list[str]:
    r, s = plan.request, plan.request.shape
    part = ("" if plan.partition is None else
            f", I={plan.partition['I']} | J={plan.partition['J']}")
    lines = [f"separation rank of y[{r.position}][{r.coordinate}], L={s['L']}, d_x={s['d_x']}, "
             f"H={s['H']}, d_a={s['d_a']}, N={r.N}" + (", residual" if r.network.residual
                                                       else "") + part,
             f"output degree {r.degree}" + ("" if r.possible_terms is None else
                                            f"; at most {r.possible_terms} possible monomials"),
             *([] if r.positions is None or not r.positions.what else
               [f"partition of {r.positions.what}"]),
             "weights: " + ("given" if r.weights_seed is None else
                            f"drawn from weights_seed = {r.weights_seed}")
             + f"; points_seed = {r.points_seed}"]
    lines.append(f"route: {plan.route} ({plan.route_reason})")
    for c in plan.candidates:
        state = (f"cannot run: {c.cannot}" if c.cannot else
                 ("prefers" if c.prefers else "does not prefer") + f": {c.why}")
        lines.append(f"  asked {c.name}: {state}")
    lines += _route_lines(plan.route_plan, "")
    if plan.fallback is not None:
        lines.append(f"fallback: {plan.fallback} ({plan.fallback_reason})")
        lines += _route_lines(plan.fallback_plan, "  fallback ")
    lines.append(f"answers: {' or '.join(plan.kinds)}")
    lines.append("certificates: " + ("every rank certified and verified independently"
                                     if r.certify else "none (certify=False)"))
    return lines
