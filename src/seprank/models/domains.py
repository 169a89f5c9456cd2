"""Exact and float arithmetic for evaluating the eq. (3) network, one back end per domain.

:meth:`seprank.models.network.SelfAttentionNetwork.evaluate` runs the same layer
recursion (levine2020 sec. 2.2, eq. (3), l.69-82) over several domains; this
module holds what differs between them: how inputs and weights are read
(:func:`parse_domain`, :func:`backend_for`) and how products, sums and the
final division are done.

* ``"ZZ"``/``"QQ"`` (:class:`_Rational`): integer numerators with one common
  denominator per sequence and per layer, in numpy object arrays;
* ``"QQ(i)"`` (:class:`_Gaussian`): real and imaginary parts kept apart;
* ``"GF(p)"`` (:class:`ModularBackend`): int64 residues, products split into 16-bit
  limbs when the inner dimension times (p - 1)^2 would overflow (:func:`_matmul_mod`);
* ``"float64"`` (:class:`_Float`): numpy floats (complex when needed), never evidence
  of anything exact.

The network object is passed in (typed as ``object``) so that this module does
not import :mod:`seprank.models.network` (no import cycle).
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import lcm

import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.scalars.gaussian import GaussianRational, has_imaginary, residues, sqrt_minus_one
from seprank.scalars.primes import require_prime

__all__ = ["DOMAINS", "MAX_NETWORK_PRIME", "parse_domain", "backend_for", "ModularBackend"]

#: Domain names accepted by :meth:`SelfAttentionNetwork.evaluate`.
DOMAINS = ("ZZ", "QQ", "QQ(i)", "GF(p)", "float64")
#: Residues stay below 2^31, so one product of two fits in int64.
MAX_NETWORK_PRIME = 2**31 - 1
_I64_MAX = 2**63 - 1
_LIMB = 16  # bits per limb when a modular product must be split
_KINDS = ("Q", "K", "V", "O")
_ALIASES = {"ZZ": "ZZ", "QQ": "QQ", "QQ(I)": "QQ(i)", "QQ_I": "QQ(i)", "GAUSSIAN": "QQ(i)",
            "FLOAT64": "float64", "FLOAT": "float64", "GF": "GF", "GF(P)": "GF"}


def parse_domain(domain: str, p: int | None = None) -> tuple[str, int | None]:
    """Canonical (name, prime) of a domain spec; see the module docstring.

    >>> parse_domain("GF(13)"), parse_domain("gf(p)", p=7), parse_domain("qq")
    (('GF', 13), ('GF', 7), ('QQ', None))
    """
    if not isinstance(domain, str):
        raise ParameterError(f"domain must be one of {', '.join(DOMAINS)}; got {domain!r}")
    key = domain.strip().upper()
    m = re.fullmatch(r"GF\((\d+)\)", key)
    if m:
        q = int(m.group(1))
        if p is not None and int(p) != q:
            raise ParameterError(f"domain {domain!r} and p = {p} name different primes")
        p, name = q, "GF"
    elif key in _ALIASES:
        name = _ALIASES[key]
    else:
        raise ParameterError(f"domain must be one of {', '.join(DOMAINS)}; got {domain!r}")
    if name == "GF":
        if p is None:
            raise ParameterError("domain GF(p) needs the prime: pass p=... or domain='GF(101)'")
        p = require_prime(p, max_value=MAX_NETWORK_PRIME)
    elif p is not None:
        raise ParameterError(f"p = {p} is only meaningful with domain GF(p), not {name}")
    return name, p


# -- exact numbers ----------------------------------------------------------------------

def _exact_entry(x: object, where: str) -> int | Fraction | GaussianRational:
    if isinstance(x, bool):
        raise InputError(f"{where} is a bool ({x})")
    if isinstance(x, (int, Fraction, GaussianRational)):
        return x
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, complex, np.floating, np.complexfloating)):
        raise InputError(f"{where} is a float ({x!r}); exact domains take ints, Fractions or "
                         "GaussianRational")
    raise InputError(f"{where} is {x!r} ({type(x).__name__}), not an exact number")


def _parts(x: int | Fraction | GaussianRational) -> tuple[Fraction, Fraction]:
    if isinstance(x, GaussianRational):
        return x.real, x.imag
    return Fraction(x), Fraction(0)


def _cleared(values: np.ndarray, name: str, gaussian: bool, integer: bool
             ) -> tuple[np.ndarray, np.ndarray | None, int]:
    """Integer numerators (real, imaginary or None) and the common denominator."""
    flat = values.ravel()
    re_parts, im_parts = [], []
    den = 1
    for k, x in enumerate(flat):
        a, b = _parts(_exact_entry(x, f"{name} entry {k}"))
        if b and not gaussian:
            raise InputError(f"{name} entry {k} is {x} (imaginary part); use domain 'QQ(i)'")
        if integer and (a.denominator != 1 or b.denominator != 1):
            raise InputError(f"{name} entry {k} is {x}, not an integer; use domain 'QQ'")
        den = lcm(den, a.denominator, b.denominator)
        re_parts.append(a)
        im_parts.append(b)
    re_num = np.empty(len(flat), dtype=object)
    re_num[:] = [int(a * den) for a in re_parts]
    im_num = None
    if gaussian:
        im_num = np.empty(len(flat), dtype=object)
        im_num[:] = [int(b * den) for b in im_parts]
        im_num = im_num.reshape(values.shape)
    return re_num.reshape(values.shape), im_num, den


# -- array arithmetic per domain ---------------------------------------------------------
#
# Each backend provides: inputs(X) -> (state, den) with den an object array (batch,) of
# denominators or None; weights(l) -> ((wqT, wkT, wvT, woT), D) with D the layer's
# denominator or None; matmul, add, scale (by per-sequence integers), map (a structural
# numpy function applied to every part), sum_heads; finish(state, den) -> output array.

class _ArrayOps:
    """Operations shared by the back ends whose states are plain numpy arrays."""

    matmul = staticmethod(np.matmul)

    @staticmethod
    def add(a, b):
        return a + b

    @staticmethod
    def map(fn, a):
        return fn(a)

    @staticmethod
    def sum_heads(y):
        return y.sum(axis=1)


class _Rational(_ArrayOps):
    exact = True

    def __init__(self, net: object, integer: bool):
        self.net, self.integer = net, integer

    def _split(self, values, name):
        num, _, den = _cleared(values, name, gaussian=False, integer=self.integer)
        return num, den

    def inputs(self, X):
        if X.dtype.kind in "iu":
            return X.astype(object), _ones(len(X))
        nums, dens = [], np.empty(len(X), dtype=object)
        for b in range(len(X)):
            num, dens[b] = self._split(X[b], f"X[{b}]")
            nums.append(num)
        return np.stack(nums) if nums else X.astype(object), dens

    def weights(self, layer):
        arrays, den = [], 1
        for kind in _KINDS:
            num, d = self._split(self.net.weights[kind][layer], f"W^{kind} of layer {layer}")
            arrays.append((num, d))
            den = lcm(den, d)
        scaled = [num * (den // d) for num, d in arrays]
        return tuple(np.swapaxes(w, -1, -2) for w in scaled), den

    @staticmethod
    def scale(a, k):
        return a * k[:, None, None]

    @staticmethod
    def finish(state, den):
        if all(d == 1 for d in den):
            return state
        return np.frompyfunc(Fraction, 2, 1)(state, den.reshape((-1,) + (1,) * (state.ndim - 1)))


class _Gaussian(_Rational):
    def __init__(self, net: object):
        super().__init__(net, integer=False)

    def _split(self, values, name):
        re_num, im_num, den = _cleared(values, name, gaussian=True, integer=False)
        return (re_num, im_num), den

    def inputs(self, X):
        res, ims, dens = [], [], np.empty(len(X), dtype=object)
        for b in range(len(X)):
            (r, i), dens[b] = self._split(X[b], f"X[{b}]")
            res.append(r)
            ims.append(i)
        if not res:
            empty = np.empty(X.shape, dtype=object)
            return (empty, empty.copy()), dens
        return (np.stack(res), np.stack(ims)), dens

    def weights(self, layer):
        parts, den = [], 1
        for kind in _KINDS:
            pair, d = self._split(self.net.weights[kind][layer], f"W^{kind} of layer {layer}")
            parts.append((pair, d))
            den = lcm(den, d)
        out = tuple((np.swapaxes(r * (den // d), -1, -2), np.swapaxes(i * (den // d), -1, -2))
                    for (r, i), d in parts)
        return out, den

    @staticmethod
    def matmul(a, b):
        # (A + iB)(C + iD) = (AC - BD) + i((A + B)(C + D) - AC - BD): three products
        ac, bd = np.matmul(a[0], b[0]), np.matmul(a[1], b[1])
        return ac - bd, np.matmul(a[0] + a[1], b[0] + b[1]) - ac - bd

    @staticmethod
    def add(a, b):
        return a[0] + b[0], a[1] + b[1]

    @staticmethod
    def scale(a, k):
        k = k[:, None, None]
        return a[0] * k, a[1] * k

    @staticmethod
    def map(fn, a):
        return fn(a[0]), fn(a[1])

    @staticmethod
    def sum_heads(y):
        return y[0].sum(axis=1), y[1].sum(axis=1)

    @staticmethod
    def finish(state, den):
        re_, im_ = state
        out = np.empty(re_.shape, dtype=object)
        for idx in np.ndindex(re_.shape):
            d = den[idx[0]]
            out[idx] = GaussianRational(Fraction(re_[idx], d), Fraction(im_[idx], d))
        return out


class ModularBackend:
    """GF(p): int64 residues, reduced after every product (``net.evaluate(..., "GF(p)")``).

    >>> from seprank.models.network import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(1, 2, 1, seed=0)
    >>> isinstance(backend_for(net, "GF(p)", 101), ModularBackend)
    True
    """

    exact = False

    def __init__(self, net: object, p: int):
        self.net, self.p = net, p
        self._s: int | None = None

    def _res(self, values):
        if self._s is None and has_imaginary(values):
            self._s = sqrt_minus_one(self.p)
        return residues(values, self.p, self._s)

    def inputs(self, X):
        return self._res(X), None

    def weights(self, layer):
        return tuple(np.swapaxes(self._res(self.net.weights[k][layer]), -1, -2)
                     for k in _KINDS), None

    def matmul(self, a, b):
        return _matmul_mod(a, b, self.p)

    def add(self, a, b):
        return (a + b) % self.p

    @staticmethod
    def map(fn, a):
        return fn(a)

    def sum_heads(self, y):
        return y.sum(axis=1) % self.p  # H < 2^32 residues < 2^31: no overflow

    @staticmethod
    def finish(state, den):
        return state


class _Float(_ArrayOps):
    exact = False

    def __init__(self, net: object):
        self.net = net
        self.dtype = np.complex128 if any(has_imaginary(net.weights[k]) for k in _KINDS) \
            else np.float64

    def _arr(self, values):
        if has_imaginary(values):
            self.dtype = np.complex128
        return np.asarray(values).astype(self.dtype)

    def inputs(self, X):
        dtype = np.complex128 if has_imaginary(X) else self.dtype
        self.dtype = dtype
        return X.astype(dtype), None

    def weights(self, layer):
        return tuple(np.swapaxes(self._arr(self.net.weights[k][layer]), -1, -2)
                     for k in _KINDS), None


    @staticmethod
    def finish(state, den):
        return state


def _ones(n: int) -> np.ndarray:
    out = np.empty(n, dtype=object)
    out[:] = [1] * n
    return out


def _matmul_mod(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    """(a @ b) mod p for int64 residues in [0, p), p < 2^31, without int64 overflow.

    One product when k (p-1)^2 fits in int64 (k the inner dimension); otherwise b
    is split into 16-bit limbs, b = b_hi 2^16 + b_lo, and the inner dimension into
    chunks of s terms with s (p-1) (2^16 - 1) <= 2^63 - 1 (s >= 2^15 for p < 2^31).
    """
    k = a.shape[-1]
    if k * (p - 1) ** 2 <= _I64_MAX:
        return np.matmul(a, b) % p
    step = max(1, _I64_MAX // ((p - 1) * ((1 << _LIMB) - 1)))
    mask = (1 << _LIMB) - 1
    acc = None
    for start in range(0, k, step):
        a_c, b_c = a[..., start:start + step], b[..., start:start + step, :]
        lo = np.matmul(a_c, b_c & mask) % p
        hi = np.matmul(a_c, b_c >> _LIMB) % p
        part = ((hi << _LIMB) % p + lo) % p
        acc = part if acc is None else (acc + part) % p
    return acc


# -- the network -------------------------------------------------------------------------


def backend_for(net: object, domain: str, p: int | None):
    """The arithmetic back end of ``domain`` for evaluating ``net`` (see the module docstring).

    >>> from seprank.models.network import SelfAttentionNetwork
    >>> type(backend_for(SelfAttentionNetwork.random(1, 2, 1, seed=0), "GF(7)", None)).__name__
    'ModularBackend'
    """
    name, p = parse_domain(domain, p)
    if name in ("ZZ", "QQ"):
        return _Rational(net, integer=(name == "ZZ"))
    if name == "QQ(i)":
        return _Gaussian(net)
    if name == "GF":
        return ModularBackend(net, p)
    return _Float(net)
