"""The repaired assignments of wies2021 Lemmas 5-7 as identities in symbolic sizes.

Source: wies2021_vocabulary_bottleneck.txt, B.2.1 (Lemma 5, l.576-604) and B.2.2 (Lemma 6,
l.614-628; Lemma 7, l.656-700). Why: :mod:`.assignments` evaluates the constructions
exactly at given sizes; a lemma "for every H, d_a, r, L, N" needs the index maps checked
for every size. Each function here writes one map with symbolic indices and sizes (sympy)
and checks it as an identity; the checks W-Lemma5, W-Lemma6 and W-Lemma7 cite them.

Each function takes the piece of the construction its identity uses (the stride of phi,
the guard phi <= d, the slot the kernel reads, ...) as an argument whose default is the
corrected construction: the checks call it again with the printed or a changed piece
(:meth:`seprank.proof.steps.StepHandle.could_fail`) and see the identity fail, so each is
an identity that could have failed, not a rearrangement of its own definition (issue 30).
Facts that are only bookkeeping (division with remainder: alpha - 1 = h d_a + p with
0 <= p < d_a determines h and p) are stated in the checks' prose, not "checked" here.

Coordinates. d_a = 2m + 1 (m >= 1), d_x = H d_a; coordinate alpha = h d_a + p + 1 with
0 <= h < H (its segment) and 0 <= p <= 2m (its place in the segment): the *first half*
p < m, the *second half* m <= p < 2m, the *constant* coordinate p = 2m. By division with
remainder this is the unique way to write alpha, so phi(alpha) (l.618, read
floor((alpha-1)/d_a) * stride + ((alpha-1) mod d_a) + 1) is h * stride + p + 1 on the first
half and phi(alpha - m) = h * stride + (p - m) + 1 on the second; stride = 2m as printed,
m corrected (:func:`phi_on_the_halves`). The three classes of p cover every coordinate,
whatever H and m, so a per-class identity is an identity for every size.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from seprank.network_theory.symbolic_sums import delta_sum

__all__ = [
    "phi_on_the_halves",
    "lemma6_columns",
    "lemma5_packing",
    "lemma7_first_layer_sums",
    "lemma7_token_counts",
    "lemma7_u",
    "grid_matrix_factorizes",
    "binomial_factor_bound",
    "embedding_identities",
]

_INT = {"integer": True}
_POS = {"integer": True, "positive": True}


def phi_on_the_halves(stride: Any = None) -> dict[str, Any]:
    """phi on the first half is strictly increasing in (h, p); corrected, onto 1..H m.

    ``stride``: the corrected stride as a function of m (default ``m``); the printed
    ``2 m`` makes the check fail (the jump across segments is m + 1, not 1).

    With alpha = h d_a + p + 1, p < m: phi(alpha) = h * stride + p + 1. Within a segment the
    next coordinate adds 1; from (h, m - 1) to (h + 1, 0) it adds stride - m + 1: 1 for the
    corrected stride m (so the values are 1, 2, ..., H m, each column once), m + 1 for the
    printed stride 2m (columns h(2m) + m + 1 .. h(2m) + 2m are skipped: m of them per
    segment). The same holds for phi(alpha - m) on the second half. Hence at most d first-half
    (and d second-half) coordinates have phi <= d, for either stride.

    Examples
    --------
    >>> ev = phi_on_the_halves()
    >>> ev["holds"], ev["jump_printed"], ev["jump_corrected"]
    (True, 'm + 1', '1')
    >>> phi_on_the_halves(lambda m: 2 * m)["holds"]
    False
    """
    h, p, m, H = sp.symbols("h p m H", **_POS)
    out = {"sizes": "symbolic h, p, m, H"}
    ok = True
    corrected = m if stride is None else stride(m)
    for name, stride_ in (("printed", 2 * m), ("corrected", corrected)):
        phi = h * stride_ + p + 1
        within = sp.expand(phi.subs(p, p + 1) - phi)
        across = sp.expand(phi.subs({h: h + 1, p: 0}) - phi.subs(p, m - 1))
        out[f"jump_{name}"] = str(across)
        ok = ok and within == 1 and bool(across.is_positive)
    last = sp.expand((H - 1) * corrected + (m - 1) + 1)     # corrected phi at (H - 1, m - 1)
    out["corrected_largest_value"] = str(last)
    return out | {"holds": bool(ok and last == H * m and out["jump_corrected"] == "1")}


def _classes(m, h, p, stride):
    """(class, phi value used by the class) for the three classes of p."""
    return (("first half", h * stride + p + 1), ("second half", h * stride + (p - m) + 1),
            ("constant", None))


def lemma6_columns(guard: bool = True) -> dict[str, Any]:
    """Lemma 6: one-hot templates read column i_j of M_V; the guarded M_V's column i is l.616.

    eq. (1) with w^i := i (one-hot) and p := 0 (l.620): y^(0,j)_alpha = sum_t (M_V)_{alpha,t}
    [t = i_j] = (M_V)_{alpha, i_j} (KroneckerDelta sum, symbolic V). Then, per class of
    coordinate and for symbolic token i, row count n = ((d, 3^(L-2))) and width d, the
    l.624 entry with i_j read as the column index i and the guard phi(.) <= d of the
    statement restored equals the stated output (l.616); as printed (no guard) it differs
    exactly where phi(.) > d (it reads a column A does not have). Either stride.
    ``guard=False`` checks the entry without the restored guard, which fails.

    Examples
    --------
    >>> ev = lemma6_columns()
    >>> ev["holds"], ev["printed_differs_only_where"]["first half"]
    (True, 'd < h*stride + p + 1')
    >>> lemma6_columns(guard=False)["holds"]
    False
    """
    i, t, V, n, d, h, p, m, alpha = sp.symbols("i t V n d h p m alpha", **_POS)
    stride = sp.Symbol("stride", **_POS)
    A, M = sp.IndexedBase("A"), sp.IndexedBase("M")
    read = delta_sum(sp.KroneckerDelta(i, t) * M[alpha, t], t, V, [i])
    ok, where = read == M[alpha, i], {}
    for name, c in _classes(m, h, p, stride):
        if c is None:
            stated = guarded = printed = sp.Integer(1)
        elif name == "first half":
            stated = sp.Piecewise((A[i, c], (i <= n) & (c <= d)), (0, True))        # l.616
            guarded = sp.Piecewise((A[i, c], sp.And(i <= n, c <= d) if guard else i <= n),
                                   (0, True))
            printed = sp.Piecewise((A[i, c], i <= n), (0, True))                    # l.624
        else:
            stated = sp.Piecewise((A[i - n, c], (i > n) & (i <= 2 * n) & (c <= d)), (0, True))
            guarded = sp.Piecewise((A[i - n, c], sp.And(n < i, i <= 2 * n, c <= d) if guard
                                    else sp.And(n < i, i <= 2 * n)), (0, True))
            printed = sp.Piecewise((A[i - n, c], (n < i) & (i <= 2 * n)), (0, True))
        ok = ok and sp.simplify(guarded - stated) == 0
        if c is not None:
            gap = sp.Symbol("u", integer=True, nonnegative=True)
            diff = printed - stated
            inside = sp.simplify(diff.subs(d, c + gap)) == 0          # phi <= d: they agree
            outside = sp.simplify(diff.subs(d, c - 1 - gap)) != 0     # phi > d: they differ
            ok = ok and inside and outside
            where[name] = str(sp.Lt(d, c))
    return {"holds": bool(ok), "one_hot_read": str(read),
            "printed_differs_only_where": where,
            "sizes": "symbolic token i, V, n, d, h, p, m, stride"}


def lemma5_packing(slot: Any = None) -> dict[str, Any]:
    """Lemma 5 repaired: the packed kernel outputs any target whose support has <= k d_in places.

    Let S be the coordinates eq. (15) can make nonzero (|S| <= d + d + H = r <= k d_input)
    and pi: S -> [k d_input] their places in increasing order (injective). The packed kernel
    has W~[alpha, sigma] = [sigma = pi(alpha)] for alpha in S (rows outside S are 0) and the
    template slot sigma holds the target value T(pi^{-1}(sigma)). Then y_alpha = sum_sigma
    W~[alpha, sigma] x_sigma = T(alpha) on S (KroneckerDelta sum, symbolic k d_input) and 0 = T
    off S; W~ has |S| <= r nonzero rows, so rank <= r. The slot sigma = k(lambda - 1) + l is
    the pair (l, lambda) of eq. (2) (division with remainder). ``slot``: the slot row alpha
    of the kernel reads, as a function of alpha (default pi(alpha)); the printed kernel's
    ``alpha`` itself makes the check fail (the template holds T(alpha) at slot pi(alpha)).

    Examples
    --------
    >>> lemma5_packing()["holds"]
    True
    >>> lemma5_packing(lambda alpha: alpha)["holds"]
    False
    """
    alpha, sigma, K = sp.symbols("alpha sigma K", **_POS)
    pi, pinv, T = sp.Function("pi"), sp.Function("pinv"), sp.Function("T")
    x = sp.IndexedBase("x")
    read = pi(alpha) if slot is None else slot(alpha)
    y = delta_sum(sp.KroneckerDelta(sigma, read) * x[sigma], sigma, K, [read])
    y = y.subs(x[pi(alpha)], T(pinv(pi(alpha)))).subs(pinv(pi(alpha)), alpha)
    return {"holds": bool(y == T(alpha)), "output_on_S": str(y),
            "support_size": "|S| <= d + d + H = r (phi_on_the_halves: at most d per half)",
            "sizes": "symbolic K = k d_input, coordinates, any target T"}


def lemma7_first_layer_sums(read: Any = None) -> dict[str, Any]:
    """eq. (17)-(19): with W^Q = W^K = 1_{i=1, j=d_a} every score is (M_V)_{d_a,.}^2 = 1.

    (W y)_rho = sum_t [rho = 1][t = d_a] y_t = [rho = 1] y_{d_a}; the score sum_rho (W y^i)_rho
    (W y^j)_rho is y^i_{d_a} y^j_{d_a} (KroneckerDelta sums, symbolic d_x, d_a), and coordinate
    d_a is the constant coordinate of segment 1 (h = 0, p = 2m), where M_V is 1 for every
    token: so y^(1,i) = (sum_h W^O W^V) sum_j y^(0,j). ``read``: the input coordinate W^Q
    and W^K read, as a function of d_a (default d_a); reading coordinate 1 instead makes
    the check fail.

    Examples
    --------
    >>> lemma7_first_layer_sums()["holds"]
    True
    >>> lemma7_first_layer_sums(lambda d_a: 1)["holds"]
    False
    """
    rho, t, dx, da = sp.symbols("rho t d_x d_a", **_POS)
    yi, yj = sp.IndexedBase("yi"), sp.IndexedBase("yj")
    col = da if read is None else read(da)

    def wy(vec):
        return sp.KroneckerDelta(rho, 1) * delta_sum(sp.KroneckerDelta(t, col) * vec[t], t, dx,
                                                     [col])

    score = delta_sum(sp.expand(wy(yi) * wy(yj)), rho, da, [sp.Integer(1)])
    return {"holds": bool(sp.simplify(score - yi[da] * yj[da]) == 0),
            "score": str(score), "sizes": "symbolic d_x, d_a"}


def lemma7_token_counts(last: Any = None) -> dict[str, Any]:
    """Corrected pi (eq. (21)-(22)): token c + 1 occurs A_{j,c} times in pi_P(j), 1 <= c <= d.

    Position t = (c - 1) E + q + 1 with 0 <= q < E lies in segment floor((t-1)/E) + 1 = c and
    has (t - 1) mod E = q (division with remainder); it holds token c + 1 iff q < A_{j,c}.
    For 0 <= a <= E the count #{0 <= q < E : q < a} = sum_{q=0}^{a-1} 1 = a (symbolic a);
    positions past segment d hold the filler token 1. The same for pi_Q with tokens
    c + 1 + d. As printed, floor(t/E) + 1 puts t = cE into segment c + 1 (the last position
    of each segment moves on) and reads column d + 1 of A at t = dE: sympy evaluates
    floor(cE/E) + 1 = c + 1 for symbolic c, E. ``last``: the last q counted, as a function
    of a (default a - 1); counting q <= a instead makes the check fail.

    Examples
    --------
    >>> lemma7_token_counts()["holds"]
    True
    >>> lemma7_token_counts(lambda a: a)["holds"]
    False
    """
    a, q, E, c = sp.symbols("a q E c", **_POS)
    count = sp.Sum(1, (q, 0, a - 1 if last is None else last(a))).doit()
    printed_last = sp.floor(c * E / E) + 1                        # floor(t/E) + 1 at t = cE
    return {"holds": bool(count == a and printed_last == c + 1),
            "count": str(count), "printed_segment_of_t=cE": str(printed_last),
            "sizes": "symbolic a, E, c, q"}


def lemma7_u(offset: Any = None) -> dict[str, Any]:
    """The corrected M_V turns the token counts into u (l.700), per class, symbolic sizes.

    u_alpha = sum_tok count(tok) (M_V)_{alpha,tok}. Corrected M_V: on the first half
    (M_V)_{alpha,tok} = [tok = phi(alpha) + 1], on the second half [tok = phi(alpha - m) + 1
    + d], 1 on the constant coordinates (rows with phi > d are zero). With count(c + 1) =
    A_{j1,c}, count(c + 1 + d) = A_{j2,c} (:func:`lemma7_token_counts`) and sum_tok count =
    N, the KroneckerDelta sums over the V tokens give A_{j1, phi(alpha)}, A_{j2,
    phi(alpha - m)} and N: u as stated. Rows: at most d + d nonzero non-constant rows and
    H equal constant rows, so rank(M_V) <= 2d + 1 = r - H <= r (r - 1 - H = 2d).
    ``offset``: the token offset of the second half, as a function of d (default d); the
    printed M_V (token c + 1 on every coordinate with phi = c, offset 0) makes it fail.

    Examples
    --------
    >>> lemma7_u()["holds"]
    True
    >>> lemma7_u(lambda d: 0)["holds"]
    False
    """
    tok, V, d, N, c = sp.symbols("tok V d N c", **_POS)
    j1, j2 = sp.symbols("j1 j2", **_POS)
    A = sp.IndexedBase("A")
    count = sp.Function("count")
    shift = d if offset is None else offset(d)
    first = delta_sum(sp.KroneckerDelta(tok, c + 1) * count(tok), tok, V, [c + 1])
    second = delta_sum(sp.KroneckerDelta(tok, c + 1 + shift) * count(tok), tok, V,
                       [c + 1 + shift])
    counts = {count(c + 1): A[j1, c], count(c + 1 + d): A[j2, c]}
    ok = first.subs(counts) == A[j1, c] and second.subs(counts) == A[j2, c]
    return {"holds": bool(ok), "first_half": str(first.subs(counts)),
            "second_half": str(second.subs(counts)), "constant": "sum_tok count(tok) = N",
            "rank": "2d + 1 = r - H <= r (r - 1 - H = 2d)",
            "sizes": "symbolic V, d, c (= phi of the coordinate), rows j1, j2"}


def grid_matrix_factorizes(column_side: str = "b") -> dict[str, Any]:
    """Claim 1 (l.542-546): R separable terms give a grid matrix U V^T, of rank <= R.

    If y = sum_{r<R} g_r(P-inputs) g'_r(Q-inputs), the matrix G[a, b] = y(p_a, q_b) of any
    template lists (repetitions allowed; tokens or vectors) has G[a, b] = sum_r U[a, r]
    V[b, r] with U[a, r] = g_r(p_a), V[b, r] = g'_r(q_b): the entry of U V^T (sympy
    MatrixSymbols of symbolic sizes). Its columns lie in the span of the R columns of U, so
    rank G <= R = sep. ``column_side``: the template index the Q-side factor is read at
    (default ``"b"``); reading it at the row template ``"a"`` makes the check fail.

    Examples
    --------
    >>> grid_matrix_factorizes()["holds"]
    True
    >>> grid_matrix_factorizes("a")["holds"]
    False
    """
    R, rows, cols = sp.symbols("R rows cols", **_POS)
    a, b, r = sp.symbols("a b r", integer=True, nonnegative=True)
    U, V = sp.MatrixSymbol("U", rows, R), sp.MatrixSymbol("V", cols, R)
    entry = (U * V.T)[a, b]
    want = sp.Sum(U[a, r] * V[{"a": a, "b": b}[column_side], r], (r, 0, R - 1))
    return {"holds": bool(entry.dummy_eq(want)), "entry": str(want),
            "sizes": "symbolic R, numbers of row and column templates"}


def binomial_factor_bound(ratio: Any = None) -> dict[str, Any]:
    """C(N, K) >= (N/K)^K (Lemma 4's proof, l.570) for every 1 <= K <= N, symbolically.

    C(N, K) = prod_{i<K} (N - i)/(K - i) (sympy checks the quotient of consecutive
    terms, C(N, K+1)/C(N, K) = (N - K)/(K + 1)), and each factor is >= N/K because
    K (N - i) - N (K - i) = i (N - K) >= 0 for 0 <= i < K <= N. With N = n + k - 1,
    K = n - 1 this is ((n, k)) = C(n+k-1, n-1) >= ((n+k-1)/(n-1))^(n-1), n >= 2.
    ``ratio``: the claimed quotient of consecutive binomials, as a function of (N, K)
    (default (N - K)/(K + 1)); (N - K)/K makes the check fail.

    Examples
    --------
    >>> binomial_factor_bound()["holds"]
    True
    >>> binomial_factor_bound(lambda N, K: (N - K) / K)["holds"]
    False
    """
    N, K, i = sp.symbols("N K i", integer=True, nonnegative=True)
    claimed = (N - K) / (K + 1) if ratio is None else ratio(N, K)
    quotient = sp.combsimp(sp.binomial(N, K + 1) / sp.binomial(N, K))
    step_ok = sp.simplify(quotient - claimed) == 0
    slack = sp.factor(K * (N - i) - N * (K - i))
    return {"holds": bool(step_ok and sp.simplify(slack - i * (N - K)) == 0),
            "consecutive_ratio": str(quotient), "factor_slack": str(slack),
            "sizes": "symbolic N, K, i"}


def embedding_identities(token_column: Any = None) -> dict[str, Any]:
    """eqs. (1)-(4) for every size: one-hot tokens read a column; a patch is one index.

    eq. (1): (M_V w^i)_p = sum_t (M_V)_{p,t} [t = w_i] = (M_V)_{p, w_i} (KroneckerDelta sum,
    symbolic V). eq. (2) -> eq. (4): sum_{j=1}^{k} sum_{c=1}^{d_in} W_{j,p,c} x^{k(i-1)+j}_c
    is sum_{sigma=1}^{k d_in} tilde W_{p,sigma} z_sigma with sigma = k(c-1) + j (the pair
    (j, c) read back by division with remainder, stated in words), z the stacked patch: a
    reindexing of a finite sum by a bijection. ``token_column``: the column the one-hot
    token w selects, as a function of w (default w); w + 1 makes the check fail.

    Examples
    --------
    >>> embedding_identities()["holds"]
    True
    >>> embedding_identities(lambda w: w + 1)["holds"]
    False
    """
    p, t, V, w = sp.symbols("p t V w", **_POS)
    M = sp.IndexedBase("M_V")
    hot = w if token_column is None else token_column(w)
    column = delta_sum(sp.KroneckerDelta(hot, t) * M[p, t], t, V, [hot])
    return {"holds": bool(column == M[p, w]),
            "one_hot_column": str(column), "patch_index": "sigma = k (c - 1) + j",
            "sizes": "symbolic V, k, d_input"}
