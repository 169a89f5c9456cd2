"""Route conformance: every registered separation route answers the same question alike.

The question (levine2020, /work/shared/papers/levine2020_depth_to_width_self_attention.txt):
the separation rank (eq. (5), l.97-99) of one output coordinate y_p^i of the attention network
of eq. (3) (l.73; skip connections: appendix A.4, l.478) w.r.t. a partition (I, J) of the
positions. Every route registered in ``seprank.separation.route_names()`` is one way to answer
it, and each answer carries a kind that says what it claims:

* ``exact``: the separation rank itself;
* ``lower_bound``: a certified lower bound (``upper_bound`` then holds a certified upper one);
* ``upper_bound``: a certified upper bound;
* ``probabilistic``: a value that may be wrong with a small stated probability; only its
  ``upper_bound`` is taken as certified here.

Checked, in the manner of networkx's flow tests (one test body, parametrized over every flow
function) and SymPy's DomainMatrix tests (one behaviour, every domain):

1. Agreement. On small networks every route that can run a request answers it, and all the
   certified intervals [lower, upper] of the answers meet: all exact answers are equal, no
   lower bound exceeds an exact answer or an upper bound, no upper bound falls below either.
   The routes are read from the registry when the tests are collected, so a route added
   later is held to the same rule without editing this file. A route that cannot run a
   request must refuse as the front door documents (a ParameterError, "route ... cannot run
   here", in agreement with what the planner's ``candidates`` say about it); that case is
   then skipped for it.
2. The limit N -> infinity. The moment route's module docstring (package
   ``seprank.separation.moment``, today ``src/seprank/separation/moment/__init__.py``
   l.16-66) proves, with s(a, b) the separation rank at finite N for a partition with
   a positions on the output's side and b on the other and R the rank of the
   moment-form coefficient matrix C_F:
   Proposition 1(b): s is nondecreasing in a and in b;
   Proposition 1(c): s(a, b) <= R for all a, b;
   Proposition 2': s(a, b) = R as soon as a >= d_x and b >= d_x (so sep(N) = R from N = 2 d_x
   on, whichever side holds the output).
   The moment route's answer at N = math.inf (no partition given) is R, "the separation rank
   of every partition with >= d_x positions on the output's side and >= d_x on the other".
   So it must equal the exact finite-N answer of every such partition, and bound every
   smaller one from above. With a partition I below that threshold the moment route answers
   that partition (J = every other position), bounded below by the token grid at N = 2 |I|
   (the ``partition`` parameter of ``moment_separation_rank``, same file l.560-562), whose
   rank is at most s(|I|, |I|).
3. The checker itself: a toy route registered with ``register_route`` that returns a wrong
   answer makes the agreement check fail; an honest toy does not.

Every expected relation comes from the definitions and propositions above, never from a value
the code computed. Only the public API is used (``seprank`` and the names exported by
``seprank.separation``), so the test does not depend on where the routes' modules live.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import random
from dataclasses import dataclass

import pytest

import seprank
from seprank.separation import (
    SeparationRankResult,
    SeparationRoute,
    register_route,
    route_names,
    unregister_route,
)

#: the routes registered when the tests are collected (a new route is tested automatically)
ROUTES = route_names()

#: the answer kinds a separation result may carry (the front door's documentation)
KINDS = ("exact", "lower_bound", "upper_bound", "probabilistic")


def _refusal_type() -> type[Exception]:
    """The exception class of a documented refusal, taken from the front door itself: an
    unknown route name "fails before any other work" with it (``plan_separation``)."""
    try:
        seprank.plan_separation(1, 1, 1, route="no such route, surely")
    except ValueError as exc:
        return type(exc)
    raise AssertionError("plan_separation accepted an unknown route name")


#: ParameterError (read from a refusal, not imported: its module may move)
REFUSAL = _refusal_type()


def test_refusal_is_the_documented_parameter_error():
    assert REFUSAL.__name__ == "ParameterError"
    assert issubclass(REFUSAL, ValueError)


# ------------------------------------------------------------------ the requests


@dataclass(frozen=True)
class Case:
    """One request: a seeded network, N, a partition (``I``: None = the default), an output.

    ``M``: the number of templates given to routes that take templates."""

    L: int
    d_x: int
    H: int
    N: int | float
    residual: bool = False
    seed: int = 0
    I: tuple[int, ...] | None = None
    position: int = 0
    coordinate: int = 0
    M: int = 3

    @property
    def id(self) -> str:
        N = "inf" if self.N == math.inf else self.N
        part = "" if self.I is None else f"-I{''.join(map(str, self.I))}"
        return (f"L{self.L}d{self.d_x}H{self.H}N{N}{'res' if self.residual else ''}"
                f"-s{self.seed}{part}-y{self.position}.{self.coordinate}")

    def kwargs(self) -> dict:
        kw = dict(L=self.L, d_x=self.d_x, H=self.H, N=self.N, residual=self.residual,
                  seed=self.seed, position=self.position, coordinate=self.coordinate)
        if self.I is not None:
            kw["partition"] = list(self.I)
        return kw

    def expected_partition(self) -> dict | None:
        """{"I", "J"} the answer must report (None at N = inf; default I: the first half)."""
        if self.N == math.inf:
            return None
        I = list(self.I) if self.I is not None else list(range(self.N // 2))
        return {"I": I, "J": [j for j in range(self.N) if j not in I]}


def templates(case: Case) -> list[list[int]]:
    """``case.M`` distinct integer templates of length d_x, entries in [-M, M] (so there are
    always M distinct ones), fixed by the case."""
    rng = random.Random(f"{case.id}-templates")
    rows: list[list[int]] = []
    while len(rows) < case.M:
        row = [rng.randint(-case.M, case.M) for _ in range(case.d_x)]
        if row not in rows:
            rows.append(row)
    return rows


def identity_embedding(case: Case) -> dict:
    """wies2021 eq. (2) with k = 1, W_1 = the d_x x d_x identity and p = 0: y^{0,n} = x^n,
    so the network behind it is the network itself, and its M = k N = N raw positions are
    the N positions (the same question, the same partition). None at N = inf (the
    embedding route answers finite N only; it must refuse there)."""
    if case.N == INF:
        return {}
    from seprank.models.embedding import ConvolutionalEmbedding

    eye = [[int(i == j) for j in range(case.d_x)] for i in range(case.d_x)]
    return {"embedding": ConvolutionalEmbedding([eye], [[0] * case.N] * case.d_x)}


#: options a route needs beyond the request (by registry name; a new route: none)
ROUTE_OPTIONS = {"template-grid": lambda case: {"templates": templates(case)},
                 "embedding": identity_embedding}

INF = math.inf
CASES = [
    # L = 1: degree 3; M = 4 templates make the template grid exact when |I| = 1, d_x = 1
    Case(1, 1, 1, 2, seed=0, M=4),
    Case(1, 1, 1, 2, residual=True, seed=1, M=4),
    Case(1, 1, 1, 3, seed=2, I=(0, 2), position=1, M=4),
    Case(1, 1, 1, 4, residual=True, seed=0, I=(1,), position=0),
    Case(1, 2, 1, 2, seed=0, M=4),
    Case(1, 2, 2, 2, residual=True, seed=1, coordinate=1, M=4),
    Case(1, 2, 1, 3, seed=3, I=(0, 2), position=2, coordinate=1),
    Case(1, 2, 2, 4, seed=2, I=(0, 1), position=3),
    Case(1, 3, 1, 2, seed=0, coordinate=2, M=4),
    Case(1, 3, 3, 2, residual=True, seed=1, position=1, M=4),
    Case(1, 3, 1, 3, residual=True, seed=2, I=(1,)),
    # enough templates for an exact template grid: M^|I| >= the monomials of degree <= 3^L
    Case(1, 2, 1, 2, seed=4, M=10),
    Case(1, 3, 3, 2, residual=True, seed=3, M=20),
    Case(2, 1, 1, 2, residual=True, seed=3, M=10),
    # L = 2: degree 9
    Case(2, 1, 1, 2, seed=0, M=4),
    Case(2, 1, 1, 3, residual=True, seed=1, I=(2,), position=0),
    Case(2, 2, 1, 2, seed=1, coordinate=1, M=4),
    Case(2, 2, 2, 2, residual=True, seed=0),
    Case(2, 3, 1, 2, seed=2),
    Case(2, 3, 3, 2, residual=True, seed=0, position=1, coordinate=2),
    # the limit N -> infinity (only the moment route among the built-in ones)
    Case(1, 1, 1, INF, seed=0),
    Case(1, 2, 2, INF, residual=True, seed=1, coordinate=1),
    Case(2, 1, 1, INF, seed=2, I=(0,)),
    Case(1, 2, 1, INF, seed=0, I=(1,), position=0),
]


# ------------------------------------------------------------------ running a route


@dataclass(frozen=True)
class Refused:
    """A route's documented refusal of a request."""

    route: str
    why: str


