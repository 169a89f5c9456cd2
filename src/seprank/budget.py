"""Budgets: estimate the work and the peak memory first, compare, and only then work.

Issue 23 items 1 and 2. Every command and API entry that can take long or allocate
much computes, from its parameters and the input's header alone, an :class:`Estimate`
(peak bytes, seconds, and the operation count behind the seconds) and hands it to
:meth:`Budget.check`, which compares it with

* the machine: the memory available now (:func:`machine_memory`: psutil's
  ``available``, a cgroup's ``memory.max``, and the room left under
  ``RLIMIT_AS``; the smallest), of which one allocation may take
  :data:`SAFETY_FRACTION`;
* the user's budget: ``max_memory`` (bytes, or a size such as ``"2G"``,
  ``"500M"``: :func:`parse_size`) and ``max_seconds``; on the command line
  ``--max-memory SIZE`` and ``--max-seconds S``, the same names everywhere.

Past either, it refuses with one line (:class:`~seprank.errors.MemoryLimitError` or
:class:`~seprank.errors.TimeLimitError`, both :class:`~seprank.errors.BudgetError`)
that states the estimate, the limit and, when the caller can say it, the nearest size
that fits (:func:`largest_fitting`)::

    the grid route needs about 41.0 GiB of memory (blocks up to 74k x 74k) > 15.2 GiB
    available (80% of the memory free now); the largest N that fits is 6

Seconds come from operation counts times a rate (:data:`RATES`, operations per
second of each kind of work, measured by ``benchmarks/budget_rates.py``), scaled by
:func:`calibration`: a 20-millisecond measurement of this process's speed against the
machine that set the rates, made once per process and only when a time limit or a
trace asks for seconds.

A :class:`Budget` is passed down explicitly to planners (``plan_rank(...,
budget=)``, a separation request's ``budget``); code deeper down that allocates in
stages asks :func:`current` (the budget of the innermost :meth:`Budget.active`
block, else the machine's), so :func:`seprank.linalg.memory.require_fits` honours
the user's ``max_memory`` too. ``SEPRANK_BUDGET_TRACE=FILE`` appends one JSON line
per check (what, estimate, limits, verdict) to FILE: the oversize campaign
(``tests/test_oversize_campaign.py``) compares each run's time with its own estimate.

Estimates are made before the work; the limits also hold *while* it runs (issue 32).
A budget's clock starts when it is first made active (:meth:`Budget.start`); every long
loop calls :func:`checkpoint` (the active budget's :meth:`Budget.checkpoint`), which
raises :class:`~seprank.errors.TimeLimitError` past ``max_seconds`` and
:class:`~seprank.errors.MemoryLimitError` once this process has grown past the memory
limit (its resident size, read at most every :data:`CHECK_INTERVAL` seconds; libraries
loaded on first use are allowed :data:`LIBRARY_BYTES` besides). Work that a loop cannot
interrupt (one long call into FLINT, which holds the interpreter) is stopped from outside
by the command line's guard (:mod:`seprank.budget_guard`), within :func:`time_margin`.

Examples
--------
>>> b = Budget(max_memory="1G")
>>> b.check(Estimate("a small buffer", nbytes=2**20)).nbytes
1048576
>>> b.check(Estimate("a huge buffer", nbytes=2**40))
Traceback (most recent call last):
...
seprank.errors.MemoryLimitError: a huge buffer needs about 1.0 TiB of memory > max_memory = 1.0 GiB
"""

from __future__ import annotations

import contextvars
import math
import os
import re
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

import seprank.schemas.strict_json as strict_json
from seprank.errors import MemoryLimitError, ParameterError, TimeLimitError
from seprank.runtime.machine import machine_memory

__all__ = ["Budget", "Estimate", "Rate", "RATES", "reference_seconds", "SAFETY_FRACTION",
           "TEXT_EXPANSION",
           "BASE_BYTES", "KERNEL_LOAD_SECONDS", "LIBRARY_BYTES", "CHECK_INTERVAL",
           "checkpoint", "time_margin", "memory_ceiling", "process_rss",
           "parse_size", "parse_seconds", "format_bytes", "format_seconds", "format_count",
           "machine_memory", "make_budget", "current", "calibration", "seconds_for",
           "largest_fitting", "as_float", "bigint_factor"]

