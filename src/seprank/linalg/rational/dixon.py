"""Kernel vectors of an integer matrix by p-adic lifting (Dixon), for the multimodular method.

Steps 2 and 3 of :mod:`seprank.linalg.rational.multimodular`: given a rank profile
(rows R, columns C with A[R, C] nonsingular mod a prime), the standard-form
kernel x_f = 1, x_C = -A[R, C]^-1 A[R, f] (f a free column) is solved by
lifting: one inverse mod q, then one q-adic digit per step with an exact
division of the residual by q. :func:`dixon_fast` computes the digits with
float64 BLAS products (q < 2^21 with r (q-1)^2 < 2^53; the residual update with
M in float64-exact chunks, summed modulo 2^64 and divided by q as a product by
q^-1 mod 2^64), when the entries fit; :func:`dixon_flint` does the same in
FLINT integer matrices for any entry size. Both track random combinations y =
X w of the solution columns and reconstruct them at geometrically spaced digit
counts (output-sensitive early termination), then read every column with the
denominator found, and stop at a Hadamard bound on numerators and denominators
(Cramer's rule). Every answer is checked exactly (:mod:`seprank.linalg.rational.kernel_check`).

References
----------
J. D. Dixon, "Exact solution of linear equations using p-adic expansions",
Numer. Math. 40, 1982. J. von zur Gathen, J. Gerhard, Modern Computer Algebra,
3rd ed., sec. 5.10 (rational reconstruction). Z. Chen, A. Storjohann, "A BLAS
based C library for exact linear algebra on integer matrices", ISSAC 2005
(float64 BLAS digits, output-sensitive lifting).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from math import ceil, gcd, isqrt, log2

import flint
import numpy as np

from seprank.linalg.rational.kernel_check import kernel_is_zero
from seprank.scalars.primes import prev_prime
from seprank.scalars.reconstruction import rational_reconstruction

__all__ = ["dixon_fast", "dixon_flint", "LiftingStopped", "lifting_limits"]

#: The float64 lifting primes stay below this, so that three digits fit in an int64.
_FAST_PRIME_CAP = 2**21
#: Bytes held per digit and kernel entry (r x k digits, their combination X and the
#: products' temporaries), for the memory check of :func:`lifting_limits`.
BYTES_PER_DIGIT_ENTRY = 64

#: (deadline on time.perf_counter(), max bytes, seconds) of the lifting in progress, or None.
LIMITS: ContextVar[tuple[float, float, float] | None] = ContextVar("dixon_limits", default=None)


class LiftingStopped(RuntimeError):
    """The lifting passed the time or memory limit of :func:`lifting_limits` (no answer:
    the caller keeps its lower bound).

    >>> str(LiftingStopped("lifting stopped at the time limit of 5 s (digit 12)"))
    'lifting stopped at the time limit of 5 s (digit 12)'
    """


@contextmanager
def lifting_limits(seconds: float, max_bytes: float):
    """Stop every Dixon lifting inside the block after ``seconds`` (wall time) or once its
    digits would hold more than ``max_bytes`` (:data:`BYTES_PER_DIGIT_ENTRY` per digit and
    kernel entry): :class:`LiftingStopped` is raised between two digits.

    The lifting is output-sensitive (it stops as soon as the kernel vectors reconstruct),
    so its cost is not known before it runs; its worst case (the Hadamard bound's digits)
    is usually far above it. These limits make it keep the caller's budget.

    >>> A = flint.fmpz_mat([[1, 0, 2], [0, 1, 3]])
    >>> with lifting_limits(60.0, 2**30):
    ...     dixon_flint(A, [0, 1], [0, 1], [2], 1000003, 50, np.random.default_rng(0))
    [[-2, -3, 1]]
    >>> with lifting_limits(-1.0, 2**30):
    ...     dixon_flint(A, [0, 1], [0, 1], [2], 1000003, 50, np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    seprank.linalg.rational.dixon.LiftingStopped: lifting stopped at the time limit of -1 s ...
    """
    token = LIMITS.set((time.perf_counter() + seconds, max_bytes, seconds))
    try:
        yield
    finally:
        LIMITS.reset(token)


def check_limits(digit: int, r: int, k: int) -> None:
    """Raise :class:`LiftingStopped` past the time or memory of :func:`lifting_limits`.

    >>> check_limits(10, 5, 5) is None          # no limits set: nothing to check
    True
    >>> with lifting_limits(60.0, 10):
    ...     check_limits(10, 5, 5)
    Traceback (most recent call last):
    ...
    seprank.linalg.rational.dixon.LiftingStopped: lifting stopped at digit 10: about ...
    """
    limits = LIMITS.get()
    if limits is None:
        return
    deadline, max_bytes, seconds = limits
    if time.perf_counter() > deadline:
        raise LiftingStopped(f"lifting stopped at the time limit of {seconds:.3g} s "
                             f"(digit {digit})")
    held = BYTES_PER_DIGIT_ENTRY * digit * r * k
    if held > max_bytes:
        raise LiftingStopped(f"lifting stopped at digit {digit}: about {held / 2**30:.3g} GiB "
                             f"held, over the limit of {max_bytes / 2**30:.3g} GiB")


def reconstruct_column(values: list[int], modulus: int, den: int = 1
                        ) -> tuple[list[int], int] | None:
    """Numerators and a common denominator d of rationals = ``values`` mod ``modulus``.

    Vector rational reconstruction (von zur Gathen-Gerhard sec. 5.10, applied
    entry by entry with the denominator found so far): returns (nums, d) with
    nums[i] = d values[i] (mod modulus), |nums[i]|, d <= sqrt(modulus / 2), or None.
    ``den`` is a starting guess for d (a multiple of it is found if needed).

    >>> reconstruct_column([pow(3, -1, 10007), 5], 10007)     # 1/3 and 5 = 15/3
    ([1, 15], 3)
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
            res = reconstruct_column(raw[c::k], modulus, hint)
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


def digit_schedule(n_digits: int) -> int:
    """Next digit count at which to try reconstruction (geometric, ratio ~1.25).

    >>> [digit_schedule(n) for n in (1, 8, 40)]
    [3, 10, 50]
    """
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


@dataclass
class _FastLifting:
    """What the float64 lifting needs, fixed before the first digit (see :func:`dixon_fast`).

    ``M``, ``B``: A[R, C] and -A[R, free] (int64); ``q``: the lifting prime;
    ``Minv``: M^-1 mod q (float64); ``chunks``: M in signed float64-exact chunks
    (shift, chunk); ``qinv``: q^-1 mod 2^64; ``cap``: the Hadamard digit cap;
    ``target``: the float64 estimate of the digits needed.
    """

    M: np.ndarray
    B: np.ndarray
    q: int
    Minv: np.ndarray
    chunks: list
    qinv: np.uint64
    cap: int
    target: int


def _fast_setup(Aint: np.ndarray, rows, cols, free, max_digits: int):
    """The lifting's fixed parts; "slow" if the entries are too large, None if no q found."""
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
    # digit budget from Hadamard's bound on numerators and denominators (Cramer),
    # for the combination y = X w (|w_c| < 2^20) too
    sq = np.concatenate([(M.astype(np.float64) ** 2).sum(axis=0),
                         (B.astype(np.float64) ** 2).sum(axis=0)])
    need_bits = 2 * _hadamard_bits(sq, r) + log2(k + 1) + 24
    cap = min(max_digits, int(need_bits / log2(q)) + 2)
    return _FastLifting(M, B, q, Minv, chunks, np.uint64(pow(q, -1, 2**64)), cap,
                        _target_digits(M, B, q, cap))


def _next_digit(lift: _FastLifting, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The next q-adic digit x = M^-1 R mod q, and the exact residual (R - M x) / q."""
    q = lift.q
    rm = (R % q).astype(np.float64)
    xint = (lift.Minv @ rm).astype(np.int64) % q   # exact: r (q-1)^2 < 2^53
    xi = xint.astype(np.float64)
    S = None
    for sh, ch in lift.chunks:
        part = (ch @ xi).astype(np.int64).view(np.uint64)
        if sh:
            part = part << np.uint64(sh)
        S = part if S is None else S + part
    return xint, ((R.view(np.uint64) - S) * lift.qinv).view(np.int64)   # exact (R - M xi) / q


def _reconstruct_y(Y: flint.fmpz_mat, modulus: int) -> tuple[list[int], int] | None:
    """Numerators and common denominator of the two combinations y (interleaved in Y).

    The second is reconstructed from the first one's denominator: a factor of the
    common denominator that cancels in one combination (probability ~1/p for a
    small prime p) rarely cancels in both.
    """
    yent = Y.entries()  # converted lazily: a failed attempt stops at its first entries
    ry = reconstruct_column(yent[0::2], modulus)
    if ry is None:
        return None
    ry2 = reconstruct_column(yent[1::2], modulus, ry[1])
    if ry2 is None:
        return None
    return ry[0] + ry2[0], ry2[1]


def _vectors_from_digits(A, Aint, q: int, supers: list, group: list, converted: dict,
                         ry, digit: int, cols, free, n: int):
    """Kernel vectors from the digits so far and y's denominator, checked exactly; or None.

    The denominator d is known: numerators N = d X need only enough digits for
    |N| < q^t / 2, estimated from y's numerators (|y| ~ 2^20 max|N|); the exact
    verification decides, and on failure all digits are used.
    """
    r, k = len(cols), len(free)
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
        X = _combine(blocks, flint.fmpz(q) ** 3)
        vectors = _kernel_vectors(X, q ** t_digits, ry[1], cols, free, n,
                                  num_bound=None if nsup is None else 2**ybits)
        if vectors is not None and kernel_is_zero(A, vectors, n, Aint):
            return vectors
    return None


def dixon_fast(A: flint.fmpz_mat, Aint: np.ndarray, rows, cols, free, max_digits: int,
               rng: np.random.Generator):
    """Kernel vectors by float64-BLAS Dixon lifting: (vectors, q); None if unlucky,
    "slow" if the entries are too large for float64 digits (then :func:`dixon_flint`).

    Digits are grouped by three into int64 super-digits base q^3 (q < 2^21), taken
    to FLINT only when a reconstruction is tried (at :func:`digit_schedule`'s digit
    counts and at the float64 estimate of :func:`_target_digits`).

    Examples
    --------
    >>> A = flint.fmpz_mat([[1, 0, 2], [0, 1, 3]])
    >>> Aint = np.array([[1, 0, 2], [0, 1, 3]], dtype=np.int64)
    >>> dixon_fast(A, Aint, [0, 1], [0, 1], [2], 50, np.random.default_rng(0))[0]
    [[-2, -3, 1]]
    """
    n = Aint.shape[1]
    lift = _fast_setup(Aint, rows, cols, free, max_digits)
    if lift is None or lift == "slow":
        return lift
    q, (r, k) = lift.q, lift.B.shape
    W = rng.integers(1, 2**20, size=(k, 2), dtype=np.int64)  # two combinations y = X W
    R = lift.B.copy()
    qq = flint.fmpz(q)
    group: list[np.ndarray] = []      # pending digits (at most 3) of the current super-digit
    supers: list[np.ndarray] = []  # super-digits base q^3 (int64 r x k; to FLINT on use)
    converted: dict[int, flint.fmpz_mat] = {}
    ydigits: list[np.ndarray] = []
    y_done = 0
    Y = flint.fmpz_mat(2 * r, 1)
    check = 4
    for digit in range(1, lift.cap + 1):
        check_limits(digit, r, k)
        xint, R = _next_digit(lift, R)
        group.append(xint)
        ydigits.append((xint @ W).ravel())   # |.| < k 2^41: exact in int64
        if len(group) == 3:
            g0, g1, g2 = group
            supers.append(g0 + q * (g1 + q * g2))   # < q^3 < 2^63
            group = []
        if digit < check and digit != lift.target and digit < lift.cap:
            continue
        check = digit_schedule(digit)
        # y = X w mod q^digit, from the new digits
        new = ydigits[y_done:]
        if new:
            cols_y = [flint.fmpz_mat(2 * r, 1, d.tolist()) for d in new]
            Y = Y + _combine(cols_y, qq) * (qq ** y_done)
            y_done = digit
        ry = _reconstruct_y(Y, q ** digit)
        if ry is None:
            continue
        vectors = _vectors_from_digits(A, Aint, q, supers, group, converted, ry, digit,
                                       cols, free, n)
        if vectors is not None:
            return vectors, q
    return None


def dixon_flint(A: flint.fmpz_mat, rows, cols, free, p: int, max_digits: int,
                 rng: np.random.Generator):
    """Kernel vectors by Dixon lifting in FLINT integer matrices (any entry size), or None.

    ``rows``, ``cols``: a rank profile of A (A[rows, cols] nonsingular mod p),
    ``free``: the other columns; one standard-form vector per free column.

    Examples
    --------
    >>> A = flint.fmpz_mat([[1, 0, 2], [0, 1, 3]])
    >>> dixon_flint(A, [0, 1], [0, 1], [2], 1000003, 50, np.random.default_rng(0))
    [[-2, -3, 1]]
    """
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
        check_limits(digit, r, k)
        xi_mod = Minv * flint.nmod_mat(residual, p)
        xi = flint.fmpz_mat(r, k, [int(x) for x in xi_mod.entries()])
        digits.append(xi)
        residual = (residual - M * xi) / p
        if digit < check and digit < cap:
            continue
        check = digit_schedule(digit)
        X = _combine(digits, flint.fmpz(p))
        modulus = p ** digit
        ry = reconstruct_column([int(v) for v in (X * w).entries()], modulus)
        if ry is None:
            continue
        vectors = _kernel_vectors(X, modulus, ry[1], cols, free, n)
        if vectors is not None and kernel_is_zero(A, vectors, n):
            return vectors
    return None
