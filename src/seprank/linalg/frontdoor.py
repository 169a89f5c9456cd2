"""``seprank.rank``: the one front door for every rank computation.

Methods
-------
``"exact"``
    rank over Q with python-flint (``fmpz_mat.rank``); kind ``exact``.
``"modular"``
    rank of the matrix reduced mod a prime p with python-flint ``nmod_mat``.
    Reduction mod p can only lower the rank, so the answer over Q is a
    certified *lower bound*, unless it equals min(m, n): a lower bound that
    meets the trivial upper bound is the exact rank, and the result says so.
``"multimodular"``
    exact over Q from primes: ranks mod primes give a certified lower bound
    and, when it is not full, kernel vectors found by p-adic lifting and
    rational reconstruction, verified exactly, give the matching upper bound
    (:mod:`seprank.linalg.rational.multimodular`). Kind ``exact`` when both hold, else
    ``lower_bound``; the primes used are listed. Measured (benchmarks/multimodular.py)
    faster than ``fmpz_mat.rank`` on rank-deficient matrices from n ~ 800
    (random products, 1.4-2.3x) and from n ~ 400 on Gram Hadamard powers
    (1.7-2.1x); level or slower below.
``"float"``
    numpy SVD; kind ``float_estimate``, with the tolerance and singular-value gap.
``"cuda"``
    the modular method on the GPU (``engine="cuda"``): same kinds as
    ``"modular"``. Needs numba-cuda and a GPU, or numba's simulator
    (``NUMBA_ENABLE_CUDASIM=1``, small sizes only).
``"auto"`` (default)
    an exact answer, the cheap way first: the rank mod a prime drawn at random
    (from [2^30, 2^31) on flint, [2^19, 2^20) on numba; listed in ``primes``),
    which is exact when it is full; if not, a second random prime; if neither
    gives full rank, from ``MULTIMODULAR_MIN_DIM`` rows and columns, the
    multimodular method with a random first prime (kept only when it
    certifies an exact answer), and else the exact rank over Q by
    ``fmpz_mat``. Never a float. Random primes matter: a matrix can be built
    whose rank drops modulo any fixed list of primes (issue 12: the Omega = 2
    matrices lose rank mod 2^31 - 1, where 2 has order 31), which sent the
    fixed-prime ``auto`` to the slow exact path; no input can anticipate a
    random prime (benchmarks/adversarial.py).

A matrix given as an ``nmod_mat`` or a :class:`~seprank.linalg.residues.ResidueMatrix`
lives over GF(p); every method except ``float`` returns its exact rank over GF(p).

The modular method runs on an engine of :data:`seprank.linalg.engines.REGISTRY`
(``engine=``): ``"flint"`` (python-flint ``nmod_mat``, any word-size prime),
``"numba"`` (blocked LU with BLAS and delayed reduction, primes below 2^26) and
``"cuda"`` (the same LU on a GPU). Without ``engine``, the planner asks the
engines which one prefers the matrix (the numba engine: from ``NUMBA_MIN_DIM``
rows and columns, :mod:`seprank.linalg.engines.numba_lu`).

Choosing the engine
-------------------
``"auto"`` tries GF(p) first because a full rank mod p settles the question
without the rational elimination's growing integers and, with certificates,
without the rational RREF that the kernel needs. On the small Omega Gram
matrices of benchmarks/float_vs_exact.py (n up to about 1000) the two rank
calls cost about the same; the difference shows on larger and rank-deficient
matrices (benchmarks/rank_engines.py).

Planning and execution
----------------------
``rank(...)`` is ``execute(plan_rank(...))`` (issue 12, item 7).
:func:`~seprank.linalg.planner.plan_rank` checks the arguments, reads the
matrix and decides: the method that runs, the field, the engine (from
:data:`seprank.linalg.engines.REGISTRY`) and why, the primes, the exact
fallbacks, the certificate's parts and the answer kinds; it does no rank work,
and :meth:`~seprank.linalg.planner.RankPlan.explain` says it in words
(``seprank rank FILE --explain``). :func:`execute` runs a plan, one small
function per concern: the rank mod p on an engine (``_gf_p_rank``, through the
engine protocol of :mod:`seprank.linalg.engines.protocol`: the input converted
to the form the engine reads, its rank or rank profile, its label and
certificate parts; no engine is named here), ``auto``'s prime loop
(``_prime_loop``), the exact fallbacks (``_exact_fallbacks``), certificates
(``_*_certificate``) and labels (kind and note, ``_*_result``). The cutoffs
live beside the choices they make (the planner's module docstring).
"""

