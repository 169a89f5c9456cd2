"""Spherical harmonics as kernels of the Laplacian, with exact integer matrices.

Homogeneous polynomials of degree ``l`` in ``d`` variables are written on the
monomial basis, ordered as :func:`seprank.combinatorics.compositions`. The
Laplacian maps degree ``l`` to degree ``l - 2``; the degree-``l`` harmonic
polynomials are its kernel, and (restricted to the unit sphere) they are the
degree-``l`` spherical harmonics, of dimension ``N(d, l)``.

Source: amsel_benefits_of_rank_talk.txt, "Spherical Harmonics" (l.648-674, N(d, l) at
l.670) and "Expansion of the head functions" (l.691-700, the bound M(d, l) <= C(r+l, l)
at l.695). Why: the lower bound's sketch (Theorem 2, l.702-708) compares N(d, l) with
H M(d, l); the checks A-harm and A-M compute both as exact ranks.

For the projection question (a function that depends on ``x`` only through its
first ``r`` coordinates ``x'``), :func:`touched_harmonic_dimension` computes the
dimension of the span of the degree-``l`` harmonic components of the
polynomials in ``x'`` of degree ``l, l + 2, ..., l + 2K``. It uses the
Fischer decomposition ``P_j = H_j + |x|^2 P_{j-2}``: on the sphere a
homogeneous ``p`` of degree ``j = l + 2k`` equals ``sum_m h_{j-2m}``, and
``Laplacian^k p`` lies in ``P_l`` with the same ``H_l`` component up to a
nonzero constant, read off modulo ``|x|^2 P_{l-2}``.
"""

from __future__ import annotations

from math import comb

import flint

from seprank.combinatorics import compositions

__all__ = [
    "monomials",
    "laplacian_matrix",
    "times_norm_squared_matrix",
    "harmonic_dimension_closed_form",
    "harmonic_dimension_exact",
    "laplacian_power_on_subspace",
    "touched_harmonic_dimension",
    "fischer_adjointness",
    "harmonic_dimension_symbolic",
]

Exps = tuple[int, ...]


def monomials(d: int, l: int) -> list[Exps]:
    """Exponent vectors of the degree-``l`` monomials in ``d`` variables ([] if l < 0).

    Examples
    --------
    >>> monomials(2, 2)   # x^2, x y, y^2
    [(2, 0), (1, 1), (0, 2)]
    >>> monomials(2, -1)
    []
    """
    if l < 0:
        return []
    return compositions(l, d)


def _index(d: int, l: int) -> dict[Exps, int]:
    return {e: i for i, e in enumerate(monomials(d, l))}


def _laplacian_poly(p: dict[Exps, int]) -> dict[Exps, int]:
    out: dict[Exps, int] = {}
    for e, c in p.items():
        for i, a in enumerate(e):
            if a >= 2:
                f = e[:i] + (a - 2,) + e[i + 1:]
                out[f] = out.get(f, 0) + c * a * (a - 1)
    return {e: c for e, c in out.items() if c}


def laplacian_matrix(d: int, l: int) -> flint.fmpz_mat:
    """The Laplacian from degree ``l`` to degree ``l - 2`` (rows: degree l-2, cols: l).

    Examples
    --------
    >>> laplacian_matrix(2, 2).tolist()   # Laplacian of x^2, x y, y^2 is 2, 0, 2
    [[2, 0, 2]]
    """
    rows, cols = monomials(d, l - 2), monomials(d, l)
    idx = _index(d, l - 2)
    M = flint.fmpz_mat(len(rows), len(cols))
    for j, e in enumerate(cols):
        for f, c in _laplacian_poly({e: 1}).items():
            M[idx[f], j] = c
    return M


def times_norm_squared_matrix(d: int, l: int) -> flint.fmpz_mat:
    """Multiplication by ``|x|^2`` from degree ``l - 2`` to degree ``l`` (rows: l).

    Examples
    --------
    >>> times_norm_squared_matrix(2, 2).tolist()   # 1 * (x^2 + y^2)
    [[1], [0], [1]]
    """
    rows, cols = monomials(d, l), monomials(d, l - 2)
    idx = _index(d, l)
    M = flint.fmpz_mat(len(rows), len(cols))
    for j, e in enumerate(cols):
        for i in range(d):
            f = e[:i] + (e[i] + 2,) + e[i + 1:]
            M[idx[f], j] += 1
    return M


