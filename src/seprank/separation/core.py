"""``seprank.separation_rank``: the separation rank of one output of an eq. (3) network.

Two routes (the mathematics is in :mod:`seprank.separation.polynomial` and
:mod:`seprank.separation.gridroute`):

``"coefficient"``
    expand y_p^i exactly (python-flint ``fmpz_mpoly`` / ``fmpq_mpoly``), split
    its coefficient matricization into blocks, rank each block exactly over Q
    with :func:`seprank.rank`. Kind ``exact`` (separation rank = rank(C)).
``"grid"``
    evaluate the network mod p on random points (numba kernel), degree blocks
    by scaling and Vandermonde interpolation, rank each block mod p. A
    certified ``lower_bound``; ``exact`` when it meets the certified cap (sum
    of the blocks' min(#monomials)); it equals rank_p(C) except with the
    Schwartz-Zippel probability it reports (``details["grid"]["error_bound"]``).
``"auto"``
    the coefficient route when the output has at most
    ``AUTO_COEFFICIENT_MAX_TERMS`` possible monomials, else the grid route, and
    when that is not exact the coefficient route after all if the output has at
    most ``AUTO_FALLBACK_MAX_TERMS`` possible monomials.
    Measured (benchmarks/sep_rank.py, 2 shared cores): L = 2, d_x = 4, N = 2
    (<= 11440 terms) takes well under a second by coefficients; L = 3, d_x = 4,
    N = 2 (up to 5.4 million terms) takes minutes to expand, while the grid
    route's lower bound takes seconds.

Conventions: positions and coordinates are 0-based (the paper's y_p^i is
``position = i - 1``, ``coordinate = p - 1``); the partition is (I, J) of
0..N-1, I given, J its complement; default I = the first half.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import seprank
from seprank.errors import InputError, ParameterError
from seprank.models.network import SelfAttentionNetwork
from seprank.separation.gridroute import grid_block_ranks, monomial_count
from seprank.separation.polynomial import coefficient_blocks, network_polynomial
from seprank.separation.weights import weights_from_json, weights_to_json
from seprank.tensors.grid import check_partition

__all__ = ["separation_rank", "SeparationRankResult", "network_bounds", "ROUTES",
           "AUTO_COEFFICIENT_MAX_TERMS", "AUTO_FALLBACK_MAX_TERMS", "DEFAULT_GRID_PRIME",
           "binding_seq_len", "binding_evidence", "parameter_count", "feasible"]

ROUTES = ("auto", "coefficient", "grid")
#: ``auto`` expands by coefficients up to this many possible output monomials
#: (C(N d_x + D - 1, D) for D = 3^L); beyond it, the grid route.
AUTO_COEFFICIENT_MAX_TERMS = 200_000
#: ``auto``: when the grid route is not exact, fall back to the coefficient route up to
#: this many possible monomials (real outputs have far fewer: 2.7 million of 5.4
#: million at L = 3, d_x = 4, N = 2, which took 4 minutes to expand).
AUTO_FALLBACK_MAX_TERMS = 2_000_000
#: The grid route's prime (the largest the network kernels take): a small
#: Schwartz-Zippel error bound D r / p.
DEFAULT_GRID_PRIME = 2**31 - 1


@dataclass
class SeparationRankResult:
    """A separation rank with its kind, the instance, and the bounds that apply.

    ``value`` and ``kind`` (``exact`` or ``lower_bound``); ``upper_bound``, a
    certified upper bound (equal to value when exact); ``partition``
    {"I", "J"} (0-based positions); ``position``, ``coordinate`` (0-based);
    ``seq_len`` N; ``residual``; ``network`` {"L", "d_x", "H", "d_a"};
    ``route``; ``bounds``: the paper bounds that apply, each with whether the
    value respects it; ``weights`` (JSON form, see
    :mod:`seprank.separation.weights`); ``blocks`` and ``details``.

    >>> r = separation_rank(1, 1, 1, N=2, weights={k: [[[[1]]]] for k in "QKVO"})
    >>> r.value, r.kind, r.partition
    (2, 'exact', {'I': [0], 'J': [1]})
    """

    value: int
    kind: str
    upper_bound: int
    partition: dict
    position: int
    coordinate: int
    seq_len: int
    residual: bool
    network: dict
    route: str
    bounds: dict
    weights: dict
    blocks: list = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (the ``--json`` output of ``seprank sep-rank``).

        >>> sorted(separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"}
        ...                        ).to_dict())[:4]
        ['blocks', 'bounds', 'coordinate', 'details']
        """
        return {"value": self.value, "kind": self.kind, "upper_bound": self.upper_bound,
                "partition": self.partition, "position": self.position,
                "coordinate": self.coordinate, "seq_len": self.seq_len,
                "residual": self.residual, "network": self.network, "route": self.route,
                "bounds": self.bounds, "blocks": self.blocks, "details": self.details,
                "weights": self.weights}

    def __str__(self) -> str:
        n = self.network
        head = (f"separation rank {self.value} ({self.kind}"
                + ("" if self.kind == "exact" else f"; certified upper bound {self.upper_bound}")
                + f") of y[{self.position}][{self.coordinate}], L={n['L']}, d_x={n['d_x']}, "
                f"H={n['H']}, d_a={n['d_a']}, N={self.seq_len}"
                + (", residual" if self.residual else "")
                + f", I={self.partition['I']} | J={self.partition['J']}, route {self.route}")
        return head


