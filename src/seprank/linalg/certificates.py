"""Rank certificates: small objects that prove a bound and can be re-checked.

* :class:`LowerBoundCertificate`: a prime p and index sets R (rows), C
  (columns) with ``|R| = |C| = r`` such that det A[R, C] != 0 mod p. For a matrix
  over Q (rows cleared of denominators) a minor that is nonzero mod p is a
  nonzero integer, so rank_Q(A) >= r.
* :class:`UpperBoundCertificate`: k integer vectors in the kernel of A (right
  kernel: A x = 0, so rank <= n - k; left kernel: y^T A = 0, so rank <= m - k),
  whose independence is visible from ``pivots``: at coordinate pivots[j] vector
  j is nonzero and every other vector is zero. With no vectors it records the
  trivial bound rank <= min(m, n). For a rational matrix, vectors refer to the
  integer matrix whose rows are cleared of denominators (each row times the
  lcm of its denominators); this changes nothing for a right kernel.
* :class:`RankCertificate`: both; it proves rank = r exactly when the lower
  bound equals the upper bound.

:func:`seprank.verify` re-checks any of them (see :mod:`seprank.linalg.verifier.verify`).

In JSON (``seprank rank --certify --json``) a certificate is ``RankCertificate.to_dict()``;
its schema is ``certificate`` (:mod:`seprank.linalg.certificate_schema`, ``seprank schema
certificate``), and :func:`certificate_from_json` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LowerBoundCertificate", "UpperBoundCertificate", "RankCertificate",
           "certificate_from_json"]


@dataclass(frozen=True)
class LowerBoundCertificate:
    """det A[rows, cols] != 0 modulo ``prime``, hence rank >= len(rows).

    Examples
    --------
    For A = [[1, 2], [2, 4], [0, 1]] the minor on rows (0, 2) and columns
    (0, 1) is det [[1, 2], [0, 1]] = 1, nonzero mod any prime, so rank A >= 2:

    >>> from seprank.linalg.verifier.verify import verify_lower
    >>> cert = LowerBoundCertificate(prime=7, rows=(0, 2), cols=(0, 1))
    >>> cert.bound, verify_lower([[1, 2], [2, 4], [0, 1]], cert)
    (2, True)
    """

    prime: int
    rows: tuple[int, ...]
    cols: tuple[int, ...]

    @property
    def bound(self) -> int:
        return len(self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "lower_bound", "bound": self.bound, "prime": self.prime,
                "rows": list(self.rows), "cols": list(self.cols)}


@dataclass(frozen=True)
class UpperBoundCertificate:
    """Kernel vectors showing rank <= ``bound``.

    ``side`` is "right" (A x = 0), "left" (y^T A = 0) or "trivial" (no vectors:
    rank <= min(m, n)). ``modulus`` is None for vectors over Z (the matrix is
    over Q) and p for a matrix over GF(p).

    Examples
    --------
    x = (2, -1) solves [[1, 2], [2, 4]] x = 0, so the rank is at most 2 - 1 = 1:

    >>> from seprank.linalg.verifier.verify import verify_upper
    >>> cert = UpperBoundCertificate(bound=1, side="right", vectors=((2, -1),), pivots=(0,))
    >>> verify_upper([[1, 2], [2, 4]], cert)
    True
    >>> cert.to_dict()["kernel_dimension"]
    1
    """

    bound: int
    side: str
    vectors: tuple[tuple[int, ...], ...] = ()
    pivots: tuple[int, ...] = ()
    modulus: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "upper_bound", "bound": self.bound, "side": self.side,
                               "kernel_dimension": len(self.vectors)}
        if self.modulus is not None:
            out["modulus"] = self.modulus
        if len(self.vectors) <= 8 and all(len(v) <= 64 for v in self.vectors):
            out["vectors"] = [list(v) for v in self.vectors]
            out["pivots"] = list(self.pivots)
        return out


@dataclass(frozen=True)
class RankCertificate:
    """A lower and (optionally) an upper certificate for one matrix.

    Examples
    --------
    The two bounds of the classes above meet at 1 for [[1, 2], [2, 4]]:

    >>> lower = LowerBoundCertificate(prime=7, rows=(0,), cols=(0,))
    >>> upper = UpperBoundCertificate(bound=1, side="right", vectors=((2, -1),), pivots=(0,))
    >>> RankCertificate(lower, upper).proves_exact
    True
    >>> RankCertificate(lower).proves_exact
    False
    """

    lower: LowerBoundCertificate | None = None
    upper: UpperBoundCertificate | None = None

    @property
    def proves_exact(self) -> bool:
        """True when the two bounds meet (the certificates still need verifying)."""
        return (self.lower is not None and self.upper is not None
                and self.lower.bound == self.upper.bound)

    def to_dict(self) -> dict[str, Any]:
        return {"lower": self.lower.to_dict() if self.lower else None,
                "upper": self.upper.to_dict() if self.upper else None,
                "proves_exact": self.proves_exact}


def certificate_from_json(obj: Any, source: str | None = None) -> RankCertificate:
    """The :class:`RankCertificate` written as JSON by ``seprank rank --certify --json``.

    ``obj`` is the ``certificate`` member, or the whole answer that holds it; it is
    validated by the schema ``certificate`` (:mod:`seprank.linalg.certificate_schema`). The
    certificate still has to be verified (:func:`seprank.verify`): reading it proves
    nothing.

    Parameters
    ----------
    obj
        what ``json.loads`` gave.
    source : str, optional
        the file, named in errors.

    Returns
    -------
    RankCertificate

    Raises
    ------
    InputError
        one line: the schema's first problem, or an upper certificate whose vectors the
        JSON left out (more than 8 vectors, or longer than 64: it cannot be re-checked).

    Examples
    --------
    >>> cert = RankCertificate(LowerBoundCertificate(7, (0,), (0,)),
    ...                        UpperBoundCertificate(1, "right", ((2, -1),), (0,)))
    >>> certificate_from_json(cert.to_dict()) == cert
    True
    """
    from seprank.errors import InputError
    from seprank.linalg.certificate_schema import certificate_adapter
    from seprank.schemas.validation import validate

    if isinstance(obj, dict) and "certificate" in obj and "lower" not in obj:
        obj = obj["certificate"]
    doc = validate(certificate_adapter(), obj, source=source)
    lower = upper = None
    if doc.lower is not None:
        lower = LowerBoundCertificate(doc.lower.prime, tuple(doc.lower.rows),
                                      tuple(doc.lower.cols))
    if doc.upper is not None:
        u = doc.upper
        if u.vectors is None and u.kernel_dimension:
            where = f"{source}: " if source else ""
            raise InputError(f"{where}upper: the JSON lists no kernel vectors (it leaves out "
                             f"{u.kernel_dimension} vectors); this bound cannot be re-checked")
        upper = UpperBoundCertificate(u.bound, u.side, tuple(tuple(v) for v in u.vectors or ()),
                                      tuple(u.pivots or ()), u.modulus)
    return RankCertificate(lower, upper)
