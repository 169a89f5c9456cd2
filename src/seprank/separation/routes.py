"""The registry of separation routes: the order ``auto`` asks them in.

One line per route in :data:`BUILTIN_ROUTES` (``"module:attribute"`` of the route
object, loaded on first use); :func:`register_route` adds one at run time (a
plugin, a test's toy route) and :func:`unregister_route` takes it out again.
``auto`` asks the routes in registry order (:func:`seprank.separation.plan_separation`):
the first that can run and should run is chosen; the first other one that should
run as a fallback runs after a non-exact answer. The CLI's ``--route`` choices and
the ``route=`` check come from :func:`route_names`. The table is a
:class:`seprank.registry.Registry` (:data:`ROUTES`), the helper the engines and the
paper wings use too; an unknown name is answered with the choices and, when one is
close, a did-you-mean.

Examples
--------
>>> route_names()
('coefficient', 'grid', 'template-grid', 'embedding', 'moment')
>>> get_route("grid").matrix_words
'grid blocks mod p'
"""

from __future__ import annotations

from seprank.registry import Registry
from seprank.separation.route import SeparationRoute

__all__ = ["BUILTIN_ROUTES", "AUTO", "ROUTES", "route_names", "get_route", "routes",
           "register_route", "unregister_route"]

#: the route that asks the registry (not a route itself)
AUTO = "auto"

#: The built-in routes, in the order ``auto`` asks them: the cheap exact expansion
#: first (it declines above its cutoff), the grid mod p next, the templates (they run
#: only when templates are given), the wies2021 embeddings at a finite N (only when an
#: embedding is given), then the moment form, the only route for N = inf.
#: A new route: one subpackage, one line here (docs/extending.md, section 6).
BUILTIN_ROUTES: tuple[str, ...] = (
    "seprank.separation.coefficient.route:ROUTE",
    "seprank.separation.grid.route:ROUTE",
    "seprank.separation.grid.template:ROUTE",
    "seprank.separation.embedding.route:ROUTE",
    "seprank.separation.moment.route:ROUTE",
)


def _unknown(name: object, names: tuple[str, ...]) -> str:
    return f"route must be one of {', '.join((AUTO, *names))}; got {name!r}"


def _refused(name: object) -> str:
    return f"cannot register a route named {name!r} (empty, 'auto', or already registered)"


#: The table itself (:class:`seprank.registry.Registry`): the built-in routes, imported
#: on first use, then those registered at run time; ``auto`` may name none of them.
ROUTES: Registry[SeparationRoute] = Registry("route", builtins=BUILTIN_ROUTES,
                                             reserved=(AUTO,), unknown=_unknown,
                                             refused=_refused)


def routes() -> tuple[SeparationRoute, ...]:
    """The registered routes, in the order ``auto`` asks them.

    >>> [r.name for r in routes()][:2]
    ['coefficient', 'grid']
    """
    return ROUTES.items()


def route_names() -> tuple[str, ...]:
    """Names of the registered routes, in order (``auto`` is not one of them).

    >>> "auto" in route_names(), "grid" in route_names()
    (False, True)
    """
    return ROUTES.names()


def get_route(name: str) -> SeparationRoute:
    """The route called ``name``; ParameterError naming the choices otherwise (and the
    closest one, when a name is close).

    >>> get_route("fast")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: route must be one of auto, coefficient, grid, \
template-grid, embedding, moment; got 'fast'
    >>> get_route("gird")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: route must be one of auto, ...; got 'gird'; did you mean grid?
    """
    return ROUTES.get(name)


def register_route(route: SeparationRoute, *, first: bool = False) -> None:
    """Add ``route`` to the registry (last, or ``first``: asked before every other one).

    Raises
    ------
    ParameterError
        a name that is already registered, empty, or ``auto``.

    Examples
    --------
    >>> class Toy(SeparationRoute):
    ...     name = "toy"
    >>> register_route(Toy()); route_names()[-1]
    'toy'
    >>> register_route(Toy())
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: cannot register a route named 'toy' (empty, 'auto', or \
already registered)
    >>> _ = unregister_route("toy"); "toy" in route_names()
    False
    """
    ROUTES.register(route, first=first)


def unregister_route(name: str) -> SeparationRoute:
    """Remove the route called ``name`` from the registry and return it.

    >>> unregister_route("nope")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: route must be one of auto, ...; got 'nope'
    """
    return ROUTES.unregister(name)
