"""Bound checks at binding sizes: the instances the proof checks L-Thm3..L-Thm6 run.

Source: ``levine2020_depth_to_width_self_attention.txt``, the upper bounds of
Theorems 3-6 (A.2 eq. (18) l.380-423, A.3 eq. (19) l.424-477, A.4 l.500-536). Why:
an exact rank below a bound says nothing when the instance was too small to exceed
it; these are the smallest instances that could.

An instance *binds* a bound when its size cap (:func:`seprank.separation.grid.route.size_cap`,
a certified upper bound on the separation rank from the monomial counts alone) is at least
the bound: smaller sizes keep every rank below the bound whatever the weights, so they
cannot test it. :func:`binding_instances` takes, for each shape and weight family, the
smallest even N that binds (:func:`seprank.separation.bounds.binding_seq_len`), computes
the exact separation rank there (coefficient route) and returns evidence rows
(:func:`seprank.separation.bounds.binding_evidence`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from seprank.separation import separation_rank
from seprank.separation.bounds import binding_evidence, binding_seq_len
from seprank.separation.structured import structured_weights

__all__ = ["binding_instances"]


def binding_instances(shapes: Sequence[tuple[int, int, int]], families: Sequence[str],
                      seeds: Sequence[int], bound_of: Callable[..., object], name: str, *,
                      residual: bool = False, N_max: int = 64,
                      depends_on_N: bool = False) -> dict:
    """Exact separation ranks at binding sizes, one row per (shape, family, seed).

    ``shapes``: (L, d_x, H); ``bound_of(L, d_x, H, d_a)`` (or
    ``bound_of(L, d_x, H, d_a, N)`` with ``depends_on_N``) gives the bound.
    Returns {"rows", "not_binding" (shapes with no binding N <= N_max, and why),
    "violations" (rows whose exact rank exceeds the bound), "largest_ratio"}.

    >>> from seprank.papers.levine2020.bounds import thm3_bound
    >>> out = binding_instances([(1, 2, 1)], ["identity"], [0],
    ...                         lambda L, d_x, H, d_a: thm3_bound(L, H, d_a), "thm3")
    >>> row = out["rows"][0]
    >>> row["N"], row["rank"], row["thm3"], row["binding"]   # identity weights attain it
    (2, 3, '3', True)
    """
    rows, not_binding, violations = [], [], []
    for L, d_x, H in shapes:
        for family in families:
            for seed in (seeds if family in ("random", "repeated", "onedim", "permutation")
                         else seeds[:1]):
                W = structured_weights(family, L, d_x, H, seed=seed)
                d_a = W["Q"].shape[2]
                if depends_on_N:
                    N = binding_seq_len(L, d_x, None, residual=residual, N_max=N_max,
                                        bound_of_N=lambda n, a=(L, d_x, H, d_a): bound_of(*a, n))
                else:
                    N = binding_seq_len(L, d_x, bound_of(L, d_x, H, d_a), residual=residual,
                                        N_max=N_max)
                if N is None:
                    if any((x["L"], x["d_x"], x["H"], x["d_a"]) == (L, d_x, H, d_a)
                           for x in not_binding):
                        continue
                    not_binding.append({"L": L, "d_x": d_x, "H": H, "d_a": d_a,
                                        "why": f"no even N <= {N_max} has a size cap at least "
                                               "the bound"})
                    continue
                bound = bound_of(L, d_x, H, d_a, N) if depends_on_N else bound_of(L, d_x, H,
                                                                                    d_a)
                res = separation_rank(weights=W, N=N, residual=residual, route="coefficient")
                row = binding_evidence(res, bound, name, family=family, seed=seed)
                rows.append(row)
                if row["violates"]:
                    violations.append(dict(row, weights=res.weights))
    worst = max(rows, key=lambda r: float(r["ratio"].split("~")[1]), default=None)
    return {"rows": rows, "not_binding": not_binding, "violations": violations,
            "largest_ratio": worst}
