"""Tests of seprank.constructions.lemma6 (levine2020 Lemma 6, B.3 l.720-815)."""

from fractions import Fraction

import numpy as np
import pytest

from seprank.constructions import lemma6 as l6
from seprank.errors import ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.scalars.gaussian import GaussianRational, residues
from seprank.scalars.sphere import sphere_points
from seprank.tensors.grid import submatrix

ALL = l6.CORRECTIONS


def _V(half, d, seed=3):
    if d == 1:
        out = np.empty((half, 1), dtype=object)
        out[:, 0] = [1 if k % 2 == 0 else -1 for k in range(half)]
        return out
    return sphere_points(half, d, seed=seed)


def _outputs(L, N, H, d_a, half=3, corrections=ALL, seed=3):
    V = _V(half, H * (d_a - 1) // 2, seed)
    T = l6.templates(V, H, d_a, printed="template" not in corrections,
                     printed_phi="phi" not in corrections)
    net = SelfAttentionNetwork(L, H * d_a, H, d_a,
                               weights=l6.assignment(L, N, H, d_a, corrected=set(corrections)))
    out = net.evaluate(l6.lemma6_inputs(T, N), "QQ(i)")
    return out, l6.gram_hadamard(V, 3 ** (L - 2)).ravel(), V, T, net


# -- parameters --------------------------------------------------------------------------

@pytest.mark.parametrize("kw, words", [
    (dict(N=2, H=1, d_a=4), "d_a = 4"),
    (dict(N=2, H=1, d_a=1), "d_a = 1"),
    (dict(N=3, H=1, d_a=3), "N = 3 is odd"),
    (dict(N=2, H=2, d_a=3, d_x=7), "does not divide d_x"),
    (dict(N=2, H=2, d_a=3, d_x=8), "d_x = 8 != H d_a"),
    (dict(N=2, H=1, d_a=3, M=5), "M = 5 is odd"),
    (dict(N=2, H=1, d_a=3, L=1), "L (depth) must be >= 2"),
])
def test_impossible_parameters_are_refused(kw, words):
    with pytest.raises(ParameterError, match=words.replace("(", r"\(").replace(")", r"\)")):
        l6.check_parameters(**kw)


def test_assignment_refuses_even_d_a_and_odd_N():
    with pytest.raises(ParameterError, match="odd"):
        l6.assignment(2, 2, 1, 4)
    with pytest.raises(ParameterError, match="balanced"):
        l6.assignment(2, 3, 1, 3)
    with pytest.raises(ParameterError, match="unknown corrections"):
        l6.assignment(2, 2, 1, 3, corrected={"typo"})


def test_index_sets_refuse_odd_M():
    with pytest.raises(ParameterError, match="M = 3"):
        l6.index_sets(2, 3)


# -- the printed formulas ---------------------------------------------------------------

def test_phi_printed_leaves_range_for_two_heads_and_corrected_is_bijective():
    # H = 2, d_a = 3: d = 2, the V coordinates are j = 1 and j = 4
    assert [l6.phi(j, 3) for j in (1, 4)] == [1, 3]          # 3 > d = 2
    assert [l6.phi(j, 3, printed=False) for j in (1, 4)] == [1, 2]
    for H in (1, 2, 3):
        for d_a in (3, 5, 7):
            m = (d_a - 1) // 2
            img = sorted(l6.phi(j, d_a, printed=False) for j in range(1, H * d_a + 1)
                         if (j - 1) % d_a < m)
            assert img == list(range(1, H * m + 1))
    assert all(l6.phi(j, 5) == l6.phi(j, 5, printed=False) for j in range(1, 6))  # H = 1


def test_printed_templates_name_a_missing_row():
    with pytest.raises(l6.PrintedFormulaUndefined, match=r"V\[2, 1\]"):
        l6.templates(_V(1, 1), 1, 3, printed=True)


def test_corrected_templates_layout():
    V = _V(2, 2)
    T = l6.templates(V, 1, 5, printed=False)
    assert T.shape == (5, 5)
    assert list(T[0]) == [V[0, 0], V[0, 1], 0, 0, 1]
    assert list(T[3]) == [0, 0, V[1, 0], V[1, 1], 1]
    assert list(T[4]) == [0, 0, 0, 0, 1]


def test_W_V1_printed_complement_rows_are_constant_only():
    Wp = l6.W_V1(2, 1, 3, 1, printed=True)
    Wc = l6.W_V1(2, 1, 3, 1, printed=False)
    half = Fraction(1, 2)
    i_half = GaussianRational(0, half)
    assert list(Wp[1]) == [0, 0, half]
    assert list(Wc[1]) == [-half, -i_half, half]
    assert list(Wc[0]) == [half, i_half, 0]
    assert list(Wc[2]) == [0, 0, half]


def test_small_weight_matrices():
    assert [(i, j) for i, j in zip(*np.nonzero(l6.W_KQ1(2, 3) != 0), strict=True)] == [(0, 2)]
    K2 = l6.W_KQ2(2, 5, 2)
    assert [(i, j) for i, j in zip(*np.nonzero(K2 != 0), strict=True)] == [(0, 5), (1, 6)]
    assert list(l6.W_KQ_later(2, 3)[0]) == [1, 1, 0, 1, 1, 0]
    assert (l6.W_V_mid(2, 3, 2)[:, 3:] == np.eye(3, dtype=object)).all()
    assert (l6.W_O(2, 3, 2)[3:] == np.eye(3, dtype=object)).all()
    tiled = l6.W_O(2, 3, 1, last=True, printed=False)
    assert (tiled[:3] == np.eye(3, dtype=object)).all() and (tiled[3:] == tiled[:3]).all()
    assert list(l6.W_V_last(2, 3, 2)[0]) == [0, 0, l6.I_UNIT, 0, 0, 0]
    assert list(l6.W_V_last(2, 3, 2, printed=False)[0]) == [0, 0, 0, 0, 0, l6.I_UNIT]


# -- the identity ------------------------------------------------------------------------

def test_constant_formula():
    for N in (2, 4, 6):
        assert l6.lemma6_constant(2, N, 5) == Fraction(-2, N)
        for d_a in (3, 5, 7):
            m = (d_a - 1) // 2
            assert l6.lemma6_constant(3, N, d_a) == Fraction(8 * m * m, N * N)
            assert l6.lemma6_constant(4, N, d_a) == Fraction(-(2 ** 9) * m ** 8, N ** 5)


@pytest.mark.parametrize("L, H, d_a, N", [(2, 1, 3, 2), (2, 2, 5, 4), (3, 1, 5, 2),
                                          (3, 2, 3, 4), (3, 3, 7, 2), (4, 2, 5, 2)])
def test_corrected_identity_every_position_and_coordinate(L, H, d_a, N):
    out, G, *_ = _outputs(L, N, H, d_a)
    c = l6.lemma6_constant(L, N, d_a)
    assert all(out[b, i, k] == c * G[b] for b in range(len(G)) for i in range(N)
               for k in range(H * d_a))


def test_printed_last_layer_fails_for_two_heads_only():
    others = frozenset(ALL) - {"last_layer"}
    out, G, *_ = _outputs(2, 2, 1, 5, corrections=others)
    c = l6.lemma6_constant(2, 2, 5)
    assert all(out[b, 0, 0] == c * G[b] for b in range(len(G)))
    out, G, *_ = _outputs(2, 2, 2, 3, corrections=others)
    ratios = {out[b, 0, 0] / G[b] for b in range(len(G)) if G[b] != 0}
    assert len(ratios) > 1


def test_printed_W_V1_fails_from_depth_3():
    others = frozenset(ALL) - {"W_V1"}
    out, G, *_ = _outputs(2, 2, 1, 3, corrections=others)  # L = 2 does not use the complements
    assert all(out[b, 0, 0] == l6.lemma6_constant(2, 2, 3) * G[b] for b in range(len(G)))
    out, G, *_ = _outputs(3, 2, 1, 3, corrections=others)
    ratios = {out[b, 0, 0] / G[b] for b in range(len(G)) if G[b] != 0}
    assert len(ratios) > 1


def test_submatrix_on_index_sets_matches_direct_and_mod_p():
    out, G, V, T, net = _outputs(3, 4, 2, 5, half=2)
    I, rows, cols = l6.index_sets(4, 4)
    assert I == (0, 1) and rows == [(0, 4), (1, 4)] and cols == [(2, 4), (3, 4)]
    sub = submatrix(net.as_function(1, 3, "QQ(i)"), T, 4, I, None, rows, cols)
    assert (sub.ravel() == out[:, 1, 3]).all()
    p = 1048573
    subp = submatrix(net.as_function(1, 3, "GF(p)", p=p), T, 4, I, None, rows, cols)
    assert (residues(sub, p) == subp).all()


def test_gram_hadamard():
    V = np.array([[Fraction(3, 5), Fraction(4, 5)], [1, 0]], dtype=object)
    assert l6.gram_hadamard(V, 3).tolist() == [[1, Fraction(27, 125)], [Fraction(27, 125), 1]]
