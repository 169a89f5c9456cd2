"""Exact helpers over Q (Fractions): Hadamard product, products, and an LDL^T PSD test."""

from __future__ import annotations

import random
from fractions import Fraction


def hadamard(A, B):
    """Entrywise product."""
    return [[a * b for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(A, B, strict=True)]


def matmul(A, B):
    return [[sum(a * B[k][j] for k, a in enumerate(row)) for j in range(len(B[0]))]
            for row in A]


def transpose(A):
    return [list(col) for col in zip(*A, strict=True)]


def random_int_matrix(rng: random.Random, rows: int, cols: int, bound: int = 3):
    return [[rng.randint(-bound, bound) for _ in range(cols)] for _ in range(rows)]


def ldl_pivots(S):
    """Symmetric elimination of ``S`` over Q without pivoting: (pivots, certificate_ok).

    S is positive semidefinite iff every pivot d_k >= 0 and, where d_k = 0, the
    rest of column k is 0 (Schur complements). Returns the pivots and whether
    that holds; an exact LDL^T factorization S = L D L^T with D = diag(pivots).
    """
    n = len(S)
    M = [[Fraction(x) for x in row] for row in S]
    pivots = []
    for k in range(n):
        d = M[k][k]
        pivots.append(d)
        if d < 0:
            return pivots, False
        if d == 0:
            if any(M[i][k] != 0 for i in range(k + 1, n)):
                return pivots, False
            continue
        for i in range(k + 1, n):
            f = M[i][k] / d
            if f:
                for j in range(k, n):
                    M[i][j] -= f * M[k][j]
    return pivots, True
