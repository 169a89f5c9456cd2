"""Re-check rank certificates with code that shares nothing with the engines.

The verifier is this module and four beside it, each named for what it holds:

* :mod:`~seprank.linalg.verifier.snapshot`: the snapshot. The matrix and every
  field of the certificate or result are read once, into plain Python ints and
  strings in containers of the verifier's own; every bound below is derived from
  that snapshot alone and the caller's objects are never read again (issue 23,
  item 3: a field read twice can answer twice, differently);
* :mod:`~seprank.linalg.verifier.elimination`: det A[R, C] != 0 mod p, by its own
  blocked elimination (float64 with delayed reduction for p < 2^31, products
  split in two from 2^21; int64 with long-double quotients below 2^62; Python
  integers above);
* :mod:`~seprank.linalg.verifier.kernel`: A K = 0, exactly, by its own product;
* :mod:`~seprank.linalg.verifier.primes`: its own deterministic Miller-Rabin
  (SymPy above 3.3e24) and the moduli of the kernel product.

Shares no code with the engines: these modules import nothing from
:mod:`seprank.linalg` but one another and the certificate and result classes
(data, no arithmetic), and nothing else from seprank but :mod:`seprank.errors`;
not the engines, not the input reader they use, not their primality test.
Measured (benchmarks/results/verify_cost.*): from n = 1000 on, checking a
certificate costs at most 3x computing it, for every input kind there.

What it trusts, what it refuses
-------------------------------
It trusts the snapshot and its own arithmetic, nothing else: not the
certificate's ``bound`` property, not ``len`` or ``==`` of the caller's objects,
not the engines. What it reads exactly (the rules are those of
:mod:`~seprank.linalg.verifier.snapshot`):

* matrix entries: ``int``, ``fractions.Fraction``, numpy integer scalars, flint
  ``fmpz``/``fmpq``, SymPy rationals; numpy arrays of an *integer* dtype (int64
  below 2^62 taken as an array, vectorized; other integer dtypes exactly through
  Python ints, uint64 included), object arrays entry by entry. Floats, bools,
  strings, subclasses of ``int`` and objects that pose as ints raise InputError;
  a residue matrix may hold floats only if they are integers below 2^53;
* certificate fields (primes, indices, bounds, vector entries): ``int``, numpy
  integer scalars, flint ``fmpz``, in ``tuple``/``list``/integer arrays; sides,
  kinds and fields: ``str``. Anything else (a float, a bool, a Fraction, a
  subclass of int, tuple, list or str, a certificate or result of a subclass
  type) makes the verdict False. Primes must be prime (2 and 3 are fine: a minor
  nonzero mod any prime is a nonzero integer), indices in range and distinct.

What is checked
---------------
Lower bound (prime p, rows R, cols C): p is prime; R and C are lists of r
distinct in-range indices; det A[R, C] != 0 mod p after clearing each row's
denominators (a nonzero integer row scaling). Then rank_Q(A) >= r (or
rank_GF(p)(A) >= r for a matrix over GF(p), whose modulus must be p). The bound
is r = len(R) of the snapshot.

Upper bound (kernel vectors K): each vector has the right length and lies in
the kernel exactly (mod p for a matrix over GF(p); a left kernel is that of the
matrix whose rows are each multiplied by the lcm of their denominators, the
engines' integer form); the vectors are independent because at ``pivots[j]``
vector j is nonzero and all others are zero. Then rank <= (n or m) - len(K),
which must be <= the claimed bound. The "trivial" upper certificate claims
only rank <= min(m, n).

A RankResult: its certificate is checked as above, and must prove the value
and kind the result claims, over the field it names, for a matrix of its shape.
"""

from __future__ import annotations

from seprank.linalg.certificates import LowerBoundCertificate, UpperBoundCertificate
from seprank.linalg.verifier.elimination import det_nonzero_mod_p
from seprank.linalg.verifier.kernel import product_is_zero
from seprank.linalg.verifier.primes import isprime
from seprank.linalg.verifier.snapshot import (
    Claim,
    LowerSnap,
    MatrixSnapshot,
    UpperSnap,
    read_claim,
)

__all__ = ["verify", "verify_lower", "verify_upper"]

