"""The rank of G = (V V^T)^(Hadamard lam) for any V: exact, beside float64 and ((d, lam)).

G[i, j] = <v_i, v_j>^lam is the matrix the separation-rank bounds of the
papers are about (levine2020_depth_to_width_self_attention.txt B.2, l.700-712,
eq. (27); B.3, Lemma 6, eq. (28); wies2021_vocabulary_bottleneck.txt B.3,
Lemma 8, eqs. (24)-(26)). By the multinomial theorem G = M Delta M^T, with
M[i, k] = prod_r V[i, r]^(k_r) over the compositions k of lam into d parts
(d = columns of V) and Delta the diagonal of multinomial coefficients, so

    rank G <= min(n, ((d, lam))),   ((d, lam)) = C(d + lam - 1, lam),

and the Omega rows reach it (levine2020 l.700-712; ``seprank prove L-Omega``).

:func:`hadamard_rank` takes V (a file, an array, or a named construction of
:func:`named_V`), estimates the memory of the path it will take, builds G in
the cheapest exact form and ranks it, and returns a
:class:`HadamardRankResult`: the exact rank with its kind (and a certificate
that :func:`seprank.verify` re-checks, with ``certify=True``), the float64 rank
of the same G as numpy computes it from V, the bound, and the time of each path.

Paths (``method``):

* ``auto`` (default): G mod a prime drawn at random (:mod:`seprank.linalg.frontdoor`'s
  ranges), built from the residues of V without big integers. A rank mod p
  equal to n is the rank over Q (a nonzero minor mod p is a nonzero integer);
  so is one equal to ((d, lam)) (the bound above; without ``certify``, since
  that upper bound is a theorem, not a certificate). Otherwise G is built as
  exact integers and ranked by ``seprank.rank(G, "auto")``. When n > ((d, lam))
  the rank mod p cannot be full but can meet ((d, lam)), and usually does (a 400 x 6
  V at lam = 4: 0.3 s mod p against 7.6 s for the exact integers, issue 31); with
  ``certify`` (the bound is a theorem, not a certificate) the exact G is built at once.
* ``modular``: the rank mod one prime (``prime``, default 2^31 - 1 below 600
  rows, else 2^20 - 3): ``exact`` when it meets n or ((d, lam)), else a
  ``lower_bound`` over Q.
* ``exact`` / ``multimodular``: G as exact integers, ``seprank.rank(G, method)``.

A V with fractions has each row multiplied by the lcm of its denominators
first: G becomes D^lam G D^lam with D diagonal and invertible, of the same
rank (``rows_scaled`` says so; the float64 path uses V as given).
"""

from __future__ import annotations

import math
import operator
import os
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from seprank.budget import Budget, checkpoint, make_budget
from seprank.errors import InputError, ParameterError
from seprank.hadamard.estimates import check_construction, check_path, memory_estimate
from seprank.linalg.result import RankResult

__all__ = ["HadamardRankResult", "hadamard_rank", "read_V", "named_V", "multiset_bound",
           "memory_estimate", "METHODS", "CONSTRUCTIONS"]

#: the ``method`` values of :func:`hadamard_rank`
METHODS = ("auto", "exact", "modular", "multimodular")
#: the named constructions of :func:`named_V`
CONSTRUCTIONS = ("omega", "lemma6", "equal_norm")
#: from this many rows G mod p is built by the numba builder, below by numpy int64 products
NUMBA_BUILD_MIN_ROWS = 600


def multiset_bound(d: int, lam: int) -> int:
    """((d, lam)) = C(d + lam - 1, lam), the bound on rank (V V^T)^(Hadamard lam) for d columns.

    The number of compositions of lam into d parts (levine2020 l.700-712;
    wies2021 eqs. (24)-(26)).

    >>> multiset_bound(3, 2), multiset_bound(8, 7)
    (6, 3432)
    """
    return math.comb(d + lam - 1, lam)


# ------------------------------------------------------------------ reading V

