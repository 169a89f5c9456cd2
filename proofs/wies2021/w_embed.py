"""W-embed: the input embedding layers of wies2021, eqs. (1)-(4) (sec. 2.1, l.56-84).

Source: wies2021_vocabulary_bottleneck.txt, sec. 2.1 (l.56-84): the vocabulary embedding
eq. (1), the convolution embedding eq. (2), and their ranks eqs. (3)-(4). Why: every
wies2021 bound is stated for a network behind one of these embeddings, with r their rank,
so the embeddings themselves are checked first (W-Thm1, W-Thm3 and W-Thm4 depend on it).

What is computed (exact integer arithmetic, seprank.models.embedding):

* eq. (1): the vocabulary embedding of every token sequence in [V]^N equals
  M_V e_{w^i} + p^i computed entry by entry from the printed formula;
* eq. (3): random embeddings drawn as M_V = A B (inner dimension r, eq. (10))
  have rank(M_V) = min(r, d_x, V), measured with seprank.rank, and never more
  than min(d_x, V) (l.82);
* eq. (2): the convolution embedding equals sum_j W_j x^{(M/N)(i-1)+j} + p^i
  computed from the 1-based formula;
* eq. (4): the reshaped kernel tilde W (d_x x V, V = (M/N) d_input) reproduces
  the embedding on concatenated patches, and its measured rank is
  min(r, d_x, V);
* both embeddings produce the (batch, N, d_x) inputs of the L-net
  (SelfAttentionNetwork), whose exact output on them agrees with GF(p).
"""

from __future__ import annotations

from itertools import product

import numpy as np
from seprank_proofs import WIES2021
from seprank_proofs._symbolic import symbolic_step

from seprank.models import SelfAttentionNetwork
from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding, exact_rank
from seprank.papers.wies2021 import index_identities
from seprank.proof import Claim, check

PAPER = WIES2021
#: (V, d_x, N, r, r_e)
VOCAB_FAST = [(4, 3, 2, 1, 1), (4, 3, 2, 2, 0), (5, 2, 3, 2, 1), (6, 3, 2, 5, 2), (3, 4, 2, 3, 1)]
VOCAB_FULL = VOCAB_FAST + [(6, 4, 3, 2, 1), (8, 5, 2, 4, 2), (5, 6, 3, 6, 3)]
#: (k = M/N, d_input, d_x, N, r, r_e)
CONV_FAST = [(2, 1, 3, 2, 1, 1), (2, 2, 3, 2, 2, 0), (3, 1, 2, 2, 3, 1), (2, 2, 4, 3, 4, 2)]
CONV_FULL = CONV_FAST + [(3, 2, 4, 2, 3, 1), (2, 3, 6, 2, 6, 2)]
SEEDS_FAST, SEEDS_FULL = (1, 7), (1, 7, 13, 29)
#: the sizes the exact steps cover (fast tier; the full tier adds larger ones)
VOCAB_SIZES = "the listed (V, d_x, N, r, r_e), V <= 6, d_x <= 4, N <= 3"
CONV_SIZES = "the listed (M/N, d_input, d_x, N, r, r_e), M/N <= 3, d_x <= 4, N <= 3"


def _vocab(ctx):
    for (V, d_x, N, r, r_e), seed in product(VOCAB_FULL if ctx.full else VOCAB_FAST,
                                             SEEDS_FULL if ctx.full else SEEDS_FAST):
        yield (V, d_x, N, r, r_e, seed), VocabularyEmbedding.random(V, d_x, N, r, r_e, seed=seed)


def _conv(ctx):
    for (k, d_in, d_x, N, r, r_e), seed in product(CONV_FULL if ctx.full else CONV_FAST,
                                                   SEEDS_FULL if ctx.full else SEEDS_FAST):
        yield ((k, d_in, d_x, N, r, r_e, seed),
               ConvolutionalEmbedding.random(k, d_in, d_x, N, r, r_e, seed=seed))


