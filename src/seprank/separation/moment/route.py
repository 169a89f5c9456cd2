"""The moment route of the separation front door: ``N = math.inf`` (``-N inf``).

The route object :data:`ROUTE` (registered in :mod:`seprank.separation.routes`) answers
the limit N -> infinity of :func:`seprank.separation_rank` through the moment form
y^{L,i} = G_L(S) x^i, S = sum_j x^j x^jT (levine2020 eq. (3), sec. 2.2; residual A.4;
wies2021 eq. (1)-(2) embeddings without positional part). The mathematics and what
each answer kind claims are in :mod:`seprank.separation.moment` (Propositions 1-3):

* the upper bound R' >= R = rank_Q(C_F) holds for every N and every partition;
* a lower bound is a nonzero minor mod p, either of the token grid at a finite N
  (:mod:`seprank.separation.moment.tokens`) or of C_F itself, which equals sep on
  every partition with >= a positions on the output's side and >= b on the other
  (Proposition 2: (a, b) = (d_x + 1, d_x) for tokens);
* ``exact`` only when the two meet; the result then says from which (balanced) N on
  (``exact_from_N``). Otherwise ``probabilistic`` (every deficient block ranked mod a
  random prime, with its error bound) or ``lower_bound`` with the certified upper bound.

The partition is the request's ``I`` (parsed once by the planner: I alone, its
complement J being every other position; with fewer positions than Proposition 2' asks
the answer is that partition's, from the token grid at N = 2 |I| and rank_Q(C_F)).

Options (``SeparationRequest.options``): ``token_search`` (``auto``: only where the answer
needs it; ``search``: N = 2, 4, ...), ``embedding`` (a wies2021 embedding without
positional part), ``budget_seconds`` (*bounds after*: the estimated seconds the plan may
take; blocks past it are sampled or skipped and the answer degrades to certified bounds;
default :data:`~seprank.separation.moment.DEFAULT_BUDGET_SECONDS`; ``seprank sep-rank
--bounds-after S``; ``--explain`` shows it), ``max_seq_len`` (largest N of the token
search), and ``scheduler`` / ``workers`` / ``store`` (the catalecticant blocks'
eliminations as Dask tasks on a local cluster or a running scheduler, resumable from a
JSON-lines store: :mod:`seprank.separation.moment.tasks`).

The budget means here what it means on every route: the plan is made within the
request's ``max_memory``, and a plan whose estimate passes ``max_seconds`` is refused
before any work (:mod:`seprank.budget`); ``max_seconds`` never degrades the answer, only
``budget_seconds`` does.

>>> import math, seprank
>>> r = seprank.separation_rank(1, 1, 1, N=math.inf, weights={k: [[[[1]]]] for k in "QKVO"})
>>> r.value, r.kind, r.route, r.facts["exact_from_N"]
(2, 'exact', 'moment', 2)
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from seprank.models.generic_weights import generic_bound
from seprank.runtime.compiled_cache import pending_compilation
from seprank.separation.route import (
    PlannedBlock,
    RouteOutcome,
    RoutePlan,
    SeparationRoute,
    WorkEstimate,
)

__all__ = ["MomentRoute", "ROUTE"]

#: what the route's matrix is called in the result's text
MATRIX_WORDS = "moment-form blocks C_F"
#: Fixed seconds of every run: loading the cached kernels, python-flint's and SymPy's
#: first calls (measured 0.8-1.0 s wall on small cases, 2-core machine, 2026-11-28; the
#: estimate against wall time is benchmarks/explain_vs_wall.py's to measure).
LOAD_SECONDS = 0.8
#: the modules whose numba kernels the route runs (their first compilation is counted in
#: the estimate and announced: seprank.runtime.compiled_cache.pending_compilation)
_LU = ("seprank.linalg.engines.modular_lu",)
_EVALUATOR = ("seprank.models.moment_mod_p", "seprank.models.network_mod_p")
_EXPANSION = ("seprank.separation.moment.term_table", "seprank.separation.moment.expansion_mod")
KERNEL_MODULES = _LU + _EVALUATOR + _EXPANSION


def kernel_modules(prep) -> tuple[str, ...]:
    """The modules of :data:`KERNEL_MODULES` whose kernels this plan runs: the LU always;
    the block gather and the compiled product with an expansion; the moment-form
    evaluator (and the network kernel it calls) with evaluated or sampled blocks or a
    token search that will run. A token search that runs only if a block stays inexact
    depends on the answer and is not counted (a cold run of L = 3, d_x = 3, H = 1
    compiled 7 s of kernels, where all five modules are estimated at 51 s).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.separation.moment import prepare_moment
    >>> mods = kernel_modules(prepare_moment(SelfAttentionNetwork.random(1, 1, 1, seed=0)))
    >>> [m.rsplit(".", 1)[1] for m in mods]
    ['modular_lu', 'moment_mod_p', 'network_mod_p']
    """
    plan = prep.plan
    evaluates = any(b["method"] in ("evaluation", "sampled") for b in plan.blocks)
    tokens = prep.fam.label == "tokens" and (prep.small_side is not None
                                             or prep.token_search == "search")
    return (_LU + (_EVALUATOR if evaluates or tokens else ())
            + (_EXPANSION if plan.expand else ()))


def _option(options: Mapping, name: str, default):
    return options[name] if name in options else default


class MomentRoute(SeparationRoute):
    """The limit N -> infinity through the moment form (module docstring).

    Runs only for N = inf; ``auto`` always chooses it there (no other route can).

    >>> from types import SimpleNamespace
    >>> ROUTE.can_run(SimpleNamespace(finite=True))
    'answers N = inf only (the limit N -> infinity); a finite N has the other routes'
    """

    name = "moment"
    summary = "the limit N -> infinity through the moment form y^i = G_L(S) x^i"
    matrix_words = MATRIX_WORDS
    takes = frozenset({"embedding", "budget_seconds", "max_seq_len",
                       "scheduler", "workers", "store", "token_search"})

    def can_run(self, request) -> str | None:
        if request.finite:
            return "answers N = inf only (the limit N -> infinity); a finite N has the other routes"
        return None

    def should_run(self, request, *, fallback: bool = False) -> tuple[bool, str]:
        if fallback:
            return False, "no second route answers N = inf"
        return True, ("N = inf: y^i = G_L(S) x^i depends on the tokens only through "
                      "S = sum_j x^j x^jT, so the moment form's blocks decide every N")

    def refusal_hint(self, request) -> str | None:
        """No N or L is smaller at N = inf: name the option that degrades to bounds.

        >>> ROUTE.refusal_hint(None).split(":")[0]
        'certified bounds within a time instead'
        """
        return ("certified bounds within a time instead: budget_seconds=S "
                "(--bounds-after S) samples or skips the blocks past S")

    def plan(self, request) -> RoutePlan:
        from seprank.separation.moment import DEFAULT_BUDGET_SECONDS, prepare_moment

        opts, budget, I = request.options, request.budget, request.I
        prep = prepare_moment(
            request.network, position=request.position, coordinate=request.coordinate,
            embedding=_option(opts, "embedding", None), prime=request.prime,
            seed=request.points_seed, certify=request.certify,
            max_seq_len=_option(opts, "max_seq_len", None),
            max_memory=int(budget.memory_limit),
            budget_seconds=_option(opts, "budget_seconds", DEFAULT_BUDGET_SECONDS),
            tasks=_tasks(opts), partition=I,
            token_search=_option(opts, "token_search", "auto"),
            weight_bound=None if request.weights_seed is None else generic_bound(
                request.network.L))
        unit = "patches" if prep.fam.label == "convolution" else "positions"
        pending = pending_compilation(kernel_modules(prep))
        return RoutePlan(tuple(_planned_blocks(prep)), _estimate(prep, pending),
                         ("exact", "probabilistic", "lower_bound"), prime=prep.prime,
                         uses_points_seed=True, notes=tuple(_notes(prep, I, unit, pending)),
                         data=prep)

    def run(self, request, plan: RoutePlan) -> RouteOutcome:
        from seprank.separation.moment import run_moment

        out = _outcome(run_moment(plan.data), plan.data)
        if request.I is not None:
            out.facts["partition"] = {"I": list(request.I), "J": "every other position"}
        return out


def _tasks(opts: Mapping) -> dict | None:
    """The Dask/store options, or None when none was given (blocks in this process)."""
    names = ("scheduler", "workers", "store")
    if not any(opts.get(n) is not None for n in names):
        return None
    return {n: opts.get(n) for n in names}


def _planned_blocks(prep) -> list[PlannedBlock]:
    out = []
    for spec, b in zip(prep.specs, prep.plan.blocks, strict=True):
        label = "all" if spec.degree is None else spec.degree
        out.append(PlannedBlock("all" if spec.row_degree is None else spec.row_degree, label,
                                tuple(spec.shape), spec.cap, points=None,
                                zero_by_parity=b["method"] == "zero"))
    return out


def _estimate(prep, pending: tuple[list[str], float]) -> WorkEstimate:
    """The plan's work (operations by kind of :data:`seprank.budget.RATES`, counted per
    phase by :mod:`seprank.separation.moment.plan`) as the budget reads it."""
    plan = prep.plan
    methods = [b["method"] for b in plan.blocks]
    counts = {m: methods.count(m) for m in dict.fromkeys(methods)}
    phases = [("expansion", f"G_L as {plan.expansion['terms']} terms"
               if plan.expand else "none (evaluations only)"),
              ("blocks", ", ".join(f"{n} {m}" for m, n in counts.items())),
              ("tokens", _token_phase(prep))]
    ops = int(sum(o for o, _ in plan.work))
    kept = [b["shape"] for b in plan.blocks if b["method"] not in ("skipped", "zero")]
    largest = max(kept, key=lambda s: min(s), default=[0, 0])
    pending, compile_s = pending
    if pending:
        phases.insert(0, ("compile", f"numba kernels of {', '.join(pending)} (first run on "
                                     f"this machine only, about {compile_s:.0f} s)"))
    return WorkEstimate(tuple(phases), ops, int(plan.peak_bytes), work=tuple(plan.work),
                        fixed_seconds=compile_s + LOAD_SECONDS,
                        detail=f"blocks up to {largest[0]} x {largest[1]}")


def _token_phase(prep) -> str:
    if prep.fam.label != "tokens":
        return "none (embedding: Proposition 2 alone)"
    if prep.small_side is not None:
        return f"N = {2 * prep.small_side} (the partition's smaller side)"
    if prep.token_search == "search":
        return "N = 2, 4, ... until the token lower bound meets the blocks"
    return "only if a block stays inexact (then N = 2, 4, ...)"


def _notes(prep, I, unit: str, pending: tuple[list[str], float]) -> list[str]:
    from seprank.budget import calibration, load_factor

    a, b = prep.thresholds
    plan, speed, (busy, load) = prep.plan, calibration(), load_factor()
    here = speed * busy
    compile_s = (f" + about {pending[1] * here:.0f} s compiling numba kernels (first run on "
                 "this machine only)" if pending[0] else "")
    lines = [f"estimated {plan.seconds * here:.3g} s{compile_s} here now ({plan.seconds:.3g} s "
             f"at the reference rates, times {speed:.2g} for this machine's speed and "
             f"{busy:.2g} for its load {load:.1f} on {os.cpu_count()} cores); bounds after "
             f"{prep.budget_seconds:.0f} s (option budget_seconds, --bounds-after: blocks "
             "past it are sampled or skipped, a lower_bound answer)",
             f"family: {prep.fam.notes}",
             f"partitions: the value is sep of every partition with >= {a} {unit} on the "
             f"output's side and >= {b} on the other" + (
                 "" if I is None else f" (given: I = {list(I)}, J = every other position)")]
    lines += [f"plan: {r}" for r in plan.reasons]
    return lines


def _sentence(res) -> str | None:
    if res.kind != "probabilistic":
        return None
    return (f"probabilistic: rank-deficient blocks ranked mod the random prime "
            f"{res.run.prime}; P[a rank over Q differs] <= "
            f"{res.run.error_bound:.3g}; certified {res.lower_bound} <= sep <= "
            f"{res.upper_bound}")


def _outcome(res, prep) -> RouteOutcome:
    from seprank.network_theory.corrected_bounds import corrected_upper

    rows = sum(b["shape"][0] for b in res.blocks)
    cols = sum(b["shape"][1] for b in res.blocks)
    net = prep.net
    facts = {"exact_from_N": res.exact_from_N, "saturation_N": res.saturation_N,
             "lower_bound": res.lower_bound, "lower_bound_N": res.lower_bound_N,
             "partitions_covered": res.partitions_covered, "family": res.family,
             "token_ranks": res.token_ranks, "count_bound": res.run.count_bound,
             "moment_plan": res.run.plan.to_dict(), "family_facts": res.run.family,
             "basis": res.basis, "token_search": res.run.token_search,
             "generic": res.generic}
    if res.family == "tokens":
        facts["moment_bound"] = {"value": corrected_upper(net.L, net.d_x),
                                 "statement": "sep <= C(C(L) + D, D), D = d_x(d_x+1)/2 "
                                 "(network_theory.corrected_bounds.corrected_upper)",
                                 "respected": res.value <= corrected_upper(net.L, net.d_x)}
    if res.partition is not None and res.kind == "exact" and res.lower_bound_N and \
            res.lower_bound_N < sum(prep.thresholds):
        when = f"exact for the partition I = {list(res.partition)}, J = every other position"
    elif res.kind == "exact":
        when = (f"exact for every N >= {res.exact_from_N} (balanced partitions) and every "
                "partition with enough positions on each side")
    elif res.partition is not None and res.lower_bound_N and \
            res.lower_bound_N < sum(prep.thresholds):
        when = (f"{res.kind}: certified {res.lower_bound} <= sep <= {res.upper_bound} for the "
                f"partition I = {list(res.partition)}, J = every other position")
    else:
        when = (f"{res.kind}: certified {res.lower_bound} <= sep <= {res.upper_bound} as N -> "
                "infinity")
    facts["text"] = [when, f"rests on: {res.basis}", f"partitions: {res.partitions_covered}"]
    if res.generic:
        g = res.generic
        eps = "" if not g.get("epsilon") else f" (epsilon = {g['epsilon']:.3g})"
        facts["text"].insert(1, f"generic value: {g['claim']}{eps}: {g['why']}")
    if "moment_bound" in facts:
        mb = facts["moment_bound"]
        facts["text"].append(f"corrected bound (upper): sep <= C(C(L) + D, D) = {mb['value']}: "
                             + ("respected" if mb["respected"] else "VIOLATED"))
    timings = {k: v for k, v in res.run.timing.items() if isinstance(v, (int, float))}
    return RouteOutcome(
        res.value, res.kind, res.upper_bound, res.blocks, MATRIX_WORDS,
        matrix_shape=(rows, cols), prime=res.run.prime,
        error_bound=res.run.error_bound, probabilistic=_sentence(res),
        timings=timings, certificates_verified=_verified(res), facts=facts)


def _verified(res) -> bool | None:
    """With certify: whether every block's and every token rank's certificate verified."""
    flags = [b["certificate_verified"] for b in res.blocks if "certificate_verified" in b]
    flags += [t["certificates_verified"] for t in res.token_ranks
              if "certificates_verified" in t]
    return all(flags) if flags else None


#: the registered object (``seprank.separation.routes.BUILTIN_ROUTES``)
ROUTE = MomentRoute()
