"""Checks of Hadamard-product facts, written as an outside package would write them.

Every number is exact (integers and Fractions; ranks from ``seprank.rank`` with
method ``exact`` and an independently verified certificate).
"""

from __future__ import annotations

import random
from fractions import Fraction

import seprank
from schur_checks import SCHUR1911
from schur_checks._exact import hadamard, ldl_pivots, matmul, random_int_matrix, transpose
from seprank.proof import Claim, Figure, check

SEED = 1911


def _gram_terms(X, Y):
    """The columns x_i o y_j (all i, j) of Z with (X X^T) o (Y Y^T) = Z Z^T."""
    cols = []
    for i in range(len(X[0])):
        for j in range(len(Y[0])):
            cols.append([X[r][i] * Y[r][j] for r in range(len(X))])
    return transpose(cols)


def _draw_pivots(value, ax):
    for row in value:
        ax.plot(range(1, len(row["pivots"]) + 1), [float(Fraction(p)) for p in row["pivots"]], "o-",
                label=f"n={row['n']}, r_A={row['r_A']}, r_B={row['r_B']}")
    ax.set(xlabel="k", ylabel="pivot d_k of A o B = L D L^T (exact)", yscale="symlog",
           title="Schur product theorem: every LDL^T pivot of A o B is >= 0")
    ax.legend(fontsize=7)


@check("Schur-PSD", title="Schur product theorem: A, B PSD => A o B PSD",
       source=SCHUR1911.cite("product theorem"),
       claim=Claim("theorem", "for all n and all real symmetric positive semidefinite n x n "
                   "A, B, the entrywise product A o B is positive semidefinite",
                   SCHUR1911.cite("product theorem"), main_result=True),
       figures=[Figure("schur_pivots", "pivots_by_instance", _draw_pivots)], paper=SCHUR1911)
def schur_psd(ctx):
    rng = random.Random(SEED)
    cases = [(n, ra, rb) for n in (3, 5, 7) for ra in (1, 2, n) for rb in (1, 3)]
    instances = [(n, ra, rb, random_int_matrix(rng, n, ra), random_int_matrix(rng, n, rb))
                 for n, ra, rb in cases]
    with ctx.step("every PSD matrix is a Gram matrix A = X X^T (here X integer, so A is PSD "
                  "by construction: v^T A v = |X^T v|^2 >= 0)",
                  source=SCHUR1911.cite("product theorem")) as s:
        s.record(instances=len(instances), sizes=cases)
        s.require(all(matmul(X, transpose(X)) == transpose(matmul(X, transpose(X)))
                      for _, _, _, X, _ in instances), "X X^T is not symmetric")
    with ctx.step("the argument's identity: (X X^T) o (Y Y^T) = sum_{i,j} (x_i o y_j)"
                  "(x_i o y_j)^T = Z Z^T, exactly on every instance",
                  source=SCHUR1911.cite("product theorem")) as s:
        bad = []
        for n, _ra, _rb, X, Y in instances:
            lhs = hadamard(matmul(X, transpose(X)), matmul(Y, transpose(Y)))
            Z = _gram_terms(X, Y)
            if lhs != matmul(Z, transpose(Z)):
                bad.append({"n": n, "X": X, "Y": Y})
        s.record(checked=len(instances), mismatches=len(bad))
        s.require(not bad, "the Gram identity fails", counterexample=bad[:1])
    with ctx.step("hence A o B = Z Z^T is PSD: certified exactly by an LDL^T factorization "
                  "over Q (all pivots >= 0)", source=SCHUR1911.cite("product theorem")) as s:
        rows, fails = [], []
        for n, ra, rb, X, Y in instances:
            S = hadamard(matmul(X, transpose(X)), matmul(Y, transpose(Y)))
            pivots, ok = ldl_pivots(S)
            rows.append({"n": n, "r_A": ra, "r_B": rb, "pivots": [str(p) for p in pivots]})
            if not ok:
                fails.append({"n": n, "S": S, "pivots": [str(p) for p in pivots]})
        s.record(pivots_by_instance=rows)
        s.require(not fails, "an LDL^T pivot is negative", counterexample=fails[:1])
    ctx.conclude("holds", "proof",
                 "A = X X^T and B = Y Y^T (Gram factorizations exist for PSD matrices), so "
                 "A o B = sum_{i,j} (x_i o y_j)(x_i o y_j)^T, a sum of PSD rank-one matrices; "
                 "the identity is checked exactly (step 2) and its consequence certified by "
                 "LDL^T (step 3)", basis="argument")


@check("Schur-rank", title="rank(A o B) <= rank(A) rank(B)",
       source=SCHUR1911.cite("rank of a Hadamard product"),
       claim=Claim("theorem", "for all m x n matrices A, B over a field, rank(A o B) <= "
                   "rank(A) rank(B)", SCHUR1911.cite("rank of a Hadamard product"),
                   main_result=True), paper=SCHUR1911)
