"""The moment route: the separation rank of an eq. (3) network for every sequence length N.

Setting (levine2020 eq. (3), sec. 2.2; residual: A.4; the recursion is in
:mod:`seprank.network_theory.moment_form`). Every output is y^{L,i} = G_L(S) x^i with
S = sum_j x^j x^jT. For a partition (I, J) of the positions with the output
position i in I (the other case is the same with the names swapped),
S = S_I + S_J and

    y_p^i = F(x^i, S_I, S_J),     F(x, U, W) = sum_k x_k G_L(U + W)_{pk},

U and W symmetric, each with D = d(d+1)/2 free entries u_ab, w_ab (a <= b). Let
C_F be the coefficient matricization of F: rows the monomials x_k U^alpha, columns
the monomials W^gamma (:mod:`seprank.separation.moment.blocks`), R = rank_Q(C_F),
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
  other has the same separation rank R, whatever N. Proposition 1(b) adds: if some
  balanced N0 has s(N0/2, N0/2) = R, then s(a, b) = R for all a, b >= N0/2.

Proposition 2' (the output's side may hold only d positions). If a >= d and b >= d
then s(a, b) = R; so sep(N) = R for every N >= 2 d, whatever side the output is on.
  Proof. Only the row side changes (b >= d is as above). With a = d, S_I = x x^T + P
  where x = x^i and P = sum of the other d - 1 tokens' x x^T: P runs over every positive
  semidefinite matrix of rank <= d - 1. Let f(x, U) be a polynomial in the span of the
  row monomials x_k U^alpha (linear in x) vanishing on the image {(x, x x^T + P)}; we
  show f = 0, which is what the proof of Proposition 2 needs. Put
  f'(x, V) = f(x, V + x x^T) (a polynomial change of variables with inverse
  V = U - x x^T). f' vanishes for every x and every V positive semidefinite of rank
  d - 1, a nonempty open subset of the smooth real points of the hypersurface det V = 0;
  det V is irreducible (the generic symmetric determinant), so its real points there are
  Zariski-dense in it and det V divides f' in R[x, V]. Back in (x, U):
  f(x, U) = det(U - x x^T) h(x, U) for a polynomial h. On a line x = s v (v, U fixed),
  det(U - s^2 v v^T) = det U - s^2 v^T adj(U) v has degree 2 in s whenever
  c = v^T adj(U) v != 0, while f(s v, U) has degree <= 1 in s: so h(s v, U) = 0 for all s,
  hence f(s v, U) = 0, for every (v, U) with c != 0 (for d = 1, adj(U) = 1). That set is
  nonempty and Zariski-open, so f = 0. Tested at small sizes against the finite-N
  coefficient route (tests/test_moment_route.py: a partition with d positions on the
  output's side).

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
antidiagonal, which gives rank >= their sum, the plain network's rank with the same
weights (:mod:`~seprank.separation.moment.leading_forms`). The route ranks those blocks,
then the whole matrix where its plan can add to them.

Embeddings (:mod:`seprank.separation.moment.embedding`): a vocabulary or convolution
embedding without positional part turns F into a family in fewer variables; the
same propositions hold there with the thresholds stated in that module.
Positional embeddings are refused (no permutation equivariance).

What the route computes (:func:`moment_separation_rank`)
--------------------------------------------------------
1. Plan (:mod:`seprank.separation.moment.plan`): block shapes from (L, d, H,
   residual), per block the cheaper of catalecticant and evaluation, time and
   peak-memory estimates (numba compilation on a cold cache included); refuse past
   ``max_memory``. The prime is drawn from the fast range of the engine that ranks the
   plan's largest matrix (:func:`seprank.linalg.planner.engine_primes`: below 2^20 for
   the numba LU), never fixed here.
2. Upper bound for every N: rank of each block (:mod:`seprank.separation.moment.ranks`):
   full rank mod p is exact; families with few terms (the one-hot family) have their
   blocks compressed to the rows and columns holding a nonzero entry
   (:mod:`seprank.separation.moment.sparse`); a rank-deficient block is made exact by
   kernel vectors: products of kernel vectors of neighbouring blocks (the apolar ideal
   of the g_j, :mod:`seprank.separation.moment.apolar`), else Dixon lifting from the
   residues of a row subset (:mod:`seprank.linalg.rational.dixon_residues`) checked on all rows,
   or, with many kernel vectors, the rank over Q of the whole block; the residual
   matrix has the layered staircase for every weight
   (:func:`~seprank.network_theory.generic_laws.layered_staircase_bound`) and its split
   ranked over Q, and its leading forms' blocks as lower bound
   (:mod:`~seprank.separation.moment.leading_forms`), and, left below its bound, the
   dimension of the g_j's derivatives when the expansion is cheap
   (:func:`~seprank.separation.moment.sparse.derivative_rank`); else ``probabilistic`` (every row
   ranked mod a random prime of [2^30, 2^31)) or the cap as certified upper bound.
3. Lower bounds at finite N (:mod:`seprank.separation.moment.tokens`) only where the
   answer needs them (:func:`token_values`): when a block was sampled or skipped (N = 2,
   4, ... until the token lower bound meets the moment-form value), for a partition with fewer
   positions than Proposition 2' asks (N = 2 |I|), or when asked (``token_search=
   "search"``). Once every block is certified, Proposition 2' alone gives the value from
   N = 2 d on; the answer's ``basis`` says which argument it rests on, and ``generic``
   what it means for almost every weight (:mod:`seprank.models.generic_weights`).
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass, field, replace
from math import comb
from typing import Any

from seprank.errors import MemoryLimitError, ParameterError
from seprank.linalg.memory import available_bytes, format_bytes
from seprank.linalg.planner import engine_primes
from seprank.models.generic_weights import generic_statement
from seprank.models.moment_mod_p import MAX_EVAL_PRIME, family_residues
from seprank.network_theory.generic_laws import generic_caps, layered_staircase_bound
from seprank.network_theory.moment_form import token_family
from seprank.scalars.primes import require_prime
from seprank.separation.moment import leading_forms
from seprank.separation.moment.blocks import block_specs
from seprank.separation.moment.plan import MomentPlan, make_plan
from seprank.separation.moment.run import run_blocks, run_tokens
from seprank.separation.moment.tasks import check_task_options, subset_ranks_hook
from seprank.separation.moment.word_directions import word_annihilators
from seprank.separation.vocabulary import infinite_partition

__all__ = ["moment_separation_rank", "prepare_moment", "run_moment", "MomentPrepared",
           "MomentSeparationResult", "MomentRunFacts", "DEFAULT_BUDGET_SECONDS",
           "with_ideal_bounds"]

#: Estimated seconds the route may plan for (blocks past it are sampled or skipped, largest first).
DEFAULT_BUDGET_SECONDS = 600.0
#: Share of the budget that the token search over N may spend (wall time).
TOKEN_BUDGET_SHARE = 0.25


@dataclass(frozen=True)
class MomentRunFacts:
    """How the moment route ran: the typed record behind a result's ``details``.

    ``prime`` (of every modular step) and whether it was drawn at random, from which
    engine's range (``prime_range``); ``seed``; ``token_search`` (why the token search ran
    or not); ``plan`` (:class:`~seprank.separation.moment.plan.MomentPlan`); ``timing``
    (phase -> seconds); ``family`` (the family's facts); ``count_bound`` (rows of C_F times
    the monomials of degree <= C: a bound valid for every weight); ``memory_limit``
    (bytes); ``seconds`` (wall); ``error_bound`` (a probabilistic answer's).

    >>> from seprank.models import SelfAttentionNetwork
    >>> r = moment_separation_rank(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys(
    ...     "QKVO", [[[[1]]]])))
    >>> r.run.count_bound == r.details["count_bound"], r.run.error_bound is None
    (True, True)
    """

    prime: int
    prime_drawn_at_random: bool
    prime_range: str
    seed: int
    token_search: str
    plan: MomentPlan
    timing: dict
    family: dict
    count_bound: int
    memory_limit: int
    seconds: float
    error_bound: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``details`` of earlier versions: same keys)."""
        out = {"prime": self.prime, "prime_drawn_at_random": self.prime_drawn_at_random,
               "token_search": self.token_search, "prime_range": self.prime_range,
               "seed": self.seed, "plan": self.plan.to_dict(), "timing": self.timing,
               "family": self.family, "count_bound": self.count_bound,
               "memory_limit": self.memory_limit, "seconds": self.seconds}
        if self.error_bound is not None:
            out["error_bound"] = self.error_bound
        return out


