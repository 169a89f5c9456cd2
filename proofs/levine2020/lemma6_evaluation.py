"""Lemma 6's network evaluated on its sub-matrix's sequences: the helpers of L-Lemma6.

Source: levine2020_depth_to_width_self_attention.txt, B.3, l.720-815. Lemma 6
builds a network of eq. (3) (weights l.740-746) and M + 1 templates (l.750-752)
from a matrix V with unit rows, and says that the M/2 x M/2 sub-matrix of the
grid matricization on the index sets of eq. (29)-(30) is Const * (V
V^T)^(Hadamard 3^(L-2)). The check L-Lemma6 (``l_lemma6.py``) tests every printed
formula by switching the corrections of :mod:`seprank.constructions.lemma6` on
and off; this module holds what its steps share: the rows V (exactly unit
sphere points), the network and templates with a chosen set of corrections,
their outputs over Q(i) on the sub-matrix's sequences, the fit of one constant
c with out = c G^lambda at every output entry, the smallest failing instance of
the search space SEARCH, and the layer-wise quantities of the proof (the
segment sums <v~(h), v~(h)> of eq. (36)-(39)).

Not a check module: it registers nothing.
"""

from __future__ import annotations

import numpy as np

from seprank.constructions import lemma6 as l6
from seprank.constructions.gram_hadamard import gram_hadamard
from seprank.models import SelfAttentionNetwork
from seprank.scalars.gaussian import residues
from seprank.scalars.sphere import sphere_points

#: p = 1 mod 4 (so i has an image), below 2^20 (exact numba engine, as in L-Omega).
PRIME = 1048573
SEED = 6
#: ordered search space for the smallest failing instance: (L, H, d_a, N, M/2)
SEARCH = [(L, H, da, N, half) for L in (2, 3, 4) for H in (1, 2, 3) for da in (3, 5, 7)
          for N in (2, 4) for half in (1, 2, 3)]


def sphere_rows(half: int, d: int, seed: int = SEED, height: int = 2) -> np.ndarray:
    """The matrix V of Lemma 6 (l.722-724): ``half`` x ``d`` rows of norm exactly 1.

    Rational points of the unit sphere (:func:`seprank.scalars.sphere.sphere_points`,
    ``seed`` and ``height`` choose them) for d >= 2, alternating +-1 for d = 1.
    """
    if d == 1:
        out = np.empty((half, 1), dtype=object)
        out[:, 0] = [1 if k % 2 == 0 else -1 for k in range(half)]
        return out
    return sphere_points(half, d, seed=seed, height=height)


def lemma6_network(L, N, H, d_a, corrections):
    """The network of eq. (3) with Lemma 6's weights (l.740-746), d_x = H d_a.

    ``corrections``: the names of :data:`seprank.constructions.lemma6.CORRECTIONS`
    to apply; every other formula is taken as printed.
    """
    W = l6.assignment(L, N, H, d_a, corrected=set(corrections))
    return SelfAttentionNetwork(L, H * d_a, H, d_a, weights=W)


def lemma6_templates(V, H, d_a, corrections):
    """The M + 1 templates of l.750-752 built from V (printed unless corrected).

    ``"template"`` and ``"phi"`` in ``corrections`` switch on the corrected
    templates (l.750) and the corrected map phi (l.752).
    """
    return l6.templates(V, H, d_a, printed="template" not in corrections,
                        printed_phi="phi" not in corrections)


def lemma6_outputs(L, N, H, d_a, V, corrections, I=None):
    """The outputs over Q(i) on the sub-matrix's sequences, and G^lambda flattened.

    The network and templates carry ``corrections``; the sequences are those of
    eq. (29)-(30) (``I``: the positions of the row side, default the first N/2);
    ``out`` has shape (batch, N, d_x) and G = (V V^T)^(Hadamard 3^(L-2)).
    """
    T = lemma6_templates(V, H, d_a, corrections)
    net = lemma6_network(L, N, H, d_a, corrections)
    out = net.evaluate(l6.lemma6_inputs(T, N, I), "QQ(i)")
    G = l6.gram_hadamard(V, 3 ** (L - 2)).ravel()
    return out, G


