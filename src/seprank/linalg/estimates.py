"""What a rank computation needs, from the shape, the entries' size and the method alone.

Issue 23 item 1 for :func:`seprank.rank`: each step of a :class:`~seprank.linalg.planner.RankPlan`
has an :class:`~seprank.budget.Estimate` (peak bytes beyond the input, operations by kind),
checked against the budget before the step allocates (:mod:`seprank.budget`):

* the rank mod p on an engine (:func:`mod_p_estimate`): the float64 residues and the
  LU workspace on the residue engines (numba, cuda), or the ``nmod_mat`` and the Python
  lists it is built from on flint; m n min(m, n) multiply-adds;
* the multimodular method once the rank mod p, r, is known (:func:`multimodular_estimate`):
  the rank phase again, the n - r kernel vectors as Python integers, and the p-adic
  digits of X = M^-1 B, whose numerators have up to r (b + log2 r) bits (Hadamard);
* ``fmpz_mat.rank`` (:func:`fmpz_estimate`): fraction-free elimination holds minors of up
  to r (b + log2 r) bits in every entry (measured: 1000 x 1000 of rank 200 with 3-bit
  entries, 463 bytes per entry, 10.5 s); r is the rank mod p when known, else min(m, n);
* the float SVD (:func:`float_estimate`).

The bytes per entry are upper bounds measured with ``tests/test_budget_peaks.py`` (peak RSS
in a subprocess against the estimate).

>>> e = mod_p_estimate((1000, 1000), "numba")
>>> e.nbytes - BASE_BYTES, e.operations
(16000000, 1000000000)
"""

from __future__ import annotations

import math

from seprank.budget import BASE_BYTES, Estimate, format_count

__all__ = ["mod_p_estimate", "lu_rank_work", "multimodular_estimate", "fmpz_estimate",
           "float_estimate", "entry_bits", "plan_estimate", "method_workspace", "verify_estimate"]

#: Bytes per entry of a rank mod p on a residue engine: the float64 residues (the LU
#: works in place) and the transient int64 residues they are made from.
_RESIDUE_ENGINE_BYTES = 16
#: ... when the input is an ``fmpz_mat``: its entries pass through Python integers.
_RESIDUE_FROM_EXACT_BYTES = 52
#: Bytes per entry of a rank mod p on flint from an integer array (its Python lists of
#: residues, then the nmod_mat) and from an fmpz_mat (the nmod_mat alone).
_NMOD_FROM_ARRAY_BYTES = 56
_NMOD_FROM_EXACT_BYTES = 16
#: Bytes per entry of a kernel vector held as a Python integer (object, list and tuple
#: slots), beyond its digits (the numerators of X: :func:`_lifting_bits`).
_KERNEL_ENTRY_BYTES = 64
#: Bytes per entry of fmpz_mat elimination beyond its digits (the Python lists the matrix
#: was read from, the fmpz_mat), and the growth of the digits held at once.
_FMPZ_ENTRY_BYTES = 96
_FMPZ_DIGIT_FACTOR = 1.25
#: Bytes per entry of numpy's SVD: the float64 copy, the bidiagonalisation's workspace.
_SVD_BYTES = 96


def entry_bits(matrix: object) -> int:
    """Bits of the largest entry of an integer numpy array or an ``fmpz_mat`` (64 for
    anything else; at least 1).

    >>> import numpy as np
    >>> entry_bits(np.array([[3, -9]])), entry_bits([[1]])
    (4, 64)
    """
    import numpy as np

    if isinstance(matrix, np.ndarray) and matrix.dtype.kind in "iu":
        if not matrix.size:
            return 1
        big = max(abs(int(matrix.max())), abs(int(matrix.min())))
        return max(big.bit_length(), 1)
    try:
        import flint

        if isinstance(matrix, flint.fmpz_mat):
            entries = matrix.entries()
            return max(int(max(map(abs, entries))).bit_length(), 1) if entries else 1
    except ImportError:  # pragma: no cover
        pass
    return 64


def _shape_words(shape) -> str:
    return f"{format_count(shape[0])} x {format_count(shape[1])}"


