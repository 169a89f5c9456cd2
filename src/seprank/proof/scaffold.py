"""Scaffolding that many check bodies repeat, written once.

A check body (see :mod:`seprank.proof.framework`) is a list of steps followed by a
few closing lines. Four pieces of that frame recur from check to check, with the
same logic each time; this module holds them so that a body names only what is
particular to its claim:

* :func:`paper_check` declares the claim a check decides and the check itself in one
  decorator (both cite the same :class:`~seprank.paper_hooks.paper_record.Paper`);
* :func:`erratum_if_failed` is the closing line "if the step that checked the
  printed text failed, record the erratum against it", with the failing instance
  taken from that step's evidence;
* :class:`BoundTally` is the inner loop of a step that sets exact ranks of
  instances beside an upper bound: it keeps the largest rank / bound ratio and
  fails the step on a rank above the bound;
* :func:`conclude_on_instances` is the closing "open, on instances" conclusion whose
  count and largest sizes come from one summary dict (as
  ``seprank_proofs._verdicts.bound_instances`` returns).

Nothing here decides anything about a paper: the claims, steps, messages and
outcomes stay in the check modules. The module imports only
:mod:`seprank.proof.claims`, :mod:`seprank.proof.framework`,
:mod:`seprank.paper_hooks.paper_record` and :mod:`seprank.proof.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from seprank.paper_hooks.paper_record import Paper
from seprank.proof.claims import Claim, Erratum
from seprank.proof.framework import CheckContext, StepHandle
from seprank.proof.registry import check

__all__ = ["paper_check", "erratum_if_failed", "BoundTally", "conclude_on_instances"]


def paper_check(paper: Paper, id: str, title: str, *, where: str, kind: str, statement: str,
                claim_where: str | None = None, depends: Iterable[str] = (),
                main_result: bool = False, universal: bool = True, figures: Iterable[Any] = ()
                ) -> Callable[[Callable[[CheckContext], None]], Callable[[CheckContext], None]]:
    """Decorator: the check ``id`` of ``paper`` together with the claim it decides.

    The same as ``@check(id, title, source=paper.cite(where), depends=depends,
    claim=Claim(kind, statement, paper.cite(claim_where or where), main_result,
    universal), figures=figures, paper=paper)``: the claim's source lines
    (``claim_where``, the statement's lines) may be narrower than the check's
    (``where``, the statement and its proof). See :func:`seprank.proof.check` and
    :class:`seprank.proof.claims.Claim` for the fields.

    Parameters
    ----------
    paper : Paper
        The paper whose claim the check decides (sources are ``paper.cite(...)``).
    id, title : str
        The check's mission-map id and one-line title.
    where : str
        The passage the check covers, as ``paper.cite`` takes it ("B.3 l.720-815").
    kind, statement : str
        The claim's kind (theorem, lemma, ...) and its statement in our words.
    claim_where : str, optional
        The passage of the statement itself (default: ``where``).
    depends, main_result, universal, figures
        As for :func:`seprank.proof.check` and :class:`~seprank.proof.claims.Claim`.

    Returns
    -------
    callable
        The decorator; the decorated body keeps its name and gains the check's spec.

    Raises
    ------
    ValueError
        An unknown claim ``kind`` (from :class:`~seprank.proof.claims.Claim`).

    Examples
    --------
    >>> ARITH = Paper("arithmetic.txt", "Arithmetic", key="arith")
    >>> @paper_check(ARITH, "demo-sum", "1 + 1 = 2", where="l.1-3", claim_where="l.1",
    ...              kind="claim", statement="1 + 1 = 2", universal=False)
    ... def demo(ctx):
    ...     pass
    >>> spec = demo.__seprank_check__
    >>> spec.source, spec.claim.source, spec.claim.universal, spec.paper.key
    ('arithmetic.txt l.1-3', 'arithmetic.txt l.1', False, 'arith')
    """
    claim = Claim(kind, statement, paper.cite(claim_where or where), main_result=main_result,
                  universal=universal)
    return check(id=id, title=title, source=paper.cite(where), depends=tuple(depends),
                 claim=claim, figures=figures, paper=paper)


def erratum_if_failed(ctx: CheckContext, step: str, location: str, printed: str,
                      corrected: str, severity: str, *, evidence_key: str = "counterexample",
                      verified_by: str | None = None, **fields: Any) -> Erratum | None:
    """Record an erratum against the step whose claim starts with ``step``, if it failed.

    The closing lines of a check that tested a display as printed: when that step
    failed, the erratum (location, printed and corrected text, severity, and the
    :class:`~seprank.proof.claims.Erratum` ``fields``) is recorded against it with
    ``instance`` = the step's evidence under ``evidence_key``;
    ``verified_by`` names the step that checked the corrected text (see
    :meth:`~seprank.proof.framework.CheckContext.erratum`).

    Parameters
    ----------
    ctx : CheckContext
        The running check.
    step : str
        The start of the printed step's claim (it must name exactly one step).
    location, printed, corrected, severity : str
        The erratum, as :class:`~seprank.proof.claims.Erratum` takes it.
    evidence_key : str
        Where the failing instance is in the step's evidence (default ``counterexample``).
    verified_by : str, optional
        The start of the claim of the step that checks the correction.
    **fields
        Further erratum fields (``survives``, ``repair``, ``hypothesis``, ``in_statement``).

    Returns
    -------
    Erratum or None
        The erratum, or None when the step did not fail (nothing is recorded).

    Raises
    ------
    ValueError
        ``step`` (or ``verified_by``) does not name exactly one step.

    Examples
    --------
    >>> ctx = CheckContext()
    >>> with ctx.step("eq. (5) as printed") as s:
    ...     s.fail("1 != 2", counterexample={"x": 1})
    >>> with ctx.step("eq. (5) corrected", corrected=True):
    ...     pass
    >>> err = erratum_if_failed(ctx, "eq. (5) as", "eq. (5)", "= 2", "= 1", "constant",
    ...                         verified_by="eq. (5) corrected")
    >>> err.instance, ctx.steps[1].verifies == [err]
    ({'x': 1}, True)
    >>> erratum_if_failed(ctx, "eq. (5) corrected", "eq. (5)", "a", "b", "constant") is None
    True
    """
    if not ctx.failed(step):
        return None
    return ctx.erratum(location, printed, corrected, severity, step=step,
                       verified_by=verified_by,
                       instance=ctx.find_step(step).evidence.get(evidence_key), **fields)


class BoundTally:
    """Exact ranks of instances set beside an upper bound, one instance at a time.

    :meth:`add` keeps the instance with the largest ratio rank / bound (the first
    one among equals) and fails the step, with the message and counterexample the
    caller gives, when a rank exceeds its bound; :meth:`largest_ratio` is the
    evidence a step records for the closest instance.

    Examples
    --------
    >>> from seprank.proof.framework import Step
    >>> s = StepHandle(Step("ranks <= bound"))
    >>> tally = BoundTally()
    >>> tally.add(s, 3, 4, {"N": 2}, "rank 3 above 4")
    >>> tally.add(s, 5, 4, {"N": 4}, "rank 5 above 4", counterexample={"N": 4, "rank": 5})
    >>> tally.largest_ratio(), s.step.status, s.step.evidence["counterexample"]
    ({'ratio': '5/4 ~ 1.25', 'case': {'N': 4}}, 'failed', {'N': 4, 'rank': 5})
    """

    def __init__(self) -> None:
        self.worst: tuple[Fraction, Any] | None = None

    def add(self, s: StepHandle, rank: int, bound: Any, row: Any, message: str,
            counterexample: Any = None) -> None:
        """Set ``rank`` beside ``bound`` (an int or Fraction) for the instance ``row``.

        Parameters
        ----------
        s : StepHandle
            The step that the instance belongs to.
        rank : int
            The instance's exact rank.
        bound : int or Fraction
            The upper bound at the instance.
        row : Any
            The instance as the step records it (kept for :meth:`largest_ratio`).
        message : str
            The step's failure message when ``rank > bound``.
        counterexample : Any, optional
            The failure's evidence (``counterexample=``); none recorded when None.

        Returns
        -------
        None
        """
        ratio = Fraction(rank) / Fraction(bound)
        if self.worst is None or ratio > self.worst[0]:
            self.worst = (ratio, row)
        if rank > bound:
            if counterexample is None:
                s.fail(message)
            else:
                s.fail(message, counterexample=counterexample)

    def largest_ratio(self) -> dict[str, Any]:
        """``{"ratio": "p/q ~ float", "case": row}`` of the largest rank / bound so far.

        Raises
        ------
        ValueError
            No instance was added.
        """
        if self.worst is None:
            raise ValueError("no instance was added")
        ratio, row = self.worst
        return {"ratio": f"{ratio} ~ {float(ratio):.4g}", "case": row}


def conclude_on_instances(ctx: CheckContext, reason: str, info: dict[str, Any], *,
                          binding: bool | None = None) -> None:
    """Conclude ``open`` on ``instances``, with the count and largest sizes of ``info``.

    ``info`` holds ``count`` and ``largest`` (and ``binding`` unless given here), as
    ``seprank_proofs._verdicts.bound_instances`` and ``construction_instances``
    return them; see :meth:`~seprank.proof.framework.CheckContext.conclude`.

    Parameters
    ----------
    ctx : CheckContext
        The running check (it concludes once).
    reason : str
        The conclusion's one sentence.
    info : dict
        ``count`` (int), ``largest`` (dict of sizes), and ``binding`` (bool) when the
        keyword is not given.
    binding : bool, optional
        Whether the instances could have violated the claim (default: ``info["binding"]``).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        The check has concluded already.
    KeyError
        ``info`` lacks ``count`` or ``largest`` (or ``binding`` when it is not given).

    Examples
    --------
    >>> ctx = CheckContext()
    >>> conclude_on_instances(ctx, "consistent on 3 sizes", {"count": 3, "largest": {"N": 4}},
    ...                       binding=True)
    >>> c = ctx.conclusion
    >>> c.outcome, c.strength, c.count, c.largest, c.binding
    ('open', 'instances', 3, {'N': 4}, True)
    """
    ctx.conclude("open", "instances", reason, count=info["count"], largest=info["largest"],
                 binding=info["binding"] if binding is None else binding)
