"""Step-by-step proof checks: the framework every check under ``proofs/`` uses.

A *check* verifies one row of the mission map (a lemma, theorem or claim of one
of the papers) as a sequence of *steps*. Each step states a claim in our own
words with its source (paper file and line or equation), runs a computation
inside a ``with ctx.step(...)`` block, records evidence, and ends with a status.
The check's verdict follows from its steps:

* ``verified``: every step passed, exactly, for the instances listed;
* ``refuted``: some step failed; its evidence holds the counterexample;
* ``inconclusive``: no step failed but some step could not decide (or raised).

Example
-------
>>> from seprank.proof import CheckSpec, run_check
>>> def body(ctx):
...     with ctx.step("1 + 1 = 2 in the integers", source="arithmetic") as s:
...         s.record(lhs=1 + 1)
...         s.require(1 + 1 == 2, "addition is broken")
>>> spec = CheckSpec(id="demo", title="a demo", source="none", func=body)
>>> run_check(spec).verdict
'verified'
"""

from seprank.proof.framework import (
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PASSED,
    REFUTED,
    VERIFIED,
    CheckContext,
    CheckResult,
    CheckSpec,
    Step,
    StepHandle,
    run_check,
)
from seprank.proof.registry import check, registered_checks
from seprank.proof.runner import order_checks, run_checks

__all__ = [
    "VERIFIED",
    "REFUTED",
    "INCONCLUSIVE",
    "PASSED",
    "FAILED",
    "ERROR",
    "CheckContext",
    "CheckResult",
    "CheckSpec",
    "Step",
    "StepHandle",
    "check",
    "registered_checks",
    "order_checks",
    "run_check",
    "run_checks",
]
