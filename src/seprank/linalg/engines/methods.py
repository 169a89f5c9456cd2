"""The methods of ``seprank.rank(method=...)``, in one registry, and the manual's tables.

:data:`METHOD_REGISTRY` holds each method's name, what it does, the kind of
answer, what it needs, the method that runs for it and the engine it fixes
(``cuda`` runs ``modular`` on the ``cuda`` engine), and whether it takes
``engine=``. ``seprank.linalg.METHODS``, the CLI's ``--method`` choices and
help, the planner's argument checks and the manual's method table (docs/ranks.md)
(:func:`method_table`, between the markers ``<!-- method-table:begin -->`` and
``<!-- method-table:end -->``; a test checks it; rewrite it with
``p = pathlib.Path("docs/ranks.md"); p.write_text(with_method_table(p.read_text()))``)
all come from it. The table of engines below it comes from the engine registry
(:data:`seprank.linalg.engines.REGISTRY`), passed in by
:func:`seprank.linalg.engines.method_table`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from seprank.linalg.engines.protocol import ModularEngine, power_text
from seprank.registry import Registry

__all__ = ["Method", "RANK_METHODS", "METHOD_REGISTRY", "method_names", "methods_taking_engine",
           "tables", "replace_table"]


@dataclass(frozen=True)
class Method:
    """One value of ``seprank.rank(method=...)``: what it does, what it answers, what it needs.

    ``runs`` is the method that computes (default: itself), ``engine`` the
    engine it fixes (None: chosen by the planner or ``engine=``), and
    ``takes_engine`` whether ``engine=`` may be given with it.

    Examples
    --------
    >>> m = METHOD_REGISTRY["float"]
    >>> m.name, m.kind
    ('float', '`float_estimate`')
    >>> METHOD_REGISTRY["cuda"].runs, METHOD_REGISTRY["cuda"].engine
    ('modular', 'cuda')
    """

    name: str
    does: str
    kind: str
    needs: str
    runs: str = ""
    engine: str | None = None
    takes_engine: bool = False

    def __post_init__(self) -> None:
        if not self.runs:
            object.__setattr__(self, "runs", self.name)


#: The methods' table (:class:`seprank.registry.Registry`); ``RANK_METHODS.get(name)`` is the
#: method called ``name``, or one error line naming the choices.
RANK_METHODS: Registry[Method] = Registry("method", of_type=Method)
for _method in (
    Method("auto", "rank mod a prime drawn at random (recorded in `primes`), exact when "
           "full; else a second random prime; else, from 200 rows, `multimodular` with a "
           "random first prime; else `fmpz_mat.rank`. Never a float. The default",
           "`exact`", "python-flint; numba from 600 rows", takes_engine=True),
    Method("exact", "python-flint `fmpz_mat.rank` (fraction-free elimination)",
           "`exact`", "python-flint"),
    Method("modular", "rank mod one prime (default 2^31 - 1, or 1048573 on numba) on a "
           "modular engine (below; `--engine`, default by size: numba from 600 rows and "
           "columns)", "`lower_bound`, or `exact` when full", "an engine below",
           takes_engine=True),
    Method("multimodular", "ranks mod primes plus kernel vectors by p-adic lifting, "
           "verified exactly", "`exact` (else `lower_bound`)", "python-flint, numba"),
    Method("float", "numpy SVD, with tolerance and singular-value gap",
           "`float_estimate`", "numpy"),
    Method("cuda", "`modular` on the `cuda` engine", "as `modular`",
           "numba-cuda and an NVIDIA GPU", runs="modular", engine="cuda"),
):
    RANK_METHODS.register(_method)
del _method

#: Every method of ``seprank.rank``, by name (the order of ``seprank.linalg.METHODS`` and
#: of the CLI): the live dict of :data:`RANK_METHODS`.
METHOD_REGISTRY: dict[str, Method] = RANK_METHODS.table


def method_names() -> tuple[str, ...]:
    """Names of the methods of ``seprank.rank``, in the registry's order.

    >>> method_names()
    ('auto', 'exact', 'modular', 'multimodular', 'float', 'cuda')
    """
    return RANK_METHODS.names()


def methods_taking_engine() -> tuple[str, ...]:
    """The methods with which ``engine=`` may be given.

    >>> methods_taking_engine()
    ('auto', 'modular')
    """
    return tuple(m.name for m in METHOD_REGISTRY.values() if m.takes_engine)


BEGIN = ("<!-- method-table:begin: generated from seprank.linalg.engines by "
         "with_method_table(); edit the registry, not this block -->")
END = "<!-- method-table:end -->"


def tables(engines: Iterable[ModularEngine]) -> str:
    """The manual's tables of methods and of the given engines (markdown).

    Examples
    --------
    >>> print(tables([]).splitlines()[2])
    | method | what it does | kind | needs |
    """
    lines = ["Methods (`seprank.linalg.METHODS`; the CLI's `--method` takes the same list):",
             "", "| method | what it does | kind | needs |", "|---|---|---|---|"]
    lines += [f"| `{m.name}` | {m.does} | {m.kind} | {m.needs} |"
              for m in METHOD_REGISTRY.values()]
    lines += ["", "Modular engines (`seprank.linalg.engines.REGISTRY`; `engine=` and the CLI's "
              "`--engine`):", "", "| engine | what it is | prime limit | default prime "
              "| needs |", "|---|---|---|---|---|"]
    lines += [f"| `{e.name}` | {e.description} | {power_text(e.max_prime)} | "
              f"{power_text(e.default_prime)} | {e.needs} |" for e in engines]
    return "\n".join(lines)


def replace_table(text: str, table: str) -> str:
    """``text`` with the block between the method-table markers replaced by ``table``.

    Examples
    --------
    >>> replace_table(f"intro\\n{BEGIN}\\nstale\\n{END}\\nrest", "new").splitlines()[2]
    'new'
    """
    from seprank.errors import InputError

    try:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
    except ValueError:
        raise InputError("the method-table markers are missing") from None
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"