from __future__ import annotations

import time

import flint
import numpy as np

import seprank.linalg.engines.flint_engine as fe
from seprank.budget import Budget, current
from seprank.errors import ParameterError
from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.coerce import ExactMatrix, as_exact
from seprank.linalg.engines import engine_names, get_engine, method_names
from seprank.linalg.engines.float_engine import float_rank
from seprank.linalg.engines.protocol import FULL_RANK_BOUND, NMOD_MAT, RESIDUES
from seprank.linalg.estimates import entry_bits, fmpz_estimate, multimodular_estimate
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, LOWER_BOUND
from seprank.linalg.modarith import random_prime
from seprank.linalg.planner import FMPZ, MULTIMODULAR, PrimePolicy, RankPlan, plan_rank
from seprank.linalg.residues import ResidueMatrix
from seprank.linalg.result import RankResult
from seprank.linalg.zero import float_residues, is_zero_array, zero_result

__all__ = ["rank", "execute", "METHODS", "ENGINES"]

#: The methods, from :data:`seprank.linalg.engines.METHOD_REGISTRY` (what each does,
#: answers and needs).
METHODS = method_names()
#: Back ends of the modular method (the registry of :mod:`seprank.linalg.engines`):
#: python-flint ``nmod_mat``, the numba blocked LU with delayed reduction
#: (:mod:`seprank.linalg.engines.modular_lu`) and its GPU counterpart
#: (:mod:`seprank.linalg.engines.cuda_engine`, numba-cuda).
ENGINES = engine_names()

def _trial(p: int, step: str, engine: str | None, method: str, rank: int | None) -> dict:
    """One entry of ``RankResult.prime_trials``."""
    return {"prime": p, "step": step, "engine": engine, "method": method, "rank_mod_p": rank}


def _lower_for_exact(z: flint.fmpz_mat, r: int, policy: PrimePolicy):
    """A lower-bound certificate of size r, trying primes until one keeps the rank.

    The first prime is the policy's; the others are drawn at random from its
    span ([2^30, 2^31), :func:`~seprank.linalg.modarith.random_prime`), so a
    matrix whose minors are all divisible by a fixed list of primes (issue 12,
    item 4) cannot exhaust them: a prime loses the rank only if it divides the
    gcd of the r x r minors, a nonzero integer with few prime factors in that range.

    Returns the certificate and the trials (one per prime tried, with its rank).
    """
    p = policy.first
    trials = []
    for _ in range(policy.count):
        rp, cert = fe.lower_certificate(fe.reduce_mod_p(z, p))
        trials.append(_trial(p, "certificate minor", None, FMPZ, rp))
        if rp == r:
            return cert, trials
        p = random_prime(*policy.span)
    raise ParameterError(  # pragma: no cover - needs astronomically many unlucky draws
        f"no prime among {[t['prime'] for t in trials]} keeps the rank {r}; pass "
        "prime=... explicitly")


def _auto_prime(span: tuple[int, int]) -> int:
    """A random prime for ``auto`` from [lo, hi) (the engine's ``auto_primes``)."""
    return random_prime(*span)


# ---------------------------------------------------------------- GF(p) rank on an engine


def _residue_array(em: ExactMatrix, p: int, numpy_data=None) -> np.ndarray:
    """The residues mod p an engine of form RESIDUES reads: ``numpy_data`` as it is,
    else the int64 residues of ``em`` (an ``nmod_mat`` or an ``fmpz_mat``)."""
    if numpy_data is not None:
        return numpy_data
    m, n = em.shape
    nm = em.nmat if em.nmat is not None else fe.reduce_mod_p(em.zmat, p)
    if not m:
        return np.zeros((m, n), dtype=np.int64)
    return np.array(nm.tolist(), dtype=np.int64).reshape(m, n)


