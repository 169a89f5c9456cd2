"""Reference ranks for tests: small, slow and independent of the engines.

Pure Python integer arithmetic only (no flint, no numpy linear algebra, no
sympy, which may itself call flint): fraction-free Gaussian elimination over
Z for the rank over Q, and plain elimination mod p.
"""

from fractions import Fraction
from math import lcm


def _int_rows(a):
    rows = []
    for row in (a.tolist() if hasattr(a, "tolist") else a):
        row = [Fraction(x) if not isinstance(x, int) else x for x in row]
        den = 1
        for x in row:
            if isinstance(x, Fraction):
                den = lcm(den, x.denominator)
        rows.append([int(x * den) for x in row])
    return rows


def rank_q(a) -> int:
    """Exact rank over Q (Bareiss-style fraction-free elimination)."""
    m = _int_rows(a)
    if not m or not m[0]:
        return 0
    rows, cols = len(m), len(m[0])
    r, prev = 0, 1
    for c in range(cols):
        piv = next((i for i in range(r, rows) if m[i][c]), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        for i in range(r + 1, rows):
            m[i] = [(m[r][c] * x - m[i][c] * y) // prev for x, y in zip(m[i], m[r], strict=True)]
        prev = m[r][c]
        r += 1
        if r == rows:
            break
    return r


def rank_mod_p(a, p: int) -> int:
    """Rank over GF(p)."""
    m = [[x % p for x in row] for row in _int_rows(a)]
    if not m or not m[0]:
        return 0
    r, rows, cols = 0, len(m), len(m[0])
    for c in range(cols):
        piv = next((i for i in range(r, rows) if m[i][c]), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        inv = pow(m[r][c], -1, p)
        for i in range(r + 1, rows):
            if m[i][c]:
                f = m[i][c] * inv % p
                m[i] = [(x - f * y) % p for x, y in zip(m[i], m[r], strict=True)]
        r += 1
    return r


def column_profile_mod_p(a, p: int) -> list[int]:
    """Greedy first independent columns over GF(p) (the column rank profile)."""
    rows = _int_rows(a)
    cols, cur = [], 0
    for j in range(len(rows[0]) if rows else 0):
        trial = cols + [j]
        r = rank_mod_p([[row[c] for c in trial] for row in rows], p)
        if r > cur:
            cols, cur = trial, r
    return cols
