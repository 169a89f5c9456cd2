"""A residual network's C_F is at least as large as its leading forms': the plain network.

Setting (:mod:`seprank.separation.moment`, Proposition 3; levine2020 A.4 for residual
connections). With residual connections every layer is Phi_l(T) = I + sum_h P_h T B_h
(P_h = O_h V_h, B_h = K_h^T Q_h), so G_L(S) has every degree 0..C in S, and C_F is
ranked whole (:func:`~seprank.separation.moment.blocks.block_specs`).

Lemma 1 (the leading forms are the plain network). The part of degree C = C(L) of the
residual G_L(S) is the plain G_L(S) with the same weights. Proof: G_1 = I + G_1', where
G_1' = sum_h P_h S B_h is the plain first layer; G_{l+1} = Phi_{l+1}(G_l S G_l^T) G_l.
The degree-C(l) part of a product of polynomial matrices whose factors have degrees
<= c_1, c_2, ... and sum c is the product of their degree-c_i parts (every other
choice of parts has lower degree), and the parts of top degree are, by induction, the
plain network's: S_{l+1} = G_l S G_l^T has top part G_l' S G_l'^T, and Phi_{l+1} has
top part sum_h P_h S_{l+1}' B_h (the identity has degree 0). (Checked against the
expansion in tests/test_leading_forms.py.)

Lemma 2 (block triangular). Order C_F's rows (x_k U^alpha) by decreasing |alpha| and its
columns (W^gamma) by increasing |gamma|. The entry of (k, alpha) and gamma is a
coefficient of g_k of degree |alpha| + |gamma|, zero when |alpha| + |gamma| > C: the
matrix is block lower triangular, and its diagonal blocks (|alpha| + |gamma| = C) are
the blocks of the leading forms' C_F, i.e. of the plain network (Lemma 1). A block lower
triangular matrix has rank >= the sum of its diagonal blocks' ranks (a nonzero minor
of each diagonal block, together, index a square submatrix that is block triangular
with nonsingular diagonal blocks). Hence

    rank_Q C_F(residual) >= sum_b rank_Q(block b of the plain network, same weights),

and every certified lower bound of the plain blocks (a rank mod p) is one of the
residual C_F: for every weight, and so for the generic ranks too. The upper bound
is the residual matrix's own: the layered staircase, valid for every weight
(:func:`~seprank.network_theory.generic_laws.layered_staircase_bound`, below the plain
staircase :func:`~seprank.separation.moment.blocks.staircase_bound`), or the staircase
split ranked over Q. Where the layered staircase equals the plain network's counted bound
(every L <= 5, d_x <= 7, H | d_x) and the plain network meets that bound, the two meet:
the residual value is exact, and it is the generic value.

The route ranks the plain network's blocks (with every certificate the plain route has:
the counted bound, the apolar ideal, the word's directions) before the residual matrix,
and ranks the residual matrix itself only where the leading forms are below its bound
and the plan can afford more points than they certify (:func:`whole_matrix_can_add`).
One head (:func:`word_bound`). The plain word's rank-one directions
(:mod:`~seprank.separation.moment.word_directions`) give m' annihilators of order k of the
plain g_j; when every sub-word of the residual G_L keeps the free degree below k
(:func:`~seprank.separation.moment.word_directions.residual_free_degree`) they kill the
residual g_j too, and the staircase's columns of order <= s (k <= s) lose m' of their
count: rank C_F <= min_s M(D, <= s) - m' [k <= s] + d_x M(D, <= C - s - 1), for every
weight (the closure argument of word_directions).
"""

from __future__ import annotations

import numpy as np

__all__ = ["applies", "leading_network", "whole_matrix", "whole_matrix_can_add",
           "leading_record", "word_bound", "leading_plan"]


def applies(fam) -> bool:
    """Whether Lemma 2 is used: plain tokens (no embedding, no shift) with residual
    connections.

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> net = SelfAttentionNetwork.random(2, 2, 1, residual=True, seed=0, nonzero=True)
    >>> applies(token_family(net, 0)), applies(token_family(leading_network(net), 0))
    (True, False)
    """
    return fam.label == "tokens" and fam.residual and fam.shift is None


def leading_network(net):
    """The plain network with ``net``'s weights: its G_L is the leading form of ``net``'s
    (Lemma 1).

    >>> from seprank.models import SelfAttentionNetwork
    >>> net = SelfAttentionNetwork.random(2, 4, 2, residual=True, seed=1, nonzero=True)
    >>> top = leading_network(net)
    >>> top.residual, bool((top.weights["Q"] == net.weights["Q"]).all())
    (False, True)
    """
    from seprank.models.network import SelfAttentionNetwork

    return SelfAttentionNetwork(net.L, net.d_x, net.H, net.d_a, residual=False,
                                weights=net.weights)