def _nmod_matrix(em: ExactMatrix, p: int, numpy_data=None) -> flint.nmod_mat:
    """The ``nmod_mat`` an engine of form NMOD_MAT reads: the input, or its reduction."""
    if em.nmat is not None:
        return em.nmat
    if numpy_data is not None:
        return ResidueMatrix(numpy_data, p).to_nmod_mat()
    return fe.reduce_mod_p(em.zmat, p)


#: how the input reaches an engine, by the form it reads (``ModularEngine.takes``)
_TO_FORM = {RESIDUES: _residue_array, NMOD_MAT: _nmod_matrix}


def _gf_p_rank(em: ExactMatrix, p: int, engine: str, certify: bool, numpy_data=None,
               overwrite: bool = False):
    """Rank over GF(p) of a matrix given mod p: (rank, certificate or None, method).

    ``numpy_data`` (residues, or integers to reduce) spares the engine a copy of ``em``;
    ``overwrite``: they are a scratch copy the engine may use as its workspace.
    The certificate has the lower bound, and the trivial upper bound when the rank
    is full on engines whose profile gives it (:func:`_profile_certificate`).
    """
    eng = get_engine(engine)
    data = _TO_FORM[eng.takes](em, p, numpy_data)
    if not certify:
        if overwrite:
            return eng.rank_profile(data, p, overwrite=True)[0], None, eng.label
        return eng.rank(data, p), None, eng.label
    r, rows, cols = eng.rank_profile(data, p, overwrite=overwrite)
    cert = _profile_certificate(r, rows, cols, p, em.shape, eng.certificate_parts)
    return r, cert, eng.label


# ---------------------------------------------------------------- certificates


def _profile_certificate(r: int, rows, cols, p: int, shape: tuple[int, int],
                         parts: tuple[str, ...]) -> RankCertificate:
    """A rank profile mod p as a certificate: its pivot minor, and min(m, n) when full
    (if the engine's profile proves that: ``FULL_RANK_BOUND`` in its parts)."""
    lower = LowerBoundCertificate(prime=p, rows=tuple(rows), cols=tuple(cols))
    upper = UpperBoundCertificate(bound=r, side="trivial", modulus=p) \
        if r == min(shape) and FULL_RANK_BOUND in parts else None
    return RankCertificate(lower=lower, upper=upper)


def _gf_p_certificate(plan: RankPlan, cert: RankCertificate, r: int) -> RankCertificate:
    """Complete a GF(p) certificate: kernel vectors mod p where no upper bound is yet."""
    if cert.upper is not None:
        return cert
    em = plan._exact
    nm = em.nmat if em.nmat is not None else plan._input.to_nmod_mat()
    return RankCertificate(lower=cert.lower, upper=fe.kernel_certificate_mod_p(nm, r))


def _over_q_certificate(cert: RankCertificate, full: bool, shape) -> RankCertificate:
    """A rank mod p read over Q: the trivial bound min(m, n) is an upper bound when full."""
    upper = UpperBoundCertificate(bound=min(shape), side="trivial") if full else None
    return RankCertificate(lower=cert.lower, upper=upper)


# ---------------------------------------------------------------- labelling


_NOTE_GF_P = "exact rank over GF(p) (the matrix was given over GF(p))"
_NOTE_FULL = ("full rank mod p: the certified lower bound meets the trivial upper "
              "bound min(m, n), so the rank over Q is exact")
_NOTE_MOD_P = "rank mod p: a certified lower bound for the rank over Q"
_NOTE_MM_EXACT = "lower bound mod p met by exact kernel vectors (p-adic lifting, verified)"
_NOTE_MM_LOWER = "kernel vectors not found within the digit budget: certified lower bound only"
_NOTE_FMPZ = "exact rank over Q (fraction-free elimination)"


def _full_rank_result(rp: int, shape, cert, used: str, primes: list[int], trials: list,
                      certify: bool, start: float) -> RankResult:
    """Label a rank mod p: exact when full (lower bound meets min(m, n)), else a lower bound."""
    full = rp == min(shape)
    if certify:
        cert = _over_q_certificate(cert, full, shape)
    return RankResult(value=rp, kind=EXACT if full else LOWER_BOUND,
                      method=used, field="QQ", shape=tuple(shape), certificate=cert,
                      primes=primes, prime_trials=trials,
                      note=_NOTE_FULL if full else _NOTE_MOD_P,
                      seconds=time.perf_counter() - start)