def _request(case: Case, route: str) -> dict:
    kw = case.kwargs()
    kw.update(ROUTE_OPTIONS.get(route, lambda c: {})(case))
    return kw


def _planner_says(case: Case, route: str) -> tuple[bool, str]:
    """(whether the planner's ``candidates`` say ``route`` can run the request, why not).

    ``auto`` asks every registered route; when none can run, it refuses as a whole."""
    try:
        plan = seprank.plan_separation(**_request(case, route))
    except REFUSAL as exc:
        return False, str(exc)
    cands = {c.name: c for c in plan.candidates}
    assert route in cands, f"the planner did not ask {route!r}: {sorted(cands)}"
    cannot = cands[route].cannot
    return cannot is None, cannot or ""


def run_route(case: Case, route: str) -> SeparationRankResult | Refused:
    """The answer of ``route`` to ``case``, or its refusal (checked to be the documented one:
    a ParameterError from the front door, exactly when the planner says it cannot run)."""
    can, why = _planner_says(case, route)
    try:
        result = seprank.separation_rank(**_request(case, route), route=route)
    except REFUSAL as exc:
        assert not can, f"{route} refused {case.id} ({exc}) though the planner says it can run"
        assert "cannot run" in str(exc), f"{route}'s refusal does not say why: {exc}"
        return Refused(route, str(exc))
    assert can, f"{route} answered {case.id} though the planner says it cannot: {why}"
    return result


