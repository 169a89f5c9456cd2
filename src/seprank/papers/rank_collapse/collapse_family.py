"""Two tokens in dimension 1: a family that decides whether pure attention must lose rank.

rank_collapse_notes.txt states the goal (l.76): ||res(SAN(X))||_{1,inf} -> 0 as the
number of layers L -> infinity. This module holds the closed form of one
single-head softmax layer (the reading of the R-bound check: Y -> softmax(Y W_QK
Y^T / sqrt(d_qk)) Y W_V, no bias) on the input X = [t, -t]^T (n = 2 tokens,
d = d_qk = 1, W_QK = w, W_V = v):

    scores = w [[t^2, -t^2], [-t^2, t^2]],  row 1 of the softmax = (e^a, e^-a)/(e^a + e^-a)
    with a = w t^2, so the layer outputs [t', -t'] with t' = v t tanh(w t^2).

The column mean stays 0, so res(X) = X and ||res X||_{1,inf} = sqrt(2 |t| * |t|) =
sqrt(2) |t|. With the same weights in every layer, t_{l+1} = g(t_l) t_l where
g(t) = v tanh(w t^2) increases in t > 0 (w, v > 0). Hence, for t_0 > 0:

* g(t_0) < 1: t_l decreases, g(t_l) <= g(t_0), t_l <= g(t_0)^l t_0 -> 0 (collapse);
* g(t_0) = 1: t_l = t_0 for every l (the residual stays constant);
* g(t_0) > 1: t_l increases, t_l >= g(t_0)^l t_0 -> infinity (the residual grows).

Interval arithmetic (mpmath.iv) decides the sign of g(t_0) - 1 rigorously.
Why: the goal is stated for every network and input, so one family where the residual
grows decides it (the check R-collapse); the same family shows the smallness condition
under which it does collapse.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import mpmath

__all__ = ["iv_digits", "layer_closed_form", "collapse_regime", "orbit_enclosures"]


@contextmanager
def iv_digits(dps: int) -> Iterator[None]:
    """Run a block with mpmath.iv at ``dps`` decimal digits (restored afterwards).

    Examples
    --------
    >>> old = mpmath.iv.dps
    >>> with iv_digits(60):
    ...     mpmath.iv.dps
    60
    >>> mpmath.iv.dps == old
    True
    """
    old = mpmath.iv.dps
    mpmath.iv.dps = dps
    try:
        yield
    finally:
        mpmath.iv.dps = old


def _iv(x: object) -> mpmath.ctx_iv.ivmpf:
    if isinstance(x, Fraction):
        return mpmath.iv.mpf(x.numerator) / x.denominator
    return mpmath.iv.mpf(x)


def _tanh(a):
    """tanh(a) = 1 - 2/(e^{2a} + 1): a occurs once, so the enclosure is tight."""
    return 1 - 2 / (mpmath.iv.exp(2 * a) + 1)


def layer_closed_form(t: object, v: object, w: object) -> mpmath.ctx_iv.ivmpf:
    """An enclosure of t' = v t tanh(w t^2), one layer on X = [t, -t]^T (module docstring).

    Examples
    --------
    >>> x = layer_closed_form(1, 2, 1)   # 2 tanh(1) = 1.5231...
    >>> bool(x.a > 1.523 and x.b < 1.524)
    True
    """
    tt, vv, ww = _iv(t), _iv(v), _iv(w)
    return vv * tt * _tanh(ww * tt * tt)


def collapse_regime(t0: object, v: object, w: object, dps: int = 30) -> dict:
    """Decide, for X = [t0, -t0]^T and W_QK = w, W_V = v > 0 in every layer, whether
    ||res SAN(X)||_{1,inf} tends to 0, stays constant or grows without bound as L grows.

    Decided by the sign of g(t0) - 1 with g = v tanh(w t0^2), enclosed in interval
    arithmetic (``regime`` is ``"undecided"`` when the enclosure contains 1).

    Examples
    --------
    >>> collapse_regime(1, 2, 1)["regime"]             # g = 2 tanh 1 > 1
    'grows without bound'
    >>> collapse_regime(1, Fraction(1, 2), 1)["regime"]
    'tends to 0'
    """
    if not (Fraction(v) > 0 and Fraction(w) > 0 and Fraction(t0) > 0):
        raise ValueError("the family takes t0, v, w > 0")
    with iv_digits(dps):
        g = _iv(v) * _tanh(_iv(w) * _iv(t0) ** 2)
        lo, hi = g.a, g.b
        if hi < 1:
            regime = "tends to 0"
        elif lo > 1:
            regime = "grows without bound"
        else:
            regime = "undecided"
        return {"t0": t0, "v": v, "w": w, "g_enclosure": [str(lo), str(hi)],
                "regime": regime}


def orbit_enclosures(t0: object, v: object, w: object, L: int, dps: int = 40) -> list:
    """Enclosures of ||res SAN_l(X)||_{1,inf} = sqrt(2) t_l for l = 0..L (closed form).

    Examples
    --------
    >>> enc = orbit_enclosures(1, 2, 1, 3)
    >>> bool(enc[3].a > enc[2].b > enc[1].b > enc[0].b)   # grows
    True
    """
    with iv_digits(dps):
        t = _iv(t0)
        out = [mpmath.iv.sqrt(2) * t]
        for _ in range(L):
            t = layer_closed_form(t, v, w)
            out.append(mpmath.iv.sqrt(2) * t)
        return out