def whole_matrix(fam) -> np.ndarray:
    """A residual family's C_F as one exact integer matrix (rows (j, alpha) with |alpha|
    <= C, columns gamma with |gamma| <= C, every degree at once; the denominators cleared
    by one common factor), for independent checks of the route: its rank over Q is the
    separation rank (Proposition 2), and Lemma 2 bounds it below by the leading forms'.

    >>> import flint
    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> net = SelfAttentionNetwork.random(1, 2, 1, residual=True, seed=0, nonzero=True)
    >>> M = whole_matrix(token_family(net, 0))
    >>> M.shape, flint.fmpz_mat(M.tolist()).rank()    # 2 x 4 rows, 4 columns (C = 1, D = 3)
    ((8, 4), 3)
    """
    from seprank.network_theory.moment_form import moment_polynomials
    from seprank.separation.moment.blocks import block_entries, exponents
    from seprank.separation.moment.run import integer_poly_data

    pd = integer_poly_data(moment_polynomials(fam), fam.n_vars, fam.degree)
    alphas = exponents(fam.n_vars, fam.degree, up_to=True)
    rows = np.repeat(np.arange(fam.n_rows), len(alphas))
    return block_entries(pd, rows, np.tile(alphas, (fam.n_rows, 1)), alphas)


def whole_matrix_can_add(plan_block: dict, leading_rank: int, seconds_left: float) -> bool:
    """Whether ranking the residual matrix itself could raise the leading forms' bound
    within the time left: it is ranked in full (catalecticant or evaluation), or sampled
    at more points than ``leading_rank`` (a sample of n points shows rank <= n), and its
    own estimate (``seconds`` of its plan block, :func:`leading_plan`) is within
    ``seconds_left``.

    >>> whole_matrix_can_add({"method": "sampled", "points": 3102, "seconds": 4.0}, 2441,
    ...                      500.0)
    True
    >>> whole_matrix_can_add({"method": "sampled", "points": 19506, "seconds": 600.0},
    ...                      31456, 500.0)
    False
    >>> whole_matrix_can_add({"method": "catalecticant", "cap": 4263}, 4263, 500.0)
    False
    """
    if plan_block.get("method") == "skipped" or \
            leading_rank >= plan_block.get("cap", leading_rank + 1):
        return False
    if plan_block.get("method") == "sampled" and plan_block.get("points", 0) <= leading_rank:
        return False
    return float(plan_block.get("seconds", 0.0)) <= seconds_left


def leading_record(rec: dict | None, spec, blocks: list[dict], seconds: float, *,
                   word: str | None = None) -> dict:
    """The residual matrix's record raised to the leading forms' certified bound (Lemma 2):
    ``rec`` is the record of the residual matrix ranked itself (None: not ranked), ``spec``
    its :class:`~seprank.separation.moment.blocks.BlockSpec`, ``blocks`` the plain
    network's block records, ``word`` why its cap came from :func:`word_bound` (or None).

    >>> from seprank.separation.moment.blocks import BlockSpec
    >>> spec = BlockSpec(None, None, (70, 35), bound=18)
    >>> top = [{"rank": 17, "kind": "exact"}]
    >>> out = leading_record(None, spec, top, 0.5)
    >>> out["rank"], out["upper"], out["kind"], out["method"]
    (17, 18, 'lower_bound', 'leading forms')
    >>> leading_record(None, BlockSpec(None, None, (70, 35), bound=17), top, 0.5)["kind"]
    'exact'
    """
    lead = sum(b["rank"] for b in blocks)
    exact = sum(b["kind"] == "exact" for b in blocks)
    text = (f"leading forms: the plain network with these weights has blocks of certified "
            f"ranks summing to {lead} ({exact} of {len(blocks)} blocks exact); they are the "
            "diagonal blocks of this block-triangular matrix, so rank >= "
            f"{lead} (leading_forms, Lemma 2)")
    if rec is None:
        rec = {"degree": spec.degree, "shape": list(spec.shape), "cap": spec.cap,
               "method": "leading forms", "rank": lead, "upper": spec.cap,
               "kind": "lower_bound", "seconds": round(seconds, 4),
               "how": text + ("; they meet the bound for every weight, so the matrix itself "
                              "is not ranked" if lead == spec.cap else "; the matrix itself "
                              "not ranked (its plan could not add to them)")}
    elif lead > rec["rank"]:
        rec = dict(rec, rank=lead, how=rec["how"] + "; " + text,
                   seconds=round(rec.get("seconds", 0.0) + seconds, 4))
    rec["leading_blocks"] = [[b["degree"], b["rank"], b["upper"], b["kind"]] for b in blocks
                             if "degree" in b]
    if word:
        rec["how"] += "; upper bound: " + word
    if rec["rank"] > rec["upper"]:
        raise AssertionError(f"leading forms: certified rank {rec['rank']} above the "
                             f"certified upper bound {rec['upper']} (a defect; please report)")
    if rec["rank"] == rec["upper"]:
        rec["kind"] = "exact"
    return rec