def _entry(x: object, i: int, j: int) -> int | Fraction:
    """One entry of V as an int or a Fraction; anything inexact is refused."""
    kind = None
    if isinstance(x, (bool, np.bool_)):
        kind = "a bool"
    elif isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else x
    elif isinstance(x, (float, np.floating, complex, np.complexfloating)):
        kind = "a float"
    elif isinstance(x, (str, bytes)):
        kind = "a string"
    if kind is None:
        try:
            return operator.index(x)
        except TypeError:
            kind = f"a {type(x).__name__}"
    raise InputError(f"V entry ({i}, {j}) is {x!r}, {kind}; G is ranked exactly, so V must "
                     "hold integers or fractions (fractions.Fraction, or 'p/q' in a file)")


def _exact_rows(data: object) -> list[list[int | Fraction]]:
    if isinstance(data, np.ma.MaskedArray):
        raise InputError("V is a masked array (numpy.ma); masks are not read: give "
                         "numpy.ma.filled(V, value) or the rows you mean")
    if isinstance(data, np.ndarray):
        if data.ndim != 2:
            raise InputError(f"V must be 2-dimensional, got shape {data.shape}")
        if not data.shape[0] or not data.shape[1]:
            raise InputError(f"V has no {'rows' if not data.shape[0] else 'columns'} "
                             f"(shape {data.shape}); G needs at least one of each")
        if data.dtype.kind in "iu":
            return data.tolist()
        if data.dtype.kind != "O":
            what = "floats" if data.dtype.kind in "fc" else f"dtype {data.dtype}"
            raise InputError(f"V holds {what} (dtype {data.dtype}); G is ranked exactly, so V "
                             "must hold integers or fractions")
        data = data.tolist()
    if not isinstance(data, (list, tuple)):
        raise InputError(f"V must be a file path or a list of rows, got {type(data).__name__}")
    if not data:
        raise InputError("V has no rows")
    out = []
    for i, row in enumerate(data):
        if not isinstance(row, (list, tuple, np.ndarray)):
            raise InputError(f"V must be a list of rows; row {i} is {row!r}")
        if len(row) != len(data[0]):
            raise InputError(f"V is ragged: row {i} has {len(row)} entries, row 0 has "
                             f"{len(data[0])}")
        out.append([_entry(x, i, j) for j, x in enumerate(row)])
    if not out[0]:
        raise InputError("V has no columns")
    return out


def read_V(V: object) -> tuple[list[list[int | Fraction]], str]:
    """V as rows of ints and Fractions, and where it came from; refuses inexact input.

    ``V`` is a path (the formats of :func:`seprank.files.matrix_io.load_matrix`:
    ``.npy``, ``.json``, ``.csv``, whitespace text), a list of rows, or a numpy
    array. Floats, bools and strings are refused (never rounded or parsed),
    as are ragged and empty V, each with one :class:`~seprank.errors.InputError` line.

    Examples
    --------
    >>> read_V([[1, 2], [3, Fraction(1, 2)]])
    ([[1, 2], [3, Fraction(1, 2)]], 'array')
    >>> read_V([[1, 0.5]])
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: V entry (0, 1) is 0.5, a float; G is ranked exactly, ...
    """
    if isinstance(V, (str, os.PathLike)):
        from seprank.files.matrix_io import load_matrix

        path = Path(V)
        data = load_matrix(path, allow_float=True)  # its errors name the file already
        try:
            return _exact_rows(data), f"file {path}"
        except InputError as exc:                    # every file error names the file
            raise InputError(f"{path}: {exc}") from None
    return _exact_rows(V), "array"


