"""The coefficient route: the output expanded exactly, its coefficient matricization ranked.

The mathematics (separation rank = rank of the coefficient matrix C, C block
diagonal by degree components) is in :mod:`seprank.separation.polynomial`; this
module runs it as a route (:mod:`seprank.separation.route`): expand y_p^i with
python-flint, split C into blocks, rank each block with :func:`seprank.linalg.rank`
(``rank_method``, default ``auto``: exact over Q). Kind ``exact`` when every
block's rank is exact.

When ``auto`` chooses it (the cutoffs and why)
----------------------------------------------
The expansion's cost grows with the number of output monomials, at most
C(N d_x + D - 1, D) for D = 3^L (:attr:`SeparationRequest.possible_terms`).
Measured with ``benchmarks/sep_rank.py`` on 2 shared cores: L = 2, d_x = 4, N = 2
(at most 11440 terms) expands and ranks in well under a second; L = 3, d_x = 4,
N = 2 (up to 5.4 million possible terms, 2.7 million real ones) took about 4
minutes to expand, while the grid route's answer took seconds. Hence:

* :data:`AUTO_COEFFICIENT_MAX_TERMS`: ``auto`` takes this route first up to
  200000 possible monomials;
* :data:`AUTO_FALLBACK_MAX_TERMS`: when the grid route's answer is not exact,
  ``auto`` runs this route after it up to 2 million possible monomials (minutes,
  not hours).
"""

from __future__ import annotations

import time

from seprank.linalg import rank, verify
from seprank.linalg.kinds import EXACT, LOWER_BOUND
from seprank.separation.monomials import approx_monomial_count, block_sizes, degree_blocks
from seprank.separation.polynomial import (
    coefficient_blocks,
    expansion_estimate,
    network_polynomial,
)
from seprank.separation.route import (
    PlannedBlock,
    RouteOutcome,
    RoutePlan,
    SeparationRoute,
    WorkEstimate,
    rank_method,
)

__all__ = ["CoefficientRoute", "ROUTE", "AUTO_COEFFICIENT_MAX_TERMS", "AUTO_FALLBACK_MAX_TERMS",
           "coefficient_estimate"]

#: ``auto`` expands by coefficients up to this many possible output monomials
#: (module docstring: L = 2, d_x = 4, N = 2 in under a second, benchmarks/sep_rank.py).
AUTO_COEFFICIENT_MAX_TERMS = 200_000
#: ``auto``: when the grid route is not exact, fall back to this route up to this many
#: possible monomials (real outputs have far fewer: 2.7 million of 5.4 million at L = 3,
#: d_x = 4, N = 2, which took 4 minutes to expand).
AUTO_FALLBACK_MAX_TERMS = 2_000_000


def _planned_blocks(request) -> tuple[PlannedBlock, ...]:
    """The blocks the expansion can produce: per allowed degree pair at most its monomial
    counts (one block of every degree with residual connections)."""
    net = request.network
    D = request.degree
    specs = degree_blocks(len(request.I) * net.d_x, len(request.J) * net.d_x, D,
                          request.position in request.I, net.residual)
    return tuple(PlannedBlock(k, (D - k) if isinstance(k, int) else k, (a, b), min(a, b))
                 for k, a, b in specs if a and b)


def coefficient_estimate(request) -> WorkEstimate:
    """:func:`expansion_estimate` for the request's output (N d_x variables, degree 3^L).

    >>> from seprank.separation import plan_separation
    >>> coefficient_estimate(plan_separation(2, 4, 2).request).detail    # C(8 + 8, 9)
    'up to 11k terms'
    """

    net = request.network
    _, largest, _, sum3 = block_sizes(request)
    return expansion_estimate(request.N * net.d_x, request.degree, net.residual, net,
                              request.N, largest, sum3, rank_method(request))