#: Fraction of the memory available now that one computation may take.
SAFETY_FRACTION = 0.8
#: Python objects per byte of text or JSON: what a reader may hold per byte it reads
#: (a digit string becomes an int object and a list slot). The readers' default
#: byte cap is the memory limit divided by this (``Budget.read_cap``).
TEXT_EXPANSION = 40

_UNITS = {"": 1, "B": 1, "K": 2**10, "KB": 2**10, "KIB": 2**10, "M": 2**20, "MB": 2**20,
          "MIB": 2**20, "G": 2**30, "GB": 2**30, "GIB": 2**30, "T": 2**40, "TB": 2**40,
          "TIB": 2**40}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*")


def parse_size(value: object, name: str = "max_memory") -> int:
    """Bytes from an int or a size written as ``2G``, ``500M``, ``1.5GiB``, ``4096``.

    Units are powers of 1024 (K, M, G, T; with or without ``B``/``iB``). A bool, a
    float, a negative or zero size and any other text are refused.

    >>> parse_size("2G"), parse_size("500M"), parse_size("1.5 GiB"), parse_size(4096)
    (2147483648, 524288000, 1610612736, 4096)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: max_memory must be a size such as 2G, 500M or 4096 (bytes); \
got 'lots'
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise ParameterError(f"{name} must be at least 1 byte, got {value}")
        return value
    m = _SIZE.fullmatch(value) if isinstance(value, str) else None
    if m is None or m.group(2).upper() not in _UNITS:
        raise ParameterError(f"{name} must be a size such as 2G, 500M or 4096 (bytes); "
                             f"got {value!r}")
    nbytes = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if nbytes < 1:
        raise ParameterError(f"{name} must be at least 1 byte, got {value!r}")
    return nbytes


_SECONDS = {"": 1, "s": 1, "m": 60, "min": 60, "h": 3600}


def parse_seconds(value: object, name: str = "max_seconds") -> float:
    """Seconds from a positive number, or text such as ``90``, ``2.5``, ``10m``, ``1h``.

    >>> parse_seconds(30), parse_seconds("10m"), parse_seconds("0.5")
    (30.0, 600.0, 0.5)
    >>> parse_seconds(0)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: max_seconds must be a number of seconds > 0, got 0
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = float(value)
    else:
        m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]*)\s*", value) \
            if isinstance(value, str) else None
        if m is None or m.group(2) not in _SECONDS:
            raise ParameterError(f"{name} must be a number of seconds > 0 (or 10m, 1h), "
                                 f"got {value!r}")
        seconds = float(m.group(1)) * _SECONDS[m.group(2)]
    if not seconds > 0 or math.isinf(seconds):
        raise ParameterError(f"{name} must be a number of seconds > 0, got {value!r}")
    return seconds


# ------------------------------------------------------------------ words for sizes


def _huge(x: float | int) -> bool:
    return isinstance(x, int) and x.bit_length() > 1000 or x == math.inf


def _power_of_ten(n: int) -> str:
    """``10^k`` for a huge int, from its bit length (never ``str(n)``: quadratic, capped)."""
    return f"10^{int(n.bit_length() * math.log10(2))}"


def format_bytes(nbytes: float | int) -> str:
    """A size for people: ``1.5 KiB``, ``3.0 GiB``, ``2.1e+20 TiB`` (any int, however big).

    >>> format_bytes(512), format_bytes(1536), format_bytes(3 * 2**30), format_bytes(10**400)
    ('512.0 B', '1.5 KiB', '3.0 GiB', '10^400 B')
    """
    if _huge(nbytes):
        return "more than 10^300 B" if nbytes == math.inf else f"{_power_of_ten(nbytes)} B"
    x = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if x < 1024:
            return f"{x:.1f} {unit}"
        x /= 1024
    return f"{x:.1f} TiB" if x < 1e5 else f"{x:.2g} TiB"


