"""One step of a check verified for every size by symbolic computations (not a check module).

The leading underscore keeps the check loader away. Each computation is a function that
returns a dictionary of evidence with a ``holds`` entry (the symbolic identities of
seprank.papers.wies2021.index_identities, seprank.papers.amsel.harmonics,
seprank.papers.rank_collapse.path_induction).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def symbolic_step(ctx, claim: str, source: str, *computations: Callable[[], dict[str, Any]],
                  corrected: bool = False, verifies: tuple = ()) -> bool:
    """Run ``computations`` in one step of scope ``all-sizes``; True when every one holds.

    The evidence is each computation's dictionary, under its function name; the step fails
    (naming the computations that do not hold) unless every ``holds`` is True; ``verifies``:
    errata whose correction this step checks.
    """
    with ctx.step(claim, source=source, corrected=corrected, scope="all-sizes") as s:
        found = {fn.__name__: fn() for fn in computations}
        s.record(**found)
        if verifies:
            s.verifies(*verifies)
        failing = [name for name, ev in found.items() if not ev.get("holds")]
        return s.require(not failing, "a symbolic computation fails: " + ", ".join(failing))
