"""The modular engines, in one registry, and the methods of ``seprank.rank``.

Each engine is a :class:`~seprank.linalg.engines.protocol.ModularEngine`
(the protocol, :mod:`seprank.linalg.engines.protocol`): it says what it can
run, what it prefers, its ``auto`` prime range, its label in results and the
certificate parts it gives, and computes the rank profile mod p. The planner
asks the engines of :data:`REGISTRY` in order (:func:`seprank.plan_rank`), so
``seprank.rank``'s ``engine=`` choices, the CLI's ``--engine`` choices, the
manual's engine table (docs/ranks.md) and the engine test parametrization (tests/test_engines.py)
all follow it. Adding an engine is one module that builds its
``ModularEngine`` and one :func:`register_engine` line (below, or in the
caller's code); :func:`unregister_engine` takes it out again.

The methods of ``seprank.rank(method=...)`` have their own registry,
:data:`METHOD_REGISTRY` (:mod:`seprank.linalg.engines.methods`); the manual's
method and engine tables (docs/ranks.md) are :func:`method_table`, written into the page
by :func:`with_method_table`.
"""

from __future__ import annotations

from seprank.linalg.engines import cuda_lu, flint_nmod, numba_lu
from seprank.linalg.engines.methods import (
    METHOD_REGISTRY,
    Method,
    method_names,
    methods_taking_engine,
    replace_table,
    tables,
)
from seprank.linalg.engines.protocol import ModularEngine, Verdict, power_text

__all__ = ["ModularEngine", "Verdict", "power_text", "REGISTRY", "register_engine",
           "unregister_engine", "engine_names", "get_engine", "Method", "METHOD_REGISTRY",
           "method_names", "methods_taking_engine", "method_table", "with_method_table"]


#: Every modular engine, by name, in the order the planner asks them (and of the
#: CLI's choices). Change it through register_engine / unregister_engine.
REGISTRY: dict[str, ModularEngine] = {}


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
    from seprank.errors import ParameterError

    if not isinstance(engine, ModularEngine):
        raise ParameterError(f"an engine must be a ModularEngine, got {type(engine).__name__}")
    if not isinstance(engine.name, str) or not engine.name:
        raise ParameterError("an engine needs a non-empty name")
    if engine.name in REGISTRY and not replace:
        raise ParameterError(f"an engine named {engine.name!r} is registered already")
    REGISTRY[engine.name] = engine
    return engine


def unregister_engine(name: str) -> ModularEngine:
    """Take the engine called ``name`` out of :data:`REGISTRY`; returns it.

    >>> unregister_engine("tpu")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: unknown engine 'tpu'; choose one of flint, numba, cuda
    """
    engine = get_engine(name)
    del REGISTRY[name]
    return engine


register_engine(flint_nmod.ENGINE)
register_engine(numba_lu.ENGINE)
register_engine(cuda_lu.ENGINE)


def engine_names() -> tuple[str, ...]:
    """Names of the registered engines.

    >>> engine_names()
    ('flint', 'numba', 'cuda')
    """
    return tuple(REGISTRY)


def get_engine(name: str) -> ModularEngine:
    """The engine called ``name`` (ParameterError for an unknown name or a non-str).

    >>> get_engine("numba").max_prime == 2**26
    True
    """
    from seprank.errors import ParameterError

    if not isinstance(name, str):
        raise ParameterError(f"engine must be a str, one of {', '.join(REGISTRY)}; got "
                             f"{name!r} ({type(name).__name__})")
    try:
        return REGISTRY[name]
    except KeyError:
        raise ParameterError(f"unknown engine {name!r}; choose one of "
                             f"{', '.join(REGISTRY)}") from None


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
