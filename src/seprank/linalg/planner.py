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

The planner never names an engine: it asks the engines of
:data:`seprank.linalg.engines.REGISTRY` in order (:func:`choose_engine`; each
answers through :mod:`seprank.linalg.engines.protocol`), and reads an engine's
primes, certificate parts and label from it. The cutoffs sit beside the choice
they make: ``NUMBA_MIN_DIM`` and ``AUTO_NUMBA_PRIME_RANGE`` in the numba
engine's module (:mod:`seprank.linalg.engines.numba_lu`),
``AUTO_FLINT_PRIME_RANGE`` in the flint engine's, and ``auto``'s own
(``AUTO_RANK_PRIMES``, ``MULTIMODULAR_MIN_DIM``, ``CERTIFICATE_PRIME_TRIES``) here,
each with the measurement behind it. Primes are the engine's: every step that eliminates
mod p draws from the fast range of the engine that runs it (:func:`engine_primes`; the
numba LU is ~10x slower at p ~ 2^26 than below 2^20, benchmarks/sep_rank_moment.py).
All are read at call time, so a test or a benchmark that sets one where it lives changes
the plans.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import flint
import numpy as np

from seprank.budget import Budget, format_bytes, make_budget
from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.linalg.coerce import ExactMatrix, as_exact, as_float_array
from seprank.linalg.engines import METHOD_REGISTRY, RANK_METHODS, REGISTRY, get_engine, method_names
from seprank.linalg.engines.flint_nmod import AUTO_FLINT_PRIME_RANGE
from seprank.linalg.engines.methods import methods_taking_engine
from seprank.linalg.engines.protocol import FMPZ as FMPZ_FORM
from seprank.linalg.engines.protocol import (
    FULL_RANK_BOUND,
    INT64,
    NMOD_MAT,
    RESIDUES,
    power_text,
)
from seprank.linalg.estimates import plan_estimate
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, LOWER_BOUND
from seprank.linalg.residues import ResidueMatrix
from seprank.scalars.primes import DEFAULT_PRIME, require_prime

__all__ = ["PrimePolicy", "RankPlan", "plan_rank", "choose_engine", "AUTO_RANK_PRIMES",
           "MULTIMODULAR_MIN_DIM", "CERTIFICATE_PRIME_TRIES", "EnginePrimes", "engine_primes"]

#: the exact fallbacks a plan can name, in the order ``auto`` tries them
MULTIMODULAR, FMPZ = "multimodular", "flint-fmpz"

# ------------------------------------------------------------------ auto's cutoffs
#: ``auto`` tries this many random primes before a slower exact method: a rank that
#: stays below min(m, n) mod two primes drawn at random is the true rank unless
#: both divide the gcd of the r x r minors (probability below 10^-8 for minors of
#: 10^5 bits and primes from [2^30, 2^31)); a third prime would only delay the proof.
AUTO_RANK_PRIMES = 2
#: ``auto`` tries the multimodular method on matrices that are not of full rank mod
#: two random primes from this min(m, n) on. Measured (2-core machine shared with
#: other jobs, so +-30%): on rank-deficient random products multimodular is 0.6-0.8x
#: of fmpz_mat.rank at n = 250-400 (0.1-0.2 s slower) and level at 600, 1.4-2.3x faster
#: from 800 (benchmarks/results/multimodular.csv); on Gram Hadamard powers 2x
#: faster from 400; on structured matrices with huge entries (the Omega matrices
#: of issue 12, 561 x 561 with 1025-bit entries) fmpz_mat.rank took 76-89 s where
#: multimodular took 0.5-0.8 s (benchmarks/results/adversarial.md). A small loss on
#: easy inputs buys a bounded worst case.
MULTIMODULAR_MIN_DIM = 200
#: How many primes the ``fmpz_mat.rank`` path tries for a lower-bound certificate
#: before giving up (a prime p loses rank only if it divides every r x r minor;
#: after the first, the primes are random from AUTO_FLINT_PRIME_RANGE, so each
#: further try fails with tiny probability).
CERTIFICATE_PRIME_TRIES = 40


