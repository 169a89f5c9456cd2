"""The moment route: the separation rank of an eq. (3) network for every sequence length N.

Setting (levine2020 eq. (3), sec. 2.2; residual: A.4; the recursion is in
:mod:`seprank.separation.moment_form`). Every output is y^{L,i} = G_L(S) x^i with
S = sum_j x^j x^jT. For a partition (I, J) of the positions with the output
position i in I (the other case is the same with the names swapped),
S = S_I + S_J and

    y_p^i = F(x^i, S_I, S_J),     F(x, U, W) = sum_k x_k G_L(U + W)_{pk},

U and W symmetric, each with D = d(d+1)/2 free entries u_ab, w_ab (a <= b). Let
C_F be the coefficient matricization of F: rows the monomials x_k U^alpha, columns
the monomials W^gamma (:mod:`seprank.separation.moment_blocks`), R = rank_Q(C_F),
and sep(N; I, J) the separation rank of the token function y_p^i w.r.t. (I, J).

Proposition 1 (N only helps; R caps everything).
  (a) sep(N; I, J) depends only on a = |I| and b = |J|: y^i is symmetric in the
  tokens other than x^i, so renumbering positions inside I \\ {i} and inside J
  changes nothing. Write s(a, b).
  (b) s is nondecreasing in a and in b: in a decomposition y = sum_r g_r(x_I) h_r(x_J)
  for sizes (a', b') >= (a, b), set the extra tokens to 0; S_I and S_J do not
  change, so it is a decomposition of the smaller instance with as many terms.
  In particular sep at N is nondecreasing in N along balanced partitions.
  (c) s(a, b) <= R: factor C_F = X Y^T with R columns; then F = sum_{r <= R}
  g_r(x, U) h_r(W) with g_r = (monomial row vector) X_r, h_r likewise, and
  substituting (x^i, S_I, S_J) gives R separable terms.

Proposition 2 (equality and partition independence). If a >= d + 1 and b >= d
then s(a, b) = R.
  Proof. For any functions and points, a decomposition with R' terms makes
  every value matrix [y(P_s, Q_t)] of rank <= R' (it is sum_r g_r(P_s) h_r(Q_t)),
  so sep >= the rank of any value matrix. Here [y(P_s, Q_t)] = [F(phi(P_s),
  psi(Q_t))] with phi(x_I) = (x^i, S_I) and psi(x_J) = S_J. The image of psi
  contains every positive definite matrix (a sum of d rank-one terms x x^T, by
  the spectral decomposition; extra tokens 0), an open subset of Sym(d) since
  b >= d. The image of phi contains {(x, x x^T + P): P positive definite}, the
  image of an open set under the diffeomorphism (x, P) -> (x, x x^T + P), since
  a - 1 >= d. A polynomial vanishing on a nonempty open set is zero, so the
  monomial vectors m(u) (u in the image of phi) span the whole row-monomial space
  and n(w) (w in the image of psi) the column-monomial space; choose points with
  square invertible monomial matrices M (rows) and N (columns): the value matrix
  M C_F N^T then has rank R. Hence s(a, b) >= R, and = R by Proposition 1(c).
  So every partition with >= d + 1 positions on the output's side and >= d on the
  other has the same separation rank R, whatever N; sep(N) = R for every
  N >= 2 d + 1 (balanced: N >= 2 d + 2). Proposition 1(b) adds: if some balanced
  N0 has s(N0/2, N0/2) = R, then s(a, b) = R for all a, b >= N0/2.

Proposition 3 (blocks). Without residual connections G_L is homogeneous of degree
C = C(L) in S, so F is linear in x and homogeneous of degree C in (U, W);
the coefficient of x_k U^alpha W^gamma is c^(pk)_{alpha+gamma} prod_e
binom(alpha_e + gamma_e, alpha_e) (binomial expansion of (u_e + w_e)^beta_e; u_ab and
w_ab are single variables, so an off-diagonal S_ab = S_ba is counted once; tested
against a direct expansion). It vanishes unless |alpha| + |gamma| = C, so C_F is
block diagonal, block b = |gamma| with rows |alpha| = C - b, and R = sum_b rank(block b).
Row and column scalings by alpha! and gamma! turn block b into the catalecticant
[(alpha + gamma)! c_{alpha+gamma}], of the same rank. With residual connections G_L has
every degree 0..C, row (k, alpha) meets the columns with |gamma| <= C - |alpha|, and
no grading splits C_F: ordered by decreasing |alpha| and increasing |gamma| it is
block triangular with the non-residual blocks (the top-degree part) on the
antidiagonal, which only gives rank >= their sum. The route ranks the whole matrix.

Embeddings (:mod:`seprank.separation.moment_embedding`): a vocabulary or convolution
embedding without positional part turns F into a family in fewer variables; the
same propositions hold there with the thresholds stated in that module.
Positional embeddings are refused (no permutation equivariance).

What the route computes (:func:`moment_separation_rank`)
--------------------------------------------------------
1. Plan (:mod:`seprank.separation.moment_plan`): block shapes from (L, d, H,
   residual), per block the cheaper of catalecticant and evaluation, time and
   peak-memory estimates; refuse past ``max_memory``.
2. Upper bound for every N: rank of each block (:mod:`seprank.separation.moment_ranks`):
   full rank mod p is exact; a rank-deficient block is made exact by kernel
   vectors: products of kernel vectors of neighbouring blocks (the apolar ideal of
   the g_j, :mod:`seprank.separation.moment_apolar`), else multimodular lifting on a
   row subset checked on all rows; else ``probabilistic`` (every row ranked mod a
   random prime) or the trivial cap as certified upper bound.
3. Lower bounds at finite N (:mod:`seprank.separation.moment_tokens`): N = 2, 4, ...
   until the token lower bound meets the moment-form value (continuous tokens).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from math import comb
from typing import Any

from seprank.errors import MemoryLimitError, ParameterError
from seprank.linalg.memory import available_bytes, format_bytes
from seprank.linalg.modarith import random_prime
from seprank.scalars.primes import require_prime
from seprank.separation.moment_blocks import block_specs
from seprank.separation.moment_eval import MAX_EVAL_PRIME, family_residues
from seprank.separation.moment_form import token_family
from seprank.separation.moment_plan import make_plan
from seprank.separation.moment_ranks import RANDOM_PRIME_RANGE
from seprank.separation.moment_run import run_blocks, run_tokens
from seprank.separation.moment_tasks import check_task_options, subset_ranks_hook

__all__ = ["moment_separation_rank", "prepare_moment", "run_moment", "MomentPrepared",
           "MomentSeparationResult", "DEFAULT_BUDGET_SECONDS"]

#: Estimated seconds the route may plan for (blocks past it are sampled or skipped, largest first).
DEFAULT_BUDGET_SECONDS = 600.0
#: Share of the budget that the token search over N may spend (wall time).
TOKEN_BUDGET_SHARE = 0.25


@dataclass
class MomentSeparationResult:
    """The moment route's answer (module docstring).

    ``value`` with ``kind`` (exact / probabilistic / lower_bound); ``upper_bound``:
    certified for every N and every partition; ``lower_bound``, certified at
    ``lower_bound_N`` (and every larger balanced N); ``saturation_N``: the least N
    tried where the token lower bound met the certified upper bound; ``exact_from_N``:
    from which balanced N the value is proven exact (None when not exact);
    ``partitions_covered``: a sentence; ``blocks``: per block of C_F (degree, shape,
    rank, kind, seconds, how built); ``token_ranks``: per N tried; ``details``.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> r = moment_separation_rank(net)
    >>> r.value, r.kind, r.saturation_N          # x1 (x1^2 + x2^2 + ...): 2 for N >= 2
    (2, 'exact', 2)
    """

    value: int
    kind: str
    upper_bound: int
    lower_bound: int
    lower_bound_N: int | None
    saturation_N: int | None
    exact_from_N: int | None
    partitions_covered: str
    position: int
    coordinate: int
    network: dict
    residual: bool
    family: str
    blocks: list = field(default_factory=list)
    token_ranks: list = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of every field.

        >>> from seprank.models import SelfAttentionNetwork
        >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", [[[[1]]]]))
        >>> sorted(moment_separation_rank(net).to_dict())[:3]
        ['blocks', 'coordinate', 'details']
        """
        return {k: getattr(self, k) for k in (
            "value", "kind", "upper_bound", "lower_bound", "lower_bound_N", "saturation_N",
            "exact_from_N", "partitions_covered", "position", "coordinate", "network",
            "residual", "family", "blocks", "token_ranks", "details")}

    def __str__(self) -> str:
        n = self.network
        when = (f"exact for N >= {self.exact_from_N}" if self.kind == "exact" else
                f"{self.kind}; certified {self.lower_bound} <= sep <= {self.upper_bound}")
        return (f"moment-form separation rank {self.value} ({when}) of "
                f"y[{self.position}][{self.coordinate}], L={n['L']}, d_x={n['d_x']}, "
                f"H={n['H']}, d_a={n['d_a']}" + (", residual" if self.residual else "")
                + f", {self.family}, route moment")