def format_seconds(seconds: float) -> str:
    """A duration for people: ``0.2 s``, ``45 s``, ``12 min``, ``3.1 h``, ``2.0e+05 years``.

    >>> format_seconds(0.2), format_seconds(45), format_seconds(720), format_seconds(1e13)
    ('0.2 s', '45 s', '12 min', '3.2e+05 years')
    """
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 600:
        return f"{seconds:.0f} s"
    if seconds < 36000:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400 * 2:
        return f"{seconds / 3600:.1f} h"
    if seconds < 86400 * 730:
        return f"{seconds / 86400:.0f} days"
    if seconds == math.inf:
        return "forever"
    return f"{seconds / (86400 * 365.25):.2g} years"


def format_count(n: float | int) -> str:
    """A count for people: ``950``, ``74k``, ``1.2M``, ``3.4e+12``, ``10^400``.

    >>> format_count(950), format_count(74_000), format_count(1_234_567), format_count(3e12)
    ('950', '74k', '1.2M', '3e+12')
    """
    if _huge(n):
        return "10^300+" if n == math.inf else _power_of_ten(n)
    x = float(n)
    if x < 1000:
        return f"{x:.0f}"
    if x < 1e6:
        return f"{x / 1e3:.0f}k"
    if x < 1e9:
        return f"{x / 1e6:.1f}M"
    return f"{x:.2g}"


# ------------------------------------------------------------------ rates


@dataclass(frozen=True)
class Rate:
    """Operations per second of one kind of work, and what an operation is there.

    >>> RATES["modular"].per_second > RATES["python"].per_second
    True
    """

    per_second: float
    operation: str


