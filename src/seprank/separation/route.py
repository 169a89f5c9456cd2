"""The protocol every separation route follows, and the small records it speaks in.

A route is one way to compute (or bound) a separation rank: the coefficient
matricization (:mod:`seprank.separation.coefficient.route`), the grid blocks mod p
(:mod:`seprank.separation.grid.route`), the grid on given templates
(:mod:`seprank.separation.grid.template`), ... It is an object with

``name``, ``summary``, ``matrix_words``, ``takes``
    its registry name, one line for people, what its matrix is called in the
    result's text, and the route options it accepts (``SeparationRequest.options``).
``can_run(request) -> str | None``
    None when it can answer this request, else why not (one line).
``should_run(request, fallback=False) -> (bool, why)``
    whether ``auto`` should choose it (``fallback=True``: whether it should run
    after the chosen route gave an answer that is not exact), and why; the cutoffs
    behind the answer sit in the route's module, with the benchmark that set them.
``estimate(request) -> WorkEstimate`` (optional; the base class returns None)
    the route's work and peak memory from sizes alone, *cheaply*: in time and memory
    independent of how large the sizes are (log-gamma counts such as
    :func:`seprank.separation.monomials.approx_monomial_count`, no enumeration of 3^L
    blocks; ints of any size or ``math.inf`` are fine). ``peak_bytes`` must be an upper
    bound on what :meth:`run` holds beyond the request (``tests/test_budget_peaks.py``
    measures it), ``work`` the operations by kind (:data:`seprank.budget.RATES`). The
    planner checks it against ``request.budget`` *before* it calls :meth:`plan`, and
    refuses in one line with the largest N (or L) that fits
    (:mod:`seprank.separation.sizes`); without it, the plan's estimate is checked.
``positions(N, options) -> Positions | None`` (optional; the base class returns None)
    what the route's options say about the request's positions, asked by the planner
    *before* the request is built (the route asked for, or under ``auto`` every route
    that takes all the options given): the sequence length N they fix (``N`` is the one
    given, None when none was) and how many positions the partition is of, in words
    (:class:`~seprank.separation.request.Positions`). The planner parses the partition
    against that count, checks ``position < N`` and keeps the answer in
    ``request.positions``. None: no opinion (N as given, default 2; the partition is of
    the N positions). The embedding route answers for a wies2021 embedding (a
    convolution embedding partitions its M = k N raw input positions); a route may
    raise a one-line ParameterError for an option that contradicts N.
``plan(request) -> RoutePlan``
    every decision it makes before computing (prime, blocks, estimated work and
    memory, answer kinds); raises for bad route input (e.g. a prime that is not one).
``run(request, plan) -> RouteOutcome``
    the computation. It runs inside ``request.budget.active()``, so every
    :func:`seprank.linalg.memory.require_fits` below it (and any rank it asks for)
    honours the user's ``max_memory``; a route that allocates in stages checks each
    stage first with ``request.budget.check(Estimate(...))`` or
    ``request.budget.require(nbytes, what)``.

Budgets (issue 23): ``request.budget`` is a :class:`seprank.budget.Budget` (the user's
``max_memory`` / ``max_seconds``, or the machine's memory); a route never reads the
machine itself.

Like networkx's backends (``can_run`` / ``should_run``), routes are asked, never
named: :func:`seprank.separation.plan_separation` walks the registry
(:mod:`seprank.separation.routes`) in order, and nothing outside a route's own
module branches on its name. A new route is one subpackage of ``seprank.separation``
with one such object plus one line in the registry (or
:func:`~seprank.separation.routes.register_route`; docs/extending.md, section 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from seprank.separation.request import Positions, SeparationRequest

__all__ = ["SeparationRoute", "PlannedBlock", "WorkEstimate", "RoutePlan", "RouteOutcome",
           "RANK_METHODS", "rank_method"]

#: the methods of :func:`seprank.linalg.rank` a route's matrices may be ranked with (the
#: ``rank_method`` option of the routes that take it)
RANK_METHODS = ("auto", "exact", "modular")


def rank_method(request: SeparationRequest) -> str:
    """The ``rank_method`` option of ``request`` (default ``auto``), checked.

    >>> from types import SimpleNamespace
    >>> rank_method(SimpleNamespace(options={}))
    'auto'
    >>> rank_method(SimpleNamespace(options={"rank_method": "float"}))
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: rank_method must be one of auto, exact, modular; got 'float'
    """
    from seprank.errors import ParameterError

    method = request.options.get("rank_method", "auto")
    if method not in RANK_METHODS:
        raise ParameterError(f"rank_method must be one of {', '.join(RANK_METHODS)}; "
                             f"got {method!r}")
    return method


@dataclass(frozen=True)
class PlannedBlock:
    """One block of a matricization as known before evaluation.

    ``monomials`` (rows, columns) are the possible monomials on each side (the
    block's size at most); ``cap`` a certified upper bound on its rank;
    ``points`` the points per side a grid evaluates (None: not a grid);
    ``zero_by_parity``: the parity lemma (gridroute docstring) makes it 0.

    >>> PlannedBlock(1, 2, (3, 6), 3, points=3).to_dict()["cap"]
    3
    """

    I_degree: int | str
    J_degree: int | str
    monomials: tuple[int, int]
    cap: int
    points: int | None = None
    zero_by_parity: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"I_degree": self.I_degree, "J_degree": self.J_degree,
                "monomials": list(self.monomials), "cap": self.cap, "points": self.points,
                "zero_by_parity": self.zero_by_parity}


@dataclass(frozen=True)
class WorkEstimate:
    """Estimated work and peak memory of a route, from sizes alone (before computing).

    ``phases``: (phase, what it does with its counts) in order; ``operations``: a
    rough count of the dominant arithmetic operations; ``peak_bytes``: the largest
    memory the route is expected to hold at once (an upper bound where said);
    ``work``: the operations by kind (keys of :data:`seprank.budget.RATES`; empty:
    all of them ``"python"``, the slowest); ``fixed_seconds``: time that does not
    scale (loading compiled kernels); ``detail``: the sizes a refusal names
    (``"blocks up to 74k x 74k"``). Counts may be ints of any size or ``math.inf``.

    >>> print(WorkEstimate((("rank", "3 blocks"),), 10**6, 2**20))
    about 1e+06 operations, peak memory about 1.0 MiB: rank: 3 blocks
    >>> WorkEstimate((), 10**6, 2**20, work=((10**6, "modular"),)).as_estimate("a route").what
    'a route'
    """

    phases: tuple[tuple[str, str], ...]
    operations: int | float
    peak_bytes: int | float
    work: tuple[tuple[int | float, str], ...] = ()
    fixed_seconds: float = 0.0
    detail: str = ""

    def __str__(self) -> str:
        from seprank.budget import format_bytes

        ops = self.operations
        count = f"{float(ops):.3g}" if ops < 1e300 else "more than 1e+300"
        return (f"about {count} operations, peak memory about "
                f"{format_bytes(self.peak_bytes)}: "
                + "; ".join(f"{name}: {what}" for name, what in self.phases))

    def as_estimate(self, what: str):
        """The :class:`seprank.budget.Estimate` a budget checks (with
        :data:`seprank.budget.BASE_BYTES`, the memory that does not scale)."""
        from seprank.budget import BASE_BYTES, Estimate

        work = self.work or ((self.operations, "python"),)
        peak = self.peak_bytes if self.peak_bytes < 2**1000 else 2**1000
        return Estimate(what, nbytes=BASE_BYTES + int(peak), work=work,
                        fixed_seconds=self.fixed_seconds, detail=self.detail)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"phases": [list(p) for p in self.phases], "operations": self.operations,
                "peak_bytes": self.peak_bytes, "text": str(self)}


@dataclass(frozen=True)
class RoutePlan:
    """A route's decisions for one request (:meth:`SeparationRoute.plan`).

    ``blocks`` and ``blocks_known`` (``"exactly"``: these are the blocks;
    ``"at most"``: the possible blocks, the real ones are known after expansion);
    ``estimate``; ``kinds`` it can return; ``prime`` it will use (None: none);
    ``uses_points_seed``; ``notes`` (lines for :meth:`SeparationPlan.explain`);
    ``data``: what the route wants to keep for :meth:`SeparationRoute.run`.

    >>> RoutePlan((), WorkEstimate((), 0, 0), ("exact",)).blocks_known
    'exactly'
    """

    blocks: tuple[PlannedBlock, ...]
    estimate: WorkEstimate
    kinds: tuple[str, ...]
    blocks_known: str = "exactly"
    prime: int | None = None
    uses_points_seed: bool = False
    notes: tuple[str, ...] = ()
    data: Any = field(default=None, compare=False, repr=False)


@dataclass
class RouteOutcome:
    """What a route computed: the value, its kind, a certified upper bound, and facts.

    ``blocks``: one JSON-ready dict per block (route-specific keys);
    ``matrix_words``: what the matrix is called (``"coefficient matrix"``);
    ``matrix_shape`` or ``matrix_points`` (a square grid's points per side);
    ``terms`` (expanded output terms), ``prime``, ``error_bound`` and
    ``probabilistic`` (the Schwartz-Zippel sentence), ``evaluations``,
    ``points_digest`` (SHA-256 prefix of the random points), ``timings`` (phase ->
    seconds), ``certificates_verified``, ``matrix_rank`` (the RankResult of a
    single matrix), ``template_certificate``; ``bounds``: the paper bounds that apply
    (None: the network's, :func:`seprank.separation.bounds.network_bounds`; the
    embedding route gives wies2021's), ``embedding``: the input embedding's facts;
    ``facts``: JSON-ready facts a new route adds (shown under ``details`` in ``to_dict``).

    >>> RouteOutcome(2, "exact", 2, [], "coefficient matrix", matrix_shape=(2, 2)).terms is None
    True
    """

    value: int
    kind: str
    upper_bound: int
    blocks: list[dict[str, Any]]
    matrix_words: str
    matrix_shape: tuple[int, int] | None = None
    matrix_points: int | None = None
    terms: int | None = None
    prime: int | None = None
    error_bound: float | None = None
    probabilistic: str | None = None
    evaluations: int | None = None
    points_digest: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    certificates_verified: bool | None = None
    matrix_rank: Any = None
    template_certificate: dict[str, Any] | None = None
    bounds: dict[str, Any] | None = None
    embedding: dict[str, Any] | None = None
    facts: dict[str, Any] = field(default_factory=dict)


class SeparationRoute:
    """Base class of the routes (module docstring); subclasses set the attributes and
    override :meth:`plan` and :meth:`run`.

    The defaults: a route can run every finite request, is not preferred, and is
    never a fallback.

    >>> from types import SimpleNamespace
    >>> class Toy(SeparationRoute):
    ...     name = "toy"
    >>> Toy().can_run(SimpleNamespace(finite=False)), Toy().should_run(None)
    ('needs a finite N', (False, 'not preferred'))
    """

    name: str = ""
    summary: str = ""
    matrix_words: str = "matrix"
    takes: frozenset[str] = frozenset()

    def can_run(self, request: SeparationRequest) -> str | None:
        """None when this route can answer ``request``, else why not."""
        if not request.finite:
            return "needs a finite N"
        return None

    def should_run(self, request: SeparationRequest, *, fallback: bool = False
                   ) -> tuple[bool, str]:
        """(whether ``auto`` should choose it, why); ``fallback``: after a non-exact answer."""
        return False, "not preferred"

    def estimate(self, request: SeparationRequest) -> WorkEstimate | None:
        """Work and peak memory from sizes alone, cheaply (module docstring); None: the
        planner checks :meth:`plan`'s estimate instead."""
        return None

    def refusal_hint(self, request: SeparationRequest) -> str | None:
        """What the user can ask instead when the budget refuses this route's estimate
        (None: the planner names the largest N or L that fits; empty: nothing to name)."""
        return None

    def positions(self, N: int | float | None, options) -> Positions | None:
        """What this route's ``options`` say about the request's positions (module
        docstring); None: nothing (N as given, the partition of the N positions)."""
        return None

    def plan(self, request: SeparationRequest) -> RoutePlan:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, request: SeparationRequest, plan: RoutePlan
            ) -> RouteOutcome:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<separation route {self.name!r}: {self.summary}>"
