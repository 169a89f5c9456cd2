"""Assertions for a plugin's test suite: does each check reach a consistent answer?

A refuted check is a finding about a paper, not a failing test. What these
assertions test is that a check reaches a verdict, that no step raised, that
the verdict agrees with its steps' evidence, and that the claim's outcome obeys
the rules of :mod:`seprank.proof.claims` without any rule having to overrule
the check (a violation means the check asked for more than its evidence gives).
The project's own ``proofs/test_checks.py`` uses them; a plugin's tests can
too::

    import pytest
    from seprank.proof import CheckRegistry
    from seprank.proof.testing import assert_consistent, run_and_assert

    REG = CheckRegistry()
    REG.load_package("my_checks")

    @pytest.mark.parametrize("check_id", sorted(REG.specs()))
    def test_check(check_id):
        run_and_assert(REG[check_id])
"""

from __future__ import annotations

from seprank.proof.framework import (
    ERROR,
    FAILED,
    PASSED,
    REFUTED,
    VERDICTS,
    VERIFIED,
    CheckResult,
    CheckSpec,
    run_check,
)

__all__ = ["assert_consistent", "run_and_assert"]


def assert_consistent(spec: CheckSpec, result: CheckResult) -> None:
    """Raise AssertionError when ``result`` (of ``spec``) breaks a rule of the framework.

    Examples
    --------
    A check that concludes "holds" from a proof passes; one whose step raised
    does not:

    >>> from seprank.proof import Claim
    >>> claim = Claim("claim", "2 + 2 = 4", "arithmetic", universal=False)
    >>> def body(ctx):
    ...     with ctx.step("2 + 2 = 4", source="arithmetic") as s:
    ...         s.require(2 + 2 == 4, "no")
    ...     ctx.conclude("holds", "proof", "evaluated", basis="exhaustive")
    >>> spec = CheckSpec("demo", "demo", "arithmetic", body, claim=claim)
    >>> assert_consistent(spec, run_check(spec))
    >>> def broken(ctx):
    ...     with ctx.step("1 / 0", source="arithmetic"):
    ...         1 / 0
    >>> bad = CheckSpec("bad", "bad", "arithmetic", broken, claim=claim)
    >>> assert_consistent(bad, run_check(bad))
    Traceback (most recent call last):
    ...
    AssertionError: steps raised: ...
    """
    errors = [f"{s.claim}: {s.message}\n{s.evidence.get('traceback', '')}"
              for s in result.steps if s.status == ERROR]
    assert not errors, "steps raised: " + "\n".join(errors)
    assert result.verdict in VERDICTS
    assert result.steps, "a check must have at least one step"
    for step in result.steps:
        assert step.claim and step.source, f"step without claim or source: {step}"
    if result.verdict == VERIFIED:
        assert all(s.status == PASSED for s in result.steps)
    if result.verdict == REFUTED:
        failed = [s for s in result.steps if s.status == FAILED]
        assert failed and all(s.message and s.evidence for s in failed), \
            "a refutation must carry a message and its counterexample as evidence"
    assert spec.claim is not None, "declare the claim: @check(..., claim=Claim(...))"
    assert spec.claim.main_result == (spec.claim.kind in ("theorem", "corollary")), \
        "main_result is true exactly for theorems and corollaries"
    assert not result.violations, f"the rules overruled the check: {result.violations}"
    assert all(s.errata for s in result.steps if s.status == FAILED), \
        "every failed step carries an erratum"
    assert all(e.instance is not None for e in result.errata), "an erratum shows its instance"
    if result.strength == "instances":
        assert result.settled.count >= 1 and isinstance(result.settled.binding, bool)
    result.to_dict()  # the report serializes


def run_and_assert(spec: CheckSpec, full: bool = False, outcome: str | None = None
                   ) -> CheckResult:
    """Run ``spec`` (without dependencies), assert it is consistent, return the result.

    ``outcome``: the outcome the test expects (holds, holds-corrected, false, open).

    Examples
    --------
    >>> from seprank.proof import Claim
    >>> def body(ctx):
    ...     with ctx.step("3 is odd", source="arithmetic") as s:
    ...         s.require(3 % 2 == 1, "no")
    ...     ctx.conclude("holds", "proof", "evaluated", basis="exhaustive")
    >>> spec = CheckSpec("odd", "3 is odd", "arithmetic", body,
    ...                  claim=Claim("claim", "3 is odd", "arithmetic", universal=False))
    >>> run_and_assert(spec, outcome="holds").verdict
    'verified'
    """
    result = run_check(spec, full=full)
    assert_consistent(spec, result)
    if outcome is not None:
        reason = result.settled.reason if result.settled is not None else ""
        assert result.outcome == outcome, f"{spec.id}: outcome {result.outcome}: {reason}"
    return result
