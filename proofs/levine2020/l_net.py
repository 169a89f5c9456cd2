"""L-net: the analyzed self-attention network, evaluated exactly over Z, Q, Q(i), GF(p).

Source: levine2020_depth_to_width_self_attention.txt, sec. 2.2, eq. (3),
l.71-75 (the layer), l.75-77 (depth by composition), l.81 (4LH weight matrices),
and A.4, fig. 5, l.478-484 (the residual variant).

Why: every other check of the paper evaluates this network (through
:class:`seprank.models.SelfAttentionNetwork`), so its evaluator is checked
against the printed definition first, over every domain the checks use.

Steps: the vectorized evaluator against a literal transcription of eq. (3)
(rational and Gaussian weights, d_a = d_x/H and other d_a); a hand-worked case
showing unnormalized, unscaled scores; depth = composition of layers;
homogeneity of degree 3^L; agreement of the domains (Z = Q, Q mod p = GF(p),
Q(i) mod (p, i - s) = GF(p), float64 within a forward-error bound computed
exactly); the residual variant against its literal form and its polynomial
structure in a scaling of the input (only odd degrees, X itself in degree 1,
the plain network in degree 3^L); the weight count 4LH.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from seprank_proofs import LEVINE2020
from seprank_proofs.levine2020.chain_induction import homogeneity_step

from seprank.models import SelfAttentionNetwork
from seprank.models.reference import gaussian_batch, literal_outputs, rational_batch
from seprank.proof.scaffold import paper_check
from seprank.scalars.gaussian import residues, sqrt_minus_one

SRC = LEVINE2020
SEED = 20200603

#: (L, d_x, H, d_a, N) compared with the literal transcription of eq. (3)
LITERAL = {False: [(1, 2, 1, None, 3), (1, 4, 2, None, 3), (2, 3, 1, None, 2), (2, 4, 2, 3, 3),
                   (1, 3, 2, 2, 4)],
           True: [(1, 2, 1, None, 3), (1, 4, 2, None, 3), (2, 3, 1, None, 2), (2, 4, 2, 3, 3),
                  (1, 3, 2, 2, 4), (3, 2, 2, None, 3), (2, 6, 3, None, 4), (3, 4, 2, 1, 3)]}
HOMOGENEITY = {False: [(1, 3, 1), (2, 4, 2), (3, 2, 1)], True: [(1, 3, 1), (2, 4, 2), (3, 2, 1),
                                                              (3, 4, 2), (4, 2, 1)]}
PRIMES = (13, 101, 1048573, 2**31 - 1)  # 2^31 - 1 exercises the split (16-bit limb) product
GAUSS_PRIMES = (13, 1000033)


def _nonvanishing(L, d_x, H, X, *, seed, residual=False):
    """The first seed from ``seed`` on whose random network is nonzero on X (small integer
    weights can vanish on all inputs by chance, e.g. W^O with equal rows feeding a W^K
    with equal columns)."""
    for k in range(50):
        net = SelfAttentionNetwork.random(L, d_x, H, residual=residual, seed=seed + k,
                                          nonzero=True)
        plain = SelfAttentionNetwork(L, d_x, H, weights=net.weights)
        if any(v != 0 for v in plain.evaluate(X, "QQ").flat):
            return net, seed + k
    raise RuntimeError("no seed gave a nonvanishing network")


def _interpolate(ts: list[Fraction], values: list) -> list:
    """Coefficients c_0..c_n of the polynomial through (t_k, values[k]) (exact Newton form)."""
    n = len(ts)
    coef = list(values)
    for j in range(1, n):  # divided differences
        for k in range(n - 1, j - 1, -1):
            coef[k] = (coef[k] - coef[k - 1]) / (ts[k] - ts[k - j])
    poly = [0] * n  # expand the Newton form into monomial coefficients
    for k in range(n - 1, -1, -1):
        poly = [(poly[m - 1] if m else 0) - ts[k] * poly[m] for m in range(n)]
        poly[0] += coef[k]
    return poly


def _step_literal_transcription(ctx, rng):
    """Step 1: the evaluator against eq. (3) written out, over Q and Q(i)."""
    with ctx.step("eq. (3): layer l outputs y^{l,i} = sum_j sum_h <W^Q x^i, W^K x^j> W^O W^V x^j "
                  "at every position i, and the depth-L network composes L such layers; the "
                  "vectorized evaluator equals a literal entry-by-entry transcription, over Q "
                  "(rational weights) and over Q(i) (Gaussian weights), for d_a = d_x/H and "
                  "for other d_a", source=SRC.cite("eq. (3) l.71-81"), scope="sizes",
                  sizes="(L, d_x, H, d_a, N) of LITERAL: L <= 3, d_x <= 6, N <= 4") as s:
        cases = []
        for n_case, (L, d_x, H, d_a, N) in enumerate(LITERAL[ctx.full]):
            for kind, domain in (("rational", "QQ"), ("gaussian", "QQ(i)")):
                net = SelfAttentionNetwork.random(L, d_x, H, d_a, seed=SEED + n_case, kind=kind)
                X = (rational_batch if kind == "rational" else gaussian_batch)(rng, 2, N, d_x)
                got = net.evaluate(X, domain)
                want = literal_outputs(net, X)
                same = all(got[b][i][r] == want[b][i][r] for b in range(2) for i in range(N)
                           for r in range(d_x))
                case = {"L": L, "d_x": d_x, "H": H, "d_a": net.d_a, "N": N, "domain": domain,
                        "batch": 2, "equal": same, "example_output": str(got[0][0][0])}
                cases.append(case)
                s.require(same, "vectorized evaluation differs from eq. (3) written out",
                          counterexample=dict(case, X=X.tolist(), got=got.tolist(), want=want))
        s.record(cases=cases)


def _step_unnormalized_scores(ctx, rng):
    """Step 2: scores unnormalized and unscaled, on the scalar network."""
    with ctx.step("The scores are used unnormalized and unscaled (no softmax, no 1/sqrt(d_a)): "
                  "with d_x = d_a = H = 1 and weights q, k, v, o, one layer gives "
                  "y^i = q k o v x_i sum_j x_j^2", source=SRC.cite("l.71-75 (vs eq. (1) l.59-63)"),
                  scope="sizes", sizes="d_x = d_a = H = 1, L = 1, N = 3, 6 random weights") as s:
        rows = []
        for _ in range(6):
            q, k, v, o = (Fraction(int(a), int(b)) for a, b in
                          zip(rng.integers(-5, 6, 4), rng.integers(1, 5, 4), strict=True))
            xs = [Fraction(int(a), int(b)) for a, b in
                  zip(rng.integers(-5, 6, 3), rng.integers(1, 5, 3), strict=True)]
            net = SelfAttentionNetwork(1, 1, 1, weights={"Q": [[[[q]]]], "K": [[[[k]]]],
                                                         "V": [[[[v]]]], "O": [[[[o]]]]})
            got = [y[0] for y in net.evaluate([[[x] for x in xs]], "QQ")[0]]
            sq = sum(x * x for x in xs)
            want = [q * k * o * v * x * sq for x in xs]
            rows.append({"q,k,v,o": [str(t) for t in (q, k, v, o)], "x": [str(t) for t in xs],
                         "y": [str(t) for t in got]})
            s.require(got == want, "one-layer scalar network differs from q k o v x_i sum x_j^2",
                      counterexample=rows[-1])
        s.record(instances=rows)


def _step_depth_by_composition(ctx, rng):
    """Step 3: the depth-L network is the composition of its layers."""
    with ctx.step("Depth by composition: the depth-L network equals its L layers applied one "
                  "after the other (x^{l+1,j} = y^{l,j}), with and without residual connections",
                  source=SRC.cite("l.75-77; A.4 l.483"), scope="sizes",
                  sizes="L in 2, 3, d_x = 3, H = 1, N = 3") as s:
        cases = []
        for residual in (False, True):
            for L in (2, 3):
                net = SelfAttentionNetwork.random(L, 3, 1, residual=residual, seed=SEED + L,
                                                  kind="rational")
                X = rational_batch(rng, 3, 3, 3)
                whole = net.evaluate(X, "QQ")
                step_by_step = X
                for layer in range(L):
                    step_by_step = net.sub_network([layer]).evaluate(step_by_step, "QQ")
                same = bool((whole == step_by_step).all())
                cases.append({"L": L, "residual": residual, "equal": same})
                s.require(same, "network differs from the composition of its layers",
                          counterexample=cases[-1])
        s.record(cases=cases)


def _step_homogeneity(ctx, rng):
    """Step 4: the output is homogeneous of degree 3^L."""
    with ctx.step("Each layer is a homogeneous cubic in its inputs, so the depth-L output is "
                  "homogeneous of degree 3^L: y(tX) = t^(3^L) y(X) exactly, with y(X) != 0 "
                  "(a cross-check of the next step)",
                  source=SRC.cite("l.75 ('3 copies of its input'); Lemma 1 l.329-378"),
                  scope="sizes", sizes="(L, d_x, H) of HOMOGENEITY: L <= 4, d_x <= 4") as s:
        cases = []
        for L, d_x, H in HOMOGENEITY[ctx.full]:
            X = rational_batch(rng, 2, 3, d_x)
            net, seed = _nonvanishing(L, d_x, H, X, seed=SEED + 10 * L)
            y = net.evaluate(X, "QQ")
            nonzero = any(v != 0 for v in y.flat)
            for t in (Fraction(2), Fraction(-1, 3)):
                yt = net.evaluate(X * t, "QQ")
                ok = bool((yt == y * t ** (3 ** L)).all())
                cases.append({"L": L, "d_x": d_x, "H": H, "seed": seed, "t": str(t),
                              "degree": 3 ** L,
                              "homogeneous": ok, "output_nonzero": nonzero})
                s.require(ok and nonzero, f"y(tX) != t^{3 ** L} y(X) (or y = 0)",
                          counterexample=cases[-1])
        s.record(cases=cases)


def _step_domains_agree(ctx, rng):
    """Step 5: ZZ, QQ, QQ(i) and GF(p) evaluations agree."""
    with ctx.step("The domains agree where they must: ZZ = QQ on integer data; the QQ output "
                  "reduced mod p equals the GF(p) evaluation; the QQ(i) output reduced mod "
                  "(p, i - s) equals the GF(p) evaluation with i -> s (p = 1 mod 4); QQ(i) with "
                  "real weights and inputs equals QQ", source=SRC.cite("eq. (3) l.73"),
                  scope="sizes", sizes="L = 2, d_x = 4, H = 2, N = 3") as s:
        cases = []
        net_i = SelfAttentionNetwork.random(2, 4, 2, seed=SEED + 1, nonzero=True)
        Xi = rng.integers(-3, 4, size=(3, 3, 4))
        zz, qq = net_i.evaluate(Xi, "ZZ"), net_i.evaluate(Xi, "QQ")
        cases.append({"what": "ZZ = QQ", "equal": bool((zz == qq).all())})
        net_q = SelfAttentionNetwork.random(2, 4, 2, seed=SEED + 2, kind="rational")
        Xq = rational_batch(rng, 3, 3, 4)
        exact = net_q.evaluate(Xq, "QQ")
        for p in PRIMES:
            mod = net_q.evaluate(Xq, "GF(p)", p=p)
            cases.append({"what": "QQ mod p = GF(p)", "p": p,
                          "equal": bool((residues(exact, p) == mod).all())})
        net_g = SelfAttentionNetwork.random(2, 4, 2, seed=SEED + 3, kind="gaussian")
        Xg = gaussian_batch(rng, 3, 3, 4)
        gauss = net_g.evaluate(Xg, "QQ(i)")
        for p in GAUSS_PRIMES:
            mod = net_g.evaluate(Xg, "GF(p)", p=p)
            cases.append({"what": "QQ(i) mod (p, i - s) = GF(p)", "p": p,
                          "s": sqrt_minus_one(p),
                          "equal": bool((residues(gauss, p) == mod).all())})
        real_as_gauss = net_q.evaluate(Xq, "QQ(i)")
        cases.append({"what": "QQ(i) = QQ on real data",
                      "equal": bool((real_as_gauss == exact).all())})
        s.record(cases=cases)
        for c in cases:
            s.require(c["equal"], f"domains disagree: {c['what']}", counterexample=c)


def _step_float_forward_error(ctx, rng):
    """Step 6: the float64 evaluator within an exact forward-error bound."""
    with ctx.step("The float64 evaluator computes the same function up to rounding: "
                  "|y_float - y_exact| <= 1e-12 * y_abs, where y_abs is the exact output of the "
                  "network with |weights| on |inputs| (a bound on the sum of the absolute "
                  "terms); every quantity compared exactly as a rational (a statement about the "
                  "float code path only, not evidence for any claim of the paper)",
                  source=SRC.cite("eq. (3) l.73"), scope="sizes",
                  sizes="(L, d_x, H) in (1, 3, 1), (2, 4, 2), (3, 2, 1), N = 3") as s:
        worst = Fraction(0)
        cases = []
        for L, d_x, H in ((1, 3, 1), (2, 4, 2), (3, 2, 1)):
            net = SelfAttentionNetwork.random(L, d_x, H, seed=SEED + 20 * L, kind="rational")
            absnet = SelfAttentionNetwork(L, d_x, H, weights={k: np.abs(net.weights[k])
                                                              for k in "QKVO"})
            X = rational_batch(rng, 4, 3, d_x)
            exact = net.evaluate(X, "QQ")
            bound = absnet.evaluate(np.abs(X), "QQ")
            flt = net.evaluate(X, "float64")
            for idx in np.ndindex(exact.shape):
                err = abs(Fraction(float(flt[idx])) - exact[idx])
                scale = bound[idx] if bound[idx] else Fraction(1)
                ratio = err / scale
                worst = max(worst, ratio)
                if err > Fraction(1, 10**12) * scale:
                    s.fail("float64 evaluation outside the forward-error bound",
                           counterexample={"L": L, "index": idx, "float": float(flt[idx]),
                                           "exact": str(exact[idx]), "bound": str(bound[idx])})
            cases.append({"L": L, "d_x": d_x, "H": H, "dtype": str(flt.dtype)})
        s.record(cases=cases, worst_error_over_bound=float(worst))


def _step_residual_literal(ctx, rng):
    """Step 7: the residual variant against its recursion written out."""
    with ctx.step("Residual variant: every layer adds its input to its output, "
                  "x^{l+1,i} = x^{l,i} + y^{l,i}; the evaluator equals that recursion written "
                  "out", source=SRC.cite("A.4 fig. 5(a) l.481-484"), scope="sizes",
                  sizes="the first 4 shapes of LITERAL: L <= 2, d_x <= 4, N <= 3") as s:
        cases = []
        for n_case, (L, d_x, H, d_a, N) in enumerate(LITERAL[ctx.full][:4]):
            net = SelfAttentionNetwork.random(L, d_x, H, d_a, residual=True, seed=SEED + n_case,
                                              kind="rational")
            X = rational_batch(rng, 2, N, d_x)
            got, want = net.evaluate(X, "QQ"), literal_outputs(net, X)
            same = all(got[b][i][r] == want[b][i][r] for b in range(2) for i in range(N)
                       for r in range(d_x))
            cases.append({"L": L, "d_x": d_x, "H": H, "d_a": net.d_a, "N": N, "equal": same})
            s.require(same, "residual evaluation differs from x + y layer by layer",
                      counterexample=cases[-1])
        s.record(cases=cases)


def _step_residual_polynomial(ctx, rng):
    """Step 8: the residual output as a polynomial in a scaling t (ours)."""
    with ctx.step("Consequence (ours, not printed): with residual connections, t -> y(tX) is a "
                  "polynomial of degree 3^L with only odd powers of t; its t^1 coefficient is X "
                  "itself (the all-skip path) and its t^(3^L) coefficient is the plain network's "
                  "output (the path through every layer); found by exact interpolation at "
                  "3^L + 1 points", source=SRC.cite("A.4 fig. 5(b) l.481-484; Lemma 5 l.577-604"),
                  scope="sizes", sizes="L <= 2 (L <= 3 in the full tier), d_x = 2, H = 1, "
                                       "N = 2") as s:
        cases = []
        for L in ((1, 2, 3) if ctx.full else (1, 2)):
            X = rational_batch(rng, 1, 2, 2)
            res, seed = _nonvanishing(L, 2, 1, X, seed=SEED + 30 + L, residual=True)
            plain = SelfAttentionNetwork(L, 2, 1, weights=res.weights)
            deg = 3 ** L
            ts = [Fraction(k) for k in range(-(deg // 2) - 1, deg - deg // 2)]
            outs = [res.evaluate(X * t, "QQ")[0] for t in ts]
            coeffs = {idx: _interpolate(ts, [o[idx] for o in outs]) for idx in np.ndindex(2, 2)}
            even_zero = all(c[m] == 0 for c in coeffs.values() for m in range(0, deg + 1, 2))
            lin_is_x = all(coeffs[idx][1] == X[0][idx] for idx in coeffs)
            top = plain.evaluate(X, "QQ")[0]
            top_is_plain = all(coeffs[idx][deg] == top[idx] for idx in coeffs)
            top_nonzero = any(top[idx] != 0 for idx in coeffs)
            cases.append({"L": L, "seed": seed, "degree": deg, "points": len(ts),
                          "even_powers_vanish":
                          even_zero, "t1_coefficient_is_X": lin_is_x,
                          "top_coefficient_is_plain_network": top_is_plain,
                          "top_nonzero": top_nonzero,
                          "coefficients_of_y[0][0]": [str(c) for c in coeffs[(0, 0)]]})
            s.require(even_zero and lin_is_x and top_is_plain and top_nonzero,
                      "residual network's polynomial structure differs", counterexample=cases[-1])
        s.record(cases=cases)


def _step_weight_count(ctx):
    """Step 9: Theta holds 4LH weight matrices of the printed shapes."""
    with ctx.step("Theta holds 4LH weight matrices: W^{Q,l,h}, W^{K,l,h}, W^{V,l,h} of shape "
                  "d_a x d_x and W^{O,l,h} of shape d_x x d_a", source=SRC.cite("l.81"),
                  scope="sizes", sizes="(L, d_x, H) in (1, 4, 2), (3, 6, 3), (2, 5, 2)") as s:
        cases = []
        for L, d_x, H, d_a in ((1, 4, 2, None), (3, 6, 3, None), (2, 5, 2, 3)):
            net = SelfAttentionNetwork.random(L, d_x, H, d_a)
            shapes = {k: net.weights[k].shape for k in "QKVO"}
            count = sum(int(np.prod(v[:2])) for v in shapes.values())
            cases.append({"L": L, "d_x": d_x, "H": H, "d_a": net.d_a,
                          "shapes": {k: list(v) for k, v in shapes.items()},
                          "matrices": count, "4LH": 4 * L * H})
            s.require(count == 4 * L * H == net.num_weight_matrices
                      and all(shapes[k][2:] == (net.d_a, d_x) for k in "QKV")
                      and shapes["O"][2:] == (d_x, net.d_a), "weight count or shapes differ",
                      counterexample=cases[-1])
        s.record(cases=cases)


@paper_check(LEVINE2020, "L-net", "the analyzed network of eq. (3), evaluated exactly",
             where="sec. 2.2 eq. (3) l.69-82; A.4 fig. 5 l.478-484",
             claim_where="sec. 2.2 eq. (3) l.69-82", kind="definition",
             statement="the network of eq. (3): unnormalized multi-head self-attention (no "
                       "softmax, no feed-forward), depth L by composition, optional residual "
                       "connections; its output is a homogeneous polynomial of degree 3^L")
def l_net(ctx):
    rng = np.random.default_rng(SEED)

    _step_literal_transcription(ctx, rng)
    _step_unnormalized_scores(ctx, rng)
    _step_depth_by_composition(ctx, rng)
    _step_homogeneity(ctx, rng)
    homogeneity_step(ctx, SRC.cite("eq. (3) l.71-77"))
    _step_domains_agree(ctx, rng)
    _step_float_forward_error(ctx, rng)
    _step_residual_literal(ctx, rng)
    _step_residual_polynomial(ctx, rng)
    _step_weight_count(ctx)

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "each layer is homogeneous of degree 3 in its input (eq. (3); the identity "
                 "f(tY) = t^3 f(Y) with symbolic sizes), so by induction the depth-L output is "
                 "homogeneous of degree 3^L (recurrence solved symbolically): the argument holds "
                 "for all sizes; the evaluator that every other check uses matches eq. (3) "
                 "exactly over every domain at the listed sizes (the other steps)",
                 basis="argument", argument_steps=("degree for every size",))
