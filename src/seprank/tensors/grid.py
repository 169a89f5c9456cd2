"""Grid tensors of functions of N vectors, and their matricizations.

Grid tensor (levine2020 B.1.2, l.617; lecture notes ch. 7, l.88-98)
---------------------------------------------------------------------
Fix M template vectors x^(1), ..., x^(M). The grid tensor of a function
y(x^1, ..., x^N) is the order-N tensor with M^N entries

    A(y)[d_1, ..., d_N] = y(x^(d_1), ..., x^(d_N)),

i.e. position n of the sequence receives template number d_n.

Matricization: the one convention of seprank
--------------------------------------------
For a partition (I, J) of the positions, [[A]]_{I,J} has one row per
assignment of templates to the positions in I and one column per assignment to
the positions in J. Write I = {i_1 < ... < i_P} and J = {j_1 < ... < j_Q} in
*increasing* order. In the papers' 1-based notation (levine2020 B.1.1 l.613,
uniform dimension M, balanced partition P = Q = N/2):

    row = 1 + sum_{t=1}^{P} (d_{i_t} - 1) M^{P - t},
    col = 1 + sum_{t=1}^{Q} (d_{j_t} - 1) M^{Q - t},

so the *first* (smallest) position of I is the *most significant* digit. In
code every index is 0-based and mode n may have its own dimension M_n:

    row = sum_t d_{i_t} * prod_{s > t} M_{i_s},   col likewise over J,

which is exactly ``A.transpose(I + J).reshape(prod M_I, prod M_J)`` in C order.
:func:`matricize` and :func:`unmatricize` are inverse to each other; every
other module calls them.

The lecture notes (tensors_for_dl_theory_chapter7.txt l.102-136) state the
same convention with A = {a_1 < ... < a_{N_1}}, but print the row formula with
upper limit and exponent N_2 (= ``|B|``) where their own worked example (fig 7.3)
uses N_1 (= ``|A|``), and print uniform M = 2 for a tensor whose third mode takes 3
values. The two agree with the convention above only after those corrections;
in the balanced, uniform case of levine2020 (N_1 = N_2 = N/2) the slip is
invisible. The check C7-matricize (proofs/chapter7/c7_matricize.py) shows both.

Worked example (fig 7.3 of the lecture notes)
---------------------------------------------
Order 3, mode dimensions (2, 2, 3), I = {1, 3}, J = {2} (1-based), so in code
I = (0, 2), J = (1,). The entry A_{123} (0-based A[0, 1, 2]) lands in row
0 * 3 + 2 = 2 and column 1, i.e. row 3, column 2 in the figure's 1-based count:

>>> import numpy as np
>>> A = np.array([f"A{a}{b}{c}" for a in (1, 2) for b in (1, 2) for c in (1, 2, 3)],
...              dtype=object).reshape(2, 2, 3)
>>> Mat = matricize(A, (0, 2), (1,))
>>> for row in Mat.tolist():
...     print(*row)
A111 A121
A112 A122
A113 A123
A211 A221
A212 A222
A213 A223
>>> matricization_index((0, 1, 2), A.shape, (0, 2), (1,))
(2, 1)
>>> bool((unmatricize(Mat, A.shape, (0, 2), (1,)) == A).all())
True

Functions are given *batched*: ``f(X)`` takes an array X of shape
(batch, N, d_x) (batch sequences of N vectors) and returns an array of shape
(batch,). :meth:`seprank.models.SelfAttentionNetwork.as_function` makes one.

Mod p in bulk
-------------
A function may also offer ``f.grid_values(templates, I, J, rows, cols)``
returning the (R, C) block of entries directly (or None to decline). The
network functions of ``as_function(..., "GF(p)", p=p)`` do: their entries come
from the parallel numba kernel of :mod:`seprank.models.network_mod_p`, which
never builds the sequences. ``use_kernel=False`` here makes the functions below
build the sequences and call f on them; ``as_function(..., kernel=False)``
makes f itself evaluate with numpy (the ``ModularBackend`` of
:mod:`seprank.models.domains`) and decline the hook. All of these give the same residues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from math import prod

import numpy as np

from seprank.errors import InputError, ParameterError
from seprank.linalg.memory import require_fits

__all__ = [
    "EVAL_CHUNK",
    "check_partition",
    "balanced_partitions",
    "matricize",
    "unmatricize",
    "matricization_index",
    "tensor_index",
    "grid_inputs",
    "grid_tensor",
    "grid_matrix",
    "submatrix",
]

#: Sequences handed to ``f`` per call: bounds the memory of one batch
#: (EVAL_CHUNK * N * d_x entries, plus the network's intermediates).
EVAL_CHUNK = 4096

BatchFunction = Callable[[np.ndarray], np.ndarray]


# -- partitions --------------------------------------------------------------------------

def _as_position(x: object, N: int, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise ParameterError(f"{name} must hold integer positions, got {x!r}")
    x = int(x)
    if not 0 <= x < N:
        raise ParameterError(f"{name} holds position {x}, outside 0..{N - 1} (positions are "
                             "0-based)")
    return x


def check_partition(N: int, I: Iterable[int], J: Iterable[int] | None = None
                    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(I, J) as increasing tuples, after checking they partition 0..N-1.

    ``J`` defaults to the complement of ``I``.

    Raises
    ------
    ParameterError
        a position is out of range, repeated, in both I and J, or in neither.

    >>> check_partition(4, {2, 0})
    ((0, 2), (1, 3))
    """
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)) or N < 1:
        raise ParameterError(f"N (the number of positions) must be an integer >= 1, got {N!r}")
    N = int(N)
    Il = [_as_position(x, N, "I") for x in I]
    if len(set(Il)) != len(Il):
        raise ParameterError(f"I repeats a position: {sorted(Il)}")
    if J is None:
        in_I = set(Il)
        Jl = [x for x in range(N) if x not in in_I]
    else:
        Jl = [_as_position(x, N, "J") for x in J]
        if len(set(Jl)) != len(Jl):
            raise ParameterError(f"J repeats a position: {sorted(Jl)}")
    both = set(Il) & set(Jl)
    if both:
        raise ParameterError(f"I and J must be disjoint; position {min(both)} is in both")
    missing = set(range(N)) - set(Il) - set(Jl)
    if missing:
        raise ParameterError(f"I and J must cover positions 0..{N - 1}; position "
                             f"{min(missing)} is in neither")
    return tuple(sorted(Il)), tuple(sorted(Jl))


