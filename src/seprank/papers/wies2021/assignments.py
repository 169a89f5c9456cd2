"""Explicit embedding assignments of wies2021 B.2 (Lemmas 5-7), exactly.

Source: wies2021_vocabulary_bottleneck.txt, B.2.1 (Lemma 5, l.572-606) and B.2.2 (Lemma 6,
l.608-634; Lemma 7, l.658-702). Why: these lemmas build the embeddings and first layers
that meet Corollaries 1-2, the lower-bound route of Theorem 2; the checks W-Lemma5,
W-Lemma6, W-Lemma7, W-Cor1 and W-Cor2 evaluate them as printed and corrected.
Conventions: the paper's indices are 1-based; arguments and results named
``alpha``, ``i``, ``j`` here are 1-based too, arrays are 0-based. Entries are
exact (int / Fraction / whatever ``A`` holds). ``d_x = H d_a`` (d_a odd),
``d = (r - H)/2`` the number of columns of A, ``E = 2 n`` with n the number
of rows of A.

Each formula is a function citing its line; ``printed=True`` is the formula
as printed (only the 1-based -> 0-based translation), ``printed=False`` the
corrected one. What is wrong as printed:

* phi (l.612, the same as levine2020 l.752): stride d_a - 1 per segment;
  with it the stated outputs carry only columns h(d_a-1) + 1 .. h(d_a-1) + m
  (m = (d_a-1)/2) of A, so columns are dropped when H >= 2; corrected stride m;
* M_V (l.624): indexed by ``i_j`` (read: the column index i) and without the
  guard ``phi(.) <= (r-H)/2`` of the statement, so it reads the nonexistent
  column phi(alpha) > (r-H)/2 of A as soon as d_x > r; corrected: the
  statement's guards (l.612), which is what "at most r nonzero rows" (l.626)
  needs.
"""

from __future__ import annotations

import numpy as np

from seprank.errors import ParameterError

PAPER = "wies2021_vocabulary_bottleneck.txt"


class PrintedFormulaUndefined(ValueError):
    """A printed formula reads an entry that does not exist.

    Examples
    --------
    >>> issubclass(PrintedFormulaUndefined, ValueError)
    True
    >>> A = np.array([[2], [3]], dtype=object)   # d = 1 column, but H = 2 segments
    >>> try:   # printed phi(4) = 3 names a third column
    ...     lemma6_MV(A, 5, H=2, d_a=3, d=1)
    ... except PrintedFormulaUndefined as exc:
    ...     print(exc)
    l.624 reads A[1, 3] but A has 1 columns (alpha=4, i=1)
    """


def check_parameters(*, r: int, H: int, d_a: int) -> int:
    """Validate (r, H, d_a) and return d = (r - H)/2 (l.608, footnote 3).

    Examples
    --------
    >>> check_parameters(r=5, H=1, d_a=3)   # (5 - 1)/2
    2
    """
    for name, v, low in (("r", r, 1), ("H", H, 1), ("d_a", d_a, 3)):
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            raise ParameterError(f"{name} must be an integer >= {low}, got {v!r}")
    if d_a % 2 == 0:
        raise ParameterError(f"d_a must be odd, got {d_a}")
    if (r - H) % 2 or r - H < 2:
        raise ParameterError(f"r - H must be even and >= 2, got r={r}, H={H}")
    return (r - H) // 2


