"""Separation ranks of networks behind wies2021's input embeddings (vocabulary, convolution).

Vocabulary embedding (wies2021 eq. (1), l.64-70)
------------------------------------------------
The output is a function of the tokens (w^1, ..., w^N) in [V]^N. A function on a
finite product domain has separation rank w.r.t. (I, J) equal to the rank of its
V^|I| x V^|J| value matrix (rows: the token tuples of I, columns: those of J; a
decomposition sum_r g_r h_r of the function is a factorization of that matrix and
back). So the answer is the exact rank of the matrix of network values on all V^N
token sequences (evaluated exactly over Z/Q): kind ``exact``. This is the grid
tensor with the V indicator vectors as templates (wies2021 A.2, Theorem 3).

Convolution embedding (wies2021 eqs. (2), (4), l.72-80)
-------------------------------------------------------
The output is a polynomial in the M d_input raw inputs (M = k N): position n of
the network sees y^{0,n} = sum_j W_j^conv x^{k n + j} + p^n, affine in them. The
separation rank w.r.t. a partition of the M raw positions is the rank of the
coefficient matricization of that polynomial (as in
:mod:`seprank.separation.polynomial`), which the flint expansion of the network
on the affine inputs gives: kind ``exact``. The positional terms make the output
non-homogeneous, so the grid route's degree blocks and parity lemma do not apply
here; the blocks come from the (I-degree, J-degree) components as always.
"""

from __future__ import annotations

import itertools
import math
import time

import flint
import numpy as np

from seprank.budget import BASE_BYTES, Budget, Estimate, largest_fitting, make_budget
from seprank.errors import InputError, ParameterError
from seprank.linalg import rank
from seprank.linalg.kinds import EXACT, LOWER_BOUND
from seprank.models.weights import weights_to_json
from seprank.separation.polynomial import (
    coefficient_blocks,
    expansion_estimate,
    network_polynomial,
)
from seprank.separation.result import SeparationRankResult
from seprank.tensors.grid import check_partition

__all__ = ["embedded_separation_rank", "MAX_TOKEN_SEQUENCES"]

#: Largest V^N the vocabulary route evaluates (exact integers in numpy object arrays).
MAX_TOKEN_SEQUENCES = 40_000


def _bounds(L: int, r: int, r_e: int, embedding: str, value: int) -> dict:
    """The papers' bounds behind this embedding (:func:`seprank.paper_hooks.embedding_bounds`:
    today wies2021's Theorem 3 for a vocabulary, Theorem 4 for a convolution)."""
    from seprank.paper_hooks import embedding_bounds

    return embedding_bounds(L, r, r_e, embedding, value)


#: Bytes per (token sequence, position, coordinate) while the vocabulary route evaluates:
#: the embedded inputs and each layer's intermediate object arrays, with their ints.
_BYTES_PER_INPUT = 400
#: Bytes per value of the V^|I| x V^|J| value matrix while it is ranked (list slot, int,
#: fmpz copy), beyond its digits.
_BYTES_PER_VALUE = 200


def _power(V: int, N: int) -> float:
    """V^N as a float (``math.inf`` past the float range), without computing the integer."""
    return float(V) ** N if N * math.log2(max(V, 2)) < 1000 else math.inf


def token_sequences(V: int, N: int) -> int | float:
    """V^N, the vocabulary route's sequences: exact when at most 10^6 (the route's
    sizes), else a float (``math.inf`` past its range), never the huge integer itself.

    >>> token_sequences(8, 5), token_sequences(29, 2097151)
    (32768, inf)
    """
    return V ** N if N * math.log2(max(V, 2)) <= 20 else _power(V, N)