def balanced_partitions(N: int, *, ordered: bool = False
                        ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every balanced partition (I, J) of positions 0..N-1 (``|I| = |J| = N/2``).

    With ``ordered=False`` each unordered pair {I, J} appears once, as the
    (I, J) with 0 in I (matricizations w.r.t. (I, J) and (J, I) are transposes);
    with ``ordered=True`` both orders appear.

    Raises
    ------
    ParameterError
        N is odd (or < 2): no balanced partition exists.

    >>> balanced_partitions(4)
    [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    """
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)) or N < 2:
        raise ParameterError(f"N must be an integer >= 2 for a balanced partition, got {N!r}")
    if N % 2:
        raise ParameterError(f"N = {N} is odd: a balanced partition needs |I| = |J| = N/2")
    N = int(N)
    out = []
    for I in combinations(range(N), N // 2):
        if not ordered and 0 not in I:
            continue
        out.append((I, tuple(x for x in range(N) if x not in I)))
    return out


# -- matricization -----------------------------------------------------------------------

def _tensor_partition(A: np.ndarray, I: Iterable[int], J: Iterable[int] | None):
    if not isinstance(A, np.ndarray):
        raise InputError(f"the tensor must be a numpy array, got {type(A).__name__}")
    if A.ndim == 0:
        raise InputError("the tensor must have at least one mode")
    return check_partition(A.ndim, I, J)


def matricize(A: np.ndarray, I: Iterable[int], J: Iterable[int] | None = None) -> np.ndarray:
    """[[A]]_{I,J}: rows indexed by the modes in I, columns by those in J.

    Convention (module docstring): modes taken in increasing order, the first
    the most significant digit; mode n has radix A.shape[n]. Any partition is
    allowed (balanced or not; an empty side gives one row or one column).

    Parameters
    ----------
    A : numpy array of order N (any dtype, object included).
    I, J : 0-based modes; J defaults to the complement of I.

    Returns
    -------
    array of shape (prod of A.shape[i] for i in I, prod of A.shape[j] for j in J),
    a copy with A's dtype.

    See Also
    --------
    unmatricize : the inverse.
    matricization_index : where one entry goes.

    >>> matricize(np.arange(8).reshape(2, 2, 2), (1,)).tolist()  # row = mode 1, cols = (0, 2)
    [[0, 1, 4, 5], [2, 3, 6, 7]]
    """
    I, J = _tensor_partition(A, I, J)
    rows = prod(A.shape[i] for i in I)
    cols = prod(A.shape[j] for j in J)
    return np.ascontiguousarray(A.transpose(I + J)).reshape(rows, cols)


def unmatricize(Mat: np.ndarray, shape: Sequence[int], I: Iterable[int],
                J: Iterable[int] | None = None) -> np.ndarray:
    """The tensor of the given shape whose matricization w.r.t. (I, J) is ``Mat``.

    Raises
    ------
    InputError
        ``Mat`` does not have the shape that ``shape`` and (I, J) imply.

    >>> A = np.arange(8).reshape(2, 2, 2)
    >>> bool((unmatricize(matricize(A, (1,)), (2, 2, 2), (1,)) == A).all())
    True
    """
    shape = tuple(int(s) for s in shape)
    I, J = check_partition(len(shape), I, J)
    want = (prod(shape[i] for i in I), prod(shape[j] for j in J))
    Mat = np.asarray(Mat)
    if Mat.shape != want:
        raise InputError(f"matrix has shape {Mat.shape}; shape {shape} with I = {I} needs {want}")
    order = I + J
    inverse = [order.index(n) for n in range(len(shape))]
    return np.ascontiguousarray(
        Mat.reshape([shape[i] for i in I] + [shape[j] for j in J]).transpose(inverse))


def _digits_to_number(digits: Sequence[int], radices: Sequence[int]) -> int:
    number = 0
    for d, m in zip(digits, radices, strict=True):
        number = number * m + d
    return number


def _number_to_digits(number: int, radices: Sequence[int]) -> tuple[int, ...]:
    out = []
    for m in reversed(radices):
        number, d = divmod(number, m)
        out.append(d)
    return tuple(reversed(out))


def matricization_index(index: Sequence[int], shape: Sequence[int], I: Iterable[int],
                        J: Iterable[int] | None = None) -> tuple[int, int]:
    """(row, col) of the entry A[index] in [[A]]_{I,J} (all 0-based).

    With I = (1,) on shape (2, 2, 2), A[1, 0, 1] has row 0 (mode 1) and
    column 1 * 2 + 1 = 3 (modes 0, 2):

    >>> matricization_index((1, 0, 1), (2, 2, 2), (1,))
    (0, 3)
    """
    I, J = check_partition(len(shape), I, J)
    if len(index) != len(shape) or any(not 0 <= d < m for d, m in zip(index, shape, strict=True)):
        raise ParameterError(f"index {tuple(index)} is outside a tensor of shape {tuple(shape)}")
    row = _digits_to_number([index[i] for i in I], [shape[i] for i in I])
    col = _digits_to_number([index[j] for j in J], [shape[j] for j in J])
    return row, col


def tensor_index(row: int, col: int, shape: Sequence[int], I: Iterable[int],
                 J: Iterable[int] | None = None) -> tuple[int, ...]:
    """The tensor index whose entry sits at (row, col) of [[A]]_{I,J} (inverse of above).

    >>> tensor_index(0, 3, (2, 2, 2), (1,))
    (1, 0, 1)
    """
    I, J = check_partition(len(shape), I, J)
    rI, rJ = [shape[i] for i in I], [shape[j] for j in J]
    if not (0 <= row < prod(rI) and 0 <= col < prod(rJ)):
        raise ParameterError(f"(row, col) = ({row}, {col}) is outside the "
                             f"{prod(rI)} x {prod(rJ)} matricization")
    index = [0] * len(shape)
    for n, d in zip(I, _number_to_digits(row, rI), strict=True):
        index[n] = d
    for n, d in zip(J, _number_to_digits(col, rJ), strict=True):
        index[n] = d
    return tuple(index)


# -- grid tensors ------------------------------------------------------------------------

def _templates(templates: object) -> np.ndarray:
    T = np.asarray(templates)
    if T.ndim != 2 or T.shape[0] < 1:
        raise InputError(f"templates must be an (M, d_x) array with M >= 1, got shape {T.shape}")
    return T


def grid_inputs(templates: object, indices: np.ndarray) -> np.ndarray:
    """The sequences X[b, n] = templates[indices[b, n]]: shape (batch, N, d_x).

    >>> grid_inputs([[1, 0], [0, 1]], [[1, 0, 0]]).tolist()
    [[[0, 1], [1, 0], [1, 0]]]
    """
    T = _templates(templates)
    idx = np.asarray(indices, dtype=np.int64)
    if idx.ndim != 2:
        raise InputError(f"indices must be (batch, N), got shape {idx.shape}")
    if idx.size and (idx.min() < 0 or idx.max() >= T.shape[0]):
        raise ParameterError(f"template indices must lie in 0..{T.shape[0] - 1} (M = "
                             f"{T.shape[0]} templates)")
    return T[idx]


def _evaluate(f: BatchFunction, templates: np.ndarray, indices: np.ndarray,
              chunk: int) -> np.ndarray:
    """f on the sequences given by template indices, ``chunk`` sequences per call."""
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ParameterError(f"chunk must be an integer >= 1, got {chunk!r}")
    parts = []
    for start in range(0, len(indices), chunk):
        X = grid_inputs(templates, indices[start:start + chunk])
        out = np.asarray(f(X))
        if out.shape != (len(X),):
            raise InputError(f"f must return one value per sequence: shape ({len(X)},) "
                             f"expected, got {out.shape}")
        parts.append(out)
    if not parts:
        return np.empty(0, dtype=object)
    return np.concatenate(parts)


def _kernel_block(f: BatchFunction, use_kernel: bool, T: np.ndarray, I: tuple[int, ...],
                  J: tuple[int, ...], rows: np.ndarray, cols: np.ndarray) -> np.ndarray | None:
    """The (R, C) block from ``f.grid_values`` (module docstring), or None to evaluate f."""
    if not use_kernel:
        return None
    hook = getattr(f, "grid_values", None)
    if hook is None:
        return None
    return hook(T, I, J, rows, cols)


def _all_digits(M: int, k: int) -> np.ndarray:
    """Every k-tuple of template indices in 0..M-1, in C order: shape (M^k, k)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int64)  # the one empty tuple
    return np.indices((M,) * k).reshape(k, -1).T.reshape(M ** k, k).astype(np.int64)


def grid_tensor(f: BatchFunction, templates: object, N: int, *,
                chunk: int = EVAL_CHUNK, use_kernel: bool = True) -> np.ndarray:
    """The grid tensor A[d_1, ..., d_N] = f(x^(d_1), ..., x^(d_N)), shape (M,) * N.

    Parameters
    ----------
    f : batched function (module docstring).
    templates : (M, d_x) array; row m is template m (0-based).
    N : number of positions.
    chunk : sequences per call of f.
    use_kernel : use ``f.grid_values`` when f has it (a network over GF(p):
        the numba kernel); False always calls f on the sequences.

    Raises
    ------
    MemoryLimitError
        the M^N entries (and their template indices) cannot fit in memory.

    Notes
    -----
    Evaluates f on all M^N sequences; for a few rows and columns of a
    matricization use :func:`submatrix`, which evaluates only those.

    >>> grid_tensor(lambda X: X[:, 0, 0] - X[:, 1, 0], [[0], [10]], 2).tolist()
    [[0, -10], [10, 0]]
    """
    T = _templates(templates)
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)) or N < 1:
        raise ParameterError(f"N (the number of positions) must be an integer >= 1, got {N!r}")
    M, N = T.shape[0], int(N)
    if use_kernel and hasattr(f, "grid_values"):
        # the first half of the positions as rows: the (R, C) block in C order is the tensor
        I, J = tuple(range((N + 1) // 2)), tuple(range((N + 1) // 2, N))
        require_fits(8 * M ** N + 8 * (len(I) * M ** len(I) + len(J) * M ** len(J)),
                     f"grid tensor of {M}^{N} entries")
        block = _kernel_block(f, use_kernel, T, I, J, _all_digits(M, len(I)),
                              _all_digits(M, len(J)))
        if block is not None:
            return block.reshape((M,) * N)
    require_fits(8 * (N + 2) * M ** N, f"grid tensor of {M}^{N} entries (template indices "
                 "and values)")
    indices = np.indices((M,) * N).reshape(N, -1).T  # C order: last position fastest
    return _evaluate(f, T, indices, chunk).reshape((M,) * N)


def grid_matrix(f: BatchFunction, templates: object, N: int, I: Iterable[int],
                J: Iterable[int] | None = None, *, chunk: int = EVAL_CHUNK,
                use_kernel: bool = True) -> np.ndarray:
    """[[A(f)]]_{I,J}, the matricization of the whole grid tensor (see :func:`grid_tensor`).

    >>> grid_matrix(lambda X: X[:, 0, 0] - X[:, 1, 0], [[0], [10]], 2, (1,)).tolist()
    [[0, 10], [-10, 0]]
    """
    return matricize(grid_tensor(f, templates, N, chunk=chunk, use_kernel=use_kernel), I, J)


def _side_digits(spec: Sequence[object], side: tuple[int, ...], M: int, name: str
                 ) -> list[tuple[int, ...]]:
    """Template digits for the positions of one side, from row numbers or digit tuples."""
    radices = [M] * len(side)
    out = []
    for r in spec:
        if isinstance(r, (int, np.integer)) and not isinstance(r, bool):
            if not 0 <= int(r) < M ** len(side):
                raise ParameterError(f"{name} {int(r)} is outside 0..{M ** len(side) - 1}")
            out.append(_number_to_digits(int(r), radices))
        else:
            digits = tuple(int(x) for x in r)
            if len(digits) != len(side) or any(not 0 <= x < M for x in digits):
                raise ParameterError(f"{name} {digits} must give one template index in "
                                     f"0..{M - 1} for each of the {len(side)} positions {side}")
            out.append(digits)
    return out


def submatrix(f: BatchFunction, templates: object, N: int, I: Iterable[int],
              J: Iterable[int] | None, rows: Sequence[object], cols: Sequence[object], *,
              chunk: int = EVAL_CHUNK, use_kernel: bool = True) -> np.ndarray:
    """Rows ``rows`` and columns ``cols`` of [[A(f)]]_{I,J}, evaluating only those entries.

    Parameters
    ----------
    f, templates, N : as for :func:`grid_tensor`.
    I, J : the partition (J = None: the complement of I).
    rows : each either a row number of the matricization (0-based) or a tuple of
        template indices, one per position of I in increasing order.
    cols : likewise for J.
    chunk : sequences per call of f.
    use_kernel : use ``f.grid_values`` when f has it (a network over GF(p):
        the numba kernel, no sequences built); False always calls f.

    Returns
    -------
    array of shape (len(rows), len(cols)): entry (a, b) is f evaluated on the
    sequence that puts the templates of rows[a] on I and those of cols[b] on J.
    Equal to ``grid_matrix(...)[np.ix_(row_numbers, col_numbers)]``.

    Raises
    ------
    MemoryLimitError
        the entries (and, without the kernel, their template indices) cannot
        fit in memory.

    Templates 0 and 10, f = x_1 - x_2; row 1 puts template 1 at position 0:

    >>> submatrix(lambda X: X[:, 0, 0] - X[:, 1, 0], [[0], [10]], 2, (0,), None,
    ...           [1], [(0,), (1,)]).tolist()
    [[10, 0]]
    """
    T = _templates(templates)
    I, J = check_partition(N, I, J)
    M = T.shape[0]
    rdig = _side_digits(rows, I, M, "row")
    cdig = _side_digits(cols, J, M, "column")
    rarr = np.array(rdig, dtype=np.int64).reshape(len(rdig), len(I))
    carr = np.array(cdig, dtype=np.int64).reshape(len(cdig), len(J))
    if use_kernel and hasattr(f, "grid_values"):
        block = _kernel_block(f, use_kernel, T, I, J, rarr, carr)
        if block is not None:
            return block
    require_fits(8 * len(rdig) * len(cdig) * (int(N) + 2),
                 f"{len(rdig)} x {len(cdig)} grid sub-matrix (template indices and values)")
    indices = np.zeros((len(rdig) * len(cdig), int(N)), dtype=np.int64)
    if indices.size:
        view = indices.reshape(len(rdig), len(cdig), int(N))
        for t, n in enumerate(I):
            view[:, :, n] = rarr[:, t][:, None]
        for t, n in enumerate(J):
            view[:, :, n] = carr[:, t][None, :]
    values = _evaluate(f, T, indices, chunk)
    return values.reshape(len(rdig), len(cdig))
