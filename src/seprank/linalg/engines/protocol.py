"""What a modular engine is: the protocol every engine answers through (issue 19, item 4).

An engine computes the rank profile of a matrix over GF(p): ``(r, rows, cols)``
with r the rank mod p and ``matrix[rows, cols]`` nonsingular mod p. The planner
(:mod:`seprank.linalg.planner`) and the front door (:mod:`seprank.linalg.frontdoor`)
never test an engine's name; they ask each registered engine, in the
registry's order, the questions below (the pattern of networkx's backends,
``can_run``/``should_run``, and xarray's ``guess_can_open``):

``can_run(shape, p, form)``
    whether it can take this input: the prime below its ``max_prime``, the input
    form among its ``forms``, and its library and device present
    (:meth:`ModularEngine.available`). A :class:`Verdict`, with the reason when not.
``should_run(shape, p, form)``
    whether it *prefers* this input (e.g. the numba engine from ``NUMBA_MIN_DIM``
    rows and columns on), with the reason either way; an engine with no
    preference declines with an empty reason. The first engine that prefers an
    input and can run it gets it; when none does, the first registered engine
    that can run it does, and the plan gives the declines as the reason.
``auto_primes``, ``auto_primes_name``
    the range ``auto`` draws its random primes from on this engine, and the
    name of the constant that holds it (printed by ``--explain``).
``label``
    what a rank taken on it is called in ``RankResult.method``.
``certificate_parts``
    the parts of a certificate its rank profile gives: :data:`MINOR` (the
    nonsingular minor, a lower bound) and, for some, :data:`FULL_RANK_BOUND` (the
    trivial upper bound min(m, n) when the rank is full, modulo p).
``takes``, ``rank_profile(data, p, overwrite=...)``, ``rank(data, p)``
    the one input form its computation reads (:data:`RESIDUES`, a numpy array of
    residues, or :data:`NMOD_MAT`, a python-flint ``nmod_mat``; the caller
    converts any other form to it), and the computation itself; ``rank`` is the
    rank alone, for engines that have a cheaper path without the profile.

Adding an engine is one module that builds a :class:`ModularEngine` and one
:func:`~seprank.linalg.engines.register_engine` call (tests/test_engine_registry.py
registers a toy one).

Input forms (the ``form`` argument, and :attr:`ModularEngine.forms`):
:data:`INT64` (an integer numpy array over Q, reduced mod each prime on the
host), :data:`FMPZ` (any other matrix over Q, read exactly into an
``fmpz_mat``), :data:`RESIDUES` (a :class:`~seprank.linalg.residues.ResidueMatrix`
over GF(p)), :data:`NMOD_MAT` (a python-flint ``nmod_mat`` over GF(p)).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Verdict", "ModularEngine", "INT64", "FMPZ", "RESIDUES", "NMOD_MAT", "FORMS",
           "MINOR", "FULL_RANK_BOUND", "power_text"]

#: input forms: an integer numpy array over Q; an exact matrix over Q (fmpz_mat);
#: a numpy array of residues mod p; a python-flint nmod_mat
INT64, FMPZ, RESIDUES, NMOD_MAT = "int64", "fmpz", "residues", "nmod_mat"
FORMS = (INT64, FMPZ, RESIDUES, NMOD_MAT)
#: certificate parts a rank profile gives: the nonsingular minor mod p (lower
#: bound), and the trivial bound min(m, n) mod p when the rank is full
MINOR, FULL_RANK_BOUND = "minor", "full-rank bound"


def power_text(p: int) -> str:
    """p as 2^k or 2^k - c (c < 1024) when it is one, else in decimal.

    Examples
    --------
    >>> power_text(2**26), power_text(2**31 - 1), power_text(3000000)
    ('2^26', '2^31 - 1', '3000000')
    """
    k = p.bit_length()
    if p == 2 ** (k - 1):
        return f"2^{k - 1}"
    return f"2^{k} - {2**k - p}" if 2**k - p < 1024 else str(p)


@dataclass(frozen=True)
class Verdict:
    """An engine's yes or no, with the reason (empty: nothing worth saying).

    Examples
    --------
    >>> v = Verdict(False, "p = 2^31 - 1 is above its limit 2^26")
    >>> bool(v), v.reason.startswith("p =")
    (False, True)
    >>> bool(Verdict(True))
    True
    """

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


def _always() -> bool:
    return True


def _no_preference(shape: tuple[int, int], p: int | None) -> Verdict:
    """Never preferred: the engine runs when asked, or as the first that can run."""
    return Verdict(False)


def _no_limits(shape: tuple[int, int], p: int | None) -> Verdict:
    return Verdict(True)


@dataclass(frozen=True)
class ModularEngine:
    """One engine for ranks over GF(p), and its answers to the planner (module docstring).

    Attributes
    ----------
    name, description, needs : str
        the registry name, what it is, what it needs installed (the manual's table).
    label : str
        ``RankResult.method`` of a rank taken on it (e.g. ``"numba-lu"``).
    max_prime, default_prime : int
        the largest prime it takes, and the prime of ``method="modular"`` on it.
    auto_primes, auto_primes_name : (lo, hi), str
        ``auto`` draws its primes from [lo, hi) on it; the constant's name.
    takes : str
        the form its computation reads (:data:`RESIDUES` or :data:`NMOD_MAT`).
    forms : tuple of str
        the input forms it accepts (the caller converts them to ``takes``).
    certificate_parts : tuple of str
        :data:`MINOR`, and :data:`FULL_RANK_BOUND` if its profile proves a full rank.
    _profile : (data, p, overwrite) -> (r, rows, cols)
        the computation (``overwrite``: the data may be used as workspace).
    _rank : (data, p) -> r, or None
        a cheaper rank without the profile (None: the profile's r).
    _available : () -> bool
        whether its library and device are here (checked only when it could run).
    _prefers : (shape, p) -> Verdict
        its preference by size and prime, before the checks of :meth:`can_run`.
    _limits : (shape, p) -> Verdict
        limits of its own beyond the prime and the form (default: none).

    Examples
    --------
    >>> import numpy as np
    >>> from seprank.linalg.engines import get_engine
    >>> eng = get_engine("flint")
    >>> eng.available(), eng.default_prime == 2**31 - 1, eng.label
    (True, True, 'flint-nmod')
    >>> eng.rank_profile(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 5)
    (2, [0, 2], [0, 1])
    >>> get_engine("numba").can_run((3, 3), 2**31 - 1)
    Verdict(ok=False, reason='p = 2147483647 is above its limit 2^26')
    >>> get_engine("numba").should_run((700, 700), 1048573)
    Verdict(ok=True, reason='min(m, n) = 700 >= NUMBA_MIN_DIM = 600')
    """

    name: str
    description: str
    label: str
    max_prime: int
    default_prime: int
    auto_primes: tuple[int, int]
    auto_primes_name: str
    _profile: Callable[..., tuple[int, list[int], list[int]]]
    takes: str = RESIDUES
    forms: tuple[str, ...] = FORMS
    certificate_parts: tuple[str, ...] = (MINOR,)
    needs: str = "python-flint"
    _rank: Callable[[Any, int], int] | None = None
    _available: Callable[[], bool] = _always
    _prefers: Callable[[tuple[int, int], int | None], Verdict] = _no_preference
    _limits: Callable[[tuple[int, int], int | None], Verdict] = _no_limits

    def available(self) -> bool:
        """Whether this engine can run on this machine now (its library, its device)."""
        return bool(self._available())

    def can_run(self, shape: tuple[int, int], p: int | None = None, form: str | None = None,
                *, device: bool = True) -> Verdict:
        """Whether it can take an input of this shape, prime and form, and why not.

        ``p`` None: the engine's own primes. ``device=False`` skips
        :meth:`available` (planning a run that will report it itself).
        """
        if form is not None and form not in self.forms:
            return Verdict(False, f"it does not take {form} input")
        if p is not None and p > self.max_prime:
            return Verdict(False, f"p = {p} is above its limit {power_text(self.max_prime)}")
        own = self._limits(shape, p)
        if not own:
            return own
        if device and not self.available():
            return Verdict(False, f"it needs {self.needs}, which is not available here")
        return Verdict(True)

    def should_run(self, shape: tuple[int, int], p: int | None = None,
                   form: str | None = None) -> Verdict:
        """Whether it prefers this input (and can run it), with the reason either way."""
        pref = self._prefers(shape, p)
        if not pref:
            return pref
        if p is not None and p > self.max_prime:
            return Verdict(False, f"{pref.reason}, but p = {p} is above the {self.name} "
                                  f"engine's limit {power_text(self.max_prime)}")
        can = self.can_run(shape, p, form)
        return pref if can else Verdict(False, f"{pref.reason}, but {can.reason}")

    def rank_profile(self, data, p: int, *, overwrite: bool = False
                     ) -> tuple[int, list[int], list[int]]:
        """(rank mod p, pivot rows, pivot columns) of ``data`` (its ``takes`` form, or
        a 2-D integer numpy array); ``overwrite``: ``data`` may serve as workspace."""
        return self._profile(data, p, overwrite)

    def rank(self, data, p: int) -> int:
        """The rank mod p alone (a cheaper path where the engine has one)."""
        if self._rank is not None:
            return self._rank(data, p)
        return self._profile(data, p, False)[0]
