"""Structured weights for eq. (3) networks: the families the atlas and the bound checks use.

Each family returns the weight arrays of ``SelfAttentionNetwork`` (object arrays,
``W["Q"][l, h]`` of shape (d_a, d_x), ``W["O"][l, h]`` of shape (d_x, d_a)):

``random``
    integers in [-2, 2] without 0 (``SelfAttentionNetwork.random(nonzero=True)``).
``identity``
    head h reads and writes the coordinates h d_a, ..., h d_a + d_a - 1 (taken mod
    d_x): W^Q = W^K = W^V = the one-hot rows of those coordinates, W^O their
    transpose. With H = 1 and d_a = d_x every matrix is the identity.
``permutation``
    like ``identity`` but through a random permutation of the d_x coordinates,
    drawn per matrix: every row of W^{Q,K,V} and column of W^O is one-hot.
``repeated``
    random weights with every head of a layer equal to head 0 (H copies of one head).
``onedim``
    random weights with d_a = 1 (1-dimensional heads, any H).

>>> W = structured_weights("identity", L=1, d_x=2, H=1)
>>> W["Q"][0, 0].tolist(), W["O"][0, 0].tolist()
([[1, 0], [0, 1]], [[1, 0], [0, 1]])
"""

from __future__ import annotations

import numpy as np

from seprank.errors import ParameterError
from seprank.models.network import SelfAttentionNetwork

__all__ = ["FAMILIES", "structured_weights"]

FAMILIES = ("random", "identity", "permutation", "repeated", "onedim")


def _one_hot_rows(coords: list[int], d_x: int) -> np.ndarray:
    out = np.zeros((len(coords), d_x), dtype=np.int64)
    for r, c in enumerate(coords):
        out[r, c] = 1
    return out.astype(object)


def structured_weights(family: str, L: int, d_x: int, H: int, d_a: int | None = None,
                       seed: int = 0) -> dict:
    """Weights of the named family (module docstring); d_a defaults to d_x / H (1 for onedim).

    >>> structured_weights("onedim", L=1, d_x=3, H=2)["Q"].shape
    (1, 2, 1, 3)
    >>> W = structured_weights("repeated", L=1, d_x=2, H=2, seed=1)
    >>> bool((W["V"][0, 0] == W["V"][0, 1]).all())
    True
    """
    if family not in FAMILIES:
        raise ParameterError(f"weights family must be one of {', '.join(FAMILIES)}; "
                             f"got {family!r}")
    if family == "onedim":
        d_a = 1
    if d_a is None:
        if d_x % H:
            raise ParameterError(f"H = {H} does not divide d_x = {d_x}: the default "
                                 "d_a = d_x / H needs H | d_x (or pass d_a explicitly)")
        d_a = d_x // H
    if family in ("random", "onedim", "repeated"):
        W = SelfAttentionNetwork.random(L, d_x, H, d_a, seed=seed, nonzero=True).weights
        if family == "repeated":
            for k in "QKVO":
                W[k][:, 1:] = W[k][:, :1]
        return W
    rng = np.random.default_rng(seed)
    W = {k: np.empty((L, H) + ((d_x, d_a) if k == "O" else (d_a, d_x)), dtype=object)
         for k in "QKVO"}
    for layer in range(L):
        for h in range(H):
            coords = [(h * d_a + a) % d_x for a in range(d_a)]
            for k in "QKVO":
                perm = rng.permutation(d_x) if family == "permutation" else np.arange(d_x)
                rows = _one_hot_rows([int(perm[c]) for c in coords], d_x)
                W[k][layer, h] = rows.T if k == "O" else rows
    return W