#: Operations per second, measured by ``benchmarks/budget_rates.py`` on the project's
#: 2-core machine (AMD EPYC, shared with other jobs at load 6-8, November 2026): the
#: slowest of three runs, then halved, so that an estimate is an upper bound on a
#: loaded machine. :func:`calibration` rescales them to the machine at hand.
RATES: dict[str, Rate] = {
    "python": Rate(4e6, "a Python-level operation on exact numbers (object arrays, lists)"),
    "flint": Rate(8e7, "a multiply-add of word-size integers in fmpz_mat elimination"),
    "nmod": Rate(4e8, "a multiply-add mod p in nmod_mat elimination (python-flint)"),
    "modular": Rate(4e9, "a multiply-add mod p in the numba blocked LU (BLAS products)"),
    # lu, lu_small: the same LU at the numba engine's own primes (p < 2^20: many products
    # between two reductions). Measured 2026-11-29 (benchmarks/moment_floor.py, square-ish
    # random matrices, load 2.5): 9.7e9 at short side 500, 2.7e10 at 1000, 5.8e10 at 2000,
    # 7.7e10 at 4000, 4.9e10 at 6000; halved. seprank.linalg.estimates.lu_rank_work
    # splits a rank's operations between the tiers by its short side.
    "lu": Rate(2.5e10, "a multiply-add mod p < 2^20 in the numba blocked LU, short side "
                       ">= 2000"),
    "lu_small": Rate(4e9, "a multiply-add mod p < 2^20 in the numba blocked LU, short side "
                          "<= 500"),
    # lu_large: lu times the rise of the measured rate from short side 2000 to 8000 in one
    # run (benchmarks/lu_rate.py, 2026-11-29, load 0.8-1.5: 6.5e10 at 2000, 1.58e11 at
    # 8000, 1.65e11 at 11440; 2.4x), so that it keeps lu's margin for load. Measured under
    # load 11: 2.9e10 at 11440 (issue 28).
    "lu_large": Rate(6e10, "a multiply-add mod p < 2^20 in the numba blocked LU, short side "
                           ">= 8000"),
    "grid": Rate(1.5e8, "a multiply-add mod p in the numba network evaluation"),
    # moment_eval: 1.4e9-1.8e9 measured at L = 3, d = 4 and d = 6 (2 shared cores; per
    # evaluation: seprank.models.moment_mod_p.eval_ops)
    "moment_eval": Rate(1.2e9, "a multiply-add mod p in the numba moment-form kernel"),
    "poly": Rate(4e5, "a term operation in the python-flint expansion of the network"),
    # mpoly: L = 3, d = 4, H = 2's expansion of G_L (about 5.3e8 term products by
    # seprank.separation.moment.plan.expansion_cost) took 7.5-10 s on 2 shared cores
    "mpoly": Rate(5e7, "a product of two terms in python-flint's fmpz_mpoly multiplication"),
    # fused_product: the compiled last product of G_L mod p (seprank.separation.moment.
    # expansion_mod): L = 3, d_x = 4, H = 2's 3.5e7 pairs of terms times (16 multiply-adds
    # + a lookup counted as 4) in 1.7 s, idle, 2026-11-29 (4e8 per second); halved
    "fused_product": Rate(2e8, "a multiply-add (or a fourth of a lookup) in the compiled "
                               "last product of the expansion mod p"),
    # block_entry: a catalecticant entry is a term's residue found by its key in a hash
    # table (seprank.separation.moment.term_table.gather_block, rows on both cores): 3.8-4.2
    # s for the 1.35e8 entries of L = 3, d_x = 4, H = 2's block 7 (3.3e7 per second, idle,
    # 2026-11-29; 9.6 s before the one-pass gather); halved
    "block_entry": Rate(1.5e7, "an entry of a moment-form block built from the expansion"),
    "float": Rate(1e9, "a float64 operation in numpy's SVD"),
    # parse: 1.3-2.9 MB/s measured reading 4 MB of 7-digit entries as CSV, text and JSON
    # (seprank.files.matrix_io.load_matrix; calibration 0.5), the slowest halved (issue 32)
    "parse": Rate(3.3e5, "a byte of text or JSON read into exact numbers"),
}
#: Memory a computation takes that does not scale with its sizes (Python's caches, malloc
#: arenas, the first call of a module): measured 1.5-2.6 MiB for the smallest routes by
#: benchmarks/budget_rates.py; added to every route's and rank's estimate.
BASE_BYTES = 4 * 2**20
#: Fixed cost of a computation that loads the numba kernels from their cache (seconds).
KERNEL_LOAD_SECONDS = 3.0
#: Memory that libraries loaded on the first call of a route take (numba's kernels and
#: LLVM, python-flint, SciPy: 60-150 MiB measured): a process may grow by this much besides
#: its memory limit before :meth:`Budget.checkpoint` or the guard stops it.
LIBRARY_BYTES = 256 * 2**20
#: Seconds between two readings of the resident size by :meth:`Budget.checkpoint`.
CHECK_INTERVAL = 0.1
#: What the 20 ms reference loop took on the machine that measured :data:`RATES`.
_REFERENCE_LOOP_SECONDS = 0.02
_CALIBRATION: list[float] = []


def _reference_loop() -> float:
    """Seconds of a fixed mix of Python integer work (the calibration's yardstick)."""
    t0 = time.perf_counter()
    acc = 0
    for i in range(60_000):
        acc = (acc * 31 + i * i) % 1_000_003
    return time.perf_counter() - t0


def calibration() -> float:
    """How much slower this process runs than the machine that set :data:`RATES`
    (a factor in [0.5, 20]), measured once per process (about 20 ms).

    >>> 0.5 <= calibration() <= 20
    True
    """
    if not _CALIBRATION:
        measured = min(_reference_loop() for _ in range(2))
        _CALIBRATION.append(min(max(measured / _REFERENCE_LOOP_SECONDS, 0.5), 20.0))
    return _CALIBRATION[0]


def load_factor() -> tuple[float, float]:
    """(factor, load): how much longer CPU-bound work runs on this machine now than alone
    on it, max(1, (load + 1) / cores) with ``load`` the 1-minute load average (the other
    runnable processes, plus this job); (1.0, 0.0) where the load is not known. Measured
    on 2 cores (``benchmarks/results/explain_vs_wall_load10.md``): at load 10 the moment
    route ran 5.6-7 times longer than idle (L = 3, d_x = 4), the factor gives 5.5.
    What ``--explain`` prints for this machine now; the budgets and the plans use
    :func:`calibration` alone (a plan's choices must not depend on the load of the moment).

    >>> factor, load = load_factor()
    >>> factor >= 1.0 and load >= 0.0
    True
    """
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 1.0, 0.0
    return max(1.0, (load + 1) / (os.cpu_count() or 1)), load


