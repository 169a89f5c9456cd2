"""Issue 12: rank engines people can trust (regressions for items 1-6, and campaigns).

Expected values come from construction (the residues of a uint64 above 2^63,
determinants built as products of chosen primes) and from the pure-Python
reference in tests/reference.py, never from the engines.
"""

import os
from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import seprank
from seprank.errors import InputError, SeprankError
from seprank.linalg.certificates import (
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.residues import ResidueMatrix
from seprank.scalars.primes import DEFAULT_PRIME, is_prime, prev_prime

from .reference import rank_mod_p, rank_q

_FUZZ = os.environ.get("SEPRANK_FUZZ", "")
CAMPAIGN = int(_FUZZ) if _FUZZ.isdigit() and int(_FUZZ) > 1 else (20 if _FUZZ == "1" else 1)

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]


# ---------------------------------------------------------------- item 1: GF(p) input

def test_uint64_above_2_63_is_reduced_not_wrapped():
    # 2^63 + 6 = 7 (2^63 + 6) / 7 ... : 2^63 = 1 mod 7 (2^3 = 1), so 2^63 + 6 = 0 mod 7
    R = ResidueMatrix(np.array([[2**63 + 6, 0], [0, 0]], dtype=np.uint64), 7)
    res = seprank.rank(R)
    assert (res.value, res.kind, res.field) == (0, "exact", "GF(7)")
    big = np.full((600, 600), 2**63 + 6, dtype=np.uint64)  # the numba path: same answer
    assert seprank.rank(ResidueMatrix(big, 7)).value == 0


@pytest.mark.parametrize("n", [2, 600])
@pytest.mark.parametrize("bad", [0.5, float("nan"), float("inf"), -float("inf"), 2.0**60])
def test_float_residues_refused_at_every_size(n, bad):
    data = np.eye(n)
    data[0, 1] = bad
    with pytest.raises(InputError, match="residue entry \\(0, 1\\)"):
        ResidueMatrix(data, 7)


def test_object_residues_read_exactly():
    obj = np.array([[2**70 + 1, 3], [np.int64(5), 0]], dtype=object)
    # 2^70 = (2^3)^23 * 2 = 2 mod 7, so row 0 is (3, 3) and row 1 is (5, 0): rank 2
    assert ResidueMatrix(obj, 7).tolist() == [[3, 3], [5, 0]]
    assert seprank.rank(ResidueMatrix(obj, 7)).value == 2
    with pytest.raises(InputError):
        ResidueMatrix(np.array([[1.5, 2]], dtype=object), 7)
    with pytest.raises(InputError):
        ResidueMatrix(np.array([[True, 2]], dtype=object), 7)


def _reference_residues(data: np.ndarray, p: int):
    """Python-int residues of what the user meant, or None if it is not an exact integer."""
    out = []
    for row in data.tolist():
        new = []
        for x in row:
            if isinstance(x, float):
                if x != x or x in (float("inf"), -float("inf")) or x != int(x) \
                        or abs(x) >= 2**53:
                    return None
                x = int(x)
            new.append(x % p)
        out.append(new)
    return out


@settings(max_examples=120 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
@given(dtype=st.sampled_from(INT_DTYPES + FLOAT_DTYPES), m=st.integers(1, 5),
       n=st.integers(1, 5), p=st.sampled_from([2, 3, 7, 65537, 1048573, DEFAULT_PRIME]),
       data=st.data(), engine=st.sampled_from(["flint", "numba"]))
def test_residues_of_every_dtype(dtype, m, n, p, data, engine):
    """Campaign: every dtype is reduced exactly (same rank as Python ints) or refused."""
    from hypothesis.extra.numpy import arrays

    arr = data.draw(arrays(dtype, (m, n)))
    want = _reference_residues(arr, p)
    if engine == "numba" and p > 2**26:
        engine = "flint"
    try:
        res = seprank.rank(ResidueMatrix(arr, p), engine=engine)
    except InputError as exc:
        assert want is None, f"exact integer residues refused: {exc}"
        return
    assert want is not None, f"{arr!r} accepted as residues"
    assert res.value == rank_mod_p(want, p) and res.kind == "exact"


# ---------------------------------------------------------------- item 5: small int dtypes

@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8, np.uint16, np.uint64])
def test_small_integer_dtypes_on_the_numba_path(dtype):
    res = seprank.rank(np.eye(600, dtype=dtype))
    assert (res.value, res.kind, res.method) == (600, "exact", "numba-lu")
    neg = -np.eye(600, dtype=np.int8)  # -1 reduces to p - 1, not to an overflow
    assert seprank.rank(neg, "modular").value == 600


