"""The swap-set argument of Theorem 3's proof (A.2, l.390-416), for every size.

Not a check: :func:`seprank_proofs.levine2020.levine_proof_displays.thm3_displays` calls
these for L-Thm3. Theorem 3's proof writes the output (Lemma 1, eq. (13)) as a sum over
h in [H]^C of chains B^T M^(1) ... M^(C) A x^(i) of d_a x d_a units M^(c) = A^(c) S
B^(c)T, splits every unit over the partition (S = S_P + S_Q), and counts the separable
terms. Each link is checked here as an identity with symbolic sizes (sympy MatrixSymbol
with symbolic dimensions, symbolic C, H, d_a) or as a finite claim whose inductive step
is checked exhaustively, so every step holds for all sizes (scope ``all-sizes``):

* :func:`split_identities`: X X^T = X_P X_P^T + X_Q X_Q^T (X = (X_P | X_Q), symbolic
  sizes), A (S_P + S_Q) B^T = A S_P B^T + A S_Q B^T, and T (P + Q) = T P + T Q (the
  expansion of a product of C split units into the 2^C side sequences, by induction on
  the number of factors);
* :func:`swap_bijection_step`: a side sequence (P_1, ..., P_C), with P_{C+1} := P (the side
  of x^(i)), is determined by its set of swap positions {beta : P_beta != P_{beta+1}}; the
  map is a bijection {P, Q}^C -> subsets of [C] (the inductive step, prepending P_1, is a
  claim about the four cases (P_1, P_2); sum_b C(C, b) = 2^C symbolically);
* :func:`junction_step`: a product of matrices through a d_a-dimensional index is a sum of
  d_a products (sympy: the entry of X Y is a Sum with d_a terms), so at each swap the
  chain splits into its P-part times its Q-part in d_a ways: a side sequence with b swaps
  is a sum of d_a^b separable terms; with l.416's count (symbolic) the total is
  (H (d_a + 1))^C;
* :func:`binomial_power_identity`: l.416's count sum_b C(C, b) d_a^b = (d_a + 1)^C for
  symbolic C.
"""

from __future__ import annotations

from itertools import product
from math import comb

import sympy as sp
from seprank_proofs.levine2020.chain_induction import is_zero

__all__ = ["split_identities", "swap_set", "from_swap_set", "swap_bijection_step",
           "junction_step", "binomial_power_identity"]


def split_identities() -> dict[str, bool]:
    """The identities of l.393 and l.398-399 with symbolic sizes (sympy MatrixSymbol).

    Examples
    --------
    >>> all(split_identities().values())
    True
    """
    n, m, p, q = sp.symbols("n m N_P N_Q", integer=True, positive=True)
    XP, XQ = sp.MatrixSymbol("X_P", n, p), sp.MatrixSymbol("X_Q", n, q)
    X = sp.BlockMatrix([[XP, XQ]])
    A, B = sp.MatrixSymbol("A", m, n), sp.MatrixSymbol("B", m, n)
    SP, SQ = sp.MatrixSymbol("S_P", n, n), sp.MatrixSymbol("S_Q", n, n)
    T, P, Q = (sp.MatrixSymbol(c, m, m) for c in ("T", "P", "Q"))
    return {
        "X X^T = X_P X_P^T + X_Q X_Q^T (positions split into P and Q)": is_zero(
            sp.block_collapse(X * X.T) - XP * XP.T - XQ * XQ.T),
        "A (S_P + S_Q) B^T = A S_P B^T + A S_Q B^T (a unit splits)": is_zero(
            A * (SP + SQ) * B.T - A * SP * B.T - A * SQ * B.T),
        "T (P + Q) = T P + T Q (one more split factor: sequences of length c + 1)": is_zero(
            T * (P + Q) - T * P - T * Q),
    }


def swap_set(sides: tuple[str, ...]) -> frozenset[int]:
    """The swap positions {beta in [C] : P_beta != P_{beta+1}} of a side sequence, with
    P_{C+1} := "P" (the side of x^(i)); positions are 1-based.

    Examples
    --------
    >>> sorted(swap_set(("P", "Q", "Q")))
    [1, 3]
    """
    ext = tuple(sides) + ("P",)
    return frozenset(b + 1 for b in range(len(sides)) if ext[b] != ext[b + 1])


def from_swap_set(C: int, swaps: frozenset[int]) -> tuple[str, ...]:
    """The side sequence of length C with the given swap positions (the inverse map).

    Going down from P_{C+1} = "P": P_beta = P_{beta+1}, flipped when beta is a swap.

    Examples
    --------
    >>> from_swap_set(3, frozenset({1, 3}))
    ('P', 'Q', 'Q')
    """
    out, side = [], "P"
    for beta in range(C, 0, -1):
        if beta in swaps:
            side = "Q" if side == "P" else "P"
        out.append(side)
    return tuple(reversed(out))