def _multimodular_trials(mm, engine: str) -> list[dict]:
    """The trials of a multimodular run: its rank phase (on ``engine``), then its lifting."""
    ranked = [_trial(p, "multimodular rank phase", engine, MULTIMODULAR, r)
              for p, r in mm.rank_phase]
    lifting = [_trial(q, "multimodular lifting", None, MULTIMODULAR, None)
               for q in mm.primes[len(mm.rank_phase):]]
    return ranked + lifting


def _multimodular_result(mm, plan: RankPlan, start: float, primes: list[int],
                         trials: list) -> RankResult:
    """The RankResult of a :func:`~seprank.linalg.rational.multimodular.rank_multimodular` run,
    after the primes and trials of the steps before it."""
    cert = RankCertificate(lower=mm.lower, upper=mm.upper) if plan.certify else None
    return RankResult(value=mm.rank, kind=EXACT if mm.exact else LOWER_BOUND,
                      method=MULTIMODULAR, field="QQ", shape=plan.shape,
                      certificate=cert, primes=primes + mm.primes,
                      prime_trials=trials + _multimodular_trials(mm, plan.multimodular_engine),
                      note=_NOTE_MM_EXACT if mm.exact else _NOTE_MM_LOWER,
                      seconds=time.perf_counter() - start)


# ---------------------------------------------------------------- execution


def rank(matrix: object, method: str = "auto", *, prime: int | None = None,
         certify: bool = False, engine: str | None = None, tol: float | None = None,
         rtol: float | None = None, max_memory: int | str | None = None,
         max_seconds: float | str | None = None, budget: Budget | None = None) -> RankResult:
    """Rank of ``matrix``, with the kind of answer it is.

    ``rank(...)`` is ``execute(plan_rank(...))``: :func:`~seprank.linalg.planner.plan_rank`
    checks the arguments and decides (field, engine, primes, fallbacks,
    certificate, kinds); :func:`execute` computes.

    Parameters
    ----------
    matrix
        list of rows of ints/Fractions, numpy integer array, python-flint
        ``fmpz_mat``/``fmpq_mat``/``nmod_mat``, sympy Matrix of rationals, or a
        ``ResidueMatrix`` (float arrays only with ``method="float"``).
    method
        one of ``METHODS``: ``"auto"``, ``"exact"``, ``"modular"``,
        ``"multimodular"``, ``"float"``, ``"cuda"`` (module docstring).
    prime
        the prime for ``"modular"`` (default 2^31 - 1 on flint, 1048573 on
        numba), the first one tried by ``"auto"`` (default: drawn at random,
        see the module docstring) and by ``"exact"`` certificates.
    certify
        attach a :class:`~seprank.linalg.certificates.RankCertificate`:
        a nonsingular minor mod p (lower bound) and, for exact answers, integer
        kernel vectors (upper bound). Check it with :func:`seprank.verify`.
    engine
        a name in ``ENGINES`` (:mod:`seprank.linalg.engines`) for the modular
        work (default: by size).
    tol, rtol
        absolute / relative singular-value tolerance for ``"float"`` only.
    max_memory, max_seconds, budget
        the limits (:mod:`seprank.budget`): peak bytes (or a size such as ``"2G"``) and
        seconds by the estimate, or a :class:`~seprank.budget.Budget`; default the
        machine's memory. Each step is estimated and checked before it allocates (the
        exact fallbacks of ``auto`` with the rank mod p in hand).

    Returns
    -------
    RankResult

    Raises
    ------
    InputError, NotPrimeError, ParameterError, MemoryLimitError, TimeLimitError
        with a one-line message naming the problem (a refusal names the estimate
        and the limit).

    Examples
    --------
    >>> r = rank([[1, 2], [2, 4]])
    >>> r.value, r.kind
    (1, 'exact')
    >>> rank([[1, 0], [0, 3]], method="modular", prime=3).kind
    'lower_bound'
    >>> rank([[1.0, 0.0], [0.0, 1e-20]], method="float").kind
    'float_estimate'
    """
    start = time.perf_counter()
    return execute(plan_rank(matrix, method, prime=prime, certify=certify, engine=engine,
                             tol=tol, rtol=rtol, max_memory=max_memory,
                             max_seconds=max_seconds, budget=budget), start=start)