@dataclass
class MomentSeparationResult:
    """The moment route's answer (module docstring).

    ``value`` with ``kind`` (exact / probabilistic / lower_bound); ``upper_bound``:
    certified for every N and every partition; ``lower_bound``, certified at
    ``lower_bound_N`` (and every larger balanced N); ``saturation_N``: the least N
    tried where the token lower bound met the certified upper bound; ``exact_from_N``:
    from which balanced N the value is proven exact (None when not exact);
    ``partitions_covered``: a sentence; ``basis``: what the value rests on (a sentence:
    Proposition 2' with the certified rank of C_F, or token ranks at a finite N);
    ``blocks``: per block of C_F (degree, shape, rank, kind, seconds, how built);
    ``token_ranks``: per N tried (the token search runs only where the answer needs it:
    blocks left inexact, a partition below the thresholds, or ``token_search="search"``);
    ``partition``: the side I asked for (None: the thresholds' partitions); ``run``: how
    it ran (:class:`MomentRunFacts`; ``details`` is its JSON form).

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = [[[[1]]]]
    >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one))
    >>> r = moment_separation_rank(net)
    >>> r.value, r.kind, r.exact_from_N          # x1 (x1^2 + x2^2 + ...): 2 for N >= 2
    (2, 'exact', 2)
    >>> r.basis.startswith("Proposition 2'")
    True
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
    run: MomentRunFacts | None = None
    basis: str = ""
    partition: tuple | None = None
    generic: dict = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of every field.

        >>> from seprank.models import SelfAttentionNetwork
        >>> net = SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", [[[[1]]]]))
        >>> sorted(moment_separation_rank(net).to_dict())[:3]
        ['basis', 'blocks', 'coordinate']
        """
        return {k: getattr(self, k) for k in (
            "value", "kind", "upper_bound", "lower_bound", "lower_bound_N", "saturation_N",
            "exact_from_N", "partitions_covered", "position", "coordinate", "network",
            "residual", "family", "blocks", "token_ranks", "details", "basis", "partition",
            "generic")}

    @property
    def details(self) -> dict[str, Any]:
        """How it ran, as JSON (:meth:`MomentRunFacts.to_dict`; empty without a run)."""
        return {} if self.run is None else self.run.to_dict()

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
        return fam, {"embedding": None, "threshold": "|I| >= d_x and |J| >= d_x "
                     "(Proposition 2')"}
    from seprank.separation.moment.embedding import embedding_family

    return embedding_family(net, embedding, coordinate)


