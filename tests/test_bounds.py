"""Tests of the papers' bounds (seprank.papers.*.bounds, seprank.scalars.enclosures): hand-worked
small cases, closed forms, and properties.

Expected values are worked out by hand in the comments (not copied from the
code's output). Papers: levine2020_depth_to_width_self_attention.txt (L) and
wies2021_vocabulary_bottleneck.txt (W).
"""

from fractions import Fraction
from math import comb

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.combinatorics import multiset
from seprank.errors import ParameterError
from seprank.papers.levine2020 import bounds as lv
from seprank.papers.levine2020 import lemma_bounds as lem
from seprank.papers.wies2021 import bounds as ws
from seprank.scalars import enclosures as enc

# --------------------------------------------------------------------------- e and logs


def test_e_bounds_partial_sum_by_hand():
    # S_5 = 1 + 1 + 1/2 + 1/6 + 1/24 + 1/120 = 326/120 = 163/60; tail < 1/(5! * 5) = 1/600
    assert enc.e_bounds(5) == (Fraction(163, 60), Fraction(163, 60) + Fraction(1, 600))


def test_e_bounds_enclose_e():
    lo, hi = enc.e_bounds()
    assert lo < Fraction(2718281828459045, 10**15) < hi
    assert enc.arb_of(lo) < flint.arb.const_e() < enc.arb_of(hi)


@pytest.mark.parametrize("a, b, expected", [
    ((Fraction(2), 0), (Fraction(1), 1), True),        # 2 <= e
    ((Fraction(3), 0), (Fraction(1), 1), False),       # 3 <= e is false
    ((Fraction(1), 1), (Fraction(3), 0), True),        # e <= 3
    ((Fraction(1), 2), (Fraction(74, 10), 0), True),   # e^2 = 7.389... <= 7.4
    ((Fraction(1), 2), (Fraction(738, 100), 0), False),  # e^2 <= 7.38 is false
    ((Fraction(5), 3), (Fraction(5), 3), True),        # equal monomials
])
def test_compare_e_monomials(a, b, expected):
    assert enc.compare_e_monomials(a, b) is expected


def test_compare_e_monomials_rejects_non_positive():
    with pytest.raises(ParameterError):
        enc.compare_e_monomials((Fraction(0), 0), (Fraction(1), 0))


def test_log3_exact_powers_and_domain():
    assert enc.log3(9).contains(2)
    assert enc.log3(Fraction(1, 27)).contains(-3)
    with pytest.raises(ParameterError):
        enc.log3(0)


def test_arb_le_three_outcomes():
    assert enc.arb_le(flint.arb(1), flint.arb(2)) is True
    assert enc.arb_le(flint.arb(2), flint.arb(1)) is False
    assert enc.arb_le(flint.arb(1), flint.arb("1 +/- 0.1")) is None


# --------------------------------------------------------------------------- parameters


def test_heads_dim_and_divisibility():
    assert lv.heads_dim(12, 3) == 4
    with pytest.raises(ParameterError):
        lv.heads_dim(10, 3)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_depth_is_a_parameter_error(bad):
    with pytest.raises(ParameterError):
        lv.thm3_bound(bad, 1, 1)


# --------------------------------------------------------------------------- Theorem 1


def test_regimes_by_hand():
    # 3^2 = 9: d_x = 10 is in Theorem 1's regime, d_x = 8 in Theorem 2's, 9 in neither
    assert lv.thm1_regime(2, 10) and not lv.thm2_regime(2, 10)
    assert lv.thm2_regime(2, 8) and not lv.thm1_regime(2, 8)
    assert not lv.thm1_regime(2, 9) and not lv.thm2_regime(2, 9)


def test_thm1_a_closed_form():
    # a = -L + 2 - log_3 2, so a(2) = -log_3 2 and a(5) = -3 - log_3 2
    assert (lv.thm1_a(2) + enc.log3(2)).contains(0)
    assert (lv.thm1_a(5) + 3 + enc.log3(2)).contains(0)


def test_thm1_lower_by_hand():
    # L = 2, d_x = 10, H = 2: 3^0 (log_3 8 - 2 + 2 - log_3 2) = log_3 4
    assert lv.thm1_lower_pow3(2, 10, 2) == (Fraction(4), Fraction(1))
    assert (lv.thm1_lower_log3(2, 10, 2) - enc.log3(4)).contains(0)
    # L = 1, d_x = 4, H = 1: (1/3)(log_3 3 + 1 - log_3 2) = (1/3) log_3(9/2)
    assert lv.thm1_lower_pow3(1, 4, 1) == (Fraction(9, 2), Fraction(1, 3))
    assert (3 * lv.thm1_lower_log3(1, 4, 1) - enc.log3(Fraction(9, 2))).contains(0)


