"""det A(Omega) as an exact integer polynomial (levine2020 B.2, l.666-718; Lemmas 7-8).

Source: ``levine2020_depth_to_width_self_attention.txt``, B.2 (l.714-718) and B.3
(Lemmas 7-8, l.817-852). Why: B.2's lower bound needs det A(Omega) != 0; with the
whole polynomial in hand the checks L-Omega and L-Lemma7 read off its degree, its
leading coefficient and its finitely many bad Omega exactly.

The matrix. Index rows and columns by the compositions q_1, ..., q_n of lambda
into d non-negative parts (n = ((d, lambda)), in the order of
:func:`seprank.combinatorics.compositions`) and set

    A(Omega)[alpha, beta] = Omega^<q_alpha, q_beta>

(levine2020 l.714: the columns are the vectors a-hat^(k) with
a-hat_alpha^(k) = Omega^{sum_r q_r^alpha k_r}, k running over the same
compositions). By the Leibniz formula

    det A(Omega) = sum_sigma sgn(sigma) Omega^{e(sigma)},
    e(sigma) = sum_alpha <q_alpha, q_sigma(alpha)>                  (l.716)

so det A is a polynomial in Omega with integer coefficients whose coefficient
of Omega^j is the signed number of permutations with e(sigma) = j. Lemma 8
(l.825-852) makes the identity the unique permutation with the largest exponent
D = sum_alpha |q_alpha|^2, so the polynomial has degree exactly D and leading
coefficient sgn(id) = +1 (rows and columns share one order); Lemma 7
(l.817-824) then says det A(Omega) != 0 except at its finitely many roots.

How the polynomial is computed (exactly). Kronecker substitution: every
coefficient c_j satisfies sum_j |c_j| <= n! (each permutation contributes one
monomial with coefficient +-1), so with B = 2^k > 2 n! the single integer
det A(B) determines all c_j as its balanced base-B digits. One exact
determinant of an integer matrix (python-flint ``fmpz_mat.det``) gives the whole
polynomial; it is cross-checked by exact determinants at other integer points
(:func:`check_polynomial_at_points`) and, for n <= 8, by the Leibniz sum itself
(:func:`omega_det_leibniz`). Its timings: ``benchmarks/omega_polynomial.py``
and ``benchmarks/README.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import flint

from seprank.combinatorics import check_d_lam, compositions, multiset
from seprank.errors import ParameterError

__all__ = [
    "composition_exponents",
    "identity_exponent",
    "omega_matrix_at",
    "monomial_matrix_det_polynomial",
    "polynomial_matrix_det",
    "leibniz_det_polynomial",
    "omega_det_polynomial",
    "omega_det_leibniz",
    "check_polynomial_at_points",
    "det_degree",
    "det_leading_coefficient",
    "top_permutation",
    "bad_integer_omegas",
    "bad_rational_omegas",
    "count_real_roots",
    "real_root_count",
    "omega_symbolic_report",
]

#: refuse symbolic determinants beyond this many rows unless asked explicitly
DEFAULT_MAX_N = 80


def composition_exponents(d: int, lam: int) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """(Q, E): the compositions of lam into d parts and E[a][b] = <q_a, q_b>.

    E is the exponent matrix of A(Omega) (levine2020 l.714).

    Examples
    --------
    >>> composition_exponents(2, 1)   # q = (1, 0), (0, 1): E is the identity
    ([(1, 0), (0, 1)], [[1, 0], [0, 1]])
    """
    check_d_lam(d, lam)
    Q = compositions(lam, d)
    E = [[sum(x * y for x, y in zip(a, b, strict=True)) for b in Q] for a in Q]
    return Q, E


def identity_exponent(d: int, lam: int) -> int:
    """D = sum over compositions q of |q|^2: the exponent of the identity's term.

    Examples
    --------
    >>> identity_exponent(2, 2)   # |(2,0)|^2 + |(1,1)|^2 + |(0,2)|^2 = 4 + 2 + 4
    10
    """
    check_d_lam(d, lam)
    return sum(sum(x * x for x in q) for q in compositions(lam, d))


def _check_exponents(E: Sequence[Sequence[int]]) -> list[list[int]]:
    n = len(E)
    out = []
    for row in E:
        r = [int(e) for e in row]
        if len(r) != n:
            raise ParameterError("exponent matrix must be square")
        if any(e < 0 for e in r):
            raise ParameterError("exponents must be non-negative integers")
        out.append(r)
    return out


def omega_matrix_at(E: Sequence[Sequence[int]], omega: int) -> flint.fmpz_mat:
    """The integer matrix [omega^E[a][b]] (with 0^0 = 1), as an ``fmpz_mat``.

    Examples
    --------
    >>> omega_matrix_at([[1, 0], [0, 1]], 3).tolist()
    [[3, 1], [1, 3]]
    """
    if isinstance(omega, bool) or not isinstance(omega, int):
        raise ParameterError(f"omega must be a Python integer, got {omega!r}")
    E = _check_exponents(E)
    top = max((e for row in E for e in row), default=0)
    pw = [1] * (top + 1)
    for i in range(1, top + 1):
        pw[i] = pw[i - 1] * omega
    return flint.fmpz_mat([[pw[e] for e in row] for row in E]) if E else flint.fmpz_mat(0, 0)


def _balanced_digits(value: int, k: int) -> list[int]:
    """Digits c_j in (-2^(k-1), 2^(k-1)] with value = sum c_j 2^(k j)."""
    B = 1 << k
    half = B >> 1
    mask = B - 1
    out = []
    while value:
        r = value & mask
        if r > half:
            r -= B
        out.append(r)
        value = (value - r) >> k
    return out


def monomial_matrix_det_polynomial(E: Sequence[Sequence[int]]) -> flint.fmpz_poly:
    """det [x^E[a][b]] as an exact ``fmpz_poly`` (Kronecker substitution).

    Every coefficient is a signed count of permutations, so sum |c_j| <= n!;
    evaluating at x = B = 2^k with 2^(k-1) > n! and reading the balanced base-B
    digits of the exact determinant recovers the polynomial uniquely.

    Examples
    --------
    >>> monomial_matrix_det_polynomial([[1, 0], [0, 1]]).coeffs()   # det [[x, 1], [1, x]] = x^2 - 1
    [-1, 0, 1]
    """
    E = _check_exponents(E)
    n = len(E)
    if n == 0:
        return flint.fmpz_poly([1])
    k = math.factorial(n).bit_length() + 2
    top = max(e for row in E for e in row)
    pw = [1] * (top + 1)
    for i in range(1, top + 1):
        pw[i] = pw[i - 1] << k
    M = flint.fmpz_mat([[pw[e] for e in row] for row in E])
    value = int(M.det())
    return flint.fmpz_poly(_balanced_digits(value, k))


def _as_poly(p) -> flint.fmpz_poly:
    if isinstance(p, flint.fmpz_poly):
        return p
    if isinstance(p, int) and not isinstance(p, bool):
        return flint.fmpz_poly([p])
    if isinstance(p, (list, tuple)):
        return flint.fmpz_poly([int(c) for c in p])
    raise ParameterError(f"entry is not an integer polynomial: {p!r}")


def polynomial_matrix_det(entries: Sequence[Sequence]) -> flint.fmpz_poly:
    """det of a square matrix of integer polynomials in one variable, exactly.

    Entries: ``fmpz_poly``, ints, or coefficient lists (constant term first).
    Kronecker substitution with the bound |c_j| <= prod_i sum_j ||A_ij||_1
    (the 1-norm of the coefficient vector; the permanent of the entrywise norms
    is at most the product of its row sums).

    Examples
    --------
    >>> polynomial_matrix_det([[[0, 1], 1], [1, [0, 1]]]).coeffs()   # entries x, 1; 1, x
    [-1, 0, 1]
    """
    rows = [[_as_poly(p) for p in row] for row in entries]
    n = len(rows)
    if any(len(r) != n for r in rows):
        raise ParameterError("matrix must be square")
    if n == 0:
        return flint.fmpz_poly([1])
    bound = 1
    for r in rows:
        bound *= max(1, sum(sum(abs(int(c)) for c in p.coeffs()) for p in r))
    k = bound.bit_length() + 2
    B = flint.fmpz(1 << k)
    M = flint.fmpz_mat([[int(p(B)) for p in r] for r in rows])
    return flint.fmpz_poly(_balanced_digits(int(M.det()), k))


def _sign(s: Sequence[int]) -> int:
    seen = [False] * len(s)
    parity = 0
    for i in range(len(s)):
        if not seen[i]:
            j = i
            length = 0
            while not seen[j]:
                seen[j] = True
                j = s[j]
                length += 1
            parity += length - 1
    return -1 if parity % 2 else 1


def leibniz_det_polynomial(E: Sequence[Sequence[int]], *, max_n: int = 9) -> flint.fmpz_poly:
    """sum_sigma sgn(sigma) x^{sum_a E[a][sigma(a)]}: the Leibniz formula, literally.

    Independent of any determinant routine; exhaustive, so n <= ``max_n``.

    Examples
    --------
    >>> leibniz_det_polynomial([[1, 0], [0, 1]]).coeffs()   # identity x^2, swap -x^0
    [-1, 0, 1]
    """
    E = _check_exponents(E)
    n = len(E)
    if n > max_n:
        raise ParameterError(f"Leibniz expansion refused for n = {n} > {max_n}")
    coeffs: dict[int, int] = {}
    for s in itertools.permutations(range(n)):
        e = sum(E[a][s[a]] for a in range(n))
        coeffs[e] = coeffs.get(e, 0) + _sign(s)
    top = max(coeffs) if coeffs else 0
    return flint.fmpz_poly([coeffs.get(j, 0) for j in range(top + 1)])


def omega_det_polynomial(d: int, lam: int, *, max_n: int = DEFAULT_MAX_N) -> flint.fmpz_poly:
    """det A(Omega) for the compositions of lam into d parts (levine2020 l.714-718).

    Exact, by Kronecker substitution (module docstring). ``max_n`` guards
    against accidentally huge cases (n = ((d, lam))).

    >>> str(omega_det_polynomial(2, 1))
    'x^2 + (-1)'
    """
    check_d_lam(d, lam)
    n = multiset(d, lam)
    if n > max_n:
        raise ParameterError(f"n = (({d}, {lam})) = {n} exceeds max_n = {max_n}")
    _, E = composition_exponents(d, lam)
    return monomial_matrix_det_polynomial(E)


def omega_det_leibniz(d: int, lam: int, *, max_n: int = 9) -> flint.fmpz_poly:
    """The same polynomial from the permutation sum of l.716, for n <= ``max_n``.

    Examples
    --------
    >>> omega_det_leibniz(2, 2) == omega_det_polynomial(2, 2)
    True
    """
    _, E = composition_exponents(d, lam)
    return leibniz_det_polynomial(E, max_n=max_n)


def check_polynomial_at_points(poly: flint.fmpz_poly, E: Sequence[Sequence[int]],
                               points: Iterable[int] = (2, 3, -2, 5)) -> dict:
    """Compare poly(w) with an exact determinant of [w^E] at each integer point w.

    Returns ``{"points": [...], "agree": bool, "mismatches": [...]}``.

    Examples
    --------
    >>> check_polynomial_at_points(flint.fmpz_poly([-1, 0, 1]), [[1, 0], [0, 1]])["agree"]
    True
    >>> check_polynomial_at_points(flint.fmpz_poly([0, 0, 1]), [[1, 0], [0, 1]])["agree"]
    False
    """
    pts = [int(w) for w in points]
    mismatches = []
    for w in pts:
        direct = int(omega_matrix_at(E, w).det())
        via = int(poly(flint.fmpz(w)))
        if direct != via:
            mismatches.append({"omega": w, "det": direct, "poly": via})
    return {"points": pts, "agree": not mismatches, "mismatches": mismatches}


def det_degree(poly: flint.fmpz_poly) -> int:
    """Degree of the polynomial (-1 for the zero polynomial, flint's convention).

    Examples
    --------
    >>> det_degree(omega_det_polynomial(2, 2)) == identity_exponent(2, 2)   # Lemma 8: degree D
    True
    >>> det_degree(flint.fmpz_poly([]))
    -1
    """
    return int(poly.degree())


def det_leading_coefficient(poly: flint.fmpz_poly) -> int:
    """Leading coefficient (0 for the zero polynomial).

    Examples
    --------
    >>> det_leading_coefficient(omega_det_polynomial(2, 2))   # sgn(identity)
    1
    >>> det_leading_coefficient(flint.fmpz_poly([]))
    0
    """
    return int(poly.leading_coefficient()) if not poly.is_zero() else 0


def top_permutation(d: int, lam: int) -> dict:
    """The permutation(s) with the largest exponent e(sigma), with a certificate.

    Uses the LP-duality certificate of
    :func:`seprank.papers.levine2020.rearrangement.dual_certificate`: the identity
    is the unique maximizer iff all off-diagonal doubled reduced costs
    |q_a - q_b|^2 are > 0 (always, the compositions being distinct). Returns the
    identity exponent, the second-best exponent (= D - 2 for n >= 2: neighbouring
    compositions differ by moving one unit), the sign of the top permutation
    and whether it is unique.

    Examples
    --------
    >>> top = top_permutation(2, 2)
    >>> top["exponent"], top["second_best_exponent"], top["unique"]   # D = 10, then D - 2
    (10, 8, True)
    """
    from seprank.papers.levine2020.rearrangement import dual_certificate, verify_dual_certificate

    check_d_lam(d, lam)
    Q = compositions(lam, d)
    cert = dual_certificate(Q)
    check = verify_dual_certificate(Q, cert)
    return {
        "permutation": "identity",
        "sign": 1,
        "exponent": cert["identity_exponent"],
        "unique": check["identity_unique"],
        "certificate_valid": check["valid"],
        "second_best_exponent": cert.get("second_best_exponent"),
        "closest_pair": [list(Q[i]) for i in cert.get("closest_pair", [])],
    }


def bad_integer_omegas(poly: flint.fmpz_poly) -> list[int]:
    """The integers Omega with poly(Omega) = 0, exactly and sorted.

    These are the integer values at which A(Omega) is singular. Raises
    ``ParameterError`` for the zero polynomial (every Omega would be bad).

    Examples
    --------
    >>> bad_integer_omegas(flint.fmpz_poly([-1, 0, 1]))   # x^2 - 1
    [-1, 1]
    """
    if poly.is_zero():
        raise ParameterError("the zero polynomial vanishes at every Omega")
    roots = sorted(int(r) for r, _ in poly.roots())
    for r in roots:  # exact re-check
        assert poly(flint.fmpz(r)) == 0
    return roots


def bad_rational_omegas(poly: flint.fmpz_poly) -> list[Fraction]:
    """The rational roots of ``poly`` (from its linear factors over Z), sorted.

    Examples
    --------
    >>> bad_rational_omegas(flint.fmpz_poly([-1, 0, 4]))   # 4 x^2 - 1
    [Fraction(-1, 2), Fraction(1, 2)]
    """
    if poly.is_zero():
        raise ParameterError("the zero polynomial vanishes at every Omega")
    _, factors = poly.factor()
    out = set()
    for f, _ in factors:
        if f.degree() == 1:
            b, a = (int(c) for c in f.coeffs())
            out.add(Fraction(-b, a))
    return sorted(out)


def real_root_count(poly: flint.fmpz_poly, *, sturm_max_degree: int = 60) -> dict:
    """Number of distinct real roots of ``poly``, factor by factor, and how it was counted.

    ``poly`` is factored into irreducibles over Z (flint); distinct irreducible
    factors share no roots, so the counts add up. A cyclotomic factor Phi_k has
    the real root 1 (k = 1), -1 (k = 2) or none; a factor of degree <=
    ``sturm_max_degree`` is counted exactly with Sturm sequences (sympy
    ``Poly.count_roots``); a larger one with flint's certified root isolation
    (``complex_roots``, arb ball arithmetic: for a squarefree integer
    polynomial it returns the real roots with imaginary part exactly zero), which
    is rigorous but not symbolic, and is reported separately.

    Examples
    --------
    >>> real_root_count(flint.fmpz_poly([-1, 0, 1]))   # (x - 1)(x + 1): two cyclotomic factors
    {'count': 2, 'factors_by_method': {'cyclotomic': 2, 'sturm': 0, 'arb_certified': 0}}
    >>> real_root_count(flint.fmpz_poly([-2, 0, 1]))["count"]   # x^2 - 2, by Sturm
    2
    """
    if poly.is_zero():
        raise ParameterError("the zero polynomial has infinitely many roots")
    import sympy

    x = sympy.Symbol("x")
    count = 0
    how = {"cyclotomic": 0, "sturm": 0, "arb_certified": 0}
    _, factors = poly.factor()
    for f, _ in factors:
        deg = f.degree()
        if deg <= 0:
            continue
        k = int(f.is_cyclotomic())
        if k:
            count += 1 if k in (1, 2) else 0
            how["cyclotomic"] += 1
        elif deg <= sturm_max_degree:
            coeffs = [int(c) for c in f.coeffs()]
            count += int(sympy.Poly(list(reversed(coeffs)), x, domain="ZZ").count_roots())
            how["sturm"] += 1
        else:
            count += sum(1 for r, _ in f.complex_roots() if r.imag == 0)
            how["arb_certified"] += 1
    return {"count": count, "factors_by_method": how}


def count_real_roots(poly: flint.fmpz_poly) -> int:
    """Number of distinct real roots (see :func:`real_root_count`).

    Examples
    --------
    >>> count_real_roots(flint.fmpz_poly([1, 0, 1]))   # x^2 + 1
    0
    """
    return real_root_count(poly)["count"]


def _lowest_degree(poly: flint.fmpz_poly) -> int:
    for j, c in enumerate(poly.coeffs()):
        if c != 0:
            return j
    return -1


def omega_symbolic_report(d: int, lam: int, *, max_n: int = DEFAULT_MAX_N,
                          verify_points: Iterable[int] = (2, 3, -2),
                          count_real: bool = True) -> dict:
    """Everything about det A(Omega) for one (d, lam), as JSON-ready data.

    Keys: ``d``, ``lam``, ``n``, ``coefficients`` (constant term first),
    ``degree``, ``leading_coefficient``, ``lowest_degree`` (the power of Omega
    dividing det), ``identity_exponent`` (D), ``degree_equals_identity_exponent``,
    ``leading_coefficient_is_identity_sign`` (+1), ``top_permutation`` (see
    :func:`top_permutation`), ``bad_integer_omegas``, ``bad_rational_omegas``
    (as "p/q" strings), ``distinct_real_roots`` and ``real_root_methods`` (see
    :func:`real_root_count`; None if not computed), ``irreducible_factors``,
    ``factorization`` (string, degree <= 200 only), ``evaluation_check`` (exact
    determinants at ``verify_points`` vs the polynomial).

    Examples
    --------
    >>> r = omega_symbolic_report(2, 1)   # det A = Omega^2 - 1
    >>> r["coefficients"], r["bad_integer_omegas"], r["evaluation_check"]["agree"]
    ([-1, 0, 1], [-1, 1], True)
    """
    check_d_lam(d, lam)
    n = multiset(d, lam)
    Q, E = composition_exponents(d, lam)
    if n > max_n:
        raise ParameterError(f"n = (({d}, {lam})) = {n} exceeds max_n = {max_n}")
    poly = monomial_matrix_det_polynomial(E)
    D = identity_exponent(d, lam)
    top = top_permutation(d, lam)
    real_roots = real_root_count(poly) if count_real else None
    factored = poly.factor()
    report = {
        "d": d,
        "lam": lam,
        "n": n,
        "coefficients": [int(c) for c in poly.coeffs()],
        "degree": det_degree(poly),
        "leading_coefficient": det_leading_coefficient(poly),
        "lowest_degree": _lowest_degree(poly),
        "identity_exponent": D,
        "degree_equals_identity_exponent": det_degree(poly) == D,
        "leading_coefficient_is_identity_sign": det_leading_coefficient(poly) == top["sign"],
        "top_permutation": top,
        "bad_integer_omegas": bad_integer_omegas(poly),
        "bad_rational_omegas": [str(f) for f in bad_rational_omegas(poly)],
        "distinct_real_roots": real_roots["count"] if real_roots else None,
        "real_root_methods": real_roots["factors_by_method"] if real_roots else None,
        "irreducible_factors": len(factored[1]),
        "factorization": str(factored) if poly.degree() <= 200 else None,
        "evaluation_check": check_polynomial_at_points(poly, E, verify_points),
    }
    return report
