"""R-collapse: the notes' stated goal, ||res(SAN(X))||_{1,inf} -> 0 as L -> infinity.

Source: rank_collapse_notes.txt l.76 ("We want to prove that ||res(SAN(X))||_{1,inf} -> 0
as L -> infinity"), with Theorem 2.2 (l.78-80) and the remark after it (l.82: the
right-hand side -> 0, "the transformer structure will lead to rank losing").

Reading (the R-bound check's): SAN is L layers of single-head softmax attention
Y -> softmax(Y W_QK Y^T / sqrt(d_qk)) Y W_V (rows are tokens, no bias), res(X) = X minus its
column means (for one column, the argmin of ||X - 1 x^T||_2 of l.73 is the mean, so every
reading of res agrees here), ||.||_{1,inf} = sqrt(||.||_1 ||.||_inf).

The goal is stated for every network and input. It is decided on the two-token family of
seprank.papers.rank_collapse.collapse_family (X = [t, -t]^T, d = d_qk = 1, W_QK = w, W_V = v):
one layer maps t to v t tanh(w t^2) (a symbolic identity), so with the rational weights
w = 1, v = 2 and t_0 = 1 the residual grows without bound (interval arithmetic certifies
2 tanh(1) > 1, and the monotonicity argument gives t_L >= (2 tanh 1)^L); with
v = coth(1) it stays exactly constant. The same family shows what condition is needed:
res -> 0 iff v tanh(w t_0^2) < 1 there (a smallness condition linking the weights and the
input's residual, of the kind Theorem 2.2's right-hand side expresses:
(4 beta / sqrt(d_qk)) ||res X||^2 < 1).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from seprank_proofs import RANK_COLLAPSE

from seprank.papers.rank_collapse.collapse_family import (
    collapse_regime,
    iv_digits,
    layer_closed_form,
    orbit_enclosures,
)
from seprank.papers.rank_collapse.pure_attention import mp_bound_sides, mp_san
from seprank.proof import check
from seprank.proof.claims import Claim

SRC = RANK_COLLAPSE

CLAIM = Claim(
    "claim",
    "||res(SAN(X))||_{1,inf} -> 0 as L -> infinity (L layers of pure softmax attention): "
    "deep pure attention loses rank",
    SRC.cite("l.76-82"), asymptotic=True)


def _iv_close(a, b):
    """Do two intervals overlap?"""
    return not (a.b < b.a or b.b < a.a)


@check(id="R-collapse", title="the stated goal res(SAN(X)) -> 0 as L -> infinity",
       source=SRC.cite("l.76-82"), depends=("R-norm", "R-path", "R-bound"), claim=CLAIM,
       paper=RANK_COLLAPSE)
def r_collapse(ctx):
    _one_layer_two_token_closed_form(ctx)
    err = _residual_grows_at_wqk_1_wv_2(ctx)
    _network_follows_the_orbit(ctx)
    _residual_can_stay_constant(ctx)
    _where_the_goal_holds(ctx, err)

    ctx.conclude(
        "false", "proof",
        "an argument valid for every depth L: one layer maps [t, -t]^T to [t', -t'] with "
        "t' = v t tanh(w t^2) (a symbolic identity), and with the rational weights W_QK = 1, "
        "W_V = 2 on X = [1, -1]^T the induction t_{L+1} >= (2 tanh 1) t_L (tanh increasing, "
        "2 tanh 1 > 1 certified in interval arithmetic) gives t_L >= (2 tanh 1)^L -> "
        "infinity; the goal needs a smallness condition on the weights relative to the "
        "input's residual", basis="argument",
        argument_steps=["one softmax layer on X", "the goal for W_QK = 1"])


def _one_layer_two_token_closed_form(ctx):
    with ctx.step("one softmax layer on X = [t, -t]^T (d = d_qk = 1, W_QK = w, W_V = v) outputs "
                  "[t', -t'] with t' = v t tanh(w t^2): symbolic identity of the softmax "
                  "row (e^a t - e^-a t)/(e^a + e^-a) = t tanh(a), a = w t^2; and the network "
                  "evaluation of the R-bound check (mp_san, interval arithmetic) encloses it "
                  "at four points", source=SRC.cite("l.15-22, l.72-76"), kind="symbolic") as s:
        t, v, w = sympy.symbols("t v w", positive=True)
        a = w * t ** 2
        row1 = (sympy.exp(a) * t + sympy.exp(-a) * (-t)) / (sympy.exp(a) + sympy.exp(-a)) * v
        ident = s.could_fail(
            "softmax_row",
            lambda arg: sympy.simplify((row1 - v * t * sympy.tanh(arg)).rewrite(sympy.exp)) == 0,
            a, {"tanh(2 w t^2)": 2 * a})
        cases, bad = [], None
        with iv_digits(40):
            for tv, vv, wv in [(1, 2, 1), (Fraction(1, 2), 3, 2), (2, Fraction(1, 3), 1),
                               (Fraction(3, 4), 1, Fraction(1, 2))]:
                X = mpmath.iv.matrix([[mpmath.iv.mpf(tv.numerator if isinstance(tv, Fraction)
                                                     else tv) /
                                       (tv.denominator if isinstance(tv, Fraction) else 1)],
                                      [0]])
                X[1, 0] = -X[0, 0]
                Wqk = mpmath.iv.matrix([[mpmath.iv.mpf(Fraction(wv).numerator)
                                         / Fraction(wv).denominator]])
                Wv = mpmath.iv.matrix([[mpmath.iv.mpf(Fraction(vv).numerator)
                                        / Fraction(vv).denominator]])
                _y, R = mp_san(mpmath.iv, X, [(Wqk, Wv)], 1)
                closed = layer_closed_form(tv, vv, wv)
                ok = _iv_close(R[0, 0], closed) and _iv_close(R[1, 0], -closed)
                cases.append({"t": str(tv), "v": str(vv), "w": str(wv),
                              "network_R00": str(R[0, 0]), "closed_form": str(closed),
                              "overlap": ok})
                if not ok:
                    bad = bad or cases[-1]
        s.record(symbolic_identity=ident, cases=cases)
        s.require(ident, "the closed form is not an identity")
        s.require(bad is None, "the network disagrees with the closed form", counterexample=bad)


def _residual_grows_at_wqk_1_wv_2(ctx):
    with ctx.step("the goal for W_QK = 1, W_V = 2 (rational, the same in every layer) and "
                  "X = [1, -1]^T, for every depth L: g = 2 tanh(1) > 1 (interval arithmetic) and "
                  "tanh is increasing (d tanh/dt = 1 - tanh^2 > 0, sympy), so t_L >= 1 gives "
                  "t_{L+1} = 2 t_L tanh(t_L^2) >= g t_L >= 1: by induction t_L >= g^L and "
                  "||res SAN(X)||_{1,inf} = sqrt(2) t_L -> infinity; the closed-form orbit is "
                  "enclosed for L <= 8", source=SRC.cite("l.76"), kind="prose",
                  sizes="orbit enclosed for L <= 8") as s:
        regime = collapse_regime(1, 2, 1)
        enc = orbit_enclosures(1, 2, 1, 8)
        tt = sympy.Symbol("t", positive=True)
        increasing = sympy.simplify(sympy.diff(sympy.tanh(tt), tt) - (1 - sympy.tanh(tt) ** 2)) \
            == 0
        growing = all(enc[k + 1].a > enc[k].b for k in range(8))
        s.record(regime=regime, residual_enclosures=[str(x) for x in enc],
                 tanh_derivative_is_1_minus_tanh_squared=increasing,
                 induction="t_0 = 1; t >= 1 => tanh(t^2) >= tanh(1) => t' >= g t >= 1")
        err = None
        if regime["regime"] == "grows without bound" and growing and increasing:
            err = s.erratum(

                "l.76 (and the remark l.82)",
                "||res(SAN(X))||_{1,inf} -> 0 as L -> infinity",
                "false in general: a smallness condition linking the weights and the input's "
                "residual is needed. On two tokens in dimension 1 (W_QK = w, W_V = v, X = [t0, "
                "-t0]^T) the residual tends to 0 iff v tanh(w t0^2) < 1, stays constant iff it "
                "equals 1, and grows without bound otherwise; in general, Theorem 2.2's "
                "right-hand side tends to 0 when (4 beta / sqrt(d_qk)) ||res X||_{1,inf}^2 < 1 "
                "(this rests on Theorem 2.2, R-bound)",
                "false-statement",
                instance={"n": 2, "d": 1, "d_qk": 1, "W_QK": [[1]], "W_V": [[2]],
                          "X": [[1], [-1]], "res_norm_L0": str(enc[0]),
                          "res_norm_L8": str(enc[8]), "g": regime["g_enclosure"]},
                message="the residual grows: t_L >= (2 tanh 1)^L with 2 tanh 1 > 1.52",
                anchor="L \\to \\infty")
    return err


def _network_follows_the_orbit(ctx):
    with ctx.step("cross-check: the network's own evaluation (mp_san in interval arithmetic) at "
                  "W_QK = 1, W_V = 2, X = [1, -1]^T, L = 8 lies in the closed-form orbit's "
                  "enclosure; Theorem 2.2 on this instance for L <= 3 (its bound grows too)",
                  source=SRC.cite("l.76-80"), scope="sizes", sizes="L <= 8") as s:
        enc = orbit_enclosures(1, 2, 1, 8)
        with iv_digits(60):
            X = mpmath.iv.matrix([[1], [-1]])
            layers = [(mpmath.iv.matrix([[1]]), mpmath.iv.matrix([[2]]))] * 8
            _y, R = mp_san(mpmath.iv, X, layers, 1)
            net_res = mpmath.iv.sqrt(2 * abs(R[0, 0]) * abs(R[0, 0]))
        with iv_digits(60):  # the instance does not contradict Theorem 2.2 (its bound grows)
            thm22 = []
            for L in range(1, 4):
                lhs, rhs, _beta = mp_bound_sides(mpmath.iv, [[1], [-1]], [([[1]], [[2]])] * L, 1)
                thm22.append({"L": L, "lhs": str(lhs), "rhs": str(rhs), "lhs<=rhs": lhs.b < rhs.a})
        match = _iv_close(net_res, enc[8])
        s.record(network_residual_L8=str(net_res), network_matches_closed_form=match,
                 theorem_22_on_this_instance=thm22)
        s.require(match, "the network leaves the closed-form orbit")


def _residual_can_stay_constant(ctx):
    with ctx.step("the residual can also stay exactly constant: with W_V = coth(1), W_QK = 1, "
                  "X = [1, -1]^T, one layer maps t = 1 to coth(1) tanh(1) = 1 (symbolic), so "
                  "||res SAN(X)||_{1,inf} = sqrt(2) for every L (bounded weights, no decay)",
                  source=SRC.cite("l.76"), kind="symbolic") as s:
        fixed = s.could_fail("fixed_point",
                             lambda wv: sympy.simplify(wv * sympy.tanh(1)) == 1,
                             sympy.coth(1), {"W_V = coth(2)": sympy.coth(2)})
        s.record(t_next_symbolic=str(sympy.simplify(sympy.coth(1) * 1 * sympy.tanh(1 * 1 ** 2))),
                 fixed_point=fixed, W_V_enclosure=str(1 + 2 / (mpmath.iv.exp(2) - 1)))
        s.require(fixed, "coth(1) tanh(1) is not 1")


def _where_the_goal_holds(ctx, err):
    with ctx.step("where the goal does hold: W_QK = 0 gives uniform attention and res = 0 after "
                  "one layer (exact); in the two-token family, res -> 0 iff v tanh(w t0^2) < 1, "
                  "e.g. for every t0 when v <= 1 (tanh < 1), and then doubly exponentially: "
                  "t_{l+1} <= v w t_l^3; Theorem 2.2's condition 8 v w t0^2 < 1 implies it; "
                  "regimes decided in interval arithmetic on a grid",
                  source=SRC.cite("l.78-82"), corrected=True, scope="sizes",
                  sizes="t0 in {1/4, 1/2, 1, 2}, v in {1/2, 1, 3/2, 3}, w in {1/2, 1, 2}") as s:
        if err is not None:
            s.verifies(err)
        with iv_digits(30):
            X = mpmath.iv.matrix([[3, 1], [-1, 2], [0, 5]])
            _y, R = mp_san(mpmath.iv, X, [(mpmath.iv.matrix([[0, 0], [0, 0]]),
                                           mpmath.iv.matrix([[1, 2], [0, 1]]))], 1)
            uniform_zero = all(abs(R[i, j]).b < mpmath.mpf("1e-25")
                               for i in range(3) for j in range(2))
        grid, bad, thm22_cases = [], None, 0
        for t0 in (Fraction(1, 4), Fraction(1, 2), 1, 2):
            for vv in (Fraction(1, 2), 1, Fraction(3, 2), 3):
                for wv in (Fraction(1, 2), 1, 2):
                    reg = collapse_regime(t0, vv, wv)
                    grid.append({k: str(x) for k, x in reg.items() if k != "g_enclosure"})
                    if vv <= 1 and reg["regime"] != "tends to 0":
                        bad = bad or reg
                    # Theorem 2.2's condition: beta = v w, ||res X|| = sqrt(2) t0, so its
                    # right-hand side tends to 0 iff 4 beta ||res X||^2 < 1, i.e. 8 v w t0^2 < 1
                    if 8 * vv * wv * t0 * t0 < 1:
                        thm22_cases += 1
                        if reg["regime"] != "tends to 0":
                            bad = bad or {"theorem_2.2_condition_without_collapse": reg}
                    enc = orbit_enclosures(t0, vv, wv, 4)
                    if reg["regime"] == "tends to 0" and not enc[4].b < enc[0].a:
                        bad = bad or {"not decreasing": reg}
        s.record(uniform_attention_res_zero=uniform_zero,
                 theorem_22_condition_cases=thm22_cases,
                 theorem_22_condition="(4 beta / sqrt(d_qk)) ||res X||^2 < 1 makes Theorem 2.2's "
                                      "right side tend to 0; here it reads 8 v w t0^2 < 1, which "
                                      "implies v tanh(w t0^2) < 1 (tanh x <= x): consistent",
                 regimes=grid, counts={r: sum(g["regime"] == r for g in grid)
                                       for r in ("tends to 0", "grows without bound",
                                                 "undecided")})
        s.require(uniform_zero, "uniform attention did not collapse the residual")
        s.require(bad is None, "a v <= 1 case did not collapse", counterexample=bad)