def test_thm1_lower_undefined_for_H_equal_d_x():
    with pytest.raises(ParameterError):
        lv.thm1_lower_log3(1, 4, 4)
    assert lv.thm1_lower_is_positive(1, 4, 4) is False   # the remark at l.132 fails here
    assert lv.thm1_lower_is_positive(1, 4, 2) is True     # 9 * 2 = 18 > 2 * 3 = 6


def test_thm1_upper_by_hand():
    # (d_x + H)^{C(2)} = 12^4
    assert lv.thm1_upper_pow3(2, 10, 2) == 20736
    assert (lv.thm1_upper_log3(2, 10, 2) - 4 * enc.log3(12)).contains(0)
    # equals Theorem 3 at d_a = d_x / H = 5: (2 * 6)^4
    assert lv.thm3_bound(2, 2, 5) == 20736


# --------------------------------------------------------------------------- Theorem 2


def test_thm2_constants_by_hand():
    assert lv.thm2_b1(3, 4) == -9          # -3 (4/2 + 1)
    assert lv.thm2_c1(5) == 5
    # b_2(d_x=4, H=2) = -4 (1 + log_3(1)/2) = -4
    assert lv.thm2_b2(4, 2).contains(-4)
    with pytest.raises(ParameterError):
        lv.thm2_b2(4, 4)


def test_thm2_lower_by_hand():
    # L = 3, d_x = 4, H = 2: 6 - 3 * 2 - 4 = -4, so 3^{2 lower} = 3^-8
    assert lv.thm2_lower_pow3_squared(3, 4, 2) == Fraction(1, 6561)
    assert lv.thm2_lower_log3(3, 4, 2).contains(-4)


def test_thm2_upper_by_hand():
    # L = d_x = 1: 2 + 1 - 2 log_3(1 / (2 sqrt(2e))) + 0, so 3^upper = 27 * 8e = 216 e
    assert lv.thm2_upper_pow3(1, 1) == (Fraction(216), 1)
    ln3 = flint.arb(3).log()
    assert (lv.thm2_upper_log3(1, 1) - enc.log3(216) - 1 / ln3).contains(0)


def test_thm2_upper_chain_ends_at_theorem_2():
    chain = lv.thm2_upper_chain(3, 5)
    assert len(chain) == 6
    assert chain[-1]["value"] == lv.thm2_upper_pow3(3, 5)
    assert chain[0]["value"] == (lv.thm4_bound(3, 5), 0)


# --------------------------------------------------------------------------- Theorems 3-6, Lemma 2


def test_thm3_by_hand():
    assert lv.thm3_bound(1, 2, 3) == 8          # (2 * 4)^1
    assert lv.thm3_bound(2, 2, 3) == 4096       # (2 * 4)^4


def test_thm4_by_hand():
    # L = 1 (C = 1), d_x = 2: number of chi = 2 ((2, 2)) = 6; each <= 2 (2/2 + 1)^2 = 8
    assert lv.thm4_num_chi(1, 2) == 6
    assert lv.thm4_chi_bound(1, 2) == 8
    assert lv.thm4_bound(1, 2) == 48
    # d_x = 1: 1 * 2 * ((1, 2)) * 3 = 6
    assert lv.thm4_bound(1, 1) == 6
    assert lv.thm6_bound(1, 2) == 96           # one more factor C + 1 = 2


def test_lemma2_by_hand():
    assert lv.lemma2_bound(2, 4, 2, 1) == 256   # 2 * 4^4 / 2
    assert lv.lemma2_bound(1, 6, 3, 2) == 3456  # 6^4 * 8 / 3
    with pytest.raises(ParameterError):
        lv.lemma2_bound(1, 6, 4, 1)             # H must divide d_x


def test_lemma2_term_counts_by_hand():
    # N = 2, d_x = 4, H = 2: index tuples 2 * (4/2) * 4 * 2 * 4 * (4/2) * 4 = 1024;
    # distinct input products (a2, j, a4, a6): 4 * 2 * 4 * 4 = 128
    assert lv.lemma2_term_counts(2, 4, 2) == {"index_tuples": 1024, "input_products": 128}
    counts = lv.lemma2_term_counts(3, 6, 3)
    assert counts["input_products"] <= lv.lemma2_bound(3, 6, 3, 1) <= counts["index_tuples"]


