"""The core's one door to the paper wings: registered papers and their bound hooks.

The core (every module of ``seprank`` outside ``seprank.papers``) never imports a
wing. A wing registers itself, as networkx backends do, under the entry-point group
``seprank.papers`` of its distribution's ``pyproject.toml``::

    [project.entry-points."seprank.papers"]
    levine2020 = "seprank.papers.levine2020"

The value names the wing's module, which defines ``PAPER`` (a
:class:`seprank.paper_hooks.paper_record.Paper` with a non-empty ``key``) and may define ``HOOKS``:
a dict from a hook name of :data:`HOOK_NAMES` to ``"module:function"`` (or to the
function itself). This module loads the wings on first use, caches them, and offers
what the core asks of papers: the list of papers (``seprank papers``, erratum sheets,
reports) and the bounds that apply to a network (:func:`network_bounds`, behind
``seprank.separation.network_bounds``) or to an embedding
(:func:`embedding_bounds`). A hook's function is imported only when first called.

Fallback for a plain checkout: when the entry points are not installed (running from
a source tree, or an editable install made before the group existed), the five
built-in wings (:data:`BUILTIN_WINGS`) are imported by name, from here and nowhere
else, so that ``seprank`` works without reinstalling. The table of wings is a
:class:`seprank.registry.Registry` (:data:`WINGS`), the helper the routes and the
engines use too: it reads the entry points, adds the fallback, and skips a broken wing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from seprank.errors import SeprankError
from seprank.paper_hooks.paper_record import Paper
from seprank.plugins import import_plugin
from seprank.registry import Registry

__all__ = ["ENTRY_POINT_GROUP", "BUILTIN_WINGS", "HOOK_NAMES", "Wing", "WINGS", "wings",
           "papers", "paper", "papers_text", "hook_functions", "bound_entry", "network_bounds",
           "embedding_bounds", "clear_cache", "skipped_wings"]

#: the entry-point group a wing registers under
ENTRY_POINT_GROUP = "seprank.papers"
#: the project's own wings (paper key -> module), in the order reports list them
BUILTIN_WINGS = {
    "levine2020": "seprank.papers.levine2020",
    "wies2021": "seprank.papers.wies2021",
    "chapter7": "seprank.papers.chapter7",
    "rank_collapse": "seprank.papers.rank_collapse",
    "amsel": "seprank.papers.amsel",
}
#: the hooks the core calls, with what each receives and returns
HOOK_NAMES = {
    "network_bounds": "(L, d_x, H, d_a, N, residual, value) -> {bound id: bound_entry(...)}: "
                      "the paper's bounds on the separation rank of y_p^i of a network of "
                      "this shape, and whether ``value`` (or None) respects each",
    "embedding_bounds": "(L, r, r_e, embedding, value) -> {bound id: bound_entry(...)}: the "
                        "bounds for a network behind an embedding of rank r with positional "
                        "rank r_e; ``embedding`` is 'vocabulary' or 'convolution'",
}


@dataclass(frozen=True)
class Wing:
    """A loaded wing: its entry-point name, module, paper and hooks (name -> target).

    >>> wing = next(w for w in wings() if w.name == "wies2021")
    >>> wing.module, wing.paper.key, sorted(wing.hooks)
    ('seprank.papers.wies2021', 'wies2021', ['embedding_bounds'])
    """

    name: str
    module: str
    paper: Paper
    hooks: dict[str, Any] = field(default_factory=dict)


def _load(name: str, module: str) -> Wing:
    """The wing ``name`` (module ``module``); one SeprankError line for any defect, an
    import that fails in any way included (:func:`seprank.plugins.import_plugin`)."""
    mod = import_plugin(f"paper wing {name!r}", module)
    paper = getattr(mod, "PAPER", None)
    if not isinstance(paper, Paper) or not paper.key:
        raise SeprankError(f"paper wing {name!r} ({module}) defines no PAPER with a key")
    hooks = dict(getattr(mod, "HOOKS", {}) or {})
    unknown = sorted(set(hooks) - set(HOOK_NAMES))
    if unknown:
        raise SeprankError(f"paper wing {name!r} declares unknown hooks: {', '.join(unknown)} "
                           f"(known: {', '.join(HOOK_NAMES)})")
    return Wing(name, module, paper, hooks)


def _load_wing(name: str, spec: str) -> Wing:
    return _load(name, spec.partition(":")[0].strip())


def _unknown_paper(key: object, keys: tuple[str, ...]) -> str:
    return f"unknown paper {key!r}; known: {', '.join(keys)}"


#: The wings by paper key (:class:`seprank.registry.Registry`): the entry points of
#: :data:`ENTRY_POINT_GROUP`, with :data:`BUILTIN_WINGS` as the fallback of the module
#: docstring; loaded on first use, a broken wing skipped in one line.
WINGS: Registry[Wing] = Registry(
    "paper wing", builtins=BUILTIN_WINGS, group=ENTRY_POINT_GROUP, plugin_builtins=True,
    entry_points=lambda group: entry_points(group=group),  # read at call time (tests patch it)
    loader=_load_wing, key=lambda wing: wing.paper.key, key_name="paper key",
    unknown=_unknown_paper, error=SeprankError)


def wings() -> tuple[Wing, ...]:
    """Every registered wing that loads, loaded once: the built-in ones first, in their
    order. A wing that cannot be imported (whatever its import raises), has no ``PAPER``
    with a key, declares an unknown hook or repeats another wing's key is skipped, and
    its one line noted for the command to print (:func:`seprank.plugins.note`).

    Examples
    --------
    >>> [w.paper.key for w in wings()][:5]
    ['levine2020', 'wies2021', 'chapter7', 'rank_collapse', 'amsel']
    """
    return WINGS.items()


def skipped_wings() -> list[str]:
    """One line per registered wing that did not load (:func:`wings`).

    >>> skipped_wings()
    []
    """
    return WINGS.skipped()


def papers() -> dict[str, Paper]:
    """The registered papers by key, in :func:`wings` order.

    Examples
    --------
    >>> papers()["wies2021"].arxiv
    '2105.03928'
    """
    return {w.paper.key: w.paper for w in wings()}


def paper(key: str) -> Paper:
    """The registered paper ``key``.

    Raises
    ------
    SeprankError
        for an unknown key (one line, with the known keys and the closest one, if any).

    Examples
    --------
    >>> paper("levine2020").year
    2020
    >>> paper("nope")
    Traceback (most recent call last):
    ...
    seprank.errors.SeprankError: unknown paper 'nope'; known: levine2020, wies2021, ...
    """
    return WINGS.get(key).paper


def papers_text() -> str:
    """The registered papers as text (``seprank papers``): per paper its key, its full
    reference and the text file its checks cite, a blank line between papers.

    Examples
    --------
    >>> print(papers_text().split(2 * chr(10))[1])      # blocks are split by a blank line
    wies2021
      Noam Wies, Yoav Levine, Daniel Jannai, Amnon Shashua. Which Transformer architecture \