CLAIM_W_EMBED = Claim("definition",
                      "the vocabulary embedding y^{0,i} = M_V hat w^i + p^i (eq. (1)) and the "
                      "convolution embedding (eq. (2)), with embedding rank r = rank(M_V) "
                      "(resp. rank(tilde W^conv), eq. (4)) <= min(d_x, V)",
                      PAPER.cite("sec. 2.1 l.56-84"))

@check(id="W-embed", title="vocabulary and convolution embeddings, eqs. (1)-(4); rank r",
       source=PAPER.cite("sec. 2.1 l.56-84"), depends=("L-net",),
       claim=CLAIM_W_EMBED, paper=WIES2021)
def w_embed(ctx):
    _vocabulary_embedding_is_eq1(ctx)
    _vocabulary_rank_is_eq3(ctx)
    _convolution_embedding_is_eq2(ctx)
    _patch_kernel_is_eq4(ctx)
    _embedded_inputs_feed_the_network(ctx)
    symbolic_step(ctx,
                  "all sizes: eq. (1) with one-hot w^i reads column w_i of M_V (KroneckerDelta "
                  "sum over symbolic V); eq. (4)'s tilde W^conv is eq. (2)'s kernel with the pair "
                  "(j, c) of a patch read as the single index k(c-1) + j (a bijection, division "
                  "with remainder), so each patch gives tilde W^conv times the stacked patch; the "
                  "ranks are ranks of d_x x V matrices, <= min(d_x, V) (sympy: the column read; "
                  "reading column w_i + 1 fails)",
                  PAPER.cite("eqs. (1)-(4) l.56-84"),
                  index_identities.embedding_identities, kind="symbolic",
                  mutants={"embedding_identities": {"token w reads column w + 1":
                                                    lambda w: w + 1}})

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "the embeddings are linear maps: one-hot tokens read a column of M_V and a "
                 "patch is one index of tilde W^conv, for every size (step 6, symbolic), and "
                 "rank(M_V) <= min(d_x, V) is the rank of a d_x x V matrix; steps 1-5 evaluate "
                 "eqs. (1)-(4) exactly at listed sizes and confirm the measured rank "
                 "min(r, d_x, V)", basis="argument", argument_steps=["all sizes: eq. (1)"])


def _vocabulary_embedding_is_eq1(ctx):
    with ctx.step("eq. (1): y^{0,i} = M_V hat w^i + p^i for every token sequence in [V]^N",
                  source=PAPER.cite("eq. (1) l.64-70"), scope="sizes", sizes=VOCAB_SIZES) as s:
        count = 0
        for params, emb in _vocab(ctx):
            V, d_x, N = params[:3]
            toks = np.array(list(product(range(V), repeat=N)), dtype=np.int64)
            Y = emb.embed(toks)
            for b, w in enumerate(toks):
                for i in range(N):  # position i + 1 of the paper
                    want = [sum(emb.M_V[p, v] * (1 if v == w[i] else 0) for v in range(V))
                            + emb.P[p, i] for p in range(d_x)]
                    if list(Y[b, i]) != want:
                        s.fail("embedding differs from eq. (1)", params=params,
                               tokens=w.tolist(), position=i + 1, got=list(Y[b, i]), want=want)
                count += 1
        s.record(sequences_checked=count)


def _vocabulary_rank_is_eq3(ctx):
    with ctx.step("eq. (3): r = rank(M_V) <= min(d_x, V); factorized draws M_V = A B with inner "
                  "dimension r have measured rank min(r, d_x, V)",
                  source=PAPER.cite("eq. (3) l.80-82; eq. (10) l.385"), scope="sizes",
                  sizes=VOCAB_SIZES) as s:
        rows = []
        for (V, d_x, N, r, r_e, seed), emb in _vocab(ctx):
            got, got_e = emb.rank(), emb.positional_rank()
            rows.append({"V": V, "d_x": d_x, "N": N, "inner_r": r, "seed": seed,
                         "rank_M_V": got, "inner_r_e": r_e, "rank_P": got_e})
            s.require(got == min(r, d_x, V) and got <= min(d_x, V),
                      "measured rank(M_V) is not min(r, d_x, V)", case=rows[-1])
            s.require(got_e == min(r_e, d_x, N), "measured rank(P) is not min(r_e, d_x, N)",
                      case=rows[-1])
            s.require(np.array_equal(emb.M_V, emb.factors["A"].dot(emb.factors["B"])),
                      "M_V is not A B", case=rows[-1])
        s.record(cases=rows)