@functools.cache
def answer(case: Case, route: str) -> SeparationRankResult | Refused:
    """:func:`run_route`, once per (case, route) for the whole module."""
    return run_route(case, route)


def check_self_consistent(r: SeparationRankResult, route: str, case: Case) -> None:
    """What one answer claims about itself and the request it answered."""
    assert r.route == route and r.route_asked == route
    assert r.kind in KINDS, f"{route}: unknown kind {r.kind!r}"
    assert isinstance(r.value, int) and r.value >= 0
    if r.upper_bound is not None:
        assert r.value <= r.upper_bound, f"{route}: value {r.value} > its upper bound"
        if r.kind == "exact":
            assert r.upper_bound == r.value, f"{route}: exact, but upper bound {r.upper_bound}"
    assert r.partition == case.expected_partition()
    assert (r.position, r.coordinate) == (case.position, case.coordinate)
    assert r.residual is case.residual
    assert r.network["L"] == case.L and r.network["d_x"] == case.d_x
    assert r.network["H"] == case.H
    d = r.to_dict()
    assert (d["value"], d["kind"], d["route"]) == (r.value, r.kind, route)


# ------------------------------------------------------------------ the agreement check


def certified_interval(r: SeparationRankResult) -> tuple[float, float]:
    """[lo, hi] that the answer's kind certifies to contain the separation rank."""
    up = math.inf if r.upper_bound is None else r.upper_bound
    if r.kind == "exact":
        return r.value, r.value
    if r.kind == "lower_bound":
        return r.value, up
    if r.kind == "upper_bound":
        return 0, r.value
    if r.kind == "probabilistic":
        return 0, up
    raise AssertionError(f"unknown answer kind {r.kind!r}")


def disagreements(answers: dict[str, SeparationRankResult]) -> list[str]:
    """Every pair of answers whose certified intervals do not meet (one line each).

    Pairwise, all intervals containing one number is the same as their meeting (intervals
    on a line: Helly's theorem in dimension one), so this is exactly "all exact answers
    equal, every lower bound <= every exact answer and upper bound, and so on"."""
    out = []
    names = sorted(answers)
    for a in names:
        for b in names:
            lo_a, _ = certified_interval(answers[a])
            _, hi_b = certified_interval(answers[b])
            if a != b and lo_a > hi_b:
                ra, rb = answers[a], answers[b]
                out.append(f"{a} says sep >= {lo_a} ({ra.kind} {ra.value}) but {b} says "
                           f"sep <= {hi_b} ({rb.kind} {rb.value}, upper bound "
                           f"{rb.upper_bound})")
    return out


