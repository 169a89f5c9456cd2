"""Work and memory estimates of the moment route, made before anything is built.

Every block of C_F (:mod:`seprank.separation.moment.blocks`) can be built two ways:

``catalecticant``
    from the exact coefficients of g_j (one expansion of G_L for all blocks, cost
    :func:`expansion_cost`), then the entries of the block (only a row subset of
    its long side: ``short + extra`` rows, enough to reach its rank) and one rank
    mod p. The only form that can certify a rank-deficient block over Q.
``evaluation``
    values of the degree-b part of F at random points (scales mu and Vandermonde
    interpolation), ``cap`` points per side, no expansion; only a full-rank block
    becomes exact.

Blocks that do not fit the time budget are ``sampled`` with the seconds left: the
same evaluation at fewer points per side (:func:`points_within`, at least
:data:`SAMPLE_MIN_POINTS`), a certified lower bound on the block's rank; below that
they are ``skipped`` (rank 0). Either way their upper bound is the cap or, after
catalecticant blocks, the apolar ideal's.

Costs are work: operation counts by kind, at the rates of :data:`seprank.budget.RATES`
(the one rate table; measured on the project machine, 2 cores shared with other jobs):
``mpoly`` term products of the flint expansion (:func:`expansion_cost`; a plain family's
expansion mod p does its last product compiled, ``fused_product``), ``block_entry``
entries of a block built from it, ``moment_eval`` modular multiply-adds of the
moment-form kernel, and the mod-p LU's ``lu_small`` / ``lu`` multiply-adds at the
engine's own primes (:func:`seprank.linalg.estimates.lu_rank_work`). The plan's seconds
are those rates' seconds (:func:`seprank.budget.reference_seconds`, no calibration), so
the same request gets the same plan on a loaded machine; the budget's estimate of the
same work is calibrated to the machine at hand. They are estimates for choosing and
refusing, never evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from seprank.budget import reference_seconds
from seprank.linalg.estimates import lu_rank_work
from seprank.models.moment_mod_p import eval_ops
from seprank.separation.moment.blocks import KEY_LIMIT, BlockSpec

__all__ = ["expansion_cost", "block_options", "MomentPlan", "make_plan", "subset_rows",
           "rank_work", "points_within",
           "SAMPLE_MIN_POINTS"]

#: Bytes per stored polynomial term, beyond 8 per exponent word (flint + numpy copies).
_TERM_BYTES = 120
#: Extra rows of the long side of a catalecticant block beyond its short side (a share
#: of the short side, at least ``SUBSET_MIN_EXTRA``): enough, in the runs so far, for the
#: subset to reach the block's rank (a subset that does not is caught by the kernel check).
SUBSET_EXTRA = 0.03
SUBSET_MIN_EXTRA = 32
#: Fewest points per side for which a block over the budget is still sampled (below it
#: the block is skipped: rank 0, upper bound from its cap or the apolar ideal).
SAMPLE_MIN_POINTS = 16


def subset_rows(long_: int, short: int) -> int:
    """Rows of the long side that a catalecticant block is ranked on.

    >>> subset_rows(97240, 2002), subset_rows(40, 30)
    (2062, 40)
    """
    return min(long_, short + max(SUBSET_MIN_EXTRA, int(SUBSET_EXTRA * short)))


def _terms(n_vars: int, degree: int, residual: bool) -> int:
    if residual:
        return comb(n_vars + degree, degree)
    return comb(n_vars + degree - 1, degree)


#: A lookup of the compiled last product counted as this many multiply-adds.
_LOOKUP_OPS = 4


def expansion_cost(L: int, d: int, r: int, n_vars: int, residual: bool) -> dict:
    """Estimated term products, seconds and peak bytes of :func:`moment_polynomials`
    (dense upper bounds on the term counts: C(D' + k - 1, k) terms of degree k), and
    (``mod_p``) the work and seconds of the expansion mod p
    (:func:`seprank.separation.moment.expansion_mod.expand_mod`), which plain families
    run first.

    >>> c = expansion_cost(3, 4, 4, 10, False)
    >>> c["terms"], round(c["products"] / 1e8, 1), c["mod_p"]["seconds"] < c["seconds"]
    (1989680, 6.1, True)
    """
    products = 0
    c = 0
    last_pairs = 0
    for layer in range(L):
        tc, t1 = _terms(n_vars, c, residual), n_vars
        products += d**3 * tc * t1                                   # G S
        products += d * (d + 1) // 2 * d * _terms(n_vars, c + 1, residual) * tc
        t2 = _terms(n_vars, 2 * c + 1, residual)
        products += (d * r if layer == L - 1 else d**3) * t2 * tc    # M G (last: row G P)
        last_pairs = t2 * tc
        c = 3 * c + 1
    C = c
    terms = r * _terms(n_vars, C, residual)
    c_prev = (C - 1) // 3
    middle = d * (d + 1) // 2 * _terms(n_vars, 2 * c_prev + 1, residual)
    word = 8 * (1 + (8 * n_vars + 63) // 64)
    peak = (terms + middle) * word + terms * (_TERM_BYTES + 8 * n_vars)
    work = ((products, "mpoly"),)
    # mod p (seprank.separation.moment.expansion_mod): flint for all but the last product,
    # which is one compiled pass over the pairs of terms (d r multiply-adds and a lookup each)
    mod_work = ((products - d * r * last_pairs, "mpoly"),
                (last_pairs * (d * r + _LOOKUP_OPS), "fused_product"))
    return {"products": products, "work": work, "seconds": reference_seconds(work),
            "terms": terms,
            "bytes": peak, "keys_fit": (2 * C + 1) ** max(n_vars, 1) < KEY_LIMIT,
            "mod_p": {"work": mod_work, "seconds": reference_seconds(mod_work)}}


def rank_work(m: int, n: int, p: int | None = None) -> tuple[tuple[float, str], ...]:
    """The work of one rank mod p of an m x n block (None: the route's own primes, those
    of the numba engine): :func:`seprank.linalg.estimates.lu_rank_work`.

    >>> round(reference_seconds(rank_work(1000, 1000)), 3)
    0.091
    """
    return lu_rank_work(m, n, p)


def _merge(*works) -> tuple[tuple[float, str], ...]:
    """Work tuples added up by kind (kinds in order of first appearance)."""
    out: dict[str, float] = {}
    for work in works:
        for ops, kind in work:
            out[kind] = out.get(kind, 0) + ops
    return tuple((ops, kind) for kind, ops in out.items())


def points_within(seconds: float, wanted: list[int], n_scales: int, ops: int,
                  p: int | None = None) -> int:
    """The most random points R per side (R <= max(wanted)) whose evaluations (R^2 values at
    ``n_scales`` scales, ``ops`` each) and ranks (min(w, R)^3 for each wanted size w) fit in
    ``seconds`` at the plan's rates; 0 when not even one point fits.

    A block evaluated at R < its cap points per side is E C_b N^T with R x cap matrices E, N
    of monomial values: its rank mod p is at most rank_Q(C_b), a certified lower bound
    whatever the points (:func:`~seprank.separation.moment.ranks.evaluation_ranks`).

    >>> points_within(1e9, [40, 10], 5, 800), points_within(0.0, [40], 5, 800)
    (40, 0)
    >>> points_within(1.0, [10**6], 14, 800)     # about 1.2e9 / (14 * 800) values per second
    325
    """
    def cost(R: int) -> float:
        return reference_seconds(_sample_work(wanted, R, ops, n_scales, p))

    lo, hi = 0, max(wanted, default=0)
    while lo < hi:                                      # the largest R with cost(R) <= s
        mid = (lo + hi + 1) // 2
        if cost(mid) <= seconds:
            lo = mid
        else:
            hi = mid - 1
    return lo


def block_options(spec: BlockSpec, ops: int, n_scales: int, p: int | None = None) -> dict:
    """Work, seconds and bytes of both ways to build one block (module docstring), ranked
    mod ``p`` (None: the route's own primes).

    >>> o = block_options(BlockSpec(2, 2, (220, 55)), 796, 5)
    >>> o["catalecticant"]["rows"], o["evaluation"]["evaluations"]
    (87, 15125)
    """
    m, n = spec.shape
    long_, short = max(m, n), min(m, n)
    rows = subset_rows(long_, short)
    cat_entries = rows * short
    cat_work = _merge(((cat_entries, "block_entry"),), rank_work(rows, short, p))
    cat = {"rows": rows, "entries": cat_entries, "work": cat_work,
           "seconds": reference_seconds(cat_work), "bytes": cat_entries * 8 * 6}
    evals = short * short * n_scales
    ev_work = _merge(((evals * ops, "moment_eval"),), rank_work(short, short, p))
    ev = {"points": short, "evaluations": evals, "work": ev_work,
          "seconds": reference_seconds(ev_work), "bytes": short * short * 8 * 4}
    return {"catalecticant": cat, "evaluation": ev}


@dataclass
class MomentPlan:
    """What the route will build: per block the method (catalecticant / evaluation /
    skipped) and why, the expansion (if any), the work ((operations, kind of
    :data:`seprank.budget.RATES`) pairs), its seconds at those rates and the peak bytes.

    >>> MomentPlan([], False, {}, 0.0, 0).to_dict()["estimated_seconds"]
    0.0
    """

    blocks: list
    expand: bool
    expansion: dict
    seconds: float
    peak_bytes: int
    reasons: list = field(default_factory=list)
    can_expand: bool = False
    work: tuple = ()

    def to_dict(self) -> dict:
        return {"expand": self.expand, "can_expand": self.can_expand,
                "expansion": {k: v for k, v in self.expansion.items() if k != "work"},
                "work": [[round(ops), kind] for ops, kind in self.work],
                "estimated_seconds": round(self.seconds, 2), "peak_bytes": self.peak_bytes,
                "blocks": self.blocks, "reasons": self.reasons}


def _choose(specs, options, expansion, use_expansion: bool, memory_limit: int) -> list:
    """Per block (method, seconds, bytes, work): the faster form among those within memory
    (the faster one when neither fits: the route then refuses with its estimate)."""
    chosen = []
    for spec, opt in zip(specs, options, strict=True):
        if spec.cap == 0:
            chosen.append(("zero", 0.0, 0, ()))
            continue
        forms = [("evaluation", opt["evaluation"])]
        if use_expansion:
            forms.append(("catalecticant", opt["catalecticant"]))
        fitting = [f for f in forms if f[1]["bytes"] <= memory_limit] or forms
        name, est = min(fitting, key=lambda f: f[1]["seconds"])
        chosen.append((name, est["seconds"], est["bytes"], est["work"]))
    return chosen


def make_plan(specs: list[BlockSpec], fam_shape: dict, budget_seconds: float,
              memory_limit: int, prime: int | None = None) -> MomentPlan:
    """Choose, block by block, the cheaper way to build it (module docstring); blocks that
    would take the estimate past ``budget_seconds`` are skipped (slowest first); the
    route refuses a plan whose ``peak_bytes`` exceeds ``memory_limit``. ``fam_shape``:
    L, d, H, d_a, r, n_vars, residual, n_scales; ``prime``: the prime asked for (None:
    the route's own, in the numba engine's range).

    >>> from seprank.separation.moment.blocks import block_specs
    >>> shape = dict(L=2, d=2, H=1, d_a=2, r=2, n_vars=3, residual=False, n_scales=5)
    >>> plan = make_plan(block_specs(2, 3, 4, False), shape, 600, 2**33)
    >>> [b["method"] for b in plan.blocks], plan.expand     # the cheaper form per block
    (['evaluation', 'evaluation', 'catalecticant', 'catalecticant', 'evaluation'], True)
    """
    f = fam_shape
    ops = eval_ops(f["L"], f["d"], f["H"], f["d_a"])
    expansion = expansion_cost(f["L"], f["d"], f["r"], f["n_vars"], f["residual"])
    mod_p = expansion.pop("mod_p")
    if not f["residual"]:          # plain families expand mod p first (run.py), exactly
        expansion.update(mod_p)    # only if that can help
    options = [block_options(s, ops, f["n_scales"], prime) for s in specs]
    can_expand = (expansion["keys_fit"] and expansion["bytes"] <= memory_limit
                  and expansion["seconds"] <= budget_seconds)
    reasons = []
    plans = [(False, _choose(specs, options, expansion, False, memory_limit))]
    if can_expand:
        plans.append((True, _choose(specs, options, expansion, True, memory_limit)))
    else:
        reasons.append(f"no expansion of G_L: estimated {expansion['seconds']:.3g} s and "
                       f"{expansion['bytes'] / 2**30:.3g} GiB for {expansion['terms']} terms"
                       + ("" if expansion["keys_fit"] else "; exponent keys overflow"))
    # the plan that skips the fewest caps within the time budget, then the faster one
    best = None
    for expand, chosen in plans:
        skipped = _over_budget(chosen, expansion["seconds"] if expand else 0.0,
                               budget_seconds)
        key = (sum(specs[i].cap for i in skipped),
               sum(c[1] for i, c in enumerate(chosen) if i not in skipped))
        if best is None or key < best[0]:
            best = (key, expand, chosen, skipped)
    _, expand, kept, skipped = best
    work = _merge(expansion["work"] if expand else (),
                  *(kept[i][3] for i in range(len(kept)) if i not in skipped))
    seconds = reference_seconds(work)
    sample = _sample_points([specs[i].cap for i in sorted(skipped)],
                            budget_seconds - seconds, ops, f["n_scales"], prime)
    sampled = {i: min(sample, specs[i].cap) for i in sorted(skipped)} if sample else {}
    blocks = []
    for i, (spec, opt) in enumerate(zip(specs, options, strict=True)):
        method = ("sampled" if i in sampled else "skipped") if i in skipped else kept[i][0]
        blocks.append({"degree": spec.degree, "shape": list(spec.shape), "cap": spec.cap,
                       "method": method, "estimates": {
                           k: {kk: (round(vv, 4) if isinstance(vv, float) else vv)
                               for kk, vv in v.items() if kk != "work"}
                           for k, v in opt.items()}})
        if i in sampled:
            blocks[-1]["points"] = sampled[i]
    if sampled:
        work = _merge(work, _sample_work([specs[i].cap for i in sampled], sample, ops,
                                         f["n_scales"], prime))
        seconds = reference_seconds(work)
    peak = max([expansion["bytes"] if expand else 0]
               + [kept[i][2] for i in range(len(kept)) if i not in skipped]
               + [sample * sample * 8 * (3 + len(sampled))])
    reasons.append(("expansion of G_L, then for each block the cheaper form"
                    if expand else "evaluations only (no expansion)")
                   + (f"; {len(skipped)} block(s) over the budget of "
                      f"{budget_seconds:.0f} s" + (
                          f", sampled at {sample} x {sample} random points each (a "
                          f"certified lower bound per block)" if sampled else ", skipped")
                      if skipped else ""))
    return MomentPlan(blocks, expand, expansion, seconds, int(peak), reasons, can_expand,
                      work)


def _sample_work(caps: list[int], R: int, ops: int, n_scales: int,
                 p: int | None) -> tuple[tuple[float, str], ...]:
    """The work of sampling the given blocks at R points per side (one set of R x R
    evaluations for all of them, then a rank of each min(cap, R)-square block)."""
    return _merge(((R * R * n_scales * ops, "moment_eval"),),
                  *(rank_work(min(c, R), min(c, R), p) for c in caps))


def _sample_points(caps: list[int], seconds: float, ops: int, n_scales: int,
                   p: int | None) -> int:
    """Points per side at which the blocks over the budget are sampled with the seconds
    left (0: none; fewer than :data:`SAMPLE_MIN_POINTS` or than every cap: skipped)."""
    if not caps or seconds <= 0:
        return 0
    R = points_within(seconds, caps, n_scales, ops, p)
    return R if R >= SAMPLE_MIN_POINTS else 0


def _over_budget(chosen, fixed: float, budget_seconds: float) -> set[int]:
    """The blocks to skip, most expensive first, until the estimate fits the budget."""
    total = fixed + sum(c[1] for c in chosen)
    skipped: set[int] = set()
    for i in sorted(range(len(chosen)), key=lambda i: -chosen[i][1]):
        if total <= budget_seconds:
            break
        if chosen[i][0] != "zero":
            skipped.add(i)
            total -= chosen[i][1]
    return skipped