class CoefficientRoute(SeparationRoute):
    """The exact expansion and its coefficient matricization (module docstring).

    Can run any finite request; ``auto`` prefers it up to
    :data:`AUTO_COEFFICIENT_MAX_TERMS` possible monomials, and runs it after a
    non-exact answer up to :data:`AUTO_FALLBACK_MAX_TERMS`.

    >>> from seprank.separation import plan_separation
    >>> req = plan_separation(3, 4, 2).request        # 5379616 possible monomials
    >>> ROUTE.should_run(req), ROUTE.should_run(req, fallback=True)[0]
    ((False, '5379616 possible monomials > AUTO_COEFFICIENT_MAX_TERMS = 200000'), False)
    """

    name = "coefficient"
    summary = ("the output expanded exactly (python-flint), its coefficient matricization "
               "ranked block by block over Q")
    matrix_words = "coefficient matrix"
    takes = frozenset({"rank_method"})

    def should_run(self, request, *, fallback: bool = False) -> tuple[bool, str]:
        cut, name = ((AUTO_FALLBACK_MAX_TERMS, "AUTO_FALLBACK_MAX_TERMS") if fallback
                     else (AUTO_COEFFICIENT_MAX_TERMS, "AUTO_COEFFICIENT_MAX_TERMS"))
        net = request.network
        approx = approx_monomial_count(request.N * net.d_x, request.degree, up_to=net.residual)
        if approx > 1e12:  # not the exact count: it may have millions of digits
            from seprank.budget import format_count

            return False, f"about {format_count(approx)} possible monomials > {name} = {cut}"
        terms = request.possible_terms
        if terms <= cut:
            return True, f"{terms} possible monomials <= {name} = {cut}"
        return False, f"{terms} possible monomials > {name} = {cut}"

    def estimate(self, request) -> WorkEstimate:
        return coefficient_estimate(request)

    def plan(self, request) -> RoutePlan:
        method = rank_method(request)
        blocks = _planned_blocks(request)
        kinds = (EXACT,) if method in ("auto", "exact") else (EXACT, LOWER_BOUND)
        notes = (f"blocks: known after the expansion; at most the {len(blocks)} degree "
                 "pairs listed (sizes: the monomial counts)",)
        return RoutePlan(blocks, coefficient_estimate(request), kinds, blocks_known="at most",
                         notes=notes)

    def run(self, request, plan: RoutePlan) -> RouteOutcome:
        net, method = request.network, rank_method(request)
        t0 = time.perf_counter()
        poly = network_polynomial(net, request.N, request.position, request.coordinate)
        t1 = time.perf_counter()
        blks = coefficient_blocks(poly, net.d_x, request.I, request.J)
        t2 = time.perf_counter()
        value, kinds, out, ok = 0, set(), [], True
        rows = cols = 0
        for blk in blks:
            mat = blk.integer_matrix()
            res = rank(mat, method, certify=request.certify)
            if request.certify:
                ok = ok and bool(verify(mat, res.certificate))
            value += res.value
            kinds.add(res.kind)
            rows += blk.shape[0]
            cols += blk.shape[1]
            out.append({"I_degrees": list(blk.I_degrees), "J_degrees": list(blk.J_degrees),
                        "shape": list(blk.shape), "rank": res.value, "kind": res.kind})
        t3 = time.perf_counter()
        kind = EXACT if kinds <= {EXACT} else LOWER_BOUND
        upper = value if kind == EXACT else sum(min(b["shape"]) for b in out)
        return RouteOutcome(
            value=value, kind=kind, upper_bound=upper, blocks=out,
            matrix_words=self.matrix_words, matrix_shape=(rows, cols), terms=len(poly),
            timings={"expansion": round(t1 - t0, 4), "matricization": round(t2 - t1, 4),
                     "rank": round(t3 - t2, 4)},
            certificates_verified=ok if request.certify else None)


#: the registry's entry (seprank.separation.routes)
ROUTE = CoefficientRoute()
