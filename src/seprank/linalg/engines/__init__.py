"""The modular engines, in one registry, and the methods of ``seprank.rank``.

Each engine is a :class:`~seprank.linalg.engines.protocol.ModularEngine`
(the protocol, :mod:`seprank.linalg.engines.protocol`): it says what it can
run, what it prefers, its ``auto`` prime range, its label in results and the
certificate parts it gives, and computes the rank profile mod p. The planner
asks the engines of :data:`REGISTRY` in order (:func:`seprank.plan_rank`), so
``seprank.rank``'s ``engine=`` choices, the CLI's ``--engine`` choices, the
manual's engine table (docs/ranks.md) and the engine test parametrization (tests/test_engines.py)
all follow it. Adding an engine is one module that builds its
``ModularEngine`` and one line in :data:`BUILTIN_ENGINES` (or a
:func:`register_engine` call in the caller's code); :func:`unregister_engine` takes it
out again. The table is a :class:`seprank.registry.Registry` (:data:`ENGINES`), the
helper the routes and the paper wings use too.

The methods of ``seprank.rank(method=...)`` have their own registry,
:data:`METHOD_REGISTRY` (:mod:`seprank.linalg.engines.methods`); the manual's
method and engine tables (docs/ranks.md) are :func:`method_table`, written into the page
by :func:`with_method_table`.
"""

from __future__ import annotations

from seprank.linalg.engines.methods import (
    METHOD_REGISTRY,
    RANK_METHODS,
    Method,
    method_names,
    methods_taking_engine,
    replace_table,
    tables,
)
from seprank.linalg.engines.protocol import ModularEngine, Verdict, power_text
from seprank.registry import Registry

__all__ = ["ModularEngine", "Verdict", "power_text", "BUILTIN_ENGINES", "ENGINES", "REGISTRY",
           "register_engine", "unregister_engine", "engine_names", "get_engine", "Method",
           "RANK_METHODS", "METHOD_REGISTRY", "method_names", "methods_taking_engine",
           "method_table", "with_method_table"]

#: The built-in engines (``"module:attribute"`` of each ``ModularEngine``), in the order
#: the planner asks them.
BUILTIN_ENGINES: tuple[str, ...] = (
    "seprank.linalg.engines.flint_nmod:ENGINE",
    "seprank.linalg.engines.numba_lu:ENGINE",
    "seprank.linalg.engines.cuda_lu:ENGINE",
)

#: The engine table (:class:`seprank.registry.Registry`), loaded when this package is
#: imported (the engine modules are light: each imports its library on first use).
ENGINES: Registry[ModularEngine] = Registry("engine", builtins=BUILTIN_ENGINES,
                                            of_type=ModularEngine)

#: Every modular engine, by name, in the order the planner asks them (and of the
#: CLI's choices): the live dict of :data:`ENGINES`. Change it through register_engine /
#: unregister_engine.
REGISTRY: dict[str, ModularEngine] = ENGINES.load()


def register_engine(engine: ModularEngine, *, replace: bool = False) -> ModularEngine:
    """Add ``engine`` at the end of :data:`REGISTRY` (the planner asks it last).

    A name already registered is refused unless ``replace`` (then the engine
    keeps its place). Returns the engine.

    Examples
    --------
    >>> import dataclasses
    >>> twin = dataclasses.replace(get_engine("flint"), name="flint2")
    >>> register_engine(twin).name, engine_names()[-1]
    ('flint2', 'flint2')
    >>> register_engine(twin)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: an engine named 'flint2' is registered already
    >>> unregister_engine("flint2").name, "flint2" in engine_names()
    ('flint2', False)
    """
    return ENGINES.register(engine, replace=replace)


def unregister_engine(name: str) -> ModularEngine:
    """Take the engine called ``name`` out of :data:`REGISTRY`; returns it.

    >>> unregister_engine("tpu")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: unknown engine 'tpu'; choose one of flint, numba, cuda
    """
    return ENGINES.unregister(name)


def engine_names() -> tuple[str, ...]:
    """Names of the registered engines.

    >>> engine_names()
    ('flint', 'numba', 'cuda')
    """
    return ENGINES.names()


def get_engine(name: str) -> ModularEngine:
    """The engine called ``name`` (ParameterError for an unknown name or a non-str; a
    close name is suggested).

    >>> get_engine("numba").max_prime == 2**26
    True
    >>> get_engine("flnt")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: unknown engine 'flnt'; choose one of flint, numba, cuda; \
did you mean flint?
    """
    return ENGINES.get(name)


def method_table() -> str:
    """The manual's tables of methods and modular engines (markdown), from the registries.

    Examples
    --------
    >>> print(method_table().splitlines()[2])
    | method | what it does | kind | needs |
    """
    return tables(REGISTRY.values())


def with_method_table(text: str) -> str:
    """``text`` (docs/ranks.md) with the block between the method-table markers regenerated.

    Examples
    --------
    >>> from seprank.linalg.engines.methods import BEGIN, END
    >>> old = f"intro\\n{BEGIN}\\nstale\\n{END}\\nrest"
    >>> new = with_method_table(old)
    >>> new.startswith("intro") and new.endswith("rest") and "| `cuda` |" in new
    True
    """
    return replace_table(text, method_table())