def mod_p_estimate(shape: tuple[int, int], engine: str, *, primes: int = 1,
                   from_exact: bool = False, what: str = "the rank mod p") -> Estimate:
    """A rank mod p of an m x n matrix on ``engine`` (``primes`` of them, one at a time).

    >>> mod_p_estimate((10, 10), "flint", primes=2).operations
    2000
    """
    from seprank.linalg.engines import get_engine
    from seprank.linalg.engines.protocol import RESIDUES

    m, n = shape
    residues = get_engine(engine).takes == RESIDUES
    if residues:
        per = _RESIDUE_FROM_EXACT_BYTES if from_exact else _RESIDUE_ENGINE_BYTES
    else:
        per = _NMOD_FROM_EXACT_BYTES if from_exact else _NMOD_FROM_ARRAY_BYTES
    ops = primes * m * n * min(m, n)
    return Estimate(what, nbytes=BASE_BYTES + per * m * n,
                    work=((ops, "modular" if residues else "nmod"),),
                    fixed_seconds=1.0 if residues else 0.0,
                    detail=f"{_shape_words(shape)} on the {engine} engine")


#: Short sides at which the numba LU runs at the rates ``lu_small``, ``lu`` and
#: ``lu_large`` (:data:`seprank.budget.RATES`): blocked kernels reach BLAS speed near 2000,
#: and the rate still rises 2.4x from 2000 to 8000 (``benchmarks/lu_rate.py``); in
#: between, the rate is interpolated linearly.
LU_TIERS = ((500, "lu_small"), (2000, "lu"), (8000, "lu_large"))


def lu_rank_work(m: int, n: int, p: int | None = None) -> tuple[tuple[float, str], ...]:
    """The work of one rank mod ``p`` of an m x n matrix on the numba LU: m n min(m, n)
    multiply-adds. At the engine's own primes (``p`` None or below the top of its
    ``auto_primes``) they run at the rate of the short side's tier (:data:`LU_TIERS`):
    ``lu_small`` up to 500, ``lu`` at 2000, ``lu_large`` from 8000 on; between two tiers
    the operations are split between their kinds so that the seconds follow a rate
    rising linearly (1 / (share / slow + (1 - share) / fast)); above the engine's primes,
    at the rate ``modular`` (the prime lets only a few products accumulate between
    reductions).

    >>> lu_rank_work(400, 300)
    ((36000000, 'lu_small'),)
    >>> work = lu_rank_work(1000, 1000)
    >>> [k for _, k in work], round(sum(o for o, _ in work))
    (['lu_small', 'lu'], 1000000000)
    >>> [k for _, k in lu_rank_work(11783, 11440)], [k for _, k in lu_rank_work(5155, 5005)]
    (['lu_large'], ['lu', 'lu_large'])
    >>> lu_rank_work(10, 10, 2**31 - 1)
    ((1000, 'modular'),)
    """
    from seprank.budget import RATES
    from seprank.linalg.engines import get_engine

    short = min(m, n)
    ops = m * n * short
    if p is not None and p >= get_engine("numba").auto_primes[1]:
        return ((ops, "modular"),)
    if short <= LU_TIERS[0][0]:
        return ((ops, LU_TIERS[0][1]),)
    for (lo, slow_kind), (hi, fast_kind) in zip(LU_TIERS, LU_TIERS[1:], strict=False):
        if short >= hi:
            continue
        slow, fast = RATES[slow_kind].per_second, RATES[fast_kind].per_second
        rate = slow + (short - lo) / (hi - lo) * (fast - slow)
        share = (1 / rate - 1 / fast) / (1 / slow - 1 / fast)
        if share >= 1:
            return ((ops, slow_kind),)
        return ((ops * share, slow_kind), (ops * (1 - share), fast_kind))
    return ((ops, LU_TIERS[-1][1]),)


def _lifting_bits(r: int, bits: int) -> float:
    """Bits of the numerators of X = M^-1 B (Hadamard's bound on r x r minors)."""
    return r * (bits + math.log2(max(r, 2)) / 2) + 1