def named_V(name: str, **params: Any) -> tuple[Any, int, str]:
    """V of a named construction, with its own lambda and a label: (V, lam, label).

    * ``"omega"`` (``d``, ``lam``, ``base`` = 2): the Omega rows of
      levine2020_depth_to_width_self_attention.txt B.2 (l.684-700); rank G = ((d, lam)).
    * ``"lemma6"`` (``depth`` L, ``heads`` H, ``da`` d_a, ``half`` M/2, ``seed``):
      the unit rows V of levine2020 B.3, Lemma 6 (l.724-730), lam = 3^(L-2).
    * ``"equal_norm"`` (``d``, ``lam``, ``seed``): the equal-norm witness of
      wies2021_vocabulary_bottleneck.txt B.3, Lemma 8 (l.704-732); rank G = ((d, lam)).

    Examples
    --------
    >>> V, lam, label = named_V("omega", d=2, lam=2, base=3)
    >>> V, lam
    ([[9, 1], [3, 3], [1, 9]], 2)
    >>> named_V("lemma6", depth=3, heads=1, da=3, half=2)[1:]
    (3, 'the V of levine2020 Lemma 6 (B.3): L=3, H=1, d_a=3, M/2=2, seed 0')
    """
    from seprank.constructions import equal_norm_witness, lemma6_V, omega_rows
    from seprank.constructions.lemma6 import check_parameters

    check_construction(name, params)
    if name == "omega":
        d, lam, base = params["d"], params["lam"], params.get("base", 2)
        if isinstance(base, bool) or not isinstance(base, int):
            raise ParameterError(f"the Omega base must be an integer, got {base!r}")
        return (omega_rows(d, lam, base), lam,
                f"Omega rows of levine2020 B.2: d={d}, lambda={lam}, Omega={base}")
    if name == "lemma6":
        L, H, d_a, half = params["depth"], params["heads"], params["da"], params["half"]
        seed = params.get("seed", 0)
        check_parameters(N=2, H=H, d_a=d_a, L=L)
        return (lemma6_V(H, d_a, half, seed=seed), 3 ** (L - 2),
                f"the V of levine2020 Lemma 6 (B.3): L={L}, H={H}, d_a={d_a}, M/2={half}, "
                f"seed {seed}")
    if name == "equal_norm":
        d, lam, seed = params["d"], params["lam"], params.get("seed", 0)
        w = equal_norm_witness(d, lam, seed=seed)
        return (w.A, lam, f"equal-norm witness of wies2021 Lemma 8: d={d}, lambda={lam}, "
                f"|row|^2 = {w.c}, seed {seed}")
    raise ParameterError(f"unknown construction {name!r}; choose one of "
                         f"{', '.join(CONSTRUCTIONS)}")


def integer_rows(rows: list[list[int | Fraction]]) -> tuple[list[list[int]], bool]:
    """Each row times the lcm of its denominators (the rank of G is unchanged).

    >>> integer_rows([[Fraction(1, 2), 1], [2, 3]])
    ([[1, 2], [2, 3]], True)
    """
    out, scaled = [], False
    for row in rows:
        den = math.lcm(*(x.denominator for x in row if isinstance(x, Fraction)), 1)
        if den != 1:
            scaled = True
            out.append([int(x * den) for x in row])
        else:
            out.append(row)
    return out, scaled


# ------------------------------------------------------------------ memory

def _require(est: dict[str, int], path: str, n: int, d: int = 1, lam: int = 1,
             max_abs: int = 1, n_of_lam=None) -> None:
    """Refuse (one line) a path past the budget in force
    (:mod:`seprank.hadamard.estimates`)."""
    check_path(path, n, d, lam, max_abs, n_of_lam=n_of_lam)


# ------------------------------------------------------------------ the result

