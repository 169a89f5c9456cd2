"""Running a moment-route plan: blocks of C_F, then the token search over N.

The mathematics is in :mod:`seprank.separation.moment` (propositions),
:mod:`seprank.separation.moment.ranks` (what each block result claims) and
:mod:`seprank.separation.moment.tokens` (lower bounds at finite N). This module
only sequences them: evaluation blocks first (no expansion needed), then one
exact expansion of G_L if some block is planned as a catalecticant or an
evaluation block came out rank-deficient (only the coefficients can certify a
deficient block), then the catalecticant blocks; then N = 2, 4, ... until the
token lower bound meets the moment-form value.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

import flint
import numpy as np

from seprank.network_theory.moment_form import moment_polynomials
from seprank.separation.moment.apolar import (
    ApolarIdeal,
    first_layer_annihilators,
)
from seprank.separation.moment.blocks import PolyData, poly_data
from seprank.separation.moment.expansion_mod import expand_mod
from seprank.separation.moment.ranks import (
    annihilate_rows,
    catalecticant_rank,
    evaluation_ranks,
    exact_can_help,
    ideal_certifies,
    ideal_upper,
)
from seprank.separation.moment.sparse import (
    SPARSE_MAX_SPLITTINGS,
    derivative_rank,
    sparse_block_ranks,
    splittings,
)
from seprank.separation.moment.tokens import token_lower_bound
from seprank.separation.moment.word_directions import word_annihilators

__all__ = ["run_blocks", "run_tokens", "integer_poly_data"]

#: Progress (one line per block and per N) at INFO level, for long runs.
LOG = logging.getLogger("seprank.moment")
#: Least share of the budget an exact lifting gets, even when the plan used it all.
LIFT_MIN_SHARE = 0.1
#: The expansion is done first, to look for few terms (moment_sparse), when the plan
#: expands anyway or when its estimate is at most this share of the budget.
SPARSE_TRY_SHARE = 0.1
#: A deficient block whose kernel (short side - rank) exceeds this many vectors is lifted
#: only after every other block, when the apolar ideal of their kernels has not filled it
#: (generic L = 3, d_x = 3, H = 3: block 8 lacks 237 relations, which the products of
#: block 5's 21 annihilators give; lifting them first took minutes).
LIFT_FIRST_MAX_KERNEL = 64
#: ... and takes the compressed blocks only when their nonzero entries are at most this
#: share of the blocks' entries (a dense family gains nothing from compressing).
SPARSE_MAX_SHARE = 0.05


def integer_poly_data(polys, n_vars: int, C: int) -> PolyData:
    """:func:`~seprank.separation.moment.blocks.poly_data` of the polynomials times the lcm
    of their denominators (one global factor: the ranks of C_F do not change).

    >>> ctx = flint.fmpq_mpoly_ctx.get(("t", 1), "deglex")
    >>> (t,) = ctx.gens()
    >>> [c.tolist() for c in integer_poly_data([t / 2, t / 3], 1, 1).coeffs]
    [[3], [2]]
    """
    den = 1
    for g in polys:
        for c in g.coeffs():
            if isinstance(c, flint.fmpq):
                den = lcm(den, int(c.q))
    if den == 1:
        return poly_data(polys, n_vars, C)
    scaled = []
    for g in polys:
        ctx = flint.fmpz_mpoly_ctx.get(("t", n_vars), "deglex")
        terms = {tuple(e): int(Fraction(int(c.p), int(c.q)) * den)
                 for e, c in zip(g.monoms(), g.coeffs(), strict=True)}
        scaled.append(ctx.from_dict(terms))
    return poly_data(scaled, n_vars, C)


def _record(spec, method: str, res: dict) -> dict:
    rec = {"degree": spec.degree, "shape": list(spec.shape), "cap": spec.cap,
           "method": method}
    rec.update(res)
    return rec


def _apolar_order(cat: list[int], specs: list) -> list[int]:
    """Blocks with more columns than rows (row relations; they grow towards lower
    degrees) from the highest degree down, then the others (annihilators; they grow
    upwards) from the lowest up (:mod:`seprank.separation.moment.apolar`)."""
    wide = [i for i in cat if specs[i].shape[0] < specs[i].shape[1]]
    return sorted(wide, reverse=True) + sorted(i for i in cat if i not in wide)


def _recheck(cat: list[int], specs: list, results: dict, r: int, ideal) -> None:
    """Blocks left inexact, checked again against what the ideal learned later."""
    for i in _apolar_order(cat, specs):
        rec = results[i]
        if rec["kind"] != "exact" and ideal_certifies(
                specs[i], r, specs[i].shape[0] < specs[i].shape[1], ideal, rec):
            LOG.info("block %s: exact on the second pass, %s", specs[i].label, rec["how"])


def run_blocks(fam, data: dict, specs: list, plan, p: int, seed: int, *, random_p: bool,
               certify: bool, budget_seconds: float | None = None,
               max_memory: float | None = None, subset_ranks=None,
               word=None) -> tuple[list[dict], dict]:
    """Rank every block as planned (module docstring); returns the block records (degree,
    shape, cap, method, rank, upper, kind, seconds, how, ...) and phase timings.

    ``word``: a function of no argument that returns the word's annihilators of ``fam``
    mod ``p`` (:func:`~seprank.separation.moment.word_directions.word_annihilators`), for
    a caller that keeps them (a memo: found once, used here and there); None: found here,
    if the ideal is seeded.

    The exact lifting of a deficient block (its cost is output-sensitive, not known
    before it runs) gets what is left of ``budget_seconds`` since the start (at least
    :data:`LIFT_MIN_SHARE` of it) and ``max_memory`` bytes; past them the block keeps its
    rank mod p. Both None: no limit.

    ``subset_ranks(pd, indices)`` (optional; :func:`seprank.separation.moment.tasks.
    subset_ranks_hook`): the ranks mod p of the planned catalecticant blocks' row subsets,
    computed elsewhere (Dask tasks, a store) before the ordered pass over the blocks; each
    block's subset is then drawn from its own seed (seed, block), so the pass finds them.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> from seprank.models.moment_mod_p import family_residues
    >>> from seprank.separation.moment.blocks import block_specs
    >>> from seprank.separation.moment.plan import make_plan
    >>> one = [[[[1]]]]
    >>> fam = token_family(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one)), 0)
    >>> specs = block_specs(1, 1, 1, False)
    >>> shape = dict(L=1, d=1, H=1, d_a=1, r=1, n_vars=1, residual=False, n_scales=2)
    >>> plan = make_plan(specs, shape, 60, 2**30)
    >>> blocks, _ = run_blocks(fam, family_residues(fam, 1000003), specs, plan, 1000003, 0,
    ...                        random_p=False, certify=False)
    >>> [(b["rank"], b["kind"]) for b in blocks]
    [(1, 'exact'), (1, 'exact')]
    """
    run = _BlockRun(fam, data, specs, plan, p, seed, np.random.default_rng(seed), certify,
                    random_p, budget_seconds, max_memory, word=word)
    sparse = None if subset_ranks is not None else run.sparse_phase()
    if sparse is not None:
        return sparse, run.phases
    ev = run.evaluation_phase()
    ideal = run.catalecticant_phase(ev, subset_ranks)
    run.sampled_phase(ideal)
    run.derivative_phase()
    blocks = []
    for i, spec in enumerate(specs):
        if i in run.results:
            blocks.append(run.results[i])
        elif spec.cap == 0:
            blocks.append(_record(spec, "zero", {"rank": 0, "upper": 0, "kind": "exact",
                                                 "seconds": 0.0, "how": "empty block"}))
        else:
            blocks.append(_skipped(spec, fam.n_rows, ideal))
    for seed in run.seeded:
        rec = next((r for r in blocks if r["degree"] == seed["degree"]), None)
        if rec is not None:
            rec["how"] += f"; the apolar ideal was {seed['how']}"
    for rec in blocks:
        _cap_every_weight(rec, run.all_weights.get(rec["degree"], 0))
    return blocks, run.phases


def _cap_every_weight(rec: dict, count: int) -> None:
    """Lower block b's cap (the bound valid for every weight, which the generic statement
    sums) to cols_b - ``count``: ``count`` annihilators of order b that exist for every
    weight (the word's rank-one directions, word_directions' last paragraph)."""
    cap = rec["shape"][1] - count
    if count and cap < rec["cap"]:
        rec["cap"] = cap
        rec["how"] += f"; for every weight rank <= {cap} ({count} annihilators of this order)"
        rec["upper"] = min(rec["upper"], cap)
        if rec["rank"] == rec["upper"]:
            rec["kind"] = "exact"
            rec.pop("error_bound", None)


@dataclass
class _BlockRun:
    """The state of one run_blocks call: its inputs, the block records so far, timings."""

    fam: object
    data: dict
    specs: list
    plan: object
    p: int
    seed: int
    rng: np.random.Generator
    certify: bool
    random_p: bool
    budget_seconds: float | None
    max_memory: float | None
    results: dict = field(default_factory=dict)
    phases: dict = field(default_factory=dict)
    start: float = field(default_factory=time.perf_counter)
    pd: PolyData | None = None
    pd_mod: PolyData | None = None
    seeded: list = field(default_factory=list)
    all_weights: dict = field(default_factory=dict)
    word: object = None

    def methods(self, name: str) -> list[int]:
        return [i for i, b in enumerate(self.plan.blocks) if b["method"] == name]

    def expansion(self) -> PolyData:
        """The exact coefficients of the g_j (one expansion of G_L, kept for every phase)."""
        if self.pd is None:
            fam = self.fam
            t0 = time.perf_counter()
            self.pd = integer_poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
            self.phases["expansion"] = round(time.perf_counter() - t0, 4)
            LOG.info("expansion of G_L: %.1f s, coefficients < 2^%d",
                     self.phases["expansion"], self.pd.max_bits)
        return self.pd

    def expansion_mod(self) -> PolyData:
        """The g_j mod the route's prime only (:func:`~seprank.separation.moment.
        expansion_mod.expand_mod`: no coefficient growth, the last product compiled; 4.9 s
        against 21 s through flint alone for L = 3, d_x = 4, H = 2): what the blocks' ranks
        mod p, the ideal and its seeds need; the exact expansion when it is already held."""
        if self.pd is not None:
            return self.pd
        if self.pd_mod is None:
            fam = self.fam
            t0 = time.perf_counter()
            self.pd_mod = expand_mod(fam, self.p)
            self.phases["expansion_mod_p"] = round(time.perf_counter() - t0, 4)
            LOG.info("expansion of G_L mod %d: %.1f s", self.p, self.phases["expansion_mod_p"])
        return self.pd_mod

    def expansion_cheap(self) -> bool:
        """Whether the plan expands G_L anyway, or its estimate is at most
        :data:`SPARSE_TRY_SHARE` of the budget."""
        plan = self.plan
        return bool(plan.expand or (plan.can_expand and plan.expansion["seconds"]
                                    <= SPARSE_TRY_SHARE * (self.budget_seconds or float("inf"))))

    def sparse_phase(self) -> list[dict] | None:
        """Every block compressed to its nonzero rows and columns, when the g_j have few
        terms (:mod:`seprank.separation.moment.sparse`); None when they do not (or when the
        expansion is not cheap beside the budget: the plan then goes on as made)."""
        if not self.expansion_cheap() or self.certify or self.fam.label not in ("tokens",):
            return None
        dense = sum(s.shape[0] * s.shape[1] for s in self.specs)
        if splittings(self.expansion_mod()) > min(SPARSE_MAX_SPLITTINGS,
                                                  SPARSE_MAX_SHARE * dense):
            return None
        pd = self.expansion()                # the compressed blocks are ranked over Q
        t0 = time.perf_counter()
        out = sparse_block_ranks(pd, self.specs, self.fam.n_rows, self.p)
        self.phases["sparse_blocks"] = round(time.perf_counter() - t0, 4)
        if any(rec["kind"] != "exact" for rec in out):   # the usual blocks certify more
            LOG.info("compressed blocks left inexact: the plan goes on as made")
            return None
        for spec, rec in zip(self.specs, out, strict=True):
            LOG.info("block %s %s: rank %d (%s), %s", spec.label, spec.shape, rec["rank"],
                     rec["kind"], rec["how"])
        return out

    def evaluation_phase(self) -> list[int]:
        """Blocks planned as evaluations (one set of values for all); their indices."""
        ev, specs = self.methods("evaluation"), self.specs
        if ev:
            t0 = time.perf_counter()
            for i, res in zip(ev, evaluation_ranks(self.fam, self.data, [specs[i] for i in ev],
                                                   self.p, self.rng, certify=self.certify),
                              strict=True):
                self.results[i] = _record(specs[i], "evaluation", res)
                LOG.info("block %s %s: rank %d (%s), %s", specs[i].label, specs[i].shape,
                         res["rank"], res["kind"], res["how"])
            self.phases["evaluation_blocks"] = round(time.perf_counter() - t0, 4)
        return ev

    def catalecticant_phase(self, ev: list[int], subset_ranks):
        """The expansion, then the catalecticant blocks (and deficient evaluation blocks)
        in the apolar order; returns the ideal (None without one)."""
        fam, specs, p = self.fam, self.specs, self.p
        cat = self.methods("catalecticant")
        if self.plan.can_expand:
            cat = sorted(cat + [i for i in ev if self.results[i]["kind"] != "exact"])
        if not cat:
            return None
        mod_first = subset_ranks is None and not self.certify and not fam.mixed
        pd = self.expansion_mod() if mod_first else self.expansion()
        t0 = time.perf_counter()
        ideal = None if fam.mixed else ApolarIdeal(fam.n_vars, p)
        if ideal is not None:
            self.seed_ideal(ideal, pd)
        known: dict = {}
        if not pd.exact:                 # every block mod p first; exact only if it helps
            cat, known = self.mod_p_pass(pd, cat, ideal)
            if not cat:
                self.phases["catalecticant_blocks"] = round(time.perf_counter() - t0, 4)
                return ideal
            pd = self.expansion()
        planned = [i for i in cat if self.plan.blocks[i]["method"] == "catalecticant"]
        if subset_ranks is not None and planned:
            known = subset_ranks(pd, planned)
            self.phases["subset_ranks"] = round(time.perf_counter() - t0, 4)
        deferred = []
        seeded = bool(known) and subset_ranks is None     # subsets of the mod-p pass
        for i in _apolar_order(cat, specs):        # pass 1: small kernels lifted at once
            if self._rank_block(pd, i, ideal, subset_ranks, known, defer=ideal is not None,
                                own_subsets=seeded):
                deferred.append(i)
        if ideal is not None:
            _recheck(cat, specs, self.results, fam.n_rows, ideal)
            for i in deferred:                      # pass 2: what the ideal did not fill
                if self.results[i]["kind"] != "exact":
                    self._rank_block(pd, i, ideal, subset_ranks, known, defer=False,
                                     own_subsets=seeded)
            if deferred:
                _recheck(cat, specs, self.results, fam.n_rows, ideal)
        self.phases["catalecticant_blocks"] = round(time.perf_counter() - t0, 4)
        return ideal

    def seed_ideal(self, ideal: ApolarIdeal, pd: PolyData) -> None:
        """Put annihilators known from the weights into the ideal before any block is
        ranked, each set checked on rows of its block mod p: the first layer's
        (:func:`~seprank.separation.moment.apolar.first_layer_annihilators`) and, for one
        head, the word's rank-one directions
        (:func:`~seprank.separation.moment.word_directions.word_annihilators`). A block
        whose rank meets the ideal bound is exact without its kernel being lifted, and the
        products of these vectors certify the blocks a lifted kernel used to (L = 3,
        d_x = 4, H = 2: block 8 from block 5's 6 annihilators; H = 1: block 7 from the
        word's 4)."""
        t0 = time.perf_counter()
        found = first_layer_annihilators(self.fam)
        if found is not None:
            n = self._seed(ideal, pd, *found, "first-layer")
            if n:
                self.seeded.append({"degree": found[0], "how": (
                    f"seeded with {n} annihilators of this order from the first layer's "
                    "forms (check L-Generic2's argument)")})
        word = (self.word() if self.word is not None
                else word_annihilators(self.fam, self.p, seed=self.seed))
        if word is not None and word["prime"] != self.p:
            raise ValueError(f"the word's annihilators are residues mod {word['prime']}, "
                             f"not mod {self.p}")
        if word is not None:
            b = word["degree"]
            own = word["independent"]
            if self._seed(ideal, pd, b, word["vectors"], "word-direction"):
                self.all_weights[b] = own
                self.seeded.append({"degree": b, "how": (
                    f"seeded with {own} annihilators of this order from the word's rank-one "
                    f"directions ({word['conditions']}); they exist for every weight "
                    "(word_directions)")})
        self.phases["ideal_seed"] = round(time.perf_counter() - t0, 4)

    def _seed(self, ideal: ApolarIdeal, pd: PolyData, b: int, vectors: list, name: str
              ) -> int:
        """Check ``vectors`` (of Ann_b) on rows of block b mod p and add them to the ideal;
        returns how many independent vectors the ideal gained."""
        spec = next((s for s in self.specs if s.degree == b), None)
        checked = None if spec is None else annihilate_rows(pd, spec, self.fam.n_rows,
                                                            vectors, self.p)
        if checked is None:
            LOG.info("%s annihilators of order %d not seeded: block %d too large to check "
                     "them on", name, b, b)
            return 0
        if not checked:
            LOG.warning("%s annihilators of order %d not seeded: they fail the check on "
                        "block %d's rows mod %d", name, b, b, self.p)
            return 0
        before = ideal.dim(b)
        ideal.add(b, vectors)
        LOG.info("apolar ideal seeded with %d %s annihilators of order %d",
                 ideal.dim(b) - before, name, b)
        return ideal.dim(b) - before

    def mod_p_pass(self, pd: PolyData, cat: list[int], ideal) -> tuple[list[int], dict]:
        """Every catalecticant block ranked from the g_j mod p (``pd`` holds no exact
        coefficients): exact where its rank meets its cap or the ideal fills its kernel.
        Returns the blocks the exact coefficients could still help
        (:func:`~seprank.separation.moment.ranks.exact_can_help`) and their subsets' ranks,
        drawn from their own seeds so that the exact pass reuses them."""
        specs, fam = self.specs, self.fam
        known = {}
        for i in _apolar_order(cat, specs):
            res = catalecticant_rank(pd, specs[i], fam.n_rows, self.p, self.rng,
                                     random_prime=False, certify=False, ideal=ideal,
                                     allow_certify=False, subset_seed=(self.seed, i))
            known[i] = {"rows": res["rows_ranked"], "rank": res["rank"],
                        "certificate_verified": None}
            self._store(i, res)
        if ideal is not None:
            _recheck(cat, specs, self.results, fam.n_rows, ideal)
        left = [i for i in cat if self.results[i]["kind"] != "exact"]
        helped = [i for i in left if exact_can_help(specs[i])]
        if left:
            LOG.info("blocks %s inexact mod p; %s", [specs[i].label for i in left],
                     f"the exact expansion for {[specs[i].label for i in helped]}" if helped
                     else "the exact coefficients cannot certify them: no exact expansion")
        return helped, {i: known[i] for i in helped}

    def _store(self, i: int, res: dict) -> None:
        """A catalecticant record into ``results`` (an evaluation block rebuilt keeps the
        larger rank and says after what)."""
        prior = self.results.get(i)
        if prior is not None:                  # a certified lower bound either way
            res["rank"] = max(res["rank"], prior["rank"])
            if prior.get("method") != "catalecticant":
                res["how"] = f"{res['how']} (after {prior['how']})"
        self.results[i] = _record(self.specs[i], "catalecticant", res)
        LOG.info("block %s %s: rank %d (%s) in %.1f s, %s", self.specs[i].label,
                 self.specs[i].shape, res["rank"], res["kind"], res["seconds"], res["how"])

    def _rank_block(self, pd, i: int, ideal, subset_ranks, known: dict, *, defer: bool,
                    own_subsets: bool = False) -> bool:
        """One catalecticant block (moment_ranks.catalecticant_rank) into ``results``;
        True when its exact certification was deferred (``defer``: a kernel of more than
        :data:`LIFT_FIRST_MAX_KERNEL` vectors waits for the apolar ideal of the others).
        ``own_subsets``: draw the row subset from the block's own seed (the mod-p pass did,
        and ``known`` holds its rank)."""
        specs, fam = self.specs, self.fam
        res = catalecticant_rank(
            pd, specs[i], fam.n_rows, self.p, self.rng, random_prime=self.random_p,
            certify=self.certify, ideal=ideal,
            lift_limits=_lift_limits(self.start, self.budget_seconds, self.max_memory),
            subset_seed=None if subset_ranks is None and not own_subsets else (self.seed, i),
            prior=known.get(i), defer_above=LIFT_FIRST_MAX_KERNEL if defer else None)
        self._store(i, res)
        return bool(res.get("deferred"))

    def sampled_phase(self, ideal) -> None:
        """Blocks over the budget, at the plan's points (certified lower bounds)."""
        sm, specs = self.methods("sampled"), self.specs
        if not sm:
            return
        t0 = time.perf_counter()
        for i, res in zip(sm, evaluation_ranks(
                self.fam, self.data, [specs[i] for i in sm], self.p, self.rng,
                certify=self.certify, points=[self.plan.blocks[i]["points"] for i in sm]),
                strict=True):
            self.results[i] = _record(specs[i], "sampled", res)
            _bound_sampled(specs[i], self.fam.n_rows, ideal, self.results[i])
            LOG.info("block %s %s: rank >= %d (sampled), %s", specs[i].label, specs[i].shape,
                     res["rank"], res["how"])
        self.phases["sampled_blocks"] = round(time.perf_counter() - t0, 4)


    def derivative_phase(self) -> None:
        """The residual matrix (ranked whole) left inexact: rank_Q C_F as the dimension of
        the g_j's derivatives (:func:`~seprank.separation.moment.sparse.derivative_rank`), when the
        exact expansion is cheap and time is left; the record becomes exact when the
        closure's certificate holds, or takes its lower bound when that is larger."""
        whole = [i for i, s in enumerate(self.specs) if s.degree is None
                 and i in self.results and self.results[i]["kind"] != "exact"]
        left = (self.budget_seconds or float("inf")) - (time.perf_counter() - self.start)
        if not whole or self.certify or not self.expansion_cheap() or left <= 0:
            return
        t0 = time.perf_counter()
        pd = self.expansion()
        for i in whole:
            rec = self.results[i]
            out = derivative_rank(pd, self.p, seconds=left - (time.perf_counter() - t0),
                                  max_bytes=min(2**30, (self.max_memory or 2**32) / 4))
            if out is None:
                continue
            LOG.info("block %s: %s", self.specs[i].label, out["how"])
            if not rec["rank"] <= out["rank"] <= rec["upper"]:
                raise AssertionError(f"derivative closure: rank {out['rank']} outside the "
                                     f"certified range [{rec['rank']}, {rec['upper']}] (a "
                                     "defect; please report)")
            if out["kind"] == "exact":
                rec.update(method="derivatives", rank=out["rank"], upper=out["rank"],
                           kind="exact", how=rec["how"] + "; then " + out["how"])
                rec.pop("error_bound", None)
            elif out["rank"] > rec["rank"]:
                rec.update(rank=out["rank"], how=rec["how"] + "; then " + out["how"])
            rec["seconds"] = round(rec.get("seconds", 0.0) + out["seconds"], 4)
        self.phases["derivative_closure"] = round(time.perf_counter() - t0, 4)


def _lift_limits(start: float, budget_seconds: float | None,
                 max_memory: float | None) -> tuple[float, float] | None:
    """(seconds, bytes) for the next exact lifting (run_blocks' docstring)."""
    if budget_seconds is None and max_memory is None:
        return None
    seconds = float("inf") if budget_seconds is None else max(
        budget_seconds - (time.perf_counter() - start), LIFT_MIN_SHARE * budget_seconds)
    return seconds, float("inf") if max_memory is None else float(max_memory)


def _upper(spec, r: int, ideal) -> tuple[int, str]:
    """(certified upper bound, why) of a block not ranked in full: its cap, or what the
    apolar ideal's known kernel parts give when smaller."""
    if ideal is not None and spec.degree is not None:
        bound, why = ideal_upper(spec, r, spec.shape[0] < spec.shape[1], ideal)
        if bound < spec.cap:
            return bound, f"kernel from the apolar ideal, {why}"
    return spec.cap, "the cap"


def _bound_sampled(spec, r: int, ideal, rec: dict) -> None:
    """A sampled block's upper bound (:func:`_upper`); exact when the sampled rank meets it."""
    if rec["kind"] == "exact":
        return
    upper, why = _upper(spec, r, ideal)
    if upper < rec["upper"]:
        rec["upper"] = upper
        rec["how"] += f"; upper bound: {why}"
    if rec["rank"] == rec["upper"]:
        rec["kind"] = "exact"


def _skipped(spec, r: int, ideal) -> dict:
    """A block over the time budget: rank 0, upper bound from :func:`_upper` (no rank of
    the block itself is computed)."""
    upper, how = _upper(spec, r, ideal)
    return _record(spec, "skipped", {
        "rank": 0, "upper": upper, "kind": "lower_bound", "seconds": 0.0,
        "how": f"skipped: over the time budget (certified upper bound: {how})"})


def run_tokens(fam, data: dict, blocks: list[dict], p: int, seed: int, n_max: int, *,
               certify: bool, phases: dict, budget_seconds: float = 150.0,
               n_values=None) -> list[dict]:
    """Token lower bounds at N = 2, 4, ..., n_max (or at the even ``n_values`` given;
    moment_tokens), stopping at the first N
    whose bound meets the sum of the blocks' best values (the rank of an exact or
    probabilistic block, the upper bound of the others), or when ``budget_seconds`` (wall
    time of the whole search) is spent; each N's points are capped by the budget left
    (blocks that needed more are truncated there: still certified lower bounds).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> from seprank.models.moment_mod_p import family_residues
    >>> one = [[[[1]]]]
    >>> fam = token_family(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one)), 0)
    >>> out = run_tokens(fam, family_residues(fam, 1000003), [{"rank": 1, "kind": "exact"}] * 2,
    ...                  1000003, 0, 4, certify=False, phases={})
    >>> [(t["N"], t["lower_bound"]) for t in out]
    [(2, 2)]
    """
    rng = np.random.default_rng(seed + 1)
    targets = [b["rank"] if b["kind"] in ("exact", "probabilistic") else b["upper"]
               for b in blocks]
    goal = sum(targets)
    out = []
    t0 = time.perf_counter()
    for N in (range(2, n_max + 1, 2) if n_values is None else n_values):
        left = budget_seconds - (time.perf_counter() - t0)
        if left <= 0:
            break
        res = token_lower_bound(fam, data, targets, N, p, rng, certify=certify,
                                max_seconds=left)
        out.append(res)
        LOG.info("tokens N = %d: lower bound %d of %d, %s", N, res["lower_bound"], goal,
                 res["seconds"])
        if res["lower_bound"] >= goal:
            break
    phases["token_search"] = round(time.perf_counter() - t0, 4)
    return out
