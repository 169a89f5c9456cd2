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

The route
---------
:data:`ROUTE` (registered in :mod:`seprank.separation.routes`) takes the option
``embedding`` and runs only when it is given at a finite N:
``seprank.separation_rank(network=net, embedding=emb)`` (or
``options={"embedding": emb}``); N = inf behind an embedding is the moment route's.
The embedding fixes the request's positions (:meth:`EmbeddingRoute.positions`, asked
by the planner before it parses the partition): N is the embedding's number of
tokens, and the partition is of the N token positions (vocabulary) or of the
M = k N raw input positions (convolution; default I = the first M // 2), while the
output position is a token position (0..N-1). The answer carries wies2021's Theorem 3
or 4 bound as ``bounds`` and the embedding as ``embedding``.
:func:`embedded_separation_rank` is the same call by its older name.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import flint
import numpy as np

from seprank.budget import Budget, Estimate, largest_fitting
from seprank.errors import InputError, ParameterError
from seprank.linalg import rank
from seprank.linalg.kinds import EXACT, LOWER_BOUND
from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding
from seprank.separation.monomials import monomial_count
from seprank.separation.polynomial import (
    coefficient_blocks,
    expansion_estimate,
    network_polynomial,
)
from seprank.separation.request import Positions
from seprank.separation.result import SeparationRankResult
from seprank.separation.route import (
    PlannedBlock,
    RouteOutcome,
    RoutePlan,
    SeparationRoute,
    WorkEstimate,
)

__all__ = ["embedded_separation_rank", "MAX_TOKEN_SEQUENCES", "EmbeddingRoute", "ROUTE",
           "vocabulary_estimate", "token_sequences"]

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


def vocabulary_work(net, V: int, N: int) -> WorkEstimate:
    """Work and peak memory of the vocabulary embedding: V^N exact network evaluations
    (about L N^2 H d_a d_x object operations each) and the exact rank of their value
    matrix (the first N // 2 positions as I, the largest of the balanced sizes).

    >>> from types import SimpleNamespace
    >>> net = SimpleNamespace(L=1, d_x=2, H=1, d_a=2)
    >>> vocabulary_work(net, 3, 2).detail
    '9 token sequences, a 3 x 3 value matrix'
    """
    from seprank.budget import as_float, bigint_factor, format_count

    seqs, rows, cols = (_power(V, N), _power(V, N // 2), _power(V, N - N // 2))
    bits = 3.0 ** net.L * 8 + 64 if net.L < 600 else math.inf
    per_eval = 4 * net.L * N * N * net.H * net.d_a * net.d_x * bigint_factor(bits)
    small, big = min(rows, cols), max(rows, cols)
    peak = seqs * (_BYTES_PER_INPUT * N * net.d_x + _BYTES_PER_VALUE + bits / 4)
    work = ((seqs * per_eval, "python"),
            (as_float(small * small * big) * bigint_factor(bits), "flint"))
    detail = (f"{format_count(seqs)} token sequences, a {format_count(rows)} x "
              f"{format_count(cols)} value matrix")
    phases = (("evaluation", f"{format_count(seqs)} exact network values (V^N)"),
              ("rank", f"the {format_count(rows)} x {format_count(cols)} value matrix, "
                       "exactly"))
    return WorkEstimate(phases, sum(w for w, _ in work), peak, work=work, detail=detail)


def vocabulary_estimate(net, V: int, N: int) -> Estimate:
    """:func:`vocabulary_work` as the budget reads it (``the vocabulary route``).

    >>> from types import SimpleNamespace
    >>> net = SimpleNamespace(L=1, d_x=2, H=1, d_a=2)
    >>> vocabulary_estimate(net, 3, 2).detail
    '9 token sequences, a 3 x 3 value matrix'
    """
    return vocabulary_work(net, V, N).as_estimate("the vocabulary route")


def _frac(net) -> bool:
    """Whether some weight is a fraction (exact evaluation over QQ, else ZZ)."""
    return any(not isinstance(w, int) for kk in "QKVO" for w in net.weights[kk].flat)


def _vocabulary(net, embedding, I, J, position, coordinate) -> dict:
    """The value matrix on all V^N token sequences, ranked exactly (module docstring)."""
    N, V = embedding.N, embedding.V
    rows = list(itertools.product(range(V), repeat=len(I)))
    cols = list(itertools.product(range(V), repeat=len(J)))
    tokens = np.zeros((len(rows) * len(cols), N), dtype=np.int64)
    for a, ra in enumerate(rows):
        for b, cb in enumerate(cols):
            tokens[a * len(cols) + b, list(I)] = ra
            tokens[a * len(cols) + b, list(J)] = cb
    frac = _frac(net)
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


def _convolution(net, embedding, I, J, position, coordinate) -> dict:
    """The coefficient matricization of the network on the affine embedding (I, J: of the
    M raw input positions)."""
    M, din = embedding.M, embedding.d_input
    frac = _frac(net)
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
        blocks.append({"I_degrees": [int(x) for x in blk.I_degrees],
                       "J_degrees": [int(x) for x in blk.J_degrees],
                       "shape": list(blk.shape), "rank": rr.value, "kind": rr.kind})
    shape = (sum(b["shape"][0] for b in blocks), sum(b["shape"][1] for b in blocks))
    return {"I": I, "J": J, "value": value, "kind": EXACT if kinds <= {EXACT} else LOWER_BOUND,
            "shape": shape, "blocks": blocks, "which": "W-Thm4", "route": "coefficient",
            "words": "coefficient matrix",
            "what": {"embedding": "convolution", "M": M, "k": embedding.k, "d_input": din,
                     "W_conv": embedding.W.tolist(), "P": embedding.P.tolist()}}


#: the embeddings the route reads
EMBEDDINGS = (VocabularyEmbedding, ConvolutionalEmbedding)


def _embedding(request):
    """The ``embedding`` option, checked against the network (InputError: another d_x)."""
    emb = request.options["embedding"]
    if emb.d_x != request.network.d_x:
        raise InputError(f"the embedding has d_x = {emb.d_x}, the network "
                         f"{request.network.d_x}")
    return emb


class EmbeddingRoute(SeparationRoute):
    """The network behind a wies2021 input embedding at a finite N (module docstring).

    Takes the option ``embedding`` and runs only with it, at a finite N; preferred
    whenever it can run (no other route reads an embedding there).

    >>> from types import SimpleNamespace
    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.separation import separation_rank
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> emb = ConvolutionalEmbedding([[[1]], [[1]]], [[0, 0]])   # y^n = x^2n + x^2n+1
    >>> r = separation_rank(network=net, embedding=emb)          # I = raw positions 0, 1
    >>> r.route, r.seq_len, r.partition, r.value, r.kind
    ('embedding', 2, {'I': [0, 1], 'J': [2, 3]}, 2, 'exact')
    >>> ROUTE.can_run(SimpleNamespace(options={}))
    'needs embedding= (a wies2021 VocabularyEmbedding or ConvolutionalEmbedding)'
    """

    name = "embedding"
    summary = ("a wies2021 input embedding at a finite N: the value matrix on all token "
               "sequences (vocabulary) or the coefficient matrix in the raw inputs "
               "(convolution), exact")
    matrix_words = "matrix behind the embedding"
    takes = frozenset({"embedding"})

    def positions(self, N, options) -> Positions | None:
        """N is the embedding's; the partition is of its N tokens (vocabulary) or of its
        M = k N raw input positions (convolution). None without an embedding or at
        N = inf (the moment route's there).

        >>> emb = ConvolutionalEmbedding([[[1]], [[1]]], [[0, 0]])
        >>> ROUTE.positions(None, {"embedding": emb})
        Positions(N=2, count=4, what='the M = 4 raw input positions of the convolution \
embedding (k = 2 per token, N = 2 tokens)')
        >>> ROUTE.positions(3, {"embedding": emb})
        Traceback (most recent call last):
        ...
        seprank.errors.ParameterError: N = 3, but the embedding has N = 2 tokens (leave N out)
        """
        if "embedding" not in options or N == math.inf:
            return None
        emb = options["embedding"]
        if not isinstance(emb, EMBEDDINGS):
            raise ParameterError(f"unknown embedding {type(emb).__name__} (a finite N takes a "
                                 "VocabularyEmbedding or a ConvolutionalEmbedding)")
        if N is not None and N != emb.N:
            raise ParameterError(f"N = {N}, but the embedding has N = {emb.N} tokens "
                                 "(leave N out)")
        if isinstance(emb, VocabularyEmbedding):
            return Positions(emb.N, emb.N, f"the N = {emb.N} token positions of the "
                                           "vocabulary embedding")
        return Positions(emb.N, emb.M, f"the M = {emb.M} raw input positions of the "
                                       f"convolution embedding (k = {emb.k} per token, "
                                       f"N = {emb.N} tokens)")

    def can_run(self, request) -> str | None:
        if "embedding" not in request.options:
            return "needs embedding= (a wies2021 VocabularyEmbedding or ConvolutionalEmbedding)"
        if not request.finite:
            return "needs a finite N (N = inf behind an embedding is the moment route's)"
        emb = request.options["embedding"]
        if not isinstance(emb, EMBEDDINGS):
            return f"unknown embedding {type(emb).__name__}"
        if request.certify:
            return "does not certify its ranks (certify=True)"
        if isinstance(emb, VocabularyEmbedding) and \
                token_sequences(emb.V, emb.N) > MAX_TOKEN_SEQUENCES:
            from seprank.budget import format_count

            return (f"V^N = {format_count(token_sequences(emb.V, emb.N))} token sequences "
                    f"exceed {MAX_TOKEN_SEQUENCES}")
        return None

    def should_run(self, request, *, fallback: bool = False) -> tuple[bool, str]:
        if fallback:
            return False, "its answer is exact; nothing to add after another route"
        return True, "a wies2021 embedding was given (finite N)"

    def estimate(self, request) -> WorkEstimate:
        emb, net = _embedding(request), request.network
        if isinstance(emb, VocabularyEmbedding):
            est, kind = vocabulary_work(net, emb.V, emb.N), "vocabulary"
        else:
            est = expansion_estimate(emb.M * emb.d_input, 3 ** net.L, True, net, emb.N)
            kind = "convolution"
        return replace(est, detail=f"{kind} embedding: {est.detail}")

    def refusal_hint(self, request) -> str:
        """The largest N (at this V) that fits a vocabulary embedding; none for a
        convolution (empty)."""
        emb = request.options["embedding"]
        if not isinstance(emb, VocabularyEmbedding):
            return ""
        V, N, budget = emb.V, emb.N, request.budget
        n = largest_fitting(lambda k: budget.fits(vocabulary_estimate(request.network, V, k)),
                            2, N - 1)
        return "" if n is None else f"the largest N that fits (V = {V}) is {n}"

    def plan(self, request) -> RoutePlan:
        emb, D = _embedding(request), request.degree
        nI, nJ = len(request.I), len(request.J)
        if isinstance(emb, VocabularyEmbedding):
            rows, cols = emb.V ** nI, emb.V ** nJ
            block = PlannedBlock("all", "all", (rows, cols), min(rows, cols))
            notes = (f"vocabulary embedding, V = {emb.V}: the {rows} x {cols} value matrix on "
                     f"all V^N = {emb.V ** emb.N} token sequences, ranked exactly; bound: "
                     "wies2021 Theorem 3",)
            return RoutePlan((block,), self.estimate(request), (EXACT, LOWER_BOUND),
                             notes=notes, data=emb)
        din = emb.d_input
        rows, cols = (monomial_count(nI * din, D, up_to=True),
                      monomial_count(nJ * din, D, up_to=True))
        block = PlannedBlock("all", "all", (rows, cols), min(rows, cols))
        notes = (f"convolution embedding, k = {emb.k}, d_input = {din}: the coefficient "
                 f"matrix of the output in the M d_input = {emb.M * din} raw inputs "
                 f"(degree <= {D}, with positional terms); its components are known after "
                 "the expansion; bound: wies2021 Theorem 4",)
        return RoutePlan((block,), self.estimate(request), (EXACT, LOWER_BOUND),
                         blocks_known="at most", notes=notes, data=emb)

    def run(self, request, plan: RoutePlan) -> RouteOutcome:
        emb, net = plan.data, request.network
        compute = _vocabulary if isinstance(emb, VocabularyEmbedding) else _convolution
        out = compute(net, emb, request.I, request.J, request.position, request.coordinate)
        value, kind, shape = out["value"], out["kind"], tuple(out["shape"])
        return RouteOutcome(
            value=value, kind=kind, upper_bound=value if kind == EXACT else min(shape),
            blocks=out["blocks"], matrix_words=out["words"], matrix_shape=shape,
            bounds=_bounds(net.L, emb.rank(), emb.positional_rank(),
                           out["what"]["embedding"], value),
            embedding=out["what"])


#: the registry's entry (seprank.separation.routes)
ROUTE = EmbeddingRoute()


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

    This is ``seprank.separation_rank(network=net, embedding=embedding, ...,
    route="embedding")``: the embedding route of the front door (module docstring).

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> emb = VocabularyEmbedding([[1, 2, 3]], [[0, 0]])      # tokens -> 1, 2, 3
    >>> r = embedded_separation_rank(net, emb)               # a (a^2 + b^2): rank 2
    >>> r.value, r.kind, r.bounds["W-Thm3"]["value"], r.route
    (2, 'exact', 80, 'embedding')
    """
    from seprank.separation.frontdoor import separation_rank

    if isinstance(partition, (set, frozenset, range, np.ndarray)):  # I as any collection
        partition = sorted(int(x) for x in partition)
    return separation_rank(network=net, embedding=embedding, partition=partition,
                           position=position, coordinate=coordinate, route=ROUTE.name,
                           max_memory=max_memory, max_seconds=max_seconds, budget=budget)