@dataclass
class HadamardRankResult:
    """The rank of G = (V V^T)^(Hadamard lam): exact path, float64 path, bound, times.

    Attributes
    ----------
    rank : RankResult
        the exact path's answer over Q: kind ``exact`` (or ``lower_bound`` for
        ``method="modular"`` below n and ((d, lam))), with its certificate.
    float_rank : RankResult or None
        numpy's float64 SVD rank of (V V^T)**lam computed in float64 from V
        (kind ``float_estimate``, with tolerance and gap); None when float64
        overflows (``float_note`` says so) or when it was not asked for.
    n, d, lam : rows of V (G is n x n), columns of V, the Hadamard power.
    bound : ((d, lam)) = C(d + lam - 1, lam) (:func:`multiset_bound`).
    source : where V came from.
    built : how G was built (the field, prime and back end).
    times : seconds of each path: ``build_s``, ``exact_rank_s``, ``verify_s``,
        ``float_build_s``, ``float_rank_s``.
    memory : the estimate of each path in bytes (:func:`memory_estimate`).
    rows_scaled : rows of a rational V were scaled to integers (rank unchanged).
    certificate_verified : what :func:`seprank.verify` said (with ``certify``).

    Examples
    --------
    >>> res = hadamard_rank([[1, 0], [0, 1], [1, 1]], 2)       # ((2, 2)) = 3
    >>> res.value, res.kind, res.bound, res.float_rank.kind, res.float_wrong
    (3, 'exact', 3, 'float_estimate', False)
    """

    rank: RankResult
    float_rank: RankResult | None
    n: int
    d: int
    lam: int
    bound: int
    source: str
    built: str
    times: dict[str, float] = field(default_factory=dict)
    memory: dict[str, int] = field(default_factory=dict)
    rows_scaled: bool = False
    certificate_verified: bool | None = None
    float_note: str = ""

    @property
    def value(self) -> int:
        return self.rank.value

    @property
    def kind(self) -> str:
        return self.rank.kind

    @property
    def float_wrong(self) -> bool | None:
        """True/False when the exact rank decides it; None when it cannot (or no float rank)."""
        if self.float_rank is None:
            return None
        if self.kind == "exact":
            return self.float_rank.value != self.value
        return True if self.float_rank.value < self.value else None

    def _float_words(self) -> str:
        if self.float_rank is None:
            return f"float64: {self.float_note or 'not computed'}"
        verdict = {True: "WRONG (differs from the exact rank)", False: "right",
                   None: "undecided (the exact rank is only a lower bound)"}[self.float_wrong]
        return f"float64: {self.float_rank} -> {verdict}"

    def __str__(self) -> str:
        t = self.times
        if self.kind == "exact":
            relation = f"rank {'=' if self.value == self.bound else '<'} bound"
        else:
            relation = f"{self.value} <= rank <= {min(self.n, self.bound)}"
        lines = [
            f"G = (V V^T)^(Hadamard {self.lam}), V {self.n} x {self.d} ({self.source})",
            f"exact: {self.rank}",
            f"  G built {self.built}" + ("; rows of V scaled to integers (rank unchanged)"
                                          if self.rows_scaled else ""),
            f"bound ((d, lam)) = (({self.d}, {self.lam})) = {self.bound}; {relation}",
            self._float_words(),
            f"times: build {t.get('build_s', 0):.4f} s, exact rank {t.get('exact_rank_s', 0):.4f} s"
            + (f", float64 {t['float_build_s']:.4f} s build + {t.get('float_rank_s', 0):.4f} s "
               "SVD" if "float_build_s" in t else ""),
        ]
        if self.certificate_verified is not None:
            lines.append(f"certificate independently verified: {self.certificate_verified} "
                         f"({t.get('verify_s', 0):.4f} s)")
        return "\n".join(lines)

    _DISPLAY_HEADER = ("path", "rank", "kind", "over", "method", "seconds", "note")

    def _display_rows(self) -> list[list[Any]]:
        t = self.times
        rows = [["exact", self.value, self.kind, self.rank.field, self.rank.method,
                 f"{t.get('build_s', 0) + t.get('exact_rank_s', 0):.4f}", self.built]]
        if self.float_rank is not None:
            verdict = {True: "WRONG", False: "right", None: "undecided"}[self.float_wrong]
            rows.append(["float64", self.float_rank.value, self.float_rank.kind, "RR",
                         self.float_rank.method,
                         f"{t.get('float_build_s', 0) + t.get('float_rank_s', 0):.4f}", verdict])
        rows.append(["bound ((d, lam))", self.bound, "theorem", "", "C(d+lam-1, lam)", "",
                     f"d = {self.d}, lam = {self.lam}"])
        return rows

    def _caption(self) -> str:
        return (f"rank {self.value} ({self.kind}) of (V V^T)^(Hadamard {self.lam}), "
                f"V {self.n} x {self.d}")

    def _repr_markdown_(self) -> str:
        """Markdown display (JupyterLab): the kind beside every number.

        >>> print(hadamard_rank([[1], [2]], 1)._repr_markdown_().splitlines()[0])
        **rank 1 (exact) of (V V^T)^(Hadamard 1), V 2 x 1**
        """
        from seprank._display import md_table

        return md_table(self._caption(), self._DISPLAY_HEADER, self._display_rows())

    def _repr_html_(self) -> str:
        """HTML display (Jupyter).

        >>> hadamard_rank([[1], [2]], 1)._repr_html_()[:30]
        '<table><caption>rank 1 (exact)'
        """
        from seprank._display import html_table

        return html_table(self._caption(), self._DISPLAY_HEADER, self._display_rows())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: value, kind, both paths, bound, times, memory estimate."""
        return {
            "value": self.value, "kind": self.kind, "field": self.rank.field,
            "n": self.n, "d": self.d, "lam": self.lam, "bound": self.bound,
            "rank_equals_bound": self.value == self.bound if self.kind == "exact" else None,
            "source": self.source, "built": self.built, "rows_scaled": self.rows_scaled,
            "rank": self.rank.to_dict(),
            "float": self.float_rank.to_dict() if self.float_rank is not None else None,
            "float_wrong": self.float_wrong, "float_note": self.float_note or None,
            "times": {k: round(v, 6) for k, v in self.times.items()},
            "memory_estimate_bytes": dict(self.memory),
            "certificate_verified": self.certificate_verified,
        }


# ------------------------------------------------------------------ the paths

def _over_q(res_p: RankResult, n: int, bound: int, certify: bool) -> RankResult:
    """A rank of G mod p, read over Q: exact when it meets n (or ((d, lam)))."""
    from seprank.linalg.certificates import RankCertificate

    r, p = res_p.value, res_p.primes[0] if res_p.primes else None
    if r == n:
        kind, note = "exact", ("full rank mod p: a nonzero n x n minor mod p is a nonzero "
                               "integer, so the rank over Q is n")
    elif r == bound and not certify:
        kind, note = "exact", ("rank mod p = ((d, lam)), the upper bound of G = M Delta M^T "
                               "(levine2020 eq. (27)), so it is the rank over Q")
    else:
        kind, note = "lower_bound", "rank mod p only: a certified lower bound on the rank over Q"
    cert = res_p.certificate
    if cert is not None:
        cert = RankCertificate(lower=cert.lower)  # a kernel mod p says nothing over Q
    return RankResult(value=r, kind=kind, method=res_p.method, field="QQ", shape=res_p.shape,
                      certificate=cert, primes=[p] if p else [], details=dict(res_p.details),
                      note=note, seconds=res_p.seconds)


def _auto_prime(n: int) -> int:
    """A random prime from the auto range of the engine that will rank an n x n G mod p
    (the engine answers for itself: :func:`seprank.linalg.planner.choose_engine`)."""
    from seprank.linalg.engines import get_engine
    from seprank.linalg.modarith import random_prime
    from seprank.linalg.planner import choose_engine

    name, _ = choose_engine((n, n), None, "residues")
    return random_prime(*get_engine(name).auto_primes)


def _mod_p_path(int_rows, lam: int, p: int, certify: bool, times: dict):
    """G mod p from the residues of V, and its rank over GF(p)."""
    from seprank.constructions.gram_hadamard import gram_hadamard
    from seprank.linalg import rank
    from seprank.linalg.residues import ResidueMatrix

    n = len(int_rows)
    backend = "numba" if n >= NUMBA_BUILD_MIN_ROWS else "numpy"
    t0 = time.perf_counter()
    Gp = ResidueMatrix(gram_hadamard(int_rows, lam, domain="GF(p)", p=p, backend=backend), p)
    t1 = time.perf_counter()
    res = rank(Gp, "modular", certify=certify)
    times["build_s"] = times.get("build_s", 0.0) + t1 - t0
    times["exact_rank_s"] = times.get("exact_rank_s", 0.0) + time.perf_counter() - t1
    return Gp, res, f"mod p = {p} ({backend} builder)"


def _exact_path(int_rows, lam: int, method: str, prime, certify: bool, times: dict):
    """G as exact integers (flint products), ranked by seprank.rank(G, method)."""
    import flint

    from seprank.constructions.gram_hadamard import gram_hadamard
    from seprank.linalg import rank

    t0 = time.perf_counter()
    G = gram_hadamard(int_rows, lam, domain="ZZ", backend="flint")
    Gz = flint.fmpz_mat(G.tolist())
    del G
    t1 = time.perf_counter()
    res = rank(Gz, method, prime=prime, certify=certify)
    times["build_s"] = times.get("build_s", 0.0) + t1 - t0
    times["exact_rank_s"] = times.get("exact_rank_s", 0.0) + time.perf_counter() - t1
    return Gz, res, "as exact integers (flint fmpz products)"


def _verify(matrix, res: RankResult, over_gf_p: bool, times: dict) -> bool:
    """seprank.verify on what was ranked: the result, or for G mod p the minor it proves."""
    from seprank.linalg import verify

    t0 = time.perf_counter()
    if over_gf_p:
        ok = (res.certificate is not None and res.certificate.lower is not None
              and res.certificate.lower.bound == res.value
              and verify(matrix, res.certificate.lower))
    else:
        ok = verify(matrix, res)
    times["verify_s"] = time.perf_counter() - t0
    return bool(ok)


def _float_path(rows, lam: int, times: dict) -> tuple[RankResult | None, str]:
    """numpy's float64 rank of (V V^T)**lam computed in float64 from V (SVD, float_engine)."""
    from seprank.linalg.engines.float_engine import float_rank

    t0 = time.perf_counter()
    try:
        Vf = np.array([[float(x) for x in row] for row in rows], dtype=np.float64)
    except OverflowError:
        return None, "float64 overflow: an entry of V exceeds the float64 range"
    with np.errstate(over="ignore", invalid="ignore"):
        Gf = (Vf @ Vf.T) ** lam
    t1 = time.perf_counter()
    times["float_build_s"] = t1 - t0
    if not np.isfinite(Gf).all():
        return None, ("float64 overflow: entries of G exceed 1.8e308 (no float rank; the "
                      "exact path has no such limit)")
    r, details = float_rank(Gf)
    seconds = time.perf_counter() - t1
    times["float_rank_s"] = seconds
    return RankResult(value=r, kind="float_estimate", method="numpy-svd", field="RR",
                      shape=Gf.shape, details=details,
                      note="floating-point estimate: no guarantee", seconds=seconds), ""


