"""What a separation-rank request costs before any route runs, and the nearest size that fits.

Issue 23 item 1 ("estimate, then work") for :func:`seprank.separation.plan_separation`:

* :func:`network_estimate`: the seeded weights (4 L H d_a d_x exact entries) and the
  positions of the partition (N of them), checked before the network is drawn, so that
  ``-L 1000000000`` or ``-N 10**12`` is refused before anything is allocated;
* :func:`route_estimate`: a route's own cheap estimate (``SeparationRoute.estimate``,
  from sizes alone), else the estimate of its plan, as a :class:`seprank.budget.Estimate`;
* :func:`nearest_hint`: the largest N (else the largest L at N = 2) at which the route's
  estimate fits the budget, for the refusal's last clause. Probes keep the request's
  network shape and options and take the default partition (the first half).

Examples
--------
>>> from seprank.budget import Budget
>>> from seprank.separation import plan_separation
>>> plan_separation(2, 2, 1, N=400, route="grid", budget=Budget(max_memory="64M"))
Traceback (most recent call last):
...
seprank.errors.MemoryLimitError: the grid route needs about ... of memory (...) > \
max_memory = 64.0 MiB; the largest N that fits is ...
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from seprank.budget import Budget, Estimate, largest_fitting
from seprank.separation.monomials import monomial_count

__all__ = ["parameter_count", "feasible", "network_estimate", "check_network",
           "route_estimate", "nearest_hint", "check_route", "check_grid_draw"]

#: Bytes per weight entry while the weights are drawn (int64 draws, their nonzero shift,
#: the object array and its fill) and kept (object arrays; the GF(p) kernels' int64 copies).
_BYTES_PER_WEIGHT = 64
#: Bytes per position of the partition (two tuples of Python ints, their checks).
_BYTES_PER_POSITION = 120


def network_estimate(L: int, d_x: int, H: int, d_a: int | None, N: int | float | None
                     ) -> Estimate:
    """Memory and work of drawing a network's weights and laying out N positions.

    >>> e = network_estimate(2, 4, 2, None, 2)     # 4 L H d_a d_x = 4 * 2 * 2 * 2 * 4
    >>> e.nbytes, e.detail
    (8432, '128 weights, N = 2')
    """
    d_a = d_a if d_a is not None else max(d_x // max(H, 1), 1)
    weights = 4 * L * H * d_a * d_x
    positions = N if isinstance(N, int) else 0  # None (not known yet) or inf: none laid out
    return Estimate("laying out the network (weights, positions)",
                    nbytes=_BYTES_PER_WEIGHT * weights + _BYTES_PER_POSITION * positions,
                    work=((20 * weights + 10 * positions, "python"),),
                    detail=f"{weights} weights" + ("" if N is None else f", N = {N}"))


def check_network(shape: dict, N, budget: Budget) -> None:
    """Refuse (one line) a network or sequence too large to lay out; the hint names the
    largest L (at these d_x, H, d_a) or N that fits. ``N`` None: the weights only.

    >>> check_network({"L": 10**9, "d_x": 2, "H": 1, "d_a": None}, 2, Budget(max_memory="1G"))
    Traceback (most recent call last):
    ...
    seprank.errors.MemoryLimitError: laying out the network (weights, positions) needs about \
