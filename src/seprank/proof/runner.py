"""Order checks by what they rely on (networkx) and run them.

A check may declare ``depends``: the ids of checks whose results it builds on
(L-Omega relies on L-Lemma7 and L-Lemma8, say). The runner runs the requested
checks together with everything they rely on, in a topological order of that
graph (ties broken by id, so the order is reproducible), and refuses a cycle
or an unknown id with a one-line error. A check whose claim restates others
(``Claim(restates=...)``) runs after them too. After each check it records the
outcomes of its dependencies and applies the rule that a ``false`` dependency
blocks ``holds`` (:func:`seprank.proof.rules.apply_dependencies`) and that a
restated ``false`` claim is ``false`` (:func:`seprank.proof.rules.apply_restatements`) and
that a conclusion's "rests on" sentence comes from the outcomes, in this run, of the checks
it takes as given (:func:`seprank.proof.rules.apply_given`);
after the last check, a correction verified in one erratum is marked verified in
every erratum that shares it (:func:`seprank.proof.rules.share_verified_corrections`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from seprank.errors import SeprankError
from seprank.proof.framework import CheckResult, CheckSpec, Step, run_check
from seprank.proof.rules import (
    apply_dependencies,
    apply_given,
    apply_restatements,
    share_verified_corrections,
)

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["dependency_graph", "order_checks", "run_checks"]


def _prerequisites(spec: CheckSpec) -> tuple[str, ...]:
    """The checks ``spec`` must run after: its dependencies and the claims it restates."""
    restates = spec.claim.restates if spec.claim is not None else ()
    return tuple(spec.depends) + tuple(r for r in restates if r not in spec.depends)


def dependency_graph(specs: dict[str, CheckSpec]) -> nx.DiGraph:
    """Directed graph with an edge dep -> check for every declared dependency.

    A check whose claim restates another (``Claim(restates=...)``) gets an edge from
    it as well.

    Examples
    --------
    >>> def body(ctx):
    ...     pass
    >>> specs = {"a": CheckSpec("a", "A", "none", body),
    ...          "b": CheckSpec("b", "B", "none", body, depends=("a",))}
    >>> list(dependency_graph(specs).edges)
    [('a', 'b')]
    """
    import networkx as nx  # on first use: `import seprank.proof` stays light

    graph = nx.DiGraph()
    graph.add_nodes_from(specs)
    for spec in specs.values():
        for dep in _prerequisites(spec):
            if dep not in specs:
                raise SeprankError(f"check {spec.id!r} depends on unknown check {dep!r}")
            graph.add_edge(dep, spec.id)
    return graph


def order_checks(specs: dict[str, CheckSpec], ids: Iterable[str] | None = None,
                 *, with_dependencies: bool = True) -> list[str]:
    """The ids to run, dependencies first.

    Raises
    ------
    SeprankError
        for an unknown id or a dependency cycle (the cycle is named).

    Examples
    --------
    "c" relies on "b", which relies on "a"; asking for "c" brings both along:

    >>> def body(ctx):
    ...     pass
    >>> specs = {"c": CheckSpec("c", "C", "none", body, depends=("b",)),
    ...          "b": CheckSpec("b", "B", "none", body, depends=("a",)),
    ...          "a": CheckSpec("a", "A", "none", body)}
    >>> order_checks(specs, ["c"]), order_checks(specs, ["c"], with_dependencies=False)
    (['a', 'b', 'c'], ['c'])
    """
    import networkx as nx

    graph = dependency_graph(specs)
    if not nx.is_directed_acyclic_graph(graph):
        cycle = nx.find_cycle(graph)
        path = " -> ".join([u for u, _ in cycle] + [cycle[0][0]])
        raise SeprankError(f"checks depend on each other in a cycle: {path}")
    if ids is None:
        wanted = set(specs)
    else:
        wanted = set()
        for cid in ids:
            if cid not in specs:
                from seprank.errors import did_you_mean

                raise SeprankError(f"unknown check id {cid!r}{did_you_mean(cid, specs)} "
                                   f"(`seprank prove --list` lists the {len(specs)} ids)")
            wanted.add(cid)
            if with_dependencies:
                wanted |= nx.ancestors(graph, cid)
    return [cid for cid in nx.lexicographical_topological_sort(graph) if cid in wanted]


class Reporter:
    """Callbacks the runner calls as it goes; the default does nothing.

    Examples
    --------
    A reporter that prints each verdict:

    >>> class Verdicts(Reporter):
    ...     def check_done(self, result):
    ...         print(result.id, result.verdict)
    >>> def body(ctx):
    ...     with ctx.step("0 < 1") as s:
    ...         s.require(0 < 1, "no")
    >>> _ = run_checks({"a": CheckSpec("a", "A", "none", body)}, reporter=Verdicts())
    a verified
    """

    def start(self, ids: list[str], specs: dict[str, CheckSpec]) -> None: ...

    def check_started(self, spec: CheckSpec) -> None: ...

    def step_done(self, spec: CheckSpec, step: Step) -> None: ...

    def check_done(self, result: CheckResult) -> None: ...

    def finish(self, results: list[CheckResult]) -> None: ...


def run_checks(specs: dict[str, CheckSpec], ids: Iterable[str] | None = None, *,
               full: bool = False, reporter: Reporter | None = None,
               with_dependencies: bool = True) -> list[CheckResult]:
    """Run the checks ``ids`` (all when None) and their dependencies, in order.

    Examples
    --------
    >>> def passes(ctx):
    ...     with ctx.step("2 + 2 = 4") as s:
    ...         s.require(2 + 2 == 4, "no")
    >>> def fails(ctx):
    ...     with ctx.step("2 + 2 = 5") as s:
    ...         s.require(2 + 2 == 5, "2 + 2 is 4")
    >>> specs = {"p": CheckSpec("p", "P", "none", passes),
    ...          "f": CheckSpec("f", "F", "none", fails, depends=("p",))}
    >>> [(r.id, r.verdict) for r in run_checks(specs, ["f"])]
    [('p', 'verified'), ('f', 'refuted')]
    """
    order = order_checks(specs, ids, with_dependencies=with_dependencies)
    reporter = reporter or Reporter()
    reporter.start(order, specs)
    results = []
    done: dict[str, CheckResult] = {}
    for cid in order:
        spec = specs[cid]
        reporter.check_started(spec)
        def on_step(step: Step, spec: CheckSpec = spec) -> None:
            reporter.step_done(spec, step)

        result = run_check(spec, full=full, on_step=on_step)
        result.dependency_outcomes = {d: done[d].outcome for d in spec.depends if d in done}
        if result.settled is not None:
            apply_dependencies(result.settled, result.dependency_outcomes)
            restates = spec.claim.restates if spec.claim is not None else ()
            restated = {d: done[d].settled for d in restates
                        if d in done and done[d].settled is not None}
            if restated:
                apply_restatements(result.settled, restated)
            if result.settled.given:
                apply_given(result.settled, {g: done[g].settled if g in done else None
                                             for g in result.settled.given})
        done[cid] = result
        results.append(result)
        reporter.check_done(result)
    share_verified_corrections(results)
    reporter.finish(results)
    return results
