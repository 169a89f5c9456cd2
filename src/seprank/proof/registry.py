"""Where checks come from: the ``@check`` decorator and the :class:`CheckRegistry`.

Checks live in *plugin packages*. A plugin declares itself in its
``pyproject.toml`` under the entry-point group ``seprank.checks``::

    [project.entry-points."seprank.checks"]
    schur_checks = "schur_checks"

(name: the package name ``seprank prove --package`` takes; value: the package
to import). The registry imports every module of that package and of its
subpackages, recursively (names that start with ``_`` or ``test_`` excepted), and
collects the functions that ``@check`` marked. The project's own checks, ``proofs/`` installed as
``seprank_proofs``, are registered the same way (see ``pyproject.toml``).

The decorator only marks the function (it stores a :class:`CheckSpec` on it);
nothing is registered at import time, so there is no module-level registry:
each :class:`CheckRegistry` is built from the installed packages when asked.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from seprank.errors import SeprankError
from seprank.paper_hooks.paper_record import Paper
from seprank.plugins import import_plugin, note
from seprank.proof.claims import Claim
from seprank.proof.framework import CheckContext, CheckSpec
from seprank.registry import discover

__all__ = ["ENTRY_POINT_GROUP", "CheckRegistry", "check", "checks_in", "registered_checks",
           "plugin_packages"]

#: the entry-point group plugins register their packages under
ENTRY_POINT_GROUP = "seprank.checks"
#: the project's own checks (``proofs/``)
BUILTIN_PACKAGE = "seprank_proofs"
_MARK = "__seprank_check__"


def check(id: str, title: str, source: str | Paper,
          depends: tuple[str, ...] | list[str] = (), claim: Claim | dict | None = None,
          figures: Iterable[Any] = (), paper: Paper | None = None
          ) -> Callable[[Callable[[CheckContext], None]], Callable[[CheckContext], None]]:
    """Decorator: mark ``func(ctx)`` as the check ``id`` (found by :class:`CheckRegistry`).

    ``source`` is a free string ("levine2020 l.720") or a :class:`Paper`
    (stored as its citation). ``paper`` is the :class:`Paper` whose claim the check
    decides (default: ``source`` when that is a Paper); reports group checks, and
    ``seprank errata KEY`` collects errata, by ``paper.key``. ``claim`` declares what
    the check decides (kind, statement in our words, source lines, ``main_result``,
    ``universal``);
    ``depends`` names the checks whose results the claim's proof uses;
    ``figures`` are :class:`seprank.proof.report.figures.Figure` objects drawn from the
    check's evidence in reports. The body records errata in its steps
    (``s.erratum(...)``) and ends with ``ctx.conclude(...)``; see
    :mod:`seprank.proof.claims`. ``claim`` may also be a dict of :class:`Claim`'s
    fields (no import needed in the check module).

    Examples
    --------
    >>> ARITH = Paper("arithmetic.txt", "Arithmetic", key="arith")
    >>> @check("demo-sum", title="1 + 1 = 2", source=ARITH.cite("l.1"), paper=ARITH,
    ...        claim=Claim("claim", "1 + 1 = 2 in the integers", "arithmetic",
    ...                    universal=False))
    ... def demo(ctx):
    ...     with ctx.step("1 + 1 = 2", source="arithmetic") as s:
    ...         s.require(1 + 1 == 2, "it is not")
    ...     ctx.conclude("holds", "proof", "evaluated exactly", basis="exhaustive")
    >>> spec = demo.__seprank_check__
    >>> spec.title, spec.func is demo, spec.claim.kind, spec.paper.key
    ('1 + 1 = 2', True, 'claim', 'arith')
    """

    if isinstance(claim, dict):
        claim = Claim(**claim)
    if paper is None and isinstance(source, Paper):
        paper = source
    if paper is not None and not isinstance(paper, Paper):
        raise SeprankError(f"check {id!r}: paper= takes a seprank.proof.Paper, "
                           f"not {type(paper).__name__}")
    text = str(source)

    def mark(func: Callable[[CheckContext], None]) -> Callable[[CheckContext], None]:
        setattr(func, _MARK, CheckSpec(id=id, title=title, source=text, func=func,
                                       depends=tuple(depends), claim=claim,
                                       figures=tuple(figures), paper=paper))
        return func

    return mark


def checks_in(module: ModuleType) -> list[CheckSpec]:
    """The checks ``@check`` marked among the module's attributes.

    Examples
    --------
    >>> import types
    >>> mod = types.ModuleType("demo_mod")
    >>> mod.body = check("demo", "a demo", "none")(lambda ctx: None)
    >>> [spec.id for spec in checks_in(mod)]
    ['demo']
    """
    return [getattr(obj, _MARK) for obj in vars(module).values()
            if callable(obj) and isinstance(getattr(obj, _MARK, None), CheckSpec)]


def plugin_packages() -> dict[str, str]:
    """Installed plugins: entry-point name -> package to import (``seprank.checks`` group).

    ``seprank_proofs`` is always included when it can be imported (an editable
    install made before it had its entry point has stale metadata). Found by
    :func:`seprank.registry.discover`, as the paper wings are; nothing is imported.

    Examples
    --------
    >>> plugin_packages()["seprank_proofs"]
    'seprank_proofs'
    """
    found = discover(ENTRY_POINT_GROUP, {BUILTIN_PACKAGE: BUILTIN_PACKAGE})
    return {name: spec.partition(":")[0].strip() for name, spec in sorted(found.items())}


def _skipped(name: str) -> bool:
    return name.startswith(("test_", "_")) or name == "conftest"


def _submodules(pkg: ModuleType) -> list[ModuleType]:
    """Every module of ``pkg`` and of its subpackages, recursively, by name.

    Names starting with ``_`` or ``test_`` (and ``conftest``) are skipped at every
    level, a skipped subpackage with all it holds.
    """
    out = []
    for info in sorted(pkgutil.iter_modules(getattr(pkg, "__path__", [])),
                       key=lambda m: m.name):
        if _skipped(info.name):
            continue
        module = import_plugin(f"check package {pkg.__name__!r}", f"{pkg.__name__}.{info.name}")
        out.append(module)
        if info.ispkg:
            out.extend(_submodules(module))
    return out


class CheckRegistry:
    """Checks by id, each with the plugin package it came from.

    Build one with :meth:`from_plugins` (every installed plugin, or only
    ``packages``), or fill an empty one with :meth:`add` / :meth:`load_package`
    (a plugin's own tests need no installed entry point).

    Examples
    --------
    >>> reg = CheckRegistry()
    >>> body = check("demo-1", "a demo", "none")(lambda ctx: None)
    >>> reg.add(body.__seprank_check__, package="demo_pkg")
    >>> list(reg.specs()), reg.package_of("demo-1"), reg.packages()
    (['demo-1'], 'demo_pkg', ['demo_pkg'])
    >>> full = CheckRegistry.from_plugins(["seprank_proofs"])
    >>> "L-Omega" in full.specs() and full.package_of("L-Omega")
    'seprank_proofs'
    """

    def __init__(self) -> None:
        self._specs: dict[str, CheckSpec] = {}
        self._package: dict[str, str] = {}

    def add(self, spec: CheckSpec, package: str = "") -> None:
        """Register one check; the same id from a different function is an error."""
        existing = self._specs.get(spec.id)
        if existing is not None and existing is not spec:
            if existing.func.__qualname__ != spec.func.__qualname__ or \
                    self._package[spec.id] != package:
                where = self._package[spec.id] or "?"
                raise SeprankError(f"check id {spec.id!r} registered twice ({where} and "
                                   f"{package or '?'})")
        self._specs[spec.id] = spec
        self._package[spec.id] = package

    def load_package(self, package: str, name: str | None = None) -> int:
        """Import ``package`` and all its modules (subpackages too); register their checks.

        Returns how many checks were added; ``name`` is what ``--package`` calls it
        (default: ``package``).
        """
        pkg = import_plugin(f"check package {package!r}", package)  # any failure: one line
        modules = [pkg, *_submodules(pkg)]
        before = len(self._specs)
        for module in modules:
            for spec in checks_in(module):
                self.add(spec, name or package)
        return len(self._specs) - before

    @classmethod
    def from_plugins(cls, packages: Iterable[str] | None = None) -> CheckRegistry:
        """A registry of every installed plugin (or only those named, by entry-point name).

        Of every installed plugin, one that cannot be loaded is skipped and its one line
        noted (:func:`seprank.plugins.note`); one named in ``packages`` is an error."""
        installed = plugin_packages()
        wanted = list(installed) if packages is None else list(packages)
        reg = cls()
        for name in wanted:
            if name not in installed:
                known = ", ".join(installed) or "none"
                raise SeprankError(f"no installed check package {name!r}; installed: {known}")
            if packages is not None:
                reg.load_package(installed[name], name)
                continue
            try:
                reg.load_package(installed[name], name)  # imports all first, then registers
            except SeprankError as exc:
                note(f"{exc}; skipped")
        return reg

    def specs(self, package: str | None = None) -> dict[str, CheckSpec]:
        """Checks by id (of one package when given)."""
        return {cid: spec for cid, spec in self._specs.items()
                if package is None or self._package[cid] == package}

    def package_of(self, check_id: str) -> str:
        """The package a check came from."""
        return self._package[check_id]

    def packages(self) -> list[str]:
        """The packages with at least one registered check."""
        return sorted(set(self._package.values()))

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, check_id: object) -> bool:
        return check_id in self._specs

    def __getitem__(self, check_id: str) -> CheckSpec:
        return self._specs[check_id]


def registered_checks(load: bool = True, package: str | None = None) -> dict[str, CheckSpec]:
    """All checks of the installed plugins by id (of one package when ``package`` is given).

    ``load=False`` returns no checks (kept for older callers; nothing is
    registered at import time any more).

    Examples
    --------
    >>> specs = registered_checks()
    >>> all(spec.id == cid for cid, spec in specs.items()), "L-Omega" in specs
    (True, True)
    """
    if not load:
        return {}
    return CheckRegistry.from_plugins(None if package is None else [package]).specs()
