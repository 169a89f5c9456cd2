"""Exact separation ranks of the outputs of levine2020 eq. (3) networks.

:func:`separation_rank` is the entry point (also ``seprank.separation_rank``
and ``seprank sep-rank``); the mathematics is in
:mod:`seprank.separation.polynomial` (coefficient route) and
:mod:`seprank.separation.gridroute` (grid route mod p); wies2021's vocabulary and
convolution embeddings: :func:`embedded_separation_rank`.
"""

from seprank.separation.core import (
    SeparationRankResult,
    network_bounds,
    separation_rank,
)
from seprank.separation.embedded import embedded_separation_rank
from seprank.separation.weights import load_weights, weights_from_json, weights_to_json

__all__ = ["separation_rank", "embedded_separation_rank", "SeparationRankResult",
           "network_bounds", "load_weights", "weights_from_json", "weights_to_json"]
