"""The grid route: separation ranks from network evaluations mod p (numba kernels).

Why it works (the mathematics; see :mod:`seprank.separation.polynomial` for the
coefficient matricization C)
--------------------------------------------------------------------------------
Evaluate f = y_p^i on R points P_a of the I-variables and C points Q_b of the
J-variables: G[a, b] = f(P_a, Q_b) = (E C F^T)[a, b], with E[a, m] = m(P_a)
and F[b, m'] = m'(Q_b) the monomial-evaluation matrices (levine2020 Claim 1,
B.1.2 l.615-645, with arbitrary points instead of a product grid).

* Certified lower bound. G is the reduction mod p of an integer (or
  p-integral rational) matrix of rank <= rank(C) over Q, and reduction mod p
  can only lower a rank: rank_p(G) <= rank_Q(C) = sep. No assumption on the
  points is needed.
* Degree blocks (networks without residual connections). f(s x_I, x_J) =
  sum_k s^k f_k with f_k the part of I-degree k; evaluating at distinct
  scales s_j = j + 1 and inverting the Vandermonde matrix mod p gives
  f_k(P_a, Q_b) for every k. The matrix of f_k is E_k C_k F_k^T with C_k the
  k-th diagonal block of C (only the degrees that the parity lemma below
  allows are unknowns, one scale each), so rank(C) = sum_k rank(C_k) and each block is
  ranked on its own, on m_k = min(#I-monomials of degree k, #J-monomials of
  degree D - k) points per side (more cannot raise the rank). With residual
  connections f is not homogeneous: the route uses one block of all degrees
  <= D per side.
* Probabilistic equality (Schwartz-Zippel). With the points uniform in
  GF(p)^n, an r x r minor of G_k is a polynomial of degree <= r D in the point
  coordinates (r k from the rows, r (D - k) from the columns; <= 2 r D for the
  residual block), not identically zero when r <= rank_p(C_k) <= m_k. So
  P[rank_p(G_k) < rank_p(C_k)] <= r D / p (2 r D / p with residual
  connections): the grid value equals rank_p(C), the rank of the coefficient
  matrix mod p, except with probability at most D * (grid value) / p (union
  bound over blocks). Equality with rank over Q additionally needs p not to
  divide the relevant minors of C, which is *not* claimed here.
* Parity (a lemma proved here; tested against the coefficient route). Every
  monomial of the output at position i has I-degree = [i in I] mod 2 and
  J-degree = [i in J] mod 2. Induction over the layers: x^{1,n} = x_n has
  I-degree 1 or 0 by n in I; a term of eq. (3) at position i is linear in
  x^{l,i} and quadratic in x^{l,j}, so its I-degree has the parity of
  x^{l,i}'s (linear maps W keep the degrees), and the skip connection
  x^{l,i} + y^{l,i} (A.4) adds terms of the same parity. So the blocks of the
  other parity are zero: their rank is 0, certified without evaluation.
* Certified upper bound: rank(C_k) <= min(#I-monomials, #J-monomials), the
  trivial cap (0 for a block that parity rules out); a block whose grid rank
  meets its cap is exact.

Evaluation is :func:`seprank.models.network_mod_p.grid_values_mod_p`
(parallel numba, first-layer projections once per template; every row point
and scale is its own template, so no Python objects are built), or, where it needs
fewer operations (N large compared with d_x, real weights:
:func:`seprank.separation.grid.moment_values.prefer_moment_form`), the moment form
y^{L,i} = G_L(S) x^i of :func:`seprank.separation.grid.moment_values.grid_values_moment`,
with and without residual connections. Both give the same residues (an identity
over the integers), so the choice changes the time, never a rank.
"""

from __future__ import annotations

import hashlib
import time
from fractions import Fraction

import flint
import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.linalg import rank, verify
from seprank.linalg.kinds import EXACT, LOWER_BOUND
from seprank.linalg.residues import ResidueMatrix
from seprank.models.network_mod_p import MAX_KERNEL_PRIME, grid_values_mod_p
from seprank.scalars.primes import require_prime
from seprank.separation.grid.moment_values import grid_values_moment, prefer_moment_form
from seprank.separation.monomials import block_sizes, degree_blocks, monomial_count, size_cap
from seprank.separation.route import (
    PlannedBlock,
    RouteOutcome,
    RoutePlan,
    SeparationRoute,
    WorkEstimate,
)