def execute(plan: RankPlan, *, start: float | None = None) -> RankResult:
    """Carry out a :class:`~seprank.linalg.planner.RankPlan` (from ``plan_rank``).

    ``start`` (a ``time.perf_counter()`` reading) is where the result's
    ``seconds`` count from; default: now.

    Examples
    --------
    >>> plan = plan_rank([[1, 2], [2, 4]], method="modular", prime=5)
    >>> res = execute(plan)
    >>> res.value, res.kind in plan.kinds, res.primes
    (1, True, [5])
    """
    start = time.perf_counter() if start is None else start
    with (plan._budget or current()).active():
        return _execute(plan, start)


def _execute(plan: RankPlan, start: float) -> RankResult:
    """:func:`execute` inside the plan's budget."""
    if plan.field == "RR":
        r, details = float_rank(plan._array, tol=plan.tol, rtol=plan.rtol)
        note = "floating-point estimate: no guarantee"
        if plan.input_rounding is not None:   # said in the answer, not only in the plan
            from seprank.linalg.coerce import rounding_text

            details["input_rounding"] = plan.input_rounding
            note += f"; {rounding_text(plan.input_rounding)}"
        return RankResult(value=r, kind=FLOAT_ESTIMATE, method="numpy-svd", field="RR",
                          shape=plan.shape, details=details, note=note,
                          seconds=time.perf_counter() - start)
    if plan.modulus is not None:
        return _run_gf_p(plan, start)
    if plan.method in ("modular", "auto"):
        return _run_modular_or_auto(plan, start)
    if plan.method == MULTIMODULAR:
        from seprank.linalg.rational.multimodular import rank_multimodular

        mm = rank_multimodular(plan._exact.zmat, engine=plan.multimodular_engine)
        return _multimodular_result(mm, plan, start, [], [])
    return _rank_exact(plan._exact, plan.certificate_primes, plan.certify, start, [], [])


def _run_gf_p(plan: RankPlan, start: float) -> RankResult:
    """Exact rank of a matrix given over GF(p) (``nmod_mat`` or ``ResidueMatrix``)."""
    p = plan.modulus
    r, cert, used = _gf_p_rank(plan._exact, p, plan.engine, plan.certify, plan._array)
    if plan.certify:
        cert = _gf_p_certificate(plan, cert, r)
    return RankResult(value=r, kind=EXACT, method=used, field=plan.field,
                      shape=plan.shape, certificate=cert, primes=[p],
                      prime_trials=[_trial(p, "rank mod p", plan.engine, used, r)],
                      note=_NOTE_GF_P,
                      seconds=time.perf_counter() - start)


def _prime_loop(plan: RankPlan):
    """The rank mod p for the plan's primes, stopping at full rank.

    Returns ((rank, certificate, method) of the best prime, the primes tried,
    their trials, the ExactMatrix if one was made). ``auto`` draws its primes at
    random (:func:`_auto_prime`), the first one the caller's if given.
    """
    matrix, em, eng = plan._input, plan._exact, plan.engine
    numpy_int = em is None  # an integer numpy array: reduced mod each prime as it is
    primes: list[int] = []
    trials: list[dict] = []
    best = None
    reads_residues = get_engine(eng).takes == RESIDUES
    for t in range(plan.primes.count):
        p = plan.primes.first if not t and plan.primes.first is not None \
            else _auto_prime(plan.primes.span)
        if numpy_int and reads_residues:  # float64 residues, the engine's workspace
            data, emp = float_residues(matrix, p), ExactMatrix(shape=plan.shape)
        else:
            em = em or as_exact(matrix)
            data, emp = None, em
        rp, cert, used = _gf_p_rank(emp, p, eng, plan.certify, data,
                                    overwrite=data is not None)
        primes.append(p)
        trials.append(_trial(p, "rank mod p", eng, used, rp))
        if best is None or rp > best[0]:
            best = (rp, cert, used)
        if rp == min(plan.shape):
            break
    return best, primes, trials, em


