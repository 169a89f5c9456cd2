"""Grid tensors of functions on template vectors, and matricization for any partition.

The one matricization convention of seprank (rows = positions in I in
increasing order, the first most significant) is stated with a worked example
in :mod:`seprank.tensors.grid`.
"""

from seprank.tensors.grid import (
    EVAL_CHUNK,
    balanced_partitions,
    check_partition,
    grid_inputs,
    grid_matrix,
    grid_tensor,
    matricization_index,
    matricize,
    submatrix,
    tensor_index,
    unmatricize,
)

__all__ = [
    "EVAL_CHUNK",
    "balanced_partitions",
    "check_partition",
    "grid_inputs",
    "grid_matrix",
    "grid_tensor",
    "matricization_index",
    "matricize",
    "submatrix",
    "tensor_index",
    "unmatricize",
]
