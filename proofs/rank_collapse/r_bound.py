"""R-bound: Theorem 2.2's residual bound on sampled softmax networks (rank_collapse_notes l.76-82).

Source: rank_collapse_notes.txt, Theorem 2.2 (l.78-80) and the remark after it (l.82).
Why: the notes mean to derive their goal, res -> 0 with depth (R-collapse), from this
bound and the path decomposition (l.82).

The claim: for L layers of single-head softmax attention with
||W_QK^l||_1 ||W_V^l||_{1,inf} <= beta for every layer,
||res SAN(X)||_{1,inf} <= (4 beta / sqrt(d_qk))^((3^L - 1)/2) ||res X||_{1,inf}^(3^L).

Reading used (stated in the evidence): rows are tokens; a layer maps Y to
softmax(Y W_QK Y^T / sqrt(d_qk)) Y W_V with W_QK = W_Q W_K^T, W_Q, W_K of size
d x d_qk; no bias; ||.||_1, ||.||_inf induced norms; res = column centring (the
Frobenius reading, the only one that makes res well defined, see R-norm); beta
is the smallest value the hypothesis allows, max_l ||W_QK^l||_1 ||W_V^l||_{1,inf}.

A universal inequality cannot be proved by sampling, so the sampled steps are
numerical evidence: each instance is evaluated at 50 digits (mpmath) and then
in interval arithmetic (mpmath.iv, 50 digits, raised to 150 or 400 when needed),
which decides it rigorously for that instance; a violation that survives
interval arithmetic would refute the theorem. Residuals are propagated as
Y = 1 y^T + R (exact because softmax rows sum to one), which avoids cancellation
when res(Y) is tiny next to Y.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy
from seprank_proofs import RANK_COLLAPSE

from seprank.papers.rank_collapse.pure_attention import float_log_ratio, mp_bound_sides
from seprank.proof import Claim, check

SRC = RANK_COLLAPSE
SEED = 20210523
DPS = 50


def _sample(rng, L, n, d, dqk, x_scale, mean_scale, qk_scale):
    X = rng.normal(size=(n, d)) * x_scale + rng.normal(size=(1, d)) * mean_scale
    layers = []
    for _ in range(L):
        WQ, WK = rng.normal(size=(d, dqk)), rng.normal(size=(d, dqk))
        layers.append((WQ @ WK.T * qk_scale, rng.normal(size=(d, d))))
    return X, layers


def _decide(X, layers, dqk):
    """Ratio lhs/rhs and the interval verdict ('holds', 'violated' or 'undecided').

    Both sides are computed at 50 digits (mpmath), then enclosed in interval
    arithmetic at 50 digits, raised to 150 and 400 when the enclosures overlap
    (deep networks with tiny residuals lose digits to cancellation). The ratio
    reported is the midpoint ratio of the enclosures at the precision that decided
    (the 50-digit value when nothing decided). Returns (ratio, verdict, beta, digits).
    """
    Xl = X.tolist()
    Ls = [(a.tolist(), b.tolist()) for a, b in layers]
    with mpmath.workdps(DPS):
        lhs, rhs, beta = mp_bound_sides(mpmath.mp, Xl, Ls, dqk)
        ratio = lhs / rhs if rhs != 0 else (mpmath.inf if lhs != 0 else mpmath.mpf(0))
    old = mpmath.iv.dps
    verdict, digits = "undecided", None
    try:
        for dps in (DPS, 150, 400):
            mpmath.iv.dps = dps
            ilhs, irhs, _ = mp_bound_sides(mpmath.iv, Xl, Ls, dqk)
            if ilhs.b < irhs.a or (ilhs.b == 0 and irhs.a == 0):
                verdict = "holds"
            elif ilhs.a > irhs.b:
                verdict = "violated"
            else:
                continue
            digits = dps
            with mpmath.workdps(dps):
                mid_l, mid_r = mpmath.mpf(ilhs.mid), mpmath.mpf(irhs.mid)
                ratio = mid_l / mid_r if mid_r != 0 else ratio
            break
    finally:
        mpmath.iv.dps = old
    return ratio, verdict, beta, digits


def _instance(X, layers, dqk, ratio, beta, digits):
    return {"L": len(layers), "n": X.shape[0], "d": X.shape[1], "d_qk": dqk,
            "interval_digits": digits,
            "ratio_lhs_over_rhs": mpmath.nstr(ratio, 12), "beta": mpmath.nstr(beta, 12),
            "X": [[repr(float(v)) for v in row] for row in X],
            "W_QK": [[[repr(float(v)) for v in row] for row in a] for a, _ in layers],
            "W_V": [[[repr(float(v)) for v in row] for row in b] for _, b in layers]}


def _run_instances(s, instances, label):
    best, best_ratio = None, mpmath.mpf(-1)
    counts = {"holds": 0, "violated": 0, "undecided": 0}
    violations, undecided = [], []
    for X, layers, dqk in instances:
        ratio, verdict, beta, digits = _decide(X, layers, dqk)
        counts[verdict] += 1
        if digits is not None and digits > DPS:
            counts["needed_more_than_50_digits"] = counts.get("needed_more_than_50_digits",
                                                              0) + 1
        info = _instance(X, layers, dqk, ratio, beta, digits)
        if ratio > best_ratio:
            best_ratio, best = ratio, info
        if verdict == "violated":
            violations.append(info)
        elif verdict == "undecided":
            undecided.append(info)
    s.record(**{f"{label}_interval_verdicts": counts,
                f"{label}_largest_ratio": mpmath.nstr(best_ratio, 12),
                f"{label}_largest_ratio_instance": best})
    return violations, undecided, counts


CLAIM_R_BOUND = Claim("theorem",
                      "Theorem 2.2: if ||W_QK^l||_1 ||W_V^l||_{1,inf} <= beta for every layer,"
                      " ||res SAN(X)||_{1,inf} <= (4 beta/sqrt(d_qk))^((3^L-1)/2) ||res "
                      "X||_{1,inf}^(3^L)",
                      SRC.cite("l.76-82"),
                      main_result=True)

@check(id="R-bound", title="Theorem 2.2: ||res SAN(X)|| <= (4 beta/sqrt d_qk)^((3^L-1)/2) "
       "||res X||^(3^L), sampled", source=SRC.cite("l.76-82"),
       claim=CLAIM_R_BOUND, paper=RANK_COLLAPSE)
def r_bound(ctx):
    rng = np.random.default_rng(SEED)
    setup = {"seed": SEED, "digits": DPS, "res": "column centring (Frobenius reading)",
             "layer": "softmax(Y W_QK Y^T / sqrt d_qk) Y W_V, W_QK = W_Q W_K^T, no bias",
             "beta": "max_l ||W_QK^l||_1 sqrt(||W_V^l||_1 ||W_V^l||_inf)",
             "weights": "float64 values, exact binary rationals, listed as repr()"}

    _exponents_compose(ctx)
    _random_networks_within_the_bound(ctx, rng, setup)
    _adversarial_search_within_the_bound(ctx, rng, setup)

    # -- outcome (seprank.proof.claims) --
    ev = ctx.find_step("random softmax networks").evidence
    n = ev.get("instances", 0)
    ctx.conclude("open", "instances",
                 f"consistent on {n} sampled softmax networks decided in interval arithmetic "
                 "(each could have violated the bound) and on a heuristic adversarial search; "
                 "the notes state Theorem 2.2 without a proof (l.78-82 give the statement and "
                 "the plan to use it), so there is no argument to check, and sampling cannot "
                 "prove a universal inequality", count=n or 1, largest=ev.get("largest"),
                 binding=True)


def _exponents_compose(ctx):
    with ctx.step("the exponents compose: if one layer gives r' <= c r^3 (c = 4 beta/sqrt d_qk, "
                  "beta bounding every layer), L layers give c^((3^L-1)/2) r^(3^L); "
                  "e_1 = 1, e_L = 3 e_(L-1) + 1 = (3^L-1)/2 (exact, L <= 12; sympy in general)",
                  source=SRC.cite("l.78-80"), kind="symbolic") as s:
        e, ok = 1, True
        for L in range(2, 13):
            e = 3 * e + 1
            ok &= e == (3 ** L - 1) // 2
        Ls = sympy.Symbol("L", integer=True, positive=True)
        closed = s.could_fail(
            "closed_form",
            lambda added: sympy.simplify(3 * (3 ** (Ls - 1) - 1) / 2 + added
                                         - (3 ** Ls - 1) / 2) == 0,
            1, {"e_L = 3 e_(L-1) (the + 1 of the layer's own factor dropped)": 0})
        s.record(recursion_checked_up_to=12, closed_form_identity=closed)
        s.require(ok and closed, "exponent recursion does not give (3^L-1)/2")


def _random_networks_within_the_bound(ctx, rng, setup):
    with ctx.step("random softmax networks (L = 1..3, n = 2..5, d = 1..4, d_qk = 1..3, input, "
                  "mean and W_QK scales log-uniform over e^-3..e^3): both sides at 50 digits, "
                  "then decided per instance in interval arithmetic",
                  source=SRC.cite("l.78-80")) as s:
        count = 600 if ctx.full else 90
        instances = []
        for i in range(count):
            L = 1 + i % 3
            n, d, dqk = int(rng.integers(2, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
            scales = np.exp(rng.uniform(-3, 3, size=3))
            X, layers = _sample(rng, L, n, d, dqk, *scales)
            instances.append((X, layers, dqk))
        largest = {"L": max(len(ly) for _, ly, _ in instances),
                   "n": max(X.shape[0] for X, _, _ in instances),
                   "d": max(X.shape[1] for X, _, _ in instances),
                   "d_qk": max(q for _, _, q in instances)}
        s.set_scope("sizes", ", ".join(f"{k} <= {v}" for k, v in largest.items())
                    + f" ({count} sampled networks)")
        s.record(setup=setup, instances=count, largest=largest)
        violations, undecided, counts = _run_instances(s, instances, "random")
        if s.require(not violations, "Theorem 2.2 violated (confirmed by interval arithmetic)",
                     counterexample=violations[:1]):
            s.inconclusive(f"numerical evidence only: the bound held on all {counts['holds']} "
                           f"sampled networks decided by interval arithmetic "
                           f"({counts['undecided']} undecided); sampling cannot prove it "
                           f"for all networks", undecided=undecided[:2])


def _adversarial_search_within_the_bound(ctx, rng, setup):
    with ctx.step("adversarial search: float64 hill climbing (heuristic only) on log(lhs/rhs) "
                  "for L = 1, 2; the best candidates re-evaluated at 50 digits and decided in "
                  "interval arithmetic", source=SRC.cite("l.78-80"), scope="sizes",
                  sizes="L <= 2, n <= 4, d <= 4, d_qk <= 2 (heuristic search)") as s:
        starts, iters = (60, 400) if ctx.full else (16, 150)
        candidates = []
        for L in (1, 2):
            found = []
            for _ in range(starts):
                n, d, dqk = int(rng.integers(2, 5)), int(rng.integers(1, 5)), \
                    int(rng.integers(1, 3))
                scales = np.exp(rng.uniform(-3, 3, size=3))
                X, layers = _sample(rng, L, n, d, dqk, *scales)
                r, step = float_log_ratio(X, layers, dqk), 0.2
                for it in range(iters):
                    X2 = X + rng.normal(size=X.shape) * step * np.abs(X).max()
                    l2 = [(a + rng.normal(size=a.shape) * step * np.abs(a).max(),
                           b + rng.normal(size=b.shape) * step * np.abs(b).max())
                          for a, b in layers]
                    r2 = float_log_ratio(X2, l2, dqk)
                    if r2 > r:
                        X, layers, r = X2, l2, r2
                    elif it % 50 == 49:
                        step *= 0.6
                found.append((r, X, layers, dqk))
            found.sort(key=lambda t: -t[0])
            candidates += [(X, layers, dqk) for _r, X, layers, dqk in found[:4]]
        s.record(setup=setup, starts_per_L=starts, iterations=iters)
        violations, undecided, counts = _run_instances(s, candidates, "search")
        if s.require(not violations, "Theorem 2.2 violated (confirmed by interval arithmetic)",
                     counterexample=violations[:1]):
            s.inconclusive(f"numerical evidence only: the worst candidates of a heuristic "
                           f"search still satisfy the bound ({counts['holds']} decided by "
                           f"interval arithmetic, {counts['undecided']} undecided)",
                           undecided=undecided[:2])
