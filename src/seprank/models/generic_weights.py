"""One network per seed: the weights every command draws, and what "generic" means for them.

The papers' statements are about almost every weight (levine2020 sec. 3, wies2021 sec. 4):
the number a theorist wants is the *generic* separation rank, the largest value, taken
on a dense open set of weights. Every command and API function that builds a network
from a seed (``sep-rank``, ``grid-rank``, sweeps, the atlas; :func:`seeded_network`)
draws it here, so one seed names one network everywhere.

The draw
--------
Every weight (W^Q, W^K, W^V of each layer and head, then W^O; ``numpy.random.
default_rng(seed)``) is an integer drawn uniformly from S = [-G, G] without 0
(|S| = 2G), G = :func:`generic_bound` (L). Zero is left out so that no output coordinate
or head vanishes by a zero weight; G grows where the exact arithmetic stays cheap.

Why such a draw is generic with a stated probability
----------------------------------------------------
Every entry of the moment matrix C_F (and every output coefficient at finite N) is a
polynomial in the weights of degree e_L = 2 (3^L - 1): a layer maps y to
sum_h W^O W^V sum_j (y_i^T W^QT W^K y_j) y_j, of degree 4 + 3 deg(y)
(:func:`weight_degree`; residual connections add lower degrees only). The generic rank
R_gen is the rank of C_F over the field of rational functions in the weights; a
nonzero R_gen-minor is a polynomial of degree <= e_L R_gen <= e_L U, with U any bound on
the rank valid for every weight (the sum of the blocks' smaller sides). By
Schwartz-Zippel (a nonzero polynomial of degree D vanishes at a uniform point of S^n
with probability <= D / |S|), the drawn network has rank R_gen except with probability

    epsilon <= e_L U / (2G)                                (:func:`generic_epsilon`),

and its rank never exceeds R_gen. So:

* the drawn network's certified rank is a certified lower bound of R_gen, always;
* when it meets an upper bound valid for every weight (U), R_gen equals it: the value
  holds for almost every weight, with no probability involved;
* otherwise R_gen equals it with probability >= 1 - epsilon over the draw (stated when
  epsilon < 1; at large sizes the bound is weak, and independent seeds agreeing is the
  evidence, not a proof).
"""

from __future__ import annotations

__all__ = ["weight_degree", "generic_bound", "generic_epsilon", "seeded_network",
           "generic_statement", "GENERIC_COEFFICIENT_BITS", "WEIGHTS_DOC"]

#: The draw aims at coefficients of about this many bits in the exact expansions
#: (e_L log2 G): G = 2^b with b = GENERIC_COEFFICIENT_BITS // e_L, between 3 and 20 bits.
#: L = 1: G = 2^20; L = 2: 2^12; L >= 3: 2^3. Measured (2026-11-28, ranks mod p of every
#: block, seeds 0-3): weights in [-2, 2] miss the generic value often at L = 3 (residual
#: d_x = 2: 205, 205, 10, 71 where [-2^18, 2^18] gives 232 every time), [-4, 4] and
#: [-8, 8] without 0 met it on every seed tried; at L = 3 the exact expansion and the
#: exact ranks cost several times more per extra bit (L = 3, d_x = 4: 19 s at 2 bits,
#: 58 s at 10 bits), and the Schwartz-Zippel bound is no use there at any affordable G.
GENERIC_COEFFICIENT_BITS = 200
#: How seeds become weights, in one sentence (the CLI's help and the docs say it).
WEIGHTS_DOC = ("weights are nonzero integers drawn uniformly from [-G, G] with the seed, "
               "G = 2^20, 2^12, 2^3 for L = 1, 2, >= 3 (seprank.models.generic_weights)")


def weight_degree(L: int) -> int:
    """Degree in the weights of every entry of C_F and of every output coefficient.

    >>> [weight_degree(L) for L in (1, 2, 3)]
    [4, 16, 52]
    """
    return 2 * (3**L - 1)


def generic_bound(L: int) -> int:
    """G of the draw (module docstring): 2^b, b = GENERIC_COEFFICIENT_BITS // e_L in [3, 20].

    >>> [generic_bound(L) for L in (1, 2, 3, 4)]
    [1048576, 4096, 8, 8]
    """
    bits = min(20, max(3, GENERIC_COEFFICIENT_BITS // weight_degree(L)))
    return 2**bits


def generic_epsilon(L: int, upper: int, bound: int) -> float:
    """Schwartz-Zippel's bound e_L U / (2G) on the probability that the draw's rank is
    below the generic rank (capped at 1.0: no information).

    >>> generic_epsilon(1, 3, 2**20) < 1e-5, generic_epsilon(3, 31460, 16)
    (True, 1.0)
    """
    return min(1.0, weight_degree(L) * upper / (2 * bound))


def seeded_network(L: int, d_x: int, H: int = 1, d_a: int | None = None, *,
                   residual: bool = False, seed: int = 0, bound: int | None = None):
    """The network a seed names, in every command (module docstring).

    >>> net = seeded_network(2, 2, 1, seed=3)
    >>> int(abs(net.weights["Q"]).max()) <= 4096, 0 not in net.weights["O"].ravel().tolist()
    (True, True)
    >>> seeded_network(2, 2, 1, seed=3).weights["V"].tolist() == net.weights["V"].tolist()
    True
    """
    from seprank.models.network import SelfAttentionNetwork

    G = generic_bound(L) if bound is None else bound
    return SelfAttentionNetwork.random(L, d_x, H, d_a, residual=residual, seed=seed, bound=G,
                                       nonzero=True)


def generic_statement(L: int, value: int, kind: str, upper_all: int, bound: int | None
                      ) -> dict:
    """What an instance's value says of the generic value (module docstring).

    ``value``/``kind``: the drawn network's answer; ``upper_all``: an upper bound valid for
    every weight; ``bound``: the G it was drawn with (None: the weights were given, so
    only the lower bound is claimed).

    >>> generic_statement(1, 3, "exact", 3, 2**20)["claim"]
    'exact for almost every weight'
    >>> s = generic_statement(2, 107, "exact", 110, 4096)
    >>> s["claim"], round(s["epsilon"], 3)
    ('lower bound for almost every weight; equal with probability >= 1 - epsilon', 0.215)
    """
    certified = kind in ("exact", "lower_bound", "probabilistic")
    out = {"lower_bound": value if certified else None, "upper_bound_all_weights": upper_all,
           "weight_bound": bound}
    if kind == "exact" and value == upper_all:
        out.update(claim="exact for almost every weight", epsilon=0.0,
                   why=f"the drawn network's certified rank {value} meets the bound "
                       f"{upper_all} that holds for every weight")
        return out
    if bound is None or kind != "exact":
        out.update(claim="lower bound for almost every weight", epsilon=None,
                   why=("the weights were given, not drawn: their rank bounds the generic "
                        "rank from below" if bound is None else
                        f"the drawn network's rank is {kind}, not exact: only the lower "
                        "bound is claimed"))
        return out
    eps = generic_epsilon(L, upper_all, bound)
    out.update(claim="lower bound for almost every weight; equal with probability "
                     ">= 1 - epsilon", epsilon=eps,
               why=(f"Schwartz-Zippel over the draw from [-{bound}, {bound}] without 0: "
                    f"epsilon <= e_L U / (2G) = {weight_degree(L)} * {upper_all} / "
                    f"{2 * bound}" + ("" if eps < 1 else " >= 1: no useful bound at this "
                                      "size; compare seeds")))
    return out
