"""L-Lemma1: the structure of the depth-L network (Lemma 1 and Corollary 3).

Source: levine2020_depth_to_width_self_attention.txt, A.1 (l.329-378).
Lemma 1 (eq. (13)): with C(L) = (3^L - 1)/2 and X in R^{d_x x N} (positions as
columns),
    Y^L = sum_{h in [H]^C(L)} B^(0,h)T M^(1,h) ... M^(C(L),h) A^(0,h) X,
    M^(c,h) = A^(c,h) X X^T B^(c,h)T,  A^(c,h), B^(c,h) in R^{d_a x d_x}.
The induction (l.339-364) substitutes three copies of Y^L into one layer,
giving 3 C(L) + 1 = C(L+1) factors M. Corollary 3 (eq. (16)): y^i is a sum over
j_1..j_C in [N] of g^L(x^i, x^{j_1}, ..., x^{j_C}), one position sum per M.

Why: the upper bounds rest on this form: Theorem 3's proof splits every M-unit
over the partition (A.2 l.393-397) and Theorem 4's opens eq. (16) coordinate by
coordinate (A.3 l.437); the chains are also what
:mod:`seprank.papers.levine2020.chains` builds for those checks.

Computed: (a) the recursion C(L+1) = 3 C(L) + 1 with C(1) = 1 and the closed
form; (b) a symbolic (sympy) expansion of small networks: every output entry
is a homogeneous polynomial of degree 3^L and equals the network's exact
evaluation at random rational points; (c) the induction carried out on
matrices: each term is a chain P_0 G P_1 G ... G P_C X with G = X X^T; the
number of terms is H^C(L), the number of G's is C(L), every P_c has rank <=
d_a (so P_c = B^(c)T A^(c+1) with d_a-row factors, which is eq. (13)), and the
sum equals the network output exactly; (d) eq. (16) with its C(L) explicit
position sums over [N]^C equals the output.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import sympy as sp
from seprank_proofs import LEVINE2020
from seprank_proofs._chains import chain_terms
from seprank_proofs.levine2020.chain_induction import chain_induction_step, position_sums_step

import seprank
from seprank.combinatorics import num_head_indices
from seprank.models import SelfAttentionNetwork
from seprank.proof.scaffold import paper_check

SRC = LEVINE2020
#: (L, d_x, H, N)
SYMBOLIC = [(1, 2, 1, 2), (1, 2, 2, 3), (2, 1, 1, 2), (2, 2, 2, 2)]
CHAINS = [(1, 2, 2, 3), (2, 2, 1, 3), (2, 2, 2, 2), (2, 4, 2, 2), (3, 1, 1, 2), (3, 2, 1, 2)]


def eval_chains(terms, X, i):
    """sum over chains of P_0 G P_1 ... G P_C x_i, G = X X^T (X is d_x x N)."""
    G = np.dot(X, X.T)
    total = np.zeros(X.shape[0], dtype=object)
    for chain in terms:
        v = X[:, i]
        for P in reversed(chain[1:]):
            v = np.dot(G, np.dot(P, v))
        total = total + np.dot(chain[0], v)
    return total


def eval_position_sums(terms, X, i):
    """Corollary 3: sum over (j_1..j_C) in [N]^C of the chains with each G = x_j x_j^T."""
    N = X.shape[1]
    total = np.zeros(X.shape[0], dtype=object)
    for chain in terms:
        C = len(chain) - 1
        for js in product(range(N), repeat=C):
            v = X[:, i]
            for P, j in zip(reversed(chain[1:]), reversed(js), strict=True):
                v = X[:, j] * np.dot(X[:, j], np.dot(P, v))
            total = total + np.dot(chain[0], v)
    return total


def _symbolic_output(net, N):
    xs = sp.Matrix(net.d_x, N, lambda a, b: sp.Symbol(f"x{b + 1}_{a + 1}"))
    Y = xs
    w = net.weights
    for layer in range(net.L):
        Z = sp.zeros(net.d_x, N)
        for h in range(net.H):
            Q, K, V, O = (sp.Matrix(w[k][layer, h].tolist()) for k in "QKVO")
            Z += O * V * Y * Y.T * K.T * Q * Y
        Y = Z.applyfunc(sp.expand)
    return xs, Y


def _step_head_count_recursion(ctx):
    """Step 1: C(L) = (3^L - 1)/2 solves the proof's recursion."""
    with ctx.step("C(L) = (3^L - 1)/2 solves the proof's count C(1) = 1, C(L+1) = 3 C(L) + 1 "
                  "(l.362-364): (3^(L+1) - 1)/2 - 3 (3^L - 1)/2 - 1 = 0 for symbolic L (sympy); "
                  "and it equals seprank's num_head_indices for L = 1..30",
                  source=SRC.cite("A.1 l.331, l.362-364"), kind="symbolic") as s:
        Ls = sp.symbols("L", integer=True, positive=True)
        gap = sp.simplify((3 ** (Ls + 1) - 1) / 2 - 3 * (3 ** Ls - 1) / 2 - 1)
        s.could_fail("recursion", lambda closed: sp.simplify(closed(Ls + 1) - 3 * closed(Ls)
                                                             - 1) == 0,
                     lambda x: (3 ** x - 1) / 2, {"C(L) = (3^L + 1)/2": lambda x: (3 ** x + 1) / 2})
        s.require(gap == 0 and (3 ** 1 - 1) // 2 == 1, "the recursion fails symbolically",
                  gap=str(gap))
        c, bad = 1, []
        for L in range(1, 31):
            if c != (3 ** L - 1) // 2 or (3 ** L - 1) % 2 or num_head_indices(L) != c:
                bad.append(L)
            c = 3 * c + 1
        s.record(checked_L="1..30", C_values={L: num_head_indices(L) for L in range(1, 6)})
        s.require(not bad, "recursion and closed form differ", L=bad)