953.7 GiB of memory (16000000000 weights, N = 2) > max_memory = 1.0 GiB; the largest L that \
fits is 1048575
    """
    L, d_x, H, d_a = shape["L"], shape["d_x"], shape.get("H") or 1, shape.get("d_a")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (L, d_x, H)):
        return  # not a shape yet: the network's own checks say why, in one line

    def fits_L(k: int) -> bool:
        return budget.fits(network_estimate(k, d_x, H, d_a, N))

    def fits_N(n: int) -> bool:
        return budget.fits(network_estimate(L, d_x, H, d_a, n))

    def hint() -> str:
        if fits_L(1) and not fits_L(L):
            return f"the largest L that fits is {largest_fitting(fits_L, 1, L - 1)}"
        if isinstance(N, int) and fits_N(2):
            return f"the largest N that fits is {largest_fitting(fits_N, 2, N - 1)}"
        return ""

    budget.check(network_estimate(L, d_x, H, d_a, N), nearest=hint)


def route_estimate(route, request, plans: dict | None = None) -> Estimate:
    """The route's estimate as the budget reads it: its cheap ``estimate(request)`` when
    it has one, else its plan's (``route.plan(request).estimate``); a plan made here is
    kept in ``plans`` (by route name) when given, so that the planner does not plan the
    route a second time.

    >>> from seprank.separation import plan_separation
    >>> from seprank.separation.routes import get_route
    >>> route_estimate(get_route("grid"), plan_separation(2, 2, 1).request).what
    'the grid route'
    """
    cheap = getattr(route, "estimate", None)
    work = cheap(request) if cheap is not None else None
    if work is None:
        plan = route.plan(request)
        if plans is not None:
            plans[route.name] = plan
        work = plan.estimate
    return work.as_estimate(f"the {route.name} route")


@dataclass(frozen=True)
class _Shape:
    """A network's shape without weights: what a route's estimate reads of a probe."""

    L: int
    d_x: int
    H: int
    d_a: int
    residual: bool


def _probe(request, N: int, L: int | None = None):
    """``request`` at another N (the default partition) and, given, another depth L."""
    net = request.network
    if L is not None:
        net = _Shape(L, net.d_x, net.H, net.d_a, net.residual)
    half = N // 2
    return replace(request, network=net, N=N, I=tuple(range(half)), J=tuple(range(half, N)),
                   position=min(request.position, N - 1))


def nearest_hint(route, request, budget: Budget) -> str:
    """The route's own hint when it has one (:meth:`SeparationRoute.refusal_hint`; not
    None, possibly empty), else
    the largest N that fits this route (the default partition), else the largest L at
    N = 2; empty when neither does or the route cannot say.

    >>> from seprank.separation import plan_separation
    >>> from seprank.separation.routes import get_route
    >>> req = plan_separation(2, 2, 1, N=4).request
    >>> nearest_hint(get_route("grid"), req, Budget(max_memory="5M"))
    'the largest N that fits is 3 (the first half as I)'
    """
    def fits(probe) -> bool:
        try:
            return budget.fits(route_estimate(route, probe))
        except Exception:  # noqa: BLE001 - a probe the route refuses does not fit
            return False

    own = getattr(route, "refusal_hint", None)
    hint = own(request) if own is not None else None
    if hint is not None:  # the route's own word (empty: it has nothing to name)
        return hint
    N, L = request.N, request.network.L
    if isinstance(N, int) and N > 2:
        n = largest_fitting(lambda k: fits(_probe(request, k)), 2, N - 1)
        if n is not None:
            return f"the largest N that fits is {n} (the first half as I)"
    if L > 1:
        k = largest_fitting(lambda k: fits(_probe(request, 2, k)), 1, L - 1)
        if k is not None:
            return f"no N fits at L = {L}; the largest L that fits at N = 2 is {k}"
    return ""


def check_route(route, request, budget: Budget, plans: dict | None = None) -> Estimate:
    """Refuse (one line, with :func:`nearest_hint`) when the route's estimate does not fit
    ``budget``; return the estimate when it does (``plans``: :func:`route_estimate`).

    >>> from seprank.separation import plan_separation
    >>> from seprank.separation.routes import get_route
    >>> check_route(get_route("grid"), plan_separation(2, 2, 1).request, Budget()).what
    'the grid route'
    """
    return budget.check(route_estimate(route, request, plans),
                        nearest=lambda: nearest_hint(route, request, budget))


def check_grid_draw(depth: int, width: int, heads: int, da: int | None, N: int,
                    templates: int) -> None:
    """``seprank grid-rank``'s draws (the network, the M x d_x templates) checked against
    the budget in force before they are made.

    >>> check_grid_draw(2, 4, 2, None, 2, 12) is None
    True
    """
    from seprank.budget import current

    budget = current()
    check_network({"L": depth, "d_x": width, "H": heads, "d_a": da}, N, budget)
    budget.check(Estimate("drawing the templates", nbytes=24 * templates * width,
                          detail=f"{templates} x {width}"))


def parameter_count(L: int, d_x: int, H: int, d_a: int | None = None) -> int:
    """Number of weights: 4 L H d_a d_x (levine2020 l.81: 4LH matrices of d_a x d_x entries).

    >>> parameter_count(2, 4, 2)   # 4 * 2 * 2 * 2 * 4
    128
    """
    d_a = d_x // H if d_a is None else d_a
    return 4 * L * H * d_a * d_x


#: Largest grid block (points per side) and coefficient expansion (possible monomials)
#: that :func:`feasible` accepts: a 3060-point block is about 10^8 evaluations and a
#: 3060 x 3060 rank mod p, tens of seconds on 2 cores.
FEASIBLE_GRID_POINTS = 3100
#: residual networks go by coefficients: L = 2, d_x = 5 (92378 possible monomials) took
#: 32 s, d_x = 6 (293930) several minutes on 2 shared cores
FEASIBLE_TERMS = 100_000


def feasible(L: int, d_x: int, N: int = 2, residual: bool = False) -> str | None:
    """None when an exact (or certified) answer is expected in well under a few minutes on
    2 cores, else why not (for sweeps that leave such points out).

    >>> feasible(3, 4), feasible(3, 8) is None
    (None, False)
    """
    D = 3 ** L
    n = (N // 2) * d_x
    terms = monomial_count(N * d_x, D, up_to=residual)
    if residual:
        return None if terms <= FEASIBLE_TERMS else (
            f"residual: {terms} possible monomials > {FEASIBLE_TERMS}")
    block = max(min(monomial_count(n, k), monomial_count(N * d_x - n, D - k))
                for k in range(1, D + 1, 2))
    if block <= FEASIBLE_GRID_POINTS:
        return None
    return f"grid block of {block} points > {FEASIBLE_GRID_POINTS}"