def _span(lo_hi: tuple[int, int]) -> str:
    return f"[{power_text(lo_hi[0])}, {power_text(lo_hi[1])})"


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
    input_rounding : dict or None
        the float method only: what reading the input as float64 rounded
        (:func:`seprank.linalg.coerce.float64_rounding`; None when nothing was).

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
    input_rounding: dict | None = None
    # the input as given, and what coercion made of it (for execution only)
    _input: Any = field(default=None, compare=False)
    _exact: ExactMatrix | None = field(default=None, compare=False)
    _array: np.ndarray | None = field(default=None, compare=False)
    _mm_reason: str = field(default="", compare=False)  # why multimodular_engine
    #: the limits (seprank.budget) every step is checked against, and the first step's need
    _budget: Any = field(default=None, compare=False)
    estimate: Any = field(default=None, compare=False)

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
                "kinds": list(self.kinds), "tol": self.tol, "rtol": self.rtol,
                "input_rounding": self.input_rounding}

    def explain(self) -> str:
        """The plan in a few lines, for people (``seprank rank FILE --explain``).

        Examples
        --------
        >>> print(plan_rank([[1, 0], [0, 3]], method="modular", prime=3).explain())
        rank of a 2 x 2 matrix over QQ
        method: modular
        engine: flint (min(m, n) = 2 < NUMBA_MIN_DIM = 600)
        primes: p = 3
        first step needs about 4.0 MiB (2 x 2 on the flint engine)
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
        if self.input_rounding is not None:
            from seprank.linalg.coerce import rounding_text

            lines.append(f"warning: {rounding_text(self.input_rounding)}")
        if self.estimate is not None:
            lines.append(f"first step needs about {format_bytes(self.estimate.nbytes)} "
                         f"({self.estimate.detail})")
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
        k = min(self.shape)
        on = f"rank phase on {self.multimodular_engine}"
        if self.method != "auto":
            return (f"multimodular: {on} ({self._mm_reason}), then kernel vectors by "
                    "p-adic lifting")
        first = (f", first prime random from {_span(self.multimodular_primes.span)}"
                 if self.multimodular_primes else "")
        return (f"multimodular (min(m, n) = {k} >= MULTIMODULAR_MIN_DIM = "
                f"{MULTIMODULAR_MIN_DIM}; {on}{first}), kept only when its "
                "kernel vectors prove the rank")


# ------------------------------------------------------------------ checks


def _type_name(x: object) -> str:
    return f"{x!r} ({type(x).__name__})"


def _check_types(method, prime, certify, engine, tol, rtol) -> None:
    """Refuse arguments of the wrong type (issue 22): nothing is coerced, so a string
    is never a bool, a bool never a prime, a float never a prime. ParameterError,
    except for ``prime`` (NotPrimeError, as for any prime that is not one)."""
    if not isinstance(method, str):
        raise ParameterError(f"method must be a str, one of {', '.join(method_names())}; "
                             f"got {_type_name(method)}")
    if engine is not None and not isinstance(engine, str):
        raise ParameterError(f"engine must be None or a str, one of {', '.join(REGISTRY)}; "
                             f"got {_type_name(engine)}")
    if not isinstance(certify, bool):
        raise ParameterError(f"certify must be True or False, got {_type_name(certify)}")
    if prime is not None and (isinstance(prime, bool)
                              or not isinstance(prime, (int, np.integer))):
        # NotPrimeError, as seprank.scalars.primes.require_prime says of a non-integer
        raise NotPrimeError(f"prime must be None or an int, got {_type_name(prime)}")
    for name, value in (("tol", tol), ("rtol", rtol)):
        if value is not None and (isinstance(value, bool)
                                  or not isinstance(value, (int, float, np.integer,
                                                            np.floating))):
            raise ParameterError(f"{name} must be None or a real number, got "
                                 f"{_type_name(value)}")


def _check_arguments(method: str, engine: str | None, tol, rtol) -> tuple[str, str | None]:
    """The argument checks that need no matrix; returns the method and engine that run."""
    RANK_METHODS.get(method)  # an unknown method: the choices and a did-you-mean, one line
    if (tol is not None or rtol is not None) and method != "float":
        raise ParameterError("tol and rtol apply to method='float' only")
    takes = methods_taking_engine()
    if engine is not None and method not in takes:
        raise ParameterError("engine applies to method="
                             f"{' or '.join(repr(m) for m in takes)} only")
    spec = METHOD_REGISTRY[method]
    return spec.runs, spec.engine if spec.engine is not None else engine


def _method_reason(asked: str, reason: str) -> str:
    """The engine's reason, in the words of a method that fixes the engine (``cuda``)."""
    spec = METHOD_REGISTRY[asked]
    if spec.engine is None:
        return reason
    return f"method={asked!r} is the {spec.runs} method on the {spec.engine} engine"