def _check_arguments(lam, method, prime, certify, float_rank) -> None:
    if isinstance(lam, bool) or not isinstance(lam, (int, np.integer)) or lam < 1:
        raise ParameterError(f"lambda (the Hadamard power) must be an integer >= 1, got {lam!r}")
    for name, value in (("certify", certify), ("float_rank", float_rank)):
        if not isinstance(value, bool):
            raise ParameterError(f"{name} must be True or False, got {value!r}")
    if method not in METHODS:
        raise ParameterError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if prime is not None:
        from seprank.scalars.primes import require_prime

        if isinstance(prime, bool) or not isinstance(prime, (int, np.integer)):
            raise ParameterError(f"prime must be an integer, got {prime!r}")
        require_prime(int(prime))


def hadamard_rank(V: object, lam: int, *, method: str = "auto", prime: int | None = None,
                  certify: bool = False, float_rank: bool = True,
                  source: str | None = None, max_memory: int | str | None = None,
                  max_seconds: float | str | None = None,
                  budget: Budget | None = None) -> HadamardRankResult:
    """Rank of G = (V V^T)^(Hadamard lam), exactly, beside its float64 rank and ((d, lam)).

    levine2020_depth_to_width_self_attention.txt B.2, l.700-712 (eq. (27));
    wies2021_vocabulary_bottleneck.txt B.3, eqs. (24)-(26). See the module
    docstring for the paths.

    Parameters
    ----------
    V
        a file path (``.npy``, ``.json``, ``.csv``, text), a list of rows or a
        numpy array, of integers or fractions (n x d); or the V of
        :func:`named_V` (e.g. ``seprank.constructions.omega_rows(d, lam, 2)``).
    lam
        the Hadamard power, an integer >= 1.
    method
        ``"auto"``, ``"exact"``, ``"modular"`` or ``"multimodular"`` (:data:`METHODS`).
    prime
        the prime of ``modular`` (default 2^31 - 1, or 2^20 - 3 from 600 rows);
        the first prime of ``auto`` (default: drawn at random).
    certify
        attach a certificate and re-check it with :func:`seprank.verify`.
    float_rank
        also take numpy's float64 SVD rank of G built in float64 from V.
    source
        a label for V in the output (default: the file, or "array").
    max_memory, max_seconds, budget
        the limits (:mod:`seprank.budget`; default the machine's memory): each path is
        estimated (:mod:`seprank.hadamard.estimates`) and checked before G is built.

    Returns
    -------
    HadamardRankResult

    Raises
    ------
    InputError, ParameterError, NotPrimeError, MemoryLimitError
        one line each: inexact or ragged V, lam < 1, a non-bool flag, a path
        that would not fit in memory (estimated before anything is built).

    Examples
    --------
    The Omega rows reach the bound ((d, lam)) (levine2020 l.700-712):

    >>> from seprank.constructions import omega_rows
    >>> res = hadamard_rank(omega_rows(3, 2, 2), 2, certify=True)
    >>> res.value, res.kind, res.bound, res.certificate_verified
    (6, 'exact', 6, True)

    Repeated rows give repeated rows of G:

    >>> hadamard_rank([[1, 2], [1, 2], [3, 1]], 3).value
    2
    >>> hadamard_rank([[1, 2]], 0)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: lambda (the Hadamard power) must be an integer >= 1, got 0
    """
    _check_arguments(lam, method, prime, certify, float_rank)
    with make_budget(max_memory, max_seconds, budget).active():
        return _hadamard_rank(V, int(lam), method, prime, certify, float_rank, source)


