"""levine2020 Lemma 6 (B.3, l.720-815): the printed weights and templates, and a corrected set.

Lemma 6 (l.724-730) claims: for a balanced partition (I, J) of [N], even M and
V of shape M/2 x (d_x - H)/2 with l2-normalized rows there are M + 1 template
vectors and complex weights such that the M/2 x M/2 sub-matrix of the grid
matricization [[A(y_p^{i,L,d_x,H,Theta})]]_{I,J} on the index sets of
eq. (29)-(30) equals Const * (V V^T)^(Hadamard 3^(L-2)) (eq. (28)).

The construction lives in d_x = H d_a coordinates: H segments of length d_a
(d_a odd), each holding m = (d_a - 1)/2 "V" coordinates, m "complement"
coordinates and one constant coordinate; so d = (d_x - H)/2 = H m.

Every formula of the assignment is its own function below, with its line;
each takes a ``printed`` flag: ``printed=True`` is the formula exactly as
printed (1-based indices of the paper translated to 0-based arrays, nothing
else changed), ``printed=False`` the corrected formula. What is wrong as
printed (see each function):

* phi (l.752): the segment stride is d_a - 1; it must be (d_a - 1)/2, else
  phi leaves [1, d] on the second segment (H >= 2);
* the templates (l.750), second case: row i - M/2 + 1 of V; it must be
  i - M/2 (the printed index reaches the nonexistent row M/2 + 1 at i = M);
* W^{V,1,h} (l.740), third and fourth cases: rows (d_a-1)/2 < i <= d_a - 1
  are matched by 1_{i = j - d_a(h-1)} (resp. ... - (d_a-1)/2), which never
  holds in that row range, so the complement rows 1 - V - iV of eq. (34)/(36)
  come out as the constant 1; the indicator must be shifted by (d_a-1)/2;
* the last layer (l.741, l.743): W^{V,L,h} = i 1_{j = d_a} reads head 1's
  constant coordinate for every head and W^{O,L,h} writes head h into segment
  h only, so output segment h carries <v~(h), v~(h)> alone, not the sum over
  heads that eq. (49)-(50) assumes; corrected: W^{V,L,h} = i 1_{j = d_a h}
  (each head's own constant coordinate) and W^{O,L,h}_{k,a} =
  1_{a = ((k-1) mod d_a) + 1} (every head writes into every segment, so every
  output coordinate is the sum over heads). For H = 1 both agree with print.

With every correction the sub-matrix equals c (V V^T)^(Hadamard lambda),
lambda = 3^(L-2), at every output position and coordinate, with

    c = i^(lambda+1) 2^lambda ((d_a-1)/2)^(lambda-1) N^(-(lambda+1)/2)

(:func:`lemma6_constant`; real since lambda is odd).

Index conventions: the functions take the paper's 1-based (i, j, h) where a
formula is stated entrywise and return 0-based numpy object arrays.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from seprank.errors import ParameterError
from seprank.scalars.gaussian import GaussianRational

__all__ = [
    "CORRECTIONS",
    "PrintedFormulaUndefined",
    "check_parameters",
    "phi",
    "template_entry",
    "templates",
    "W_V1",
    "W_O",
    "W_V_mid",
    "W_V_last",
    "W_KQ1",
    "W_KQ2",
    "W_KQ_later",
    "assignment",
    "index_sets",
    "lemma6_inputs",
    "lemma6_constant",
    "lemma6_V",
    "gram_hadamard",
]

I_UNIT = GaussianRational(0, 1)
#: the four corrections, by the formula they fix.
CORRECTIONS = ("phi", "template", "W_V1", "last_layer")


class PrintedFormulaUndefined(ValueError):
    """A printed formula refers to something that does not exist (e.g. a row of V).

    Examples
    --------
    >>> issubclass(PrintedFormulaUndefined, ValueError)
    True
    >>> try:   # M = 2: the printed second case asks for row 2 of a 1-row V
    ...     template_entry(2, 2, np.array([[5]]), 3)
    ... except PrintedFormulaUndefined as exc:
    ...     print(exc)
    x^(2)_2 (l.750) refers to V[2, 1] (1-based) but V is 1 x 1
    """


def _int(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ParameterError(f"{name} must be >= {low}, got {value}")
    return int(value)


def check_parameters(*, N: int, H: int, d_a: int, L: int | None = None,
                     d_x: int | None = None, M: int | None = None) -> int:
    """Validate the parameters of the construction; returns d_x = H d_a.

    Rules (levine2020 B.3): d_a odd and >= 3 (segments of m = (d_a-1)/2 V
    coordinates, m complements and one constant, l.740); d_x = H d_a, so H
    divides d_x (d_a = d_x / H, l.63); N even and >= 2 (balanced partition,
    l.726, l.754); M even and >= 2 (l.726); L >= 2 (lambda = 3^(L-2)).

    Examples
    --------
    >>> check_parameters(N=2, H=2, d_a=3)   # d_x = H d_a
    6
    >>> check_parameters(N=3, H=1, d_a=3)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: N = 3 is odd: ...
    """
    N = _int("N (sequence length)", N, 1)
    H = _int("H (heads)", H, 1)
    d_a = _int("d_a (attention dimension)", d_a, 1)
    if d_a % 2 == 0 or d_a < 3:
        raise ParameterError(f"d_a = {d_a}: the construction needs d_a odd and >= 3 (each "
                             "segment holds (d_a-1)/2 V coordinates, (d_a-1)/2 complements "
                             "and one constant, l.740)")
    if N % 2:
        raise ParameterError(f"N = {N} is odd: Lemma 6 needs a balanced partition of [N] "
                             "(N even, l.726, l.754)")
    if L is not None:
        _int("L (depth)", L, 2)
    if d_x is not None:
        d_x = _int("d_x (width)", d_x, 1)
        if d_x % H:
            raise ParameterError(f"H = {H} does not divide d_x = {d_x}: the construction "
                                 "needs d_a = d_x / H (l.63)")
        if d_x != H * d_a:
            raise ParameterError(f"d_x = {d_x} != H d_a = {H * d_a}: the construction needs "
                                 "d_a = d_x / H (l.63)")
    if M is not None:
        M = _int("M (number of templates - 1)", M, 2)
        if M % 2:
            raise ParameterError(f"M = {M} is odd: Lemma 6 needs M even (V has M/2 rows, "
                                 "l.726)")
    return H * d_a


# -- phi and the templates -------------------------------------------------------------

def phi(j: int, d_a: int, *, printed: bool = True) -> int:
    """phi(j) of l.752 (1-based j and result): which column of V coordinate j holds.

    Printed: phi(j) = floor((j-1)/d_a) (d_a - 1) + ((j-1) mod d_a) + 1.
    Corrected: stride (d_a - 1)/2, the number of V coordinates per segment.

    Examples
    --------
    >>> phi(4, 3), phi(4, 3, printed=False)   # j = 4 opens segment 2, which holds V column 2
    (3, 2)
    """
    stride = d_a - 1 if printed else (d_a - 1) // 2
    return ((j - 1) // d_a) * stride + ((j - 1) % d_a) + 1


def template_entry(i: int, j: int, V: np.ndarray, d_a: int, *, printed: bool = True,
                   printed_phi: bool | None = None) -> object:
    """x^(i)_j of l.750 (1-based i in 1..M+1, j in 1..d_x); V is 0-based (M/2, d).

    Cases: V_{i, phi(j)} for i <= M/2 and (j-1) mod d_a < (d_a-1)/2;
    V_{i - M/2 + 1, phi(j - (d_a-1)/2)} (printed; corrected: i - M/2) for
    M/2 < i <= M and (d_a-1)/2 <= (j-1) mod d_a < d_a - 1; 1 for
    (j-1) mod d_a = d_a - 1; 0 otherwise. Raises PrintedFormulaUndefined when
    the formula names a row or column of V that does not exist.

    Examples
    --------
    >>> V = np.array([[5]], dtype=object)
    >>> template_entry(1, 1, V, 3), template_entry(1, 3, V, 3)   # a V entry, then the constant
    (5, 1)
    """
    if printed_phi is None:
        printed_phi = printed
    half, m = V.shape[0], (d_a - 1) // 2
    M = 2 * half
    o = (j - 1) % d_a
    if o == d_a - 1:
        return 1
    if i <= half and o < m:
        row, col = i, phi(j, d_a, printed=printed_phi)
    elif half < i <= M and m <= o < d_a - 1:
        row = i - half + 1 if printed else i - half
        col = phi(j - m, d_a, printed=printed_phi)
    else:
        return 0
    if not (1 <= row <= half and 1 <= col <= V.shape[1]):
        raise PrintedFormulaUndefined(
            f"x^({i})_{j} (l.750) refers to V[{row}, {col}] (1-based) but V is "
            f"{half} x {V.shape[1]}")
    return V[row - 1, col - 1]


def templates(V: np.ndarray, H: int, d_a: int, *, printed: bool = True,
              printed_phi: bool | None = None) -> np.ndarray:
    """The M + 1 template vectors of l.750 as an (M+1, d_x) object array (row t = x^(t+1)).

    Lemma 6 of levine2020_depth_to_width_self_attention.txt B.3, its templates
    (l.750); ``printed=False`` gives the corrected ones (module docstring).

    Examples
    --------
    >>> templates(np.array([[5]]), 1, 3, printed=False).tolist()   # M = 2, d_x = 3
    [[5, 0, 1], [0, 5, 1], [0, 0, 1]]
    """
    V = np.asarray(V, dtype=object)
    d_x = H * d_a
    if V.ndim != 2 or V.shape[1] != (d_x - H) // 2:
        raise ParameterError(f"V must have (d_x - H)/2 = {(d_x - H) // 2} columns, got shape "
                             f"{V.shape}")
    M = 2 * V.shape[0]
    out = np.empty((M + 1, d_x), dtype=object)
    for i in range(1, M + 2):
        for j in range(1, d_x + 1):
            out[i - 1, j - 1] = template_entry(i, j, V, d_a, printed=printed,
                                               printed_phi=printed_phi)
    return out


# -- the weights ---------------------------------------------------------------------------

def W_V1(N: int, H: int, d_a: int, h: int, *, printed: bool = True) -> np.ndarray:
    """W^{V,1,h} of l.740 (1-based h), shape (d_a, d_x).

    (1/N) times: 1_{i = j - d_a(h-1)} on the first-half columns of segment h and
    rows i <= m; i 1_{i = j - d_a(h-1) - m} on the second-half columns, rows
    i <= m; -1_{i = j - d_a(h-1)} and -i 1_{i = j - d_a(h-1) - m} on the same
    columns for rows m < i <= d_a - 1 (printed; these indicators never hold
    there; corrected: i - m in place of i); 1 at column d_a h for rows
    m < i <= d_a; 0 otherwise.

    Examples
    --------
    >>> W = W_V1(2, 1, 3, 1)   # printed: the complement row 2 equals the constant row 3
    >>> W[1].tolist() == W[2].tolist()
    True
    >>> W_V1(2, 1, 3, 1, printed=False)[1, 0]   # corrected: -1/N
    Fraction(-1, 2)
    """
    m, d_x = (d_a - 1) // 2, H * d_a
    out = np.empty((d_a, d_x), dtype=object)
    base = d_a * (h - 1)
    for i in range(1, d_a + 1):
        for j in range(1, d_x + 1):
            ii = i if (printed or i <= m) else i - m
            val: object = 0
            if base < j <= base + m and 0 < i <= m:
                val = 1 if i == j - base else 0
            elif base + m < j <= d_a * h - 1 and 0 < i <= m:
                val = I_UNIT if i == j - base - m else 0
            elif base < j <= base + m and m < i <= d_a - 1:
                val = -1 if ii == j - base else 0
            elif base + m < j <= d_a * h - 1 and m < i <= d_a - 1:
                val = -I_UNIT if ii == j - base - m else 0
            elif j == d_a * h and m < i <= d_a:
                val = 1
            out[i - 1, j - 1] = val * Fraction(1, N) if val != 0 else 0
    return out


def W_O(H: int, d_a: int, h: int, *, last: bool = False, printed: bool = True) -> np.ndarray:
    """W^{O,l,h} of l.741 (1-based h), shape (d_x, d_a): 1_{j = i - d_a(h-1)} for rows of segment h.

    Corrected for the last layer only (``last=True, printed=False``): 1_{j = ((i-1) mod d_a) + 1}
    for every row i, so that all heads add up in every output coordinate.

    Examples
    --------
    >>> W_O(2, 3, 2)[3:].tolist()   # head 2 writes into segment 2 (rows 4-6)
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    >>> W_O(2, 3, 2)[:3].tolist()
    [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    """
    d_x = H * d_a
    out = np.zeros((d_x, d_a), dtype=object)
    for i in range(1, d_x + 1):
        if last and not printed:
            out[i - 1, (i - 1) % d_a] = 1
        elif d_a * (h - 1) < i <= d_a * h:
            out[i - 1, i - d_a * (h - 1) - 1] = 1
    return out


def W_V_mid(H: int, d_a: int, h: int) -> np.ndarray:
    """W^{V,l,h} for 1 < l < L (l.742): 1_{i = j - d_a(h-1)} for columns of segment h.

    Examples
    --------
    >>> W_V_mid(2, 3, 2).tolist()   # reads segment 2
    [[0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]
    """
    d_x = H * d_a
    out = np.zeros((d_a, d_x), dtype=object)
    for j in range(d_a * (h - 1) + 1, d_a * h + 1):
        out[j - d_a * (h - 1) - 1, j - 1] = 1
    return out


def W_V_last(H: int, d_a: int, h: int, *, printed: bool = True) -> np.ndarray:
    """W^{V,L,h} of l.743: i 1_{j = d_a} in every row (printed); corrected: i 1_{j = d_a h}.

    Examples
    --------
    >>> [j + 1 for j in range(6) if W_V_last(2, 3, 2)[0, j] != 0]   # printed: column d_a
    [3]
    >>> [j + 1 for j in range(6) if W_V_last(2, 3, 2, printed=False)[0, j] != 0]   # d_a h
    [6]
    """
    d_x = H * d_a
    out = np.zeros((d_a, d_x), dtype=object)
    col = d_a if printed else d_a * h
    out[:, col - 1] = I_UNIT
    return out


def W_KQ1(H: int, d_a: int) -> np.ndarray:
    """W^{K,1,h} = W^{Q,1,h} of l.744: 1_{i = 1 and j = d_a}.

    Examples
    --------
    >>> W_KQ1(1, 3).tolist()
    [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    """
    out = np.zeros((d_a, H * d_a), dtype=object)
    out[0, d_a - 1] = 1
    return out


def W_KQ2(H: int, d_a: int, h: int) -> np.ndarray:
    """W^{K,2,h} = W^{Q,2,h} of l.745: 1_{i = j - d_a(h-1)} on the first m columns of segment h.

    Examples
    --------
    >>> W_KQ2(2, 3, 2)[0].tolist()   # m = 1: row 1 reads column d_a + 1
    [0, 0, 0, 1, 0, 0]
    """
    m = (d_a - 1) // 2
    out = np.zeros((d_a, H * d_a), dtype=object)
    for i in range(1, m + 1):
        out[i - 1, d_a * (h - 1) + i - 1] = 1
    return out


def W_KQ_later(H: int, d_a: int) -> np.ndarray:
    """W^{K,l,h} = W^{Q,l,h} for l > 2 (l.746): 1 for i = 1 and j mod d_a != 0.

    Examples
    --------
    >>> W_KQ_later(2, 3)[0].tolist()   # every column but the constants 3 and 6
    [1, 1, 0, 1, 1, 0]
    """
    out = np.zeros((d_a, H * d_a), dtype=object)
    for j in range(1, H * d_a + 1):
        if j % d_a:
            out[0, j - 1] = 1
    return out


def assignment(L: int, N: int, H: int, d_a: int, *, corrected: frozenset | set = frozenset()
               ) -> dict[str, np.ndarray]:
    """All 4LH weight matrices (network.py layout: W[kind][l, h]).

    levine2020_depth_to_width_self_attention.txt B.3, l.740-746.

    ``corrected`` is the subset of :data:`CORRECTIONS` to apply ("W_V1", "last_layer";
    "phi" and "template" concern the templates only); "last_layer_V" / "last_layer_O"
    correct only W^{V,L,h} / only W^{O,L,h}. The layer rules: l = 1 uses
    W^{K,1}, W^{Q,1}, W^{V,1}; l = 2 uses W^{K,2}, W^{Q,2}; l > 2 uses l.746; V for
    1 < l < L is l.742 and for l = L l.743; W^O (l.741) for every l.

    Examples
    --------
    >>> W = assignment(2, 2, 2, 3)
    >>> W["V"].shape, W["O"].shape   # (L, H, d_a, d_x) and (L, H, d_x, d_a)
    ((2, 2, 3, 6), (2, 2, 6, 3))
    """
    check_parameters(N=N, H=H, d_a=d_a, L=L)
    bad = set(corrected) - set(CORRECTIONS) - {"last_layer_V", "last_layer_O"}
    if bad:
        raise ParameterError(f"unknown corrections {sorted(bad)}; known: {CORRECTIONS}")
    d_x = H * d_a
    W = {k: np.zeros((L, H, d_a, d_x) if k != "O" else (L, H, d_x, d_a), dtype=object)
         for k in "QKVO"}
    v_fixed = bool({"last_layer", "last_layer_V"} & set(corrected))
    o_fixed = bool({"last_layer", "last_layer_O"} & set(corrected))
    for l_ in range(1, L + 1):
        for h in range(1, H + 1):
            if l_ == 1:
                kq = W_KQ1(H, d_a)
            elif l_ == 2:
                kq = W_KQ2(H, d_a, h)
            else:
                kq = W_KQ_later(H, d_a)
            if l_ == L:
                v = W_V_last(H, d_a, h, printed=not v_fixed)
            elif l_ == 1:
                v = W_V1(N, H, d_a, h, printed="W_V1" not in corrected)
            else:
                v = W_V_mid(H, d_a, h)
            o = W_O(H, d_a, h, last=(l_ == L), printed=not o_fixed)
            W["Q"][l_ - 1, h - 1] = kq
            W["K"][l_ - 1, h - 1] = kq
            W["V"][l_ - 1, h - 1] = v
            W["O"][l_ - 1, h - 1] = o
    return W


# -- index sets, inputs, constant ----------------------------------------------------------

def index_sets(N: int, M: int) -> tuple[tuple[int, ...], list[tuple[int, ...]],
                                         list[tuple[int, ...]]]:
    """I = first N/2 positions (0-based, l.754) and the digit tuples of eq. (29)-(30).

    levine2020_depth_to_width_self_attention.txt B.3, l.754 and eqs. (29)-(30).

    Rows: (i_1, M+1, ..., M+1) with 1 <= i_1 <= M/2; columns: (j_1, M+1, ...,
    M+1) with M/2 < j_1 <= M; returned 0-based (template t is row t - 1).

    Examples
    --------
    >>> index_sets(4, 4)   # template M + 1 is index 4 (0-based)
    ((0, 1), [(0, 4), (1, 4)], [(2, 4), (3, 4)])
    """
    check_parameters(N=N, H=1, d_a=3, M=M)
    half = N // 2
    rows = [(i1,) + (M,) * (half - 1) for i1 in range(M // 2)]
    cols = [(j1,) + (M,) * (half - 1) for j1 in range(M // 2, M)]
    return tuple(range(half)), rows, cols


def lemma6_inputs(T: np.ndarray, N: int, I: tuple[int, ...] | None = None) -> np.ndarray:
    """The (M/2)^2 sequences of the sub-matrix, row-major: shape ((M/2)^2, N, d_x).

    The inputs of levine2020_depth_to_width_self_attention.txt B.3, eqs.
    (29)-(30): the rows and columns of the sub-matrix of Lemma 6.

    Position min(I) gets template i_1, position min(J) gets j_1, all others
    template M+1 (I defaults to the first N/2 positions).

    Examples
    --------
    >>> T = templates(np.array([[5]]), 1, 3, printed=False)
    >>> lemma6_inputs(T, 2).tolist()   # one sequence: templates 1 and 2
    [[[5, 0, 1], [0, 5, 1]]]
    """
    M = T.shape[0] - 1
    I = tuple(range(N // 2)) if I is None else tuple(sorted(I))
    J = tuple(sorted(set(range(N)) - set(I)))
    X = np.empty(((M // 2) ** 2, N, T.shape[1]), dtype=object)
    b = 0
    for i1 in range(M // 2):
        for j1 in range(M // 2, M):
            idx = [M] * N
            idx[I[0]], idx[J[0]] = i1, j1
            X[b] = T[idx]
            b += 1
    return X


def lemma6_constant(L: int, N: int, d_a: int) -> GaussianRational:
    """c = i^(lambda+1) 2^lambda ((d_a-1)/2)^(lambda-1) N^(-(lambda+1)/2), lambda = 3^(L-2).

    The Const of levine2020_depth_to_width_self_attention.txt B.3, eq. (28),
    for the corrected assignment.

    The constant of the corrected assignment (derived in the module docstring
    of proofs/levine2020/l_lemma6.py; confirmed there case by case).

    Examples
    --------
    >>> lemma6_constant(2, 2, 3)   # lambda = 1, m = 1: i^2 * 2 / 2
    GaussianRational(-1, 0)
    >>> lemma6_constant(3, 2, 3)   # lambda = 3: i^4 * 8 / 2^2
    GaussianRational(2, 0)
    """
    lam = 3 ** (L - 2)
    m = (d_a - 1) // 2
    real = Fraction(2 ** lam * m ** (lam - 1), N ** ((lam + 1) // 2))
    return GaussianRational(real, 0) * (I_UNIT ** (lam + 1))


def lemma6_V(H: int, d_a: int, half: int, *, seed: int = 0) -> np.ndarray:
    """The V of Lemma 6 (levine2020 B.3, l.724-730): ``half`` = M/2 rows of unit l2 norm.

    V has d = (d_x - H)/2 = H (d_a - 1)/2 columns (the V coordinates of the H
    segments, l.740) and l2-normalized rows, as the lemma asks. seprank takes
    ``half`` distinct rational points of the unit sphere S^(d-1)
    (:func:`seprank.scalars.sphere.sphere_points`, drawn from ``seed``), so that
    the identity eq. (28) can be checked exactly; for d = 1 the only unit
    rows are +1 and -1, which alternate. This is the V of ``seprank lemma6``
    and of the sweep computation ``lemma6``; with the corrected assignment the
    Lemma 6 sub-matrix equals :func:`lemma6_constant` times
    (V V^T)^(Hadamard 3^(L-2)).

    Examples
    --------
    >>> V = lemma6_V(1, 5, 3)                 # d = 2: three rational points of the circle
    >>> V.shape, all(sum(x * x for x in row) == 1 for row in V)
    ((3, 2), True)
    >>> lemma6_V(1, 3, 3).tolist()            # d = 1: +1, -1, +1
    [[1], [-1], [1]]
    """
    check_parameters(N=2, H=H, d_a=d_a)
    half = _int("half (M/2, the rows of V)", half, 1)
    d = H * (d_a - 1) // 2
    if d == 1:
        V = np.empty((half, 1), dtype=object)
        V[:, 0] = [1 if k % 2 == 0 else -1 for k in range(half)]
        return V
    from seprank.scalars.sphere import sphere_points

    return sphere_points(half, d, seed=seed)


def gram_hadamard(V: np.ndarray, lam: int) -> np.ndarray:
    """(V V^T)^(Hadamard lam) exactly (object array; V of integers or Fractions).

    A wrapper of :func:`seprank.constructions.gram_hadamard.gram_hadamard`
    (``domain="QQ"``).

    Examples
    --------
    >>> gram_hadamard(np.array([[1, 2], [3, 4]]), 2).tolist()   # [[5, 11], [11, 25]] squared
    [[25, 121], [121, 625]]
    """
    from seprank.constructions.gram_hadamard import gram_hadamard as _gh

    return _gh(V, lam, domain="QQ", backend="numpy")


def lemma6_estimate(L: int, H: int, d_a: int, N: int, half: int):
    """Work and peak memory of checking the identity (``seprank lemma6``): the (M/2)^2
    sequences evaluated exactly over Q(i), each value of degree 3^L in the templates (about
    64 bits per degree), and G = (V V^T)^(Hadamard lam), lam = 3^(L-2), exactly.

    >>> lemma6_estimate(3, 1, 3, 2, 3).detail
    '9 sequences of N = 2, d_x = 3; values of about 2k bits'
    """
    import math

    from seprank.budget import BASE_BYTES, Estimate, as_float, bigint_factor, format_count

    seqs, d_x = half * half, H * d_a
    bits = 3.0 ** L * 64 + 64 if L < 600 else math.inf  # 3^L itself is never computed
    per_value = 4 * (200 + bits / 8)
    work = as_float(seqs * L * N * N * H * d_a * d_x) * bigint_factor(bits)
    peak = as_float(seqs * N * d_x) * per_value + as_float(seqs) * (100 + bits / 8)
    return Estimate("the Lemma 6 identity",
                    nbytes=BASE_BYTES + (int(peak) if peak < 2**1000 else 2**1000),
                    work=((work, "python"),),
                    detail=f"{format_count(seqs)} sequences of N = {N}, d_x = {d_x}; values "
                           f"of about {format_count(bits)} bits")


def check_size(L: int, H: int, d_a: int, N: int, half: int) -> None:
    """Refuse (one line) the identity's check past the budget in force
    (:func:`seprank.budget.current`), naming the largest L that fits.

    >>> check_size(3, 1, 3, 2, 3) is None
    True
    """
    from seprank.budget import current, largest_fitting

    budget = current()

    def hint() -> str:
        k = largest_fitting(lambda k: budget.fits(lemma6_estimate(k, H, d_a, N, half)), 2, L - 1)
        return "" if k is None else f"the largest L that fits is {k}"

    budget.check(lemma6_estimate(L, H, d_a, N, half), nearest=hint)
