"""The template-grid route: the rank of the grid matricization on given templates.

The mathematics (levine2020 Claim 1, B.1.2 l.615-645)
------------------------------------------------------
For templates x^(1), ..., x^(M) in Q^(d_x), the grid tensor of y = y_p^i is
A[d_1, ..., d_N] = y(x^(d_1), ..., x^(d_N)); its matricization [[A]]_{I,J} has one
row per assignment of templates to the positions of I and one column per
assignment to J (:func:`seprank.tensors.grid_matrix`, first position most
significant). Writing y = sum_{a, b} C[a, b] m_a(x_I) m'_b(x_J) (the coefficient
matrix of :mod:`seprank.separation.polynomial`),

    [[A]]_{I,J} = V_I C V_J^T,    V_I[t, a] = m_a(row point t), V_J likewise,

so rank [[A]] <= rank C = sep(y; I, J): the grid rank is a certified lower bound on
the separation rank, with any templates. It is the exact separation rank when V_I
and V_J have full column rank over the monomials of degree <= 3^L of their side
(then rank(V_I C V_J^T) = rank C): :func:`monomial_certificate` checks this
exactly (the rows of a side are the product set of the templates, so
M >= :func:`seprank.constructions.known_seprank.min_templates` is needed).

The route
---------
``seprank.separation_rank(..., templates=T)`` (option ``templates``; ``rank_method``
``auto`` / ``exact`` / ``modular`` for the matrix): kind ``exact`` when the matrix
rank is exact and the templates pass the certificate, or when the matrix rank (a
certified lower bound) meets the size cap (:func:`seprank.separation.monomials.size_cap`,
the certified upper bound); else ``lower_bound`` with that cap. ``seprank grid-rank`` and
:func:`seprank.constructions.known_seprank.network_sep_ranks` call it.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations_with_replacement, product

import numpy as np

from seprank.errors import InputError
from seprank.linalg import rank, verify
from seprank.linalg.kinds import EXACT, LOWER_BOUND
from seprank.separation.monomials import monomial_count, size_cap
from seprank.separation.route import (
    PlannedBlock,
    RouteOutcome,
    RoutePlan,
    SeparationRoute,
    WorkEstimate,
    rank_method,
)
from seprank.tensors.grid import grid_tensor, matricize

__all__ = ["monomial_exponents", "side_points", "monomial_matrix", "monomial_certificate",
           "TemplateGridRoute", "ROUTE"]


def monomial_exponents(n_vars: int, max_deg: int) -> list[tuple[int, ...]]:
    """All exponent tuples of n_vars variables with total degree <= max_deg.

    Examples
    --------
    >>> monomial_exponents(2, 2)   # 1, x, y, x^2, x y, y^2
    [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)]
    """
    out = []
    for deg in range(max_deg + 1):
        for combo in combinations_with_replacement(range(n_vars), deg):
            e = [0] * n_vars
            for v in combo:
                e[v] += 1
            out.append(tuple(e))
    return out


def side_points(templates: np.ndarray, n_positions: int) -> np.ndarray:
    """The concatenated inputs of one side of a matricization, in its row order.

    Row t lists templates[d_1], ..., templates[d_P] for the t-th digit tuple in
    lexicographic order (first position most significant, as in
    :func:`seprank.tensors.matricize`).

    Examples
    --------
    >>> side_points([[1], [2]], 2).tolist()   # digit tuples 00, 01, 10, 11
    [[1, 1], [1, 2], [2, 1], [2, 2]]
    """
    T = np.asarray(templates, dtype=object)
    M = T.shape[0]
    rows = [np.concatenate([T[d] for d in digits]) for digits in
            product(range(M), repeat=n_positions)]
    return np.array(rows, dtype=object)


def monomial_matrix(points: np.ndarray, exps: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """V[t][a] = m_a(points[t]), exact integers.

    Examples
    --------
    >>> monomial_matrix([[2, 3]], [(1, 0), (0, 2)])   # x and y^2 at (2, 3)
    [[2, 9]]
    """
    V = []
    for row in points:
        vals = [int(v) for v in row]
        V.append([int(np.prod([v ** k for v, k in zip(vals, e, strict=True)], dtype=object))
                  for e in exps])
    return V


def monomial_certificate(templates: np.ndarray, N: int, I: Sequence[int],
                         max_deg: int) -> dict:
    """Whether the templates make grid rank = coefficient rank for every polynomial
    of degree <= max_deg in each side's variables, for the partition (I, [N] minus I).

    Returns a dict with the number of monomials per side and whether each side's
    monomial matrix has full column rank (exact ranks); ``ok`` is the conjunction.
    A side with fewer rows than monomials fails without a rank.

    Examples
    --------
    >>> cert = monomial_certificate(np.array([[0], [1]]), 2, (0,), 1)   # rows (1, 0), (1, 1)
    >>> cert["monomials_I"], cert["ok"]
    (2, True)
    """
    T = np.asarray(templates, dtype=object)
    key = (tuple(map(tuple, T.tolist())), N, len(I), max_deg)
    if key not in _CERTIFICATES:  # it depends on the templates and the sides' sizes only
        if len(_CERTIFICATES) >= _CERTIFICATE_CACHE_SIZE:
            _CERTIFICATES.clear()
        _CERTIFICATES[key] = _certificate(T, N, len(I), max_deg)
    return dict(_CERTIFICATES[key])


#: certificates already computed (the template-grid route asks again for every partition
#: of the same sizes; known_seprank.certified_templates asked first)
_CERTIFICATES: dict[tuple, dict] = {}
_CERTIFICATE_CACHE_SIZE = 256


def _certificate(T: np.ndarray, N: int, n_I: int, max_deg: int) -> dict:
    d = T.shape[1]
    sizes = {"I": n_I, "J": N - n_I}
    out = {"max_deg_per_side": max_deg}
    ok = True
    for side, P in sizes.items():
        exps = monomial_exponents(P * d, max_deg)
        n_rows = T.shape[0] ** P
        full = n_rows >= len(exps) and rank(monomial_matrix(side_points(T, P), exps),
                                            "exact").value == len(exps)
        out[f"monomials_{side}"] = len(exps)
        out[f"rows_{side}"] = n_rows
        out[f"full_column_rank_{side}"] = full
        ok = ok and full
    out["ok"] = ok
    return out


def _templates(request) -> np.ndarray:
    """The templates option as an (M, d_x) object array of exact numbers."""
    T = request.options.get("templates")
    arr = np.asarray(T)
    if arr.dtype.kind not in "iu":  # integer arrays go to the evaluation as they are
        arr = np.asarray(T, dtype=object)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] != request.network.d_x:
        raise InputError(f"templates must be an M x d_x array (d_x = {request.network.d_x}); "
                         f"got shape {arr.shape}")
    for x in arr.flat:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer, Fraction)):
            raise InputError(f"templates hold {x!r} ({type(x).__name__}); templates are "
                             "integers or Fractions")
    return arr


def _domain(net, T: np.ndarray) -> str:
    exact_ints = all(Fraction(x).denominator == 1 for x in T.flat) and all(
        Fraction(w).denominator == 1 for k in "QKVO" for w in net.weights[k].flat)
    return "ZZ" if exact_ints else "QQ"


#: the last grid tensor evaluated, by what determines it: asking again for another
#: partition of the same network, templates and output (known_seprank.network_sep_ranks
#: asks for every balanced partition) matricizes it instead of evaluating M^N values again
_LAST_TENSOR: dict[str, np.ndarray] = {}
#: a tensor of more values is not kept (about 100 MB of Python integers)
_LAST_TENSOR_MAX_ENTRIES = 10**6


def _grid_tensor(net, T: np.ndarray, N: int, position: int, coordinate: int) -> np.ndarray:
    """The grid tensor of y_coordinate^position on the templates, exactly (M^N values)."""
    what = repr((net.L, net.d_x, net.H, net.d_a, net.residual,
                 [net.weights[k].tolist() for k in "QKVO"], T.tolist(), str(T.dtype), N,
                 position, coordinate))
    key = hashlib.sha256(what.encode()).hexdigest()
    if key not in _LAST_TENSOR:
        f = net.as_function(position, coordinate, _domain(net, T))
        A = grid_tensor(f, T, N)
        _LAST_TENSOR.clear()
        if A.size > _LAST_TENSOR_MAX_ENTRIES:  # too big to keep after the call
            return A
        _LAST_TENSOR[key] = A
    return _LAST_TENSOR[key]


#: Bytes per grid value beyond its digits: the object array's slot, the int object, the
#: matricized copy and the fmpz_mat entry of its rank.
_BYTES_PER_VALUE = 200


def _value_bits(request, T: np.ndarray) -> float:
    """An upper bound on the bits of one grid value: a degree-3^L polynomial in entries of
    size |T| with coefficients from the weights (each layer: N d_a d_x^2 H products)."""
    import math

    net = request.network
    tmax = max((abs(Fraction(x).numerator) for x in T.flat), default=1) or 1
    per_layer = math.log2(2 * request.N * net.H * net.d_a * net.d_x ** 3 * 16 + 2)
    degree = 3.0 ** net.L if net.L < 600 else math.inf  # 3^L itself is never computed
    return degree * (math.log2(tmax + 1) + per_layer) + 64


def template_estimate(request, T: np.ndarray) -> WorkEstimate:
    """Work and peak memory of the template-grid route, from sizes alone: M^N exact
    evaluations (object arithmetic, about L N^2 H d_a d_x each), the M^|I| x M^|J|
    matrix ranked exactly, and the monomial certificate (monomials of degree <= 3^L).

    >>> from seprank.separation import plan_separation
    >>> T = np.ones((12, 4), dtype=np.int64)
    >>> template_estimate(plan_separation(2, 4, 2, templates=T).request, T).detail
    '144 values of about 199 bits, a 12 x 12 matrix'
    """
    import math

    from seprank.budget import bigint_factor, format_count
    from seprank.separation.monomials import approx_monomial_count

    net, M = request.network, T.shape[0]

    def power(k: int) -> float:  # M^k as a float, never the huge integer
        return float(M) ** k if k * math.log2(max(M, 2)) < 1000 else math.inf

    rows, cols, evals = power(len(request.I)), power(len(request.J)), power(request.N)
    bits = _value_bits(request, T)
    per_value = _BYTES_PER_VALUE + bits / 4
    mono = approx_monomial_count(len(request.I) * net.d_x, request.degree, up_to=True)
    cert = rows * mono * 3 if rows >= mono else 0
    small, big = min(rows, cols), max(rows, cols)
    work = ((evals * net.L * request.N ** 2 * net.H * net.d_a * net.d_x * bigint_factor(bits),
             "python"), (small * small * big * bigint_factor(bits), "flint"),
            (cert * mono, "flint"))
    peak = evals * per_value + cert * 64
    phases = (("evaluation", f"{format_count(evals)} exact network values (M^N)"),
              ("rank", f"one {format_count(rows)} x {format_count(cols)} matrix "
                       f"({rank_method(request)})"),
              ("certificate", "exact ranks of the templates' monomial matrices"))
    return WorkEstimate(phases, sum(w for w, _ in work), peak, work=work, fixed_seconds=0.2,
                        detail=f"{format_count(evals)} values of about "
                               f"{format_count(bits)} bits, a "
                               f"{format_count(rows)} x {format_count(cols)} matrix")


class TemplateGridRoute(SeparationRoute):
    """The grid matricization on given templates (module docstring).

    Can run when ``templates`` are given (and only then: the other routes do not
    take them); preferred whenever it can run.

    >>> from seprank.separation import separation_rank
    >>> r = separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"},
    ...                     templates=[[1], [2], [3], [4]])   # 4 = monomials of degree <= 3
    >>> r.route, r.value, r.kind, r.template_certificate["ok"]
    ('template-grid', 2, 'exact', True)
    """

    name = "template-grid"
    summary = ("the grid matricization on given templates (levine2020 Claim 1): a "
               "certified lower bound, exact when the templates' monomial matrices have "
               "full column rank")
    matrix_words = "grid matrix on the templates"
    takes = frozenset({"templates", "rank_method"})

    def can_run(self, request) -> str | None:
        if "templates" not in request.options:
            return "needs templates= (the M template vectors of the grid)"
        return super().can_run(request)

    def should_run(self, request, *, fallback: bool = False) -> tuple[bool, str]:
        if fallback:
            return False, "the templates give one matrix; nothing to add after another route"
        return True, "templates were given"

    def estimate(self, request) -> WorkEstimate:
        return template_estimate(request, _templates(request))

    def plan(self, request) -> RoutePlan:
        T = _templates(request)
        rank_method(request)  # checked now, as before any work
        M, D = T.shape[0], request.degree
        rows, cols = M ** len(request.I), M ** len(request.J)
        block = PlannedBlock("all", "all", (rows, cols), min(rows, cols))
        mono = monomial_count(len(request.I) * request.network.d_x, D, up_to=True)
        notes = (f"{M} templates; exact when the certificate holds (needs M^|I| = {rows} rows "
                 f">= {mono} monomials of degree <= {D} on the I side, and likewise on J)",)
        return RoutePlan((block,), template_estimate(request, T), (EXACT, LOWER_BOUND),
                         notes=notes, data=T)

    def run(self, request, plan: RoutePlan) -> RouteOutcome:
        T, net = plan.data, request.network
        method = rank_method(request)
        t0 = time.perf_counter()
        A = _grid_tensor(net, T, request.N, request.position, request.coordinate)
        mat = np.asarray(matricize(A, request.I, request.J), dtype=object)
        t1 = time.perf_counter()
        res = rank(mat, method, certify=request.certify)
        t2 = time.perf_counter()
        verified = bool(verify(mat, res.certificate)) if request.certify else None
        cert = (monomial_certificate(T, request.N, request.I, request.degree)
                if res.kind == EXACT else None)
        cap = size_cap(net.L, net.d_x, request.N, request.I, request.position, net.residual)
        # exact: the templates' certificate holds, or a certified lower bound (the matrix
        # rank, exact or mod p) meets the certified cap, as on the grid route
        exact = (cert is not None and cert["ok"]) or (
            res.kind in (EXACT, LOWER_BOUND) and res.value == cap)
        block = {"shape": list(mat.shape), "rank": res.value, "kind": res.kind}
        return RouteOutcome(
            value=res.value, kind=EXACT if exact else LOWER_BOUND,
            upper_bound=res.value if exact else cap, blocks=[block],
            matrix_words=self.matrix_words, matrix_shape=tuple(mat.shape),
            evaluations=int(T.shape[0] ** request.N),
            timings={"evaluation": round(t1 - t0, 4), "rank": round(t2 - t1, 4),
                     "certificate": round(time.perf_counter() - t2, 4)},
            certificates_verified=verified, matrix_rank=res, template_certificate=cert)


#: the registry's entry (seprank.separation.routes)
ROUTE = TemplateGridRoute()