def _threshold_N(fam) -> tuple[int, int]:
    """Sizes (output side, other side) from which sep = R (Proposition 2 and embeddings)."""
    if fam.label == "vocabulary":
        return fam.degree + 1, fam.degree
    if fam.label == "tokens":                     # Proposition 2'
        return fam.n_rows, fam.n_rows
    return fam.n_rows + 1, fam.n_rows


def largest_matrix(plan) -> tuple[int, int]:
    """The largest matrix the plan ranks mod p (rows x columns; the subset of a
    catalecticant block, the points of an evaluation or sampled block).

    >>> from seprank.models import SelfAttentionNetwork
    >>> largest_matrix(prepare_moment(SelfAttentionNetwork.random(2, 2, 1, seed=0)).plan)
    (12, 6)
    """
    best = (1, 1)
    for b in plan.blocks:
        short = min(b["shape"])
        if b["method"] == "catalecticant":
            shape = (b["estimates"]["catalecticant"]["rows"], short)
        elif b["method"] == "evaluation":
            shape = (short, short)
        elif b["method"] == "sampled":
            shape = (b["points"], b["points"])
        else:
            continue
        if shape[0] * shape[1] > best[0] * best[1]:
            best = shape
    return best


def _prime(prime, seed, C: int, plan) -> tuple[int, bool, str]:
    """The route's prime (drawn from the fast range of the engine that ranks the plan's
    largest matrix, :func:`seprank.linalg.planner.engine_primes`, unless given), whether
    it was drawn, and which range it came from."""
    if prime is None:
        ep = engine_primes(largest_matrix(plan))
        return ep.draw(random.Random(seed)), True, str(ep)
    p = require_prime(prime, max_value=MAX_EVAL_PRIME)
    if p <= 2 * (C + 1):
        raise ParameterError(f"prime = {p} is too small: the degree split needs C + 1 = {C + 1} "
                             f"distinct scales and factorials up to C! nonzero; use p > "
                             f"{2 * (C + 1)}")
    return p, False, "given"


