"""The registry of checks, filled by the modules of the ``proofs/`` folder.

``proofs/`` is installed as the package ``seprank_proofs`` (see pyproject), so
the checks are found the same way from a source checkout and from a wheel.
Each module there decorates its check body with :func:`check`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from seprank.errors import SeprankError
from seprank.proof.claims import Claim
from seprank.proof.framework import CheckContext, CheckSpec

__all__ = ["check", "registered_checks", "load_proofs"]

_REGISTRY: dict[str, CheckSpec] = {}
_LOADED: set[str] = set()


def check(id: str, title: str, source: str, depends: tuple[str, ...] | list[str] = (),
          claim: Claim | dict | None = None
          ) -> Callable[[Callable[[CheckContext], None]], Callable[[CheckContext], None]]:
    """Decorator: register ``func(ctx)`` as the check with mission-map id ``id``.

    ``claim`` declares what the check decides (kind, statement as printed in
    our words, source lines, ``main_result``, ``universal``); ``depends`` names
    the checks whose results the claim's proof uses. The body records errata
    in its steps (``s.erratum(...)``) and ends with ``ctx.conclude(...)``; see
    :mod:`seprank.proof.claims` for the rules. ``claim`` may also be a dict of
    :class:`Claim`'s fields (no import needed in the check module).

    Examples
    --------
    >>> @check("demo-sum", title="1 + 1 = 2", source="arithmetic",
    ...        claim=Claim("claim", "1 + 1 = 2 in the integers", "arithmetic",
    ...                    universal=False))
    ... def demo(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.require(1 + 1 == 2, "it is not")
    ...     ctx.conclude("holds", "proof", "evaluated exactly", basis="exhaustive")
    >>> spec = registered_checks(load=False)["demo-sum"]
    >>> spec.title, spec.func is demo, spec.claim.kind
    ('1 + 1 = 2', True, 'claim')
    >>> del _REGISTRY["demo-sum"]      # leave the registry as it was
    """

    if isinstance(claim, dict):
        claim = Claim(**claim)

    def register(func: Callable[[CheckContext], None]) -> Callable[[CheckContext], None]:
        existing = _REGISTRY.get(id)
        if existing is not None and existing.func.__qualname__ != func.__qualname__:
            raise SeprankError(f"check id {id!r} registered twice")
        _REGISTRY[id] = CheckSpec(id=id, title=title, source=source, func=func,
                                  depends=tuple(depends), claim=claim)
        return func

    return register


def load_proofs(package: str = "seprank_proofs") -> None:
    """Import every module of the proofs package so that its checks register.

    Examples
    --------
    >>> load_proofs()
    >>> "L-Omega" in registered_checks(load=False)
    True
    """
    if package in _LOADED:
        return
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith(("test_", "_")) or info.name == "conftest":
            continue
        importlib.import_module(f"{package}.{info.name}")
    _LOADED.add(package)


def registered_checks(load: bool = True) -> dict[str, CheckSpec]:
    """All registered checks by id (importing ``proofs/`` first unless ``load=False``).

    Examples
    --------
    >>> specs = registered_checks()
    >>> all(spec.id == cid for cid, spec in specs.items())
    True
    """
    if load:
        load_proofs()
    return dict(_REGISTRY)