def _symbolic_case(k, L, d_x, H, N):
    """One case of step 2: monomial degrees of the expansion, and its values at 3 points."""
    net = SelfAttentionNetwork.random(L, d_x, H, seed=3290 + k, nonzero=True)
    xs, Y = _symbolic_output(net, N)
    syms = list(xs)
    degrees = set()
    for e in Y:
        poly = sp.Poly(e, *syms)
        degrees |= {sum(m) for m in poly.monoms()}
    rng = np.random.default_rng(k)
    agree = True
    for _ in range(3):
        Xq = [[Fraction(int(rng.integers(-5, 6)), int(rng.integers(1, 4)))
               for _ in range(d_x)] for _ in range(N)]
        direct = net.evaluate(Xq, "QQ")
        sub = {xs[a, b]: sp.Rational(Xq[b][a].numerator, Xq[b][a].denominator)
               for a in range(d_x) for b in range(N)}
        for b in range(N):
            for a in range(d_x):
                if sp.Rational(Y[a, b].subs(sub)) != sp.Rational(
                        str(Fraction(direct[b][a]))):
                    agree = False
    n_terms = sum(len(sp.Poly(e, *syms).terms()) for e in Y)
    return {"L": L, "d_x": d_x, "H": H, "N": N, "monomial_degrees": sorted(degrees),
            "expected_degree": 3 ** L, "monomials_total": n_terms,
            "matches_direct_evaluation": agree}


def _step_symbolic_expansion(ctx):
    """Step 2: the output is homogeneous of degree 3^L and matches the evaluator."""
    with ctx.step("Symbolic expansion (sympy) of small networks: every output entry is a "
                  "homogeneous polynomial of total degree exactly 3^L, and it equals the "
                  "network's exact evaluation at random rational points",
                  source=SRC.cite("A.1 l.329-337; sec. 2.2 l.75"), scope="sizes",
                  sizes="(L, d_x, H, N) in " + ", ".join(map(str, SYMBOLIC))) as s:
        rows = []
        for k, (L, d_x, H, N) in enumerate(SYMBOLIC):
            rows.append(_symbolic_case(k, L, d_x, H, N))
            s.require(set(rows[-1]["monomial_degrees"]) == {3 ** L}
                      and rows[-1]["matches_direct_evaluation"], "not homogeneous of degree "
                      "3^L, or the expansion differs from the network", counterexample=rows[-1])
        s.record(cases=rows)