def test_thm5_recursion_by_hand():
    # K_1 = N d_x^4 / H = 32; L = 1: 2 * 32, the same as the printed product
    assert lv.thm5_recursion_bound(1, 2, 2, 1) == lv.thm5_product_bound(1, 2, 2, 1) == 64
    # L = 2: S_2 = 32 (2 * 32)^3, sep <= 3 S_2 = 24 * 32^4, four times 6 * 32^4
    assert lv.thm5_recursion_bound(2, 2, 2, 1) == 24 * 32**4
    assert lv.thm5_recursion_bound(2, 2, 2, 1) == 4 * lv.thm5_product_bound(2, 2, 2, 1)


def test_thm5_by_hand():
    # prod_{l=1}^{L} (l+1) (N d_x^4 / H)^{3^{l-1}} with N = 2, d_x = 2, H = 1 (k = 32)
    assert lv.thm5_product_bound(1, 2, 2, 1) == 64
    assert lv.thm5_product_bound(2, 2, 2, 1) == 64 * 3 * 32**3
    # printed: L log_3 L + (4 log_3 3 + log_3 3 - 0) * 1 = 5 at L = 1, d_x = N = 3, H = 1
    assert lv.thm5_log3_bound(1, 3, 3, 1).contains(5)


# --------------------------------------------------------------------------- Lemmas 3, 4


def test_lemma3_by_hand():
    # n = 2, r = (1, 3): ((2,1)) ((2,3)) = 2 * 4 = 8 <= (4/2 + 1)^2 = 9
    assert lem.lemma3_lhs(2, [1, 3]) == 8
    assert lem.lemma3_rhs(2, [1, 3]) == 9
    # n = 3, r = (1, 3): 3 * 10 = 30 <= ((2+1)(2+2))^2 / 2!^2 = 36
    assert lem.lemma3_lhs(3, [1, 3]) == 30
    assert lem.lemma3_rhs(3, [1, 3]) == 36
    # equal split: n = 3, r = (2, 2): ((3,2))^2 = 36 = ((2+1)(2+2))^2 / 4
    assert lem.lemma3_lhs(3, [2, 2]) == lem.lemma3_rhs(3, [2, 2]) == 36


def test_lemma3_printed_equal_split_misses_the_factorial():
    # n = 3, k = 1, M = 0: phi(0) = ((3, 0)) = 1, but the printed value is (0 + 1)(0 + 2) = 2
    assert lem.lemma3_lhs(3, [0]) == 1
    assert lem.lemma3_equal_split_printed(3, 1, 0) == 2


def test_lemma3_domain():
    with pytest.raises(ParameterError):
        lem.lemma3_rhs(2, [])
    with pytest.raises(ParameterError):
        lem.lemma3_lhs(0, [1])


def test_lemma4_by_hand():
    assert lem.lemma4_rhs(1, 0) == (Fraction(2), 1)           # 2e
    assert lem.lemma4_rhs(2, 2) == (Fraction(16), 2)          # (2e * 4 / 2)^2 = 16 e^2
    assert lem.lemma4_holds(1, 0) is True                      # 1 <= 2e
    assert lem.binomial_upper_e(5, 2) is True                  # 10 <= (5e/2)^2 = 46.2
    # log_3(2e) = log_3 2 + 1/ln 3
    assert (lem.lemma4_rhs_log3(1, 0) - enc.log3(2) - 1 / flint.arb(3).log()).contains(0)


def test_b2_multiset_lower_by_hand():
    assert lem.b2_multiset_lower(3, 2) == 4     # max{(2/2+1)^2, (2/2+1)^2}; ((3,2)) = 6
    assert lem.b2_multiset_lower(2, 5) == 6     # max{(6/5)^5, 6^1} = 6 = ((2, 5))
    with pytest.raises(ParameterError):
        lem.b2_multiset_lower(1, 3)


def test_b2_dims_and_rank():
    assert lem.b2_dims(3, 10, 2) == (4, 3)
    assert lem.b2_rank(3, 10, 2) == comb(6, 3)  # ((4, 3)) = C(6, 3) = 20
    for bad in [(2, 10, 1), (1, 10, 2), (2, 4, 4)]:   # odd d_x - H, L < 2, d = 0
        with pytest.raises(ParameterError):
            lem.b2_dims(*bad)


# --------------------------------------------------------------------------- wies2021