def multimodular_estimate(shape: tuple[int, int], r: int, bits: int) -> Estimate:
    """The multimodular method on an m x n matrix with b-bit entries whose rank mod p is r:
    its rank phase, the k - r kernel vectors (k = min(m, n)) and the lifting's digits.

    >>> e = multimodular_estimate((4000, 4000), 100, 8)
    >>> e.nbytes > 4000 * 3900 * 64
    True
    """
    m, n = shape
    k = min(m, n)
    free = k - r
    xbits = _lifting_bits(r, bits)
    digits = r * free * xbits / 8
    # each kernel entry: a Python int of xbits (in a list, then a tuple) and, while A K = 0
    # is checked, float64 limbs of about 20 bits (seprank.linalg.rational.kernel_check)
    kernel = free * k * (_KERNEL_ENTRY_BYTES + 1.5 * xbits / 8 + 8 * (xbits / 20 + 1))
    peak = max(_RESIDUE_ENGINE_BYTES * m * n, kernel + 2 * digits)
    lift_ops = 4.0 * r * r * free * xbits / 20
    check_ops = float(m) * n * free * max(1.0, (xbits + bits) / 40)
    return Estimate("the multimodular method", nbytes=BASE_BYTES + int(peak),
                    work=((2 * m * n * k, "modular"), (lift_ops, "float"), (check_ops, "float"),
                          (free * k * max(xbits / 64, 1), "python")),
                    fixed_seconds=1.0,
                    detail=f"{_shape_words(shape)}, rank mod p {r}: {free} kernel vectors of "
                           f"about {format_count(xbits)} bits per entry")


def fmpz_estimate(shape: tuple[int, int], r: int | None, bits: int, *,
                  certify: bool = False) -> Estimate:
    """``fmpz_mat.rank`` (fraction-free elimination) of an m x n matrix with b-bit entries
    and rank r (None: unknown, min(m, n)); ``certify`` adds the RREF's kernel vectors.

    >>> fmpz_estimate((1000, 1000), 200, 11).nbytes > 1000 * 1000 * 463   # measured 463
    True
    """
    m, n = shape
    k = min(m, n)
    r = k if r is None else r
    xbits = _lifting_bits(r, bits)
    per = _FMPZ_ENTRY_BYTES + _FMPZ_DIGIT_FACTOR * xbits / 8
    words = max(xbits / 64, 1.0)
    work = [(float(m) * n * max(r, 1) * words, "flint")]
    if certify:
        work.append((float(m) * n * k * words, "flint"))
    return Estimate("fmpz_mat.rank", nbytes=BASE_BYTES + int(per * m * n * (2 if certify else 1)),
                    work=tuple(work),
                    detail=f"{_shape_words(shape)}, rank up to {r}, minors of about "
                           f"{format_count(xbits)} bits")


def float_estimate(shape: tuple[int, int]) -> Estimate:
    """numpy's SVD of an m x n float64 matrix: the copy and the SVD's workspace.

    >>> float_estimate((100, 100)).nbytes - BASE_BYTES
    960000
    """
    m, n = shape
    return Estimate("the float SVD", nbytes=BASE_BYTES + _SVD_BYTES * m * n,
                    work=((4.0 * m * n * min(m, n), "float"),), detail=_shape_words(shape))