def harmonic_dimension_closed_form(d: int, l: int) -> int:
    """The classical count ``C(d+l-1, l) - C(d+l-3, l-2)`` (second term 0 for l < 2).

    Examples
    --------
    >>> [harmonic_dimension_closed_form(3, l) for l in range(4)]   # 2 l + 1 on the 2-sphere
    [1, 3, 5, 7]
    """
    second = comb(d + l - 3, l - 2) if l >= 2 else 0
    return comb(d + l - 1, l) - second


def harmonic_dimension_exact(d: int, l: int) -> dict[str, int]:
    """Dimension of the kernel of the Laplacian on degree ``l``, by an exact rank.

    Examples
    --------
    >>> harmonic_dimension_exact(3, 2)["kernel_dim"] == harmonic_dimension_closed_form(3, 2)
    True
    """
    n_l = comb(d + l - 1, l)
    n_lm2 = comb(d + l - 3, l - 2) if l >= 2 else 0
    if l < 2:
        rk = 0
    else:
        rk = laplacian_matrix(d, l).rank()
    return {"d": d, "l": l, "dim_P_l": n_l, "dim_P_l_minus_2": n_lm2,
            "rank_laplacian": rk, "kernel_dim": n_l - rk}


def _restricted_monomials(d: int, r: int, j: int) -> list[Exps]:
    """Degree-``j`` monomials in ``d`` variables that use only the first ``r`` of them."""
    return [e + (0,) * (d - r) for e in compositions(j, r)] if j >= 0 else []


def laplacian_power_on_subspace(d: int, r: int, j: int, k: int) -> list[list[int]]:
    """Rows: ``Laplacian^k`` of each degree-``j`` monomial in ``x_1..x_r`` (as degree j-2k
    vectors in ``d`` variables).

    Examples
    --------
    >>> laplacian_power_on_subspace(2, 1, 2, 1)   # Laplacian of x_1^2 is the constant 2
    [[2]]
    """
    target = _index(d, j - 2 * k)
    out = []
    for e in _restricted_monomials(d, r, j):
        p = {e: 1}
        for _ in range(k):
            p = _laplacian_poly(p)
        row = [0] * len(target)
        for f, c in p.items():
            row[target[f]] = c
        out.append(row)
    return out


def touched_harmonic_dimension(d: int, r: int, l: int, extra: int = 0) -> dict[str, int]:
    """Dimension of the span of the ``H_l`` components (on the sphere) of polynomials in
    ``x_1..x_r`` of degrees ``l, l+2, ..., l+2*extra``, by exact ranks.

    The span is ``(W + |x|^2 P_{l-2}) / |x|^2 P_{l-2}`` with ``W`` spanned by the
    ``Laplacian^k`` images; its dimension is ``rank[W; |x|^2 P_{l-2}] - dim P_{l-2}``
    (multiplication by ``|x|^2`` is injective).

    Examples
    --------
    >>> touched_harmonic_dimension(2, 1, 2)["touched_dim"]   # x_1^2 reaches only x_1^2 - x_2^2
    1
    >>> touched_harmonic_dimension(3, 3, 2)["touched_dim"]   # r = d: all of H_2, dimension 5
    5
    """
    rows: list[list[int]] = []
    for k in range(extra + 1):
        rows.extend(laplacian_power_on_subspace(d, r, l + 2 * k, k))
    n_l = comb(d + l - 1, l)
    base = 0
    if l >= 2:
        T = times_norm_squared_matrix(d, l)
        base = T.ncols()
        for j in range(T.ncols()):
            rows.append([int(T[i, j]) for i in range(T.nrows())])
    if not rows:
        return {"d": d, "r": r, "l": l, "extra": extra, "touched_dim": 0}
    M = flint.fmpz_mat(len(rows), n_l, [c for row in rows for c in row])
    return {"d": d, "r": r, "l": l, "extra": extra, "stacked_rank": M.rank(),
            "dim_x2_P_lm2": base, "touched_dim": M.rank() - base}