__all__ = ["grid_block_ranks", "monomial_count", "size_cap", "GridRoute", "ROUTE",
           "DEFAULT_GRID_PRIME", "grid_prime"]


def _inverse_vandermonde(scales: list[int], powers: list[int], p: int) -> np.ndarray:
    n = len(scales)
    V = flint.nmod_mat(n, n, [pow(s, k, p) for s in scales for k in powers], p)
    inv = V.inv()
    return np.array([[int(inv[i, j]) for j in range(n)] for i in range(n)], dtype=np.int64)


def _points(rng, p: int, R: int, I: tuple, J: tuple, d_x: int, scales: list[int]):
    """The random row and column points and the template table the kernel reads.

    Returns (T, rows, cols, digest): every scaled row point (S R |I| templates), then every
    column point (R |J|); ``digest`` is the SHA-256 prefix of the drawn points."""
    P = rng.integers(0, p, size=(R, len(I), d_x), dtype=np.int64)
    Qp = rng.integers(0, p, size=(R, len(J), d_x), dtype=np.int64)
    digest = hashlib.sha256(P.tobytes() + Qp.tobytes()).hexdigest()[:16]
    S = len(scales)
    T_rows = np.concatenate([(P * s) % p for s in scales]).reshape(-1, d_x)
    T = np.concatenate([T_rows, Qp.reshape(-1, d_x)])
    rows = np.arange(S * R * len(I), dtype=np.int64).reshape(S * R, len(I))
    cols = (S * R * len(I) + np.arange(R * len(J), dtype=np.int64)).reshape(R, len(J))
    return T, rows, cols, digest


def scale_powers(specs: list[tuple[int | str, int, int]], residual: bool) -> list[int]:
    """The I-degrees that are unknowns of the Vandermonde solve (``[0]``: no scaling).

    Only the I-degrees the parity lemma allows are unknowns: one scale per allowed
    degree; V[j, t] = s_j^(k_t) = s_j^par (s_j^2)^(k_t // 2) is invertible when the
    s_j are nonzero with distinct squares (s_j = 1, 2, ..., far below p / 2).

    >>> scale_powers([(0, 0, 0), (1, 1, 1), (2, 0, 0), (3, 1, 1)], False)
    [1, 3]
    """
    return [0] if residual else [k for k, a, b in specs if a and b]


def check_scales(n_scales: int, p: int) -> None:
    """ParameterError when p is too small for ``n_scales`` distinct squares 1..m mod p.

    >>> check_scales(2, 5)
    >>> check_scales(3, 5)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: p = 5 is too small to separate 3 degrees by scaling ...
    """
    if 2 * n_scales >= p:
        raise ParameterError(f"p = {p} is too small to separate {n_scales} degrees by "
                             "scaling (the scales 1..m need distinct squares mod p); use a "
                             "larger prime")


def _block_rank(G, p: int, certify: bool) -> tuple[int, bool | None]:
    """Rank mod p of one interpolated block, and whether its certificate verified."""
    res = rank(ResidueMatrix(G, p), "modular", prime=p, certify=certify)
    if not certify:
        return res.value, None
    return res.value, bool(verify(ResidueMatrix(G, p), res.certificate))


def _block_entry(label, D: int, mI: int, mJ: int, points: int, r: int, cap: int,
                 **extra) -> dict:
    return {"I_degree": label, "J_degree": (D - label) if isinstance(label, int) else label,
            "monomials": [mI, mJ], "points": points, "rank": r, "cap": cap, **extra}


