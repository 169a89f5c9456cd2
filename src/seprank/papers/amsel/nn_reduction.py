"""Exact pieces of the talk's lower-bound argument (amsel_benefits_of_rank_talk.txt).

Why: Theorem 2 (l.722-736) is proved only as a sketch (l.519-708); the check A-Thm2 tests
the sketch's reduction and its "Combining" display with these functions.

* :func:`orthonormal_pair`: two orthonormal rational vectors (columns of a Cayley
  transform (I - S)(I + S)^{-1} of a rational skew matrix S, which is orthogonal), for
  the distribution D_2 of the talk (x_1 orthogonal to x_2).
* :func:`nn_split`: for orthonormal x_1, x_2 the nearest neighbour of y among them is
  (x_1 + x_2)/2 + sgn(y^T (x_1 - x_2)) (x_1 - x_2)/2, and its component along
  u = x_1 - x_2 (|u|^2 = 2) is sgn(y^T u) |u|^2 / 2: the reduction of l.567-569 to
  sgn(x^T y) with the factor 1/2.
* :func:`frobenius_gap`: ||beta I_n - A||_F^2, the quantity of the "Combining" display
  (l.702-708) once the heads' coefficients form a matrix A of rank <= H M(d, l); it is
  >= beta^2 (n - rank A) (restrict to the kernel of A).
"""

from __future__ import annotations

import random
from fractions import Fraction

import sympy

from seprank.papers.amsel.nearest_neighbor import dot, nearest_indices

__all__ = ["orthonormal_pair", "nn_split", "frobenius_gap"]


def orthonormal_pair(rng: random.Random, d: int, bound: int = 5) -> tuple[list, list]:
    """Two orthonormal rational vectors in Q^d (d >= 2), from a random Cayley transform.

    Examples
    --------
    >>> a, b = orthonormal_pair(random.Random(1), 4)
    >>> dot(a, a), dot(b, b), dot(a, b)
    (Fraction(1, 1), Fraction(1, 1), Fraction(0, 1))
    """
    S = sympy.zeros(d, d)
    for i in range(d):
        for j in range(i + 1, d):
            v = sympy.Rational(rng.randint(-bound, bound), rng.randint(1, bound))
            S[i, j], S[j, i] = v, -v
    Q = (sympy.eye(d) - S) * (sympy.eye(d) + S).inv()
    cols = [[Fraction(int(sympy.fraction(Q[i, j])[0]), int(sympy.fraction(Q[i, j])[1]))
             for i in range(d)] for j in range(2)]
    return cols[0], cols[1]


def nn_split(x1: list, x2: list, y: list) -> dict:
    """Nearest neighbour of ``y`` among orthonormal x1, x2 against the split formula.

    Returns the nearest point, the formula's value, and the component of the nearest
    point along u = x1 - x2 times |u| (so that it is rational: sgn(y^T u) |u|^2 / 2).

    Examples
    --------
    >>> out = nn_split([1, 0], [0, 1], [Fraction(3, 5), Fraction(4, 5)])
    >>> out["nearest"] == [0, 1], out["formula_agrees"], out["u_component_times_norm"]
    (True, True, Fraction(-1, 1))
    """
    near = nearest_indices([x1, x2], y)
    if len(near) != 1:
        raise ValueError("y is equidistant from x1 and x2")
    f = [Fraction(v) for v in (x1 if near[0] == 0 else x2)]
    u = [Fraction(a) - Fraction(b) for a, b in zip(x1, x2, strict=True)]
    sg = 1 if dot(y, u) > 0 else -1
    formula = [(Fraction(a) + Fraction(b)) / 2 + sg * c / 2
               for a, b, c in zip(x1, x2, u, strict=True)]
    return {"nearest": f, "formula_agrees": formula == f,
            "u_component_times_norm": dot(u, f), "sign": sg, "u_norm_sq": dot(u, u)}


def frobenius_gap(A: list, beta: Fraction = Fraction(1)) -> Fraction:
    """||beta I - A||_F^2 for a square exact matrix A.

    Examples
    --------
    >>> frobenius_gap([[1, 0], [0, 0]])   # the best rank-1 approximation of I_2
    Fraction(1, 1)
    """
    n = len(A)
    return sum(((beta if i == j else 0) - Fraction(A[i][j])) ** 2
               for i in range(n) for j in range(n))