#: the names the verifier's tests have always imported from here
_isprime = isprime
_det_nonzero_mod_p = det_nonzero_mod_p


def _lower_holds(A: MatrixSnapshot, low: LowerSnap) -> bool:
    """det A[rows, cols] != 0 mod the certificate's prime, all from the snapshot."""
    p, rows, cols = low
    if not isprime(p):
        return False
    if A.modulus is not None and A.modulus != p:
        return False
    if len(rows) != len(cols) or len(set(rows)) != len(rows) or len(set(cols)) != len(cols):
        return False
    if any(not (0 <= i < A.m) for i in rows) or any(not (0 <= j < A.n) for j in cols):
        return False
    return det_nonzero_mod_p(A.minor(rows, cols), p)


def _upper_holds(A: MatrixSnapshot, up: UpperSnap) -> bool:
    """The kernel vectors are independent, in the kernel, and prove rank <= bound."""
    bound, side, vecs, piv, mod = up
    if side == "trivial":
        return len(vecs) == 0 and bound >= min(A.m, A.n)
    if side not in ("right", "left"):
        return False
    if mod != A.modulus or (mod is not None and not isprime(mod)):
        return False
    length = A.n if side == "right" else A.m
    if len(piv) != len(vecs) or len(set(piv)) != len(piv):
        return False
    if any(len(v) != length for v in vecs) or any(not (0 <= c < length) for c in piv):
        return False
    for j, v in enumerate(vecs):  # independence: a diagonal block at the pivots
        for k, c in enumerate(piv):
            x = v[c] % mod if mod else v[c]
            if (x != 0) != (j == k):
                return False
    if length - len(vecs) > bound:
        return False
    if not vecs:
        return True
    M = A.int_matrix()
    K = [list(c) for c in zip(*vecs, strict=True)]  # the vectors as columns
    if side == "right":  # A K = 0
        return product_is_zero(M, K, mod)
    # left kernel of the matrix whose rows are cleared of denominators: A^T Y = 0
    if not isinstance(M, list):   # the snapshot's own int64 array
        return product_is_zero(M.T.copy(), K, mod)
    Mt = [list(c) for c in zip(*M, strict=True)] if M else []
    return product_is_zero(Mt, K, mod)


def _claim_holds(A: MatrixSnapshot, claim: Claim) -> bool:
    """Every part of the claim, as read, is proven for the matrix as read."""
    low, up = claim.lower, claim.upper
    if not claim.readable or (low is None and up is None):
        return False
    if low is not None and not _lower_holds(A, low):
        return False
    if up is not None and not _upper_holds(A, up):
        return False
    lo = len(low.rows) if low is not None else None
    hi = up.bound if up is not None else None
    if lo is not None and hi is not None and lo > hi:
        return False
    if claim.kind is None:       # a bare certificate: its own bounds are the claim
        return True
    if claim.field != ("QQ" if A.modulus is None else f"GF({A.modulus})") \
            or claim.shape != (A.m, A.n):
        return False
    value = claim.value
    if claim.kind == "exact":
        return lo is not None and hi is not None and lo == value == hi
    if claim.kind == "lower_bound":
        return lo is not None and lo >= value
    if claim.kind == "upper_bound":
        return hi is not None and hi <= value
    return False


