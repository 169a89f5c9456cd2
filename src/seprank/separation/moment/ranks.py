"""Ranks of the blocks of C_F: mod p (certified lower bounds), exact over Q when provable.

What each block result claims
-----------------------------
* ``rank`` is rank_p of a matrix that is (a row subset of) the integer block, or of
  an evaluation E = M C_b N^T of it, reduced mod p: a nonzero minor mod p is a
  nonzero integer minor, so rank_Q(C_b) >= rank. Always certified.
* ``upper`` is certified: min(shape) (the trivial bound), or ``rank`` itself when
  it meets min(shape), or when n - r integer kernel vectors of a row subset were
  found by :func:`seprank.linalg.rational.multimodular.rank_multimodular` (exact over the
  subset) and then checked against every row of the block
  (:func:`~seprank.separation.moment.blocks.verify_kernel`).
* ``kind``: ``exact`` when rank = upper; ``probabilistic`` when the whole block was
  ranked mod a prime q drawn uniformly from the primes in ``ERROR_PRIME_RANGE`` =
  [2^30, 2^31) (there are ``PRIMES_IN_RANGE`` of them), independently of the block:
  if rank_Q > rank_q then q divides a fixed nonzero (rank_q + 1)-minor of the block
  (the first one in some order, not depending on q), whose absolute value is at most
  the Hadamard bound H <= (sqrt(n) 2^entry_bits)^(rank_q + 1); at most log2(H) / 30
  primes >= 2^30 divide it, so P[rank_Q != rank_q] <= (log2(H) / 30) / PRIMES_IN_RANGE
  (``error_bound``); ``lower_bound`` otherwise.

Primes (issue 28, item 1). Every other step eliminates mod the route's prime p, drawn
from the fast range of the engine that ranks the largest block
(:func:`seprank.linalg.planner.engine_primes`: below 2^20 for the numba LU): a nonzero
minor mod any prime certifies a lower bound, and a full rank mod any prime is exact, so
only the error bound of ``probabilistic`` needs a large prime, and only that step takes
one (on the engine that is fast at it: flint's nmod_mat).
* Evaluation blocks (Schwartz-Zippel): an r x r minor of E is a polynomial of
  degree <= r (C + 1) in the point coordinates (row points: degree 1 + C - b,
  column points: b), not identically zero when r <= rank_p(C_b); so
  rank_p(E) = rank_p(C_b) except with probability <= r (C + 1) / p. That is
  reported, but an evaluation block is only ``exact`` when full.
"""

from __future__ import annotations

import time
from math import comb, factorial, prod

import flint
import numpy as np

from seprank.linalg import rank as linalg_rank
from seprank.linalg import verify as linalg_verify
from seprank.linalg.engines.flint_nmod import AUTO_FLINT_PRIME_RANGE
from seprank.linalg.modarith import random_prime as draw_prime
from seprank.linalg.residues import ResidueMatrix
from seprank.models.moment_mod_p import pair_block_values
from seprank.separation.moment.blocks import (
    BlockSpec,
    PolyData,
    block_entries,
    entries_mod,
    exponents,
    verify_kernel,
)
from seprank.separation.moment.plan import subset_rows

__all__ = ["ideal_certifies", "ideal_upper", "catalecticant_rank", "evaluation_ranks",
           "subset_rank", "annihilate_rows", "exact_can_help",
           "vandermonde_mix", "PRIMES_IN_RANGE", "ERROR_PRIME_RANGE",
           "CERTIFY_MAX_SHORT"]