def grid_block_ranks(net, N: int, I, J, position: int, coordinate: int, *, p: int,
                     seed: int = 0, certify: bool = False,
                     max_block_points: int | None = None) -> dict:
    """Ranks mod p of the degree blocks of the grid matricization (module docstring).

    Returns a dict with ``blocks`` (one per I-degree k, or one "all degrees"
    block with residual connections: rows, cap, grid rank, whether the rank is
    certified exact because it meets the cap), ``lower_bound`` (their sum, a
    certified lower bound on the separation rank), ``cap`` (sum of caps, a
    certified upper bound), ``error_bound`` (the Schwartz-Zippel bound on
    grid value != rank_p(C)), ``evaluations``, ``points_digest`` (SHA-256 prefix of
    the random points drawn from ``seed``), and seconds spent in evaluation,
    interpolation and rank. ``max_block_points``: blocks needing more
    points per side are not evaluated (rank counted 0, ``skipped``): the sum is
    still a certified lower bound, the cap still counts them.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> out = grid_block_ranks(net, 2, (0,), (1,), 0, 0, p=1000003)
    >>> out["lower_bound"], [b["rank"] for b in out["blocks"]]   # x0^3 + x0 x1^2
    (2, [0, 1, 0, 1])
    >>> out["cap"], [b["zero_by_parity"] for b in out["blocks"]]   # even I-degrees vanish
    (2, [True, False, True, False])
    """
    I, J = tuple(I), tuple(J)
    D = 3 ** net.L
    specs = degree_blocks(len(I) * net.d_x, len(J) * net.d_x, D, position in I, net.residual)
    powers = scale_powers(specs, net.residual)
    scales = list(range(1, len(powers) + 1))
    check_scales(len(scales), p)
    sizes = [min(a, b) for _, a, b in specs]
    skipped = [max_block_points is not None and m > max_block_points for m in sizes]
    R = max([m for m, sk in zip(sizes, skipped, strict=True) if not sk], default=0)
    S = len(scales)
    T, rows, cols, digest = _points(np.random.default_rng(seed), p, R, I, J, net.d_x, scales)
    moment = prefer_moment_form(net, N, p)
    seconds = {"evaluation": 0.0, "interpolation": 0.0, "rank": 0.0}
    Vinv = _inverse_vandermonde(scales, powers, p) if powers != [0] else None
    wanted = {label: m for (label, _, _), m, sk in zip(specs, sizes, skipped, strict=True)
              if m and not sk}
    values = _block_values(grid_values_moment if moment else grid_values_mod_p,
                           (net, T, I, J, rows, cols, p, position, coordinate), R, wanted,
                           Vinv, {k: t for t, k in enumerate(powers)}, seconds)
    blocks, lower, cap = [], 0, 0
    certificates_ok = True if certify else None
    # Invariants: lower = sum of the ranks so far (each <= its block's rank_p(C_k)),
    # cap = sum of the caps so far (each >= its block's rank over Q)
    for (label, mI, mJ), m, skip in zip(specs, sizes, skipped, strict=True):
        cap += m
        if skip:
            blocks.append(_block_entry(label, D, mI, mJ, 0, 0, m, exact=False, skipped=True,
                                       zero_by_parity=False))
            continue
        r = 0
        if m:
            t2 = time.perf_counter()
            r, ok = _block_rank(values.pop(label), p, certify)
            seconds["rank"] += time.perf_counter() - t2
            if certify:
                certificates_ok = certificates_ok and ok
        blocks.append(_block_entry(label, D, mI, mJ, m, r, m, exact=r == m,
                                   zero_by_parity=not net.residual and (mI == 0 or mJ == 0)))
        lower += r
    factor = 2 if net.residual else 1
    out = {"prime": p, "lower_bound": lower, "cap": cap, "blocks": blocks,
           "error_bound": float(factor * D * lower) / p, "evaluations": S * R * R,
           "points_digest": digest, "seconds": seconds,
           "evaluator": "moment form" if moment else "network"}
    if certify:
        out["certificates_verified"] = certificates_ok
    return out