def _int(name: str, v, low: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ParameterError(f"{name} must be an integer >= {low}, got {v!r}")
    return v


def _check_args(net, position, coordinate, seed, certify, max_seq_len, max_memory,
                budget_seconds) -> None:
    from seprank.models.network import SelfAttentionNetwork

    if not isinstance(net, SelfAttentionNetwork):
        raise ParameterError(f"net must be a SelfAttentionNetwork, got {type(net).__name__}")
    _int("position", position, 0)
    _int("coordinate", coordinate, 0)
    _int("seed", seed, 0)
    if not isinstance(certify, bool):
        raise ParameterError(f"certify must be True or False, got {certify!r}")
    if max_seq_len is not None:
        _int("max_seq_len", max_seq_len, 2)
    if max_memory is not None:
        _int("max_memory", max_memory, 1)
    if isinstance(budget_seconds, bool) or not isinstance(budget_seconds, (int, float)) \
            or not budget_seconds > 0:
        raise ParameterError(f"budget_seconds must be a positive number, got {budget_seconds!r}")


def _family(net, coordinate, embedding):
    if embedding is None:
        fam = token_family(net, coordinate)
        return fam, {"embedding": None, "threshold": "|I| >= d_x + 1 (output side) and "
                     "|J| >= d_x"}
    from seprank.separation.moment_embedding import embedding_family

    return embedding_family(net, embedding, coordinate)


def _threshold_N(fam) -> tuple[int, int]:
    """Sizes (output side, other side) from which sep = R (Proposition 2 and embeddings)."""
    if fam.label == "vocabulary":
        return fam.degree + 1, fam.degree
    return fam.n_rows + 1, fam.n_rows


def _prime(prime, seed, C: int) -> tuple[int, bool]:
    if prime is None:
        return random_prime(*RANDOM_PRIME_RANGE, random.Random(seed)), True
    p = require_prime(prime, max_value=MAX_EVAL_PRIME)
    if p <= 2 * (C + 1):
        raise ParameterError(f"prime = {p} is too small: the degree split needs C + 1 = {C + 1} "
                             f"distinct scales and factorials up to C! nonzero; use p > "
                             f"{2 * (C + 1)}")
    return p, False


@dataclass
class MomentPrepared:
    """The moment route's decisions before any block is built (:func:`prepare_moment`).

    ``fam``, ``info``: the moment family and its facts; ``specs``: the blocks of C_F;
    ``plan``: the :class:`~seprank.separation.moment_plan.MomentPlan` (methods, estimated
    seconds and peak bytes); ``thresholds``: (output side, other side) sizes from which
    sep = R; ``limit``: the memory limit; ``prime`` and whether it was drawn.

    >>> from seprank.models import SelfAttentionNetwork
    >>> prep = prepare_moment(SelfAttentionNetwork.random(2, 2, 1, seed=0, nonzero=True))
    >>> prep.thresholds, [s.shape for s in prep.specs][:2]
    ((3, 2), [(30, 1), (20, 3)])
    """

    net: Any
    fam: Any
    info: dict
    specs: list
    plan: Any
    thresholds: tuple[int, int]
    limit: int
    prime: int
    prime_drawn: bool
    position: int
    seed: int
    certify: bool
    max_seq_len: int | None
    budget_seconds: float
    tasks: dict | None = None


def prepare_moment(net, *, position: int = 0, coordinate: int = 0, embedding=None,
                   prime: int | None = None, seed: int = 0, certify: bool = False,
                   max_seq_len: int | None = None, max_memory: int | None = None,
                   budget_seconds: float = DEFAULT_BUDGET_SECONDS,
                   tasks: dict | None = None) -> MomentPrepared:
    """Check the arguments and plan the moment route without building anything.

    The arguments are those of :func:`moment_separation_rank`; the same one-line errors.
    ``tasks``: None, or ``{"scheduler", "workers", "store"}`` to run the catalecticant
    blocks' eliminations as Dask tasks and keep them in a store
    (:mod:`seprank.separation.moment_tasks`).
    The plan's estimate (seconds, peak bytes) comes from sizes alone
    (:mod:`seprank.separation.moment_plan`); a plan over ``max_memory`` is refused.

    >>> from seprank.models import SelfAttentionNetwork
    >>> prep = prepare_moment(SelfAttentionNetwork.random(1, 2, 1, seed=0, nonzero=True))
    >>> prep.plan.peak_bytes < 2**20, prep.fam.label
    (True, 'tokens')
    """
    _check_args(net, position, coordinate, seed, certify, max_seq_len, max_memory,
                budget_seconds)
    if tasks is not None:
        check_task_options(tasks.get("scheduler"), tasks.get("workers"), tasks.get("store"))
    fam, info = _family(net, coordinate, embedding)
    specs = block_specs(fam.n_rows, fam.n_vars, fam.degree, fam.mixed)
    limit = int(0.8 * available_bytes()) if max_memory is None else max_memory
    shape = {"L": net.L, "d": net.d_x, "H": net.H, "d_a": net.d_a, "r": fam.n_rows,
             "n_vars": fam.n_vars, "residual": fam.mixed,
             "n_scales": 1 if fam.mixed else fam.degree + 1}
    plan = make_plan(specs, shape, float(budget_seconds), limit)
    if plan.peak_bytes > limit:
        raise MemoryLimitError(f"the moment route needs about {format_bytes(plan.peak_bytes)} "
                               f"(estimated before building), over the limit "
                               f"{format_bytes(limit)}")
    p, random_p = _prime(prime, seed, fam.degree)
    return MomentPrepared(net, fam, info, specs, plan, _threshold_N(fam), limit, p, random_p,
                          position, seed, certify, max_seq_len, float(budget_seconds), tasks)


def run_moment(prep: MomentPrepared) -> MomentSeparationResult:
    """Build and rank the planned blocks, then search token lower bounds over N.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = dict.fromkeys("QKVO", [[[[1]]]])
    >>> run_moment(prepare_moment(SelfAttentionNetwork(1, 1, 1, weights=one))).value
    2
    """
    start = time.perf_counter()
    fam, net, p = prep.fam, prep.net, prep.prime
    data = family_residues(fam, p)
    blocks, phases = run_blocks(fam, data, prep.specs, prep.plan, p, prep.seed,
                                random_p=prep.prime_drawn, certify=prep.certify,
                                budget_seconds=prep.budget_seconds, max_memory=prep.limit,
                                subset_ranks=_subset_hook(prep))
    tokens = []
    if fam.label == "tokens":
        n_max = 2 * net.d_x + 2 if prep.max_seq_len is None else prep.max_seq_len
        tokens = run_tokens(fam, data, blocks, p, prep.seed, n_max, certify=prep.certify,
                            phases=phases, budget_seconds=max(
                                5.0, TOKEN_BUDGET_SHARE * prep.budget_seconds))
    details = {"prime": p, "prime_drawn_at_random": prep.prime_drawn, "seed": prep.seed,
               "plan": prep.plan.to_dict(), "timing": phases, "family": prep.info,
               "count_bound": fam.n_rows * comb(fam.n_vars + fam.degree, fam.degree),
               "memory_limit": prep.limit, "seconds": round(time.perf_counter() - start, 4)}
    return _assemble(fam, blocks, tokens, details, prep.position, prep.thresholds)


def _subset_hook(prep: MomentPrepared):
    """The Dask/store hook of run_blocks when ``tasks`` were asked for, else None."""
    if prep.tasks is None:
        return None
    t = prep.tasks
    return subset_ranks_hook(prep.specs, prep.fam.n_rows, prep.prime, prep.seed,
                             certify=prep.certify, scheduler=t.get("scheduler"),
                             workers=t.get("workers"), store=t.get("store"))


def moment_separation_rank(net, *, position: int = 0, coordinate: int = 0, embedding=None,
                           prime: int | None = None, seed: int = 0, certify: bool = False,
                           max_seq_len: int | None = None, max_memory: int | None = None,
                           budget_seconds: float = DEFAULT_BUDGET_SECONDS,
                           tasks: dict | None = None) -> MomentSeparationResult:
    """Separation rank of y_coordinate^position of ``net`` for every N (module docstring).

    ``run_moment(prepare_moment(...))``; the front door
    (``seprank.separation_rank(..., N=math.inf)``) reaches it through
    :mod:`seprank.separation.moment_route`.

    Parameters
    ----------
    net : a :class:`~seprank.models.SelfAttentionNetwork` (integer or rational weights).
    position, coordinate : the output y_p^i (0-based); by permutation equivariance the
        answer is the same for every position (the partitions put it in I).
    embedding : None (continuous tokens), or a wies2021
        :class:`~seprank.models.embedding.VocabularyEmbedding` /
        :class:`~seprank.models.embedding.ConvolutionalEmbedding` without positional
        part (:mod:`seprank.separation.moment_embedding`).
    prime : the prime of every modular step (<= 2^31 - 1); default drawn uniformly from
        the primes in [2^25, 2^26) with ``seed`` (needed for ``probabilistic``).
    seed : random points, row subsets and the prime.
    certify : attach rank certificates to every ranked matrix and verify them.
    max_seq_len : largest N of the token search (default 2 d_x + 2; continuous tokens).
    max_memory : bytes the plan may use (default 80% of the available memory).
    budget_seconds : estimated seconds the plan may take; blocks past it are sampled or
        skipped (certified lower bounds).
    tasks : None, or a dict of ``scheduler`` ("local" or a Dask address), ``workers``
        and ``store`` (a JSON-lines path): the catalecticant blocks' eliminations as Dask
        tasks, resumable from the store (:mod:`seprank.separation.moment_tasks`).

    Returns
    -------
    MomentSeparationResult

    Raises
    ------
    ParameterError, InputError, NotPrimeError, MemoryLimitError
        bad arguments; positional embeddings; a plan over ``max_memory`` (one line with
        the estimate and the limit).

    Examples
    --------
    >>> from seprank.models import SelfAttentionNetwork
    >>> r = moment_separation_rank(SelfAttentionNetwork.random(2, 2, 1, seed=2, nonzero=True))
    >>> r.kind, r.value == r.upper_bound, r.token_ranks[0]["N"]
    ('exact', True, 2)
    """
    return run_moment(prepare_moment(
        net, position=position, coordinate=coordinate, embedding=embedding, prime=prime,
        seed=seed, certify=certify, max_seq_len=max_seq_len, max_memory=max_memory,
        budget_seconds=budget_seconds, tasks=tasks))


def _assemble(fam, blocks, tokens, details, position, thr) -> MomentSeparationResult:
    net = fam.net
    upper = sum(b["upper"] for b in blocks)
    moment_lower = sum(b["rank"] for b in blocks)
    kinds = {b["kind"] for b in blocks}
    lower, lower_N = moment_lower, thr[0] + thr[1]
    for t in tokens:                     # the least N reaching the largest bound
        if t["lower_bound"] > lower or (t["lower_bound"] == lower and t["N"] < lower_N):
            lower, lower_N = t["lower_bound"], t["N"]
    saturation = next((t["N"] for t in tokens if t["lower_bound"] == upper), None)
    if lower == upper:
        kind, value = "exact", upper
        exact_from = min([lower_N] + ([saturation] if saturation else []))
    elif kinds <= {"exact", "probabilistic"} and lower <= moment_lower:
        kind, value, exact_from = "probabilistic", moment_lower, None
        details["error_bound"] = sum(b.get("error_bound", 0.0) for b in blocks)
    else:
        kind, value, exact_from = "lower_bound", lower, None
    covered = _covered(fam, kind, value, upper, thr, saturation, tokens)
    return MomentSeparationResult(
        value=value, kind=kind, upper_bound=upper, lower_bound=lower, lower_bound_N=lower_N,
        saturation_N=saturation, exact_from_N=exact_from, partitions_covered=covered,
        position=position, coordinate=fam.coordinate,
        network={"L": net.L, "d_x": net.d_x, "H": net.H, "d_a": net.d_a},
        residual=fam.residual, family=fam.label, blocks=blocks, token_ranks=tokens,
        details=details)


def _covered(fam, kind, value, upper, thr, saturation, tokens) -> str:
    a, b = thr
    unit = "patches" if fam.label == "convolution" else "positions"
    head = (f"every partition with >= {a} {unit} on the output's side and >= {b} on the "
            f"other has sep = R, the rank of C_F")
    head += (f" = {value} (exact)" if kind == "exact" else
             f", here {value} ({kind}) <= R <= {upper}")
    if fam.label == "convolution":
        head += " (partitions that split no patch)"
    if saturation:
        head += (f"; so does every partition with >= {saturation // 2} positions on each side "
                 f"(the token rank met it at N = {saturation} and grows with each side)")
    smaller = ", ".join(f"N = {t['N']}: >= {t['lower_bound']}" for t in tokens
                        if t["lower_bound"] < upper)
    head += f"; every smaller partition has sep <= {upper} (certified)"
    if smaller:
        head += f", and the balanced ones sep {smaller} (certified)"
    return head