def network_bounds(L: int, d_x: int, H: int, d_a: int, N: int, residual: bool,
                   value: int | None = None) -> dict:
    """The papers' bounds that apply to this network shape, with whether ``value`` respects
    them (None: not decided, or no value).

    Asked of the registered paper wings (:func:`seprank.paper_hooks.network_bounds`);
    today levine2020's: without residual connections Theorem 3 (any d_a), Theorem 4,
    and with d_a = d_x / H Theorem 1 (3^L < d_x) or Theorem 2 (3^L > d_x) through their
    log_3 forms (arb balls; a comparison the ball cannot decide gives None); with
    residual connections Theorem 5 as printed and Theorem 6. Theorems 1 and 2's lower
    bounds hold for almost all weights, not for every integer draw.

    >>> b = network_bounds(1, 2, 1, 2, 2, False, value=3)
    >>> b["L-Thm3"]["value"], b["L-Thm3"]["respected"]   # (1 (2 + 1))^1
    (3, True)
    """
    from seprank.paper_hooks import network_bounds as from_wings

    return from_wings(L, d_x, H, d_a, N, residual, value)


def _possible_terms(n_vars: int, D: int, residual: bool) -> int:
    return monomial_count(n_vars, D, up_to=residual)


def _build_network(L, d_x, H, d_a, residual, seed, weights) -> SelfAttentionNetwork:
    if weights is not None:
        arrs, dims = weights_from_json(weights_to_json(weights)
                                       if _is_array_weights(weights) else weights)
        for name, given in (("L", L), ("d_x", d_x), ("H", H), ("d_a", d_a)):
            if given is not None and given != dims[name]:
                raise InputError(f"the weights have {name} = {dims[name]}, but {name} = {given} "
                                 "was asked for")
        return SelfAttentionNetwork(dims["L"], dims["d_x"], dims["H"], dims["d_a"],
                                    residual=residual, weights=arrs)
    H = 1 if H is None else H
    seed = _int_param("seed", seed, 0)
    for name, v in (("L", L), ("d_x", d_x)):
        if v is None:
            raise ParameterError(f"{name} is needed (or pass weights)")
    return SelfAttentionNetwork.random(L, d_x, H, d_a, residual=residual, seed=seed,
                                      nonzero=True)


def _is_array_weights(w) -> bool:
    import numpy as np

    return isinstance(w, dict) and any(isinstance(w.get(k), np.ndarray) for k in "QKVO")