def _block_values(evaluate, args: tuple, R: int, wanted: dict, Vinv, row_of: dict,
                  seconds: dict) -> dict:
    """The values of each wanted degree part {label: m} on its first m x m points, streamed
    over the scales: scale j's R x R values are added, times Vinv[t, j], into every block
    and then dropped, so memory follows R^2 plus the blocks, not S R^2 (with Vinv None, one
    scale, the block is the values themselves). Adds to ``seconds``."""
    net, T, I, J, rows, cols, p, position, coordinate = args
    blocks = {k: np.zeros((m, m), dtype=np.int64) for k, m in wanted.items()}
    for j in range(len(rows) // max(R, 1)):
        t0 = time.perf_counter()
        F = evaluate(net, T, I, J, rows[j * R:(j + 1) * R], cols, p, position=position,
                     coordinate=coordinate)
        t1 = time.perf_counter()
        seconds["evaluation"] += t1 - t0
        for k, m in wanted.items():
            if Vinv is None:
                blocks[k] = np.ascontiguousarray(F[:m, :m])
            else:
                blocks[k] = (blocks[k] + (int(Vinv[row_of[k], j]) * F[:m, :m]) % p) % p
        seconds["interpolation"] += time.perf_counter() - t1
    return blocks


# ---------------------------------------------------------------- the route

#: The grid route's prime for blocks that flint ranks (the largest the network kernels
#: take, MAX_KERNEL_PRIME): a small Schwartz-Zippel error bound D r / p.
DEFAULT_GRID_PRIME = 2**31 - 1


def grid_prime(specs) -> int:
    """The grid route's prime: the default prime of the engine that ranks its largest block
    (:func:`seprank.linalg.planner.engine_primes`): 2^31 - 1 on flint (small blocks, as
    before), 1048573 on the numba LU (blocks from 600 points per side on), where a prime
    near 2^31 would send them to flint at a fraction of the LU's speed. The
    Schwartz-Zippel bound D r / p of the answer says what the smaller prime costs.

    >>> grid_prime([(0, 10, 10)]), grid_prime([(0, 5000, 900)])
    (2147483647, 1048573)
    """
    from seprank.linalg.planner import engine_primes

    side = max((min(a, b) for _, a, b in specs), default=1)
    ep = engine_primes((max(side, 1), max(side, 1)))
    return DEFAULT_GRID_PRIME if ep.engine == "flint" else ep.default


def _check_weights_mod_p(net, p: int) -> None:
    for k in "QKVO":
        for w in net.weights[k].flat:
            if Fraction(w).denominator % p == 0:
                raise InputError(f"weight {w} in W^{k} has a denominator divisible by p = {p}; "
                                 "choose another prime or the coefficient route")


#: Bytes per entry of the S x S Vandermonde inverse while it is made (python-flint
#: nmod_mat, then the nested lists of Python ints read into int64).
_VANDERMONDE_BYTES = 72
#: Bytes per entry of the largest block while it is interpolated and ranked (its int64
#: values and three temporaries of the interpolation, then the rank mod p's copies:
#: float64 residues and the LU workspace, or the lists behind an nmod_mat).
_BLOCK_BYTES = 96



def grid_estimate(request) -> WorkEstimate:
    """Work and peak memory of the grid route, cheaply (:func:`block_sizes`): S R^2
    evaluations of about L H N (4 d_a d_x + 2 d_a^2) multiply-adds each, the S x S
    Vandermonde inverse, the interpolation (S sum m^2) and the ranks (sum m^3); memory:
    the S R^2 values, the templates, the Vandermonde inverse and the largest block with
    its rank's copies.

    >>> from seprank.separation import plan_separation
    >>> grid_estimate(plan_separation(3, 4, 2).request).detail
    '14 degree blocks, up to 560 x 560'
    """
    from seprank.budget import KERNEL_LOAD_SECONDS, format_count

    net, N = request.network, request.N
    S, R, sum2, sum3 = block_sizes(request)
    sizes = f"{format_count(S)} degree blocks, up to {format_count(R)} x {format_count(R)}"
    if R == float("inf"):  # too many blocks to scan: count what is known, one value each
        R, sum2, sum3 = 1, S, S
        sizes = f"{format_count(S)} degree blocks: a {format_count(S)}^2 Vandermonde inverse"
    per_eval = net.L * net.H * N * (4 * net.d_a * net.d_x + 2 * net.d_a ** 2)
    evals = S * R * R
    points = (S * R * len(request.I) + R * len(request.J)) * net.d_x
    peak = 8 * evals + 40 * points + _VANDERMONDE_BYTES * S * S + _BLOCK_BYTES * R * R
    work = ((evals * per_eval, "grid"), (S ** 3, "nmod"), (3 * S * sum2, "grid"),
            (sum3, "nmod"), (S * S, "python"))
    phases = (("evaluation", f"{format_count(evals)} network values mod p "
                             f"({format_count(S)} scales x {format_count(R)} x "
                             f"{format_count(R)} points)"),
              ("interpolation", f"Vandermonde solve of {format_count(S)} scales per point"),
              ("rank", f"blocks mod p, largest {format_count(R)} x {format_count(R)}"))
    return WorkEstimate(phases, sum(ops for ops, _ in work), peak, work=work,
                        fixed_seconds=KERNEL_LOAD_SECONDS,
                        detail=sizes)


class GridRoute(SeparationRoute):
    """Network values mod p at random points, degree blocks by scaling (module docstring).

    Can run any finite request; preferred by ``auto`` whenever it can run (the
    coefficient route, asked first, takes the small outputs); never a fallback.

    >>> from seprank.separation import plan_separation
    >>> rp = ROUTE.plan(plan_separation(1, 1, 1, weights_seed=0).request)
    >>> rp.prime, [b.cap for b in rp.blocks], rp.kinds
    (2147483647, [0, 1, 0, 1], ('exact', 'lower_bound'))
    """

    name = "grid"
    summary = ("the network evaluated mod p on random points, degree blocks separated by "
               "scaling; a certified lower bound, exact when every block meets its cap")
    matrix_words = "grid blocks mod p"

    def should_run(self, request, *, fallback: bool = False) -> tuple[bool, str]:
        if fallback:
            return False, "other random points add no certainty"
        return True, "evaluations mod p grow with the blocks' caps, not with the expansion"

    def estimate(self, request) -> WorkEstimate:
        return grid_estimate(request)

    def plan(self, request) -> RoutePlan:
        net = request.network
        specs = degree_blocks(len(request.I) * net.d_x, len(request.J) * net.d_x,
                              request.degree, request.position in request.I, net.residual)
        p = require_prime(grid_prime(specs) if request.prime is None else request.prime,
                          max_value=MAX_KERNEL_PRIME)
        _check_weights_mod_p(net, p)
        n_scales = len(scale_powers(specs, net.residual))
        check_scales(n_scales, p)
        D = request.degree
        blocks = tuple(PlannedBlock(k, (D - k) if isinstance(k, int) else k, (a, b), min(a, b),
                                    points=min(a, b),
                                    zero_by_parity=not net.residual and (a == 0 or b == 0))
                       for k, a, b in specs)
        factor = 2 if net.residual else 1
        notes = (f"points: uniform in GF({p}), drawn from points_seed = {request.points_seed}",
                 f"error bound: value = rank mod {p} of the coefficient matrix except with "
                 f"probability <= {'2 ' if factor == 2 else ''}D (value) / p (Schwartz-Zippel, "
                 f"D = {D})")
        return RoutePlan(blocks, grid_estimate(request), (EXACT, LOWER_BOUND),
                         prime=p, uses_points_seed=True, notes=notes)

    def run(self, request, plan: RoutePlan) -> RouteOutcome:
        p = plan.prime
        g = grid_block_ranks(request.network, request.N, request.I, request.J,
                             request.position, request.coordinate, p=p,
                             seed=request.points_seed, certify=request.certify)
        value, cap = g["lower_bound"], g["cap"]
        return RouteOutcome(
            value=value, kind=EXACT if value == cap else LOWER_BOUND, upper_bound=cap,
            blocks=g["blocks"], matrix_words=self.matrix_words,
            matrix_points=sum(b["points"] for b in g["blocks"]), prime=p,
            error_bound=g["error_bound"],
            probabilistic=(f"the value equals the rank mod {p} of the coefficient matrix "
                           f"except with probability <= {g['error_bound']:.3g} "
                           "(Schwartz-Zippel)"),
            evaluations=g["evaluations"], points_digest=g["points_digest"],
            timings={k: round(v, 4) for k, v in g["seconds"].items()},
            certificates_verified=g.get("certificates_verified"))


#: the registry's entry (seprank.separation.routes)
ROUTE = GridRoute()
