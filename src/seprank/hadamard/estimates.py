"""What ranking G = (V V^T)^(Hadamard lam) needs, by path, before G is built.

Issue 23 item 1 for :func:`seprank.hadamard_rank` and ``seprank float-vs-exact``. For an
n x n G from V with d columns and entries ``|v| <= max_abs`` (each entry of G has at most
lam (log2 d + 2 log2 max_abs) bits), each path's :class:`~seprank.budget.Estimate`:

* ``mod_p``: G's float64 residues and the modular engine's workspace (32 n^2 bytes);
  n^2 d lam operations to build, n^3 to rank;
* ``exact``: G's big integers twice (the object array and the ``fmpz_mat``), plus about
  100 bytes of overhead per entry; its rank is then :func:`seprank.rank`'s, whose steps
  are checked as they start;
* ``float``: G in float64 and the SVD's copies (as
  :func:`seprank.linalg.estimates.float_estimate`).

:func:`check_path` refuses past the budget in force with one line that names the largest
lam (at this V) whose G fits, when there is one.
"""

from __future__ import annotations

from seprank.budget import (
    BASE_BYTES,
    KERNEL_LOAD_SECONDS,
    Estimate,
    as_float,
    bigint_factor,
    current,
    format_count,
    largest_fitting,
)

__all__ = ["memory_estimate", "path_estimate", "check_path", "check_construction"]

_WORDS = {"mod_p": "G mod p ({n} x {n}, float64 residues) and its rank",
          "exact": "the exact {n} x {n} G (big integers)",
          "float": "the float64 {n} x {n} G and its SVD"}


def _bits(d: int, lam: int, max_abs: int) -> int:
    return lam * (max(d, 1).bit_length() + 2 * max(max_abs, 1).bit_length())


def memory_estimate(n: int, d: int, lam: int, max_abs: int) -> dict[str, int]:
    """Bytes each path needs for an n x n G from V with d columns, entries ``|v| <= max_abs``.

    ``mod_p``: float64 residues of G and the modular engine's workspace (32 n^2).
    ``exact``: G's big integers twice (the object array and the ``fmpz_mat``), each
    entry of at most lam (log2 d + 2 log2 max_abs) bits, plus ~100 bytes of overhead
    per entry. ``float``: G in float64 and the SVD's copies (24 n^2; the budget counts the
    SVD's workspace too: :func:`path_estimate`).

    >>> est = memory_estimate(1000, 8, 3, 4)
    >>> est["mod_p"], est["float"], est["exact"] > est["mod_p"]
    (32000000, 24000000, True)
    """
    bits = _bits(d, lam, max_abs)
    return {"mod_p": 32 * n * n, "exact": n * n * (2 * (bits // 8 + 1) + 100),
            "float": 24 * n * n}


def path_estimate(path: str, n: int, d: int, lam: int, max_abs: int) -> Estimate:
    """The :class:`~seprank.budget.Estimate` of one path (``mod_p``, ``exact``, ``float``).

    >>> e = path_estimate("float", 100, 3, 2, 2)
    >>> e.what, e.nbytes - BASE_BYTES
    ('the float64 100 x 100 G and its SVD', 960000)
    """
    from seprank.linalg.estimates import float_estimate

    nbytes = memory_estimate(n, d, lam, max_abs)[path] if path != "float" else \
        float_estimate((n, n)).nbytes - BASE_BYTES
    build = as_float(n * n * d * lam)
    words = bigint_factor(_bits(d, lam, max_abs))
    cube = as_float(n ** 3)
    work = {"mod_p": ((build, "grid"), (cube, "modular" if n >= 600 else "nmod")),
            "exact": ((build * words, "python"), (cube * words, "flint")),
            "float": ((build, "float"), (4 * cube, "float"))}[path]
    # from 600 rows G mod p is built and ranked by numba kernels, loaded from their cache
    fixed = KERNEL_LOAD_SECONDS if path == "mod_p" and n >= 600 else 0.0
    return Estimate(_WORDS[path].format(n=format_count(n)), nbytes=BASE_BYTES + nbytes, work=work,
                    fixed_seconds=fixed, detail=f"n = {format_count(n)}, d = {d}, lambda = {lam}")


def check_path(path: str, n: int, d: int, lam: int, max_abs: int, *,
               n_of_lam=None) -> Estimate:
    """Refuse (one line) when ``path`` does not fit the budget in force; ``n_of_lam(k)``,
    when given, is G's size at power k (a construction whose rows grow with lambda), so the
    refusal names the largest lambda that fits.

    >>> from seprank.budget import Budget
    >>> with Budget(max_memory="1M").active():
    ...     check_path("exact", 10**4, 3, 2, 2)
    Traceback (most recent call last):
    ...
    seprank.errors.MemoryLimitError: the exact 10k x 10k G (big integers) needs about ...
    """
    budget = current()

    def hint() -> str:
        if n_of_lam is None:
            return ""
        k = largest_fitting(lambda k: budget.fits(path_estimate(path, n_of_lam(k), d, k,
                                                                max_abs)), 1, lam - 1)
        return "" if k is None else f"the largest lambda that fits (d = {d}) is {k}"

    return budget.check(path_estimate(path, n, d, lam, max_abs), nearest=hint)


def check_construction(name: str, params: dict) -> None:
    """Omega and equal-norm V have ((d, lam)) = C(d + lam - 1, lam) rows, the size of G:
    refuse (one line, with the largest lambda that fits) before V is built when even G mod
    p would not fit (:func:`seprank.hadamard.rank.named_V` calls this first).

    >>> check_construction("omega", {"d": 3, "lam": 2}) is None
    True
    """
    import math

    d, lam = params.get("d"), params.get("lam")
    if name not in ("omega", "equal_norm") or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (d, lam)):
        return  # the construction's own checks say what is wrong
    base = params.get("base", 2) if name == "omega" else 2
    entry = abs(base) ** lam if isinstance(base, int) and lam < 4096 else 2 ** 4096
    check_path("mod_p", math.comb(d + lam - 1, lam), d, lam, max(entry, 2),
               n_of_lam=lambda k: math.comb(d + k - 1, k))