def _convolution_embedding_is_eq2(ctx):
    with ctx.step("eq. (2): y^{0,i} = sum_{j=1}^{M/N} W_j^conv x^{(M/N)(i-1)+j} + p^i",
                  source=PAPER.cite("eq. (2) l.72-76"), scope="sizes", sizes=CONV_SIZES) as s:
        count = 0
        for params, emb in _conv(ctx):
            rng = np.random.default_rng(params[-1])
            x = rng.integers(-5, 6, size=(3, emb.M, emb.d_input)).astype(object)
            Y = emb.embed(x)
            for b in range(len(x)):
                for i in range(1, emb.N + 1):  # 1-based, as printed
                    want = [emb.P[p, i - 1] + sum(
                        emb.W[j - 1, p, c] * x[b, emb.k * (i - 1) + j - 1, c]
                        for j in range(1, emb.k + 1) for c in range(emb.d_input))
                        for p in range(emb.d_x)]
                    if list(Y[b, i - 1]) != want:
                        s.fail("embedding differs from eq. (2)", params=params, position=i)
                    count += 1
        s.record(positions_checked=count)


def _patch_kernel_is_eq4(ctx):
    with ctx.step("eq. (4): tilde W^conv (d_x x V, V = (M/N) d_input) applied to the i-th "
                  "patch gives y^{0,i} - p^i; r = rank(tilde W^conv) <= min(d_x, V), measured "
                  "= min(r, d_x, V) for the factorized draws of eq. (12)",
                  source=PAPER.cite("eq. (4) l.78-80; eq. (12) l.460"), scope="sizes",
                  sizes=CONV_SIZES) as s:
        rows = []
        for (k, d_in, d_x, N, r, r_e, seed), emb in _conv(ctx):
            Wt = emb.reshaped_kernel()
            V = k * d_in
            got = exact_rank(Wt)
            rows.append({"M_over_N": k, "d_input": d_in, "d_x": d_x, "N": N, "V": V,
                         "inner_r": r, "seed": seed, "rank_W_tilde": got,
                         "rank_P": emb.positional_rank()})
            s.require(Wt.shape == (d_x, V) and got == min(r, d_x, V),
                      "measured rank(tilde W) is not min(r, d_x, V)", case=rows[-1])
            s.require(rows[-1]["rank_P"] == min(r_e, d_x, N),
                      "measured rank(P) is not min(r_e, d_x, N)", case=rows[-1])
            x = np.arange(emb.M * d_in, dtype=np.int64).reshape(1, emb.M, d_in).astype(object)
            for i in range(N):
                patch = x[0, k * i:k * (i + 1)].reshape(-1)
                s.require(list(Wt.dot(patch) + emb.P[:, i]) == list(emb.embed(x)[0, i]),
                          "tilde W does not reproduce eq. (2)", case=rows[-1], position=i + 1)
        s.record(cases=rows)


def _embedded_inputs_feed_the_network(ctx):
    with ctx.step("the embeddings feed the depth-L network: exact outputs on embedded inputs, "
                  "consistent with GF(p) evaluation", source=PAPER.cite("sec. 2.2 l.84-90"),
                  scope="sizes", sizes=VOCAB_SIZES) as s:
        p = 1000003
        checked = 0
        for params, emb in _vocab(ctx):
            V, d_x, N = params[:3]
            net = SelfAttentionNetwork.random(1, d_x, 1, seed=params[-1])
            toks = np.array(list(product(range(V), repeat=N))[:20], dtype=np.int64)
            X = emb.embed(toks)
            exact = net.evaluate(X, "ZZ")
            mod = net.evaluate(X, "GF(p)", p=p)
            ok = bool((np.mod(exact, p).astype(np.int64) == mod).all())
            s.require(exact.shape == (len(toks), N, d_x) and ok,
                      "exact and modular outputs disagree", params=params)
            checked += len(toks)
        s.record(sequences=checked, prime=p)