def choose_engine(shape: tuple[int, int], p: int | None = None, form: str | None = None,
                  asked: str | None = None) -> tuple[str, str]:
    """The modular engine (a registry name) for a rank mod p, and why.

    ``asked`` (``engine=``) wins, with a note when it will refuse the prime or the
    form (its device is checked when it runs). Otherwise the engines of
    :data:`~seprank.linalg.engines.REGISTRY` are asked in order: the first whose
    ``should_run`` says yes gets the input; if none, the first that ``can_run``
    it does, and the reason is what the others said when they declined.

    Examples
    --------
    >>> choose_engine((700, 700), None, "int64")
    ('numba', 'min(m, n) = 700 >= NUMBA_MIN_DIM = 600')
    >>> eng, why = choose_engine((700, 700), 2**31 - 1, "int64")
    >>> eng, why.endswith("but p = 2147483647 is above the numba engine's limit 2^26")
    ('flint', True)
    >>> choose_engine((5, 5), None, "fmpz", asked="numba")
    ('numba', "engine='numba' was asked")
    """
    if asked is not None:
        eng = get_engine(asked)
        can = eng.can_run(shape, p, form, device=False)
        why = f"engine={asked!r} was asked"
        return eng.name, why if can else f"{why}; {can.reason}, so it will refuse to run"
    declined = []
    for eng in REGISTRY.values():
        verdict = eng.should_run(shape, p, form)
        if verdict:
            return eng.name, verdict.reason
        if verdict.reason:
            declined.append(verdict.reason)
    for eng in REGISTRY.values():
        if eng.can_run(shape, p, form):
            return eng.name, "; ".join(declined) or "the first engine that can run it"
    raise ParameterError(f"no registered engine can run a {shape[0]} x {shape[1]} {form} "
                         f"matrix{'' if p is None else f' mod {p}'}")


@dataclass(frozen=True)
class EnginePrimes:
    """The engine that would run a rank mod p of some shape, and the primes it is fast at.

    ``span`` (with the name of its constant) is the engine's ``auto_primes``: the range
    where it runs at its floor (the numba LU: primes below 2^20, where k_max(p) >= 8192
    products accumulate exactly in float64 between reductions; flint's nmod_mat: any
    word-size prime, [2^30, 2^31) by default). ``default`` is its fixed prime.
    A caller that needs a prime for its own eliminations asks :func:`engine_primes`
    instead of fixing a range (issue 28, item 1).

    >>> print(engine_primes((4000, 4000)))
    numba: [2^19, 2^20) (AUTO_NUMBA_PRIME_RANGE), default 1048573
    """

    engine: str
    span: tuple[int, int]
    span_name: str
    default: int
    reason: str = ""

    def draw(self, rng=None) -> int:
        """A prime drawn uniformly from ``span`` (``rng``: a ``random.Random``)."""
        from seprank.linalg.modarith import random_prime

        return random_prime(*self.span, rng)

    def __str__(self) -> str:
        return f"{self.engine}: {_span(self.span)} ({self.span_name}), default {self.default}"


