"""What ``seprank.rank`` will do, decided before it does any rank work (issue 12, item 7).

:func:`plan_rank` takes the arguments of :func:`seprank.rank`, checks them
(the same errors and messages as ``rank``), reads the matrix (coercion) and
makes every decision ``rank`` makes before it computes: the method that runs,
the field (``QQ``, ``GF(p)``, ``RR``), the modular engine from
:data:`seprank.linalg.engines.REGISTRY` and why, the prime policy, the exact
fallbacks in order, the certificate's parts and the answer kinds it can
return. The result is a :class:`RankPlan`; :func:`seprank.linalg.frontdoor.execute`
runs it, and ``rank(...)`` is ``execute(plan_rank(...))``. ``seprank rank FILE
--explain`` prints :meth:`RankPlan.explain` without computing.

The cutoffs (``NUMBA_MIN_DIM``, ``MULTIMODULAR_MIN_DIM``, ``AUTO_RANK_PRIMES``,
``AUTO_*_PRIME_RANGE``, ``CERTIFICATE_PRIME_TRIES``) and the measurements behind
them are in :mod:`seprank.linalg.frontdoor`; the planner reads them from there
at call time, so a test or a benchmark that sets one there changes the plans.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flint
import numpy as np

from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.linalg.coerce import ExactMatrix, as_exact, as_float_array
from seprank.linalg.engines import _power, get_engine, method_names
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, LOWER_BOUND
from seprank.linalg.residues import ResidueMatrix
from seprank.scalars.primes import DEFAULT_PRIME, require_prime

__all__ = ["PrimePolicy", "RankPlan", "plan_rank"]

#: the exact fallbacks a plan can name, in the order ``auto`` tries them
MULTIMODULAR, FMPZ = "multimodular", "flint-fmpz"


def _policy():
    """:mod:`seprank.linalg.frontdoor`, whose module constants hold the cutoffs."""
    from seprank.linalg import frontdoor

    return frontdoor


def _span(lo_hi: tuple[int, int]) -> str:
    return f"[{_power(lo_hi[0])}, {_power(lo_hi[1])})"


@dataclass(frozen=True)
class PrimePolicy:
    """Which primes a step uses: a given first prime, then random ones from a range.

    Attributes
    ----------
    first : int or None
        the prime used first (given, or a default); None: drawn from ``span``.
    count : int
        how many primes at most (``auto`` stops at the first full rank).
    span : (lo, hi) or None
        random primes are drawn from [lo, hi) (and recorded in the result's ``primes``).
    span_name : str
        the constant ``span`` comes from.

    Examples
    --------
    >>> print(PrimePolicy(first=2**31 - 1))
    p = 2147483647
    >>> print(PrimePolicy(count=2, span=(2**30, 2**31), span_name="AUTO_FLINT_PRIME_RANGE"))
    up to 2 random primes from [2^30, 2^31) (AUTO_FLINT_PRIME_RANGE)
    """

    first: int | None = None
    count: int = 1
    span: tuple[int, int] | None = None
    span_name: str = ""

    def __str__(self) -> str:
        if self.span is None:
            return f"p = {self.first}"
        where = f"from {_span(self.span)} ({self.span_name})"
        if self.first is None:
            many = "a random prime" if self.count == 1 else f"up to {self.count} random primes"
            return f"{many} {where}"
        if self.count == 1:
            return f"p = {self.first}"
        return f"p = {self.first} first, then up to {self.count - 1} random primes {where}"


@dataclass(frozen=True, repr=False)
class RankPlan:
    """Every decision of a rank computation, made before it runs (see :func:`plan_rank`).

    Attributes
    ----------
    method_asked, method : str
        the method asked for and the one that runs (``cuda`` runs ``modular`` on
        the ``cuda`` engine; any method but ``float`` on a matrix over GF(p)
        runs ``modular``, which is exact there).
    field : str
        ``"QQ"``, ``"GF(p)"`` with p (e.g. ``"GF(7)"``) or ``"RR"`` (float).
    modulus : int or None
        p for a matrix given over GF(p).
    shape : (m, n)
    engine, engine_reason : str or None, str
        the modular engine of the rank mod p (a name in the registry; None when
        no rank mod p is taken) and why it was chosen.
    primes : PrimePolicy or None
        the primes of the rank mod p.
    fallbacks : tuple of str
        the exact methods tried, in order, when the rank mod p is not full
        (``"multimodular"``, ``"flint-fmpz"``); empty when there are none.
    multimodular_engine : str or None
        the engine of the multimodular method's rank phase, when it is in the plan.
    multimodular_primes : PrimePolicy or None
        its first prime when ``auto`` draws it (None: the method's own default).
    certify : bool
    certificate : tuple of str
        the parts of the certificate built (empty unless ``certify``).
    certificate_primes : PrimePolicy or None
        the primes tried for the lower-bound minor of the ``fmpz_mat.rank`` path.
    kinds : tuple of str
        the answer kinds the plan can return.
    tol, rtol : float or None
        the float method's tolerances.

    Examples
    --------
    >>> plan = plan_rank([[1, 2], [2, 4]])
    >>> plan.method, plan.field, plan.engine, plan.fallbacks, plan.kinds
    ('auto', 'QQ', 'flint', ('flint-fmpz',), ('exact',))
    >>> plan
    RankPlan(auto, 2 x 2 over QQ, engine flint, fallbacks flint-fmpz, kinds exact)
    """

    method_asked: str
    method: str
    field: str
    shape: tuple[int, int]
    modulus: int | None = None
    engine: str | None = None
    engine_reason: str = ""
    primes: PrimePolicy | None = None
    fallbacks: tuple[str, ...] = ()
    multimodular_engine: str | None = None
    multimodular_primes: PrimePolicy | None = None
    certify: bool = False
    certificate: tuple[str, ...] = ()
    certificate_primes: PrimePolicy | None = None
    kinds: tuple[str, ...] = (EXACT,)
    tol: float | None = None
    rtol: float | None = None
    # the input as given, and what coercion made of it (for execution only)
    _input: Any = field(default=None, compare=False)
    _exact: ExactMatrix | None = field(default=None, compare=False)
    _array: np.ndarray | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        method = self.method if self.method == self.method_asked else \
            f"{self.method_asked} -> {self.method}"
        parts = [method, f"{self.shape[0]} x {self.shape[1]} over {self.field}"]
        if self.engine is not None:
            parts.append(f"engine {self.engine}")
        if self.fallbacks:
            parts.append(f"fallbacks {' then '.join(self.fallbacks)}")
        if self.certify:
            parts.append("certified")
        parts.append(f"kinds {' or '.join(self.kinds)}")
        return f"RankPlan({', '.join(parts)})"

    def to_dict(self) -> dict:
        """The plan as JSON-ready data (``seprank rank FILE --explain --json``).

        Prime policies become ``{"first", "count", "span", "span_name", "text"}``.

        Examples
        --------
        >>> d = plan_rank([[1, 2], [2, 4]], method="modular", prime=5).to_dict()
        >>> d["method"], d["engine"], d["primes"]["first"], d["kinds"]
        ('modular', 'flint', 5, ['exact', 'lower_bound'])
        """
        def policy(pp: PrimePolicy | None):
            if pp is None:
                return None
            return {"first": pp.first, "count": pp.count,
                    "span": list(pp.span) if pp.span is not None else None,
                    "span_name": pp.span_name or None, "text": str(pp)}

        return {"method_asked": self.method_asked, "method": self.method,
                "field": self.field, "modulus": self.modulus, "shape": list(self.shape),
                "engine": self.engine, "engine_reason": self.engine_reason,
                "primes": policy(self.primes), "fallbacks": list(self.fallbacks),
                "multimodular_engine": self.multimodular_engine,
                "multimodular_primes": policy(self.multimodular_primes),
                "certify": self.certify, "certificate": list(self.certificate),
                "certificate_primes": policy(self.certificate_primes),
                "kinds": list(self.kinds), "tol": self.tol, "rtol": self.rtol}

    def explain(self) -> str:
        """The plan in a few lines, for people (``seprank rank FILE --explain``).

        Examples
        --------
        >>> print(plan_rank([[1, 0], [0, 3]], method="modular", prime=3).explain())
        rank of a 2 x 2 matrix over QQ
        method: modular
        engine: flint (min(m, n) = 2 < NUMBA_MIN_DIM = 600)
        primes: p = 3
        answers: exact or lower_bound
        certificate: none (certify=False)
        """
        m, n = self.shape
        asked = "" if self.method == self.method_asked else f" (asked: {self.method_asked})"
        lines = [f"rank of a {m} x {n} matrix over {self.field}", f"method: {self.method}{asked}"]
        if self.engine is not None:
            lines.append(f"engine: {self.engine} ({self.engine_reason})")
        elif self.engine_reason:
            lines.append(f"computed by: {self.engine_reason}")
        if self.primes is not None:
            lines.append(f"primes: {self.primes}")
        if self.fallbacks:
            lines.append("if the rank mod p is not full, in order:")
            lines += [f"  {i}. {self._fallback_words(f)}"
                      for i, f in enumerate(self.fallbacks, 1)]
        elif self.method == MULTIMODULAR:
            lines.append(self._fallback_words(MULTIMODULAR))
        if self.certificate_primes is not None:
            lines.append(f"certificate primes (fmpz_mat.rank path): {self.certificate_primes}")
        if self.tol is not None or self.rtol is not None:
            lines.append(f"tolerance: tol={self.tol}, rtol={self.rtol}")
        lines.append(f"answers: {' or '.join(self.kinds)}")
        if self.certify:
            lines.append("certificate:")
            lines += [f"  {part}" for part in self.certificate]
        else:
            lines.append("certificate: none (certify=False)")
        return "\n".join(lines)

    def _fallback_words(self, name: str) -> str:
        if name == FMPZ:
            return "flint fmpz_mat.rank (exact over Q)"
        k, cut = min(self.shape), _policy().NUMBA_MIN_DIM
        on = f"rank phase on {self.multimodular_engine}"
        if self.method != "auto":
            return (f"multimodular: {on} (min(m, n) = {k} {'>=' if k >= cut else '<'} "
                    f"NUMBA_MIN_DIM = {cut}), then kernel vectors by p-adic lifting")
        first = (f", first prime random from {_span(self.multimodular_primes.span)}"
                 if self.multimodular_primes else "")
        return (f"multimodular (min(m, n) = {k} >= MULTIMODULAR_MIN_DIM = "
                f"{_policy().MULTIMODULAR_MIN_DIM}; {on}{first}), kept only when its "
                "kernel vectors prove the rank")


# ------------------------------------------------------------------ checks


def _check_arguments(method: str, engine: str | None, tol, rtol) -> tuple[str, str | None]:
    """The argument checks that need no matrix; returns the method and engine that run."""
    if method not in method_names():
        raise ParameterError(f"unknown method {method!r}; choose one of "
                             f"{', '.join(method_names())}")
    if (tol is not None or rtol is not None) and method != "float":
        raise ParameterError("tol and rtol apply to method='float' only")
    if engine is not None and method not in ("modular", "auto"):
        raise ParameterError("engine applies to method='modular' or 'auto' only")
    if method == "cuda":
        return "modular", "cuda"
    return method, engine


def _cuda_reason(asked: str, reason: str) -> str:
    """The engine's reason, in the words of ``method='cuda'`` when that was asked."""
    return "method='cuda' is the modular method on the cuda engine" if asked == "cuda" \
        else reason


def _choose_engine(engine: str | None, shape: tuple[int, int], p: int | None
                   ) -> tuple[str, str]:
    """The modular engine (a registry name) for a rank mod p, and why."""
    if engine is not None:
        eng = get_engine(engine)
        if p is not None and p > eng.max_prime:  # the engine refuses it when it runs
            return eng.name, (f"engine={engine!r} was asked; p = {p} is above its limit "
                              f"{_power(eng.max_prime)}, so it will refuse to run")
        return eng.name, f"engine={engine!r} was asked"
    cutoff = _policy().NUMBA_MIN_DIM
    numba_max = get_engine("numba").max_prime
    k = min(shape)
    if k < cutoff:
        return "flint", f"min(m, n) = {k} < NUMBA_MIN_DIM = {cutoff}"
    if p is not None and p > numba_max:
        return "flint", (f"min(m, n) = {k} >= NUMBA_MIN_DIM = {cutoff}, but p = {p} is above "
                         f"the numba engine's limit {_power(numba_max)}")
    return "numba", f"min(m, n) = {k} >= NUMBA_MIN_DIM = {cutoff}"


def _auto_primes(first: int | None, engine: str) -> PrimePolicy:
    """``auto``'s primes on ``engine``: the caller's first, then random ones."""
    fd = _policy()
    name = "AUTO_NUMBA_PRIME_RANGE" if engine in ("numba", "cuda") else "AUTO_FLINT_PRIME_RANGE"
    return PrimePolicy(first=first, count=fd.AUTO_RANK_PRIMES, span=getattr(fd, name),
                       span_name=name)


def _fmpz_certificate_primes(first: int) -> PrimePolicy:
    """The primes tried for the minor of an ``fmpz_mat.rank`` certificate."""
    fd = _policy()
    return PrimePolicy(first=first if first <= 2**62 else DEFAULT_PRIME,
                       count=fd.CERTIFICATE_PRIME_TRIES, span=fd.AUTO_FLINT_PRIME_RANGE,
                       span_name="AUTO_FLINT_PRIME_RANGE")


def _numba_for(shape: tuple[int, int]) -> str:
    """The multimodular method's engine: numba from ``NUMBA_MIN_DIM`` on, else flint."""
    return "numba" if min(shape) >= _policy().NUMBA_MIN_DIM else "flint"


# ------------------------------------------------------------------ plans per field


def plan_rank(matrix: object, method: str = "auto", *, prime: int | None = None,
              certify: bool = False, engine: str | None = None, tol: float | None = None,
              rtol: float | None = None) -> RankPlan:
    """The plan of ``seprank.rank(matrix, method, ...)``: checks and decisions, no rank work.

    Takes exactly the arguments of :func:`seprank.rank` and raises the same
    errors (InputError, NotPrimeError, ParameterError, MemoryLimitError) with
    the same one-line messages; reads the matrix as ``rank`` would (an integer
    numpy array for ``modular``/``auto`` stays as it is, to be reduced mod each
    prime later). Issue 12, item 7: ``rank`` is ``execute(plan_rank(...))``.

    Examples
    --------
    A 700 x 700 integer matrix goes to the numba engine with random primes below 2^20:

    >>> plan = plan_rank(np.eye(700, dtype=np.int64))
    >>> plan.engine, plan.engine_reason, plan.fallbacks
    ('numba', 'min(m, n) = 700 >= NUMBA_MIN_DIM = 600', ('multimodular', 'flint-fmpz'))
    >>> print(plan.primes)
    up to 2 random primes from [2^19, 2^20) (AUTO_NUMBA_PRIME_RANGE)
    >>> plan_rank(flint.nmod_mat([[1, 2], [2, 4]], 7)).field
    'GF(7)'
    >>> plan_rank([[1]], method="fast")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: unknown method 'fast'; choose one of auto, exact, ...
    """
    run, engine = _check_arguments(method, engine, tol, rtol)
    if run == "float":
        return _plan_float(matrix, method, certify, tol, rtol)
    if prime is not None:
        prime = require_prime(prime)
    if isinstance(matrix, (ResidueMatrix, flint.nmod_mat)):
        return _plan_gf_p(matrix, method, prime, engine, certify)
    if run in ("modular", "auto"):
        return _plan_modular_or_auto(matrix, method, run, prime, engine, certify)
    return _plan_over_q(matrix, method, run, prime, certify)


def _plan_float(matrix, asked: str, certify: bool, tol, rtol) -> RankPlan:
    if certify:
        raise ParameterError("a float estimate cannot be certified; use an exact method")
    if isinstance(matrix, ResidueMatrix):
        raise InputError("a matrix over GF(p) has no float rank; use method='modular'")
    arr = as_float_array(matrix)
    return RankPlan(method_asked=asked, method="float", field="RR", shape=arr.shape,
                    engine_reason="numpy SVD", kinds=(FLOAT_ESTIMATE,), tol=tol, rtol=rtol,
                    _input=matrix, _array=arr)


def _coerce_gf_p(matrix) -> tuple[ExactMatrix, np.ndarray | None]:
    """A matrix over GF(p): its ExactMatrix (shape, modulus) and, for a ResidueMatrix,
    the array the numba engine takes (float64 residues as they are, else int64 residues)."""
    if isinstance(matrix, ResidueMatrix):
        em = ExactMatrix(shape=matrix.shape, modulus=matrix.p)
        return em, matrix.data if matrix.data.dtype == np.float64 else matrix.residues()
    return as_exact(matrix), None


def _plan_gf_p(matrix, asked: str, prime: int | None, engine: str | None,
               certify: bool) -> RankPlan:
    """Any method but float on a matrix over GF(p): its exact rank there."""
    em, data = _coerce_gf_p(matrix)
    p = em.modulus
    if prime is not None and prime != p:
        raise InputError(f"matrix is over GF({p}) but prime={prime} was given")
    try:
        require_prime(p)
    except NotPrimeError as exc:
        raise NotPrimeError(f"modulus {p} is not prime: rank over Z/nZ is not "
                            "defined here") from exc
    eng, why = _choose_engine(engine, em.shape, p)
    why = _cuda_reason(asked, why)
    upper = ("upper: the trivial bound min(m, n) when full, else kernel vectors mod p"
             if eng in ("numba", "cuda") else "upper: kernel vectors mod p")
    parts = (f"lower: a minor nonsingular mod p (pivots of the {eng} engine)", upper)
    return RankPlan(method_asked=asked, method="modular", field=em.field, shape=em.shape,
                    modulus=p, engine=eng, engine_reason=why, primes=PrimePolicy(first=p),
                    certify=certify, certificate=parts if certify else (), kinds=(EXACT,),
                    _input=matrix, _exact=em, _array=data)


def _coerce_lazily(matrix) -> tuple[ExactMatrix | None, tuple[int, int]]:
    """An integer numpy array stays as it is (reduced mod each prime at execution,
    never copied to fmpz unless a fallback needs it); anything else is read exactly."""
    if isinstance(matrix, np.ndarray) and matrix.dtype.kind in "iu" and matrix.ndim == 2:
        return None, matrix.shape
    em = as_exact(matrix)
    return em, em.shape


def _plan_modular_or_auto(matrix, asked: str, run: str, prime: int | None,
                          engine: str | None, certify: bool) -> RankPlan:
    """A rank mod p over Q: one prime for ``modular``; see :func:`_plan_auto`."""
    em, shape = _coerce_lazily(matrix)
    eng, why = _choose_engine(engine, shape, prime)
    why = _cuda_reason(asked, why)
    if run == "auto":
        return _plan_auto(matrix, em, shape, eng, why, prime, certify)
    primes = PrimePolicy(first=prime if prime is not None else get_engine(eng).default_prime)
    parts = ("lower: a minor nonsingular mod p",
             "upper: the trivial bound min(m, n) when the rank mod p is full")
    return RankPlan(method_asked=asked, method=run, field="QQ", shape=shape, engine=eng,
                    engine_reason=why, primes=primes, certify=certify,
                    certificate=parts if certify else (), kinds=(EXACT, LOWER_BOUND),
                    _input=matrix, _exact=em)


def _plan_auto(matrix, em, shape, eng: str, why: str, prime: int | None,
               certify: bool) -> RankPlan:
    """``auto``: up to AUTO_RANK_PRIMES random primes, then the exact fallbacks."""
    parts = ["lower: a minor nonsingular mod p",
             "upper: the trivial bound min(m, n) when the rank mod p is full"]
    fallbacks, mm_primes = (FMPZ,), None
    if min(shape) >= _policy().MULTIMODULAR_MIN_DIM:
        fallbacks = (MULTIMODULAR, FMPZ)
        mm_primes = PrimePolicy(span=_policy().AUTO_MULTIMODULAR_PRIME_RANGE,
                                span_name="AUTO_MULTIMODULAR_PRIME_RANGE")
        parts.append("else multimodular: its minor mod p and exact kernel vectors")
    parts.append("else fmpz_mat.rank: a minor mod a prime and integer kernel vectors (RREF)")
    # the fmpz certificate starts at DEFAULT_PRIME (then random ones), so that small
    # documented examples print the same primes on every run
    cert_primes = _fmpz_certificate_primes(DEFAULT_PRIME) if certify else None
    return RankPlan(method_asked="auto", method="auto", field="QQ", shape=shape, engine=eng,
                    engine_reason=why, primes=_auto_primes(prime, eng), fallbacks=fallbacks,
                    multimodular_engine=_numba_for(shape) if mm_primes else None,
                    multimodular_primes=mm_primes, certify=certify,
                    certificate=tuple(parts) if certify else (),
                    certificate_primes=cert_primes, kinds=(EXACT,), _input=matrix, _exact=em)


def _plan_over_q(matrix, asked: str, run: str, prime: int | None, certify: bool) -> RankPlan:
    """``exact`` (fmpz_mat.rank) or ``multimodular`` on a rational matrix."""
    em = as_exact(matrix)
    if run == MULTIMODULAR:
        parts = ("lower: a minor mod p from the rank phase",
                 "upper: exact kernel vectors (p-adic lifting), when found")
        return RankPlan(method_asked=asked, method=run, field="QQ", shape=em.shape,
                        multimodular_engine=_numba_for(em.shape), certify=certify,
                        certificate=parts if certify else (), kinds=(EXACT, LOWER_BOUND),
                        _input=matrix, _exact=em)
    parts = ("lower: a minor nonsingular mod a prime that keeps the rank",
             "upper: integer kernel vectors from the RREF over Q")
    first = prime if prime is not None else DEFAULT_PRIME
    return RankPlan(method_asked=asked, method=run, field="QQ", shape=em.shape,
                    engine_reason="flint fmpz_mat.rank (fraction-free elimination)",
                    certify=certify, certificate=parts if certify else (),
                    certificate_primes=_fmpz_certificate_primes(first) if certify else None,
                    kinds=(EXACT,), _input=matrix, _exact=em)
