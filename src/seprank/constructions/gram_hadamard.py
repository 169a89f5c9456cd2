"""G = (U U^T)^(Hadamard lam): one function, every domain and back end.

The Gram Hadamard power appears throughout the papers: ``(V V^T)^{odot lambda}``
is the matrix whose rank the separation-rank bounds are about (levine2020
l.700-712, eq. (27); the Lemma 6 identity of the 2022 paper; the equal-norm
lower bound). :func:`gram_hadamard` is the one place it is computed; the older
public names (:func:`seprank.constructions.omega.gram_hadamard_exact`,
:func:`~seprank.constructions.omega.gram_hadamard_mod_p`,
:func:`seprank.constructions.lemma6.gram_hadamard`,
:func:`seprank.constructions.equal_norm.gram_hadamard_power`) call it.

Domains
-------
``"ZZ"``: integer ``U``; exact, an object array of Python ints.
``"QQ"``: ``U`` of integers or :class:`fractions.Fraction`; exact, an object array.
``"GF(p)"``: integer ``U`` (reduced mod ``p`` first, any dtype
:func:`seprank.linalg.modarith.residues_int64` accepts); a float64 array of
residues in [0, p) (exact: p < 2^31), the form the modular engines consume.

Back ends
---------
``"python"``: pure Python integers (any domain; the slow reference).
``"numpy"``: object arrays (ZZ, QQ) or int64 with a reduction every
``(2^63 - 1) // (p - 1)^2`` products (GF(p)).
``"flint"``: python-flint ``fmpz_mat`` / ``nmod_mat`` products (ZZ, GF(p)).
``"numba"``: the compiled row builder :mod:`seprank.constructions.builders` (GF(p)).
``"cuda"``: the device builder
:func:`seprank.linalg.engines.cuda_engine.gram_hadamard_mod_p_device` (GF(p), p < 2^26).
``"auto"``: flint for ZZ, numpy for QQ, numba for GF(p).
"""

from __future__ import annotations

import operator
from fractions import Fraction

import numpy as np

from seprank.errors import InputError, ParameterError

__all__ = ["gram_hadamard", "DOMAINS", "BACKENDS"]

#: The domains :func:`gram_hadamard` computes over.
DOMAINS = ("ZZ", "QQ", "GF(p)")
#: Its back ends, and the domains each one serves.
BACKENDS = {
    "python": ("ZZ", "QQ", "GF(p)"),
    "numpy": ("ZZ", "QQ", "GF(p)"),
    "flint": ("ZZ", "GF(p)"),
    "numba": ("GF(p)",),
    "cuda": ("GF(p)",),
}
_AUTO = {"ZZ": "flint", "QQ": "numpy", "GF(p)": "numba"}
_MAX_PRIME = 2**31 - 1


def _as_2d(U) -> np.ndarray:
    """U as a 2-D numpy array (fmpz_mat and nested lists accepted)."""
    if hasattr(U, "nrows") and hasattr(U, "tolist"):  # flint matrices
        rows = [[int(x) for x in row] for row in U.tolist()]
        arr = np.empty((U.nrows(), U.ncols()), dtype=object)
        for i, row in enumerate(rows):
            arr[i, :] = row
        return arr
    if isinstance(U, (list, tuple)) and all(
            isinstance(row, (list, tuple)) and all(type(x) is int for x in row) for row in U):
        # Python ints: numpy would turn entries in [2^63, 2^64) into floats (rounded)
        try:
            arr = np.array(U, dtype=np.int64)
        except OverflowError:
            arr = np.empty((len(U), len(U[0]) if U else 0), dtype=object)
            try:
                for i, row in enumerate(U):
                    arr[i, :] = row
            except ValueError:
                raise InputError("U must be a rectangular 2-D array") from None
        except ValueError:
            raise InputError("U must be a rectangular 2-D array") from None
    else:
        try:
            arr = np.asarray(U)
        except ValueError:
            raise InputError("U must be a rectangular 2-D array") from None
    if arr.ndim == 1 and arr.size == 0:
        return arr.reshape(0, 0)
    if arr.ndim != 2:
        raise InputError(f"U must be a 2-D array, got {arr.ndim} dimension(s)")
    return arr


def _exact(arr: np.ndarray, domain: str) -> np.ndarray:
    """Entries as Python ints (ZZ) or ints / Fractions (QQ), in an object array."""
    if arr.dtype.kind in "iu":
        return arr.astype(object)
    if arr.dtype.kind != "O":
        raise InputError(f"U of dtype {arr.dtype} is not exact; give integers"
                         + (" or Fractions" if domain == "QQ" else ""))
    out = np.empty(arr.shape, dtype=object)
    for idx, x in np.ndenumerate(arr):
        if domain == "QQ" and isinstance(x, Fraction):
            out[idx] = x
            continue
        try:
            out[idx] = operator.index(x)
        except TypeError:
            raise InputError(f"U entry {idx} is {x!r}, not an integer"
                             + (" or Fraction" if domain == "QQ" else "")) from None
    return out


def _python(rows: list[list], lam: int, p: int | None) -> list[list]:
    n = len(rows)
    G = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            s = sum(a * b for a, b in zip(rows[i], rows[j], strict=True))
            G[i][j] = G[j][i] = pow(s, lam, p) if p else s**lam
    return G


