"""One helper behind every table of named parts: routes, engines, methods, paper wings.

Issue 29, item 6. A :class:`Registry` is an ordered table ``name -> item``. Its
built-in entries are given as ``"module:attribute"`` strings (a plain ``"module"``
names the module itself) and imported the first time the table is asked for anything,
not when the registry is made. A registry may also read an entry-point group: each
entry point is a plugin, and a plugin that cannot be loaded, whatever its import
raises (:func:`seprank.plugins.import_plugin`), is left out, with one line kept in
:meth:`Registry.skipped` and noted for the command to print (:func:`seprank.plugins.note`).

Users: the separation routes (:mod:`seprank.separation.routes`), the modular engines
and the methods of ``seprank.rank`` (:mod:`seprank.linalg.engines`), and the paper
wings (:mod:`seprank.paper_hooks`). The check packages of ``seprank prove`` are found
with :func:`discover` (:func:`seprank.proof.registry.plugin_packages`); the checks
themselves are collected per call by :class:`seprank.proof.registry.CheckRegistry`.

An unknown name is one :class:`~seprank.errors.ParameterError` line that lists the
choices and, when one is close, asks "did you mean"; a name that is not a ``str`` is
refused as it is, never converted.

Examples
--------
>>> from types import SimpleNamespace as Part
>>> reg = Registry("shape")
>>> reg.register(Part(name="square")).name, reg.register(Part(name="circle")).name
('square', 'circle')
>>> reg.names()
('square', 'circle')
>>> reg.get("sqare")
Traceback (most recent call last):
...
seprank.errors.ParameterError: unknown shape 'sqare'; choose one of square, circle; did \
you mean square?
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from seprank.errors import ParameterError, SeprankError, did_you_mean
from seprank.plugins import PluginError, import_plugin, note

__all__ = ["Registry", "discover", "load_spec"]

T = TypeVar("T")


def _module_of(spec: str) -> str:
    return spec.partition(":")[0].strip()


def load_spec(spec: str, what: str = "", plugin: bool = False) -> Any:
    """The object ``spec`` names: ``"module:attribute"``, or a whole module for ``"module"``.

    A ``plugin`` is imported through :func:`seprank.plugins.import_plugin` (any failure is
    one :class:`~seprank.plugins.PluginError` line naming ``what``); a built-in one
    plainly, so that a defect in the package shows its whole traceback.

    Examples
    --------
    >>> load_spec("seprank.errors:ParameterError").__name__
    'ParameterError'
    >>> load_spec("seprank.errors:Nope", "a demo", plugin=True)
    Traceback (most recent call last):
    ...
    seprank.plugins.PluginError: a demo (seprank.errors) has no attribute 'Nope'
    """
    module, _, attr = spec.partition(":")
    module, attr = module.strip(), attr.strip()
    what = what or repr(spec)
    mod = import_plugin(what, module) if plugin else importlib.import_module(module)
    if not attr:
        return mod
    try:
        return getattr(mod, attr)
    except AttributeError:
        if not plugin:
            raise
        raise PluginError(f"{what} ({module}) has no attribute {attr!r}") from None


def discover(group: str | None, builtins: Mapping[str, str] | None = None, *,
             entry_points: Callable[..., Iterable[Any]] | None = None,
             findable_only: bool = True) -> dict[str, str]:
    """Plugins by name -> spec: ``builtins`` first, in their order, then the entry points of
    ``group`` sorted by name. Nothing is imported.

    A built-in entry is taken unless an entry point already has its name or its module
    (a package installed with its entry points declares the same thing), and, with
    ``findable_only``, only when its module can be found (a plain source checkout has no
    entry points; a trimmed install may lack a built-in). ``entry_points`` replaces
    :func:`importlib.metadata.entry_points` (called as ``entry_points(group=...)``).

    Examples
    --------
    >>> discover(None, {"errors": "seprank.errors", "gone": "no_such_module_for_seprank"})
    {'errors': 'seprank.errors'}
    >>> class EP:
    ...     name, value = "extra", "seprank.plugins"
    >>> discover("demo", {"errors": "seprank.errors"}, entry_points=lambda group: [EP()])
    {'errors': 'seprank.errors', 'extra': 'seprank.plugins'}
    """
    if entry_points is None:
        from importlib.metadata import entry_points
    builtins = dict(builtins or {})
    found = {ep.name: ep.value.strip() for ep in entry_points(group=group)} if group else {}
    modules = {_module_of(spec) for spec in found.values()}
    for name, spec in builtins.items():
        if name in found or _module_of(spec) in modules:
            continue
        if findable_only and importlib.util.find_spec(_module_of(spec)) is None:
            continue
        found[name] = spec
    first = [name for name in builtins if name in found]
    return {name: found[name] for name in first + sorted(set(found) - set(first))}


def _name_of(item: Any) -> Any:
    return getattr(item, "name", "")


class Registry(Generic[T]):
    """An ordered table ``name -> item`` with lazily loaded built-ins and optional plugins.

    Parameters
    ----------
    kind
        what an item is, in messages ("route", "engine", "paper wing").
    builtins
        ``"module:attribute"`` specs (or a mapping label -> spec), loaded in order on first
        use. A failing built-in raises, unless ``plugin_builtins``.
    group
        an entry-point group whose entries are plugins (:func:`discover`); a plugin that
        cannot be loaded or is refused is skipped, in one line (:meth:`skipped`).
    entry_points
        replaces :func:`importlib.metadata.entry_points` when reading ``group``.
    plugin_builtins
        treat the built-ins as plugins: one whose module is missing is left out quietly,
        one that fails is skipped in one line, and an entry point naming the same module
        takes its place (:func:`discover`).
    key
        the name of an item (default: its ``name`` attribute).
    loader
        ``loader(label, spec) -> item`` instead of :func:`load_spec`.
    of_type
        the class every item must be an instance of (None: any).
    reserved
        names no item may take (``auto`` for the routes).
    unknown
        ``unknown(name, names) -> str``: the message for a name not in the table (default
        "unknown KIND 'x'; choose one of ..."); a did-you-mean is added after it.
    error
        the class of that error (default :class:`~seprank.errors.ParameterError`).
    refused
        ``refused(name) -> str``: one message for every name :meth:`register` refuses
        (empty, reserved or taken) instead of a message for each case.
    key_name
        what the name is called when two plugins claim it (default "KIND name").

    Examples
    --------
    >>> from types import SimpleNamespace as Part
    >>> reg = Registry("shape", builtins=("seprank.errors:ParameterError",),
    ...                key=lambda cls: cls.__name__.lower())
    >>> reg.register(Part(__name__="Circle"), first=True).__name__, reg.names()
    ('Circle', ('circle', 'parametererror'))
    >>> reg.register(Part(__name__="Circle"))
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: a shape named 'circle' is registered already
    >>> reg.unregister("circle").__name__, reg.names()
    ('Circle', ('parametererror',))
    """

    def __init__(self, kind: str, *, builtins: Iterable[str] | Mapping[str, str] = (),
                 group: str | None = None,
                 entry_points: Callable[..., Iterable[Any]] | None = None,
                 plugin_builtins: bool = False, key: Callable[[T], Any] = _name_of,
                 loader: Callable[[str, str], T] | None = None,
                 of_type: type | None = None, reserved: Iterable[str] = (),
                 unknown: Callable[[Any, tuple[str, ...]], str] | None = None,
                 error: type[SeprankError] = ParameterError,
                 refused: Callable[[Any], str] | None = None,
                 key_name: str | None = None) -> None:
        self.kind = kind
        self.group = group
        self._builtins = (dict(builtins) if isinstance(builtins, Mapping)
                          else {spec: spec for spec in builtins})
        self._entry_points = entry_points
        self._plugin_builtins = plugin_builtins
        self._key = key
        self._loader = loader
        self._type = of_type
        self._reserved = frozenset(reserved)
        self._unknown = unknown
        self._error = error
        self._refused = refused
        self._key_name = key_name or f"{kind} name"
        #: the live table, name -> item, in order; filled on first use (:meth:`load`)
        self.table: dict[str, T] = {}
        self._loaded = False
        self._skipped: list[str] = []

    def __repr__(self) -> str:
        state = f"{len(self.table)} loaded" if self._loaded else "not loaded"
        return f"Registry({self.kind!r}, {state})"

    @property
    def _a(self) -> str:
        return f"{'an' if self.kind[:1] in 'aeiou' else 'a'} {self.kind}"

    # ------------------------------------------------------------ loading

    def load(self) -> dict[str, T]:
        """Load the built-ins and plugins now, if not done yet; returns the live table."""
        if self._loaded:
            return self.table
        plugins = self.group is not None or self._plugin_builtins
        sources = (discover(self.group, self._builtins, entry_points=self._entry_points,
                            findable_only=self._plugin_builtins)
                   if plugins else self._builtins)
        table: dict[str, T] = {}
        origin: dict[str, str] = {}
        skipped: list[str] = []
        for label, spec in sources.items():
            builtin = self._builtins.get(label) == spec
            plugin = not builtin or self._plugin_builtins
            try:
                item = self._load_one(label, spec, plugin)
                name = self._checked(item)
                if name in table:
                    raise ParameterError(f"{self._key_name} {name!r} registered twice "
                                         f"({origin[name]} and {spec})")
            except SeprankError as exc:
                if not plugin:
                    raise
                skipped.append(f"{exc}; skipped")
                continue
            table[name], origin[name] = item, spec
        self.table.update(table)
        self._skipped = skipped
        self._loaded = True
        return self.table

    def _load_one(self, label: str, spec: str, plugin: bool) -> T:
        if self._loader is not None:
            return self._loader(label, spec)
        what = f"{self.kind} {label!r}" if label != spec else f"{self.kind} {spec!r}"
        return load_spec(spec, what, plugin=plugin)

    def _table(self) -> dict[str, T]:
        """The loaded table; the skipped plugins' lines are noted again (once per command)."""
        table = self.load()
        for line in self._skipped:
            note(line)
        return table

    def _checked(self, item: T) -> str:
        """The name of ``item``, when it may be registered at all (not its uniqueness)."""
        if self._type is not None and not isinstance(item, self._type):
            raise ParameterError(f"{self._a} must be a {self._type.__name__}, got "
                                 f"{type(item).__name__}")
        name = self._key(item)
        if not isinstance(name, str) or not name:
            raise ParameterError(self._refusal(name, f"{self._a} needs a non-empty str name, "
                                                     f"got {name!r}"))
        if name in self._reserved:
            raise ParameterError(self._refusal(name, f"{name!r} is reserved; it cannot name "
                                                     f"{self._a}"))
        return name

    def _refusal(self, name: Any, text: str) -> str:
        return text if self._refused is None else self._refused(name)

    # ------------------------------------------------------------ asking

    def names(self) -> tuple[str, ...]:
        """The registered names, in order."""
        return tuple(self._table())

    def items(self) -> tuple[T, ...]:
        """The registered items themselves, in order."""
        return tuple(self._table().values())

    def get(self, name: str) -> T:
        """The item called ``name``; for any other name, or a name that is not a ``str``,
        one error line naming the choices (:meth:`unknown_error`)."""
        table = self._table()
        if isinstance(name, str) and name in table:
            return table[name]
        raise self.unknown_error(name)

    def unknown_error(self, name: Any) -> SeprankError:
        """The error for a name not in the table: the choices, then a did-you-mean."""
        names = tuple(self.table)
        if self._unknown is not None:
            text = self._unknown(name, names)
        elif isinstance(name, str):
            text = f"unknown {self.kind} {name!r}; choose one of {', '.join(names) or 'none'}"
        else:
            text = (f"{self.kind} must be a str, one of {', '.join(names) or 'none'}; got "
                    f"{name!r} ({type(name).__name__})")
        hint = did_you_mean(name, names) if isinstance(name, str) else ""
        return self._error(text + hint)

    def skipped(self) -> list[str]:
        """One line per plugin left out when the table was loaded (loading it if needed)."""
        self.load()
        return list(self._skipped)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.load()

    def __len__(self) -> int:
        return len(self.load())

    # ------------------------------------------------------------ changing

    def register(self, item: T, *, replace: bool = False, first: bool = False) -> T:
        """Add ``item`` last (or ``first``); returns it.

        A name already registered is refused in one line unless ``replace``, which puts
        the new item in the old one's place.
        """
        table = self.load()
        name = self._checked(item)
        if name in table:
            if not replace:
                raise ParameterError(self._refusal(name, f"{self._a} named {name!r} is "
                                                         "registered already"))
            table[name] = item
        elif first:
            rest = list(table.items())
            table.clear()
            table.update([(name, item), *rest])
        else:
            table[name] = item
        return item

    def unregister(self, name: str) -> T:
        """Take the item called ``name`` out and return it (unknown: as :meth:`get`)."""
        item = self.get(name)
        del self.table[name]
        return item

    def clear(self) -> None:
        """Forget every item and skipped line; the built-ins and plugins load again on
        next use (for tests, or after installing a plugin). The table stays the same
        dict object."""
        self.table.clear()
        self._skipped = []
        self._loaded = False
