"""What a separation-rank computation is asked: the network, the output, the partition, seeds.

:func:`build_network` makes the :class:`~seprank.models.SelfAttentionNetwork` once,
from weights (JSON lists or exact arrays, checked where they arrive; never sent
through JSON and back) or from a seeded draw; :class:`SeparationRequest` is the
checked question that :func:`seprank.separation.plan_separation` hands to the
routes (:mod:`seprank.separation.route`).

Seeds: ``weights_seed`` draws the weights (:func:`seprank.models.generic_weights.
seeded_network`: nonzero integers uniform in [-G, G], the one draw of every command,
generic with a stated probability);
``points_seed`` draws a route's random evaluation points (the grid route's). They
are separate so that one network can be evaluated on other points; by default
``points_seed`` is the weights seed, which keeps the answers of the single ``seed``
of earlier versions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from seprank.budget import Budget, current, make_budget
from seprank.errors import InputError, ParameterError
from seprank.models.generic_weights import seeded_network
from seprank.models.network import SelfAttentionNetwork
from seprank.models.weights import weights_from_json
from seprank.separation.monomials import monomial_count
from seprank.separation.vocabulary import check_bool, check_int

__all__ = ["SeparationRequest", "Positions", "build_network", "exact_weight_arrays"]


@dataclass(frozen=True)
class Positions:
    """What a route's option says about a request's positions
    (:meth:`seprank.separation.route.SeparationRoute.positions`).

    ``N``: the sequence length the option fixes (the tokens the network reads);
    ``count``: the number of positions a partition (I, J) is of; ``what``: those
    positions in words, for errors and ``--explain`` (empty: the N positions).

    A wies2021 convolution embedding of k-patches fixes N (its patches) and partitions
    its M = k N raw input positions:

    >>> p = Positions(2, 4, "the M = 4 raw input positions (k = 2 per token)")
    >>> p.count > p.N
    True
    """

    N: int
    count: int
    what: str = ""


@dataclass(frozen=True, eq=False)
class SeparationRequest:
    """The checked question: sep rank of y_coordinate^position of ``network`` w.r.t. (I, J).

    Attributes
    ----------
    network : SelfAttentionNetwork
    N : int or float
        the sequence length (>= 2), or ``math.inf`` for the limit N -> infinity
        (then ``J`` is None: every other position).
    I, J : tuple of int or None
        the partition of the positions (0-based, increasing), parsed once by the
        planner; at N = inf ``I`` is the side asked for (None: the partitions of the
        moment route's propositions) and ``J`` is None. The positions are the N of the
        sequence unless a route's option says otherwise (``positions``).
    position, coordinate : int
        the output y_p^i (0-based).
    weights_seed : int or None
        the seed that drew the weights (None: the weights were given).
    points_seed : int
        the seed of random evaluation points.
    prime : int or None
        a prime asked for (None: the route's default).
    certify : bool
        attach rank certificates and verify them independently.
    options : mapping
        route options (``templates``, ``rank_method``, ...): only the routes that
        take an option can run when it is given (:attr:`SeparationRoute.takes`).
    budget : seprank.budget.Budget
        the limits the computation must stay within (``max_memory``, ``max_seconds``;
        default the machine's memory): the planner checks each route's estimate against
        it, and a route that allocates in stages may ask ``budget.require(bytes, what)``.
    positions : Positions or None
        what a route's option says the partition is of (a convolution embedding: its M
        raw input positions, :meth:`SeparationRoute.positions`); None: the N positions.
        Then ``possible_terms`` is None (the output is not read in the N d_x inputs).

    Examples
    --------
    >>> net = build_network(1, 1, 1, weights_seed=0)
    >>> req = SeparationRequest(net, 2, (0,), (1,), 0, 0, 0, 0)
    >>> req.degree, req.possible_terms, req.finite
    (3, 4, True)
    """

    network: SelfAttentionNetwork
    N: int | float
    I: tuple[int, ...] | None
    J: tuple[int, ...] | None
    position: int
    coordinate: int
    weights_seed: int | None
    points_seed: int
    prime: int | None = None
    certify: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    budget: Budget = field(default_factory=current)
    positions: Positions | None = None

    @property
    def finite(self) -> bool:
        """Whether N is a number of positions (not the limit N -> infinity)."""
        return isinstance(self.N, int)

    @property
    def degree(self) -> int:
        """3^L, the degree of the output (levine2020 l.75; residual: the largest degree)."""
        return 3 ** self.network.L

    @property
    def possible_terms(self) -> int | None:
        """Monomials the output can have: C(N d_x + D - 1, D) (residual: degree <= D);
        None at N = inf and when a route's option reads the inputs otherwise
        (``positions``)."""
        if not self.finite or self.positions is not None:
            return None
        return monomial_count(self.N * self.network.d_x, self.degree,
                              up_to=self.network.residual)

    @property
    def partition_size(self) -> int | float:
        """The number of positions I and J partition: N, or ``positions.count``."""
        return self.N if self.positions is None else self.positions.count

    @property
    def shape(self) -> dict[str, int]:
        """{"L", "d_x", "H", "d_a"} of the network."""
        n = self.network
        return {"L": n.L, "d_x": n.d_x, "H": n.H, "d_a": n.d_a}


def exact_weight_arrays(weights: Mapping[str, object]) -> tuple[dict, dict]:
    """Weight arrays and their shape {"L", "H", "d_a", "d_x"}, checked: every entry an
    integer or a Fraction (floats and bools refused), each of Q, K, V, O 4-dimensional.

    JSON-style nested lists (integers or ``"p/q"`` strings) go to
    :func:`seprank.models.weights.weights_from_json`; numpy arrays are checked
    here as they are.

    Raises
    ------
    InputError
        a missing kind, a non-exact entry, shapes that do not fit one network.

    Examples
    --------
    >>> arrs, dims = exact_weight_arrays({k: np.ones((1, 1, 1, 2), dtype=np.int64)
    ...                                   for k in "QKV"} | {"O": np.ones((1, 1, 2, 1))})
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: weights['O'] holds 1.0 (float); weights are integers or Fractions
    """
    if not isinstance(weights, Mapping):
        raise InputError(f"weights must be a mapping with keys Q, K, V, O; got "
                         f"{type(weights).__name__}")
    if not any(isinstance(weights.get(k), np.ndarray) for k in "QKVO"):
        return weights_from_json(dict(weights))
    arrs = {}
    for k in "QKVO":
        if k not in weights:
            raise InputError(f"weights lack the member {k}")
        arr = np.asarray(weights[k], dtype=object)
        if arr.ndim != 4:
            raise InputError(f"weights['{k}'] must be 4-dimensional [layer][head][row][col], "
                             f"got shape {arr.shape}")
        for x in arr.flat:
            if isinstance(x, bool) or not isinstance(x, (int, np.integer, Fraction)):
                raise InputError(f"weights['{k}'] holds {x!r} ({type(x).__name__}); weights "
                                 "are integers or Fractions")
        arrs[k] = arr
    L, H, d_a, d_x = arrs["Q"].shape
    return arrs, {"L": L, "H": H, "d_a": d_a, "d_x": d_x}


def _same_weights(a: SelfAttentionNetwork, b: SelfAttentionNetwork) -> bool:
    return all(a.weights[k].shape == b.weights[k].shape
               and bool(np.all(a.weights[k] == b.weights[k])) for k in "QKVO")


def build_network(L: int | None = None, d_x: int | None = None, H: int | None = None,
                  d_a: int | None = None, *, residual: bool | None = None,
                  weights_seed: int | None = None, weights: Mapping | None = None,
                  network: SelfAttentionNetwork | None = None,
                  budget: Budget | None = None) -> SelfAttentionNetwork:
    """The network of a separation-rank question, built once.

    Parameters
    ----------
    L, d_x, H, d_a
        the shape (levine2020 l.81; H defaults to 1, d_a to d_x / H); with
        ``weights`` or ``network`` they may be left out, and must match if given.
    residual
        skip connections (levine2020 A.4); None: the network's, else False.
    weights_seed
        draws the weights when neither ``weights`` nor ``network`` is given (default 0);
        with them, it is checked to draw exactly these weights (so that a recorded
        seed is a true one).
    weights
        {Q, K, V, O} as JSON lists (integers, ``"p/q"`` strings) or exact arrays.
    network
        a network to use as it is.
    budget
        the :class:`~seprank.budget.Budget` a seeded draw is checked against first
        (default: :func:`seprank.budget.current`).

    Raises
    ------
    ParameterError, InputError
        both ``weights`` and ``network``; a shape that does not match; a missing L
        or d_x; a residual flag that is not a bool or contradicts the network.

    Examples
    --------
    >>> build_network(2, 2, weights_seed=1)
    SelfAttentionNetwork(L=2, d_x=2, H=1, d_a=2, residual=False)
    >>> build_network(1, 2, weights={k: [[[[1]]]] for k in "QKVO"})
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: the weights have d_x = 1, but d_x = 2 was asked for
    """
    if residual is not None:
        check_bool("residual", residual)
    if weights_seed is not None:
        check_int("weights_seed", weights_seed, 0)
    if network is not None and weights is not None:
        raise ParameterError("pass either network or weights, not both")
    if network is None and weights is None:
        for name, v in (("L", L), ("d_x", d_x)):
            if v is None:
                raise ParameterError(f"{name} is needed (or pass weights)")
        from seprank.separation.sizes import check_network

        check_network({"L": L, "d_x": d_x, "H": H, "d_a": d_a}, None, make_budget(budget=budget))
        return seeded_network(L, d_x, 1 if H is None else H, d_a, residual=bool(residual),
                              seed=0 if weights_seed is None else weights_seed)
    if network is not None:
        if not isinstance(network, SelfAttentionNetwork):
            raise ParameterError(f"network must be a SelfAttentionNetwork, got "
                                 f"{type(network).__name__}")
        net = network
        dims = {"L": net.L, "d_x": net.d_x, "H": net.H, "d_a": net.d_a}
        if residual is not None and residual != net.residual:
            raise InputError(f"residual={residual} was asked, but the network has "
                             f"residual={net.residual}")
    else:
        arrs, dims = exact_weight_arrays(weights)
        net = SelfAttentionNetwork(dims["L"], dims["d_x"], dims["H"], dims["d_a"],
                                   residual=bool(residual), weights=arrs)
    for name, given in (("L", L), ("d_x", d_x), ("H", H), ("d_a", d_a)):
        if given is not None and given != dims[name]:
            raise InputError(f"the weights have {name} = {dims[name]}, but {name} = {given} "
                             "was asked for")
    if weights_seed is not None:
        drawn = seeded_network(net.L, net.d_x, net.H, net.d_a, residual=net.residual,
                               seed=weights_seed)
        if not _same_weights(net, drawn):
            raise ParameterError(f"weights_seed={weights_seed} does not draw these weights; "
                                 "leave it out when the weights are given")
    return net