def verify(matrix: object, certificate: object) -> bool:
    """Re-check ``certificate`` against ``matrix``; True iff every part holds.

    ``certificate`` may be a RankCertificate (both parts are checked, and they
    must not contradict each other), a LowerBoundCertificate, an
    UpperBoundCertificate, or a RankResult carrying one (then the certificate
    must also prove the result's value and kind, over its field, for its shape).
    See the module docstring for what is checked.

    What it trusts: a snapshot taken at entry and its own arithmetic, nothing
    else. The certificate (or result) is read first, each field once, into plain
    Python ints and strings; then the matrix, each entry once; every bound is
    derived from that snapshot and the caller's objects are not read again. What
    it refuses: a field of any type it cannot read exactly (a float, a bool, a
    Fraction, a string where a number belongs, a subclass of int, tuple, list or
    str, an object whose ``__class__`` says int, a certificate or result of a
    subclass type, containers nested to the wrong depth) makes the verdict False;
    a matrix entry it cannot read exactly (floats, bools, such objects) raises
    InputError.

    Parameters
    ----------
    matrix : any matrix type :func:`seprank.rank` accepts (see
        :mod:`seprank.linalg.verifier.snapshot` for the exact rules)
    certificate : RankCertificate, LowerBoundCertificate, UpperBoundCertificate
        or RankResult

    Returns
    -------
    bool: True iff the certificate is valid for the matrix (and proves the
    result's claim); False when a certificate is present but wrong or unreadable.

    Raises
    ------
    InputError
        a matrix the verifier cannot read exactly, or a RankResult that carries no
        certificate (there is nothing to check: compute it with
        ``seprank.rank(..., certify=True)``).
    TypeError
        ``certificate`` is none of the four types (nor a subclass of one).

    Examples
    --------
    >>> import seprank
    >>> A = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    >>> res = seprank.rank(A, certify=True)
    >>> seprank.verify(A, res.certificate), seprank.verify(A, res)
    (True, True)
    >>> seprank.verify([[1.5, 1], [3, 2]], res.certificate)
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: verify: entry (0, 0) is 1.5 (float); the verifier reads ...
    >>> seprank.verify(A, seprank.rank(A))
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: verify: this RankResult carries no certificate, so there is ...
    """
    _check_budget(matrix)  # the matrix's share, from its shape alone
    claim = read_claim(certificate)
    _check_budget(matrix, claim)  # with the kernel vectors as read
    return _claim_holds(MatrixSnapshot(matrix), claim)


def _check_budget(matrix: object, claim=None) -> None:
    """Refuse (one line) a verification past the budget in force, before the matrix is
    read (:func:`seprank.linalg.estimates.verify_estimate`; issue 23)."""
    from seprank.budget import current
    from seprank.linalg.estimates import verify_estimate

    estimate = verify_estimate(matrix, claim)
    if estimate is not None:
        current().check(estimate)


def verify_lower(matrix: object, cert: LowerBoundCertificate) -> bool:
    """True iff the minor named by ``cert`` is nonzero modulo its (prime) modulus.

    Reads ``cert`` and then ``matrix`` once each, as :func:`verify` does.

    Parameters
    ----------
    matrix : a matrix (as for :func:`verify`)
    cert : LowerBoundCertificate (anything else: False)

    Returns
    -------
    bool

    Raises
    ------
    InputError
        a matrix the verifier cannot read exactly.

    Examples
    --------
    The minor on rows (0, 1), columns (0, 1) of [[1, 2], [3, 1]] is -5: nonzero
    mod 7, zero mod 5.

    >>> from seprank.linalg.certificates import LowerBoundCertificate as Lower
    >>> A = [[1, 2], [3, 1]]
    >>> verify_lower(A, Lower(7, (0, 1), (0, 1))), verify_lower(A, Lower(5, (0, 1), (0, 1)))
    (True, False)
    """
    if type(cert) is not LowerBoundCertificate:
        return False
    return _claim_holds(MatrixSnapshot(matrix), read_claim(cert))


def verify_upper(matrix: object, cert: UpperBoundCertificate) -> bool:
    """True iff the kernel vectors of ``cert`` are independent and in the kernel.

    Reads ``cert`` and then ``matrix`` once each, as :func:`verify` does.

    Parameters
    ----------
    matrix : a matrix (as for :func:`verify`)
    cert : UpperBoundCertificate (anything else: False)

    Returns
    -------
    bool

    Raises
    ------
    InputError
        a matrix the verifier cannot read exactly.

    Examples
    --------
    (2, -1) is in the right kernel of [[1, 2], [2, 4]]; (1, 1) is not.

    >>> from seprank.linalg.certificates import UpperBoundCertificate as Upper
    >>> A = [[1, 2], [2, 4]]
    >>> verify_upper(A, Upper(bound=1, side="right", vectors=((2, -1),), pivots=(0,)))
    True
    >>> verify_upper(A, Upper(bound=1, side="right", vectors=((1, 1),), pivots=(0,)))
    False
    """
    if type(cert) is not UpperBoundCertificate:
        return False
    return _claim_holds(MatrixSnapshot(matrix), read_claim(cert))
