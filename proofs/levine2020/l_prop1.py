"""L-Prop1: the separation rank is the same for every balanced partition.

Source: levine2020_depth_to_width_self_attention.txt, sec. 3, Proposition 1
(l.106-112), proved in App. C (Claim 3, l.854-889); the lecture notes repeat
it as Proposition 7.1 (tensors_for_dl_theory_chapter7.txt l.268-305).

Why: the paper states its bounds for one balanced partition and uses this
proposition to speak of "the" separation rank of y_p^i (sec. 3, l.106-112).

The proof: y_p^i (output at position i) is unchanged when the *other*
positions are permuted, because every other position enters only through the
sums over j_1, ..., j_C of eq. (4); w.l.o.g. both partitions put i on their
first side (swapping the two sides of a partition does not change a
separation rank), and the permutation pi with pi(a_m) = a~_m, pi(b_m) = b~_m,
which then fixes i, carries a decomposition for (A, B) to one for (A~, B~).

The separation rank itself is not computable; what is computed exactly is the
grid-tensor matricization rank (its lower bound, Claim 1, l.619-645), to which
the same argument applies verbatim: the grid tensor is invariant under
permuting the modes other than i, and a permutation fixing i maps
[[A]]_{A,B} onto [[A]]_{A~,B~} up to a permutation of rows and columns.

Steps: the symmetry the proof rests on (exact tensor identities); exact ranks
over all balanced partitions for small random networks, several output
positions, with and without residual connections; a control function that
does depend on the partition, to show the test can tell; unbalanced partitions,
where the rank may depend on which side holds i (why the proof needs |A| = |B|).
"""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np
import sympy as sp
from seprank_proofs import LEVINE2020
from seprank_proofs._corrected_common import moment_form_steps

import seprank
from seprank.models import SelfAttentionNetwork
from seprank.proof.scaffold import paper_check
from seprank.tensors import balanced_partitions, grid_tensor, matricize

SRC = LEVINE2020
SEED = 1106

#: (L, d_x, H, N, M, residual): small networks whose grid tensors have M^N entries
FAST = [(1, 2, 1, 4, 3, False), (1, 3, 1, 4, 4, False), (2, 2, 2, 4, 4, False),
        (2, 4, 2, 4, 4, False), (1, 2, 2, 6, 2, False), (2, 2, 1, 6, 3, False),
        (2, 3, 1, 4, 4, True), (1, 2, 1, 6, 3, True)]
FULL = FAST + [(3, 2, 1, 4, 4, False), (2, 3, 1, 6, 3, False), (2, 4, 2, 6, 3, False),
               (3, 3, 1, 4, 5, True), (2, 2, 2, 8, 2, False), (2, 4, 2, 6, 4, False),
               (3, 4, 2, 4, 6, False), (2, 3, 1, 8, 3, False)]
#: the sizes of the grid-tensor steps (both tiers)
INSTANCE_SIZES = "L <= 2, d_x <= 4, N <= 6 (full tier: L <= 3, N <= 8)"


def _instance(L, d_x, H, N, M, residual, k):
    """A random integer network that does not vanish, and M integer templates."""
    rng = np.random.default_rng(SEED + k)
    T = rng.integers(-2, 3, size=(M, d_x))
    for s in range(40):
        net = SelfAttentionNetwork.random(L, d_x, H, residual=residual, seed=SEED + 100 * k + s,
                                          nonzero=True)
        A = grid_tensor(net.as_function(0, 0, "ZZ"), T, N)
        if any(v != 0 for v in A.flat):
            return net, T, SEED + 100 * k + s
    raise RuntimeError("no nonvanishing network found")


def _label(I, J) -> str:
    """A partition in the papers' 1-based positions, e.g. '{1,2}|{3,4}'."""
    return "{" + ",".join(str(x + 1) for x in I) + "}|{" + ",".join(str(x + 1) for x in J) + "}"


def _rank(Mat) -> int:
    res = seprank.rank(Mat, "exact")
    assert res.kind == "exact"
    return res.value