def _int_param(name: str, v, low: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ParameterError(f"{name} must be an integer >= {low}, got {v!r}")
    return v


def separation_rank(L: int | None = None, d_x: int | None = None, H: int | None = None,
                    d_a: int | None = None, *, N: int = 2, partition=None, position: int = 0,
                    coordinate: int = 0, residual: bool = False, seed: int = 0,
                    weights: dict | None = None, network: SelfAttentionNetwork | None = None,
                    route: str = "auto", prime: int | None = None,
                    certify: bool = False) -> SeparationRankResult:
    """Separation rank of y_coordinate^position of an eq. (3) network w.r.t. (I, J).

    Parameters
    ----------
    L, d_x, H, d_a
        the shape (H defaults to 1, d_a to d_x / H, which needs H | d_x); with
        ``weights`` or ``network`` they may be left out (if given they must match).
    N
        sequence length (>= 2).
    partition
        the positions of I (0-based); default the first half (N // 2 of them).
    position, coordinate
        the output y_p^i (0-based).
    residual
        skip connections x + f(x) (levine2020 A.4).
    seed
        random integer weights in [-2, 2] without 0 (``SelfAttentionNetwork.random`` with
        ``nonzero=True``, so that no weight vanishes).
    weights
        the JSON object of :mod:`seprank.separation.weights` (or arrays).
    network
        a :class:`~seprank.models.SelfAttentionNetwork` to use as it is.
    route
        ``"auto"``, ``"coefficient"`` or ``"grid"`` (module docstring).
    prime
        the grid route's prime (default 2^31 - 1).
    certify
        attach rank certificates to every block and verify them with
        :func:`seprank.verify` (``details["certificates_verified"]``).

    Returns
    -------
    SeparationRankResult

    Raises
    ------
    ParameterError, InputError
        N < 2, H not dividing d_x without d_a, weights of the wrong shape or
        with floats, weights whose denominators p divides (grid route), a
        partition that is not one, a bad route.

    Examples
    --------
    One layer, d_x = H = d_a = 1, all weights 1: y^1 = x_1 (x_1^2 + x_2^2), two
    separable terms, not one (x_1^3 and x_1 x_2^2 have different x_1 parts):

    >>> separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"}).value
    2
    >>> r = separation_rank(2, 2, 1, seed=1, route="grid")
    >>> r.kind in ("exact", "lower_bound"), r.value <= r.upper_bound
    (True, True)
    """
    if route not in ROUTES:
        raise ParameterError(f"route must be one of {', '.join(ROUTES)}; got {route!r}")
    N = _int_param("N (sequence length)", N, 2)
    position = _int_param("position", position, 0)
    coordinate = _int_param("coordinate", coordinate, 0)
    if network is not None:
        if weights is not None:
            raise ParameterError("pass either network or weights, not both")
        net = network
        residual = net.residual
    else:
        if not isinstance(residual, bool):
            raise ParameterError(f"residual must be True or False, got {residual!r}")
        net = _build_network(L, d_x, H, d_a, residual, seed, weights)
    if position >= N:
        raise ParameterError(f"position = {position} must be < N = {N} (0-based)")
    if coordinate >= net.d_x:
        raise ParameterError(f"coordinate = {coordinate} must be < d_x = {net.d_x} (0-based)")
    if partition is None:
        partition = list(range(N // 2))
    I, J = check_partition(N, tuple(partition))
    if not I or not J:
        raise ParameterError(f"a partition needs positions on both sides; got I = {list(I)}, "
                             f"J = {list(J)}")
    D = 3 ** net.L
    terms = _possible_terms(N * net.d_x, D, net.residual)
    chosen = route
    if route == "auto":
        chosen = "coefficient" if terms <= AUTO_COEFFICIENT_MAX_TERMS else "grid"
    details: dict[str, Any] = {"possible_terms": terms, "degree": D}
    start = time.perf_counter()
    if chosen == "coefficient":
        value, upper, kind, blocks = _coefficient(net, N, I, J, position, coordinate, certify,
                                                  details)
    else:
        p = DEFAULT_GRID_PRIME if prime is None else prime
        value, upper, kind, blocks = _grid(net, N, I, J, position, coordinate, p, seed,
                                           certify, details)
        if route == "auto" and kind != "exact" and terms <= AUTO_FALLBACK_MAX_TERMS:
            details["grid_lower_bound"] = value
            chosen = "coefficient"
            value, upper, kind, blocks = _coefficient(net, N, I, J, position, coordinate,
                                                      certify, details)
    details["seconds"] = round(time.perf_counter() - start, 4)
    bounds = network_bounds(net.L, net.d_x, net.H, net.d_a, N, net.residual, value)
    return SeparationRankResult(
        value=value, kind=kind, upper_bound=upper, partition={"I": list(I), "J": list(J)},
        position=position, coordinate=coordinate, seq_len=N, residual=net.residual,
        network={"L": net.L, "d_x": net.d_x, "H": net.H, "d_a": net.d_a}, route=chosen,
        bounds=bounds, weights=weights_to_json(net.weights), blocks=blocks, details=details)


def _coefficient(net, N, I, J, position, coordinate, certify, details):
    t0 = time.perf_counter()
    poly = network_polynomial(net, N, position, coordinate)
    t1 = time.perf_counter()
    blocks = coefficient_blocks(poly, net.d_x, I, J)
    t2 = time.perf_counter()
    value, kinds, out, ok = 0, set(), [], True
    rows = cols = 0
    for blk in blocks:
        mat = blk.integer_matrix()
        res = seprank.rank(mat, "auto", certify=certify)
        if certify:
            ok = ok and bool(seprank.verify(mat, res.certificate))
        value += res.value
        kinds.add(res.kind)
        rows += blk.shape[0]
        cols += blk.shape[1]
        out.append({"I_degrees": list(blk.I_degrees), "J_degrees": list(blk.J_degrees),
                    "shape": list(blk.shape), "rank": res.value, "kind": res.kind})
    t3 = time.perf_counter()
    kind = "exact" if kinds <= {"exact"} else "lower_bound"
    upper = value if kind == "exact" else sum(min(b["shape"]) for b in out)
    details.update(terms=len(poly), matrix_shape=[rows, cols],
                   timing={"expansion": round(t1 - t0, 4), "matricization": round(t2 - t1, 4),
                           "rank": round(t3 - t2, 4)})
    if certify:
        details["certificates_verified"] = ok
    return value, upper, kind, out


def _grid(net, N, I, J, position, coordinate, p, seed, certify, details):
    from seprank.models.network_mod_p import MAX_KERNEL_PRIME
    from seprank.scalars.primes import require_prime

    p = require_prime(p, max_value=MAX_KERNEL_PRIME)
    for k in "QKVO":
        for w in net.weights[k].flat:
            if Fraction(w).denominator % p == 0:
                raise InputError(f"weight {w} in W^{k} has a denominator divisible by p = {p}; "
                                 "choose another prime or the coefficient route")
    g = grid_block_ranks(net, N, I, J, position, coordinate, p=p, seed=seed, certify=certify)
    value, cap = g["lower_bound"], g["cap"]
    kind = "exact" if value == cap else "lower_bound"
    details.update(grid={"prime": p, "error_bound": g["error_bound"],
                         "probabilistic": f"the value equals the rank mod {p} of the coefficient "
                         f"matrix except with probability <= {g['error_bound']:.3g} "
                         "(Schwartz-Zippel)",
                         "evaluations": g["evaluations"],
                         "matrix_points": sum(b["points"] for b in g["blocks"])},
                   timing={k: round(v, 4) for k, v in g["seconds"].items()})
    if certify:
        details["certificates_verified"] = g["certificates_verified"]
    return value, cap, kind, g["blocks"]


def binding_seq_len(L: int, d_x: int, bound, *, residual: bool = False, N_max: int = 64,
                    bound_of_N=None) -> int | None:
    """The smallest even N <= N_max at which the size cap of the balanced partition (I = the
    first N/2 positions, output at position 0) reaches ``bound`` (or ``bound_of_N(N)``), i.e.
    the first size at which the bound, not the size, limits the rank; None if none.

    >>> binding_seq_len(1, 1, 2), binding_seq_len(2, 2, 81)   # caps 2 (N = 2), 210 (N = 6)
    (2, 6)
    """
    from seprank.separation.gridroute import size_cap

    for N in range(2, N_max + 1, 2):
        b = bound if bound_of_N is None else bound_of_N(N)
        if size_cap(L, d_x, N, tuple(range(N // 2)), 0, residual) >= b:
            return N
    return None


def binding_evidence(result: SeparationRankResult, bound, name: str, **extra) -> dict:
    """One evidence row of a bound check: the instance, the rank with its kind, the bound,
    rank/bound, the size cap and ``binding`` (size cap >= bound: the instance is large
    enough for the bound to be reached or exceeded), and ``violates`` (a certified lower
    bound above the bound) / ``respects`` (an exact value or certified upper bound <= bound).

    >>> r = separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"})
    >>> row = binding_evidence(r, 2, "thm3")
    >>> row["binding"], row["ratio"], row["respects"], row["violates"]
    (True, '1 ~ 1', True, False)
    """
    from seprank.separation.gridroute import size_cap

    n = result.network
    cap = size_cap(n["L"], n["d_x"], result.seq_len, tuple(result.partition["I"]),
                   result.position, result.residual)
    ratio = Fraction(result.value) / Fraction(bound)
    return {"L": n["L"], "d_x": n["d_x"], "H": n["H"], "d_a": n["d_a"], "N": result.seq_len,
            "I": result.partition["I"], "position": result.position,
            "residual": result.residual, **extra, "rank": result.value, "kind": result.kind,
            "certified_upper": result.upper_bound, "route": result.route,
            name: str(bound), "ratio": f"{ratio} ~ {float(ratio):.4g}", "size_cap": cap,
            "binding": cap >= bound, "violates": result.value > bound,
            "respects": result.upper_bound <= bound}


def parameter_count(L: int, d_x: int, H: int, d_a: int | None = None) -> int:
    """Number of weights: 4 L H d_a d_x (levine2020 l.81: 4LH matrices of d_a x d_x entries).

    >>> parameter_count(2, 4, 2)   # 4 * 2 * 2 * 2 * 4
    128
    """
    d_a = d_x // H if d_a is None else d_a
    return 4 * L * H * d_a * d_x


#: Largest grid block (points per side) and coefficient expansion (possible monomials)
#: that :func:`feasible` accepts: a 3060-point block is about 10^8 evaluations and a
#: 3060 x 3060 rank mod p, tens of seconds on 2 cores.
FEASIBLE_GRID_POINTS = 3100
#: residual networks go by coefficients: L = 2, d_x = 5 (92378 possible monomials) took
#: 32 s, d_x = 6 (293930) several minutes on 2 shared cores
FEASIBLE_TERMS = 100_000


def feasible(L: int, d_x: int, N: int = 2, residual: bool = False) -> str | None:
    """None when an exact (or certified) answer is expected in well under a few minutes on
    2 cores, else why not (for sweeps that leave such points out).

    >>> feasible(3, 4), feasible(3, 8) is None
    (None, False)
    """
    from seprank.separation.gridroute import monomial_count

    D = 3 ** L
    n = (N // 2) * d_x
    terms = monomial_count(N * d_x, D, up_to=residual)
    if residual:
        return None if terms <= FEASIBLE_TERMS else (
            f"residual: {terms} possible monomials > {FEASIBLE_TERMS}")
    block = max(min(monomial_count(n, k), monomial_count(N * d_x - n, D - k))
                for k in range(1, D + 1, 2))
    if block <= FEASIBLE_GRID_POINTS:
        return None
    return f"grid block of {block} points > {FEASIBLE_GRID_POINTS}"