def word_bound(net, found: dict | None) -> tuple[int, str] | None:
    """(bound on the residual C_F's rank for every weight, why) from the plain word's
    rank-one directions (module docstring, "One head"); None where they do not apply (more
    than one head, L > 4, no word annihilators: ``found`` None, a sub-word free to degree
    k). ``found``: the plain network's word annihilators
    (:func:`~seprank.separation.moment.word_directions.word_annihilators` of the leading
    network's family, which the plain blocks' run finds once and keeps).

    >>> from seprank.models import SelfAttentionNetwork
    >>> from seprank.network_theory.moment_form import token_family
    >>> from seprank.separation.moment.word_directions import word_annihilators
    >>> net = SelfAttentionNetwork.random(3, 4, 1, residual=True, seed=0, nonzero=True)
    >>> found = word_annihilators(token_family(leading_network(net), 0), 1048573)
    >>> word_bound(net, found)[0]          # the staircase 31460 less the word's 4
    31456
    >>> word_bound(net, None) is None
    True
    """
    from seprank.separation.moment.blocks import staircase_bound
    from seprank.separation.moment.word_directions import residual_free_degree

    if net.H != 1 or not 1 <= net.L <= 4 or found is None:
        return None
    k = found["degree"]
    worst, subwords = residual_free_degree(net.L, set(found["killed"]), found["first"])
    if worst >= k:
        return None
    m = found["independent"]
    bound = staircase_bound(net.d_x, net.d_x * (net.d_x + 1) // 2, (3**net.L - 1) // 2,
                            kernel=(k, m))
    return bound, (f"the word's {m} annihilators of order {k} ({found['conditions']}) kill "
                   f"the residual g_j too: its {subwords} sub-words keep at most {worst} "
                   f"positions free (word_directions.residual_free_degree), so rank <= "
                   f"{bound} for every weight")


def leading_plan(whole, lead, whole_expected: bool):
    """The plan of a residual network (a :class:`~seprank.separation.moment.plan.MomentPlan`):
    the plain network's plan ``lead`` first, then the residual matrix's own plan ``whole``
    only when ``whole_expected`` (the plain caps sum below the residual cap, so the
    leading forms cannot meet it); seconds, work and peak bytes add up accordingly.

    >>> from seprank.separation.moment.plan import MomentPlan
    >>> whole = MomentPlan([{"method": "sampled"}], False, {}, 600.0, 2**30, ["sampled"])
    >>> lead = MomentPlan([{"method": "catalecticant"}], True, {"terms": 9}, 40.0, 2**29)
    >>> p = leading_plan(whole, lead, False)
    >>> p.seconds, p.peak_bytes == 2**29, p.expand, p.blocks[0]["expected"]
    (40.0, True, True, 'not ranked: the leading forms are expected to meet its cap')
    >>> p.blocks[0]["seconds"]          # the residual matrix's own estimate
    600.0
    >>> leading_plan(whole, lead, True).seconds
    640.0
    """
    from dataclasses import replace

    block = dict(whole.blocks[0], seconds=round(whole.seconds, 3))
    block["expected"] = ("ranked where the leading forms stay below its cap" if whole_expected
                         else "not ranked: the leading forms are expected to meet its cap")
    reasons = [f"leading forms: the plain network with these weights first ({len(lead.blocks)} "
               f"blocks, about {lead.seconds:.3g} s): " + "; ".join(lead.reasons)]
    if whole_expected:
        return replace(whole, blocks=[block], expand=whole.expand or lead.expand,
                       seconds=whole.seconds + lead.seconds,
                       peak_bytes=max(whole.peak_bytes, lead.peak_bytes),
                       reasons=reasons + whole.reasons, work=tuple(lead.work) + tuple(whole.work))
    return replace(lead, blocks=[block], reasons=reasons + [
        "the residual matrix itself: " + "; ".join(whole.reasons)] if whole.reasons else reasons)