def vocabulary_estimate(net, V: int, N: int) -> Estimate:
    """Work and peak memory of the vocabulary route: V^N exact network evaluations (about
    L N^2 H d_a d_x object operations each) and the exact rank of their value matrix.

    >>> from types import SimpleNamespace
    >>> net = SimpleNamespace(L=1, d_x=2, H=1, d_a=2)
    >>> vocabulary_estimate(net, 3, 2).detail
    '9 token sequences, a 3 x 3 value matrix'
    """
    from seprank.budget import as_float, bigint_factor, format_count

    seqs, rows, cols = (_power(V, N), _power(V, N // 2), _power(V, N - N // 2))
    bits = 3.0 ** net.L * 8 + 64 if net.L < 600 else math.inf
    per_eval = 4 * net.L * N * N * net.H * net.d_a * net.d_x * bigint_factor(bits)
    small, big = min(rows, cols), max(rows, cols)
    peak = seqs * (_BYTES_PER_INPUT * N * net.d_x + _BYTES_PER_VALUE + bits / 4)
    return Estimate("the vocabulary route",
                    nbytes=BASE_BYTES + (int(peak) if peak < 2**1000 else 2**1000),
                    work=((seqs * per_eval, "python"),
                          (as_float(small * small * big) * bigint_factor(bits), "flint")),
                    detail=f"{format_count(seqs)} token sequences, a {format_count(rows)} x "
                           f"{format_count(cols)} value matrix")


def _check_vocabulary(net, embedding, budget) -> None:
    """Refuse past the budget, naming the largest N (at this V) that fits."""
    V, N = embedding.V, embedding.N

    def fits(n: int) -> bool:
        return budget.fits(vocabulary_estimate(net, V, n))

    def hint() -> str:
        n = largest_fitting(fits, 2, N - 1)
        return "" if n is None else f"the largest N that fits (V = {V}) is {n}"

    budget.check(vocabulary_estimate(net, V, N), nearest=hint)


def _check_convolution(net, embedding, budget) -> None:
    """Refuse past the budget: the expansion in the M d_input raw inputs, degree <= 3^L."""

    est = expansion_estimate(embedding.M * embedding.d_input, 3 ** net.L, True, net,
                             embedding.N)
    budget.check(est.as_estimate("the convolution route"))


def _vocabulary(net, embedding, partition, position, coordinate) -> dict:
    """The value matrix on all V^N token sequences, ranked exactly (module docstring)."""
    N = embedding.N
    I, J = check_partition(N, tuple(range(N // 2)) if partition is None else partition)
    V = embedding.V
    if token_sequences(V, N) > MAX_TOKEN_SEQUENCES:
        from seprank.budget import format_count

        raise ParameterError(f"V^N = {format_count(token_sequences(V, N))} token sequences "
                             f"exceed {MAX_TOKEN_SEQUENCES}")
    rows = list(itertools.product(range(V), repeat=len(I)))
    cols = list(itertools.product(range(V), repeat=len(J)))
    tokens = np.zeros((len(rows) * len(cols), N), dtype=np.int64)
    for a, ra in enumerate(rows):
        for b, cb in enumerate(cols):
            tokens[a * len(cols) + b, list(I)] = ra
            tokens[a * len(cols) + b, list(J)] = cb
    frac = any(not isinstance(w, int) for kk in "QKVO" for w in net.weights[kk].flat)
    X = embedding.embed(tokens)
    if not frac:  # small integers: numpy's integer fast path of the exact evaluation
        X = X.astype(np.int64)
    vals = net.output(X, position, coordinate, "QQ" if frac else "ZZ")
    res = rank(vals.reshape(len(rows), len(cols)).tolist(), "auto")
    return {"I": I, "J": J, "value": res.value, "kind": res.kind,
            "shape": (len(rows), len(cols)), "blocks": [], "which": "W-Thm3",
            "route": "full domain", "words": "value matrix on all token sequences",
            "what": {"embedding": "vocabulary", "V": V, "M_V": embedding.M_V.tolist(),
                     "P": embedding.P.tolist()}}


def _affine_inputs(net, embedding, frac: bool) -> list[list]:
    """y^{0,n} = sum_j W_j^conv x^{k n + j} + p^n as flint polynomials in the raw inputs."""
    M, k, din = embedding.M, embedding.k, embedding.d_input
    ctx = (flint.fmpq_mpoly_ctx if frac else flint.fmpz_mpoly_ctx).get(("z", M * din),
                                                                          "deglex")
    z = ctx.gens()
    zero = ctx.from_dict({})
    X = []
    for n in range(embedding.N):
        row = []
        for c in range(net.d_x):
            acc = zero + int(embedding.P[c, n])
            for j in range(k):
                for cc in range(din):
                    w = int(embedding.W[j, c, cc])
                    if w:
                        acc = acc + w * z[(k * n + j) * din + cc]
            row.append(acc)
        X.append(row)
    return X


def _convolution(net, embedding, partition, position, coordinate) -> dict:
    """The coefficient matricization of the network on the affine embedding."""
    M, din = embedding.M, embedding.d_input
    I, J = check_partition(M, tuple(range(M // 2)) if partition is None else partition)
    if not I or not J:
        raise ParameterError("a partition needs raw positions on both sides")
    frac = any(not isinstance(w, int) for kk in "QKVO" for w in net.weights[kk].flat)
    X = _affine_inputs(net, embedding, frac)
    poly = network_polynomial(net, embedding.N, position, coordinate, inputs=X)
    Iv = [m * din + c for m in I for c in range(din)]
    Jv = [m * din + c for m in J for c in range(din)]
    blks = coefficient_blocks(poly, net.d_x, I, J, variables=(Iv, Jv))
    value, kinds, blocks = 0, set(), []
    for blk in blks:
        rr = rank(blk.integer_matrix(), "auto")
        value += rr.value
        kinds.add(rr.kind)
        blocks.append({"I_degrees": list(blk.I_degrees), "J_degrees": list(blk.J_degrees),
                       "shape": list(blk.shape), "rank": rr.value, "kind": rr.kind})
    shape = (sum(b["shape"][0] for b in blocks), sum(b["shape"][1] for b in blocks))
    return {"I": I, "J": J, "value": value, "kind": EXACT if kinds <= {EXACT} else LOWER_BOUND,
            "shape": shape, "blocks": blocks, "which": "W-Thm4", "route": "coefficient",
            "words": "coefficient matrix",
            "what": {"embedding": "convolution", "M": M, "k": embedding.k, "d_input": din,
                     "W_conv": embedding.W.tolist(), "P": embedding.P.tolist()}}


def embedded_separation_rank(net, embedding, *, partition=None, position: int = 0,
                             coordinate: int = 0, max_memory: int | str | None = None,
                             max_seconds: float | str | None = None,
                             budget: Budget | None = None) -> SeparationRankResult:
    """Separation rank of y_coordinate^position of ``net`` behind a wies2021 embedding.

    ``embedding``: a :class:`~seprank.models.embedding.VocabularyEmbedding` (the
    partition is of the N token positions) or a
    :class:`~seprank.models.embedding.ConvolutionalEmbedding` (the partition is of the
    M raw input positions); default I = the first half. The result's ``bounds`` hold
    wies2021 Theorem 3 or 4 with the measured r and r_e. ``max_memory``, ``max_seconds``
    or ``budget`` (:mod:`seprank.budget`; default the machine's memory): the route's
    estimate is checked first, and a refusal is one line.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.models.embedding import VocabularyEmbedding
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> emb = VocabularyEmbedding([[1, 2, 3]], [[0, 0]])      # tokens -> 1, 2, 3
    >>> r = embedded_separation_rank(net, emb)               # a (a^2 + b^2): rank 2
    >>> r.value, r.kind, r.bounds["W-Thm3"]["value"]
    (2, 'exact', 80)
    """
    from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding

    if embedding.d_x != net.d_x:
        raise InputError(f"the embedding has d_x = {embedding.d_x}, the network {net.d_x}")
    N = embedding.N
    if not 0 <= position < N or not 0 <= coordinate < net.d_x:
        raise ParameterError(f"position must be in 0..{N - 1} and coordinate in "
                             f"0..{net.d_x - 1}")
    start = time.perf_counter()
    budget = make_budget(max_memory, max_seconds, budget)
    if isinstance(embedding, VocabularyEmbedding):
        if token_sequences(embedding.V, N) <= MAX_TOKEN_SEQUENCES:  # else refused below
            _check_vocabulary(net, embedding, budget)
        with budget.active():
            out = _vocabulary(net, embedding, partition, position, coordinate)
    elif isinstance(embedding, ConvolutionalEmbedding):
        _check_convolution(net, embedding, budget)
        with budget.active():
            out = _convolution(net, embedding, partition, position, coordinate)
    else:
        raise ParameterError(f"unknown embedding {type(embedding).__name__}")
    value, kind, shape = out["value"], out["kind"], out["shape"]
    return SeparationRankResult(
        value=value, kind=kind, upper_bound=value if kind == EXACT else min(shape),
        partition={"I": list(out["I"]), "J": list(out["J"])}, position=position,
        coordinate=coordinate, seq_len=N, residual=net.residual,
        network={"L": net.L, "d_x": net.d_x, "H": net.H, "d_a": net.d_a},
        route=out["route"], route_asked=out["route"],
        bounds=_bounds(net.L, embedding.rank(), embedding.positional_rank(),
                       out["what"]["embedding"],
                       value),
        weights=weights_to_json(net.weights), blocks=out["blocks"],
        matrix_words=out["words"], matrix_shape=tuple(shape), embedding=out["what"],
        seconds=round(time.perf_counter() - start, 4))