#: The range of the prime q of a ``probabilistic`` block's error bound (the flint
#: engine's fast range, AUTO_FLINT_PRIME_RANGE), and the number of primes in it
#: (pi(2^31) - pi(2^30), counted by a sieve; tests/test_moment_route.py re-counts).
ERROR_PRIME_RANGE = AUTO_FLINT_PRIME_RANGE
PRIMES_IN_RANGE = 50_697_537
#: Rank-deficient blocks whose short side exceeds this are not certified over Q
#: (p-adic lifting of a dense system of that size takes minutes on 2 cores).
CERTIFY_MAX_SHORT = 2500
#: A block whose first lifting (on a row subset) fails is lifted again on twice the rows
#: only up to this many entries: L = 3, d = 3, block 7 (1386 x 792) spent 553 s and
#: 18.9 GB that way; past it, a cheap block is ranked on all rows mod the random prime
#: (``probabilistic``) instead.
LIFT_RETRY_MAX_ENTRIES = 400_000
#: A rank-deficient block whose kernel could not be certified is ranked whole over Q
#: (flint's exact ``fmpz_mat.rank``) up to this many entries: a subset lifting can fail
#: on a tiny block (the one-hot network L = 2, d_x = 3: a 168 x 6 block of rank 3 was left
#: ``probabilistic``), where the exact rank costs milliseconds.
EXACT_WHOLE_MAX_ENTRIES = 200_000
#: The residual matrix's staircase split (both parts ranked over Q whole, flint's
#: fraction-free elimination) is tried when each part has at most this many entries
#: (residual L = 3, d_x = 2, H = 2: 1120 x 560 in two parts, a few seconds; flint's cost
#: grows fast with the rank and the entries' bits, so larger parts are left to lifting).
EXACT_WHOLE_WIDE_KERNEL_ENTRIES = 2_000_000
#: Ranking every row of a block mod p (for ``probabilistic``) is done up to this many
#: long * short^2 operations (about 4 s at the rate ``lu_small`` of seprank.budget.RATES).
FULL_RANK_MAX_OPS = 1.5e10


def _rows_cols(pd: PolyData, spec: BlockSpec, r: int):
    if spec.degree is None:
        alphas = exponents(pd.n_vars, pd.C, up_to=True)
        gammas = alphas
    else:
        alphas = exponents(pd.n_vars, spec.row_degree)
        gammas = exponents(pd.n_vars, spec.degree)
    rows_j = np.repeat(np.arange(r, dtype=np.int64), len(alphas))
    rows_a = np.tile(alphas, (r, 1))
    return rows_j, rows_a, gammas