def schur_rank(ctx):
    rng = random.Random(SEED + 1)
    with ctx.step("the argument: A = sum_{i<=r} u_i v_i^T, B = sum_{j<=s} p_j q_j^T give "
                  "A o B = sum_{i,j} (u_i o p_j)(v_i o q_j)^T, r s rank-one terms; exact on "
                  "instances", source=SCHUR1911.cite("rank of a Hadamard product")) as s:
        checked = 0
        for m, n, r, q in [(4, 5, 2, 2), (6, 6, 2, 3), (7, 9, 3, 2)]:
            U, V = random_int_matrix(rng, m, r), random_int_matrix(rng, n, r)
            P, Q = random_int_matrix(rng, m, q), random_int_matrix(rng, n, q)
            lhs = hadamard(matmul(U, transpose(V)), matmul(P, transpose(Q)))
            left = transpose([[U[a][i] * P[a][j] for a in range(m)]
                              for i in range(r) for j in range(q)])
            right = transpose([[V[b][i] * Q[b][j] for b in range(n)]
                               for i in range(r) for j in range(q)])
            s.require(lhs == matmul(left, transpose(right)), "the rank-one expansion fails",
                      counterexample={"U": U, "V": V, "P": P, "Q": Q})
            checked += 1
        s.record(checked=checked)
    with ctx.step("the bound is attained: a certified instance with rank(A o B) = "
                  "rank(A) rank(B) = 6 (exact ranks, certificates verified independently)",
                  source=SCHUR1911.cite("rank of a Hadamard product")) as s:
        m, r, q = 8, 2, 3
        A = matmul(random_int_matrix(rng, m, r), random_int_matrix(rng, r, m))
        B = matmul(random_int_matrix(rng, m, q), random_int_matrix(rng, q, m))
        ranks = {}
        for name, M in (("A", A), ("B", B), ("A o B", hadamard(A, B))):
            res = seprank.rank(M, "exact", certify=True)
            s.require(res.kind == "exact" and seprank.verify(M, res),
                      f"the certificate of rank({name}) does not verify")
            ranks[name] = res.value
        s.record(ranks=ranks, A=A, B=B)
        s.require(ranks["A o B"] == ranks["A"] * ranks["B"] == 6,
                  f"ranks {ranks}: not a binding instance")
    ctx.conclude("holds", "proof",
                 "a rank factorization of A (r terms) and of B (s terms) expands A o B into "
                 "r s rank-one terms (step 1, exact); step 2 shows the bound is sharp",
                 basis="argument")


@check("Schur-sum", title="the false variant rank(A o B) <= rank(A) + rank(B)",
       source="a plausible-looking misstatement (no paper)",
       claim=Claim("claim", "for all m x n matrices A, B, rank(A o B) <= rank(A) + rank(B)",
                   "a plausible-looking misstatement (no paper)"),
       depends=("Schur-rank",),
       paper=SCHUR1911)  # no paper states it; filed under the paper whose bound it misquotes
def schur_sum(ctx):
    rng = random.Random(SEED + 2)
    with ctx.step("counterexample search: random integer A, B of ranks (2, 3) on 6 x 6, "
                  "exact ranks", source="a plausible-looking misstatement (no paper)") as s:
        found, tried = None, 0
        for _ in range(20):
            tried += 1
            A = matmul(random_int_matrix(rng, 6, 2), random_int_matrix(rng, 2, 6))
            B = matmul(random_int_matrix(rng, 6, 3), random_int_matrix(rng, 3, 6))
            ra, rb = seprank.rank(A, "exact").value, seprank.rank(B, "exact").value
            res = seprank.rank(hadamard(A, B), "exact", certify=True)
            if res.value > ra + rb and seprank.verify(hadamard(A, B), res):
                found = {"A": A, "B": B, "rank_A": ra, "rank_B": rb,
                         "rank_AoB": res.value}
                break
        s.record(tried=tried, counterexample=found)
        if found is None:
            s.inconclusive("no counterexample among the instances tried")
        else:
            s.erratum("statement", "rank(A o B) <= rank(A) + rank(B)",
                      "rank(A o B) <= rank(A) rank(B) (Schur-rank)", "false-statement",
                      in_statement=True, instance=found,
                      message=f"rank(A o B) = {found['rank_AoB']} > {found['rank_A']} + "
                      f"{found['rank_B']} (exact, certificate verified)")
    if found is None:
        ctx.conclude("open", "none", "no counterexample found among the instances tried")
    else:
        ctx.conclude("false", "proof", "an exact, independently verified counterexample "
                     "(step 1)", basis="certificate")