def as_float(x: float | int) -> float:
    """``float(x)``, or ``math.inf`` past the float range (an estimate never overflows).

    >>> as_float(3), as_float(10**400)
    (3.0, inf)
    """
    try:
        return float(x)
    except OverflowError:
        return math.inf


def bigint_factor(bits: float | int) -> float:
    """How much slower an operation on integers of ``bits`` bits is than on machine words:
    (bits / 64)^1.6 (Karatsuba multiplication), at least 1.

    >>> bigint_factor(64), round(bigint_factor(6400))
    (1.0, 1585)
    """
    words = as_float(bits) / 64
    return 1.0 if words <= 1 else (words ** 1.6 if words < 1e150 else math.inf)


def reference_seconds(work) -> float:
    """Seconds of ``work`` ((operations, kind) pairs) at the rates of :data:`RATES` as
    measured, without :func:`calibration`: what a plan compares with a budget of its own
    when its choices must not depend on the load of the moment (the moment route's
    ``budget_seconds``; :func:`seconds_for` is what the same work takes here).

    >>> reference_seconds([(4e6, "python"), (5e7, "mpoly")])
    2.0
    """
    total = 0.0
    for ops, kind in work:
        total += as_float(ops) / RATES[kind].per_second
    return total


def seconds_for(operations: float | int, kind: str, *, fixed: float = 0.0) -> float:
    """Estimated seconds of ``operations`` operations of ``kind`` (a key of :data:`RATES`),
    plus ``fixed`` seconds, on this machine.

    >>> seconds_for(0, "python")
    0.0
    >>> seconds_for(10**400, "python") == math.inf
    True
    """
    if not operations and not fixed:
        return 0.0
    try:
        ops = float(operations)
    except OverflowError:
        return math.inf
    return (ops / RATES[kind].per_second + fixed) * calibration()


# ------------------------------------------------------------------ estimates and budgets


@dataclass(frozen=True)
class Estimate:
    """What a computation will need, from sizes alone (before it allocates).

    Attributes
    ----------
    what : str
        the computation, as the refusal names it (``"the grid route"``).
    nbytes : int
        its peak memory beyond what is already held (an upper bound).
    work : tuple of (operations, kind)
        its operation counts by kind of work (keys of :data:`RATES`).
    fixed_seconds : float
        seconds that do not scale (loading kernels).
    detail : str
        the sizes behind the numbers, for people (``"blocks up to 74k x 74k"``).

    >>> e = Estimate("a rank", nbytes=2**30, work=((10**9, "modular"),), detail="1000 x 1000")
    >>> e.operations, e.seconds > 0
    (1000000000, True)
    """

    what: str
    nbytes: int = 0
    work: tuple[tuple[float | int, str], ...] = ()
    fixed_seconds: float = 0.0
    detail: str = ""
    _seconds: list[float] = field(default_factory=list, compare=False, repr=False)

    @property
    def operations(self) -> float | int:
        """The operation count (all kinds together)."""
        return sum(ops for ops, _ in self.work)

    @property
    def seconds(self) -> float:
        """Estimated seconds on this machine (computed on first use: :func:`calibration`)."""
        if not self._seconds:
            self._seconds.append(sum(seconds_for(ops, kind) for ops, kind in self.work)
                                 + (self.fixed_seconds * calibration() if self.fixed_seconds
                                    else 0.0))
        return self._seconds[0]

    def plus(self, other: Estimate, what: str | None = None) -> Estimate:
        """Two computations one after the other: the larger peak, the sum of the work.

        >>> a = Estimate("a", nbytes=10, work=((5, "python"),))
        >>> b = Estimate("b", nbytes=7, work=((1, "flint"),))
        >>> a.plus(b).nbytes, len(a.plus(b).work)
        (10, 2)
        """
        return Estimate(what or self.what, max(self.nbytes, other.nbytes),
                        self.work + other.work, self.fixed_seconds + other.fixed_seconds,
                        "; ".join(d for d in (self.detail, other.detail) if d))

    def to_dict(self) -> dict:
        """JSON-ready form (``seconds`` only when computed)."""
        out = {"what": self.what, "peak_bytes": self.nbytes, "operations": self.operations,
               "detail": self.detail}
        if self._seconds:
            out["seconds"] = self._seconds[0]
        return out