def _run_modular_or_auto(plan: RankPlan, start: float) -> RankResult:
    """``modular``: rank mod one prime. ``auto``: see the module docstring.

    ``auto`` tries two primes drawn at random (the first one the caller's, if
    given), so no input can make the rank drop mod every prime it tries; a
    rank that stays below min(m, n) mod both is most likely the true rank, and
    is then proven by the plan's exact fallbacks.
    """
    if plan.method == "auto" and is_zero_array(plan._input):
        return zero_result(plan.shape, plan.certify, start)
    (rp, cert, used), primes, trials, em = _prime_loop(plan)
    if rp == min(plan.shape) or not plan.fallbacks:
        return _full_rank_result(rp, plan.shape, cert, used, primes, trials, plan.certify,
                                 start)
    res = _exact_fallbacks(plan, em, start, primes, trials)
    res.details["primes_tried_mod_p"] = list(primes)
    return res


def _exact_fallbacks(plan: RankPlan, em: ExactMatrix | None, start: float,
                     primes: list[int], trials: list) -> RankResult:
    """The plan's exact methods in order: multimodular (kept only when it certifies an
    exact answer), then ``fmpz_mat.rank``, whose certificate starts at DEFAULT_PRIME.
    The result lists the primes and trials of every step, the earlier ones first.
    ``em`` None: the input is an integer numpy array, which the multimodular method
    reads as it is (no Python integers); the exact copy is made only for ``fmpz_mat``."""
    rp = max((t["rank_mod_p"] for t in trials), default=None)
    for name in plan.fallbacks:
        if name == MULTIMODULAR:
            from seprank.linalg.rational.multimodular import rank_multimodular

            source = em.zmat if em is not None else plan._input
            _check_step(multimodular_estimate(plan.shape, rp, entry_bits(source)), rp)
            mm = rank_multimodular(source, engine=plan.multimodular_engine,
                                   first_prime=random_prime(*plan.multimodular_primes.span))
            if mm.exact:
                return _multimodular_result(mm, plan, start, primes, trials)
            primes = primes + mm.primes
            trials = trials + _multimodular_trials(mm, plan.multimodular_engine)
        elif name == FMPZ:
            _check_step(fmpz_estimate(plan.shape, rp, entry_bits(
                em.zmat if em is not None else plan._input), certify=plan.certify), rp)
            em = em or as_exact(plan._input)
            return _rank_exact(em, plan.certificate_primes, plan.certify, start, primes,
                               trials)
    raise AssertionError(f"plan without a final exact fallback: {plan!r}")  # pragma: no cover


def _check_step(estimate, rank_mod_p: int | None) -> None:
    """Refuse an exact fallback of ``auto`` past the budget in force, in one line that
    says what the rank mod p already proves (and how to ask for just that)."""
    current().check(estimate, nearest=f"the rank mod p, {rank_mod_p}, is a certified lower "
                                      "bound: method='modular' (--method modular) gives it "
                                      "within the budget")


def _rank_exact(em: ExactMatrix, policy: PrimePolicy | None, certify: bool, start: float,
                primes: list[int], trials: list) -> RankResult:
    """Exact rank over Q by ``fmpz_mat.rank``; certificates from a prime (the plan's
    ``certificate_primes``, present when ``certify``) and the RREF. ``primes`` and
    ``trials``: those of the steps before it."""
    if em.modulus is not None:  # pragma: no cover - handled by _run_gf_p
        raise AssertionError("matrix over GF(p) reached the rational path")
    z = em.zmat
    m, n = em.shape
    r = fe.rank_exact(z)
    cert = None
    if certify:
        lower, minor_trials = _lower_for_exact(z, r, policy)
        primes = primes + [t["prime"] for t in minor_trials]
        trials = trials + minor_trials
        cert = RankCertificate(lower=lower, upper=fe.kernel_certificate(z, r))
    return RankResult(value=r, kind=EXACT, method="flint-fmpz", field="QQ", shape=(m, n),
                      certificate=cert, primes=primes, prime_trials=trials, note=_NOTE_FMPZ,
                      seconds=time.perf_counter() - start)