def engine_primes(shape: tuple[int, int], form: str | None = None) -> EnginePrimes:
    """Which engine a rank mod p of ``shape`` goes to, and the primes where it is fast.

    The engines are asked as for any rank (:func:`choose_engine` with no prime fixed),
    so the answer follows the registry: the numba LU for large matrices, flint below
    ``NUMBA_MIN_DIM``. The moment, grid and token routes and the multimodular method take
    their primes from here.

    >>> engine_primes((100, 100)).engine, engine_primes((100, 100)).span == (2**30, 2**31)
    ('flint', True)
    >>> engine_primes((5000, 800)).span
    (524288, 1048576)
    """
    name, why = choose_engine(shape, None, form)
    eng = get_engine(name)
    return EnginePrimes(name, eng.auto_primes, eng.auto_primes_name, eng.default_prime, why)


def _auto_primes(first: int | None, engine: str) -> PrimePolicy:
    """``auto``'s primes on ``engine``: the caller's first, then random ones from its range."""
    eng = get_engine(engine)
    return PrimePolicy(first=first, count=AUTO_RANK_PRIMES, span=eng.auto_primes,
                       span_name=eng.auto_primes_name)


def _fmpz_certificate_primes(first: int) -> PrimePolicy:
    """The primes tried for the minor of an ``fmpz_mat.rank`` certificate (flint's own path)."""
    return PrimePolicy(first=first if first <= 2**62 else DEFAULT_PRIME,
                       count=CERTIFICATE_PRIME_TRIES, span=AUTO_FLINT_PRIME_RANGE,
                       span_name="AUTO_FLINT_PRIME_RANGE")


def _multimodular_engine(shape: tuple[int, int]) -> tuple[str, str]:
    """The engine of the multimodular method's rank phase, and why: the engines are
    asked as for a rank mod p of the matrix read exactly; the phase then draws its
    primes from that engine's fast range (:func:`engine_primes`)."""
    return choose_engine(shape, None, FMPZ_FORM)


# ------------------------------------------------------------------ plans per field