class Budget:
    """The limits a computation must stay within: the machine's and the user's.

    Parameters
    ----------
    max_memory : int or str or None
        bytes (or a size, :func:`parse_size`) the computation may hold at its peak;
        None: only the machine's limit (:data:`SAFETY_FRACTION` of :func:`machine_memory`).
    max_seconds : float or str or None
        seconds it may run by its estimate; None: no limit.
    read_cap : int or str or None
        bytes a reader may read from one file, device or pipe; None:
        :attr:`memory_limit` // :data:`TEXT_EXPANSION`.

    >>> b = Budget(max_memory="500M", max_seconds=60)
    >>> b.memory_limit <= 500 * 2**20, b.max_seconds
    (True, 60.0)
    >>> Budget(max_memory=True)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: max_memory must be a size such as 2G, 500M or 4096 (bytes); \
got True
    """

    def __init__(self, max_memory: int | str | None = None,
                 max_seconds: float | str | None = None,
                 read_cap: int | str | None = None):
        self.max_memory = None if max_memory is None else parse_size(max_memory)
        self.max_seconds = None if max_seconds is None else parse_seconds(max_seconds)
        self._read_cap = None if read_cap is None else parse_size(read_cap, "read_cap")
        self._started: float | None = None     # time.monotonic() when the clock started
        self._rss0 = 0                         # resident bytes then
        self._ceiling = 0                      # resident growth that stops the work
        self._next_rss = 0.0                   # when to read the resident size again

    def __repr__(self) -> str:
        parts = [f"max_memory={format_bytes(self.max_memory)}" if self.max_memory else "",
                 f"max_seconds={self.max_seconds:g}" if self.max_seconds else ""]
        return f"Budget({', '.join(p for p in parts if p) or 'the machine'})"

    def _memory(self) -> tuple[int, str]:
        avail, source = machine_memory()
        machine = int(SAFETY_FRACTION * avail)
        words = f"{format_bytes(machine)} available ({SAFETY_FRACTION:.0%} of the {source} now)"
        if self.max_memory is not None and self.max_memory <= machine:
            return self.max_memory, f"max_memory = {format_bytes(self.max_memory)}"
        return machine, words

    @property
    def memory_limit(self) -> int:
        """Bytes one computation may hold at its peak now."""
        return self._memory()[0]

    @property
    def read_cap(self) -> int:
        """Bytes a reader may read from one file, device or pipe."""
        if self._read_cap is not None:
            return self._read_cap
        return max(self.memory_limit // TEXT_EXPANSION, 1)

    def fits(self, estimate: Estimate) -> bool:
        """Whether ``estimate`` is within the memory and time limits (no error, no trace).

        >>> Budget(max_memory="1M").fits(Estimate("x", nbytes=2**21))
        False
        """
        if estimate.nbytes > self.memory_limit:
            return False
        return self.max_seconds is None or estimate.seconds <= self.max_seconds

    def check(self, estimate: Estimate, *, nearest: str | Callable[[], str | None] = ""
              ) -> Estimate:
        """Return ``estimate`` when it fits; else raise one line naming it and the limit.

        ``nearest`` (text, or a function giving it, called only on refusal): the nearest
        size that fits, e.g. ``"the largest N that fits is 6"``.

        Raises
        ------
        MemoryLimitError
            the peak memory exceeds the memory limit.
        TimeLimitError
            the estimated seconds exceed ``max_seconds``.
        """
        limit, words = self._memory()
        problem = None
        if estimate.nbytes > limit:
            problem = MemoryLimitError(
                f"{estimate.what} needs about {format_bytes(estimate.nbytes)} of memory"
                + (f" ({estimate.detail})" if estimate.detail else "") + f" > {words}")
        elif self.max_seconds is not None and estimate.seconds > self.max_seconds:
            problem = TimeLimitError(
                f"{estimate.what} needs about {format_seconds(estimate.seconds)} "
                f"({format_count(estimate.operations)} operations"
                + (f"; {estimate.detail}" if estimate.detail else "")
                + f") > max_seconds = {format_seconds(self.max_seconds)}")
        _trace(estimate, self, limit, problem)
        if problem is None:
            return estimate
        hint = nearest() if callable(nearest) else nearest
        if hint:
            problem.args = (f"{problem.args[0]}; {hint}",)
        raise problem

    def require(self, nbytes: int, what: str) -> None:
        """Refuse (MemoryLimitError, one line) when ``nbytes`` more cannot fit.

        >>> Budget(max_memory="1K").require(2048, "a buffer")
        Traceback (most recent call last):
        ...
        seprank.errors.MemoryLimitError: a buffer needs about 2.0 KiB of memory > \
max_memory = 1.0 KiB
        """
        self.check(Estimate(what, nbytes=nbytes))

    def start(self, at: float | None = None) -> Budget:
        """Start the clock (once; later calls keep the first start): now, or at ``at`` (a
        ``time.monotonic()`` value, e.g. when the process began); note the resident size
        now, from which :meth:`checkpoint` measures growth.

        >>> b = Budget(max_seconds=60).start()
        >>> 0 <= b.elapsed() < 60
        True
        """
        if self._started is None:
            self._started = time.monotonic() if at is None else at
            self._rss0 = process_rss()
        return self

    def elapsed(self) -> float:
        """Seconds since :meth:`start` (0 before it).

        >>> Budget().elapsed()
        0.0
        """
        return 0.0 if self._started is None else time.monotonic() - self._started

    def checkpoint(self, what: str) -> None:
        """Stop the work in one line when it has run past ``max_seconds`` or grown past the
        memory limit (:func:`memory_ceiling` of the limit at the first check); cheap
        enough for every pass of a loop (the resident size is read every
        :data:`CHECK_INTERVAL` seconds). Nothing happens before :meth:`start`.

        Raises
        ------
        TimeLimitError, MemoryLimitError

        >>> b = Budget(max_seconds=0.001).start(at=time.monotonic() - 1)
        >>> b.checkpoint("a long loop")
        Traceback (most recent call last):
        ...
        seprank.errors.TimeLimitError: a long loop stopped at the time limit: ran 1.0 s > \
max_seconds = 0.0 s
        """
        if self._started is None:
            return
        now = time.monotonic()
        if self.max_seconds is not None and now - self._started > self.max_seconds:
            raise TimeLimitError(f"{what} stopped at the time limit: ran "
                                 f"{format_seconds(now - self._started)} > max_seconds = "
                                 f"{format_seconds(self.max_seconds)}")
        if now >= self._next_rss:
            self._next_rss = now + CHECK_INTERVAL
            if not self._ceiling:  # the limit as it was at the first check
                self._ceiling = memory_ceiling(self.memory_limit)
            grown = process_rss() - self._rss0
            if grown > self._ceiling:
                limit = self._ceiling - LIBRARY_BYTES
                raise MemoryLimitError(f"{what} stopped: this process grew by "
                                       f"{format_bytes(grown)} > the memory limit "
                                       f"{format_bytes(limit)} (+ {format_bytes(LIBRARY_BYTES)} "
                                       "for libraries)")

    @contextmanager
    def active(self):
        """Make this the budget :func:`current` returns inside the block, and start its
        clock (:meth:`start`) if it has not started.

        >>> with Budget(max_memory="1M").active():
        ...     current().max_memory
        1048576
        """
        self.start()
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)


