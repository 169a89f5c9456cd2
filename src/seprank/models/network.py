"""The self-attention network that levine2020 analyzes, evaluated exactly or in float64.

The analyzed layer (levine2020 sec. 2.2, eq. (3), l.71-75)
---------------------------------------------------------
Layer l maps the N vectors x^{l,1}, ..., x^{l,N} in R^{d_x} to N vectors; at
position i it outputs

    y^{l,i} = sum_{j=1}^{N} sum_{h=1}^{H} <W^{Q,l,h} x^{l,i}, W^{K,l,h} x^{l,j}>
                                          W^{O,l,h} W^{V,l,h} x^{l,j},

with W^{Q,l,h}, W^{K,l,h}, W^{V,l,h} of shape d_a x d_x and W^{O,l,h} of
shape d_x x d_a (l.81). Compared with the Transformer layer of eqs. (1)-(2)
(l.59-67) there is no softmax (the scores <q_i, k_j> are used as they are),
no 1/sqrt(d_a) scaling, no layer norm and no feed-forward/ReLU (the text,
l.75, folds the feed-forward matrices into W^O). The depth-L network is the
composition of L such layers, x^{l+1,j} = y^{l,j} (l.75-77, "concatenation of
L such layers"); it has 4LH weight matrices (l.81). Each layer is a
homogeneous cubic in its inputs, so the depth-L output is homogeneous of
degree 3^L in the network input (l.75: "every layer integrates 3 copies of its
input"; Lemma 1, A.1 l.329-378).

The text sets d_a = d_x / H (l.63); seprank takes any d_a >= 1 and uses
d_x / H only as the default, which needs H | d_x.

Residual variant (levine2020 A.4, fig. 5, l.478-484)
----------------------------------------------------
With ``residual=True`` every layer adds its input to its output (a skip
connection around f_l, fig. 5(a)): x^{l+1,i} = x^{l,i} + y^{l,i}.

Index conventions
-----------------
Arrays are 0-based: an input batch X has shape (batch, N, d_x), X[b, j] is the
vector at position j of sequence b; the papers' position i and coordinate p
(1-based, y_p^{i,L,d_x,H,Theta}, l.108) are ``position = i - 1`` and
``coordinate = p - 1`` here. Weights are stored per layer and head:
``W["Q"][l, h]`` is W^{Q,l+1,h+1}, of shape (d_a, d_x); likewise "K", "V";
``W["O"][l, h]`` has shape (d_x, d_a).

Domains
-------
``evaluate(X, domain=...)``:

* ``"ZZ"``: integer weights and inputs; exact Python integers;
* ``"QQ"``: rationals (ints/Fractions); computed on integer numerators with
  one common denominator per sequence and per layer (exact; the output is
  Fractions, or ints when every denominator is 1);
* ``"QQ(i)"``: Gaussian rationals (:mod:`seprank.scalars.gaussian`); outputs
  are GaussianRational;
* ``"GF(p)"`` (``domain="GF(p)", p=...`` or ``domain="GF(13)"``): residues in
  int64, reduced after every product (products are split into 16-bit limbs
  when the inner dimension times (p-1)^2 would overflow), for primes p < 2^31;
  a Gaussian entry needs p = 1 mod 4 (i -> the square root of -1 of
  :func:`~seprank.scalars.gaussian.sqrt_minus_one`), any denominator must be
  prime to p;
* ``"float64"``: numpy float64 (complex128 when a weight or input has an
  imaginary part). Never evidence of anything exact.

Every domain is vectorized over the batch with numpy (object arrays for the
exact ones). GF(p) batches of at least ``KERNEL_MIN_BATCH`` sequences (or any
batch with ``kernel=True``) go instead to the parallel numba kernel of
:mod:`seprank.models.network_mod_p`, which gives the same residues; grid
tensors mod p use its grid kernel (:class:`NetworkFunction`). Inside a layer
the sum over j is computed as Q (K^T V) rather than (Q K^T) V: the same
polynomial, N d_a^2 instead of N^2 d_a operations per head.

Examples
--------
One layer, d_x = d_a = H = 1 and weights q, k, v, o: y^i = q k o v x_i
sum_j x_j^2; with all weights 1 and x = (1, 2): y = (5, 10).

>>> net = SelfAttentionNetwork(1, 1, 1, weights={"Q": [[[[1]]]], "K": [[[[1]]]],
...                                                "V": [[[[1]]]], "O": [[[[1]]]]})
>>> net.evaluate([[[1], [2]]]).tolist()
[[[5], [10]]]
>>> net = SelfAttentionNetwork.random(L=2, d_x=4, H=2, seed=0)
>>> X = [[[1, 0, 2, -1], [0, 1, 1, 1], [2, -1, 0, 1]]]
>>> exact = net.evaluate(X, "QQ")
>>> mod = net.evaluate(X, "GF(p)", p=101)
>>> bool((np.mod(exact.astype(object), 101).astype(np.int64) == mod).all())
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.models.domains import (
    DOMAINS,
    MAX_NETWORK_PRIME,
    ModularBackend,
    backend_for,
    parse_domain,
)
from seprank.scalars.gaussian import GaussianRational

__all__ = ["SelfAttentionNetwork", "NetworkFunction", "DOMAINS", "MAX_NETWORK_PRIME",
           "KERNEL_MIN_BATCH", "parse_domain"]

#: With ``kernel=None`` (automatic), GF(p) batches of at least this many sequences go to
#: the numba kernel of :mod:`seprank.models.network_mod_p`; smaller ones stay in numpy.
KERNEL_MIN_BATCH = 512
_KINDS = ("Q", "K", "V", "O")


def _positive_int(name: str, value: object, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ParameterError(f"{name} must be >= {low}, got {value}")
    return int(value)


class SelfAttentionNetwork:
    """The depth-L analyzed self-attention network of levine2020 eq. (3) (module docstring).

    Parameters
    ----------
    L : depth (>= 1).
    d_x : width, the dimension of every position's vector (>= 1).
    H : heads per layer (>= 1).
    d_a : attention dimension; default d_x / H, which needs H | d_x.
    residual : add each layer's input to its output (levine2020 A.4, fig. 5).
    weights : mapping with keys "Q", "K", "V" (arrays of shape (L, H, d_a, d_x))
        and "O" (shape (L, H, d_x, d_a)); entries ints, Fractions or
        GaussianRational (floats only for the float64 domain).

    Raises
    ------
    ParameterError
        a size is not a positive integer, or H does not divide d_x while d_a is
        not given.
    InputError
        weights missing or of the wrong shape.

    >>> net = SelfAttentionNetwork(2, 4, 2, residual=True,
    ...                            weights={k: np.zeros((2, 2, 2, 4) if k != "O" else (2, 2, 4, 2),
    ...                                                 dtype=int) for k in "QKVO"})
    >>> net.d_a, net.num_weight_matrices  # d_a = d_x / H; 4 L H matrices
    (2, 16)
    >>> net.evaluate([[[1, 2, 3, 4]]]).tolist()  # zero weights, residual: output = input
    [[[1, 2, 3, 4]]]
    """

    def __init__(self, L: int, d_x: int, H: int, d_a: int | None = None, *,
                 residual: bool = False, weights: Mapping[str, object] | None = None):
        self.L = _positive_int("L (depth)", L)
        self.d_x = _positive_int("d_x (width)", d_x)
        self.H = _positive_int("H (heads)", H)
        if d_a is None:
            if self.d_x % self.H:
                raise ParameterError(f"H = {self.H} does not divide d_x = {self.d_x}: the default "
                                     "d_a = d_x / H needs H | d_x (or pass d_a explicitly)")
            d_a = self.d_x // self.H
        self.d_a = _positive_int("d_a (attention dimension)", d_a)
        self.residual = bool(residual)
        if weights is None:
            raise InputError("weights are required; use SelfAttentionNetwork.random(...) for "
                             "random ones")
        self.weights = self._check_weights(weights)

    # -- construction --------------------------------------------------------------------
    def _check_weights(self, weights: Mapping[str, object]) -> dict[str, np.ndarray]:
        if not isinstance(weights, Mapping):
            raise InputError(f"weights must be a mapping with keys Q, K, V, O; got "
                             f"{type(weights).__name__}")
        missing = [k for k in _KINDS if k not in weights]
        extra = [k for k in weights if k not in _KINDS]
        if missing or extra:
            raise InputError(f"weights need exactly the keys Q, K, V, O; missing {missing}, "
                             f"unknown {extra}")
        out = {}
        for k in _KINDS:
            want = (self.L, self.H) + ((self.d_x, self.d_a) if k == "O" else
                                       (self.d_a, self.d_x))
            arr = np.asarray(weights[k])
            if arr.shape != want:
                raise InputError(f"weights['{k}'] has shape {arr.shape}; (L, H, "
                                 f"{'d_x, d_a' if k == 'O' else 'd_a, d_x'}) = {want} expected")
            out[k] = arr.astype(object)  # a copy; numpy integers become Python ints
        return out

    @classmethod
    def random(cls, L: int, d_x: int, H: int, d_a: int | None = None, *, residual: bool = False,
               seed: int = 0, kind: str = "int", bound: int = 2, max_den: int = 3,
               nonzero: bool = False) -> SelfAttentionNetwork:
        """A network with small random exact weights, reproducible from ``seed``.

        ``kind``: ``"int"`` (integers in [-bound, bound]), ``"rational"``
        (numerators in [-bound, bound], denominators in [1, max_den]) or
        ``"gaussian"`` (real and imaginary parts integers in [-bound, bound]).
        ``nonzero=True`` leaves 0 out of the numerators' range (no weight vanishes;
        for "gaussian", no real part). Weights are drawn in the order Q, K, V, O
        with ``numpy.random.default_rng(seed)``.

        >>> SelfAttentionNetwork.random(L=2, d_x=4, H=2).weights["Q"].shape  # (L, H, d_a, d_x)
        (2, 2, 2, 4)
        """
        L_, dx_, H_ = (_positive_int("L (depth)", L), _positive_int("d_x (width)", d_x),
                       _positive_int("H (heads)", H))
        if d_a is None:
            if dx_ % H_:
                raise ParameterError(f"H = {H_} does not divide d_x = {dx_}: the default "
                                     "d_a = d_x / H needs H | d_x (or pass d_a explicitly)")
            d_a = dx_ // H_
        da_ = _positive_int("d_a (attention dimension)", d_a)
        bound = _positive_int("bound", bound, low=1 if nonzero else 0)
        max_den = _positive_int("max_den", max_den)
        if kind not in ("int", "rational", "gaussian"):
            raise ParameterError(f"kind must be 'int', 'rational' or 'gaussian'; got {kind!r}")
        rng = np.random.default_rng(seed)
        weights = {}
        for k in _KINDS:
            shape = (L_, H_) + ((dx_, da_) if k == "O" else (da_, dx_))
            if nonzero:  # draw from [-bound, bound] without 0
                nums = rng.integers(-bound, bound, size=shape)
                nums = np.where(nums >= 0, nums + 1, nums)
            else:
                nums = rng.integers(-bound, bound + 1, size=shape)
            arr = np.empty(shape, dtype=object)
            if kind == "int":
                arr[...] = nums.astype(object)
            elif kind == "rational":
                dens = rng.integers(1, max_den + 1, size=shape)
                for idx in np.ndindex(shape):
                    arr[idx] = Fraction(int(nums[idx]), int(dens[idx]))
            else:
                ims = rng.integers(-bound, bound + 1, size=shape)
                for idx in np.ndindex(shape):
                    arr[idx] = GaussianRational(int(nums[idx]), int(ims[idx]))
            weights[k] = arr
        return cls(L_, dx_, H_, da_, residual=residual, weights=weights)

    def degeneracies(self, coordinate: int = 0) -> list[str]:
        """What makes these weights degenerate, in words (empty: nothing found).

        A head whose W^O W^V or W^QT W^K is the zero matrix adds nothing to its layer; an
        output coordinate is identically zero when the last layer's rows of W^O for it
        vanish in every head (no residual connection). A drawn network (nonzero weights,
        :mod:`seprank.models.generic_weights`) is degenerate only by cancellation.

        >>> W = {k: np.ones((1, 2, 1, 1), dtype=int) for k in "QKV"}
        >>> W["O"] = np.array([[[[1]], [[0]]]])
        >>> SelfAttentionNetwork(1, 1, 2, 1, weights=W).degeneracies()
        ['layer 0, head 1: W^O W^V = 0 (the head adds nothing)']
        """
        out = []
        for layer in range(self.L):
            for h in range(self.H):
                Q, K, V, O = (np.asarray(self.weights[k][layer, h], dtype=object)
                              for k in _KINDS)
                if not np.any(O.dot(V)):
                    out.append(f"layer {layer}, head {h}: W^O W^V = 0 (the head adds nothing)")
                elif not np.any(Q.T.dot(K)):
                    out.append(f"layer {layer}, head {h}: W^QT W^K = 0 (the head adds "
                               "nothing)")
        if not self.residual and 0 <= coordinate < self.d_x:
            last = [np.asarray(self.weights["O"][self.L - 1, h], dtype=object)[coordinate]
                    for h in range(self.H)]
            if not any(np.any(row) for row in last):
                out.append(f"output coordinate {coordinate} is identically zero (its rows of "
                           "W^O vanish in every head of the last layer)")
        return out

    def sub_network(self, layers: range | list[int]) -> SelfAttentionNetwork:
        """The network made of the given layers (in that order) of this one.

        >>> SelfAttentionNetwork.random(L=3, d_x=2, H=1).sub_network([0, 2])
        SelfAttentionNetwork(L=2, d_x=2, H=1, d_a=2, residual=False)
        """
        layers = list(layers)
        if not layers or any(not 0 <= int(l_) < self.L for l_ in layers):
            raise ParameterError(f"layers must be a non-empty list of layer indices in "
                                 f"0..{self.L - 1}, got {layers}")
        w = {k: self.weights[k][layers] for k in _KINDS}
        return SelfAttentionNetwork(len(layers), self.d_x, self.H, self.d_a,
                                    residual=self.residual, weights=w)

    @property
    def num_weight_matrices(self) -> int:
        """4 L H (levine2020 l.81).

        >>> SelfAttentionNetwork.random(L=2, d_x=3, H=3).num_weight_matrices
        24
        """
        return 4 * self.L * self.H

    def __repr__(self) -> str:
        return (f"SelfAttentionNetwork(L={self.L}, d_x={self.d_x}, H={self.H}, d_a={self.d_a}, "
                f"residual={self.residual})")

    # -- evaluation ----------------------------------------------------------------------
    def _inputs(self, X: object) -> tuple[np.ndarray, bool]:
        arr = X if isinstance(X, np.ndarray) else np.asarray(X, dtype=object)
        single = arr.ndim == 2
        if single:
            arr = arr[None]
        if arr.ndim != 3 or arr.shape[1] < 1 or arr.shape[2] != self.d_x:
            raise InputError(f"X must have shape (batch, N, d_x) with d_x = {self.d_x} and N >= 1 "
                             f"(or (N, d_x)); got {np.shape(X)}")
        return arr, single

    def _backend(self, domain: str, p: int | None):
        return backend_for(self, domain, p)

    def evaluate(self, X: object, domain: str = "QQ", *, p: int | None = None,
                 position: int | None = None, kernel: bool | None = None) -> np.ndarray:
        """Outputs of the network on a batch of sequences.

        Parameters
        ----------
        X : (batch, N, d_x) (or (N, d_x)) array of numbers of the domain.
        domain : ``"ZZ"``, ``"QQ"``, ``"QQ(i)"``, ``"GF(p)"`` (with ``p``) or ``"float64"``.
        p : the prime for GF(p).
        position : if given (0-based), only the output at that position is
            computed (the last layer skips the others).
        kernel : GF(p) only: True evaluates with the numba kernel
            (:func:`seprank.models.network_mod_p.evaluate_mod_p`), False with
            numpy; None (default) uses the kernel for batches of at least
            ``KERNEL_MIN_BATCH`` sequences. Both give the same residues.

        Returns
        -------
        array of shape (batch, N, d_x), or (batch, d_x) with ``position``
        (without the batch axis when X was (N, d_x)). Object dtype for ZZ, QQ,
        QQ(i); int64 residues for GF(p); float64/complex128 for float64.

        >>> net = SelfAttentionNetwork.random(L=1, d_x=2, H=1, seed=0)
        >>> net.evaluate([[[1, 0], [0, 1], [1, 1]]]).shape
        (1, 3, 2)
        """
        arr, single = self._inputs(X)
        N = arr.shape[1]
        if position is not None:
            position = _positive_int("position", position, low=0)
            if position >= N:
                raise ParameterError(f"position = {position} must be < N = {N} (0-based)")
        ops = self._backend(domain, p)
        if isinstance(ops, ModularBackend) and self._use_kernel(kernel, len(arr)):
            from seprank.models.network_mod_p import evaluate_mod_p

            out = evaluate_mod_p(self, arr, ops.p, position=position)
            return out[0] if single else out
        if kernel and not isinstance(ops, ModularBackend):
            raise ParameterError(f"kernel=True needs domain GF(p), not {domain!r}")
        out = self._run(ops, arr, position)
        if position is not None:
            out = out[:, 0]  # the length-1 position axis of a single-position run
        return out[0] if single else out

    @staticmethod
    def _use_kernel(kernel: bool | None, batch: int) -> bool:
        if kernel is None:
            return batch >= KERNEL_MIN_BATCH
        if not isinstance(kernel, (bool, np.bool_)):
            raise ParameterError(f"kernel must be True, False or None, got {kernel!r}")
        return bool(kernel)

    def _run(self, ops, X: np.ndarray, position: int | None) -> np.ndarray:
        state, den = ops.inputs(X)
        for layer in range(self.L):
            w, D = ops.weights(layer)
            last = layer == self.L - 1 and position is not None
            f = _layer(ops, state, w, position if last else None)
            new_den = None if den is None else _den_step(den, D)
            if self.residual:
                kept = ops.map(lambda a: a[:, position:position + 1], state) if last else state
                if den is not None:
                    kept = ops.scale(kept, _div(new_den, den))
                state = ops.add(kept, f)
            else:
                state = f
            den = new_den
        return ops.finish(state, den)

    def output(self, X: object, position: int, coordinate: int, domain: str = "QQ", *,
               p: int | None = None, kernel: bool | None = None) -> np.ndarray:
        """y_p^{i} of levine2020 (l.108) on each sequence: shape (batch,) (0-based i, p).

        >>> one = [[[[1]]]]
        >>> net = SelfAttentionNetwork(1, 1, 1, weights={"Q": one, "K": one, "V": one, "O": one})
        >>> net.output([[[1], [2]]], 1, 0).tolist()  # 2 (1 + 4)
        [10]
        """
        coordinate = _positive_int("coordinate", coordinate, low=0)
        if coordinate >= self.d_x:
            raise ParameterError(f"coordinate = {coordinate} must be < d_x = {self.d_x} "
                                 "(0-based)")
        out = self.evaluate(X, domain, p=p, position=position, kernel=kernel)
        return out[..., coordinate]

    def as_function(self, position: int, coordinate: int, domain: str = "QQ", *,
                    p: int | None = None, kernel: bool | None = None) -> NetworkFunction:
        """The batched scalar function X -> y_p^{i}(X) for grid tensors (0-based i, p).

        A :class:`NetworkFunction`; ``kernel`` is passed on to :meth:`evaluate`,
        and ``kernel=False`` also keeps :mod:`seprank.tensors.grid` on its
        numpy path (no numba kernel anywhere).

        >>> net = SelfAttentionNetwork.random(L=1, d_x=2, H=1, seed=0)
        >>> f = net.as_function(0, 1, "ZZ")
        >>> bool(f([[[1, 0], [2, 1]]])[0] == net.evaluate([[[1, 0], [2, 1]]])[0, 0, 1])
        True
        """
        return NetworkFunction(self, position, coordinate, domain, p=p, kernel=kernel)


class NetworkFunction:
    """The batched function X -> y_coordinate^position(X) of a network (for grid tensors).

    Calling it on a (batch, N, d_x) array returns ``net.output(X, position,
    coordinate, domain, p=p, kernel=kernel)``, shape (batch,). Over GF(p) it
    also offers :meth:`grid_values`, which :mod:`seprank.tensors.grid` uses to
    compute grid-tensor entries with the numba kernel of
    :mod:`seprank.models.network_mod_p` instead of calling the function on
    materialized sequences (unless ``kernel=False``).

    >>> net = SelfAttentionNetwork.random(L=1, d_x=1, H=1, seed=0)
    >>> f = NetworkFunction(net, 0, 0, "GF(7)")
    >>> f([[[1], [1]], [[2], [0]]]).shape
    (2,)
    """

    def __init__(self, net: SelfAttentionNetwork, position: int, coordinate: int,
                 domain: str = "QQ", *, p: int | None = None, kernel: bool | None = None):
        self.domain, self.p = parse_domain(domain, p)  # fail early on a bad domain
        self._domain_spec = domain
        self.net = net
        self.position = _positive_int("position", position, low=0)
        self.coordinate = _positive_int("coordinate", coordinate, low=0)
        if self.coordinate >= net.d_x:
            raise ParameterError(f"coordinate = {coordinate} must be < d_x = {net.d_x} "
                                 "(0-based)")
        if kernel is not None and not isinstance(kernel, (bool, np.bool_)):
            raise ParameterError(f"kernel must be True, False or None, got {kernel!r}")
        if kernel and self.domain != "GF":
            raise ParameterError(f"kernel=True needs domain GF(p), not {domain!r}")
        self.kernel = None if kernel is None else bool(kernel)

    def __call__(self, X: np.ndarray) -> np.ndarray:
        return self.net.output(X, self.position, self.coordinate, self._domain_spec, p=self.p,
                               kernel=self.kernel)

    def __repr__(self) -> str:
        dom = f"GF({self.p})" if self.domain == "GF" else self.domain
        return (f"NetworkFunction({self.net!r}, position={self.position}, "
                f"coordinate={self.coordinate}, domain={dom!r})")

    def grid_values(self, templates: object, I: tuple[int, ...], J: tuple[int, ...],
                    rows: np.ndarray, cols: np.ndarray) -> np.ndarray | None:
        """Grid entries (R, C) by the GF(p) kernel, or None where it does not apply.

        Entry (a, b) is this function on the sequence with templates rows[a] at
        the positions I and cols[b] at J (see
        :func:`seprank.models.network_mod_p.grid_values_mod_p`). None when the
        domain is not GF(p) or ``kernel=False``: the caller then evaluates the
        function itself.

        >>> one = [[[[1]]]]
        >>> net = SelfAttentionNetwork(1, 1, 1, weights={"Q": one, "K": one, "V": one, "O": one})
        >>> NetworkFunction(net, 0, 0, "GF(7)").grid_values([[1], [2]], (0,), (1,),
        ...                                                 [[1]], [[0]]).tolist()  # 2 * 5
        [[3]]
        >>> NetworkFunction(net, 0, 0, "ZZ").grid_values([[1]], (0,), (1,), [[0]], [[0]]) is None
        True
        """
        if self.domain != "GF" or self.kernel is False:
            return None
        N = len(I) + len(J)
        if self.position >= N:
            raise ParameterError(f"position = {self.position} must be < N = {N} (0-based)")
        from seprank.models.network_mod_p import grid_values_mod_p

        return grid_values_mod_p(self.net, templates, I, J, rows, cols, self.p,
                                 position=self.position, coordinate=self.coordinate)


def _den_step(den: np.ndarray, D: int) -> np.ndarray:
    """Denominator of a layer's output: (den D)^3 D (three inputs, four weight matrices)."""
    out = np.empty(len(den), dtype=object)
    out[:] = [d ** 3 * D ** 4 for d in den]
    return out


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(len(a), dtype=object)
    out[:] = [x // y for x, y in zip(a, b, strict=True)]
    return out


def _layer(ops, x, w, position: int | None):
    """One layer of eq. (3) on a batch: x (batch, N, d_x) -> (batch, N or 1, d_x).

    With q_i = W^Q x_i, k_j = W^K x_j, v_j = W^V x_j per head, the output at i is
    W^O sum_j <q_i, k_j> v_j = W^O (sum_j v_j k_j^T) q_i; computed as
    Q (K^T V) W^O^T with rows as positions.
    """
    wqT, wkT, wvT, woT = w  # (H, d_x, d_a) x3, (H, d_a, d_x)
    xh = ops.map(lambda a: a[:, None], x)  # (batch, 1, N, d_x): broadcasts over heads
    xq = xh if position is None else ops.map(lambda a: a[:, :, position:position + 1], xh)
    q = ops.matmul(xq, wqT)  # (batch, H, Nq, d_a)
    k = ops.matmul(xh, wkT)  # (batch, H, N, d_a)
    v = ops.matmul(xh, wvT)
    kv = ops.matmul(ops.map(lambda a: np.swapaxes(a, -1, -2), k), v)  # (batch, H, d_a, d_a)
    z = ops.matmul(q, kv)  # (batch, H, Nq, d_a): z_i = sum_j <q_i, k_j> v_j
    y = ops.matmul(z, woT)  # (batch, H, Nq, d_x)
    return ops.sum_heads(y)