def _step_chain_induction(ctx):
    """Step 3: eq. (13), the induction carried out on matrices."""
    with ctx.step("The induction on matrices (eq. (13)): H^C(L) chains P_0 G P_1 ... G P_C X, "
                  "G = X X^T, with C = C(L) factors G each; every P_c has rank <= d_a (so it "
                  "factors as B^(c)T A^(c+1) with d_a x d_x factors); the sum equals the "
                  "network output at random integer inputs, all positions (a cross-check of the "
                  "induction for every size below)",
                  source=SRC.cite("A.1 eq. (13) l.333-364"), scope="sizes",
                  sizes="(L, d_x, H, N) in " + ", ".join(map(str, CHAINS))) as s:
        rows = []
        for k, (L, d_x, H, N) in enumerate(CHAINS):
            net = SelfAttentionNetwork.random(L, d_x, H, seed=3330 + k, nonzero=True)
            terms = chain_terms(net)
            C = num_head_indices(L)
            lengths = {len(c) - 1 for c in terms}
            max_rank = max(seprank.rank(P.tolist(), "exact").value for c in terms for P in c)
            rng = np.random.default_rng(k)
            X = rng.integers(-3, 4, size=(d_x, N)).astype(object)
            direct = net.evaluate(X.T.tolist(), "ZZ")
            agree = all((eval_chains(terms, X, i) == np.array(direct[i], dtype=object)).all()
                        for i in range(N))
            row = {"L": L, "d_x": d_x, "H": H, "d_a": net.d_a, "N": N, "terms": len(terms),
                   "H^C(L)": H ** C, "G_factors_per_term": sorted(lengths), "C(L)": C,
                   "max_rank_of_P_c": max_rank, "equals_network": agree}
            rows.append(row)
            s.require(len(terms) == H ** C and lengths == {C} and max_rank <= net.d_a
                      and agree, "the chain form of eq. (13) fails", counterexample=row)
        s.record(cases=rows)


def _step_corollary3_position_sums(ctx):
    """Step 4: Corollary 3, eq. (16), with its explicit position sums."""
    with ctx.step("Corollary 3 (eq. (16)): the output at i is a sum over (j_1, ..., j_C) in "
                  "[N]^C(L) (C(L) position sums) of products of 2 C(L) + 1 = 3^L linear forms; "
                  "the explicit sum equals the network output (a cross-check)",
                  source=SRC.cite("A.1 Cor. 3 eq. (16) l.366-378"), scope="sizes",
                  sizes="(L, d_x, H, N) in (1, 2, 2, 3), (2, 2, 1, 2), (2, 1, 1, 3)") as s:
        rows = []
        for k, (L, d_x, H, N) in enumerate([(1, 2, 2, 3), (2, 2, 1, 2), (2, 1, 1, 3)]):
            net = SelfAttentionNetwork.random(L, d_x, H, seed=3660 + k, nonzero=True)
            terms = chain_terms(net)
            X = np.random.default_rng(k).integers(-3, 4, size=(d_x, N)).astype(object)
            direct = net.evaluate(X.T.tolist(), "ZZ")
            agree = all((eval_position_sums(terms, X, i) == np.array(direct[i], dtype=object)
                         ).all() for i in range(N))
            rows.append({"L": L, "d_x": d_x, "H": H, "N": N, "position_sums": num_head_indices(L),
                         "tuples_summed": N ** num_head_indices(L),
                         "factors_per_summand": 2 * num_head_indices(L) + 1,
                         "equals_network": agree})
            s.require(agree, "eq. (16) differs from the network", counterexample=rows[-1])
        s.record(cases=rows)


@paper_check(LEVINE2020, "L-Lemma1", "depth-L output: sum over [H]^C(L) of chained products, "
                                     "C(L) = (3^L - 1)/2, degree 3^L",
             where="A.1 l.329-378", depends=("L-net",), kind="lemma",
             statement="Lemma 1 / Corollary 3: the depth-L output is a sum over [H]^C(L) of "
                       "chained products, C(L) = (3^L - 1)/2, a polynomial of degree 3^L")
def l_lemma1(ctx):
    _step_head_count_recursion(ctx)
    _step_symbolic_expansion(ctx)
    _step_chain_induction(ctx)
    _step_corollary3_position_sums(ctx)
    chain_induction_step(ctx, SRC.cite("A.1 eq. (13) l.333-364"))
    position_sums_step(ctx, SRC.cite("A.1 Cor. 3 eq. (16) l.366-378"))

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "the induction of eq. (13), every step for all sizes: a layer applied to "
                 "three copies of a sum of chains gives chains with c1 + c2 + c3 + 1 factors "
                 "G = X X^T and junctions through d_a (identities of matrix products with "
                 "symbolic sizes), so C(L) = (3^L - 1)/2 factors and H^C(L) chains (recurrences "
                 "solved symbolically); Corollary 3's position sums by linearity in each G; "
                 "steps 2-4 cross-check the expansion exactly at small sizes",
                 basis="argument", argument_steps=(
                     "C(L) = (3^L - 1)/2 solves", "Lemma 1's induction for every size",
                     "Corollary 3 for every size"))