def test_wies_thm3_by_hand():
    # L = 1, 3^L = 3: ((1, 3)) ((4, 3)) 4^1 = 1 * 20 * 4
    assert ws.thm3_bound(1, 1, 0) == 80
    # ((2, 3)) = 4: 4 * 20 * 4^2
    assert ws.thm3_bound(1, 1, 1) == 1280
    assert ws.thm4_bound(2, 3, 1) == ws.thm3_bound(2, 3, 1)


def test_wies_thm3_proof_bound_by_hand():
    # r = r_e = 1: 4 * 20 * (3 + 1) (3 + 1) = 1280, equal to the printed form
    assert ws.thm3_proof_bound(1, 1, 1) == 1280
    # r = 2, r_e = 0: ((2, 3)) ((4, 3)) (3/2 + 1)^2 = 4 * 20 * 25/4 = 500 < 1280
    assert ws.thm3_proof_bound(1, 2, 0) == 500
    assert ws.thm3_bound(1, 2, 0) == 1280


def test_wies_capped_and_corollary():
    assert ws.thm3_bound_capped(1, 5, 0, 2) == ws.thm3_bound(1, 2, 0)
    assert ws.cor1_lower_bound(3, 10, 2) == 20   # ((4, 3))
    with pytest.raises(ParameterError):
        ws.cor1_lower_bound(3, 9, 2)


def test_wies_lemma4_printed_and_proof():
    assert ws.lemma4_printed_holds(1, 0) is False       # 1 >= 2e is false
    assert ws.lemma3_holds(1, 0) is True
    assert ws.lemma4_proof_lower(3, 2) == 4             # ((3+2-1)/2)^2 <= ((3, 2)) = 6
    with pytest.raises(ParameterError):
        ws.lemma4_proof_lower(1, 2)


# --------------------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 80), st.integers(1, 80))
def test_prop_b2_lower_at_most_multiset(n, k):
    assert lem.b2_multiset_lower(n, k) <= multiset(n, k)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 400), st.integers(0, 1000))
def test_prop_lemma4_holds_and_wies_printed_fails(n, k):
    assert lem.lemma4_holds(n, k) is True
    assert ws.lemma4_printed_holds(n, k) is False
    if n >= 2:
        assert ws.lemma4_proof_lower(n, k) <= multiset(n, k)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 25), st.lists(st.integers(0, 60), min_size=1, max_size=8))
def test_prop_lemma3(n, rs):
    lhs, rhs = lem.lemma3_lhs(n, rs), lem.lemma3_rhs(n, rs)
    assert lhs <= rhs
    if len(set(rs)) == 1:
        assert lhs == rhs


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 3), st.integers(1, 6), st.integers(0, 3))
def test_prop_wies_proof_bound_below_printed(L, r, r_e):
    assert ws.thm3_proof_bound(L, r, r_e) <= ws.thm3_bound(L, r, r_e)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 5), st.integers(3, 60), st.data())
def test_prop_b2_rank_below_upper_bounds(L, d_x, data):
    H = data.draw(st.sampled_from([h for h in range(1, d_x) if d_x % h == 0
                                   and (d_x - h) % 2 == 0] or [None]))
    if H is None:
        return
    rank = lem.b2_rank(L, d_x, H)
    assert rank <= lv.thm4_bound(L, d_x)
    assert rank <= lv.thm1_upper_pow3(L, d_x, H)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), st.integers(1, 60), st.data())
def test_prop_thm1_lower_below_upper(L, extra, data):
    d_x = 3**L + extra
    H = data.draw(st.sampled_from([h for h in range(1, d_x) if d_x % h == 0]))
    base, lam = lv.thm1_lower_pow3(L, d_x, H)
    assert base ** lam.numerator <= Fraction(lv.thm1_upper_pow3(L, d_x, H)) ** lam.denominator
    assert lv.thm1_lower_is_positive(L, d_x, H)


@settings(max_examples=200, deadline=None)
@given(st.fractions(min_value=Fraction(1, 100), max_value=100), st.integers(0, 6),
       st.fractions(min_value=Fraction(1, 100), max_value=100), st.integers(0, 6))
def test_prop_compare_e_monomials_agrees_with_arb(qa, ma, qb, mb):
    verdict = enc.compare_e_monomials((qa, ma), (qb, mb))
    e = flint.arb.const_e()
    a, b = enc.arb_of(qa) * e**ma, enc.arb_of(qb) * e**mb
    decided = enc.arb_le(a, b)
    if decided is not None:
        assert verdict is decided