def _step_symmetry_fixing_i(ctx, instances):
    """Step 1: the grid tensor is invariant under permutations fixing i (App. C)."""
    with ctx.step("The proof's identity: y_p^i(x^1..x^N) = y_p^i(x^pi(1)..x^pi(N)) for every "
                  "permutation pi fixing i; on grid tensors, A.transpose(pi) = A for every "
                  "such pi (and not, in general, for a pi moving i)",
                  source=SRC.cite("App. C l.873-875"), scope="sizes",
                  sizes=INSTANCE_SIZES) as s:
        cases = []
        for k, (L, d_x, H, N, M, residual) in enumerate(instances[:5]):
            net, T, seed = _instance(L, d_x, H, N, M, residual, k)
            for i in (0, N - 1):
                A = grid_tensor(net.as_function(i, 0, "ZZ"), T, N)
                others = [n for n in range(N) if n != i]
                fixing_ok = True
                for perm in permutations(others):
                    axes = list(range(N))
                    for src, dst in zip(others, perm, strict=True):
                        axes[src] = dst
                    if not (A.transpose(axes) == A).all():
                        fixing_ok = False
                        s.fail("the grid tensor changes under a permutation fixing i",
                               counterexample={"L": L, "d_x": d_x, "H": H, "N": N, "M": M,
                                               "seed": seed, "i": i, "axes": axes})
                        break
                swap = list(range(N))
                swap[i], swap[others[0]] = others[0], i
                moves_i_changes = not (A.transpose(swap) == A).all()
                cases.append({"L": L, "d_x": d_x, "H": H, "N": N, "M": M, "seed": seed,
                              "i": i, "invariant_under_all_pi_fixing_i": fixing_ok,
                              "permutations_checked": len(list(permutations(others))),
                              "swap_i_with_another_changes_tensor": moves_i_changes})
        s.record(cases=cases)