def _hadamard_rank(V, lam: int, method: str, prime, certify: bool, float_rank: bool,
                   source) -> HadamardRankResult:
    """:func:`hadamard_rank` inside its budget."""
    rows, where = read_V(V)
    n, d = len(rows), len(rows[0])
    bound = multiset_bound(d, lam)
    int_rows, scaled = integer_rows(rows)
    max_abs = max(abs(x) for row in int_rows for x in row)
    est = memory_estimate(n, d, lam, max_abs)
    # auto starts mod p unless that cannot decide: with certify only a full rank can
    mod_first = method == "modular" or (method == "auto" and (n <= bound or not certify))
    _require(est, "mod_p" if mod_first else "exact", n, d, lam, max_abs)
    if float_rank:
        _require(est, "float", n, d, lam, max_abs)
    times: dict[str, float] = {}
    over_gf_p = mod_first
    if mod_first:
        p = int(prime) if prime is not None else (
            _auto_prime(n) if method == "auto" else
            (2**31 - 1 if n < NUMBA_BUILD_MIN_ROWS else 1048573))
        matrix, res_p, built = _mod_p_path(int_rows, lam, p, certify, times)
        checkpoint("the rank of G mod p")
        res = _over_q(res_p, n, bound, certify)
        if method == "auto" and res.kind != "exact":
            _require(est, "exact", n, d, lam, max_abs)
            matrix, res, exact_built = _exact_path(int_rows, lam, "auto", None, certify, times)
            built = f"{built}, rank {res_p.value} there (not decisive), then {exact_built}"
            over_gf_p = False
    else:
        matrix, res, built = _exact_path(int_rows, lam, method, prime, certify, times)
    checkpoint("the exact rank of G")
    verified = _verify(matrix, res, over_gf_p, times) if certify else None
    del matrix
    checkpoint("the check of the certificate")
    fres, fnote = _float_path(rows, lam, times) if float_rank else (None, "not computed")
    return HadamardRankResult(rank=res, float_rank=fres, n=n, d=d, lam=lam, bound=bound,
                              source=source or where, built=built, times=times, memory=est,
                              rows_scaled=scaled, certificate_verified=verified,
                              float_note=fnote)