def plan_estimate(plan) -> Estimate:
    """The first step of a :class:`~seprank.linalg.planner.RankPlan`: what it holds and does
    before any answer is known (the later steps of ``auto`` are checked when they start,
    with the rank mod p in hand: :func:`multimodular_estimate`, :func:`fmpz_estimate`).

    >>> from seprank.linalg.planner import plan_rank
    >>> plan_estimate(plan_rank([[1, 2], [2, 4]])).what
    'auto: the ranks mod p'
    """
    shape, exact = plan.shape, plan._exact is not None
    if plan.field == "RR":
        return float_estimate(shape)
    if plan.modulus is not None or plan.method == "modular":
        return mod_p_estimate(shape, plan.engine, from_exact=exact,
                              what=f"{plan.method_asked}: the rank mod p")
    if plan.method == "auto":
        return mod_p_estimate(shape, plan.engine, primes=plan.primes.count, from_exact=exact,
                              what="auto: the ranks mod p")
    bits = entry_bits(plan._exact.zmat if exact else plan._input)
    if plan.method == "multimodular":
        k = min(shape)
        worst = max((multimodular_estimate(shape, r, bits) for r in
                     {0, k // 3, k // 2, (2 * k) // 3, max(k - 1, 0)}), key=lambda e: e.nbytes)
        return worst
    return fmpz_estimate(shape, None, bits, certify=plan.certify)


def method_workspace(method: str, shape: tuple[int, int], bits: int = 64) -> int:
    """Bytes the first step of ``method`` holds beyond an m x n integer array (before the
    planner has chosen an engine: the residue engines from ``NUMBA_MIN_DIM``, else flint).
    What :func:`seprank.files.matrix_io.load_matrix` checks from a ``.npy`` header.

    >>> method_workspace("auto", (1000, 1000)) - BASE_BYTES, method_workspace("float", (1, 1))
    (16000000, 4194400)
    """
    from seprank.linalg.engines.numba_lu import NUMBA_MIN_DIM

    m, n = shape
    if method == "float":
        return float_estimate(shape).nbytes
    if method in ("auto", "modular", "cuda"):
        engine = "numba" if min(shape) >= NUMBA_MIN_DIM or method == "cuda" else "flint"
        return mod_p_estimate(shape, engine).nbytes
    if method == "multimodular":
        k = min(shape)
        return max(multimodular_estimate(shape, r, bits).nbytes
                   for r in {0, k // 3, k // 2, (2 * k) // 3, max(k - 1, 0)})
    return fmpz_estimate(shape, None, bits).nbytes


#: Bytes per matrix entry of :func:`seprank.verify`: its snapshot (a list slot, the int)
#: and the residues of its checks (measured: 32 B/entry full rank, 40 B/entry with an
#: identity kernel).
_VERIFY_ENTRY_BYTES = 48


def _shape_of(matrix: object) -> tuple[int, int] | None:
    """The shape of a matrix without reading its entries (None: not known cheaply)."""
    shape = getattr(matrix, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 2:
        return int(shape[0]), int(shape[1])
    if hasattr(matrix, "nrows") and hasattr(matrix, "ncols"):
        return matrix.nrows(), matrix.ncols()
    if isinstance(matrix, (list, tuple)):
        first = matrix[0] if matrix else ()
        return len(matrix), len(first) if isinstance(first, (list, tuple)) else 0
    return None


def verify_estimate(matrix: object, claim=None) -> Estimate | None:
    """:func:`seprank.verify` of ``matrix``: its snapshot and, given the certificate as
    read (``claim``, :func:`seprank.linalg.verifier.snapshot.read_claim`; None: the matrix
    alone, checked before the certificate is read), the kernel vectors' residues and
    A K = 0 modulo enough primes of 21 bits (measured with tests/budget_probe.py:
    1300 MiB for 2000 x 2000 of rank 100, 1900 vectors of 1300-bit entries). None when the
    shape is not known without reading the entries. Reads only the matrix's shape and the
    snapshot: the caller's certificate is never read twice.

    >>> from seprank.linalg.verifier.snapshot import read_claim
    >>> import seprank
    >>> claim = read_claim(seprank.rank([[1, 2], [2, 4]], certify=True))
    >>> verify_estimate([[1, 2], [2, 4]], claim).what
    'verifying the certificate'
    """
    shape = _shape_of(matrix)
    if shape is None:
        return None
    m, n = shape
    upper = getattr(claim, "upper", None)
    vectors = upper.vectors if upper is not None and upper.vectors else ()
    k = len(vectors)
    length = len(vectors[0]) if k else 0
    vbits = max((abs(x).bit_length() for v in vectors[:16] for x in v), default=1)
    r = min(m, n)
    primes = (vbits + 64) / 21 + 1
    # the vectors' snapshot, and their int64 and float64 residues modulo every prime of
    # the check (measured: 368 B per entry for 361-bit vectors, 21 primes)
    nbytes = _VERIFY_ENTRY_BYTES * m * n + k * length * (16 + 2 * vbits / 8 + 16 * primes)
    work = ((float(m) * n * k * primes, "modular"), (float(r) ** 3, "nmod"),
            (m * n, "python"))
    return Estimate("verifying the certificate", nbytes=BASE_BYTES + int(nbytes), work=work,
                    detail=f"{_shape_words(shape)}, {k} kernel vectors of {vbits}-bit entries")
