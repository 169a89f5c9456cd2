"""Tests of seprank.papers.wies2021.assignments (wies2021 B.2 Lemmas 5-7)."""

from fractions import Fraction

import numpy as np
import pytest

from seprank.errors import ParameterError
from seprank.papers.wies2021 import assignments as wa


def _A():
    return np.array([[Fraction(3, 5), Fraction(4, 5)], [Fraction(0), Fraction(1)]], dtype=object)


def test_phi_printed_and_corrected():
    # d_a = 5: printed stride 4, corrected stride 2
    assert [wa.phi(j, 5) for j in (1, 2, 6, 7)] == [1, 2, 5, 6]
    assert [wa.phi(j, 5, printed=False) for j in (1, 2, 6, 7)] == [1, 2, 3, 4]


def test_parameters_refused():
    with pytest.raises(ParameterError):
        wa.check_parameters(r=3, H=1, d_a=4)
    with pytest.raises(ParameterError):
        wa.check_parameters(r=4, H=1, d_a=3)
    assert wa.check_parameters(r=5, H=1, d_a=5) == 2


def test_lemma6_corrected_outputs_stated_vectors():
    A = _A()  # n = 2 rows, d = 2 columns; H = 2, d_a = 3 -> d_x = 6, r = 6
    M = wa.lemma6_MV(A, 5, H=2, d_a=3, d=2, printed=False, printed_phi=False)
    assert M.shape == (6, 5)
    Y = wa.vocabulary_embedding(M, [1, 4, 5])
    assert list(Y[0]) == [Fraction(3, 5), 0, 1, Fraction(4, 5), 0, 1]
    assert list(Y[1]) == [0, 0, 1, 0, 1, 1]
    assert list(Y[2]) == [0, 0, 1, 0, 0, 1]
    for i in range(1, 6):
        got = list(wa.vocabulary_embedding(M, [i])[0])
        assert got == wa.lemma6_target(A, i, H=2, d_a=3, d=2, printed_phi=False)


def test_lemma6_printed_phi_drops_a_column():
    A = _A()
    y = wa.lemma6_target(A, 1, H=2, d_a=3, d=2, printed_phi=True)
    assert Fraction(4, 5) not in y  # column 2 of A is never used


def test_lemma6_printed_MV_undefined_without_guard():
    A = np.array([[1]], dtype=object)
    with pytest.raises(wa.PrintedFormulaUndefined):
        wa.lemma6_MV(A, 3, H=1, d_a=5, d=1, printed=True)
    M = wa.lemma6_MV(A, 3, H=1, d_a=5, d=1, printed=False)
    assert list(M[:, 0]) == [1, 0, 0, 0, 1]


def test_lemma6_needs_large_vocabulary():
    with pytest.raises(ParameterError):
        wa.lemma6_MV(_A(), 4, H=2, d_a=3, d=2, printed=False)


def test_lemma5_printed_matches_when_kernel_wide_enough():
    A = _A()  # H = 2, d_a = 3, r = 6 = d_x; k = 2, d_in = 3 -> k d_in = 6 = d_x
    W = wa.conv_W(2, 6, 3, 3, 2)
    for i in range(1, 6):
        X = wa.conv_templates(A, i, k=2, d_x=6, d_in=3, d_a=3, d=2)
        assert list(wa.conv_embedding(W, X)[0]) == wa.lemma6_target(A, i, H=2, d_a=3, d=2)


def test_lemma5_printed_drops_constant_when_narrow_and_packed_fixes_it():
    A = np.array([[1]], dtype=object)  # H = 1, d_a = 5, r = 3 -> d = 1; k d_in = 3 < d_x = 5
    want = wa.lemma6_target(A, 1, H=1, d_a=5, d=1)
    assert want == [1, 0, 0, 0, 1]
    W = wa.conv_W(1, 5, 3, 5, 1)
    X = wa.conv_templates(A, 1, k=1, d_x=5, d_in=3, d_a=5, d=1)
    assert list(wa.conv_embedding(W, X)[0]) == [1, 0, 0, 0, 0]
    Wp = wa.conv_W(1, 5, 3, 5, 1, packed=True)
    Xp = wa.conv_templates(A, 1, k=1, d_x=5, d_in=3, d_a=5, d=1, packed=True)
    assert list(wa.conv_embedding(Wp, Xp)[0]) == want
    assert wa.conv_reshaped(Wp).shape == (5, 3)


def test_lemma7_pi_printed_undefined_and_corrected():
    A = np.array([[1]], dtype=object)
    with pytest.raises(wa.PrintedFormulaUndefined):
        wa.lemma7_pi(A, 1, 1, side="P")
    assert wa.lemma7_pi(A, 1, 2, side="P", printed=False) == [2, 1]
    assert wa.lemma7_pi(A, 1, 2, side="Q", printed=False) == [3, 1]
    A2 = np.array([[1, 2]], dtype=object)  # E = 2: segments t = 1-2 and 3-4
    assert wa.lemma7_pi(A2, 1, 4, side="P", printed=False) == [2, 1, 3, 3]


def test_lemma7_sum_of_embeddings_is_u():
    A = np.array([[1, 2], [2, 1]], dtype=object)  # d = 2; H = 1, d_a = 5, r = 6
    M = wa.lemma7_MV(6, r=6, H=1, d_a=5, printed=False)
    seq = wa.lemma7_sequence(wa.lemma7_pi(A, 1, 4, side="P", printed=False),
                             wa.lemma7_pi(A, 2, 4, side="Q", printed=False), (1, 3, 5, 7))
    total = sum((M[:, i - 1] for i in seq), np.zeros(5, dtype=object))
    assert list(total) == wa.lemma7_u(A, 1, 2, N=8, H=1, d_a=5) == [1, 2, 2, 1, 8]
    # d = m = 2 here, so the printed M_V agrees by accident; with d = 1 it does not
    Mp = wa.lemma7_MV(6, r=6, H=1, d_a=5)
    assert list(sum((Mp[:, i - 1] for i in seq), np.zeros(5, dtype=object))) == list(total)
    Mp = wa.lemma7_MV(4, r=4, H=1, d_a=5)
    assert list(Mp[:, 1] + Mp[:, 2]) == [1, 1, 0, 0, 2]
    assert wa.lemma7_u(np.array([[1]], dtype=object), 1, 1, N=2, H=1, d_a=5) == [1, 0, 1, 0, 2]
    with pytest.raises(ParameterError):
        wa.lemma7_d(r=5, H=1)
