"""One step of a check verified for every size by symbolic computations (not a check module).

The leading underscore keeps the check loader away. Each computation is a function that
returns a dictionary of evidence with a ``holds`` entry (the symbolic identities of
seprank.papers.wies2021.index_identities, seprank.papers.amsel.harmonics,
seprank.papers.rank_collapse.path_induction).

A step says what kind of evidence it is (issue 30): ``symbolic`` when its computations are
identities that could have failed, each checked again with the piece of data or the
hypothesis it uses changed (``mutants``: function name -> {description: changed data},
the function called with the changed data as its one argument must then fail); ``prose``
when the step's claim is an argument in words of which the computations check parts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def symbolic_step(ctx, claim: str, source: str, *computations: Callable[..., dict[str, Any]],
                  kind: str, mutants: dict[str, dict[str, Any]] | None = None,
                  corrected: bool = False, verifies: tuple = ()) -> bool:
    """Run ``computations`` in one all-sizes step of evidence ``kind``; True when all hold.

    The evidence is each computation's dictionary, under its function name; the step fails
    (naming the computations that do not hold) unless every ``holds`` is True. With
    ``kind="symbolic"`` every computation names its mutants (``mutants[name]``), and each
    is also run on them (:meth:`seprank.proof.steps.StepHandle.could_fail`); ``verifies``:
    errata whose correction this step checks.
    """
    mutants = mutants or {}
    if kind == "symbolic":
        missing = [fn.__name__ for fn in computations if not mutants.get(fn.__name__)]
        if missing:
            raise ValueError(f"a symbolic step shows how each identity could fail: no mutants "
                             f"for {', '.join(missing)}")
    with ctx.step(claim, source=source, corrected=corrected, kind=kind) as s:
        found = {fn.__name__: fn() for fn in computations}
        s.record(**found)
        for fn in computations:
            if fn.__name__ in mutants:
                s.could_fail(fn.__name__, lambda data, fn=fn: fn() if data is None else fn(data),
                             None, mutants[fn.__name__])
        if verifies:
            s.verifies(*verifies)
        failing = [name for name, ev in found.items() if not ev.get("holds")]
        return s.require(not failing, "a symbolic computation fails: " + ", ".join(failing))
