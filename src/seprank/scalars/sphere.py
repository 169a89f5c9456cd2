"""Rational points on the unit sphere, by inverse stereographic projection.

levine2020's lower-bound construction (B.2-B.3, l.666-815) uses template
vectors and matrix rows that are *l2-normalized*; with irrational norms an
exact computation would need square roots. Rational points of the unit sphere
S^{d-1} avoid them: for t in Q^{d-1} the inverse stereographic projection from
the north pole e_d = (0, ..., 0, 1),

    sigma^{-1}(t) = (2 t_1, ..., 2 t_{d-1}, |t|^2 - 1) / (|t|^2 + 1),

is a point of S^{d-1} with rational coordinates, since
|2t|^2 + (|t|^2 - 1)^2 = (|t|^2 + 1)^2. The map is a bijection from Q^{d-1}
onto the rational points of S^{d-1} other than e_d; its inverse is the
stereographic projection t_k = x_k / (1 - x_d). So distinct t give distinct
points, and every point returned here satisfies |x|^2 = 1 *exactly*
(:func:`on_unit_sphere` checks it in rational arithmetic).

Examples
--------
>>> x = inverse_stereographic([1, 2])        # |t|^2 = 5
>>> [str(c) for c in x]
['1/3', '2/3', '2/3']
>>> on_unit_sphere(x), stereographic(x) == (1, 2)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

import numpy as np

from seprank.errors import ParameterError
from seprank.scalars.gaussian import as_fraction

__all__ = [
    "inverse_stereographic",
    "stereographic",
    "on_unit_sphere",
    "sphere_points",
    "all_sphere_points",
]


def inverse_stereographic(t: Sequence[object]) -> tuple[Fraction, ...]:
    """The rational point of S^{d-1} (d = len(t) + 1) whose projection is ``t``.

    Parameters
    ----------
    t : sequence of ints or Fractions, length d - 1 >= 0.

    Returns
    -------
    tuple of d Fractions x with x_1^2 + ... + x_d^2 = 1 exactly; never the
    north pole (0, ..., 0, 1).

    Examples
    --------
    t = 3 on the circle (d = 2): (2 * 3, 9 - 1) / (9 + 1) = (3/5, 4/5):

    >>> inverse_stereographic([3])
    (Fraction(3, 5), Fraction(4, 5))
    >>> inverse_stereographic([])                 # S^0: only the south pole
    (Fraction(-1, 1),)
    """
    tt = [as_fraction(v, f"t[{k}]") for k, v in enumerate(t)]
    s = sum((v * v for v in tt), Fraction(0))
    den = s + 1
    return tuple(2 * v / den for v in tt) + ((s - 1) / den,)


def stereographic(x: Sequence[object]) -> tuple[Fraction, ...]:
    """Projection from the north pole: t_k = x_k / (1 - x_d), the inverse of the above.

    Raises
    ------
    ParameterError
        ``x`` is not exactly on the unit sphere, or is the north pole (x_d = 1).

    Examples
    --------
    (3/5, 4/5): t = (3/5) / (1 - 4/5) = 3:

    >>> stereographic([Fraction(3, 5), Fraction(4, 5)])
    (Fraction(3, 1),)
    >>> stereographic([0, 1])
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: x is the north pole (x_d = 1), which has no ...
    """
    xs = [as_fraction(v, f"x[{k}]") for k, v in enumerate(x)]
    if not xs or not on_unit_sphere(xs):
        raise ParameterError("x must be a point of the unit sphere (|x|^2 = 1 exactly)")
    if xs[-1] == 1:
        raise ParameterError("x is the north pole (x_d = 1), which has no stereographic image")
    return tuple(v / (1 - xs[-1]) for v in xs[:-1])


def on_unit_sphere(x: Sequence[object]) -> bool:
    """True iff sum of x_k^2 equals 1 in exact rational arithmetic (floats refused).

    Examples
    --------
    >>> on_unit_sphere([Fraction(3, 5), Fraction(4, 5)]), on_unit_sphere([1, 1])
    (True, False)
    """
    return sum((as_fraction(v, f"x[{k}]") ** 2 for k, v in enumerate(x)), Fraction(0)) == 1


def sphere_points(n: int, d: int, *, seed: int = 0, height: int = 2) -> np.ndarray:
    """``n`` distinct rational points of S^{d-1}, drawn reproducibly.

    The points are the images of ``n`` distinct integer vectors t in
    [-h, h]^{d-1}, drawn without replacement by ``numpy.random.default_rng(seed)``,
    where h = ``height`` or the least larger height that has n vectors to offer.
    Small heights keep denominators small: each coordinate of a point has
    denominator dividing |t|^2 + 1.

    Parameters
    ----------
    n : number of points (>= 0).
    d : ambient dimension (>= 2; S^0 = {-1, +1} is not served).
    seed : seed of the generator.
    height : largest |t_k| wanted (>= 0).

    Returns
    -------
    numpy object array of shape (n, d) holding Fractions; each row has norm 1
    exactly; rows are pairwise distinct.

    >>> P = sphere_points(4, 3, seed=1)
    >>> P.shape, all(on_unit_sphere(row) for row in P), len({tuple(r) for r in P})
    ((4, 3), True, 4)
    """
    for name, value, low in (("n", n, 0), ("d", d, 2), ("height", height, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ParameterError(f"{name} must be an integer, got {value!r}")
        if value < low:
            rule = "S^0 = {-1, +1} has only two points" if name == "d" else "it counts"
            raise ParameterError(f"{name} must be >= {low} ({rule}), got {value}")
    n, d, h = int(n), int(d), int(height)
    while (2 * h + 1) ** (d - 1) < n:
        h += 1
    side = 2 * h + 1
    rng = np.random.default_rng(seed)
    total = side ** (d - 1)
    if total <= 1 << 20:
        picks = rng.choice(total, size=n, replace=False)
        ts = [_digits(int(k), side, d - 1, h) for k in picks]
    else:  # too many to enumerate: draw with rejection; the set keeps them distinct
        seen: set[tuple[int, ...]] = set()
        ts = []
        while len(ts) < n:
            t = tuple(int(v) for v in rng.integers(-h, h + 1, size=d - 1))
            if t not in seen:
                seen.add(t)
                ts.append(t)
    out = np.empty((n, d), dtype=object)
    for r, t in enumerate(ts):
        out[r, :] = inverse_stereographic(t)
    return out


def _digits(k: int, side: int, length: int, h: int) -> tuple[int, ...]:
    """The k-th integer vector of [-h, h]^length in mixed-radix order."""
    out = []
    for _ in range(length):
        k, r = divmod(k, side)
        out.append(r - h)
    return tuple(reversed(out))


def all_sphere_points(d: int, height: int) -> list[tuple[Fraction, ...]]:
    """Every image of an integer t in [-height, height]^{d-1} (for exhaustive tests).

    Examples
    --------
    On the circle with t in {-1, 0, 1}: (-1, 0), (0, -1) and (1, 0):

    >>> [tuple(map(int, x)) for x in all_sphere_points(2, 1)]
    [(-1, 0), (0, -1), (1, 0)]
    """
    return [inverse_stereographic(t) for t in product(range(-height, height + 1), repeat=d - 1)]
