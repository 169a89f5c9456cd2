"""A literal, slow transcription of levine2020 eq. (3) and random exact inputs.

``literal_outputs`` writes the layer of eq. (3) (l.69-82) out entry by entry in
plain Python, sharing nothing with :meth:`SelfAttentionNetwork.evaluate`; the
check L-net and the network's tests compare the vectorized evaluator with it.
``rational_batch`` / ``gaussian_batch`` draw small exact input batches
(shape (batch, N, d_x)) from a numpy Generator.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from seprank.models.network import SelfAttentionNetwork
from seprank.scalars.gaussian import GaussianRational

__all__ = ["literal_outputs", "rational_batch", "gaussian_batch"]


def literal_outputs(net: SelfAttentionNetwork, X) -> list:
    """eq. (3) written out entry by entry in plain Python (shares nothing with evaluate).

    Examples
    --------
    One layer with every weight 1 maps x = (1, 2) to x_i (1^2 + 2^2) = (5, 10):

    >>> ones = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", ones))
    >>> literal_outputs(net, [[[1], [2]]])
    [[[5], [10]]]
    """
    W = {k: net.weights[k].tolist() for k in "QKVO"}

    def mv(A, x):
        return [sum((a * b for a, b in zip(row, x, strict=True)), 0) for row in A]

    out = []
    for seq in X:
        xs = [list(v) for v in seq]
        for layer in range(net.L):
            ys = []
            for i in range(len(xs)):
                acc = [0] * net.d_x
                for j in range(len(xs)):
                    for h in range(net.H):
                        q = mv(W["Q"][layer][h], xs[i])
                        k = mv(W["K"][layer][h], xs[j])
                        score = sum((a * b for a, b in zip(q, k, strict=True)), 0)
                        ov = mv(W["O"][layer][h], mv(W["V"][layer][h], xs[j]))
                        acc = [a + score * b for a, b in zip(acc, ov, strict=True)]
                if net.residual:
                    acc = [a + b for a, b in zip(acc, xs[i], strict=True)]
                ys.append(acc)
            xs = ys
        out.append(xs)
    return out


def rational_batch(rng, batch, N, d_x):
    """A (batch, N, d_x) object array of Fractions a/b, -4 <= a <= 4, 1 <= b <= 3.

    Examples
    --------
    >>> X = rational_batch(np.random.default_rng(0), 2, 3, 4)
    >>> X.shape, all(isinstance(x, Fraction) and x.denominator <= 3 for x in X.ravel())
    ((2, 3, 4), True)
    """
    num = rng.integers(-4, 5, size=(batch, N, d_x))
    den = rng.integers(1, 4, size=(batch, N, d_x))
    X = np.empty((batch, N, d_x), dtype=object)
    for idx in np.ndindex(X.shape):
        X[idx] = Fraction(int(num[idx]), int(den[idx]))
    return X


def gaussian_batch(rng, batch, N, d_x):
    """A (batch, N, d_x) object array of GaussianRational a + b i, -3 <= a, b <= 3.

    Examples
    --------
    >>> X = gaussian_batch(np.random.default_rng(0), 1, 2, 2)
    >>> X.shape, all(abs(z.real) <= 3 and abs(z.imag) <= 3 for z in X.ravel())
    ((1, 2, 2), True)
    """
    re_, im_ = rng.integers(-3, 4, size=(2, batch, N, d_x))
    X = np.empty((batch, N, d_x), dtype=object)
    for idx in np.ndindex(X.shape):
        X[idx] = GaussianRational(int(re_[idx]), int(im_[idx]))
    return X
