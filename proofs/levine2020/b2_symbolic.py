"""Theorem 1's lower bound against B.2's rank for every size (sympy), for L-Thm1.

Not a check: :func:`b2_every_size_step` adds one step to L-Thm1 (``l_thm1_thm2.py``).
Source: levine2020_depth_to_width_self_attention.txt, Theorem 1 eq. (7) l.130 and B.2
l.666-690: where B.2's construction applies (L >= 2, d = (d_x - H)/2 a positive integer,
d_a odd >= 3) its certified rank ((d, 3^(L-2))) is at least 3^(the lower bound of eq. (7)).
"""

from __future__ import annotations

import sympy

__all__ = ["b2_lower_bound_facts", "b2_every_size_step"]


def b2_lower_bound_facts() -> dict:
    """Theorem 1's lower bound against B.2's rank, for symbolic L, d_x, H (sympy).

    3^(lower) = (d/lambda)^lambda with d = (d_x - H)/2, lambda = 3^(L-2) (logs expanded);
    ((d, lambda)) = C(d + lambda - 1, lambda) >= ((d + lambda - 1)/lambda)^lambda (each
    factor (n - i)/(k - i) of C(n, k) is >= n/k: (n - i) k - n (k - i) = i (n - k) >= 0) >=
    (d/lambda)^lambda.

    Examples
    --------
    >>> f = b2_lower_bound_facts()
    >>> f["three_to_the_lower_is_(d/lambda)^lambda"], f["factor_gap_is_i_(n-k)"]
    (True, True)
    """
    L, dx, H = sympy.symbols("L d_x H", positive=True)
    n, k, i = sympy.symbols("n k i", positive=True)
    lam = 3 ** (L - 2)
    log3 = lambda z: sympy.log(z) / sympy.log(3)  # noqa: E731
    lower = lam * (log3(dx - H) - L + 2 - log3(2))
    target = lam * log3(((dx - H) / 2) / lam)
    same = sympy.simplify(sympy.expand_log(lower - target, force=True)) == 0
    gap = sympy.expand((n - i) * k - n * (k - i))
    return {"three_to_the_lower_is_(d/lambda)^lambda": same, "factor_gap": str(gap),
            "factor_gap_is_i_(n-k)": sympy.expand(gap - i * (n - k)) == 0,
            "d + lambda - 1 >= d": "lambda >= 1"}


def b2_every_size_step(ctx, source: str) -> None:
    """Step: where B.2 applies, its rank reaches Theorem 1's lower bound, for every size."""
    with ctx.step("B.2 reaches Theorem 1's lower bound at every point where it applies, for "
                  "every size: 3^{lower} = (d/lambda)^lambda, d = (d_x - H)/2, lambda = 3^(L-2) "
                  "(logs expanded, symbolic L, d_x, H), and ((d, lambda)) = C(d + lambda - 1, "
                  "lambda) >= ((d + lambda - 1)/lambda)^lambda >= (d/lambda)^lambda (C(n, k) "
                  ">= (n/k)^k: (n - i) k - n (k - i) = i (n - k) >= 0, sympy); with Lemma 6 "
                  "and L-Omega (the rank) and Claims 1-2 (for almost every weight)",
                  source, kind="prose") as s:
        found = b2_lower_bound_facts()
        s.record(**found)
        s.require(found["three_to_the_lower_is_(d/lambda)^lambda"]
                  and found["factor_gap_is_i_(n-k)"], "a symbolic fact fails", found=found)