def _step_equal_ranks(ctx, instances):
    """Step 2: equal exact ranks over all balanced partitions (plain networks)."""
    with ctx.step("Exact grid-matricization ranks of small random networks (integer weights and "
                  "templates, ranks exact over Q) are equal over all balanced partitions, for "
                  "output positions i = 1 and i = N; at least one instance is rank deficient, so "
                  "equality is not forced by full rank",
                  source=SRC.cite("Prop. 1 eq. (6) l.108-110"), scope="sizes",
                  sizes=INSTANCE_SIZES) as s:
        cases, deficient = [], 0
        for k, (L, d_x, H, N, M, residual) in enumerate(instances):
            if residual:
                continue
            net, T, seed = _instance(L, d_x, H, N, M, residual, k)
            for i in (0, N - 1):
                A = grid_tensor(net.as_function(i, 0, "ZZ"), T, N)
                ranks = {_label(I, J): _rank(matricize(A, I, J)) for I, J in balanced_partitions(N)}
                side = M ** (N // 2)
                values = set(ranks.values())
                entry = {"L": L, "d_x": d_x, "H": H, "d_a": net.d_a, "N": N, "M": M,
                         "seed": seed, "position_i": i + 1, "p": 1, "matrix_side": side,
                         "ranks": ranks}
                cases.append(entry)
                deficient += max(values) < side
                s.require(len(values) == 1, "ranks differ between balanced partitions",
                          counterexample=dict(entry, templates=T.tolist(),
                                              weights={q: net.weights[q].tolist()
                                                       for q in "QKVO"}))
        s.record(cases=cases, rank_deficient_instances=deficient)
        s.require(deficient > 0, "every matrix had full rank: the test would be vacuous")


def _step_residual_equal_ranks(ctx, instances):
    """Step 3: the same for residual networks (our extension)."""
    with ctx.step("The argument carries over unchanged to the residual network (A.4): its output "
                  "at i is also symmetric in the other positions, and its grid ranks are equal "
                  "over all balanced partitions (our extension; Prop. 1 is stated for eqs. "
                  "(3)-(4))",
                  source=SRC.cite("A.4 l.478-536; App. C l.854-889"), scope="sizes",
                  sizes=INSTANCE_SIZES) as s:
        cases = []
        for k, (L, d_x, H, N, M, residual) in enumerate(instances):
            if not residual:
                continue
            net, T, seed = _instance(L, d_x, H, N, M, residual, k)
            A = grid_tensor(net.as_function(0, 0, "ZZ"), T, N)
            ranks = {_label(I, J): _rank(matricize(A, I, J)) for I, J in balanced_partitions(N)}
            cases.append({"L": L, "d_x": d_x, "H": H, "N": N, "M": M, "seed": seed,
                          "ranks": ranks})
            s.require(len(set(ranks.values())) == 1, "residual ranks differ between balanced "
                      "partitions", counterexample=cases[-1])
        s.record(cases=cases)


def _step_control_function(ctx):
    """Step 4: a function without the symmetry separates the partitions."""
    with ctx.step("Control: a function without the symmetry, y = <x^1, x^2> <x^3, x^4>, has "
                  "different grid ranks for different balanced partitions (rank 1 for "
                  "({1,2},{3,4})), so equal ranks above are a property of the network",
                  source=SRC.cite("sec. 3 l.104 (convolutional contrast)"), scope="instance",
                  sizes="N = 4, d = 1") as s:
        rng = np.random.default_rng(SEED)
        T = rng.integers(-3, 4, size=(4, 2))

        def f(X):
            a = (X[:, 0] * X[:, 1]).sum(axis=1)
            b = (X[:, 2] * X[:, 3]).sum(axis=1)
            return a * b

        A = grid_tensor(f, T.astype(object), 4)
        ranks = {_label(I, J): _rank(matricize(A, I, J)) for I, J in balanced_partitions(4)}
        s.record(templates=T.tolist(), ranks=ranks)
        s.require(ranks["{1,2}|{3,4}"] == 1 and len(set(ranks.values())) > 1,
                  "the control function did not separate the partitions", ranks=ranks)


def _step_unbalanced_partitions(ctx):
    """Step 5: unbalanced partitions, where the side of i matters."""
    with ctx.step("Why balance matters (observation): for unbalanced partitions the side that "
                  "holds i cannot be swapped w.l.o.g., and the rank can differ between "
                  "I = {i} and I = {j}, j != i; the same rank for all I of one size that "
                  "contain i, and for all of one size that do not",
                  source=SRC.cite("App. C l.867 ('w.l.o.g. a_1 = a~_1 = i')"), scope="sizes",
                  sizes=INSTANCE_SIZES) as s:
        cases = []
        for k, (L, d_x, H, N, M) in enumerate([(1, 2, 1, 5, 3), (2, 2, 1, 6, 3)]):
            net, T, seed = _instance(L, d_x, H, N, M, False, 50 + k)
            A = grid_tensor(net.as_function(0, 0, "ZZ"), T, N)
            by_size = {}
            for size in range(1, N // 2 + (N % 2)):
                with_i = {_rank(matricize(A, I)) for I in combinations(range(N), size) if 0 in I}
                without_i = {_rank(matricize(A, I)) for I in combinations(range(N), size)
                             if 0 not in I}
                by_size[size] = {"ranks_with_i": sorted(with_i),
                                 "ranks_without_i": sorted(without_i)}
                s.require(len(with_i) == 1 and len(without_i) == 1,
                          "ranks differ among partitions of one size with i on the same side",
                          counterexample={"N": N, "size": size, **by_size[size]})
            differs = any(v["ranks_with_i"] != v["ranks_without_i"] for v in by_size.values())
            cases.append({"L": L, "d_x": d_x, "H": H, "N": N, "M": M, "seed": seed,
                          "i": 1, "by_size_of_I": by_size, "side_of_i_matters": differs})
        s.record(cases=cases)


def _step_moments_symmetric(ctx):
    """Step: S = sum_j x^j x^j^T does not change under a permutation of the positions."""
    with ctx.step("permutations of the positions leave S = sum_j x^j x^j^T = X X^T unchanged: "
                  "(X P)(X P)^T = X P P^T X^T = X X^T for a permutation matrix P (P P^T = I; "
                  "sympy, symbolic d_x and N), so y_p^i = e_p^T G_L(S) x^i depends on the other "
                  "positions only through S (the moment form above)",
                  source=SRC.cite("App. C l.873-875"), kind="symbolic") as s:
        n, N = sp.symbols("n N", integer=True, positive=True)
        X, P = sp.MatrixSymbol("X", n, N), sp.MatrixSymbol("P", N, N)

        def invariant(orthogonal):
            moved = sp.expand((X * P) * (X * P).T)
            moved = moved.subs(P * P.T, sp.Identity(N)) if orthogonal else moved
            ok = sp.simplify(moved - X * X.T) == sp.ZeroMatrix(n, n) or \
                sp.expand(moved - X * X.T) == 0
            return moved, bool(ok)

        moved, ok = invariant(True)
        s.could_fail("S invariant", lambda orth: invariant(orth)[1], True,
                     {"P P^T = I not used (P not a permutation)": False})
        s.record(expression=str(moved), invariant=bool(ok))
        s.require(ok, "S changes under a permutation", expression=str(moved))


@paper_check(LEVINE2020, "L-Prop1", "the separation rank is the same for all balanced partitions",
             where="sec. 3 Prop. 1 l.106-112; App. C l.854-889", depends=("L-net",),
             kind="proposition",
             statement="Proposition 1: the separation rank of y_p^i is the same for every "
                       "balanced partition")
def l_prop1(ctx):
    instances = FULL if ctx.full else FAST

    _step_symmetry_fixing_i(ctx, instances)
    _step_equal_ranks(ctx, instances)
    _step_residual_equal_ranks(ctx, instances)
    _step_control_function(ctx)
    _step_unbalanced_partitions(ctx)
    moment_form_steps(ctx, SRC.cite("eq. (3) l.69-82; A.4 l.478-484"))
    _step_moments_symmetric(ctx)

    # -- outcome (seprank.proof.claims) --
    ctx.conclude("holds", "proof",
                 "App. C's argument, every step for all sizes: y_p^i = e_p^T G_L(S) x^i with S "
                 "= sum_j x^j x^j^T (the moment form, symbolic, plain and residual), and S is "
                 "unchanged by any permutation of the positions (symbolic), so y_p^i is "
                 "symmetric in the positions other than i; two balanced partitions are related "
                 "by a permutation fixing i (after swapping I and J if needed, which leaves the "
                 "separation rank unchanged), and renaming inputs preserves the separation "
                 "rank; steps 1-3 confirm it exactly on grid tensors", basis="argument",
                 argument_steps=("moment form:", "permutations of the positions"))
