"""KroneckerDelta sums over symbolic ranges, for identities that must hold for every size.

A one-hot read e_u^T y is sum_{t=1}^{n} [t = u] y_t; sympy evaluates such a sum to
Piecewise((y_u, 1 <= u <= n), (0, True)). :func:`delta_sum` takes the first branch for the
indices the caller states to lie in [1, n] (a one-hot row of width n, a token of [V], ...).
Used by the checks whose index maps are identities in symbolic sizes (wies2021 Lemmas 5-7
in :mod:`seprank.papers.wies2021.index_identities`; amsel's hardmax head, check A-nn).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["delta_sum"]


def _in_range(expr: sp.Expr, indices: list, size: sp.Expr) -> sp.Expr:
    """Piecewise((f, cond), (0, True)) -> f where cond only says 1 <= u <= size, u in indices."""
    allowed = set()
    for u in indices:
        allowed |= {sp.Le(u, size), sp.Ge(size, u), sp.Ge(u, 1), sp.Le(1, u)}

    def first_branch(pw):
        (value, cond), *_ = pw.args
        parts = cond.args if isinstance(cond, sp.And) else (cond,)
        return value if all(p in allowed or p is sp.true for p in parts) else pw

    return expr.replace(lambda e: isinstance(e, sp.Piecewise), first_branch)


def delta_sum(expr: sp.Expr, index: sp.Symbol, size: sp.Expr, in_range: list) -> sp.Expr:
    """sum_{index = 1}^{size} expr, evaluated by sympy, for ``in_range`` indices in [1, size].

    ``expr`` contains KroneckerDelta(u, index) for some u of ``in_range``; the sum picks the
    term index = u, valid because u lies in [1, size] (the hypothesis the caller states).

    Examples
    --------
    >>> t, a, s = sp.symbols("t a s", integer=True, positive=True)
    >>> y = sp.IndexedBase("y")
    >>> delta_sum(sp.KroneckerDelta(a, t) * y[t], t, s, [a])
    y[a]
    """
    return _in_range(sp.Sum(expr, (index, 1, size)).doit(), in_range, size)