def fischer_adjointness() -> dict:
    """Multiplication by x_i and d/dx_i are adjoint for the Fischer product (symbolic exponents).

    The Fischer product <x^a, x^b> = a! [a = b] (a! = prod_j a_j!) is positive definite on
    real polynomials (<p, p> = sum_a a! c_a^2). <x_i x^a, x^b> is (a + e_i)! when b = a + e_i
    and 0 otherwise; <x^a, d_i x^b> = b_i <x^a, x^(b - e_i)> is b_i a! under the same
    condition; with b_i = a_i + 1 both are (a_i + 1)! prod_{j != i} a_j! (sympy, symbolic
    a_i). Composing and summing over i, multiplication by |x|^2 = sum_i x_i^2 is adjoint to
    the Laplacian sum_i d_i^2, for every d and degree. Multiplication by |x|^2 is injective
    (polynomials form an integral domain: in lex order the leading monomial of |x|^2 p is
    x_1^2 times that of p), so its adjoint, the Laplacian P_l -> P_(l-2), is onto.

    Examples
    --------
    >>> fischer_adjointness()["holds"]
    True
    """
    import sympy as sp

    a, rest = sp.symbols("a_i rest", integer=True, nonnegative=True)
    left = sp.factorial(a + 1) * sp.Symbol("others")            # <x_i x^a, x^(a + e_i)>
    right = (a + 1) * sp.factorial(a) * sp.Symbol("others")     # b_i <x^a, x^a>, b_i = a_i + 1
    return {"holds": bool(sp.simplify(left - right) == 0),
            "identity": "(a_i + 1)! = (a_i + 1) a_i!  (others = prod_{j != i} a_j!)",
            "consequence": "Laplacian = adjoint of multiplication by |x|^2, which is injective",
            "sizes": "symbolic exponents; any d, l"}


def harmonic_dimension_symbolic() -> dict:
    """dim P_l = C(d+l-1, l) and N(d, l) = C(d+l-1, l) - C(d+l-3, l-2), symbolic d, l.

    Degree-l monomials in d variables split by the last exponent (0, or >= 1 and lowered by
    one): #(l, d) = #(l, d-1) + #(l-1, d), with #(0, d) = 1 and #(l, 1) = 1; C(d+l-1, l)
    obeys the same recurrence (Pascal's rule, sympy) and the same start, so they agree. With
    the Laplacian onto (:func:`fischer_adjointness`) the kernel has dimension
    C(d+l-1, l) - C(d+l-3, l-2); sympy checks it equals (2l+d-2)/(l+d-2) C(l+d-2, l) and
    gives 1, 3, 5 at d = 3, l = 0, 1, 2. Restricted to the sphere nothing is lost: a
    homogeneous p of degree l with p = 0 on the sphere has p(x) = |x|^l p(x/|x|) = 0.

    Examples
    --------
    >>> ev = harmonic_dimension_symbolic()
    >>> ev["holds"], ev["d=3"]
    (True, [1, 3, 5])
    """
    import sympy as sp

    d, l = sp.symbols("d l", integer=True, positive=True)
    pascal = sp.binomial(d + l - 1, l) - sp.binomial(d + l - 2, l) \
        - sp.binomial(d + l - 2, l - 1)
    N = sp.binomial(d + l - 1, l) - sp.binomial(d + l - 3, l - 2)
    alt = (2 * l + d - 2) / (l + d - 2) * sp.binomial(l + d - 2, l)
    starts = sp.binomial(d - 1, 0) == 1 and sp.binomial(l, l) == 1
    at3 = [int(N.subs({d: 3, l: k})) if k else 1 for k in range(3)]
    ok = (sp.simplify(sp.combsimp(pascal)) == 0 and sp.simplify(sp.combsimp(N - alt)) == 0
          and starts and at3 == [1, 3, 5])
    return {"holds": bool(ok), "N(d, l)": str(N), "other_form": str(alt), "d=3": at3,
            "sizes": "symbolic d, l"}