def _numpy_mod_p(R: np.ndarray, lam: int, p: int) -> np.ndarray:
    """int64 residues: products < 2^62, a reduction every `chunk` of them."""
    n, d = R.shape
    chunk = max(1, (2**63 - 1) // max(1, (p - 1) ** 2))
    S = np.zeros((n, n), dtype=np.int64)
    for c in range(0, d, chunk):
        B = R[:, c:c + chunk]
        S = (S + B @ B.T) % p
    out = np.ones((n, n), dtype=np.int64) % p
    e = lam
    while e > 0:
        if e & 1:
            out = (out * S) % p
        e >>= 1
        if e:
            S = (S * S) % p
    return out


def _flint(arr: np.ndarray, lam: int, p: int | None) -> list[list[int]]:
    import flint

    n, d = arr.shape
    if n == 0:
        return []
    vals = [int(x) for x in arr.ravel()]
    if p is None:
        Z = flint.fmpz_mat(n, d, vals) if d else flint.fmpz_mat(n, 0)
        Gm = Z * Z.transpose() if d else flint.fmpz_mat(n, n)
        return [[int(Gm[i, j]) ** lam for j in range(n)] for i in range(n)]
    Z = flint.nmod_mat(n, d, vals, p) if d else flint.nmod_mat(n, 0, [], p)
    Gm = Z * Z.transpose() if d else flint.nmod_mat(n, n, p)
    return [[pow(int(Gm[i, j]), lam, p) for j in range(n)] for i in range(n)]


def _object(G: list[list]) -> np.ndarray:
    n = len(G)
    out = np.empty((n, n), dtype=object)
    for i, row in enumerate(G):
        out[i, :] = row
    return out


def gram_hadamard(U, lam: int, *, domain: str = "ZZ", p: int | None = None,
                  backend: str = "auto", device: bool = False):
    """G = (U U^T)^(Hadamard lam), G[i, j] = <u_i, u_j>^lam.

    levine2020_depth_to_width_self_attention.txt B.2, l.700-712.

    ``U`` is n x d (numpy array, nested lists, or a flint ``fmpz_mat``).
    ``domain`` is ``"ZZ"``, ``"QQ"`` or ``"GF(p)"`` (with ``p``, a prime below
    2^31; below 2^26 on cuda); ``backend`` one of :data:`BACKENDS` or
    ``"auto"`` (see the module docstring). Returns an n x n object array of
    exact numbers (ZZ, QQ) or a float64 array of residues in [0, p) (GF(p));
    with ``backend="cuda", device=True`` the device array itself.

    Examples
    --------
    >>> gram_hadamard([[1, 2], [3, 4]], 2).tolist()   # U U^T = [[5, 11], [11, 25]], squared
    [[25, 121], [121, 625]]
    >>> gram_hadamard([[1, 2], [3, 4]], 2, domain="GF(p)", p=7).tolist()   # the same mod 7
    [[4.0, 2.0], [2.0, 2.0]]
    >>> from fractions import Fraction
    >>> gram_hadamard([[Fraction(1, 2)]], 3, domain="QQ").tolist()
    [[Fraction(1, 64)]]
    """
    from seprank.scalars.primes import require_prime

    if domain not in DOMAINS:
        raise ParameterError(f"unknown domain {domain!r}; choose one of {', '.join(DOMAINS)}")
    if isinstance(lam, bool) or not isinstance(lam, (int, np.integer)) or lam < 0:
        raise ParameterError(f"lambda must be an integer >= 0, got {lam!r}")
    lam = int(lam)
    if backend == "auto":
        backend = _AUTO[domain]
    if backend not in BACKENDS:
        raise ParameterError(f"unknown backend {backend!r}; choose one of auto, "
                             f"{', '.join(BACKENDS)}")
    if domain not in BACKENDS[backend]:
        raise ParameterError(f"backend {backend!r} does not compute over {domain} "
                             f"(it serves {', '.join(BACKENDS[backend])})")
    if domain != "GF(p)":
        if p is not None:
            raise ParameterError(f"a prime is given only with domain GF(p), not {domain}")
        arr = _exact(_as_2d(U), domain)
        n = arr.shape[0]
        from seprank.linalg.memory import require_fits

        require_fits(64 * n * n, f"the exact {n} x {n} Gram Hadamard power")
        if backend == "python":
            return _object(_python(arr.tolist(), lam, None))
        if backend == "flint":
            return _object(_flint(arr, lam, None))
        G = arr.dot(arr.T) if arr.shape[1] else np.full((n, n), 0, dtype=object)
        return np.vectorize(lambda x: x**lam, otypes=[object])(G) if n else G
    if p is None:
        raise ParameterError("domain GF(p) needs a prime p")
    if backend == "cuda":
        from seprank.linalg.engines.cuda_engine import gram_hadamard_mod_p_device

        G = gram_hadamard_mod_p_device(_residues(U, p), lam, p)
        return G if device else G.copy_to_host()
    p = require_prime(p, max_value=_MAX_PRIME)
    R = _residues(U, p)
    n = R.shape[0]
    if backend == "numba":
        from seprank.constructions.builders import gram_hadamard_mod_p_f64

        return gram_hadamard_mod_p_f64(R, lam, p)
    from seprank.linalg.memory import require_fits

    require_fits(8 * n * n, f"the {n} x {n} Gram Hadamard power mod p")
    if backend == "numpy":
        return _numpy_mod_p(R, lam, p).astype(np.float64)
    G = _flint(R, lam, p) if backend == "flint" else _python(R.tolist(), lam, p)
    return np.array(G, dtype=np.float64).reshape(n, n)


def _residues(U, p: int) -> np.ndarray:
    from seprank.linalg.modarith import residues_int64

    arr = _as_2d(U)
    if arr.dtype.kind == "O":
        arr = _exact(arr, "ZZ")
    return np.ascontiguousarray(residues_int64(arr, int(p)))