def assert_agree(answers: dict[str, SeparationRankResult]) -> None:
    problems = disagreements(answers)
    assert not problems, "routes disagree:\n" + "\n".join(problems)


def answered(case: Case, routes=None) -> dict[str, SeparationRankResult]:
    """Every answer (refusals left out) of the given routes (default: the registry's now)."""
    out = {}
    for name in route_names() if routes is None else routes:
        a = answer(case, name) if name in ROUTES else run_route(case, name)
        if not isinstance(a, Refused):
            out[name] = a
    return out


# ------------------------------------------------------------------ 1. agreement


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
@pytest.mark.parametrize("route", ROUTES)
def test_route_agrees_with_every_other_route(route, case):
    mine = answer(case, route)
    if isinstance(mine, Refused):
        pytest.skip(f"{route} cannot run {case.id}: {mine.why}")
    check_self_consistent(mine, route, case)
    assert_agree(answered(case, ROUTES))


#: known departures from "to_dict() is a JSON-able dict" (result.py), by route
@pytest.mark.parametrize("route", ROUTES)
def test_to_dict_is_plain_json(route):
    """``SeparationRankResult.to_dict`` is documented as "a JSON-able dict" (the --json
    object): plain json round-trips it, with no default= to stringify odd types."""
    found = [answer(c, route) for c in CASES]
    results = [r for r in found if not isinstance(r, Refused)]
    assert results, f"{route} answered no case"
    for r in results:
        d = r.to_dict()
        assert json.loads(json.dumps(d, allow_nan=False)) == d


@pytest.mark.parametrize("case", [c for c in CASES if c.N != INF], ids=lambda c: c.id)
def test_every_finite_case_has_an_exact_answer_to_compare_with(case):
    """The agreement test is not vacuous: at least two routes answer every finite case and
    one of them exactly (the coefficient expansion is exact for every finite request)."""
    answers = answered(case, ROUTES)
    assert len(answers) >= 2, sorted(answers)
    assert any(r.kind == "exact" for r in answers.values()), {
        n: (r.kind, r.value) for n, r in answers.items()}


def test_every_registered_route_answers_some_case():
    """Each route in the registry is exercised by at least one case (else the list of cases
    needs one it can run: give it options in ROUTE_OPTIONS)."""
    for route in ROUTES:
        assert any(not isinstance(answer(c, route), Refused) for c in CASES), route


# ------------------------------------------------------------------ 2. N -> infinity


@dataclass(frozen=True)
class Net:
    """A seeded network and output coordinate (position: see each test)."""

    L: int
    d_x: int
    H: int
    residual: bool = False
    seed: int = 0
    coordinate: int = 0

    @property
    def id(self) -> str:
        return (f"L{self.L}d{self.d_x}H{self.H}{'res' if self.residual else ''}"
                f"-s{self.seed}-c{self.coordinate}")

    def call(self, N, **kw) -> SeparationRankResult:
        return _call(self, N, tuple(sorted(kw.items())))


@functools.cache
def _call(net: Net, N, kw: tuple) -> SeparationRankResult:
    return seprank.separation_rank(L=net.L, d_x=net.d_x, H=net.H, N=N, residual=net.residual,
                                   seed=net.seed, coordinate=net.coordinate, **dict(kw))


def exact_finite(net: Net, a: int, b: int, *, output_side: bool = True,
                 interleave: bool = False) -> int:
    """s(a, b): the exact separation rank at N = a + b for a partition with ``a`` positions
    on the output's side and ``b`` on the other (coefficient route, the exact expansion).

    ``output_side``: the output sits in I (else in J, with |J| = a); ``interleave``: the
    output's side takes every other position rather than a block (Proposition 1(a): the
    positions' identity does not matter, only the sizes)."""
    N = a + b
    out_side = list(range(0, 2 * a, 2)) if interleave and 2 * a - 1 <= N else list(range(a))
    other = [j for j in range(N) if j not in out_side]
    position = out_side[-1]
    I, J = (out_side, other) if output_side else (other, out_side)
    r = net.call(N, partition=(tuple(I), tuple(J)), position=position, route="coefficient")
    assert r.kind == "exact", (r.kind, r.value)
    assert position in (I if output_side else J)
    return r.value