@dataclass
class MomentPrepared:
    """The moment route's decisions before any block is built (:func:`prepare_moment`).

    ``fam``, ``info``: the moment family and its facts; ``specs``: the blocks of C_F;
    ``plan``: the :class:`~seprank.separation.moment.plan.MomentPlan` (methods, estimated
    seconds and peak bytes); ``thresholds``: (output side, other side) sizes from which
    sep = R; ``limit``: the memory limit; ``prime`` and whether it was drawn; ``leading``:
    a residual network's plain network, prepared (:mod:`~seprank.separation.moment.
    leading_forms`; None otherwise).

    >>> from seprank.models import SelfAttentionNetwork
    >>> prep = prepare_moment(SelfAttentionNetwork.random(2, 2, 1, seed=0, nonzero=True))
    >>> prep.thresholds, [s.shape for s in prep.specs][:2]
    ((2, 2), [(30, 1), (20, 3)])
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
    prime_source: str = ""
    partition: tuple | None = None
    small_side: int | None = None
    token_search: str = "auto"
    weight_bound: int | None = None
    leading: Any = None


#: ``token_search`` values: ``auto`` runs the token search only where the answer needs it
#: (blocks left inexact, or a partition with fewer positions than Proposition 2' asks);
#: ``search`` always runs it (it finds from which N the token grid reaches R).
TOKEN_SEARCH = ("auto", "search")


def _partition_sides(fam, partition, position: int, thr: tuple[int, int]):
    """(I, smaller side) of a given partition at N = inf: the smaller side is |I| when I
    has fewer positions than Proposition 2' asks (the token search then bounds it from
    below), else None. Families other than tokens refuse such partitions (their
    propositions need the thresholds)."""
    if partition is None:
        return None, None
    I = infinite_partition(partition)
    need = thr[0] if position in I else thr[1]
    if len(I) >= need:
        return I, None
    if fam.label != "tokens":
        unit = "patches" if fam.label == "convolution" else "positions"
        side = "the output's side" if position in I else "the side without the output"
        raise ParameterError(
            f"partition I = {list(I)} has {len(I)} {unit}, {side}; with this embedding "
            f"the N -> infinity value is the separation rank of partitions with >= "
            f"{thr[0]} {unit} on the output's side and >= {thr[1]} on the other: give a "
            "larger I or a finite N")
    return I, len(I)


def prepare_moment(net, *, position: int = 0, coordinate: int = 0, embedding=None,
                   prime: int | None = None, seed: int = 0, certify: bool = False,
                   max_seq_len: int | None = None, max_memory: int | None = None,
                   budget_seconds: float = DEFAULT_BUDGET_SECONDS,
                   tasks: dict | None = None, partition=None,
                   token_search: str = "auto", weight_bound: int | None = None
                   ) -> MomentPrepared:
    """Check the arguments and plan the moment route without building anything.

    The arguments are those of :func:`moment_separation_rank`; the same one-line errors.
    ``tasks``: None, or ``{"scheduler", "workers", "store"}`` to run the catalecticant
    blocks' eliminations as Dask tasks and keep them in a store
    (:mod:`seprank.separation.moment.tasks`).
    The plan's estimate (seconds, peak bytes) comes from sizes alone
    (:mod:`seprank.separation.moment.plan`); a plan over ``max_memory`` is refused.

    >>> from seprank.models import SelfAttentionNetwork
    >>> prep = prepare_moment(SelfAttentionNetwork.random(1, 2, 1, seed=0, nonzero=True))
    >>> prep.plan.peak_bytes < 2**20, prep.fam.label
    (True, 'tokens')
    """
    _check_args(net, position, coordinate, seed, certify, max_seq_len, max_memory,
                budget_seconds)
    if not isinstance(token_search, str) or token_search not in TOKEN_SEARCH:
        raise ParameterError(f"token_search must be one of {', '.join(TOKEN_SEARCH)}; got "
                             f"{token_search!r}")
    if tasks is not None:
        check_task_options(tasks.get("scheduler"), tasks.get("workers"), tasks.get("store"))
    fam, info = _family(net, coordinate, embedding)
    specs = with_ideal_bounds(block_specs(fam.n_rows, fam.n_vars, fam.degree, fam.mixed),
                              fam, net)
    limit = int(0.8 * available_bytes()) if max_memory is None else max_memory
    shape = {"L": net.L, "d": net.d_x, "H": net.H, "d_a": net.d_a, "r": fam.n_rows,
             "n_vars": fam.n_vars, "residual": fam.mixed,
             "n_scales": 1 if fam.mixed else fam.degree + 1}
    given = None if prime is None else require_prime(prime, max_value=MAX_EVAL_PRIME)
    plan = make_plan(specs, shape, float(budget_seconds), limit, given)
    lead = None
    if leading_forms.applies(fam):
        try:
            lead = prepare_moment(leading_forms.leading_network(net), position=position,
                                  coordinate=coordinate, seed=seed, certify=certify,
                                  max_memory=limit, budget_seconds=budget_seconds)
        except MemoryLimitError:
            lead = None
        if lead is not None:
            plan = leading_forms.leading_plan(
                plan, lead.plan, sum(s.cap for s in lead.specs) < specs[0].cap)
    if plan.peak_bytes > limit:
        raise MemoryLimitError(f"the moment route needs about {format_bytes(plan.peak_bytes)} "
                               f"(estimated before building), over the limit "
                               f"{format_bytes(limit)}")
    p, random_p, source = _prime(prime, seed, fam.degree, plan)
    thr = _threshold_N(fam)
    I, small = _partition_sides(fam, partition, position, thr)
    return MomentPrepared(net, fam, info, specs, plan, thr, limit, p, random_p,
                          position, seed, certify, max_seq_len, float(budget_seconds), tasks,
                          prime_source=source, partition=I, small_side=small,
                          token_search=token_search, weight_bound=weight_bound, leading=lead)


def with_ideal_bounds(specs: list, fam, net) -> list:
    """The blocks of a plain token family with the first layer's counted bound on their ranks
    (:func:`seprank.network_theory.generic_laws.counted_block_bounds`, valid for every
    weight: G_1 reads S through r <= min(H d_a^2, D) linear forms); a residual token
    family's matrix with the layered staircase
    (:func:`~seprank.network_theory.generic_laws.layered_staircase_bound`, every weight);
    other families (embeddings, shifts) keep their blocks as they are.

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(2, 4, 2, seed=0, nonzero=True)
    >>> fam = token_family(net, 0)
    >>> specs = block_specs(fam.n_rows, fam.n_vars, fam.degree, fam.mixed)
    >>> [s.cap for s in specs], [s.cap for s in with_ideal_bounds(specs, fam, net)]
    ([1, 10, 55, 40, 4], [1, 10, 52, 40, 4])
    """
    if leading_forms.applies(fam):       # one matrix: the layered staircase, every weight
        (spec,) = specs
        bound = layered_staircase_bound(net.L, fam.n_vars, min(net.H * net.d_a**2, fam.n_vars),
                                        fam.n_rows)
        return [replace(spec, bound=min(bound, spec.cap))]
    if fam.mixed or fam.label != "tokens":
        return specs
    caps = generic_caps(net.L, net.d_x, net.H, net.d_a)    # min(shape, ideal bound) per block
    return [replace(s, bound=c) if c < min(s.shape) else s
            for s, c in zip(specs, caps, strict=True)]


def token_values(prep: MomentPrepared, blocks: list[dict]) -> tuple[list[int], str]:
    """The N at which the token search runs (empty: none), and why (``TOKEN_SEARCH``).

    >>> from seprank.models import SelfAttentionNetwork
    >>> prep = prepare_moment(SelfAttentionNetwork.random(1, 2, 1, seed=0, nonzero=True))
    >>> token_values(prep, [{"kind": "exact"}])[0], token_values(prep, [{"kind": "x"}])[0]
    ([], [])
    >>> token_values(prep, [{"kind": "lower_bound", "method": "sampled"}])[0]
    [2, 4, 6]
    """
    fam = prep.fam
    if fam.label != "tokens":
        return [], "no token search with an input embedding (Proposition 2 alone)"
    n_max = 2 * fam.d + 2 if prep.max_seq_len is None else prep.max_seq_len
    if prep.small_side is not None:
        m = prep.small_side
        return [2 * m], (f"the partition has {m} position{'s' * (m != 1)} on one side: "
                         f"tokens at N = {2 * m} "
                         f"bound s({m}, {m}) <= its sep from below")
    if prep.token_search == "search":
        return list(range(2, n_max + 1, 2)), "asked for (token_search='search')"
    if all(b["kind"] == "exact" for b in blocks):
        return [], ("every block certified: sep = rank_Q(C_F) from Proposition 2' "
                    "(no token search needed)")
    if not any(b.get("method") in ("sampled", "skipped") for b in blocks):
        return [], ("every block ranked mod p (none sampled or skipped): the blocks give "
                    "the lower bound; token_search='search' adds bounds at finite N")
    return list(range(2, n_max + 1, 2)), ("blocks sampled or skipped: token lower bounds at "
                                          "finite N")


def run_moment(prep: MomentPrepared) -> MomentSeparationResult:
    """Build and rank the planned blocks, then search token lower bounds over N.

    >>> from seprank.models import SelfAttentionNetwork
    >>> one = dict.fromkeys("QKVO", [[[[1]]]])
    >>> run_moment(prepare_moment(SelfAttentionNetwork(1, 1, 1, weights=one))).value
    2
    """
    start = time.perf_counter()
    fam, p = prep.fam, prep.prime
    lead = _leading_blocks(prep) if leading_forms.applies(fam) else None
    specs, plan, word = _word_cap(prep, lead) if lead is not None else (prep.specs, prep.plan,
                                                                        None)
    data = None
    if lead is not None and not leading_forms.whole_matrix_can_add(
            plan.blocks[0], sum(b["rank"] for b in lead[0]), prep.budget_seconds - lead[1]):
        blocks = [leading_forms.leading_record(None, specs[0], lead[0], lead[1], word=word)]
        phases = {"leading_forms": round(lead[1], 4)}
    else:
        data = family_residues(fam, p)
        blocks, phases = run_blocks(fam, data, specs, plan, p, prep.seed,
                                    random_p=True, certify=prep.certify,
                                    budget_seconds=max(1.0, prep.budget_seconds
                                                       - (lead or (0, 0))[1]),
                                    max_memory=prep.limit, subset_ranks=_subset_hook(prep))
        if lead is not None:
            blocks[0] = leading_forms.leading_record(blocks[0], specs[0], lead[0], lead[1],
                                                     word=word)
            phases["leading_forms"] = round(lead[1], 4)
    tokens = []
    n_values, why = token_values(prep, blocks)
    if n_values:
        data = family_residues(fam, p) if data is None else data
        tokens = run_tokens(fam, data, blocks, p, prep.seed, max(n_values),
                            certify=prep.certify, phases=phases, n_values=n_values,
                            budget_seconds=max(5.0, TOKEN_BUDGET_SHARE * prep.budget_seconds))
    run = MomentRunFacts(
        prime=p, prime_drawn_at_random=prep.prime_drawn, prime_range=prep.prime_source,
        seed=prep.seed, token_search=why, plan=plan, timing=phases, family=prep.info,
        count_bound=fam.n_rows * comb(fam.n_vars + fam.degree, fam.degree),
        memory_limit=prep.limit, seconds=round(time.perf_counter() - start, 4))
    return _assemble(fam, blocks, tokens, run, prep)


def _leading_blocks(prep: MomentPrepared) -> tuple[list[dict], float, Any] | None:
    """The plain network's block records, seconds and word (the leading forms of a
    residual network, :mod:`~seprank.separation.moment.leading_forms`; the word's
    annihilators as a memo, found at most once, by the plain blocks' run or later by
    :func:`_word_cap`); None when its plan was refused (memory)."""
    t0 = time.perf_counter()
    top = prep.leading
    if top is None:
        return None
    word = functools.cache(lambda: word_annihilators(top.fam, top.prime, seed=top.seed))
    blocks, _ = run_blocks(top.fam, family_residues(top.fam, top.prime), top.specs, top.plan,
                           top.prime, top.seed, random_p=True, certify=top.certify,
                           budget_seconds=top.budget_seconds, max_memory=top.limit, word=word)
    return blocks, time.perf_counter() - t0, word


def _word_cap(prep: MomentPrepared, lead: tuple) -> tuple[list, MomentPlan, str | None]:
    """The specs and the plan of a one-head residual network with its matrix's cap lowered
    by the word's annihilators (:func:`~seprank.separation.moment.leading_forms.word_bound`)
    when the leading forms are below it, and why (with the seconds it took); else the
    prepared ones and None."""
    unchanged = (prep.specs, prep.plan, None)
    if sum(b["rank"] for b in lead[0]) >= prep.specs[0].cap:
        return unchanged
    t0 = time.perf_counter()
    found = leading_forms.word_bound(prep.net, lead[2]())
    if found is None or found[0] >= prep.specs[0].cap:
        return unchanged
    specs = [replace(prep.specs[0], bound=found[0]), *prep.specs[1:]]
    plan = replace(prep.plan, blocks=[dict(prep.plan.blocks[0], cap=found[0]),
                                      *prep.plan.blocks[1:]])
    return specs, plan, f"{found[1]} ({time.perf_counter() - t0:.1f} s)"


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
                           tasks: dict | None = None, partition=None,
                           token_search: str = "auto", weight_bound: int | None = None
                           ) -> MomentSeparationResult:
    """Separation rank of y_coordinate^position of ``net`` for every N (module docstring).

    ``run_moment(prepare_moment(...))``; the front door
    (``seprank.separation_rank(..., N=math.inf)``) reaches it through
    :mod:`seprank.separation.moment.route`.

    Parameters
    ----------
    net : a :class:`~seprank.models.SelfAttentionNetwork` (integer or rational weights).
    position, coordinate : the output y_p^i (0-based); by permutation equivariance the
        answer is the same for every position (the partitions put it in I).
    embedding : None (continuous tokens), or a wies2021
        :class:`~seprank.models.embedding.VocabularyEmbedding` /
        :class:`~seprank.models.embedding.ConvolutionalEmbedding` without positional
        part (:mod:`seprank.separation.moment.embedding`).
    prime : the prime of every modular step (<= 2^31 - 1); default drawn with ``seed``
        from the fast range of the engine that ranks the largest block (below 2^20 for
        the numba LU; :func:`seprank.linalg.planner.engine_primes`). The error bound of a
        ``probabilistic`` block uses its own random prime (moment_ranks).
    seed : random points, row subsets and the prime.
    certify : attach rank certificates to every ranked matrix and verify them.
    max_seq_len : largest N of the token search (default 2 d_x + 2; continuous tokens).
    max_memory : bytes the plan may use (default 80% of the available memory).
    budget_seconds : estimated seconds the plan may take; blocks past it are sampled or
        skipped (certified lower bounds).
    tasks : None, or a dict of ``scheduler`` ("local" or a Dask address), ``workers``
        and ``store`` (a JSON-lines path): the catalecticant blocks' eliminations as Dask
        tasks, resumable from the store (:mod:`seprank.separation.moment.tasks`).
    partition : None, or the side I of a partition (positions, 0-based; J is every other
        position). With fewer positions than Proposition 2' asks, the answer is that
        partition's: the token grid at N = 2 |I| from below, rank_Q(C_F) from above.
    token_search : ``"auto"`` (only where the answer needs it) or ``"search"`` (N = 2, 4,
        ... up to ``max_seq_len``: from which N the token grid reaches R).
    weight_bound : G when ``net`` was drawn by :func:`seprank.models.generic_weights.
        seeded_network` (nonzero integers uniform in [-G, G]); the answer's ``generic``
        then states the probability that its value is the generic one. None: given weights.

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
    >>> r.kind, r.value == r.upper_bound, r.token_ranks, r.exact_from_N   # Proposition 2'
    ('exact', True, [], 4)
    """
    return run_moment(prepare_moment(
        net, position=position, coordinate=coordinate, embedding=embedding, prime=prime,
        seed=seed, certify=certify, max_seq_len=max_seq_len, max_memory=max_memory,
        budget_seconds=budget_seconds, tasks=tasks, partition=partition,
        token_search=token_search, weight_bound=weight_bound))


def _assemble(fam, blocks, tokens, run: MomentRunFacts, prep) -> MomentSeparationResult:
    net, thr = fam.net, prep.thresholds
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
        run = replace(run, error_bound=sum(b.get("error_bound", 0.0) for b in blocks))
    else:
        kind, value, exact_from = "lower_bound", lower, None
    basis = _basis(fam, kind, moment_lower, upper, lower, lower_N, saturation, thr)
    if kind == "exact" and any(b.get("method") == "derivatives" for b in blocks):
        basis += ("; the residual matrix's rank is the dimension of the span of the g_j's "
                  "partial derivatives, certified over Q (moment.sparse.derivative_rank)")
    covered = _covered(fam, kind, value, upper, thr, saturation, tokens)   # R, every partition
    if prep.small_side is not None:      # the partition asked for, below the thresholds
        m = prep.small_side
        tb = max((t["lower_bound"] for t in tokens if t["N"] == 2 * m), default=0)
        lower, lower_N, value = tb, 2 * m, tb
        kind = "exact" if tb == upper else "lower_bound"
        exact_from = 2 * m if kind == "exact" else None
        basis = (f"the partition has {m} position{'s' * (m != 1)} on one side: the token "
                 f"grid at N = {2 * m} "
                 f"(certified rank {tb}) bounds its sep from below (Proposition 1(b)) and "
                 f"rank_Q(C_F) <= {upper} from above (Proposition 1(c))"
                 + ("; they meet" if kind == "exact" else ""))
    generic = {} if prep.small_side is not None else generic_statement(
        net.L, value, kind, sum(b["cap"] for b in blocks), prep.weight_bound)
    return MomentSeparationResult(
        value=value, kind=kind, upper_bound=upper, lower_bound=lower, lower_bound_N=lower_N,
        saturation_N=saturation, exact_from_N=exact_from, partitions_covered=covered,
        position=prep.position, coordinate=fam.coordinate,
        network={"L": net.L, "d_x": net.d_x, "H": net.H, "d_a": net.d_a},
        residual=fam.residual, family=fam.label, blocks=blocks, token_ranks=tokens,
        run=run, basis=basis, partition=prep.partition, generic=generic)


def _basis(fam, kind, moment_lower, upper, lower, lower_N, saturation, thr) -> str:
    """What the value rests on (MomentSeparationResult.basis)."""
    a, b = thr
    prop = "Proposition 2'" if fam.label == "tokens" else "Proposition 2 (embedding)"
    if kind == "exact" and moment_lower == upper:
        text = (f"{prop}: sep = rank_Q(C_F) on every partition with >= {a} positions on the "
                f"output's side and >= {b} on the other, and rank_Q(C_F) = {upper} is "
                "certified block by block (full rank mod p, or a kernel certified over Q)")
        if saturation and saturation < a + b:
            text += (f"; the token grid at N = {saturation} already reaches it (certified), "
                     "so it holds from that N on")
        return text
    if kind == "exact":
        return (f"the token grid at N = {lower_N} has certified rank {lower}, which meets the "
                f"certified upper bound rank_Q(C_F) <= {upper} (Propositions 1(b) and 1(c))")
    if lower > moment_lower:
        return (f"a certified lower bound {lower} from the token grid at N = {lower_N} and the "
                f"certified upper bound {upper}; they do not meet")
    return (f"{prop} with blocks ranked mod p: {moment_lower} <= rank_Q(C_F) <= {upper} "
            "(certified); they do not meet")


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
