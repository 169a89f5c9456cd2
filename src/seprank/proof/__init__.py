"""Step-by-step proof checks: the framework every check under ``proofs/`` uses.

Two separate answers per check (see :mod:`seprank.proof.claims`): the
*verdict* on the printed text, from the steps (below), and the claim's
*outcome* (holds / holds-corrected / false / open) with the *strength* of the
evidence (proof / instances / none) and the *errata* found on the way.

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

A check that declares its claim, records an erratum and concludes:

>>> import math
>>> claim = Claim("lemma", "for all n >= 1: n! >= 2^(n-1)", "demo l.7")
>>> def lemma(ctx):
...     with ctx.step("as printed, with n >= 0", source="demo l.7") as s:
...         s.erratum("l.7", "n >= 0", "n >= 1", "missing-hypothesis",
...                   hypothesis="n >= 1", instance={"n": 0, "n!": 1, "2^(n-1)": "1/2"},
...                   message="at n = 0 the right side 1/2 is no integer power")
...     with ctx.step("n! >= 2^(n-1) by induction: (n+1)! = (n+1) n! >= 2 * 2^(n-1)",
...                   source="demo l.7", corrected=True) as s:
...         s.verifies(*ctx.errata)
...         s.require(all(math.factorial(n) >= 2 ** (n - 1) for n in range(1, 30)), "no")
...     ctx.conclude("holds-corrected", "proof", "induction on n", basis="argument")
>>> res = run_check(CheckSpec("demo2", "n!", "demo", lemma, claim=claim))
>>> res.verdict, res.outcome, res.strength, res.errata[0].verified
('refuted', 'holds-corrected', 'proof', True)
"""

from seprank.paper_hooks.paper_record import Paper
from seprank.proof.claims import (
    FALSE,
    HOLDS,
    HOLDS_CORRECTED,
    INSTANCES,
    NONE,
    OPEN,
    PROOF,
    Claim,
    Erratum,
)
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
from seprank.proof.registry import CheckRegistry, check, registered_checks
from seprank.proof.report.figures import Figure
from seprank.proof.runner import order_checks, run_checks

__all__ = [
    "HOLDS",
    "HOLDS_CORRECTED",
    "FALSE",
    "OPEN",
    "PROOF",
    "INSTANCES",
    "NONE",
    "Claim",
    "Erratum",
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
    "CheckRegistry",
    "Paper",
    "Figure",
    "registered_checks",
    "order_checks",
    "run_check",
    "run_checks",
]