def moment(net: Net, **kw) -> SeparationRankResult:
    r = net.call(INF, route="moment", **kw)
    assert r.route == "moment" and r.seq_len == INF
    return r


MOMENT_NETS = [
    Net(1, 1, 1, seed=0),
    Net(1, 1, 1, residual=True, seed=1),
    Net(2, 1, 1, seed=2),
    Net(2, 1, 1, residual=True, seed=0),
    Net(1, 2, 1, seed=0),
    Net(1, 2, 2, residual=True, seed=1, coordinate=1),
    Net(1, 3, 1, seed=2),
    Net(1, 3, 3, residual=True, seed=0, coordinate=2),
    Net(2, 2, 1, seed=1),
    Net(2, 2, 2, residual=True, seed=0, coordinate=1),
]


def _placements(net: Net) -> list[tuple[int, int, bool, bool]]:
    """(a, b, output in I, interleaved) at or past the threshold a, b >= d_x of
    Proposition 2': balanced at N = 2 d_x with the output on either side, and one
    unbalanced partition (b = d_x + 1) where it stays cheap."""
    d = net.d_x
    out = [(d, d, True, False), (d, d, False, True)]
    if net.L == 1 or d == 1:
        out.append((d, d + 1, True, True))
    return out


@pytest.mark.parametrize("net", MOMENT_NETS, ids=lambda n: n.id)
def test_moment_equals_finite_n_from_the_threshold(net):
    """Proposition 2': s(a, b) = R for all a, b >= d_x. The moment route's answer without a
    partition is R; the coefficient route's answer at finite N is s(a, b), exactly."""
    m = moment(net)
    lo, hi = certified_interval(m)
    values = {}
    for a, b, in_I, inter in _placements(net):
        values[(a, b, in_I, inter)] = s = exact_finite(net, a, b, output_side=in_I,
                                                       interleave=inter)
        assert lo <= s <= hi, (net.id, (a, b, in_I), s, m.kind, m.value, m.upper_bound)
        if m.kind == "exact":
            assert s == m.value, (net.id, (a, b, in_I), s, m.value)
    # Proposition 2' again: at or past the threshold the sizes alone fix the value
    assert len(set(values.values())) == 1, values
    # the same network on both sides of the comparison
    assert m.weights == net.call(2 * net.d_x, partition=tuple(range(net.d_x)),
                                 position=0, route="coefficient").weights


