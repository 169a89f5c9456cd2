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
from seprank.proof.framework import CheckContext, CheckSpec

__all__ = ["check", "registered_checks", "load_proofs"]

_REGISTRY: dict[str, CheckSpec] = {}
_LOADED = False


def check(id: str, title: str, source: str, depends: tuple[str, ...] | list[str] = ()
          ) -> Callable[[Callable[[CheckContext], None]], Callable[[CheckContext], None]]:
    """Decorator: register ``func(ctx)`` as the check with mission-map id ``id``."""

    def register(func: Callable[[CheckContext], None]) -> Callable[[CheckContext], None]:
        existing = _REGISTRY.get(id)
        if existing is not None and existing.func.__qualname__ != func.__qualname__:
            raise SeprankError(f"check id {id!r} registered twice")
        _REGISTRY[id] = CheckSpec(id=id, title=title, source=source, func=func,
                                  depends=tuple(depends))
        return func

    return register


def load_proofs(package: str = "seprank_proofs") -> None:
    """Import every module of the proofs package so that its checks register."""
    global _LOADED
    if _LOADED:
        return
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith(("test_", "_")) or info.name == "conftest":
            continue
        importlib.import_module(f"{package}.{info.name}")
    _LOADED = True


def registered_checks(load: bool = True) -> dict[str, CheckSpec]:
    """All registered checks by id (importing ``proofs/`` first unless ``load=False``)."""
    if load:
        load_proofs()
    return dict(_REGISTRY)