class _TallBlock:
    """The block in its tall orientation (long side as rows), built for any row subset."""

    def __init__(self, pd: PolyData, spec: BlockSpec, r: int):
        self.pd = pd
        self.rows_j, self.rows_a, self.gammas = _rows_cols(pd, spec, r)
        self.transposed = spec.shape[0] < spec.shape[1]
        self.long = max(spec.shape)
        self.short = min(spec.shape)

    def catalecticant_vectors(self, vecs: list) -> list:
        """Kernel vectors x of C_F (tall orientation) -> y with K y = 0 iff C_F x = 0:
        y = (C! / e!) x, e the exponent vector of each column (moment_blocks docstring)."""
        cols = self.rows_a if self.transposed else self.gammas
        big = factorial(self.pd.C)
        scale = [big // prod(factorial(int(k)) for k in e) for e in cols]
        return [tuple(int(v) * s for v, s in zip(x, scale, strict=True)) for x in vecs]

    def residues(self, lo: int, hi: int, primes: list[int]) -> list[np.ndarray]:
        """Rows lo..hi-1 (tall orientation) modulo each prime, one key lookup for all."""
        idx = np.arange(lo, hi)
        if self.transposed:
            a, g, rows = self.rows_a, self.gammas[idx], self.rows_j
        else:
            a, g, rows = self.rows_a[idx], self.gammas, self.rows_j[idx]
        out = [entries_mod(self.pd, rows, a, g, q, dtype=np.float64) for q in primes]
        return [m.T for m in out] if self.transposed else out

    def entries(self, idx: np.ndarray, p: int | None, chunk: int = 2048,
                form: str | None = None) -> np.ndarray:
        parts = []
        for lo in range(0, len(idx), chunk):
            sel = idx[lo:lo + chunk]
            if self.transposed:
                parts.append(block_entries(self.pd, self.rows_j, self.rows_a, self.gammas[sel],
                                           p=p, transpose=True, form=form))
            else:
                parts.append(block_entries(self.pd, self.rows_j[sel], self.rows_a[sel],
                                           self.gammas, p=p, form=form))
        return np.vstack(parts) if parts else np.zeros((0, self.short), dtype=np.int64)


def _hadamard_error(r: int, short: int, entry_bits: int) -> float:
    log2H = (r + 1) * (entry_bits + 0.5 * np.log2(max(short, 2)))
    low_bits = ERROR_PRIME_RANGE[0].bit_length() - 1
    return float(np.ceil(log2H / low_bits) / PRIMES_IN_RANGE)


def _rank_mod(mat: np.ndarray, p: int, certify: bool) -> tuple[int, bool | None]:
    rm = ResidueMatrix(mat, p)
    res = linalg_rank(rm, "modular", prime=p, certify=certify)
    ok = bool(linalg_verify(rm, res.certificate)) if certify else None
    return res.value, ok


def catalecticant_rank(pd: PolyData, spec: BlockSpec, r: int, p: int, rng, *,
                       random_prime: bool, certify: bool, allow_certify: bool = True,
                       ideal=None, lift_limits: tuple[float, float] | None = None,
                       subset_seed=None, prior: dict | None = None,
                       defer_above: int | None = None) -> dict:
    """Rank of one block of C_F from the exact coefficients (module docstring).

    ``r``: the number of polynomials g_j; ``rng``: numpy Generator for the row subset
    (and the random prime of the error bound); ``random_prime``: a block left
    uncertified may be ranked on all rows mod a random prime from ``ERROR_PRIME_RANGE``
    (the ``probabilistic`` kind, when it costs at most ``FULL_RANK_MAX_OPS``);
    ``certify``: attach and verify rank certificates;
    ``ideal``: the :class:`~seprank.separation.moment.apolar.ApolarIdeal` of the blocks
    ranked so far (non-residual families, blocks in increasing degree): its products
    certify a deficient block without lifting when they fill its kernel, and the
    block's lifted kernel vectors join it. ``lift_limits``: (seconds, bytes) the exact
    lifting of a deficient block may take (:func:`seprank.linalg.rational.dixon.lifting_limits`;
    past them the block keeps its rank mod p, and the record says why).
    ``subset_seed``: draw the row subset from its own generator (as :func:`subset_rank`
    does), and ``prior``: that subset's rank already computed by :func:`subset_rank` (a
    Dask task or the store), so it is not computed again. ``defer_above``: a deficient
    block whose kernel has more vectors than this, and which the ideal does not fill yet,
    returns at once with ``deferred`` (the caller certifies it after the other blocks).

    >>> import flint
    >>> from seprank.separation.moment.blocks import poly_data, block_specs
    >>> ctx = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex")
    >>> (t,) = ctx.gens()
    >>> pd = poly_data([t**2], 1, 2)                  # xi (u + w)^2: blocks 1, 2, 1
    >>> spec = block_specs(1, 1, 2, False)[1]
    >>> out = catalecticant_rank(pd, spec, 1, 1000003, np.random.default_rng(0),
    ...                          random_prime=False, certify=False)
    >>> out["rank"], out["kind"]
    (1, 'exact')
    """
    t0 = time.perf_counter()
    tall = _TallBlock(pd, spec, r)
    n_sub = subset_rows(tall.long, tall.short)
    if spec.degree is None and tall.long * tall.short**2 <= FULL_RANK_MAX_OPS:
        n_sub = tall.long      # residual: few rows carry the high degrees; rank them all
    idx = _subset(tall, n_sub, rng if subset_seed is None else np.random.default_rng(subset_seed))
    if prior is not None and prior["rows"] == n_sub:
        rank, ok = prior["rank"], prior["certificate_verified"]
    else:
        rank, ok = _rank_mod(tall.entries(idx, p), p, certify)
    out = {"rank": rank, "upper": spec.cap, "kind": "lower_bound", "rows_ranked": n_sub,
           "how": f"catalecticant: {n_sub} of {tall.long} rows of the "
                  f"{'transposed ' if tall.transposed else ''}block, rank mod {p}"}
    if certify:
        out["certificate_verified"] = ok
    if rank == spec.cap:                 # full rank, or the residual staircase bound met
        out.update(upper=rank, kind="exact")
        if rank < tall.short:
            out["how"] += ("; meets the bound for every weight (blocks.staircase_bound, "
                           "generic_laws.layered_staircase_bound)"
                           if spec.degree is None else "; meets the first layer's bound "
                           "for every weight (generic_laws.counted_block_bounds)")
    elif ideal is not None and ideal_certifies(spec, r, tall.transposed, ideal, out):
        pass
    elif spec.degree is None and (_staircase_split(pd, spec, r, out) or out["kind"] == "exact"):
        pass
    elif defer_above is not None and tall.short - rank > defer_above:
        out.update(deferred=True, seconds=round(time.perf_counter() - t0, 4))
        out["how"] += "; certification deferred (a wide kernel: the apolar ideal first)"
        return out
    elif allow_certify and pd.exact and tall.short <= CERTIFY_MAX_SHORT:
        _certify_deficient(tall, idx, p, out, rng, lift_limits)
        if ideal is not None and out.get("kernel"):
            if tall.transposed:
                ideal.add_relations(spec.row_degree, out["kernel"], r)
            else:
                ideal.add(spec.degree, out["kernel"])
    out.pop("kernel", None)
    if out["kind"] != "exact" and pd.exact and tall.long * tall.short <= EXACT_WHOLE_MAX_ENTRIES:
        _rank_whole_exactly(tall, out)
    if out["kind"] != "exact" and random_prime and pd.exact and \
            tall.long * tall.short**2 <= FULL_RANK_MAX_OPS:   # every row, mod a random q
        q = draw_prime(*ERROR_PRIME_RANGE, _py_random(rng))
        out["rank"] = max(out["rank"], _rank_mod(tall.entries(np.arange(tall.long), q), q,
                                                 False)[0])
        out["how"] += f"; all {tall.long} rows ranked mod the random prime {q}"
        out["rows_ranked"] = tall.long
        out["kind"] = "probabilistic"
        out["error_prime"] = q
        out["error_bound"] = _hadamard_error(out["rank"], tall.short, pd.entry_bits)
        if out["rank"] == out["upper"]:      # the certified lower bound met the upper one
            out["kind"] = "exact"
            out.pop("error_bound")
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def exact_can_help(spec: BlockSpec) -> bool:
    """Whether the exact coefficients could certify more of this block than its rank mod
    p and the apolar ideal did (:func:`catalecticant_rank`'s steps that need them: a
    lifted kernel, the exact rank of a small block, every row mod a random prime).

    >>> small, large = BlockSpec(5, 8, (97240, 2002)), BlockSpec(7, 6, (20020, 11440))
    >>> exact_can_help(small), exact_can_help(large)
    (True, False)
    """
    long_, short = max(spec.shape), min(spec.shape)
    return (short <= CERTIFY_MAX_SHORT or long_ * short <= EXACT_WHOLE_MAX_ENTRIES
            or long_ * short**2 <= FULL_RANK_MAX_OPS)


def _py_random(rng):
    """A ``random.Random`` seeded from the numpy Generator ``rng`` (for draw_prime)."""
    import random

    return random.Random(int(rng.integers(2**63)))


def _subset(tall: _TallBlock, n_sub: int, rng) -> np.ndarray:
    return np.sort(rng.choice(tall.long, size=n_sub, replace=False))


def subset_rank(pd: PolyData, spec: BlockSpec, r: int, p: int, subset_seed, *,
                certify: bool) -> dict:
    """The rank mod p of a block's row subset (the first step of :func:`catalecticant_rank`,
    the dense elimination that dominates large blocks), as an independent task:
    ``rows`` (the subset's size), ``rank``, ``certificate_verified`` (None without
    ``certify``), ``seconds``. The subset is drawn from ``default_rng(subset_seed)``.

    >>> import flint
    >>> from seprank.separation.moment.blocks import poly_data, block_specs
    >>> ctx = flint.fmpz_mpoly_ctx.get(("t", 1), "deglex")
    >>> (t,) = ctx.gens()
    >>> spec = block_specs(1, 1, 2, False)[1]
    >>> subset_rank(poly_data([t**2], 1, 2), spec, 1, 1000003, (0, 1), certify=False)["rank"]
    1
    """
    t0 = time.perf_counter()
    tall = _TallBlock(pd, spec, r)
    n_sub = subset_rows(tall.long, tall.short)
    idx = _subset(tall, n_sub, np.random.default_rng(subset_seed))
    rank, ok = _rank_mod(tall.entries(idx, p), p, certify)
    return {"rows": n_sub, "rank": rank, "certificate_verified": ok,
            "seconds": round(time.perf_counter() - t0, 4)}


def _rank_whole_exactly(tall: _TallBlock, out: dict) -> None:
    """The block's rank over Q from all its exact entries (flint), for a small block."""
    z = flint.fmpz_mat(tall.entries(np.arange(tall.long), None).tolist())
    rank = z.rank()
    out.update(rank=rank, upper=rank, kind="exact", rows_ranked=tall.long)
    out["how"] += f"; exact rank over Q of all {tall.long} rows (flint fmpz_mat.rank)"


def _staircase_split(pd: PolyData, spec: BlockSpec, r: int, out: dict) -> None:
    """A residual C_F's upper bound from the staircase split, when both parts are small.

    At the split s of :func:`~seprank.separation.moment.blocks.staircase_bound`, C_F =
    [A | B'] with A the columns |gamma| <= s and B' the others, which vanish outside the
    rows |alpha| <= C - s - 1 (call that part B): rank C_F <= rank A + rank B. Both ranked
    over Q whole (flint) when each has at most ``EXACT_WHOLE_WIDE_KERNEL_ENTRIES`` entries:
    a certified bound of this network's C_F, exact when it meets the rank mod p.
    """
    C, n = pd.C, pd.n_vars
    def upto(k: int) -> int:
        return comb(n + k, k) if k >= 0 else 0

    best = min(range(-1, C + 1), key=lambda t: upto(t) + r * upto(C - t - 1))
    rows_j, rows_a, gammas = _rows_cols(pd, spec, r)
    cols_low = np.nonzero(gammas.sum(axis=1) <= best)[0]
    cols_high = np.nonzero(gammas.sum(axis=1) > best)[0]
    rows_low = np.nonzero(rows_a.sum(axis=1) <= C - best - 1)[0]
    parts = [(np.arange(len(rows_j)), cols_low), (rows_low, cols_high)]
    if any(len(rr) * len(cc) > EXACT_WHOLE_WIDE_KERNEL_ENTRIES for rr, cc in parts):
        return
    upper = 0
    for rr, cc in parts:
        if len(rr) and len(cc):
            ent = block_entries(pd, rows_j[rr], rows_a[rr], gammas[cc])
            upper += flint.fmpz_mat(ent.tolist()).rank()
    if upper < out["upper"]:
        out["upper"] = upper
        out["how"] += (f"; staircase split at |gamma| <= {best}: rank <= {upper} (both parts "
                       "ranked over Q, flint fmpz_mat.rank)")
    if out["rank"] == out["upper"]:
        out["kind"] = "exact"


def _certify_deficient(tall: _TallBlock, idx: np.ndarray, p: int, out: dict, rng,
                       lift_limits: tuple[float, float] | None = None) -> None:
    """Kernel vectors of the exact row subset, checked on every row: rank over Q (within
    ``lift_limits``, seconds and bytes, when given)."""
    from seprank.linalg.rational.dixon import LiftingStopped, lifting_limits

    if lift_limits is None:
        _lift(tall, idx, p, out, rng)
        return
    t0 = time.perf_counter()
    try:
        with lifting_limits(*lift_limits):
            _lift(tall, idx, p, out, rng)
    except LiftingStopped as stop:
        out["how"] += f"; no exact kernel: {stop} ({time.perf_counter() - t0:.1f} s spent)"
        out["lifting_stopped"] = str(stop)


def _lift(tall: _TallBlock, idx: np.ndarray, p: int, out: dict, rng) -> None:
    """Kernel vectors of the row subset by Dixon lifting from residues of C_F's entries
    (:func:`seprank.linalg.rational.dixon_residues.kernel_from_residues`: no wide integer matrix is
    ever built), checked exactly on every row of the block (:func:`verify_kernel`)."""
    from seprank.linalg.rational.dixon_residues import kernel_from_residues

    for attempt in range(1 if tall.short * tall.long > LIFT_RETRY_MAX_ENTRIES else 2):
        found = kernel_from_residues(
            lambda q, sel=idx: tall.entries(sel, q, form="binomial"), (len(idx), tall.short),
            tall.pd.entry_bits, rng=np.random.default_rng(int(rng.integers(2**31))))
        out["how"] += f"; Dixon kernel of the {len(idx)}-row subset (from residues)"
        if found is None:
            out["how"] += " (no reconstruction within the Hadamard bound)"
            return
        rank, vecs = found
        cat = tall.catalecticant_vectors(vecs)
        if verify_kernel(tall.residues, tall.long, cat, tall.pd.entry_bits):
            out.update(rank=max(out["rank"], rank), upper=rank, kind="exact",
                       kernel_vectors=len(vecs), kernel=cat)
            out["how"] += f", {len(vecs)} kernel vectors verified on all {tall.long} rows"
            return
        out["how"] += " (kernel fails on other rows)"
        n_more = min(tall.long, 2 * len(idx))
        if attempt or n_more == len(idx):
            return
        idx = np.sort(rng.choice(tall.long, size=n_more, replace=False))
        out["rank"] = max(out["rank"], _rank_mod(tall.entries(idx, p), p, False)[0])
        out["rows_ranked"] = n_more


#: Rows of block b on which the first layer's annihilators are checked mod p before they
#: seed the apolar ideal (a check of the implementation: the argument holds for every
#: weight, :func:`seprank.separation.moment.apolar.first_layer_annihilators`).
SEED_CHECK_ROWS = 2048
#: A block in its transposed orientation is checked whole up to this many entries.
SEED_CHECK_ENTRIES = 2**24


def annihilate_rows(pd: PolyData, spec: BlockSpec, r: int, vectors: list,
                    p: int) -> bool | None:
    """Whether the column vectors (over block ``spec``'s degree-b exponents, in the
    convention K y = 0 of :mod:`seprank.separation.moment.apolar`) vanish on up to
    :data:`SEED_CHECK_ROWS` evenly spaced rows of the block mod p. A block stored in its
    transposed orientation (more columns than rows: L = 1) is built whole for the check
    when it has at most :data:`SEED_CHECK_ENTRIES` entries; None when it has more (not
    checked), or with no vectors.

    >>> import flint
    >>> from seprank.separation.moment.blocks import poly_data
    >>> (t0, t1) = flint.fmpz_mpoly_ctx.get(("t", 2), "deglex").gens()
    >>> pd = poly_data([t0**3], 2, 3)              # d_1 kills t0^3: block 1, y = (0, 1)
    >>> spec = BlockSpec(1, 2, (3, 2))
    >>> annihilate_rows(pd, spec, 1, [(0, 1)], 101), annihilate_rows(pd, spec, 1, [(1, 0)], 101)
    (True, False)
    >>> wide = BlockSpec(1, 0, (1, 2))             # g = t0: K = [1, 0], transposed
    >>> annihilate_rows(poly_data([t0], 2, 1), wide, 1, [(0, 1)], 101)
    True
    """
    tall = _TallBlock(pd, spec, r)
    if not vectors:
        return None
    if tall.transposed:
        if tall.long * tall.short > SEED_CHECK_ENTRIES:
            return None
        B = np.asarray(tall.entries(np.arange(tall.long), p), dtype=np.int64).T % p
    else:
        idx = np.unique(np.linspace(0, tall.long - 1, min(tall.long, SEED_CHECK_ROWS))
                        .astype(np.int64))
        B = np.asarray(tall.entries(idx, p), dtype=np.int64) % p    # K, the catalecticant
    Y = np.array([[int(v) % p for v in y] for y in vectors], dtype=np.int64).T
    acc = np.zeros((B.shape[0], Y.shape[1]), dtype=np.int64)
    step = max(1, 2**62 // (p * p))          # products summed exactly in int64, then reduced
    for c0 in range(0, Y.shape[0], step):
        acc = (acc + B[:, c0:c0 + step] @ Y[c0:c0 + step]) % p
    return not acc.any()


def ideal_certifies(spec: BlockSpec, r: int, transposed: bool, ideal, out: dict) -> bool:
    """Upper bounds from the apolar ideal (:mod:`seprank.separation.moment.apolar`): the
    column kernel holds the known part of Ann_b, the row kernel the known relations of
    order C - b. Marks ``out`` exact when one of them meets its rank.

    >>> from seprank.separation.moment.apolar import ApolarIdeal
    >>> ideal = ApolarIdeal(2, 1000003)
    >>> ideal.add(1, [(1, -1)])              # d_0 - d_1 kills g = (t_0 + t_1)^2 (C = 2)
    >>> out = {"rank": 1, "how": "rank mod p"}       # block 1: K = [[2, 2], [2, 2]]
    >>> ideal_certifies(BlockSpec(1, 1, (2, 2)), 1, False, ideal, out), out["upper"]
    (True, 1)
    """
    if spec.degree is None:
        return False
    upper, side = ideal_upper(spec, r, transposed, ideal)
    if upper != out["rank"]:
        return False
    out.update(upper=upper, kind="exact")
    out.pop("error_bound", None)
    out["how"] += f"; kernel from the apolar ideal ({side}, independent mod p)"
    return True


def ideal_upper(spec: BlockSpec, r: int, transposed: bool, ideal) -> tuple[int, str]:
    """(certified upper bound on the block's rank over Q, why) from the known kernel parts
    (the annihilators of order b extended from order b - 1, the row relations of order
    C - b); also for a block that was never ranked.

    >>> from seprank.separation.moment.apolar import ApolarIdeal
    >>> ideal = ApolarIdeal(2, 1000003)
    >>> ideal.add(1, [(1, -1)])
    >>> ideal_upper(BlockSpec(2, 0, (1, 3)), 1, False, ideal)
    (1, '2 annihilators of order 2')
    """
    rows, cols = spec.shape
    ideal.extend(spec.degree)          # a no-op until lower orders are known; capped in size
    ideal.extend_relations(spec.row_degree, r)
    col_upper = cols - ideal.dim(spec.degree)
    row_upper = rows - ideal.relations_dim(spec.row_degree)
    if col_upper <= row_upper:
        return col_upper, f"{ideal.dim(spec.degree)} annihilators of order {spec.degree}"
    return row_upper, (f"{ideal.relations_dim(spec.row_degree)} row relations of order "
                       f"{spec.row_degree}")


def vandermonde_mix(mus: list[int], degrees: list[int], p: int) -> np.ndarray:
    """Rows ``degrees`` of the inverse of V[k, b] = mus[k]^b mod p (b = 0..len(mus)-1):
    sum_k mix[q, k] f(mu_k) is the coefficient of mu^degrees[q] of a polynomial f of
    degree < len(mus).

    >>> vandermonde_mix([1, 2], [0, 1], 101).tolist()   # f = a + b mu: a = 2f(1) - f(2)
    [[2, 100], [100, 1]]
    """
    m = len(mus)
    V = flint.nmod_mat(m, m, [pow(int(mu), b, p) for mu in mus for b in range(m)], p)
    inv = V.inv()
    return np.array([[int(inv[b, k]) for k in range(m)] for b in degrees], dtype=np.int64)


def evaluation_ranks(fam, data: dict, specs: list[BlockSpec], p: int, rng, *,
                     certify: bool, points: list[int] | None = None) -> list[dict]:
    """Ranks mod p of the given blocks from values of F at random points (module docstring).

    ``points``: points per side for each block (default its cap). Fewer than the cap
    samples the block: E C_b N^T with R x cap monomial value matrices, so the rank mod p
    is a certified lower bound (never ``exact`` below the cap).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> from seprank.models.moment_mod_p import family_residues
    >>> from seprank.separation.moment.blocks import block_specs
    >>> one = [[[[1]]]]
    >>> fam = token_family(SelfAttentionNetwork(1, 1, 1, weights=dict.fromkeys("QKVO", one)), 0)
    >>> specs = block_specs(1, 1, 1, False)          # xi (u + w): two 1 x 1 blocks
    >>> [b["rank"] for b in evaluation_ranks(fam, family_residues(fam, 1000003), specs,
    ...                                      1000003, np.random.default_rng(0), certify=False)]
    [1, 1]
    """
    t0 = time.perf_counter()
    C = fam.degree
    if fam.mixed:
        mus, degrees = [1], [0]
        mix = np.ones((len(specs), 1), dtype=np.int64)
    else:
        mus = list(range(1, C + 2))
        degrees = [s.degree for s in specs]
        mix = vandermonde_mix(mus, degrees, p)
    sizes = [s.cap for s in specs] if points is None else \
        [min(k, s.cap) for k, s in zip(points, specs, strict=True)]
    R = max(sizes, default=0)
    E = data["E"]
    xi = rng.integers(0, p, size=(R, fam.n_rows))
    y_rows = np.zeros((R, fam.d), dtype=np.int64)
    for j in range(fam.n_rows):                          # y_s = P xi_s mod p
        y_rows = (y_rows + xi[:, j, None] * data["P"][None, :, j]) % p
    S_rows = (_sym_points(rng.integers(0, p, size=(R, fam.n_vars)), E, p)
              + data["shift"][None]) % p                 # the shift E_0 once, on rows
    S_cols = _sym_points(rng.integers(0, p, size=(R, fam.n_vars)), E, p)
    mats = pair_block_values(fam, data, S_rows, y_rows, S_cols, np.array(mus), mix, sizes)
    t_eval = time.perf_counter() - t0
    out = []
    for spec, mat, k in zip(specs, mats, sizes, strict=True):
        t1 = time.perf_counter()
        rank, ok = _rank_mod(mat, p, certify) if k else (0, None)
        res = {"rank": rank, "upper": spec.cap, "kind": "exact" if rank == spec.cap
               else "lower_bound", "points": k,
               "how": (f"evaluation: {k} x {k} values at random points, " if k == spec.cap
                       else f"sampled: {k} x {k} values at random points (cap {spec.cap}), ")
                      + f"{len(mus)} scales, rank mod {p}",
               "schwartz_zippel": rank * (C + 1) / p,
               "seconds": round(time.perf_counter() - t1 + t_eval / max(len(specs), 1), 4)}
        if certify:
            res["certificate_verified"] = ok
        out.append(res)
    return out


def _sym_points(T: np.ndarray, E: np.ndarray, p: int) -> np.ndarray:
    """S(t) = sum_e t_e E_e mod p for rows t of T -> (n, d, d)."""
    n, d = T.shape[0], E.shape[1]
    S = np.zeros((n, d, d), dtype=np.int64)
    for e in range(E.shape[0]):
        Ee = E[e].astype(np.int64)
        if Ee.any():
            S = (S + (T[:, e, None, None] * Ee[None]) % p) % p
    return S