def plan_rank(matrix: object, method: str = "auto", *, prime: int | None = None,
              certify: bool = False, engine: str | None = None, tol: float | None = None,
              rtol: float | None = None, max_memory: int | str | None = None,
              max_seconds: float | str | None = None, budget: Budget | None = None
              ) -> RankPlan:
    """The plan of ``seprank.rank(matrix, method, ...)``: checks and decisions, no rank work.

    Takes exactly the arguments of :func:`seprank.rank` and raises the same
    errors (InputError, NotPrimeError, ParameterError, MemoryLimitError) with
    the same one-line messages (a wrong type included: ``certify`` must be a bool,
    ``prime`` an int, ``method`` and ``engine`` str; nothing is coerced); reads the
    matrix as ``rank`` would (an integer
    numpy array for ``modular``/``auto`` stays as it is, to be reduced mod each
    prime later). Issue 12, item 7: ``rank`` is ``execute(plan_rank(...))``. The first
    step's estimate (:func:`seprank.linalg.estimates.plan_estimate`) is checked against
    the budget (``max_memory``, ``max_seconds`` or ``budget``; default the machine's:
    :mod:`seprank.budget`), and the plan keeps the budget for the later steps.

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
    _check_types(method, prime, certify, engine, tol, rtol)
    if isinstance(matrix, np.ma.MaskedArray) or (isinstance(matrix, ResidueMatrix) and
                                                 isinstance(matrix.data, np.ma.MaskedArray)):
        raise InputError("the matrix is a masked array (numpy.ma); masks are not read: give "
                         "numpy.ma.filled(A, value) or the rows you mean")
    run, engine = _check_arguments(method, engine, tol, rtol)
    budget = make_budget(max_memory, max_seconds, budget)
    with budget.active():  # the copies coercion makes are checked against it too
        if run == "float":
            plan = _plan_float(matrix, method, certify, tol, rtol)
        else:
            if prime is not None:
                prime = require_prime(prime)
            if isinstance(matrix, (ResidueMatrix, flint.nmod_mat)):
                plan = _plan_gf_p(matrix, method, prime, engine, certify)
            elif run in ("modular", "auto"):
                plan = _plan_modular_or_auto(matrix, method, run, prime, engine, certify)
            else:
                plan = _plan_over_q(matrix, method, run, prime, certify)
    estimate = budget.check(plan_estimate(plan))
    return replace(plan, _budget=budget, estimate=estimate)


def _plan_float(matrix, asked: str, certify: bool, tol, rtol) -> RankPlan:
    if certify:
        raise ParameterError("a float estimate cannot be certified; use an exact method")
    if isinstance(matrix, ResidueMatrix):
        raise InputError("a matrix over GF(p) has no float rank; use method='modular'")
    from seprank.linalg.coerce import float64_rounding

    arr = as_float_array(matrix)
    return RankPlan(method_asked=asked, method="float", field="RR", shape=arr.shape,
                    engine_reason="numpy SVD", kinds=(FLOAT_ESTIMATE,), tol=tol, rtol=rtol,
                    input_rounding=float64_rounding(matrix), _input=matrix, _array=arr)


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
    form = RESIDUES if isinstance(matrix, ResidueMatrix) else NMOD_MAT
    eng, why = choose_engine(em.shape, p, form, asked=engine)
    why = _method_reason(asked, why)
    upper = ("upper: the trivial bound min(m, n) when full, else kernel vectors mod p"
             if FULL_RANK_BOUND in get_engine(eng).certificate_parts
             else "upper: kernel vectors mod p")
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
    eng, why = choose_engine(shape, prime, INT64 if em is None else FMPZ_FORM, asked=engine)
    why = _method_reason(asked, why)
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
    fallbacks, mm_primes, mm_engine = (FMPZ,), None, (None, "")
    if min(shape) >= MULTIMODULAR_MIN_DIM:
        fallbacks = (MULTIMODULAR, FMPZ)
        mm_engine = _multimodular_engine(shape)
        mm_eng = get_engine(mm_engine[0])
        mm_primes = PrimePolicy(span=mm_eng.auto_primes, span_name=mm_eng.auto_primes_name)
        parts.append("else multimodular: its minor mod p and exact kernel vectors")
    parts.append("else fmpz_mat.rank: a minor mod a prime and integer kernel vectors (RREF)")
    # the fmpz certificate starts at DEFAULT_PRIME (then random ones), so that small
    # documented examples print the same primes on every run
    cert_primes = _fmpz_certificate_primes(DEFAULT_PRIME) if certify else None
    return RankPlan(method_asked="auto", method="auto", field="QQ", shape=shape, engine=eng,
                    engine_reason=why, primes=_auto_primes(prime, eng), fallbacks=fallbacks,
                    multimodular_engine=mm_engine[0], multimodular_primes=mm_primes,
                    certify=certify, certificate=tuple(parts) if certify else (),
                    certificate_primes=cert_primes, kinds=(EXACT,), _input=matrix, _exact=em,
                    _mm_reason=mm_engine[1])


def _plan_over_q(matrix, asked: str, run: str, prime: int | None, certify: bool) -> RankPlan:
    """``exact`` (fmpz_mat.rank) or ``multimodular`` on a rational matrix."""
    em = as_exact(matrix)
    if run == MULTIMODULAR:
        parts = ("lower: a minor mod p from the rank phase",
                 "upper: exact kernel vectors (p-adic lifting), when found")
        mm_engine, why = _multimodular_engine(em.shape)
        return RankPlan(method_asked=asked, method=run, field="QQ", shape=em.shape,
                        multimodular_engine=mm_engine, certify=certify,
                        certificate=parts if certify else (), kinds=(EXACT, LOWER_BOUND),
                        _input=matrix, _exact=em, _mm_reason=why)
    parts = ("lower: a minor nonsingular mod a prime that keeps the rank",
             "upper: integer kernel vectors from the RREF over Q")
    first = prime if prime is not None else DEFAULT_PRIME
    return RankPlan(method_asked=asked, method=run, field="QQ", shape=em.shape,
                    engine_reason="flint fmpz_mat.rank (fraction-free elimination)",
                    certify=certify, certificate=parts if certify else (),
                    certificate_primes=_fmpz_certificate_primes(first) if certify else None,
                    kinds=(EXACT,), _input=matrix, _exact=em)