@pytest.mark.parametrize("net", MOMENT_NETS, ids=lambda n: n.id)
def test_moment_exact_from_n_is_a_true_claim(net):
    """An exact moment answer says from which balanced N it holds. Proposition 2' guarantees
    N = 2 d_x; a smaller N0 claims s(N0/2, N0/2) = R, which the exact finite route must
    confirm (and by Proposition 1(b) then every larger balanced N, checked at 2 d_x above)."""
    m = moment(net)
    if m.kind != "exact":
        pytest.skip(f"the moment answer is {m.kind}")
    n0 = m.facts.get("exact_from_N")
    assert isinstance(n0, int) and 2 <= n0 <= 2 * net.d_x and n0 % 2 == 0, n0
    assert exact_finite(net, n0 // 2, n0 // 2) == m.value


@pytest.mark.parametrize("net", [n for n in MOMENT_NETS if n.d_x >= 2], ids=lambda n: n.id)
def test_finite_n_below_the_threshold_grows_and_stays_below_the_limit(net):
    """Below the threshold only inequalities are guaranteed: s(a, b) is nondecreasing in a
    and in b (Proposition 1(b)) and at most R (Proposition 1(c)); s(d_x, d_x) = R
    (Proposition 2')."""
    d = net.d_x
    sizes = [(a, b) for a in range(1, d + 1) for b in range(1, d + 1)
             if net.L == 1 or a + b <= 4]
    s = {(a, b): exact_finite(net, a, b) for a, b in sizes}
    for (a, b), v in s.items():
        for (a2, b2), v2 in s.items():
            if a <= a2 and b <= b2:
                assert v <= v2, f"s{(a, b)} = {v} > s{(a2, b2)} = {v2}"
    m = moment(net)
    _, hi = certified_interval(m)
    assert all(v <= hi for v in s.values()), (s, m.kind, m.value, m.upper_bound)
    if m.kind == "exact":
        assert all(v <= m.value for v in s.values())
        assert s[(d, d)] == m.value


SMALL_PARTITIONS = [(net, I, position) for net in MOMENT_NETS if net.d_x >= 2
                    for I, position in [((0,), 0), ((1,), 0), ((0, 2), 2), ((1, 2), 0)]
                    if len(I) < net.d_x]


@pytest.mark.parametrize("net,I,position", SMALL_PARTITIONS,
                         ids=[f"{n.id}-I{''.join(map(str, I))}-y{p}"
                              for n, I, p in SMALL_PARTITIONS])
def test_moment_with_a_small_partition(net, I, position):
    """A partition with m = |I| < d_x positions at N = inf: the answer is that partition's
    separation rank (J = every other position), certified from below by the token grid at
    N = 2 m, whose rank is at most s(m, m), and from above by R (Proposition 1(c)).
    Proposition 1(b): s(m, m) <= the partition's rank; so an exact answer equals s(m, m).
    The output may sit in I or in the infinite J: s(m, m) is balanced either way."""
    r = moment(net, partition=I, position=position)
    assert r.facts.get("partition", {}).get("I") == list(I)
    s_mm = exact_finite(net, len(I), len(I))
    assert r.value <= s_mm <= r.upper_bound, (r.kind, r.value, s_mm, r.upper_bound)
    if r.kind == "exact":
        assert r.value == s_mm
    # Proposition 1(c): no partition exceeds R
    assert r.value <= certified_interval(moment(net))[1]


# ------------------------------------------------------------------ 3. the checker


def _borrow(name: str) -> SeparationRoute:
    """The registered route object called ``name``, through the public registry only:
    unregister it and every route after it, then register them again in the same order."""
    names = route_names()
    tail = [unregister_route(n) for n in names[names.index(name):]]
    for r in tail:
        register_route(r)
    assert route_names() == names
    return tail[0]


class Wrapped(SeparationRoute):
    """A toy route: the coefficient route's plan and run, then ``change`` to the outcome."""

    def __init__(self, name: str, inner: SeparationRoute, change):
        self.name, self.inner, self.change = name, inner, change
        self.summary = f"toy: {inner.name} with a changed answer"
        self.matrix_words, self.takes = inner.matrix_words, inner.takes

    def can_run(self, request):
        return self.inner.can_run(request)

    def estimate(self, request):
        return self.inner.estimate(request)

    def plan(self, request):
        return self.inner.plan(request)

    def run(self, request, plan):
        out = copy.copy(self.inner.run(request, plan))
        for key, value in self.change(out).items():
            setattr(out, key, value)
        return out


TOYS = {
    "honest": (lambda o: {}, False),
    "exact-plus-one": (lambda o: {"value": o.value + 1, "upper_bound": o.value + 1}, True),
    "lower-bound-too-high": (lambda o: {"kind": "lower_bound", "value": o.value + 1,
                                        "upper_bound": o.value + 5}, True),
    "upper-bound-too-low": (lambda o: {"kind": "upper_bound", "value": o.value - 1,
                                       "upper_bound": o.value - 1}, True),
}


@pytest.fixture(params=sorted(TOYS))
def toy_route(request):
    if "coefficient" not in route_names():
        pytest.skip("no coefficient route to wrap")
    change, wrong = TOYS[request.param]
    name = f"toy-{request.param}"
    register_route(Wrapped(name, _borrow("coefficient"), change))
    try:
        yield name, wrong
    finally:
        unregister_route(name)
    assert name not in route_names()


def test_the_agreement_check_catches_a_wrong_route(toy_route):
    name, wrong = toy_route
    case = Case(1, 1, 1, 2, seed=0)
    answers = answered(case)            # the registry now: the toy included
    assert name in answers and "coefficient" in answers
    assert answers[name].route == name
    problems = disagreements(answers)
    if not wrong:
        assert problems == []
        return
    assert problems and all(name in p for p in problems), problems
    with pytest.raises(AssertionError, match="routes disagree"):
        assert_agree(answers)
