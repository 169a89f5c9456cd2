"""The rules that turn a check's conclusion into the outcome a report shows.

A check concludes what it believes (:class:`~seprank.proof.claims.Conclusion`);
:func:`settle` applies the rules below and returns the
:class:`~seprank.proof.claims.Settled` outcome. A rule that changes what the check
asked for is listed in ``violations``, and the outcome becomes what the rule allows.

* sampling never gives ``holds`` for a universal claim: ``holds`` with strength
  ``instances`` (or ``none``) becomes ``open`` ("consistent on N instances");
* strength ``proof`` names its ``basis`` (``identity``, ``exhaustive``,
  ``certificate``, ``argument``); ``exhaustive`` counts as a proof only for a
  claim with ``universal=False`` or with a ``reduction`` (why the finite range
  covers every case); otherwise it is instance evidence;
* a certificate proves an instance: ``holds`` (or ``holds-corrected``) with basis
  ``certificate`` needs a claim with ``universal=False`` (an existence claim or one
  instance), else it is instance evidence and the claim ``open``; ``false`` with
  basis ``certificate`` refutes a universal claim (one counterexample suffices) but
  not an ``asymptotic`` one (a rate or a limit): that needs basis ``argument`` with
  every step valid for all sizes, else the claim stays ``open``;
* basis ``argument`` means: the conclusion's ``reason`` states a general
  argument (valid for every case of the claim), and every step of it is a
  step of the check that verifies it exactly (symbolically, or at instances
  where a symbolic check is out of reach); sampling the claim itself is not an
  argument. The settled result lists the passed steps of the argument whose
  scope is not ``all-sizes`` (``steps_at_sizes``, see :mod:`seprank.proof.strength`):
  the argument is reported as holding for all sizes only when that list is empty;
* strength ``instances`` needs ``count >= 1`` and ``binding`` (True/False);
* ``holds`` is impossible with an erratum in the statement (``in_statement``):
  the printed statement is then false, at best ``holds-corrected``;
* ``holds-corrected`` needs at least one verified correction of an erratum in
  the statement;
* ``false`` needs a counterexample: a failed step with evidence, covered by a
  ``false-statement`` erratum in the statement;
* every failed step is covered by an erratum; a step that raised leaves the
  claim ``open``.

Applied by the runner after a check ran, with the outcomes of other checks:

* a dependency whose outcome is ``false`` blocks ``holds``/``holds-corrected``
  unless the conclusion records ``own_argument`` (:func:`apply_dependencies`);
* a claim that restates (``Claim(restates=...)``) a check whose outcome is
  ``false`` is ``false`` too, unless ``own_argument`` says how it differs
  (:func:`apply_restatements`);
* a correction verified in one erratum is verified in every erratum with the same
  corrected text or ``correction_id`` (:func:`share_verified_corrections`);
* a conclusion that takes other checks' outcomes as given (``ctx.conclude(...,
  given=ids)``) gets its "rests on" sentence from their outcomes in the same run, and
  ``holds``, ``holds-corrected`` or ``false`` resting on one whose outcome in the run is
  ``open`` or ``false`` becomes ``open`` (:func:`apply_given`; one that did not run, as
  with ``--no-deps``, is named "not run" and blocks nothing, like an unknown dependency
  in :func:`apply_dependencies`): no reason names a dependency's outcome by hand.

Example
-------
>>> from seprank.proof import CheckSpec, run_check
>>> claim = Claim("theorem", "log sep = O~(L r)", "demo l.1", asymptotic=True)
>>> def body(ctx):
...     with ctx.step("at L = 9, r = 8: log sep exceeds 9 * 8 * 10", source="demo l.1",
...                   scope="instance") as s:
...         s.erratum("l.1", "O~(L r)", "Theta(L r^2)", "false-statement", instance={"L": 9})
...     ctx.conclude("false", "proof", "one large instance", basis="certificate")
>>> res = run_check(CheckSpec("demo", "demo", "demo", body, claim=claim))
>>> res.outcome, res.violations[0].split(":")[0]
('open', 'finite instances cannot refute a rate or a limit')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from seprank.proof.claims import (
    FALSE,
    HOLDS,
    HOLDS_CORRECTED,
    INSTANCES,
    NONE,
    OPEN,
    PROOF,
    Claim,
    Conclusion,
    Erratum,
    Settled,
)
from seprank.proof.statuses import ERROR, FAILED
from seprank.proof.strength import argument_kinds, argument_text, steps_at_sizes

__all__ = ["settle", "apply_dependencies", "apply_restatements", "apply_given",
           "given_words", "share_verified_corrections"]


def _downgrade(s: Settled, outcome: str, why: str) -> None:
    if s.outcome != outcome:
        s.violations.append(why)
        s.outcome = outcome


def _as_instances(s: Settled) -> None:
    """Proof evidence that only covers instances becomes instance evidence."""
    s.strength = INSTANCES
    s.count = s.count or 1
    if s.binding is None:
        s.binding = True


def _strength_rules(s: Settled, c: Conclusion, universal: bool) -> None:
    """What evidence of each strength must say (see the module docstring)."""
    if s.strength == PROOF:
        if s.basis is None:
            s.violations.append("strength proof names its basis")
            s.strength = INSTANCES if s.count else NONE
        elif s.basis == "exhaustive" and universal and not c.reduction:
            s.violations.append("an exhaustive check of a universal claim is instance evidence "
                                "unless a reduction says why the range covers every case")
            s.strength = INSTANCES
            if s.binding is None:
                s.binding = True
    if s.strength == INSTANCES:
        if not s.count or s.count < 1:
            s.violations.append("instance evidence states how many instances (count >= 1)")
        if s.binding is None:
            s.violations.append("instance evidence states whether it is binding")
            s.binding = False
    if s.strength != INSTANCES and s.strength != PROOF:
        s.binding = None


def _certificate_rules(s: Settled, claim: Claim | None, universal: bool) -> None:
    """A certificate proves instances; a rate or a limit needs an all-sizes argument."""
    certificate = s.strength == PROOF and s.basis == "certificate"
    if s.outcome in (HOLDS, HOLDS_CORRECTED) and certificate and universal:
        _downgrade(s, OPEN, f"a certificate proves an instance: {s.outcome} with basis "
                            "certificate needs a claim with universal=False (an existence "
                            "claim or one instance)")
        _as_instances(s)
    if s.outcome != FALSE or claim is None or not claim.asymptotic:
        return
    if not (s.strength == PROOF and s.basis == "argument"):
        rests = f"basis {s.basis}" if s.strength == PROOF else f"strength {s.strength}"
        _downgrade(s, OPEN, "finite instances cannot refute a rate or a limit: false for an "
                            "asymptotic claim needs basis argument with every step valid "
                            f"for all sizes (this conclusion rests on {rests})")
        if certificate:
            _as_instances(s)
    elif s.steps_at_sizes:
        which = argument_text(s.steps_at_sizes)
        _downgrade(s, OPEN, "finite instances cannot refute a rate or a limit: the refuting "
                            f"argument is not valid for all sizes ({which})")


def _outcome_rules(s: Settled, universal: bool, steps: list, errata: list[Erratum]) -> None:
    """What each outcome needs (errata in the statement, a correction, a counterexample)."""
    failed = [st for st in steps if st.status == FAILED]
    in_statement = [e for e in errata if e.in_statement]
    if s.outcome == HOLDS:
        if universal and s.strength != PROOF:
            _downgrade(s, OPEN, f"sampling never gives holds for a universal claim: "
                                f"consistent on {s.count or 0} instances")
        elif s.strength == NONE:
            _downgrade(s, OPEN, "holds needs evidence")
        if s.outcome == HOLDS and in_statement:
            _downgrade(s, OPEN, "holds is impossible with an erratum in the statement "
                                "(at best holds-corrected)")
    if s.outcome == HOLDS_CORRECTED:
        if not any(e.verified for e in in_statement):
            _downgrade(s, OPEN, "holds-corrected needs a verified correction of an erratum "
                                "in the statement")
        elif universal and s.strength != PROOF:
            _downgrade(s, OPEN, f"sampling never gives holds-corrected for a universal claim: "
                                f"consistent on {s.count or 0} instances")
    if s.outcome == FALSE:
        ok = any(st.evidence and any(e.severity == "false-statement" and e.in_statement
                                     for e in st.errata) for st in failed)
        if not ok:
            _downgrade(s, OPEN, "false needs a counterexample: a failed step with evidence "
                                "and a false-statement erratum in the statement")


def settle(claim: Claim | None, conclusion: Conclusion | None, steps: list,
           errata: list[Erratum]) -> Settled:
    """Apply the rules of the module docstring to a check's conclusion.

    ``steps`` are the check's :class:`~seprank.proof.framework.Step` objects (a
    status, evidence, a scope and the errata they carry).

    Examples
    --------
    ``holds-corrected`` without a verified correction is not allowed:

    >>> from seprank.proof.framework import Step
    >>> err = Erratum("l.3", "x > 0", "x >= 0", "false-statement")
    >>> failed = Step("printed", status="failed", evidence={"x": 0}, errata=[err])
    >>> c = Conclusion("holds-corrected", "proof", "x = 0 is allowed", basis="argument")
    >>> s = settle(Claim("lemma", "x > 0", "l.3"), c, [failed], [err])
    >>> s.outcome, s.violations
    ('open', ['holds-corrected needs a verified correction of an erratum in the statement'])

    An argument whose step is verified only at listed sizes says so:

    >>> step = Step("the identity for L <= 3", scope="sizes", sizes="L <= 3")
    >>> c = Conclusion("holds", "proof", "induction on L", basis="argument")
    >>> s = settle(Claim("lemma", "x > 0", "l.3"), c, [step], [])
    >>> s.outcome, s.all_sizes, s.steps_at_sizes[0]["sizes"]
    ('holds', False, 'L <= 3')
    """
    if conclusion is None:
        return Settled(OPEN, NONE, "the check does not conclude",
                       violations=["the check body does not call ctx.conclude(...)"])
    c = conclusion
    s = Settled(c.outcome, c.strength, c.reason, binding=c.binding, count=c.count,
                largest=c.largest, basis=c.basis, own_argument=c.own_argument,
                requested=c.outcome, given=c.given)
    universal = claim.universal if claim is not None else True
    if claim is None:
        s.violations.append("the check declares no claim (@check(..., claim=Claim(...)))")
    _strength_rules(s, c, universal)
    if s.strength == PROOF and s.basis == "argument":
        s.steps_at_sizes = steps_at_sizes(steps, c.argument_steps)
        s.argument_kinds = argument_kinds(steps, c.argument_steps)
    uncovered = [st for st in steps if st.status == FAILED and not st.errata]
    for st in uncovered:
        s.violations.append(f"failed step without an erratum: {st.claim[:80]}")
    if any(st.status == ERROR for st in steps):
        _downgrade(s, OPEN, "a step raised: the claim stays open")
        s.strength = NONE if s.strength == PROOF else s.strength
        s.steps_at_sizes = None if s.strength != PROOF else s.steps_at_sizes
        return s
    if uncovered and s.outcome != OPEN:
        _downgrade(s, OPEN, "a failed step is not covered by an erratum")
    _certificate_rules(s, claim, universal)
    _outcome_rules(s, universal, steps, errata)
    return s


def apply_dependencies(settled: Settled, dependency_outcomes: dict[str, str]) -> Settled:
    """Block ``holds``/``holds-corrected`` when a dependency is ``false``.

    Unless the conclusion records ``own_argument`` (the check's own reason the
    claim holds without the false dependency), the outcome becomes ``open``.

    Examples
    --------
    >>> s = Settled("holds", "proof", "by Lemma 2", basis="argument")
    >>> apply_dependencies(s, {"L-Lemma2": "false"}).outcome
    'open'
    >>> s = Settled("holds", "proof", "by Lemma 2", basis="argument",
    ...             own_argument="a direct count, not Lemma 2")
    >>> apply_dependencies(s, {"L-Lemma2": "false"}).outcome
    'holds'
    """
    bad = sorted(d for d, o in dependency_outcomes.items() if o == FALSE)
    if bad and settled.outcome in (HOLDS, HOLDS_CORRECTED) and not settled.own_argument:
        _downgrade(settled, OPEN, f"relies on {', '.join(bad)}, whose outcome is false, and "
                                  "records no argument of its own")
    return settled


def given_words(cid: str, settled: Settled | None) -> str:
    """How a dependency taken as given reads in a "rests on" sentence.

    Examples
    --------
    >>> given_words("L-Omega", Settled("holds", "proof", "x", basis="argument",
    ...                                steps_at_sizes=[]))
    'L-Omega (holds, proof: argument, every step for all sizes)'
    >>> given_words("L-Thm1", Settled("open", "instances", "x", count=3, binding=True))
    'L-Thm1 (open, instances)'
    >>> given_words("L-Lemma6", None)
    'L-Lemma6 (not run)'
    """
    if settled is None:
        return f"{cid} (not run)"
    if settled.strength == PROOF:
        how = (argument_text(settled.steps_at_sizes) if settled.basis == "argument"
               else settled.basis or "proof")
        return f"{cid} ({settled.outcome}, proof: {how})"
    return f"{cid} ({settled.outcome}, {settled.strength})"


def apply_given(settled: Settled, results: dict[str, Settled | None]) -> Settled:
    """Write the "rests on" sentence from the same run; open what rests on an undecided claim.

    ``results``: check id -> settled outcome of that check in this run (None: not run),
    for the ids of ``settled.given``. The reason gains "rests on A (holds, proof: ...), B
    (open, instances)" in the order given. A ``holds``, ``holds-corrected`` or ``false``
    conclusion resting on a check whose outcome is ``open`` or ``false`` becomes ``open``
    (the rule is listed in ``violations``), keeping its instance evidence as instances; a
    check that did not run (``--no-deps``) is named "not run" and blocks nothing.

    Examples
    --------
    >>> s = Settled("holds", "proof", "the density argument", basis="argument",
    ...             given=("L-Omega",))
    >>> omega = Settled("holds", "proof", "x", basis="argument", steps_at_sizes=[])
    >>> apply_given(s, {"L-Omega": omega}).reason
    'the density argument; rests on L-Omega (holds, proof: argument, every step for all sizes)'
    >>> s = Settled("holds", "proof", "the density argument", basis="argument",
    ...             given=("L-Omega",))
    >>> out = apply_given(s, {"L-Omega": Settled("open", "none", "x")})
    >>> out.outcome, out.reason.split("; ")[1], out.violations[0][:39]
    ('open', 'rests on L-Omega (open, none)', 'rests on L-Omega, whose outcome is open')
    >>> s = Settled("holds", "proof", "the density argument", basis="argument",
    ...             given=("L-Omega",))
    >>> out = apply_given(s, {"L-Omega": None})
    >>> out.outcome, out.reason.split("; ")[1]
    ('holds', 'rests on L-Omega (not run)')
    """
    if not settled.given:
        return settled
    settled.given_outcomes = {g: given_words(g, results.get(g)) for g in settled.given}
    settled.reason = f"{settled.reason}; rests on {', '.join(settled.given_outcomes.values())}"
    weak = [(g, results[g].outcome) for g in settled.given
            if results.get(g) is not None and results[g].outcome not in (HOLDS, HOLDS_CORRECTED)]
    if weak and settled.outcome in (HOLDS, HOLDS_CORRECTED, FALSE):
        said = ", ".join(f"{g}, whose outcome is {o}" for g, o in weak)
        _downgrade(settled, OPEN, f"rests on {said}: {settled.requested or 'the conclusion'} "
                                  "needs every claim it takes as given to hold")
        if settled.strength == PROOF:
            settled.strength = INSTANCES if settled.count else NONE
            settled.binding = (settled.binding if settled.binding is not None else True) \
                if settled.count else None
            settled.steps_at_sizes = None
            settled.argument_kinds = None
    return settled


def apply_restatements(settled: Settled, restated: dict[str, Settled]) -> Settled:
    """Make a claim ``false`` when a check it restates (``Claim(restates=...)``) is ``false``.

    ``restated``: check id -> that check's settled outcome. The claim takes the
    outcome ``false``, the strength of the (first, by id) false restated check, and a
    reason that names it, unless the conclusion records ``own_argument`` (why this
    statement differs from the one restated). A check that had concluded ``holds`` or
    ``holds-corrected`` is overruled (listed in ``violations``); one that left the
    claim ``open`` is decided. The outcomes seen are kept in ``restated_outcomes``.

    Examples
    --------
    >>> thm2 = Settled("false", "proof", "a certified counterexample", basis="certificate")
    >>> s = apply_restatements(Settled("open", "none", "restates Theorem 2"), {"L-Thm2": thm2})
    >>> s.outcome, s.strength, s.basis, s.reason
    ('false', 'proof', 'certificate', 'restates L-Thm2, whose outcome is false; restates Theorem 2')
    >>> s = Settled("open", "none", "a weaker form", own_argument="only the lower bound")
    >>> apply_restatements(s, {"L-Thm2": thm2}).outcome
    'open'
    """
    settled.restated_outcomes = {d: r.outcome for d, r in sorted(restated.items())}
    bad = sorted(d for d, r in restated.items() if r.outcome == FALSE)
    if not bad or settled.outcome == FALSE or settled.own_argument:
        return settled
    names = ", ".join(bad)
    if settled.outcome in (HOLDS, HOLDS_CORRECTED):
        settled.violations.append(f"restates {names}, whose outcome is false, and records no "
                                  f"argument that it differs: {settled.outcome} becomes false")
    source = restated[bad[0]]
    settled.outcome = FALSE
    settled.reason = f"restates {names}, whose outcome is false; {settled.reason}"
    for name in ("strength", "basis", "count", "largest", "binding", "steps_at_sizes"):
        setattr(settled, name, getattr(source, name))
    return settled


def _correction_keys(err: Erratum) -> list[tuple[str, str]]:
    keys = [("text", " ".join(err.corrected.split()))]
    if err.correction_id:
        keys.append(("id", err.correction_id))
    return keys


def share_verified_corrections(results: Iterable[Any]) -> int:
    """Mark verified every erratum whose correction is verified in another erratum.

    ``results``: check results (objects with ``id`` and ``errata``). Two errata share a
    correction when their ``corrected`` texts agree up to whitespace or they carry the
    same ``correction_id`` (and, transitively, through a third). An unverified one
    becomes verified, with ``verified_by`` naming the check and the step that verified
    a copy (``"check W-Lemma4, step: <step claim>"``). Returns how many errata were
    marked.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> a = Erratum("l.5", "x", "y >= 0", "notation", verified=True, step="y checked")
    >>> b = Erratum("l.9", "x", "y  >=  0", "notation")
    >>> share_verified_corrections([NS(id="A", errata=[a]), NS(id="B", errata=[b])])
    1
    >>> b.verified, b.verified_by
    (True, ['check A, step: y checked'])
    """
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(key: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    found = [(r.id, e) for r in results for e in r.errata]
    for _, err in found:
        first, *others = _correction_keys(err)
        for key in others:
            parent[root(key)] = root(first)
    witness: dict[tuple[str, str], str] = {}
    for cid, err in found:
        if err.verified:
            witness.setdefault(root(_correction_keys(err)[0]),
                               f"check {cid}, step: "
                               f"{err.verified_by[0] if err.verified_by else err.step}")
    marked = 0
    for _, err in found:
        by = witness.get(root(_correction_keys(err)[0]))
        if by is not None and not err.verified:
            err.verified = True
            err.verified_by.append(by)
            marked += 1
    return marked