def phi(j: int, d_a: int, *, printed: bool = True) -> int:
    """phi(j) of l.612 (1-based), read as floor((j-1)/d_a)(d_a-1) + ((j-1) mod d_a) + 1.

    Corrected: stride (d_a - 1)/2 (the number of A-coordinates per segment).

    Examples
    --------
    >>> phi(4, 3), phi(4, 3, printed=False)   # strides d_a - 1 = 2 and (d_a - 1)/2 = 1
    (3, 2)
    """
    stride = d_a - 1 if printed else (d_a - 1) // 2
    return ((j - 1) // d_a) * stride + ((j - 1) % d_a) + 1


def lemma6_target(A: np.ndarray, i: int, *, H: int, d_a: int, d: int,
                  printed_phi: bool = True) -> list:
    """The stated y^(0,j) (l.612) for token i_j = i (1-based), E = 2 rows(A); length H d_a.

    Examples
    --------
    >>> A = np.array([[2], [3]], dtype=object)   # n = 2 rows, d = 1
    >>> lemma6_target(A, 1, H=1, d_a=3, d=1), lemma6_target(A, 3, H=1, d_a=3, d=1)
    ([2, 0, 1], [0, 2, 1])
    """
    n = A.shape[0]
    m = (d_a - 1) // 2
    out = []
    for alpha in range(1, H * d_a + 1):
        pos = (alpha - 1) % d_a
        if i <= n and pos < m and phi(alpha, d_a, printed=printed_phi) <= d:
            out.append(A[i - 1, phi(alpha, d_a, printed=printed_phi) - 1])
        elif (n < i <= 2 * n and m <= pos < d_a - 1
              and phi(alpha - m, d_a, printed=printed_phi) <= d):
            out.append(A[i - n - 1, phi(alpha - m, d_a, printed=printed_phi) - 1])
        elif pos == d_a - 1:
            out.append(1)
        else:
            out.append(0)
    return out


def lemma6_MV(A: np.ndarray, V: int, *, H: int, d_a: int, d: int, printed: bool = True,
              printed_phi: bool = True) -> np.ndarray:
    """(M_V)_{alpha, i} of l.624, a d_x x V object array.

    Printed: no guard phi(.) <= (r-H)/2 (raises PrintedFormulaUndefined when a
    nonexistent column of A is read). Corrected: the guards of l.612.

    Examples
    --------
    >>> A = np.array([[2], [3]], dtype=object)
    >>> lemma6_MV(A, 5, H=1, d_a=3, d=1).tolist()   # column i is the target of token i
    [[2, 3, 0, 0, 0], [0, 0, 2, 3, 0], [1, 1, 1, 1, 1]]
    """
    n = A.shape[0]
    m = (d_a - 1) // 2
    if V < 2 * n + 1:
        raise ParameterError(f"Lemma 6 needs V >= 2((d, 3^(L-2))) + 1 = {2 * n + 1}, got {V}")
    M = np.empty((H * d_a, V), dtype=object)
    for alpha in range(1, H * d_a + 1):
        pos = (alpha - 1) % d_a
        for i in range(1, V + 1):
            col = None
            if i <= n and pos < m:
                row, col = i, phi(alpha, d_a, printed=printed_phi)
            elif n < i <= 2 * n and m <= pos < d_a - 1:
                row, col = i - n, phi(alpha - m, d_a, printed=printed_phi)
            if col is not None and not printed and col > d:
                col = None
            if col is not None:
                if col > A.shape[1]:
                    raise PrintedFormulaUndefined(
                        f"l.624 reads A[{row}, {col}] but A has {A.shape[1]} columns "
                        f"(alpha={alpha}, i={i})")
                M[alpha - 1, i - 1] = A[row - 1, col - 1]
            elif pos == d_a - 1:
                M[alpha - 1, i - 1] = 1
            else:
                M[alpha - 1, i - 1] = 0
    return M


def vocabulary_embedding(M_V: np.ndarray, tokens, P: np.ndarray | None = None) -> np.ndarray:
    """eq. (1): y^(0,j) = M_V w^(i_j) + p^j, w one-hot (templates w^i := i, l.620); N x d_x.

    Examples
    --------
    >>> M = lemma6_MV(np.array([[2], [3]], dtype=object), 5, H=1, d_a=3, d=1)
    >>> vocabulary_embedding(M, [1, 3]).tolist()   # columns 1 and 3 of M_V
    [[2, 0, 1], [0, 2, 1]]
    """
    V = M_V.shape[1]
    rows = []
    for j, i in enumerate(tokens):
        w = np.zeros(V, dtype=object)
        w[i - 1] = 1
        y = M_V.dot(w)
        if P is not None:
            y = y + P[j]
        rows.append(y)
    return np.array(rows, dtype=object)


# -- Lemma 5: convolutional embedding (B.2.1, l.572-606) --------------------------------
#
# eq. (2) (l.80): y^(0,i) = sum_{l=1}^k W_l x^(k(i-1)+l) + p^i, k = M/N, W in R^{k x d_x x d_in};
# the rank is that of W reshaped to d_x x (k d_in) (eq. (4), l.84). Lemma 5's outputs are
# eq. (15) (l.576), the same formula as Lemma 6's (``lemma6_target``, E = 2 rows(A)).
#
# As printed, W (l.588) routes coordinate alpha from slot (l, lambda) with
# alpha = k(lambda-1) + l, which exists only for alpha <= k d_in; when k d_in < d_x
# (allowed: r <= min(d_x, k d_in), l.84) the constant coordinates alpha > k d_in come
# out 0. Corrected (``packed=True``): the (at most r) coordinates that eq. (15) can make
# nonzero are sent, in increasing order, to slots 1, 2, ... (slot s = k(lambda-1) + l).


def _active(alpha: int, d_a: int, d: int, printed_phi: bool) -> bool:
    """alpha (1-based) is one of the three nonzero cases of l.588 / eq. (15)."""
    m = (d_a - 1) // 2
    pos = (alpha - 1) % d_a
    return ((pos < m and phi(alpha, d_a, printed=printed_phi) <= d)
            or (m <= pos < d_a - 1 and phi(alpha - m, d_a, printed=printed_phi) <= d)
            or pos == d_a - 1)


def conv_slots(k: int, d_x: int, d_in: int, d_a: int, d: int, *, packed: bool = False,
               printed_phi: bool = True) -> dict[int, tuple[int, int]]:
    """alpha -> (l, lambda) (1-based) read by W: printed l.588 alpha = k(lambda-1)+l, or packed.

    Examples
    --------
    >>> conv_slots(2, 6, 2, 3, 1)   # printed: the constant coordinate 6 > k d_in = 4 is lost
    {1: (1, 1), 2: (2, 1), 3: (1, 2)}
    >>> conv_slots(2, 6, 2, 3, 1, packed=True)
    {1: (1, 1), 2: (2, 1), 3: (1, 2), 6: (2, 2)}
    """
    act = [a for a in range(1, d_x + 1) if _active(a, d_a, d, printed_phi)]
    if packed:
        if len(act) > k * d_in:
            raise ParameterError(f"{len(act)} nonzero coordinates but only k d_in = {k * d_in}"
                                 " input slots")
        return {a: (s % k + 1, s // k + 1) for s, a in enumerate(act)}
    return {a: ((a - 1) % k + 1, (a - 1) // k + 1) for a in act if a <= k * d_in}


def conv_W(k: int, d_x: int, d_in: int, d_a: int, d: int, *, packed: bool = False,
           printed_phi: bool = True) -> np.ndarray:
    """W^conv_{l, alpha, lambda} of l.588 (printed) or its packed correction; (k, d_x, d_in).

    Examples
    --------
    >>> conv_W(2, 6, 2, 3, 1).shape   # (k, d_x, d_in)
    (2, 6, 2)
    >>> conv_reshaped(conv_W(2, 6, 2, 3, 1, packed=True)).sum(axis=1).tolist()   # rows fed
    [1, 1, 1, 0, 0, 1]
    """
    W = np.zeros((k, d_x, d_in), dtype=object)
    for a, (l, lam) in conv_slots(k, d_x, d_in, d_a, d, packed=packed,
                                  printed_phi=printed_phi).items():
        W[l - 1, a - 1, lam - 1] = 1
    return W


def conv_template_printed(A: np.ndarray, i: int, l: int, lam: int, *, k: int, d_a: int,
                          d: int, printed_phi: bool = True) -> object:
    """x^(j,l)_lambda of l.594 for i_j = i (1-based), psi(l, lambda) = phi(k(lambda-1) + l).

    Examples
    --------
    >>> A = np.array([[2], [3]], dtype=object)
    >>> conv_template_printed(A, 1, 1, 1, k=1, d_a=3, d=1)   # A[1, phi(1)] = A[1, 1]
    2
    """
    n = A.shape[0]
    m = (d_a - 1) // 2
    pos = (k * (lam - 1) + l - 1) % d_a

    def psi(ll):
        return phi(k * (lam - 1) + ll, d_a, printed=printed_phi)

    if i <= n and pos < m and psi(l) <= d:
        return A[i - 1, psi(l) - 1]
    if n < i <= 2 * n and m <= pos < d_a - 1 and psi(l - m) <= d:
        return A[i - n - 1, psi(l - m) - 1]
    if pos == d_a - 1:
        return 1
    return 0


def conv_templates(A: np.ndarray, i: int, *, k: int, d_x: int, d_in: int, d_a: int, d: int,
                   packed: bool = False, printed_phi: bool = True) -> np.ndarray:
    """The k inputs x^(j,1..k) (a (k, d_in) array) of one position with token i_j = i.

    Printed: l.594. Packed: slot (l, lambda) of coordinate alpha holds y_alpha of eq. (15).

    Examples
    --------
    >>> A = np.array([[2], [3]], dtype=object)
    >>> conv_templates(A, 1, k=1, d_x=3, d_in=3, d_a=3, d=1).tolist()   # k = 1: the target itself
    [[2, 0, 1]]
    """
    X = np.zeros((k, d_in), dtype=object)
    if not packed:
        for l in range(1, k + 1):
            for lam in range(1, d_in + 1):
                X[l - 1, lam - 1] = conv_template_printed(A, i, l, lam, k=k, d_a=d_a, d=d,
                                                          printed_phi=printed_phi)
        return X
    y = lemma6_target(A, i, H=d_x // d_a, d_a=d_a, d=d, printed_phi=printed_phi)
    for a, (l, lam) in conv_slots(k, d_x, d_in, d_a, d, packed=True,
                                  printed_phi=printed_phi).items():
        X[l - 1, lam - 1] = y[a - 1]
    return X


def conv_embedding(W: np.ndarray, X: np.ndarray, P: np.ndarray | None = None) -> np.ndarray:
    """eq. (2): y^(0,i) = sum_l W_l x^(k(i-1)+l) + p^i for X of shape (M, d_in); (N, d_x).

    Examples
    --------
    >>> A = np.array([[2], [3]], dtype=object)
    >>> X = conv_templates(A, 1, k=1, d_x=3, d_in=3, d_a=3, d=1)
    >>> conv_embedding(conv_W(1, 3, 3, 3, 1), X).tolist()   # W_1 is the identity here
    [[2, 0, 1]]
    """
    k = W.shape[0]
    N = X.shape[0] // k
    out = []
    for i in range(N):
        y = sum((W[l].dot(X[k * i + l]) for l in range(k)), np.zeros(W.shape[1], dtype=object))
        if P is not None:
            y = y + P[i]
        out.append(y)
    return np.array(out, dtype=object)


def conv_reshaped(W: np.ndarray) -> np.ndarray:
    """W~ in R^{d_x x (k d_in)} of eq. (4), column k(lambda-1) + l <- (l, lambda).

    Examples
    --------
    >>> W = np.array([[[0, 1]], [[2, 3]]], dtype=object)   # k = 2, d_x = 1, d_in = 2
    >>> conv_reshaped(W).tolist()   # columns (l, lambda) = (1,1), (2,1), (1,2), (2,2)
    [[0, 2, 1, 3]]
    """
    k, d_x, d_in = W.shape
    return np.array([[W[(c % k), a, c // k] for c in range(k * d_in)] for a in range(d_x)],
                    dtype=object)


def lemma5_proof_line2(A: np.ndarray, i: int, *, H: int, d_a: int, d: int, r: int) -> list:
    """The right-hand side of step (2) of Lemma 5's proof (l.600) as printed.

    Cases: A_{i, phi(alpha)} (alpha <= r, ...); A_{i - M/2, phi(alpha)} (alpha <= r, ...),
    read with M/2 := V/2 = rows(A); 1 (alpha <= r, constant coordinate); 0.

    Examples
    --------
    >>> A = np.array([[2], [3]], dtype=object)
    >>> lemma5_proof_line2(A, 1, H=1, d_a=3, d=1, r=3)
    [2, 0, 1]
    >>> try:   # second half: the printed line reads phi(alpha), not phi(alpha - m)
    ...     lemma5_proof_line2(A, 3, H=1, d_a=3, d=1, r=3)
    ... except PrintedFormulaUndefined as exc:
    ...     print(exc)
    l.600 reads A[1, 2] but A has 1 columns
    """
    n = A.shape[0]
    m = (d_a - 1) // 2
    out = []
    for alpha in range(1, H * d_a + 1):
        pos = (alpha - 1) % d_a
        if alpha <= r and i <= n and pos < m and phi(alpha, d_a) <= d:
            out.append(A[i - 1, phi(alpha, d_a) - 1])
        elif alpha <= r and n < i <= 2 * n and m <= pos < d_a - 1 and phi(alpha - m, d_a) <= d:
            c = phi(alpha, d_a)
            if c > A.shape[1]:
                raise PrintedFormulaUndefined(
                    f"l.600 reads A[{i - n}, {c}] but A has {A.shape[1]} columns")
            out.append(A[i - n - 1, c - 1])
        elif alpha <= r and pos == d_a - 1:
            out.append(1)
        else:
            out.append(0)
    return out


# -- Lemma 7: large N, repeated tokens (B.2.2, l.660-702) --------------------------------
#
# d = (r - 1 - H)/2 (r - H odd), A in N^{n x d} with equal row norms, templates w^i := i
# (i in [r]), p := 0. As printed:
# * M_V (l.670) puts token i (1 < i <= r - H) on every coordinate alpha with
#   phi(alpha) = i - 1, whatever its position in the segment, while u (l.700) wants
#   column c of A for row j_1 on first-half coordinates with phi(alpha) = c and for
#   row j_2 on second-half coordinates with phi(alpha - (d_a-1)/2) = c; with pi_Q's
#   token c + 1 + d (l.692) the two agree only by accident. Corrected: token c + 1
#   (c <= d) on the first-half coordinates with phi(alpha) = c, token c + 1 + d on the
#   second-half coordinates with phi(alpha - (d_a-1)/2) = c, the constant row as printed;
# * pi_P, pi_Q (eq. (21)-(22), l.690-692): segment floor(t/E) + 1 for t in [N/2] puts
#   t = E, 2E, ... into the next segment and reads the column floor(t/E) + 1 = d + 1 of A
#   at t = dE <= N/2 (N >= E(r-1-H), l.686); corrected: floor((t-1)/E) + 1, and the
#   filler token 1 beyond the d-th segment.


def lemma7_d(*, r: int, H: int) -> int:
    """d = (r - 1 - H)/2 (l.660, footnote 3: r - H odd).

    Examples
    --------
    >>> lemma7_d(r=6, H=1)   # (6 - 1 - 1)/2
    2
    """
    if (r - 1 - H) % 2 or r - 1 - H < 2:
        raise ParameterError(f"Lemma 7 needs r - 1 - H even and >= 2, got r={r}, H={H}")
    return (r - 1 - H) // 2


def lemma7_MV(V: int, *, r: int, H: int, d_a: int, printed: bool = True,
              printed_phi: bool = True) -> np.ndarray:
    """(M_V)_{alpha, i} of l.670 (printed) or the corrected split; a (H d_a) x V int array.

    Examples
    --------
    >>> lemma7_MV(6, r=6, H=1, d_a=3)[1].tolist()   # printed: coordinate 2 takes token 3
    [0, 0, 1, 0, 0, 0]
    >>> lemma7_MV(6, r=6, H=1, d_a=3, printed=False)[1].tolist()   # corrected: token 1 + 1 + d
    [0, 0, 0, 1, 0, 0]
    """
    d = lemma7_d(r=r, H=H)
    if V < r:
        raise ParameterError(f"Lemma 7 assumes V >= r = {r}, got V = {V}")
    m = (d_a - 1) // 2
    M = np.zeros((H * d_a, V), dtype=object)
    for alpha in range(1, H * d_a + 1):
        pos = (alpha - 1) % d_a
        for i in range(1, V + 1):
            if pos == d_a - 1:
                M[alpha - 1, i - 1] = 1
            elif printed:
                M[alpha - 1, i - 1] = int(1 < i <= r - H
                                          and phi(alpha, d_a, printed=printed_phi) == i - 1)
            elif pos < m:
                M[alpha - 1, i - 1] = int(2 <= i <= d + 1
                                          and phi(alpha, d_a, printed=printed_phi) == i - 1)
            else:
                M[alpha - 1, i - 1] = int(d + 2 <= i <= 2 * d + 1
                                          and phi(alpha - m, d_a, printed=printed_phi)
                                          == i - 1 - d)
    return M


def lemma7_WKQ(H: int, d_a: int) -> np.ndarray:
    """W^{K,1,h} = W^{Q,1,h} = 1_{i=1 and j=d_a} (l.672), each d_a x d_x; shape (H, d_a, d_x).

    Examples
    --------
    >>> lemma7_WKQ(1, 3).tolist()
    [[[0, 0, 1], [0, 0, 0], [0, 0, 0]]]
    """
    W = np.zeros((H, d_a, H * d_a), dtype=object)
    W[:, 0, d_a - 1] = 1
    return W


def lemma7_pi(A: np.ndarray, j: int, half: int, *, side: str, printed: bool = True) -> list[int]:
    """(pi_P(j))_{p_t} (eq. (21), l.690) or (pi_Q(j))_{q_t} (eq. (22), l.692), t = 1..half.

    E = max entry of A. Printed: segment s = floor(t/E) + 1, token s + 1 (+ d for Q) if
    (t-1) mod E < A_{j,s}, else 1; raises PrintedFormulaUndefined when s > d.
    Corrected: s = floor((t-1)/E) + 1 and token 1 when s > d.

    Examples
    --------
    >>> A = np.array([[1, 2]], dtype=object)   # E = 2, d = 2
    >>> lemma7_pi(A, 1, 4, side="P", printed=False)   # segment 1: one token 2; segment 2: two 3s
    [2, 1, 3, 3]
    >>> lemma7_pi(A, 1, 4, side="Q", printed=False)   # the same, shifted by d
    [4, 1, 5, 5]
    >>> try:   # printed: t = 4 falls into segment floor(4/2) + 1 = 3 > d
    ...     lemma7_pi(A, 1, 4, side="P")
    ... except PrintedFormulaUndefined as exc:
    ...     print(exc)
    eq. (21) reads A[1, 3] (t=4, E=2) but A has 2 columns
    """
    n, d = A.shape
    E = max(max(row) for row in A)
    shift = 0 if side == "P" else d
    out = []
    for t in range(1, half + 1):
        s = t // E + 1 if printed else (t - 1) // E + 1
        if s > d:
            if printed:
                raise PrintedFormulaUndefined(
                    f"eq. ({21 if side == 'P' else 22}) reads A[{j}, {s}] (t={t}, E={E}) "
                    f"but A has {d} columns")
            out.append(1)
            continue
        out.append(s + 1 + shift if (t - 1) % E < A[j - 1, s - 1] else 1)
    return out


def lemma7_u(A: np.ndarray, j1: int, j2: int, *, N: int, H: int, d_a: int,
             printed_phi: bool = True) -> list:
    """u of l.664 / l.700 (and Corollary 2, l.644), length H d_a.

    Examples
    --------
    >>> A = np.array([[1, 2], [3, 4]], dtype=object)
    >>> lemma7_u(A, 1, 2, N=8, H=1, d_a=3)   # A[1, 1], A[2, 1], then N
    [1, 3, 8]
    """
    d = A.shape[1]
    m = (d_a - 1) // 2
    out = []
    for alpha in range(1, H * d_a + 1):
        pos = (alpha - 1) % d_a
        if pos < m and phi(alpha, d_a, printed=printed_phi) <= d:
            out.append(A[j1 - 1, phi(alpha, d_a, printed=printed_phi) - 1])
        elif m <= pos < d_a - 1 and phi(alpha - m, d_a, printed=printed_phi) <= d:
            out.append(A[j2 - 1, phi(alpha - m, d_a, printed=printed_phi) - 1])
        elif pos == d_a - 1:
            out.append(N)
        else:
            out.append(0)
    return out


def lemma7_sequence(pi_P: list[int], pi_Q: list[int], P: tuple[int, ...]) -> list[int]:
    """The length-N token sequence with pi_P on positions P (in order) and pi_Q on the rest.

    Examples
    --------
    >>> lemma7_sequence([2, 1], [4, 5], (1, 3))   # positions 1, 3 from pi_P; 2, 4 from pi_Q
    [2, 4, 1, 5]
    """
    N = len(pi_P) + len(pi_Q)
    Q = [p for p in range(1, N + 1) if p not in P]
    seq = [0] * N
    for t, p in enumerate(sorted(P)):
        seq[p - 1] = pi_P[t]
    for t, q in enumerate(Q):
        seq[q - 1] = pi_Q[t]
    return seq