def _inductive_cases() -> list[dict]:
    """The step C -> C + 1 (prepend P_1 to a tail (P_2, ...)): the swap set of the longer
    sequence is {1 if P_1 != P_2} plus the tail's swaps shifted by one, and the inverse
    recovers P_1 from P_2 and whether 1 is a swap, in each of the four cases."""
    rows = []
    for p1, p2 in product("PQ", repeat=2):
        first_is_swap = p1 != p2
        recovered = p2 if not first_is_swap else ("Q" if p2 == "P" else "P")
        rows.append({"P_1": p1, "P_2": p2, "1 is a swap": first_is_swap,
                     "P_1 recovered": recovered == p1})
    return rows


def swap_bijection_step(ctx, source: str) -> None:
    """Step: side sequences <-> swap sets, a bijection for every C (induction on C)."""
    with ctx.step("swap sets: a side sequence (P_1..P_C), P_{C+1} := P (the side of x^(i)), "
                  "is determined by its swap positions {beta in [C] : P_beta != P_{beta+1}}: "
                  "the map {P, Q}^C -> subsets of [C] is a bijection for every C (induction "
                  "on C: prepending P_1 adds position 1 exactly when P_1 != P_2, and P_1 is "
                  "recovered from P_2 and that bit; the four cases (P_1, P_2) checked), so "
                  "each sequence appears exactly once among the strictly ordered swap tuples "
                  "0 < beta_b < ... < beta_1 <= C, C(C, b) of length b, sum_b C(C, b) = 2^C "
                  "(sympy, symbolic C); cross-check: every sequence for C <= 10",
                  source, kind="prose", sizes="every sequence for C <= 10") as s:
        cases = _inductive_cases()
        C, b = sp.symbols("C b", integer=True, nonnegative=True)
        total = sp.simplify(sp.summation(sp.binomial(C, b), (b, 0, C)) - 2 ** C)
        brute = []
        for c in range(11):
            seqs = list(product("PQ", repeat=c))
            sets = {swap_set(q) for q in seqs}
            by_size = [sum(1 for x in sets if len(x) == k) for k in range(c + 1)]
            if (len(sets) != 2 ** c or by_size != [comb(c, k) for k in range(c + 1)]
                    or any(from_swap_set(c, swap_set(q)) != q for q in seqs)):
                brute.append(c)
        s.record(inductive_cases=cases, sum_binomials_minus_2_to_C=str(total),
                 brute_force_checked="C <= 10", brute_force_failures=brute)
        s.require(all(r["P_1 recovered"] for r in cases) and total == 0 and not brute,
                  "the swap-set map is not a bijection", failures=brute)


def junction_step(ctx, source: str) -> None:
    """Step: each swap splits the chain in d_a ways; b swaps give d_a^b separable terms."""
    with ctx.step("junction: a product X Y of matrices through a d_a-dimensional index is the "
                  "sum of d_a products X e_r e_r^T Y (sympy: the entry (X Y)_{ij} of "
                  "MatrixSymbols with symbolic inner size d_a is a Sum with d_a terms); "
                  "in a chain B^T M^(1) ... M^(C) A x^(i) whose units take S_P or S_Q by the "
                  "side sequence, a run of P-units (with A x^(i) at the end, side P_{C+1} = "
                  "P) depends only on the P inputs and a run of Q-units only on the Q inputs, "
                  "so splitting the d_a x d_a product at each of the b swaps writes the term as "
                  "d_a^b products (P-part)(Q-part), by induction on b; summed over the swap "
                  "sets: sum_b C(C, b) d_a^b separable terms per h",
                  source, kind="prose") as s:
        n, m, k = sp.symbols("n m k", integer=True, positive=True)
        i, j = sp.symbols("i j", integer=True)
        X, Y = sp.MatrixSymbol("X", n, m), sp.MatrixSymbol("Y", m, k)
        entry = (X * Y)[i, j]
        (r, lo, hi), = entry.limits
        terms = sp.simplify(hi - lo + 1)
        one_term = entry.function
        split = one_term.has(X[i, r]) and one_term.has(Y[r, j]) and \
            sp.simplify(one_term - X[i, r] * Y[r, j]) == 0
        s.record(entry=str(entry), number_of_terms=str(terms),
                 term_is_left_entry_times_right_entry=split)
        s.require(terms == m and split, "the product does not split through the inner index",
                  entry=str(entry))


def binomial_power_identity() -> dict:
    """sum_{b=0}^{C} C(C, b) d^b = (d + 1)^C for symbolic C (the binomial theorem, sympy).

    sympy evaluates the sum to (d + 1)^C under |d| <= 1; for each C both sides are
    polynomials in d of degree C that agree on the interval [-1, 1], an infinite set, so
    they are the same polynomial. Returns what sympy gave and the decision.

    Examples
    --------
    >>> binomial_power_identity()["identity"]
    True
    """
    C, b = sp.symbols("C b", integer=True, nonnegative=True)
    d = sp.Symbol("d")
    total = sp.summation(sp.binomial(C, b) * d ** b, (b, 0, C))
    pieces = total.args if isinstance(total, sp.Piecewise) else ((total, True),)
    closed = [expr for expr, cond in pieces if expr == (d + 1) ** C
              and cond.subs({d: sp.Rational(1, 2), C: 3}) == sp.true]
    return {"sympy": str(total), "identity": bool(closed)}