# ---------------------------------------------------------------- items 3 and 4: primes

#: The first eight primes the exact path used to try for a certificate.
_TRIED = [DEFAULT_PRIME]
for _ in range(7):
    _TRIED.append(prev_prime(_TRIED[-1]))
_P = 1
for _q in _TRIED:
    _P *= _q


def test_certify_survives_a_determinant_divisible_by_the_default_primes():
    """Item 4: diag(P, 1) and diag(P, P, 0) with P the product of the eight primes."""
    for A, r in ([[_P, 0], [0, 1]], 2), ([[_P, 0, 0], [0, _P, 0], [0, 0, 0]], 2):
        for method in ("exact", "auto"):
            res = seprank.rank(A, method, certify=True)
            assert (res.value, res.kind) == (r, "exact")
            assert seprank.verify(A, res)
            assert res.certificate.lower.prime not in _TRIED


def test_auto_primes_are_random_and_recorded():
    """Item 3: a matrix whose determinant is divisible by the old default primes is
    answered by the first (random) prime, and the primes are in the result."""
    A = np.eye(50, dtype=np.int64)
    A[0, 0] = 1
    for q in _TRIED[:2]:
        A[0, 0] *= q  # int64 holds the product of two 31-bit primes
    seen = set()
    for _ in range(3):
        res = seprank.rank(A)
        assert (res.value, res.kind, res.method) == (50, "exact", "flint-nmod")
        assert all(is_prime(q) and 2**30 <= q < 2**31 for q in res.primes)
        seen.update(res.primes)
    assert len(seen) > 1 and not seen & set(_TRIED)


def test_auto_tries_a_second_prime_before_the_slow_path(monkeypatch):
    """A first prime that loses the rank is followed by a second, which settles it."""
    import seprank.linalg.frontdoor as fd

    primes = iter([7, 11])
    monkeypatch.setattr(fd, "_auto_prime", lambda eng: next(primes))
    res = seprank.rank([[7, 0], [0, 1]])  # singular mod 7, full mod 11
    assert (res.value, res.kind, res.method, res.primes) == (2, "exact", "flint-nmod", [7, 11])


# ---------------------------------------------------------------- item 2: verify

def test_forged_certificates_of_the_issue_are_refused():
    # a float kernel vector that rounds: (1, -2^60) is not in the kernel of A exactly
    A = [[2**60, 1], [2**60 + 1, 1]]  # det = -1: rank 2
    forged = UpperBoundCertificate(bound=1, side="right", vectors=((1.0, -2.0**60),),
                                   pivots=(0,))
    assert not seprank.verify(A, forged)
    # int64 kernel entries whose products wrap: [[2^32, 2^32], [0, 2^32]] has rank 2
    B = [[2**32, 2**32], [0, 2**32]]
    v = np.array([2**31, 0], dtype=np.int64)
    for side in ("right", "left"):
        cert = UpperBoundCertificate(bound=1, side=side, vectors=(tuple(v),), pivots=(0,))
        assert not seprank.verify(B, cert)
        assert not seprank.verify(np.array(B, dtype=np.int64), cert)
    # a float matrix: refused, not truncated by int()
    C = [[1.5, 1], [3, 2]]
    upper = UpperBoundCertificate(bound=1, side="right", vectors=((2, -3),), pivots=(0,))
    with pytest.raises(InputError):
        seprank.verify(C, upper)
    with pytest.raises(InputError):
        seprank.verify(np.array(C), upper)


def test_verify_refuses_inexact_certificate_fields():
    A = [[1, 2], [3, 4]]  # rank 2
    good = LowerBoundCertificate(prime=7, rows=(0, 1), cols=(0, 1))
    assert seprank.verify(A, good)
    for bad in (LowerBoundCertificate(prime=7.0, rows=(0, 1), cols=(0, 1)),
                LowerBoundCertificate(prime=9, rows=(0, 1), cols=(0, 1)),
                LowerBoundCertificate(prime=True, rows=(0,), cols=(0,)),
                LowerBoundCertificate(prime=7, rows=(0.0, 1), cols=(0, 1)),
                LowerBoundCertificate(prime=7, rows=(0, 2), cols=(0, 1)),
                LowerBoundCertificate(prime=7, rows=(0, -1), cols=(0, 1)),
                LowerBoundCertificate(prime=7, rows=(0, 0), cols=(0, 1))):
        assert not seprank.verify(A, bad)
    # a RankResult must be proven by its certificate: a true minor, a false value
    res = seprank.rank(A, certify=True)
    assert seprank.verify(A, res)
    res.value = 1
    assert not seprank.verify(A, res)