def fit_constant(out, G):
    """The constants c with out = c G^lambda at every (position, coordinate), Lemma 6's claim.

    c is found from the first nonzero entry of G and confirmed on all the others.
    Returns ``(constants, None)`` with constants[(i, k)] = c, or ``(None, mismatch)``
    with the first entry where no single c fits.
    """
    ref = next((b for b in range(len(G)) if G[b] != 0), None)
    if ref is None:
        return None, {"reason": "G^lambda is zero"}
    consts = {}
    for i in range(out.shape[1]):
        for k in range(out.shape[2]):
            c = out[ref, i, k] / G[ref]
            for b in range(len(G)):
                if out[b, i, k] != c * G[b]:
                    half = int(round(len(G) ** 0.5))
                    return None, {"position_0based": i, "coordinate_0based": k,
                                  "entry_row_col_0based": (b // half, b % half),
                                  "value": str(out[b, i, k]), "c_from_first_entry": str(c),
                                  "c_times_G_lambda": str(c * G[b])}
            consts[(i, k)] = c
    return consts, None


def identity_case(L, N, H, d_a, half, corrections, I=None):
    """Lemma 6's identity at one instance (L, N, H, d_a, M/2 = ``half``) with ``corrections``.

    Returns ``(ok, info)``: ok False when a printed formula is undefined
    (``info["undefined"]``) or no constant fits (``info["mismatch"]``); otherwise
    ``info["c"]`` is the constant, or the number of different constants when the
    coordinates disagree.
    """
    d = H * (d_a - 1) // 2
    V = sphere_rows(half, d)
    try:
        out, G = lemma6_outputs(L, N, H, d_a, V, corrections, I)
    except l6.PrintedFormulaUndefined as exc:
        return False, {"undefined": str(exc)}
    consts, bad = fit_constant(out, G)
    if bad is not None:
        return False, {"mismatch": bad}
    values = set(consts.values())
    if len(values) != 1:
        return True, {"constants_differ_across_coordinates": len(values)}
    return True, {"c": str(values.pop())}


def smallest_failure(corrections):
    """The first instance of :data:`SEARCH` where the identity fails with ``corrections``.

    Returns the instance's sizes (L, H, d_a, N, M, d) with the failure's info, or
    None when every instance of the search space satisfies the identity.
    """
    for L, H, da, N, half in SEARCH:
        ok, info = identity_case(L, N, H, da, half, corrections)
        if not ok:
            return {"L": L, "H": H, "d_a": da, "N": N, "M": 2 * half,
                    "d": H * (da - 1) // 2, **info}
    return None


def all_but(name):
    """Every correction of :data:`seprank.constructions.lemma6.CORRECTIONS` except ``name``.

    With it a step tests one printed formula alone, all the others corrected.
    """
    return frozenset(c for c in l6.CORRECTIONS if c != name)


def gram_hadamard_mod_p(V, lam):
    """(V V^T)^(Hadamard lam) mod :data:`PRIME` as int64 (B.2 eq. (24), l.666-690).

    Exact: d (p-1)^2 < 2^63 for d < 8 10^6.
    """
    G = gram_hadamard(residues(V, PRIME), lam, domain="GF(p)", p=PRIME, backend="numpy")
    return G.astype(np.int64)


def segment_sums(v, H, d_a):
    """s_h = <v~(h), v~(h)> (bilinear, no conjugation) of a layer-1 output v (eq. (36)-(39)).

    v~(h) is the first (d_a - 1)/2 coordinates of head h's segment of v.
    """
    m = (d_a - 1) // 2
    return [sum((v[h * d_a + a] ** 2 for a in range(m)), 0) for h in range(H)]


def project(v, H, d_a, s, scale):
    """scale * sum_h s_h v^(h) as a list: the form of y^(2), y^(3) in eq. (39)-(43).

    v^(h) is head h's segment of v (the other coordinates zero), s the segment sums.
    """
    return [scale * s[k // d_a] * v[k] for k in range(H * d_a)]
