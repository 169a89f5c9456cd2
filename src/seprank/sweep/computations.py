"""The computations a sweep can run, each a function of JSON-able parameters.

Every computation returns a JSON-able dict. Ranks carry their answer kind
(``exact``, ``lower_bound``, ...) and the field they are taken over, exactly
as :class:`seprank.RankResult` does; nothing here turns a bound into an
exact value.

===================  =====================================================================
``hadamard_rank``    rank over Q of G = (U U^T)^(Hadamard lam), U the Omega rows of
                     levine2020 A.3 (l.526) or random integer rows; beside it the bound
                     ((d, lam)) = C(d+lam-1, lam) (DESIGN.md, "Sizes that matter").
``grid_rank``        rank of a random network's grid matricization (levine2020 eq. (3),
                     Sec. 7), with the Theorem 3 and 4 bounds.
``lemma6``           levine2020 Lemma 6's identity, printed or corrected assignment,
                     exactly over Q(i).
``float_vs_exact``   the same G: its exact rank beside numpy's float64 rank of the
                     correctly rounded G and of the row-normalized G (float estimates),
                     and whether each float rank is wrong.
``check``            one registered proof check (mission-map id), fast or full tier.
``separation_rank``  the separation rank of y_1^1 of a random or structured eq. (3) network
                     (:func:`seprank.separation_rank`), with the bounds that apply.
===================  =====================================================================

The command-line ``grid-rank`` and ``lemma6`` commands call the same functions.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from typing import Any

from seprank.errors import ParameterError, SeprankError

__all__ = ["Computation", "COMPUTATIONS", "get_computation", "hadamard_rank", "grid_rank",
           "lemma6_identity", "proof_check", "float_vs_exact", "execute",
           "separation_rank_task"]

#: Marks a parameter without a default (the spec must give it).
REQUIRED = object()


@dataclass(frozen=True)
class Computation:
    """A named computation: its function, defaults and a validator of parameters.

    Examples
    --------
    >>> comp = get_computation("hadamard_rank")
    >>> comp.required
    ('d', 'lam')
    >>> comp.normalize({"d": 2, "lam": "3"})
    Traceback (most recent call last):
        ...
    seprank.errors.ParameterError: parameter 'lam': expected an integer, got the string "3"
    """

    name: str
    func: Callable[..., dict[str, Any]]
    defaults: dict[str, Any]
    #: the rules that tie parameters together (each parameter's type is declared in
    #: :mod:`seprank.sweep.parameters` and checked first)
    validate: Callable[[dict[str, Any]], None]
    summary: str = ""
    #: Optional: (name, value) -> list of values, for shorthands such as id = "*".
    expand: Callable[[str, Any], list[Any] | None] | None = None
    #: Optional: full params -> why this grid point is left out (None: run it).
    skip: Callable[[dict[str, Any]], str | None] | None = None

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(k for k, v in self.defaults.items() if v is REQUIRED)

    def normalize(self, params: dict[str, Any]) -> dict[str, Any]:
        """Check every parameter; return the full parameter set (defaults filled in)."""
        unknown = set(params) - set(self.defaults)
        if unknown:
            raise ParameterError(f"{self.name} takes no parameters {sorted(unknown)}")
        full = {k: params.get(k, v) for k, v in self.defaults.items()}
        missing = [k for k, v in full.items() if v is REQUIRED]
        if missing:
            raise ParameterError(f"{self.name} needs the parameters {missing}")
        from seprank.sweep.parameters import check_parameters  # (loads pydantic)

        check_parameters(self.name, self.defaults, full, self.required)  # declared types
        self.validate(full)
        return full


# ---------------------------------------------------------------- hadamard_rank

def _validate_hadamard(p: dict[str, Any]) -> None:
    from seprank.combinatorics import check_d_lam

    check_d_lam(p["d"], p["lam"])
    if p["prime"] is not None:
        from seprank.scalars.primes import require_prime

        require_prime(p["prime"])
    if p["family"] == "omega" and p["rows"] is not None:
        raise ParameterError("family 'omega' has exactly ((d, lam)) rows; 'rows' is for "
                             "the random family")


def hadamard_rank(d: int, lam: int, family: str = "omega", omega: int = 2,
                  entry_bound: int = 3, rows: int | None = None, seed: int = 0,
                  method: str = "auto", exact_max_n: int = 1000,
                  prime: int | None = None, delay_s: float = 0) -> dict[str, Any]:
    """Rank over Q of G = (U U^T)^(Hadamard lam) and the bound ((d, lam)).

    ``family="omega"``: U has one row Omega^q per composition q of lam into d
    parts (levine2020 A.3, l.526; Omega an integer, default 2). ``"random"``:
    ``rows`` rows (default ((d, lam))) uniform in [-entry_bound, entry_bound].
    G's entries (u_i . u_j)^lam are values of a symmetric bilinear form on the
    homogeneous polynomials of degree lam in d variables, so
    rank G <= ((d, lam)) = C(d + lam - 1, lam) ("dim_bound").

    Up to ``exact_max_n`` rows, G is built exactly and ranked by
    :func:`seprank.rank` with ``method``. Above it (``auto``/``modular``), G is
    built mod a prime by the direct builder: a full rank mod p is the exact
    rank over Q; a smaller one is only a certified lower bound, and is
    labelled so.

    Examples
    --------
    >>> r = hadamard_rank(2, 2)          # U = Omega rows for d = 2, lam = 2: G is 3 x 3
    >>> r["value"], r["kind"], r["dim_bound"]
    (3, 'exact', 3)
    >>> r = hadamard_rank(3, 2, family="random", rows=8, seed=1)
    >>> r["value"] <= r["dim_bound"] == 6
    True
    """
    import numpy as np

    from seprank.constructions.omega import gram_hadamard_exact, omega_rows
    from seprank.linalg import rank

    params = {"d": d, "lam": lam, "family": family, "omega": omega, "entry_bound": entry_bound,
              "rows": rows, "seed": seed, "method": method, "exact_max_n": exact_max_n,
              "prime": prime, "delay_s": delay_s}
    get_computation("hadamard_rank").normalize(params)
    dim = comb(d + lam - 1, lam)
    if family == "omega":
        U = omega_rows(d, lam, omega)
    else:
        rng = np.random.default_rng(seed)
        U = rng.integers(-entry_bound, entry_bound + 1, size=(rows or dim, d)).tolist()
    m = len(U)
    out: dict[str, Any] = {"n_rows": m, "dim_bound": dim, "bound": min(m, dim)}
    if m <= exact_max_n or method in ("exact", "multimodular", "float"):
        G = gram_hadamard_exact(U, lam)
        if method == "float":
            G = np.array(G.tolist(), dtype=float)
        res = rank(G, method, prime=prime)
        out.update(res.to_dict())
        out["built"] = "exact integers"
        return out
    from seprank.constructions.builders import gram_hadamard_mod_p_f64
    from seprank.linalg.residues import ResidueMatrix
    from seprank.scalars.primes import require_prime

    p = require_prime(prime) if prime is not None else 1048573
    start = time.perf_counter()
    Gp = ResidueMatrix(gram_hadamard_mod_p_f64(np.asarray(U, dtype=np.int64), lam, p), p)
    built_s = time.perf_counter() - start
    res = rank(Gp, "modular", prime=p)
    full = res.value == m
    out.update(res.to_dict())
    out.update(field="QQ", built="direct builder mod p", build_seconds=round(built_s, 6),
               kind="exact" if full else "lower_bound",
               note=("full rank mod p: a nonzero minor mod p is a nonzero integer, so the "
                     "rank over Q is exact" if full else
                     "rank mod p only: a certified lower bound on the rank over Q"))
    return out


# ---------------------------------------------------------------- float_vs_exact

def _validate_float_vs_exact(p: dict[str, Any]) -> None:
    from seprank.combinatorics import check_d_lam

    check_d_lam(p["d"], p["lam"])


def _float_vs_exact_too_big(p: dict[str, Any]) -> str | None:
    n = comb(p["d"] + p["lam"] - 1, p["lam"])
    return f"((d, lam)) = {n} > max_n = {p['max_n']}" if n > p["max_n"] else None


def float_vs_exact(d: int, lam: int, family: str = "omega", seed: int = 0,
                   rtol: float | None = None, max_n: int = 2000,
                   delay_s: float = 0) -> dict[str, Any]:
    """Exact rank of G = (U U^T)^(Hadamard lam) beside numpy's float64 ranks of it.

    U has n = ((d, lam)) rows: the Omega rows (Omega = 2, levine2020 A.3) or
    random integers in [-3, 3]. Float ranks (always ``float_estimate``) are
    taken by SVD with numpy's default tolerance (or ``rtol`` times sigma_max)
    on ``raw``: the exact integers rounded to float64, and ``normalized``: G
    built in float64 from the unit rows u_i / |u_i| (row scaling does not change
    the rank). A float rank is ``wrong`` when it differs from an ``exact``
    rank. The float64 range can overflow for large entries: then the raw float
    rank is ``None`` and ``raw_overflow`` is true. ``times`` holds the seconds
    of each path (build of the exact G, exact rank, each float rank). The work
    is :func:`seprank.float_vs_exact.compare_ranks`, as in ``seprank float-vs-exact``.

    Examples
    --------
    >>> r = float_vs_exact(2, 2)            # 3 x 3, far too small to fool float64
    >>> r["exact"]["value"], r["exact"]["kind"], r["raw"]["value"], r["raw"]["wrong"]
    (3, 'exact', 3, False)
    >>> r["raw"]["kind"], sorted(r["times"])[:2]
    ('float_estimate', ['build_s', 'exact_s'])
    """
    from seprank.float_vs_exact import compare_ranks, family_V

    params = {"d": d, "lam": lam, "family": family, "seed": seed, "rtol": rtol, "max_n": max_n,
              "delay_s": delay_s}
    get_computation("float_vs_exact").normalize(params)
    too_big = _float_vs_exact_too_big(params)
    if too_big:
        raise ParameterError(f"{too_big}: raise max_n to insist (SVD and exact rank grow as n^3)")
    return compare_ranks(family_V(family, d, lam, seed), lam, rtol=rtol)


# ---------------------------------------------------------------- grid_rank

def _no_rules(p: dict[str, Any]) -> None:
    """No rule ties the parameters together: their declared types say it all."""


def grid_rank(depth: int, width: int, heads: int = 1, da: int | None = None,
              residual: bool = False, seq_len: int = 2, templates: int = 6,
              template_bound: int = 3, position: int = 0, coordinate: int = 0,
              partition: list | None = None, seed: int = 0, method: str = "auto",
              certify: bool = False, delay_s: float = 0, *,
              network=None) -> dict[str, Any]:
    """Rank of a network's grid matricization, with the paper's bounds.

    The network is levine2020 eq. (3) with the weights ``seed`` draws
    (:func:`seprank.models.generic_weights.seeded_network`, the draw of every command), or
    ``network`` as given (its shape must match; ``seed`` then draws the templates only);
    the result carries the weights (``weights``, the JSON form ``--weights`` reads), so the
    same network can go through ``sep-rank``. The
    grid tensor (Sec. 7, eq. (7.1)) uses ``templates`` integer template
    vectors (drawn from ``seed + 1``); ``partition`` (default: the first half of the
    positions) is I, or [I, J]. The rank is the separation front door's
    ``template-grid`` route (:mod:`seprank.separation.grid.template`); ``separation``
    says what it means for the separation rank (``exact`` only when the templates'
    monomial certificate holds, else a ``lower_bound``). Without residual connections
    the result also carries the Theorem 3 bound (H (d_a + 1))^C(L) and the Theorem 4
    bound (levine2020 eq. (19)), from the paper wings
    (:func:`seprank.paper_hooks.network_bounds`).

    Examples
    --------
    >>> r = grid_rank(depth=1, width=2, heads=1, templates=3)
    >>> r["matrix_shape"]                 # 3 templates per side, one position each
    [3, 3]
    >>> r["rank"]["value"] <= min(r["grid_cap"], r["thm3_bound"])
    True
    >>> r["separation"]["kind"]           # 3 templates cannot separate 10 monomials
    'lower_bound'
    """
    import numpy as np

    from seprank.models.generic_weights import seeded_network
    from seprank.models.weights import weights_to_json
    from seprank.paper_hooks import network_bounds
    from seprank.separation import separation_rank
    from seprank.separation.sizes import check_grid_draw

    params = {"depth": depth, "width": width, "heads": heads, "da": da, "residual": residual,
              "seq_len": seq_len, "templates": templates, "template_bound": template_bound,
              "position": position, "coordinate": coordinate, "partition": partition,
              "seed": seed, "method": method, "certify": certify, "delay_s": delay_s}
    get_computation("grid_rank").normalize(params)
    N = seq_len
    check_grid_draw(depth, width, heads, da, N, templates)
    if partition is None:
        if N % 2:
            raise ParameterError(f"seq_len N = {N} is odd: the default balanced partition "
                                 "needs N even (or give a partition)")
        partition = list(range(N // 2))
    net = seeded_network(depth, width, heads, da, residual=residual, seed=seed) \
        if network is None else network
    rng = np.random.default_rng(seed + 1)
    T = rng.integers(-template_bound, template_bound + 1, size=(templates, width))
    res = separation_rank(network=net, N=N, partition=partition, position=position,
                          coordinate=coordinate, route="template-grid", templates=T,
                          rank_method=method, certify=certify)
    out: dict[str, Any] = {
        "depth": depth, "width": width, "heads": heads, "d_a": net.d_a, "residual": residual,
        "seq_len": N, "templates": templates, "seed": seed, "partition": res.partition,
        "matrix_shape": list(res.matrix_shape), "rank": res.matrix_rank.to_dict(),
        "grid_cap": int(min(res.matrix_shape)),
        "separation": {"value": res.value, "kind": res.kind, "upper_bound": res.upper_bound},
        "weights": weights_to_json(net.weights),
        "degenerate": list(res.facts.get("degenerate", []))}
    if not residual:  # levine2020's Theorems 3 and 4, asked of the paper wings
        bounds = network_bounds(depth, width, heads, net.d_a, N, residual)
        out["thm3_bound"] = bounds["L-Thm3"]["value"]
        out["thm4_bound"] = str(bounds["L-Thm4"]["value"])
    if certify:
        out["certificate_verified"] = res.certificates_verified
    return out


# ---------------------------------------------------------------- lemma6

def _validate_lemma6(p: dict[str, Any]) -> None:
    from seprank.constructions import lemma6 as l6

    l6.check_parameters(N=p["seq_len"], H=p["heads"], d_a=p["da"], L=p["depth"])


def lemma6_identity(depth: int, heads: int = 1, da: int = 3, seq_len: int = 2, half: int = 3,
                    seed: int = 0, corrected: bool = False,
                    delay_s: float = 0) -> dict[str, Any]:
    """Does levine2020 Lemma 6's identity hold for these parameters? Exactly over Q(i).

    The network with the Lemma 6 weight assignment (printed, or with the
    corrections of :mod:`seprank.constructions.lemma6`) is evaluated over
    Q(i) on the lemma's inputs; the identity holds when every output equals
    one constant c times the entries of G = (V V^T)^(Hadamard lam),
    lam = 3^(L-2), for ``half`` rational points V on the unit sphere.

    Examples
    --------
    >>> lemma6_identity(depth=2, corrected=True)["identity_holds"]
    True
    """

    from seprank.constructions import lemma6 as l6
    from seprank.models.network import SelfAttentionNetwork
    from seprank.proof.evidence import jsonable

    params = {"depth": depth, "heads": heads, "da": da, "seq_len": seq_len, "half": half,
              "seed": seed, "corrected": corrected, "delay_s": delay_s}
    get_computation("lemma6").normalize(params)
    L, H, d_a, N = depth, heads, da, seq_len
    l6.check_size(L, H, d_a, N, half)
    fixes = set(l6.CORRECTIONS) if corrected else set()
    V = l6.lemma6_V(H, d_a, half, seed=seed)
    lam = 3 ** (L - 2)
    out: dict[str, Any] = {
        "depth": L, "heads": H, "d_a": d_a, "d_x": H * d_a, "seq_len": N, "M": 2 * half,
        "assignment": "corrected" if corrected else "printed", "seed": seed,
        "V_rows_exactly_unit": True}
    try:
        T = l6.templates(V, H, d_a, printed="template" not in fixes,
                         printed_phi="phi" not in fixes)
        net = SelfAttentionNetwork(L, H * d_a, H, d_a,
                                   weights=l6.assignment(L, N, H, d_a, corrected=fixes))
        outputs = net.evaluate(l6.lemma6_inputs(T, N), "QQ(i)")
    except l6.PrintedFormulaUndefined as exc:
        out.update(identity_holds=False, reason=f"printed formula undefined: {exc}")
    else:
        G = l6.gram_hadamard(V, lam).ravel()
        ref = next(b for b in range(len(G)) if G[b] != 0)
        mismatch, constants = None, set()
        for i in range(outputs.shape[1]):
            for k in range(outputs.shape[2]):
                c = outputs[ref, i, k] / G[ref]
                constants.add(c)
                bad = next((b for b in range(len(G)) if outputs[b, i, k] != c * G[b]), None)
                if bad is not None and mismatch is None:
                    mismatch = {"position_0based": i, "coordinate_0based": k,
                                "entry_row_col_0based": (bad // half, bad % half),
                                "value": str(outputs[bad, i, k]), "c_times_G": str(c * G[bad])}
        one_constant = mismatch is None and len(constants) == 1
        out.update(identity_holds=one_constant, mismatch=mismatch,
                   constants=sorted(str(c) for c in constants)[:8])
        if corrected:
            formula = l6.lemma6_constant(L, N, d_a)
            out["constant_formula"] = "i^(lam+1) 2^lam ((d_a-1)/2)^(lam-1) N^(-(lam+1)/2)"
            out["constant_formula_value"] = str(formula)
            out["constant_matches_formula"] = one_constant and constants == {formula}
    out["kind"] = "exact (evaluated over Q(i))"
    return jsonable(out)


# ---------------------------------------------------------------- check

def _validate_check(p: dict[str, Any]) -> None:
    from seprank.proof import registered_checks

    specs = registered_checks()
    if p["id"] not in specs:
        raise ParameterError(f"no proof check with id {p['id']!r}; see `seprank prove --list`")


def proof_check(id: str, full: bool = False, delay_s: float = 0) -> dict[str, Any]:
    """Run one registered proof check (without its dependencies); its JSON record.

    Examples
    --------
    >>> proof_check("L-Lemma4")["verdict"]
    'verified'
    """
    from seprank.proof import registered_checks
    from seprank.proof.evidence import jsonable
    from seprank.proof.framework import run_check

    get_computation("check").normalize({"id": id, "full": full, "delay_s": delay_s})
    return jsonable(run_check(registered_checks()[id], full=full).to_dict())


def _expand_check(name: str, value: Any) -> list[Any] | None:
    """``id = "*"``: every registered check, in dependency order."""
    if name == "id" and value == "*":
        from seprank.proof import registered_checks
        from seprank.proof.runner import order_checks

        return order_checks(registered_checks())
    return None


# ---------------------------------------------------------------- separation_rank

def _sep_skip(p: dict[str, Any]) -> str | None:
    from seprank.separation.sizes import feasible

    if p["family"] != "onedim" and p["width"] % p["heads"]:
        return f"H = {p['heads']} does not divide d_x = {p['width']}"
    if p["seq_len"] < 2:
        return "N < 2"
    return feasible(p["depth"], p["width"], p["seq_len"], p["residual"])


def separation_rank_task(depth: int, width: int, heads: int = 1, residual: bool = False,
                         seq_len: int = 2, family: str = "random", seed: int = 0,
                         route: str = "auto", delay_s: float = 0) -> dict[str, Any]:
    """The separation rank of y_1^1 w.r.t. the balanced partition (I = the first half), for
    weights of ``family`` (:mod:`seprank.separation.structured`); the mathematics is in
    :mod:`seprank.separation` (this only schedules it).

    >>> r = separation_rank_task(depth=1, width=2, family="identity")
    >>> r["value"], r["kind"], r["bounds"]["L-Thm3"]["value"]   # (1 (2 + 1))^1
    (3, 'exact', 3)
    """
    from seprank.combinatorics import num_head_indices
    from seprank.separation import separation_rank
    from seprank.separation.sizes import parameter_count
    from seprank.separation.structured import structured_weights

    W = structured_weights(family, depth, width, heads, seed=seed)
    res = separation_rank(weights=W, N=seq_len, residual=residual, route=route, seed=seed)
    out = res.to_dict()
    d_a = res.network["d_a"]
    out.update(family=family, seed=seed, parameters=parameter_count(depth, width, heads, d_a),
               C_L=num_head_indices(depth))
    return out


COMPUTATIONS: dict[str, Computation] = {
    c.name: c for c in (
        Computation("hadamard_rank", hadamard_rank,
                    {"d": REQUIRED, "lam": REQUIRED, "family": "omega", "omega": 2,
                     "entry_bound": 3, "rows": None, "seed": 0, "method": "auto",
                     "exact_max_n": 1000, "prime": None, "delay_s": 0},
                    _validate_hadamard, "rank over Q of (U U^T)^(Hadamard lam)"),
        Computation("grid_rank", grid_rank,
                    {"depth": REQUIRED, "width": REQUIRED, "heads": 1, "da": None,
                     "residual": False, "seq_len": 2, "templates": 6, "template_bound": 3,
                     "position": 0, "coordinate": 0, "partition": None, "seed": 0,
                     "method": "auto", "certify": False, "delay_s": 0},
                    _no_rules, "rank of a random network's grid matricization"),
        Computation("lemma6", lemma6_identity,
                    {"depth": REQUIRED, "heads": 1, "da": 3, "seq_len": 2, "half": 3,
                     "seed": 0, "corrected": False, "delay_s": 0},
                    _validate_lemma6, "levine2020 Lemma 6's identity over Q(i)"),
        Computation("float_vs_exact", float_vs_exact,
                    {"d": REQUIRED, "lam": REQUIRED, "family": "omega", "seed": 0, "rtol": None,
                     "max_n": 2000, "delay_s": 0},
                    _validate_float_vs_exact, "exact rank beside numpy's float64 rank",
                    skip=_float_vs_exact_too_big),
        Computation("separation_rank", separation_rank_task,
                    {"depth": REQUIRED, "width": REQUIRED, "heads": 1, "residual": False,
                     "seq_len": 2, "family": "random", "seed": 0, "route": "auto",
                     "delay_s": 0},
                    _no_rules, "separation rank of y_1^1 of a random or structured network",
                    skip=_sep_skip),
        Computation("check", proof_check, {"id": REQUIRED, "full": False, "delay_s": 0},
                    _validate_check, "one proof check by mission-map id (id = \"*\": all)",
                    _expand_check),
    )
}


def get_computation(name: str) -> Computation:
    """The registered computation called ``name`` (a clear error otherwise).

    Examples
    --------
    >>> get_computation("grid_rank").name
    'grid_rank'
    """
    if not isinstance(name, str) or name not in COMPUTATIONS:
        raise ParameterError(f"unknown computation {name!r}; known: "
                             f"{', '.join(sorted(COMPUTATIONS))}")
    return COMPUTATIONS[name]


def execute(computation: str, params: dict[str, Any]) -> dict[str, Any]:
    """Run one task where it lands (a Dask worker, or here) and describe the outcome.

    Never raises for a failing computation: the outcome says ``done`` or
    ``failed`` with a one-line error, the seconds taken, the process and the
    code version that ran it (so a client can refuse results from a worker
    running other code). ``delay_s`` sleeps first (for demonstrations and the
    fault-tolerance test).

    Examples
    --------
    >>> out = execute("hadamard_rank", {"d": 2, "lam": 1})
    >>> out["status"], out["result"]["value"]
    ('done', 2)
    >>> execute("hadamard_rank", {"d": 0, "lam": 1})["status"]
    'failed'
    """
    from seprank.proof.evidence import jsonable
    from seprank.sweep.version import code_version

    start = time.perf_counter()
    outcome: dict[str, Any] = {"pid": os.getpid(), "code_version": code_version()}
    try:
        comp = get_computation(computation)
        full = comp.normalize(dict(params))
        if full.get("delay_s"):
            time.sleep(full["delay_s"])
        outcome["result"] = jsonable(comp.func(**full))
        outcome["status"] = "done"
    except (SeprankError, MemoryError) as exc:
        outcome.update(status="failed", error=f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a bug: keep the sweep going, say what happened
        outcome.update(status="failed", error=f"{type(exc).__name__} (unexpected): {exc}")
    outcome["seconds"] = round(time.perf_counter() - start, 6)
    return outcome