fits my data? A vocabulary bottleneck in self-attention. Proceedings of the 38th International \
Conference on Machine Learning (ICML 2021), PMLR 139, pp. 11170-11181, 2021. arXiv:2105.03928.
      text: wies2021_vocabulary_bottleneck.txt
    """
    return "\n\n".join(f"{p.key}\n  {p.reference()}\n  text: {p.file}"
                        for p in papers().values()) + "\n"


@cache
def _resolve(target: str) -> Callable[..., Any]:
    module, _, attr = target.partition(":")
    fn = getattr(import_plugin(f"the hook {target!r}", module), attr, None)
    if not callable(fn):
        raise SeprankError(f"the hook {target!r}: {module} has no function {attr!r}")
    return fn


def hook_functions(name: str) -> list[tuple[Wing, Callable[..., Any]]]:
    """(wing, function) for every wing that implements hook ``name``, in wing order.

    Examples
    --------
    >>> [w.paper.key for w, _ in hook_functions("network_bounds")]
    ['levine2020']
    """
    if name not in HOOK_NAMES:
        raise SeprankError(f"unknown hook {name!r}; known: {', '.join(HOOK_NAMES)}")
    out = []
    for wing in wings():
        target = wing.hooks.get(name)
        if target is not None:
            out.append((wing, _resolve(target) if isinstance(target, str) else target))
    return out


def bound_entry(value: Any, statement: str, source: str, kind: str, respected: bool | None,
                **extra: Any) -> dict[str, Any]:
    """One bound as the hooks report it: value (an int, else its str), kind, statement,
    source, whether the measured value respects it, then ``extra`` fields.

    Examples
    --------
    >>> from fractions import Fraction
    >>> bound_entry(Fraction(7, 2), "sep <= 7/2", "a.txt l.1", "upper", True)
    {'value': '7/2', 'kind': 'upper', 'statement': 'sep <= 7/2', 'source': 'a.txt l.1', \
'respected': True}
    """
    v = value if isinstance(value, int) else str(value)
    return {"value": v, "kind": kind, "statement": statement, "source": source,
            "respected": respected, **extra}


def _merged(name: str, *args: Any) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for _, fn in hook_functions(name):
        out.update(fn(*args))
    return out


def network_bounds(L: int, d_x: int, H: int, d_a: int, N: int, residual: bool,
                   value: int | None = None) -> dict[str, dict]:
    """Every registered paper's bounds for this network shape (hook ``network_bounds``).

    Examples
    --------
    >>> b = network_bounds(1, 2, 1, 2, 2, False, value=3)
    >>> b["L-Thm3"]["value"], b["L-Thm3"]["respected"]   # (1 (2 + 1))^1
    (3, True)
    """
    return _merged("network_bounds", L, d_x, H, d_a, N, residual, value)


def embedding_bounds(L: int, r: int, r_e: int, embedding: str, value: int) -> dict[str, dict]:
    """Every registered paper's bounds behind an embedding (hook ``embedding_bounds``).

    Examples
    --------
    >>> embedding_bounds(1, 1, 0, "vocabulary", 2)["W-Thm3"]["value"]
    80
    """
    return _merged("embedding_bounds", L, r, r_e, embedding, value)


def clear_cache() -> None:
    """Forget the loaded wings and hooks (after installing or removing a plugin).

    >>> clear_cache(); len(wings()) >= 5      # loaded again on the next call
    True
    """
    WINGS.clear()
    _resolve.cache_clear()