def _exact_ints(st_ints):
    """Certificate integers in the forms a forger might use."""
    return st.one_of(
        st_ints,
        st_ints.map(lambda x: np.int64((x + 2**63) % 2**64 - 2**63)),  # wrapped into int64
        st_ints.map(float),
        st.floats(2.0**52, 2.0**54),
        st.booleans(),
        st_ints.map(lambda x: Fraction(x, 2)),
    )


_prime_like = st.one_of(st.sampled_from([2, 3, 4, 6, 9, 15, 1, 0, -7, 7, 101, 2**31 - 1,
                                         2**31 + 11, 2**61 - 1, 91]),
                        st.integers(-5, 200), st.just(7.0), st.just(np.int64(7)))


@settings(max_examples=300 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_verify_never_accepts_a_false_claim(data):
    """Campaign: adversarial certificates (wrong types, wrapped ints, floats near 2^53,
    composite or tiny primes, out-of-range pivots) never verify a false bound."""
    m = data.draw(st.integers(1, 4))
    n = data.draw(st.integers(1, 4))
    scale = data.draw(st.sampled_from([1, 2**31, 2**62, 2**64 + 1]))
    A = [[data.draw(st.integers(-2, 2)) * scale for _ in range(n)] for _ in range(m)]
    if data.draw(st.booleans()):  # a rank-deficient matrix: a repeated row
        A[-1] = list(A[0])
    truth = rank_q(A)
    form = data.draw(st.sampled_from(["list", "int64", "object", "fmpz"]))
    if form == "int64":
        assume(all(abs(x) < 2**63 for r in A for x in r))
        M = np.array(A, dtype=np.int64)
    elif form == "object":
        M = np.array(A, dtype=object)
    elif form == "fmpz":
        M = flint.fmpz_mat(A)
    else:
        M = A
    idx = _exact_ints(st.integers(-1, 4))
    lower = LowerBoundCertificate(
        prime=data.draw(_prime_like),
        rows=tuple(data.draw(st.lists(idx, max_size=4))),
        cols=tuple(data.draw(st.lists(idx, max_size=4))))
    side = data.draw(st.sampled_from(["right", "left", "trivial", "up"]))
    length = n if side == "right" else m
    vec_entry = _exact_ints(st.one_of(st.integers(-3, 3), st.integers(-2**64, 2**64),
                                      st.sampled_from([2**31, 2**32, -2**63, 2**63 - 1])))
    vectors = tuple(tuple(data.draw(vec_entry) for _ in range(length))
                    for _ in range(data.draw(st.integers(0, 3))))
    upper = UpperBoundCertificate(
        bound=data.draw(_exact_ints(st.integers(-1, 5))), side=side, vectors=vectors,
        pivots=tuple(data.draw(st.lists(idx, max_size=3))),
        modulus=data.draw(st.sampled_from([None, None, 7])))
    for cert in (lower, upper, RankCertificate(lower, upper), RankCertificate(lower=lower)):
        try:
            ok = seprank.verify(M, cert)
        except SeprankError:
            continue
        if not ok:
            continue
        low = cert.lower if isinstance(cert, RankCertificate) else (
            cert if isinstance(cert, LowerBoundCertificate) else None)
        up = cert.upper if isinstance(cert, RankCertificate) else (
            cert if isinstance(cert, UpperBoundCertificate) else None)
        if low is not None:
            assert len(low.rows) <= truth, (A, low)
        if up is not None:
            assert truth <= up.bound, (A, up)


def test_verify_is_fast_on_the_issue_cases():
    """Item 6: a 300 x 300 zero matrix and a rank-deficient 200 x 200 product verify quickly
    (the issue's 900 x 900 zero matrix took 28 s; pure-Python elimination was the cause)."""
    import time

    # CPU time of this process (threads included), not the wall clock: a loaded machine
    # slows the wall clock, not the work (issue 31 item 5)
    Z = np.zeros((300, 300), dtype=np.int64)
    res = seprank.rank(Z, "exact", certify=True)
    t = time.process_time()
    assert seprank.verify(Z, res)
    assert time.process_time() - t < 5
    rng = np.random.default_rng(3)
    A = rng.integers(-3, 4, size=(200, 150)) @ rng.integers(-3, 4, size=(150, 200))
    res = seprank.rank(A, "multimodular", certify=True)
    t = time.process_time()
    assert seprank.verify(A, res) and res.value == 150
    assert time.process_time() - t < 5


# ---------------------------------------------------------------- item 6: CLI

@pytest.mark.parametrize("method", ["multimodular", "exact", "modular", "auto"])
def test_cli_accepts_every_documented_method(tmp_path, capsys, method):
    from seprank.cli import main

    f = tmp_path / "m.json"
    f.write_text("[[1, 2], [2, 4]]")
    assert main(["rank", str(f), "--method", method]) == 0
    assert capsys.readouterr().out.split()[0] == "1"


def test_cli_lists_every_method_in_help(capsys):
    from seprank.cli import build_parser
    from seprank.linalg.frontdoor import METHODS

    text = build_parser()._subparsers._group_actions[0].choices["rank"].format_help()
    assert all(m in text for m in METHODS)


def test_spinner_only_on_a_terminal_and_only_after_the_delay(monkeypatch):
    import io
    import sys
    import time

    from seprank.cli.common import spinner as _spinner

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    with _spinner("ranking", delay=0.05):
        time.sleep(0.4)
    assert "ranking" in tty.getvalue()
    quick = Tty()
    monkeypatch.setattr(sys, "stderr", quick)
    with _spinner("ranking", delay=5):
        pass
    assert quick.getvalue() == ""
    plain = io.StringIO()  # not a terminal: never a spinner
    monkeypatch.setattr(sys, "stderr", plain)
    with _spinner("ranking", delay=0):
        time.sleep(0.1)
    assert plain.getvalue() == ""


def test_manual_documents_every_method_and_engine():
    from pathlib import Path

    from seprank.linalg.engines import engine_names
    from seprank.linalg.frontdoor import METHODS

    text = (Path(__file__).resolve().parents[1] / "docs" / "ranks.md").read_text()
    table = text[text.index("| method | what it does | kind |"):]
    table = table[:table.index("\n\n")]
    assert all(f"| `{m}`" in table for m in METHODS)
    assert all(f"`{e}`" in text for e in engine_names())


_MUTATIONS = ["extra_row", "drop_vector", "float_entry", "int64_entry", "shift_entry",
              "bound_down", "composite_prime", "pivot_out", "bool_pivot", "swap_side"]


@settings(max_examples=150 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), mutation=st.sampled_from(_MUTATIONS))
def test_verify_rejects_tampered_genuine_certificates(data, mutation):
    """Campaign: a genuine certificate with one field tampered never proves a false bound."""
    from dataclasses import replace

    m, n = data.draw(st.integers(2, 5)), data.draw(st.integers(2, 5))
    r = data.draw(st.integers(0, min(m, n)))
    scale = data.draw(st.sampled_from([1, 2**31, 2**61]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    A = (rng.integers(-3, 4, size=(m, r)) @ rng.integers(-3, 4, size=(r, n))).tolist()
    A = [[x * scale for x in row] for row in A]
    truth = rank_q(A)
    cert = seprank.rank(A, "exact", certify=True).certificate
    low, up = cert.lower, cert.upper
    if mutation == "extra_row" and truth < min(m, n):
        low = replace(low, rows=tuple(low.rows) + (next(i for i in range(m)
                                                         if i not in low.rows),),
                      cols=tuple(low.cols) + (next(j for j in range(n) if j not in low.cols),))
    elif up.vectors:
        v0 = list(up.vectors[0])
        k = data.draw(st.integers(0, len(v0) - 1))
        if mutation == "drop_vector":
            up = replace(up, vectors=up.vectors[1:], pivots=up.pivots[1:], bound=up.bound - 1)
        elif mutation == "float_entry":
            v0[k] = float(v0[k]) + data.draw(st.sampled_from([0.0, 0.5, 2.0**53]))
        elif mutation == "int64_entry":
            v0 = [np.int64((x + 2**63) % 2**64 - 2**63) for x in v0]  # wrapped into int64
        elif mutation == "shift_entry":
            v0[k] += data.draw(st.sampled_from([1, -1, 2**64]))
        elif mutation == "bound_down":
            up = replace(up, bound=up.bound - 1)
        elif mutation == "pivot_out":
            up = replace(up, pivots=(len(v0),) + tuple(up.pivots[1:]))
        elif mutation == "bool_pivot":
            up = replace(up, pivots=(True,) + tuple(up.pivots[1:]))
        elif mutation == "swap_side":
            up = replace(up, side="left" if up.side == "right" else "right")
        if mutation in ("float_entry", "int64_entry", "shift_entry"):
            up = replace(up, vectors=(tuple(v0),) + tuple(up.vectors[1:]))
    if mutation == "composite_prime":
        low = replace(low, prime=low.prime * 3)
    tampered = RankCertificate(low, up)
    try:
        ok = seprank.verify(A, tampered)
    except SeprankError:
        return
    if ok:
        assert low.bound <= truth <= up.bound, (A, mutation, tampered)
