"""The modular engines behind one small protocol, in one registry.

Each :class:`ModularEngine` has a name, says whether it can run here, its
largest and default prime, and computes the rank profile mod p of an array of
residues: ``(r, rows, cols)`` with ``matrix[rows, cols]`` nonsingular mod p.
``seprank.rank``'s ``engine=`` choices, the CLI's ``--engine`` choices and the
engine test parametrization (tests/test_engines.py) are read from
:data:`REGISTRY`, so adding an engine is adding one entry here.

The methods of ``seprank.rank(method=...)`` (``auto``, ``exact``, ``modular``,
``multimodular``, ``float``, ``cuda``) are described next to them, in
:data:`METHOD_REGISTRY` (name, what it does, the kind of answer, what it
needs): ``seprank.linalg.METHODS``, the CLI's ``--method`` choices and help,
and the README's method table (:func:`method_table`, between the markers
``<!-- method-table:begin -->`` and ``<!-- method-table:end -->``; a test
checks it; rewrite it with
``p = pathlib.Path("README.md"); p.write_text(with_method_table(p.read_text()))``)
all come from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seprank.linalg.modarith import (
    FLINT_DEFAULT_PRIME,
    FLINT_MAX_PRIME,
    NUMBA_DEFAULT_PRIME,
    NUMBA_MAX_PRIME,
    residues_int64,
)

__all__ = ["ModularEngine", "REGISTRY", "engine_names", "get_engine", "Method",
           "METHOD_REGISTRY", "method_names", "method_table", "with_method_table"]


def _flint_profile(residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
    import flint

    from seprank.linalg.flint_engine import lower_certificate

    m, n = residues.shape
    vals = residues_int64(residues, p).ravel().tolist()
    r, cert = lower_certificate(flint.nmod_mat(m, n, vals, p))
    return r, list(cert.rows), list(cert.cols)


def _numba_profile(residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
    from seprank.linalg.modular_lu import rank_profile_mod_p

    return rank_profile_mod_p(residues, p)


def _cuda_profile(residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
    from seprank.linalg.cuda_engine import rank_profile_mod_p_cuda

    return rank_profile_mod_p_cuda(residues, p)


def _always() -> bool:
    return True


def _cuda_available() -> bool:
    from seprank.linalg.cuda_engine import cuda_available

    return cuda_available()


@dataclass(frozen=True)
class ModularEngine:
    """One engine for ranks over GF(p).

    Examples
    --------
    >>> eng = get_engine("flint")
    >>> eng.available(), eng.default_prime == 2**31 - 1
    (True, True)
    >>> eng.rank_profile(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 5)
    (2, [0, 2], [0, 1])
    """

    name: str
    description: str
    max_prime: int
    default_prime: int
    _profile: Callable[[np.ndarray, int], tuple[int, list[int], list[int]]]
    _available: Callable[[], bool] = _always
    needs: str = "python-flint"

    def available(self) -> bool:
        """Whether this engine can run on this machine now."""
        return bool(self._available())

    def rank_profile(self, residues: np.ndarray, p: int) -> tuple[int, list[int], list[int]]:
        """(rank mod p, pivot rows, pivot columns) of a 2-D integer (or float64) array."""
        return self._profile(residues, p)


#: Every modular engine, by name (the order is the order of the CLI's choices).
REGISTRY: dict[str, ModularEngine] = {
    "flint": ModularEngine("flint", "python-flint nmod_mat (any word-size prime)",
                           FLINT_MAX_PRIME, FLINT_DEFAULT_PRIME, _flint_profile),
    "numba": ModularEngine("numba", "blocked LU, BLAS products, delayed reduction (CPU)",
                           NUMBA_MAX_PRIME, NUMBA_DEFAULT_PRIME, _numba_profile,
                           needs="numba"),
    "cuda": ModularEngine("cuda", "the blocked LU on an NVIDIA GPU (numba-cuda)",
                          NUMBA_MAX_PRIME, NUMBA_DEFAULT_PRIME, _cuda_profile,
                          _cuda_available, needs="numba-cuda and an NVIDIA GPU"),
}


def engine_names() -> tuple[str, ...]:
    """Names of the registered engines.

    >>> engine_names()
    ('flint', 'numba', 'cuda')
    """
    return tuple(REGISTRY)


def get_engine(name: str) -> ModularEngine:
    """The engine called ``name`` (ParameterError for an unknown name).

    >>> get_engine("numba").max_prime == 2**26
    True
    """
    from seprank.errors import ParameterError

    try:
        return REGISTRY[name]
    except KeyError:
        raise ParameterError(f"unknown engine {name!r}; choose one of "
                             f"{', '.join(REGISTRY)}") from None


@dataclass(frozen=True)
class Method:
    """One value of ``seprank.rank(method=...)``: what it does, what it answers, what it needs.

    Examples
    --------
    >>> m = METHOD_REGISTRY["float"]
    >>> m.name, m.kind
    ('float', '`float_estimate`')
    """

    name: str
    does: str
    kind: str
    needs: str


#: Every method of ``seprank.rank``, by name (the order of ``METHODS`` and of the CLI).
METHOD_REGISTRY: dict[str, Method] = {m.name: m for m in (
    Method("auto", "rank mod a prime drawn at random (recorded in `primes`), exact when "
           "full; else a second random prime; else, from 200 rows, `multimodular` with a "
           "random first prime; else `fmpz_mat.rank`. Never a float. The default",
           "`exact`", "python-flint; numba from 600 rows"),
    Method("exact", "python-flint `fmpz_mat.rank` (fraction-free elimination)",
           "`exact`", "python-flint"),
    Method("modular", "rank mod one prime (default 2^31 - 1, or 1048573 on numba) on a "
           "modular engine (below; `--engine`, default by size: numba from 600 rows and "
           "columns)", "`lower_bound`, or `exact` when full", "an engine below"),
    Method("multimodular", "ranks mod primes plus kernel vectors by p-adic lifting, "
           "verified exactly", "`exact` (else `lower_bound`)", "python-flint, numba"),
    Method("float", "numpy SVD, with tolerance and singular-value gap",
           "`float_estimate`", "numpy"),
    Method("cuda", "`modular` on the `cuda` engine", "as `modular`",
           "numba-cuda and an NVIDIA GPU"),
)}


def method_names() -> tuple[str, ...]:
    """Names of the methods of ``seprank.rank``, in the registry's order.

    >>> method_names()
    ('auto', 'exact', 'modular', 'multimodular', 'float', 'cuda')
    """
    return tuple(METHOD_REGISTRY)


_BEGIN = ("<!-- method-table:begin: generated from seprank.linalg.engines by "
          "with_method_table(); edit the registry, not this block -->")
_END = "<!-- method-table:end -->"


def method_table() -> str:
    """The README's tables of methods and modular engines (markdown), from the registries.

    Examples
    --------
    >>> print(method_table().splitlines()[2])
    | method | what it does | kind | needs |
    """
    lines = ["Methods (`seprank.linalg.METHODS`; the CLI's `--method` takes the same list):",
             "", "| method | what it does | kind | needs |", "|---|---|---|---|"]
    lines += [f"| `{m.name}` | {m.does} | {m.kind} | {m.needs} |"
              for m in METHOD_REGISTRY.values()]
    lines += ["", "Modular engines (`seprank.linalg.engines.REGISTRY`; `engine=` and the CLI's "
              "`--engine`):", "", "| engine | what it is | prime limit | default prime "
              "| needs |", "|---|---|---|---|---|"]
    lines += [f"| `{e.name}` | {e.description} | {_power(e.max_prime)} | "
              f"{_power(e.default_prime)} | {e.needs} |" for e in REGISTRY.values()]
    return "\n".join(lines)


def _power(p: int) -> str:
    """p as 2^k or 2^k - c (c < 1024) when it is one, else in decimal."""
    k = p.bit_length()
    if p == 2 ** (k - 1):
        return f"2^{k - 1}"
    return f"2^{k} - {2**k - p}" if 2**k - p < 1024 else str(p)


def with_method_table(text: str) -> str:
    """``text`` (the README) with the block between the method-table markers regenerated.

    Examples
    --------
    >>> old = f"intro\\n{_BEGIN}\\nstale\\n{_END}\\nrest"
    >>> new = with_method_table(old)
    >>> new.startswith("intro") and new.endswith("rest") and "| `cuda` |" in new
    True
    """
    from seprank.errors import InputError

    try:
        head, rest = text.split(_BEGIN, 1)
        _, tail = rest.split(_END, 1)
    except ValueError:
        raise InputError("the method-table markers are missing") from None
    return f"{head}{_BEGIN}\n{method_table()}\n{_END}{tail}"

