"""Exact rank over Q from several primes: a lower bound mod p, kernel vectors by p-adic lifting.

For an integer matrix A (m x n) whose rank may be below min(m, n):

1. Rank mod a prime (a certified lower bound r, with a minor A[R, C] that is
   nonsingular mod p: the lower certificate). A further prime (up to
   ``rank_primes``) is used only when step 4 fails, i.e. when the first prime
   was unlucky (or, as a cheap cross-check, when r = min(m, n) or r = 0); the
   prime with the largest rank is kept.
2. If r = min(m, n), the rank is exact. Otherwise build the kernel in standard
   form: for each non-pivot column f, x_f = 1 and x_C = -A[R, C]^-1 A[R, f].
   The solve is done by p-adic lifting (Dixon): one inverse of A[R, C] mod q,
   then each step solves for the next q-adic digit and divides the residual
   by q exactly. When the entries are small enough (the usual case) the
   digits are computed with float64 BLAS products: q < 2^21 is chosen with
   r (q-1)^2 < 2^53, so M^-1 mod q times the residual mod q is exact in
   float64 (delayed reduction), and the exact residual update
   (R - M x) / q is done with M split into float64-exact chunks, summed
   modulo 2^64 and divided by q as multiplication by q^-1 mod 2^64 (exact
   division: the true quotient is bounded by max(|B|, r |M|) < 2^62, so its
   residue mod 2^64 determines it). Larger entries use the same loop with
   FLINT integer matrices.
3. Early termination (output-sensitive lifting): the lifting also tracks two
   random combinations y = X w of the solution columns; at geometrically
   spaced digit counts (and at a float64 estimate from log|det M|) they are
   rationally reconstructed. Once that succeeds, their common denominator d
   is taken for all columns: the numerators d X are read off as symmetric
   residues from only as many digits as y's numerators need (about half of
   those needed for reconstruction), and if the exact check fails, all
   columns are reconstructed from all digits (vector rational
   reconstruction, starting from d). A Hadamard bound on numerators and
   denominators (Cramer's rule) caps the digits: past it, the prime of step 1
   was unlucky.
4. Verify A x = 0 exactly (integer matrix product) for the reconstructed
   vectors. n - r independent kernel vectors prove rank <= r: with the lower
   bound, the rank is exact. (The certificate is then re-checkable by
   :func:`seprank.verify`, which shares no code with this module.)

If every prime so far was unlucky (rank over Q larger than r), no such kernel
exists, step 4 keeps failing, and the answer stays a lower bound; the result
says which primes were used.

The left kernel is used instead when m < n (fewer vectors).

References
----------
J. D. Dixon, "Exact solution of linear equations using p-adic expansions",
Numer. Math. 40, 1982. J. von zur Gathen, J. Gerhard, Modern Computer Algebra, 3rd ed., ch. 5
(Chinese remaindering, rational reconstruction); H. Cohen, A Course in
Computational Algebraic Number Theory, Alg. 2.3.1 (kernel from echelon form).
Z. Chen, A. Storjohann, "A BLAS based C library for exact linear algebra on
integer matrices", ISSAC 2005 (float64 BLAS digits with delayed reduction,
output-sensitive lifting); J.-G. Dumas, T. Gautier, C. Pernet, "Finite field
linear algebra subroutines", ISSAC 2002 (exact float64 products mod p).
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from math import ceil, gcd, isqrt, log2

import flint
import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from seprank.linalg.certificates import LowerBoundCertificate, UpperBoundCertificate
from seprank.scalars.primes import prev_prime
from seprank.scalars.reconstruction import rational_reconstruction

__all__ = ["MultimodularResult", "rank_multimodular"]

#: Primes for the rank phase, below the numba engine's 2^26 limit.
FIRST_PRIME = 67108859
#: Primes for the FLINT lifting (entries too large for the float64 path): word-size,
#: so that each digit carries ~62 bits.
LIFTING_PRIMES = (4611686018427387847, 4611686018427387817, 4611686018427387787)
#: Upper limit on p-adic digits of the kernel solve before giving up (the
#: Hadamard bound usually stops it much earlier).
DEFAULT_MAX_DIGITS = 2**16
#: The float64 lifting primes stay below this, so that three digits fit in an int64.
_FAST_PRIME_CAP = 2**21
#: Digit products r x r x k below this many multiply-adds run on one BLAS thread.
_SMALL_GEMM = 2**26


@dataclass
class MultimodularResult:
    """Rank over Q, whether it is exact, both certificates and the primes used.

    ``exact`` is True only when the upper-bound certificate (kernel vectors
    verified by an exact product) meets the lower bound.

    Examples
    --------
    >>> import flint
    >>> res = rank_multimodular(flint.fmpz_mat([[1, 2], [2, 4]]))
    >>> res.rank, res.exact, len(res.upper.vectors)     # one kernel vector, e.g. (-2, 1)
    (1, True, 1)
    """

    rank: int
    exact: bool
    lower: LowerBoundCertificate
    upper: UpperBoundCertificate | None
    primes: list[int] = field(default_factory=list)


def _as_int64(z: flint.fmpz_mat) -> np.ndarray | None:
    """The entries of ``z`` as an int64 array, or None if one needs more than 62 bits."""
    m, n = z.nrows(), z.ncols()
    try:
        arr = np.array([int(x) for x in z.entries()], dtype=np.int64).reshape(m, n)
    except OverflowError:
        return None
    if arr.size and int(np.abs(arr).max()) >= 2**62:
        return None
    return arr


def _rank_mod(z: flint.fmpz_mat, zint: np.ndarray | None, p: int, use_numba: bool):
    m, n = z.nrows(), z.ncols()
    if use_numba:
        from seprank.linalg.modular_lu import rank_profile_mod_p

        if zint is not None:
            arr = (zint % p).astype(np.float64)
        else:
            arr = np.array([int(x) % p for x in z.entries()], dtype=np.float64).reshape(m, n)
        r, rows, cols = rank_profile_mod_p(arr, p, overwrite=True)
        return r, list(rows), list(cols)
    from seprank.linalg.flint_engine import lower_certificate, reduce_mod_p

    r, cert = lower_certificate(reduce_mod_p(z, p))
    return r, list(cert.rows), list(cert.cols)


def _reconstruct_column(values: list[int], modulus: int, den: int = 1
                        ) -> tuple[list[int], int] | None:
    """Numerators and a common denominator d of rationals = ``values`` mod ``modulus``.

    Vector rational reconstruction (von zur Gathen-Gerhard sec. 5.10, applied
    entry by entry with the denominator found so far): returns (nums, d) with
    nums[i] = d values[i] (mod modulus), |nums[i]|, d <= sqrt(modulus / 2), or None.
    ``den`` is a starting guess for d (a multiple of it is found if needed).
    """
    half = modulus // 2
    bound = isqrt(half)
    if den > bound:
        return None
    nums: list[int] = []
    for x in values:
        y = (int(x) * den) % modulus
        if y > half:
            y -= modulus
        if -bound <= y <= bound:
            nums.append(y)
            continue
        f = rational_reconstruction(y, modulus)
        if f is None or f.denominator * den > bound:
            return None
        extra = f.denominator
        nums = [v * extra for v in nums]
        den *= extra
        nums.append(f.numerator)
    if any(not -bound <= v <= bound for v in nums):  # d grew after them
        return None
    return nums, den


def _combine(blocks: list, base) -> object:
    """sum_i blocks[i] base^i by binary splitting (quasi-linear in the count)."""
    if len(blocks) == 1:
        return blocks[0]
    h = len(blocks) // 2
    return _combine(blocks[:h], base) + _combine(blocks[h:], base) * (base ** h)


def _hadamard_bits(cols_sq: np.ndarray, r: int) -> float:
    """log2 of the product of the r largest column norms: bounds every r x r minor."""
    if r == 0:
        return 0.0
    norms = np.sort(cols_sq)[::-1][:r]
    return float(0.5 * np.sum(np.log2(np.maximum(norms, 1.0)))) + 1.0


def _kernel_vectors(X: flint.fmpz_mat, modulus: int, den_hint: int, cols, free, n: int,
                    num_bound: int | None = None):
    """Integer standard-form kernel vectors from X = -M^-1 B mod ``modulus``, or None.

    All columns are scaled by a common denominator ``den_hint`` in one C call
    (then most entries are already numerators); a column that needs a larger
    denominator is reconstructed on its own and its denominator becomes the hint.
    With ``num_bound`` (numerators expected below it, from fewer digits than
    reconstruction needs) a column outside the bound is retried with the hint times
    a small factor (2..256): a factor of the common denominator can cancel in the
    random combinations that gave the hint. The caller's exact product decides.
    """
    k = X.ncols()
    ctx = flint.fmpz_mod_ctx(modulus)
    Xm = flint.fmpz_mod_mat(X, ctx)
    half = modulus // 2
    bound = min(num_bound, half) if num_bound else isqrt(half)
    raw = None
    vectors = []
    hint = den_hint
    entries = [int(x) for x in (Xm * hint).entries()]
    for c, f in enumerate(free):
        nums = [x - modulus if x > half else x for x in entries[c::k]]
        den = hint
        if not all(-bound <= x <= bound for x in nums) and num_bound:
            for fct in range(2, 257):  # the hint misses a small factor?
                cand = [(x * fct) % modulus for x in nums]
                cand = [x - modulus if x > half else x for x in cand]
                if all(-bound <= x <= bound for x in cand):
                    nums, den = cand, hint * fct
                    hint = den
                    entries = [int(x) for x in (Xm * hint).entries()]
                    break
            else:
                return None
        elif not all(-bound <= x <= bound for x in nums):  # the hint misses a factor
            if raw is None:
                raw = [int(x) for x in X.entries()]
            res = _reconstruct_column(raw[c::k], modulus, hint)
            if res is None:
                return None
            nums, den = res
            hint = den
            entries = [int(x) for x in (Xm * hint).entries()]
        g = den
        for v in nums:
            g = gcd(g, v)
            if g == 1:
                break
        vec = [0] * n
        vec[f] = den // g
        for i, j in enumerate(cols):
            vec[j] = nums[i] // g
        vectors.append(vec)
    return vectors


_BLAS_THREADS: list[int] = []


def _blas_threads() -> int:
    """BLAS threads as configured before any local limit (read once)."""
    if not _BLAS_THREADS:
        info = [d.get("num_threads", 1) for d in threadpool_info() if d.get("user_api") == "blas"]
        _BLAS_THREADS.append(max(info or [1]))
    return _BLAS_THREADS[0]


def _verified_blas(Aint: np.ndarray, vectors: list[list[int]], max_floats: int = 2**22,
                   max_chunks: int = 4) -> bool | None:
    """True iff A K = 0 exactly (K: the vectors as columns), by float64 BLAS; None if
    A's entries are too large for it.

    K is split into signed limbs of c bits and A, unless it fits in 53 - c - log2(n)
    bits, into signed chunks of c bits (at most ``max_chunks``), with every
    chunk-by-limb product below 2^51, so exact in float64; the
    products are summed per bit position t (a + l = t) in int64 and checked with
    exact carry propagation: A K = sum_t P_t 2^(ct) is zero iff every partial
    sum is divisible by 2^c and the final carry is zero.
    """
    m, n = Aint.shape
    k = len(vectors)
    if m == 0 or k == 0:
        return True
    amax = int(np.abs(Aint).max())
    if amax == 0:
        return True
    room = 53 - n.bit_length() - 3   # bits of |chunk| |limb| with n terms summed exactly
    if amax.bit_length() + 16 <= room:  # A in one chunk, wider limbs for K
        c, nA = room - amax.bit_length(), 1
        Ach = Aint.astype(np.float64)
    else:
        c = room // 2
        nA = ceil(amax.bit_length() / c)
        if nA > max_chunks:
            return None
        Aabs, Asgn = np.abs(Aint), np.sign(Aint)
        Ach = np.concatenate([(Asgn * ((Aabs >> (c * a)) & ((1 << c) - 1)))
                              for a in range(nA)]).astype(np.float64)
    mask = (1 << c) - 1
    maxbits = max(abs(x).bit_length() for v in vectors for x in v)
    L = max(1, ceil(maxbits / c))
    nwords = (L * c) // 64 + 2
    per = max(1, max_floats // (nA * m * L))
    for v0 in range(0, k, per):
        vs = vectors[v0:v0 + per]
        kb = len(vs)
        flat = [x for v in vs for x in v]
        buf = b"".join(abs(x).to_bytes(8 * nwords, "little") for x in flat)
        words = np.frombuffer(buf, dtype=np.uint64).reshape(kb * n, nwords)
        limbs = np.empty((kb * n, L), dtype=np.int64)
        for l in range(L):
            w, sh = divmod(c * l, 64)
            val = words[:, w] >> np.uint64(sh)
            if sh + c > 64:
                val = val | (words[:, w + 1] << np.uint64(64 - sh))
            limbs[:, l] = (val & np.uint64(mask)).astype(np.int64)
        sgn = np.fromiter((-1 if x < 0 else 1 for x in flat), dtype=np.int64, count=kb * n)
        limbs *= sgn[:, None]
        # columns ordered (limb, vector), products as int64 blocks P[a, l] (m x kb)
        Kl = limbs.reshape(kb, n, L).transpose(1, 2, 0).reshape(n, L * kb).astype(np.float64)
        with threadpool_limits(limits=_blas_threads(), user_api="blas"):  # a large product
            P = Ach @ Kl
        P = P.reshape(nA, m, L, kb).transpose(0, 2, 1, 3).astype(np.int64, order="C")
        carry = np.zeros((m, kb), dtype=np.int64)
        for t in range(nA + L - 1):
            s = carry
            for a in range(max(0, t - L + 1), min(nA, t + 1)):
                s = s + P[a, t - a]
            if np.any(s & mask):
                return False
            carry = s >> c
        if carry.any():
            return False
    return True


def _verified(A: flint.fmpz_mat, vectors: list[list[int]], n: int,
              Aint: np.ndarray | None = None) -> bool:
    """True iff A K = 0 exactly, K the vectors as columns (float64 limbs or FLINT K^T A^T)."""
    if Aint is not None:
        ok = _verified_blas(Aint, vectors)
        if ok is not None:
            return ok
    Kt = flint.fmpz_mat([list(v) for v in vectors])
    return (Kt * A.transpose()).is_zero()


def _schedule(n_digits: int) -> int:
    """Next digit count at which to try reconstruction (geometric, ratio ~1.25)."""
    return max(n_digits + 2, (5 * n_digits) // 4)


def _target_digits(M: np.ndarray, B: np.ndarray, q: int, cap: int) -> int:
    """Digit count likely to suffice, from a float64 estimate of log|det M| and of M^-1 B.

    Denominators divide det M and Cramer numerators are det M times the solution
    entries, so reconstruction needs about 2 log|det M| + log max|x| bits (plus
    the 20-bit weights of the combination y). Only a schedule hint: the checks
    do not depend on it being right.
    """
    try:
        sign, logdet = np.linalg.slogdet(M.astype(np.float64))
        x = np.linalg.solve(M.astype(np.float64), B.astype(np.float64))
        xmax = float(np.abs(x).max()) if x.size else 1.0
    except np.linalg.LinAlgError:
        return cap
    if sign == 0 or not np.isfinite(logdet) or not np.isfinite(xmax):
        return cap
    bits = 2 * logdet / np.log(2) + np.log2(max(xmax, 1.0)) + np.log2(B.shape[1] + 1) + 24
    return max(1, min(cap, int(bits / log2(q)) + 1))


def _dixon_fast(A: flint.fmpz_mat, Aint: np.ndarray, rows, cols, free, max_digits: int,
                rng: np.random.Generator):
    """Kernel vectors by float64-BLAS Dixon lifting; None if unlucky, "slow" if not applicable."""
    n = Aint.shape[1]
    M = np.ascontiguousarray(Aint[np.ix_(rows, cols)])
    B = -np.ascontiguousarray(Aint[np.ix_(rows, free)])
    r, k = B.shape
    mmax = int(np.abs(M).max()) if M.size else 0
    bmax = int(np.abs(B).max()) if B.size else 0
    if max(bmax, (r + 1) * mmax) >= 2**61:
        return "slow"
    # prime q: r (q-1)^2 < 2^53 (digit product exact in float64), q < 2^21 (3 digits < 2^63)
    q = prev_prime(min(isqrt(2**53 // max(r, 1)), _FAST_PRIME_CAP))
    Minv = None
    for _ in range(4):
        try:
            Minv = flint.nmod_mat(r, r, M.ravel().tolist(), q).inv()
            break
        except ZeroDivisionError:
            q = prev_prime(q)
    if Minv is None:
        return None
    Minv = np.array([int(x) for x in Minv.entries()], dtype=np.float64).reshape(r, r)
    # M in signed chunks of c bits: r 2^c (q-1) <= 2^53 keeps each chunk product exact
    c = (2**53 // (r * (q - 1))).bit_length() - 1
    Mabs, Msgn = np.abs(M), np.sign(M)
    chunks = []
    shift = 0
    while True:
        chunks.append((shift, (Msgn * ((Mabs >> shift) & ((1 << c) - 1))).astype(np.float64)))
        shift += c
        if (mmax >> shift) == 0:
            break
    qinv = np.uint64(pow(q, -1, 2**64))
    # digit budget from Hadamard's bound on numerators and denominators (Cramer),
    # for the combination y = X w (|w_c| < 2^20) too
    sq = np.concatenate([(M.astype(np.float64) ** 2).sum(axis=0),
                         (B.astype(np.float64) ** 2).sum(axis=0)])
    hb = _hadamard_bits(sq, r)
    need_bits = 2 * hb + log2(k + 1) + 24
    cap = min(max_digits, int(need_bits / log2(q)) + 2)
    target = _target_digits(M, B, q, cap)
    W = rng.integers(1, 2**20, size=(k, 2), dtype=np.int64)  # two combinations y = X W
    R = B.copy()
    qq = flint.fmpz(q)
    group: list[np.ndarray] = []      # pending digits (at most 3) of the current super-digit
    supers: list[np.ndarray] = []  # super-digits base q^3 (int64 r x k; to FLINT on use)
    converted: dict[int, flint.fmpz_mat] = {}
    ydigits: list[np.ndarray] = []
    y_done = 0
    Y = flint.fmpz_mat(2 * r, 1)
    check = 4
    for digit in range(1, cap + 1):
        rm = (R % q).astype(np.float64)
        xint = (Minv @ rm).astype(np.int64) % q   # exact: r (q-1)^2 < 2^53
        xi = xint.astype(np.float64)
        S = None
        for sh, ch in chunks:
            part = (ch @ xi).astype(np.int64).view(np.uint64)
            if sh:
                part = part << np.uint64(sh)
            S = part if S is None else S + part
        R = ((R.view(np.uint64) - S) * qinv).view(np.int64)   # exact (R - M xi) / q
        group.append(xint)
        ydigits.append((xint @ W).ravel())   # |.| < k 2^41: exact in int64
        if len(group) == 3:
            g0, g1, g2 = group
            supers.append(g0 + q * (g1 + q * g2))   # < q^3 < 2^63
            group = []
        if digit < check and digit != target and digit < cap:
            continue
        check = _schedule(digit)
        # y = X w mod q^digit, from the new digits
        modulus = q ** digit
        new = ydigits[y_done:]
        if new:
            cols_y = [flint.fmpz_mat(2 * r, 1, d.tolist()) for d in new]
            Ynew = _combine(cols_y, qq)
            Y = Y + Ynew * (qq ** y_done)
            y_done = digit
        yent = Y.entries()  # converted lazily: a failed attempt stops at its first entries
        ry = _reconstruct_column(yent[0::2], modulus)
        if ry is None:
            continue
        # second combination, from the first one's denominator: a factor of the
        # common denominator that cancels in one combination (probability ~1/p for
        # a small prime p) rarely cancels in both
        ry2 = _reconstruct_column(yent[1::2], modulus, ry[1])
        if ry2 is None:
            continue
        ry = (ry[0] + ry2[0], ry2[1])
        # the denominator d is known now: numerators N = d X need only enough digits
        # for |N| < q^t / 2, estimated from y's numerators (|y| ~ 2^20 max|N|); the
        # exact verification decides, and on failure all digits are used
        ybits = max(abs(v) for v in ry[0]).bit_length() + 4
        short = ceil(ybits / (3 * log2(q)))  # super-digits
        for nsup in ([short, None] if short < len(supers) else [None]):
            for i in range(len(supers) if nsup is None else nsup):
                if i not in converted:
                    converted[i] = flint.fmpz_mat(r, k, supers[i].ravel().tolist())
            if nsup is None:
                blocks = [converted[i] for i in range(len(supers))]
                if group:
                    tail = np.zeros_like(group[0])
                    for t in reversed(group):
                        tail = tail * q + t
                    blocks.append(flint.fmpz_mat(r, k, tail.ravel().tolist()))
                t_digits = digit
            else:
                blocks = [converted[i] for i in range(nsup)]
                t_digits = 3 * nsup
            X = _combine(blocks, qq ** 3)
            vectors = _kernel_vectors(X, q ** t_digits, ry[1], cols, free, n,
                                      num_bound=None if nsup is None else 2**ybits)
            if vectors is not None and _verified(A, vectors, n, Aint):
                return vectors, q
    return None


def _dixon_flint(A: flint.fmpz_mat, rows, cols, free, p: int, max_digits: int,
                 rng: np.random.Generator):
    """Kernel vectors by Dixon lifting in FLINT integer matrices (any entry size), or None."""
    n = A.ncols()
    M = flint.fmpz_mat([[A[i, j] for j in cols] for i in rows])
    B = flint.fmpz_mat([[-A[i, f] for f in free] for i in rows])
    try:
        Minv = flint.nmod_mat(M, p).inv()
    except ZeroDivisionError:
        return None
    r, k = B.nrows(), B.ncols()
    sq = np.array([sum(int(M[i, j]) ** 2 for i in range(r)) for j in range(r)]
                  + [sum(int(B[i, j]) ** 2 for i in range(r)) for j in range(k)], dtype=object)
    bits = sorted((x.bit_length() / 2 for x in sq), reverse=True)[:r]
    need_bits = 2 * (sum(bits) + 1) + log2(k + 1) + 24
    cap = min(max_digits, int(need_bits / log2(p)) + 2)
    w = flint.fmpz_mat(k, 1, [int(v) for v in rng.integers(1, 2**20, size=k)])
    digits: list[flint.fmpz_mat] = []
    residual = B
    check = 1
    for digit in range(1, cap + 1):
        xi_mod = Minv * flint.nmod_mat(residual, p)
        xi = flint.fmpz_mat(r, k, [int(x) for x in xi_mod.entries()])
        digits.append(xi)
        residual = (residual - M * xi) / p
        if digit < check and digit < cap:
            continue
        check = _schedule(digit)
        X = _combine(digits, flint.fmpz(p))
        modulus = p ** digit
        ry = _reconstruct_column([int(v) for v in (X * w).entries()], modulus)
        if ry is None:
            continue
        vectors = _kernel_vectors(X, modulus, ry[1], cols, free, n)
        if vectors is not None and _verified(A, vectors, n):
            return vectors
    return None


def rank_multimodular(z: flint.fmpz_mat, *, max_digits: int = DEFAULT_MAX_DIGITS,
                      rank_primes: int = 2, use_numba: bool = True,
                      seed: int | None = 0, first_prime: int | None = None
                      ) -> MultimodularResult:
    """Rank of the integer matrix ``z`` over Q by the multi-modular method.

    Steps and references: see the module docstring (rank mod primes for the
    lower bound; Dixon p-adic lifting with float64 BLAS digits and rational
    reconstruction for the kernel; exact verification for the upper bound).
    ``seed`` fixes the random combination used for early termination (it
    affects only speed, never the answer). ``first_prime`` (a prime below
    2^26; default ``FIRST_PRIME``) starts the rank phase: ``seprank.rank``'s
    ``auto`` passes a random one, which no input can be built to fool.

    Examples
    --------
    >>> import flint
    >>> # Third row = first + second, so the rank over Q is 2 (and the answer is exact).
    >>> res = rank_multimodular(flint.fmpz_mat([[1, 0, 2], [0, 1, 3], [1, 1, 5]]))
    >>> res.rank, res.exact, res.primes[0] == FIRST_PRIME
    (2, True, True)
    """
    transpose = z.nrows() < z.ncols()
    A = z.transpose() if transpose else z  # kernel of A (columns) = left kernel of z
    m, n = A.nrows(), A.ncols()
    Aint = _as_int64(A) if m * n else None
    _blas_threads()
    rng = np.random.default_rng(seed)
    primes: list[int] = []
    best = None
    lifted: set[int] = set()  # ranks for which the kernel was already sought
    p = FIRST_PRIME if first_prime is None else first_prime
    for i in range(max(rank_primes, 1)):
        r, rows, cols = _rank_mod(A, Aint, p, use_numba)
        primes.append(p)
        if best is None or r > best[0]:
            best = (r, rows, cols, p)
        p = prev_prime(p)
        r, rows, cols, p_best = best
        if (r == min(m, n) or r == 0) and i + 1 < rank_primes:
            continue  # cheap cases: the other primes are recorded as a cross-check
        if r == min(m, n):
            lower = _lower(rows, cols, p_best, transpose)
            return MultimodularResult(r, True, lower,
                                      UpperBoundCertificate(bound=r, side="trivial"), primes)
        if r in lifted:  # this prime agrees with an earlier one: nothing new to lift
            continue
        lifted.add(r)
        found = _kernel(A, Aint, r, rows, cols, n, max_digits, rng)
        if found is not None:
            vectors, q = found
            if q is not None:
                primes.append(q)
            free = [j for j in range(n) if j not in set(cols)]
            upper = UpperBoundCertificate(bound=r, side="left" if transpose else "right",
                                          vectors=tuple(tuple(v) for v in vectors),
                                          pivots=tuple(free))
            return MultimodularResult(r, True, _lower(rows, cols, p_best, transpose),
                                      upper, primes)
    r, rows, cols, p_best = best
    return MultimodularResult(r, False, _lower(rows, cols, p_best, transpose), None, primes)


def _lower(rows, cols, p: int, transpose: bool) -> LowerBoundCertificate:
    lower_rows, lower_cols = (cols, rows) if transpose else (rows, cols)
    return LowerBoundCertificate(prime=p, rows=tuple(lower_rows), cols=tuple(lower_cols))


def _kernel(A, Aint, r, rows, cols, n, max_digits, rng):
    """(kernel vectors, lifting prime or None) for the rank profile (rows, cols), or None."""
    pivset = set(cols)
    free = [j for j in range(n) if j not in pivset]
    if r == 0:  # the zero matrix (if the prime is right): the unit vectors span the kernel
        vectors = [[int(i == f) for i in range(n)] for f in free]
        return (vectors, None) if _verified(A, vectors, n) else None
    if Aint is not None:
        # small products: BLAS threads cost more than they save (measured)
        small = r * r * len(free) < _SMALL_GEMM
        with threadpool_limits(limits=1, user_api="blas") if small else nullcontext():
            fast = _dixon_fast(A, Aint, rows, cols, free, max_digits, rng)
        if fast != "slow":
            return fast
    for q in LIFTING_PRIMES:
        vectors = _dixon_flint(A, rows, cols, free, q, max_digits, rng)
        if vectors is not None:
            return vectors, q
    return None