_ACTIVE: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("seprank_budget",
                                                                         default=None)


def checkpoint(what: str) -> None:
    """:meth:`Budget.checkpoint` of the active budget (nothing when none is active): the
    call every long loop makes once per pass.

    >>> checkpoint("a loop outside any budget")
    >>> with Budget(max_seconds=60).active():
    ...     checkpoint("a loop inside one")
    """
    active = _ACTIVE.get()
    if active is not None:
        active.checkpoint(what)


def time_margin(max_seconds: float) -> float:
    """How far past ``max_seconds`` a command may run before it has stopped: 10% of the
    limit, at least 2 s (a loop's checkpoint, or the guard's, and the exit).

    >>> time_margin(5), time_margin(600)
    (2.0, 60.0)
    """
    return max(2.0, 0.1 * max_seconds)


def memory_ceiling(limit: int) -> int:
    """The growth of the resident size that stops the work for a memory ``limit``: the
    limit plus :data:`LIBRARY_BYTES` (libraries loaded on first use), and at least 10%
    over it.

    >>> memory_ceiling(2**30) == 2**30 + LIBRARY_BYTES
    True
    """
    return max(limit + LIBRARY_BYTES, int(1.1 * limit))


def process_rss(pid: int | None = None) -> int:
    """Resident bytes of process ``pid`` (default this one): ``/proc/PID/statm`` where there
    is one, else psutil; 0 when neither can say.

    >>> process_rss() > 0
    True
    """
    try:
        with open(f"/proc/{pid or 'self'}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import psutil

        return int(psutil.Process(pid).memory_info().rss)
    except Exception:  # noqa: BLE001 - psutil's errors (gone, denied) all mean "cannot say"
        return 0


try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
    _PAGE = 4096


def current() -> Budget:
    """The budget of the innermost :meth:`Budget.active` block, else the machine's.

    >>> current().max_memory is None
    True
    """
    active = _ACTIVE.get()
    return active if active is not None else Budget()


def make_budget(max_memory: int | str | None = None, max_seconds: float | str | None = None,
                budget: Budget | None = None) -> Budget:
    """The budget of an API call: ``budget`` as given, else one from ``max_memory`` and
    ``max_seconds``, else the active one (:func:`current`).

    >>> make_budget(max_memory="2G").max_memory
    2147483648
    >>> make_budget(budget="2G")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: budget must be a seprank.budget.Budget, got '2G'
    """
    if budget is not None:
        if not isinstance(budget, Budget):
            raise ParameterError(f"budget must be a seprank.budget.Budget, got {budget!r}")
        if max_memory is not None or max_seconds is not None:
            raise ParameterError("give budget= or max_memory=/max_seconds=, not both")
        return budget
    if max_memory is None and max_seconds is None:
        return current()
    return Budget(max_memory, max_seconds)


def largest_fitting(fits: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The largest k in [lo, hi] with ``fits(k)``, assuming fits is monotone
    (true up to some k, false after); None when ``fits(lo)`` is false.

    >>> largest_fitting(lambda k: k * k <= 50, 1, 100)
    7
    >>> largest_fitting(lambda k: False, 1, 10) is None
    True
    """
    if hi < lo or not fits(lo):
        return None
    good, step = lo, 1
    while good + step <= hi and fits(good + step):  # gallop up, then bisect
        good += step
        step *= 2
    bad = min(good + step, hi + 1)
    while bad - good > 1:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if fits(mid) else (good, mid)
    return good


def _trace(estimate: Estimate, budget: Budget, limit: int, problem) -> None:
    """One JSON line per check to ``$SEPRANK_BUDGET_TRACE`` (when set)."""
    path = os.environ.get("SEPRANK_BUDGET_TRACE")
    if not path:
        return
    try:
        seconds = estimate.seconds
    except OverflowError:  # pragma: no cover
        seconds = math.inf
    line = {"what": estimate.what, "peak_bytes": min(estimate.nbytes, 2**200),
            "seconds": seconds if math.isfinite(seconds) else 1e300,
            "memory_limit": limit, "max_seconds": budget.max_seconds,
            "refused": None if problem is None else type(problem).__name__,
            "pid": os.getpid(), "t": time.time()}
    try:
        with open(path, "a") as fh:
            fh.write(strict_json.dumps(line) + "\n")
    except OSError:  # pragma: no cover - a trace must never break a computation
        pass
