"""Fuzz the front door and the CLI with malformed matrices: a clear error or a right answer.

Every input either raises a SeprankError (a one-line message) or returns a
rank that a pure-Python reference confirms; never another exception, never a
wrong answer. Bounded here; ``SEPRANK_FUZZ=1`` runs the longer campaign.
"""

import json
import math
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seprank
from seprank.cli import main
from seprank.errors import SeprankError

from .reference import rank_q

scalars = st.one_of(
    st.integers(-10**30, 10**30),
    st.fractions(max_denominator=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.complex_numbers(max_magnitude=10),
    st.lists(st.integers(), max_size=2),
)
rows = st.lists(st.lists(scalars, min_size=0, max_size=4), min_size=0, max_size=4)


def _exact_ok(m) -> bool:
    """True when m is a well-formed rectangular matrix of ints/Fractions."""
    if not isinstance(m, list) or not all(isinstance(r, list) for r in m):
        return False
    if m and len({len(r) for r in m}) != 1:
        return False
    return all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for r in m for x in r)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(rows)
def test_front_door_never_crashes_or_lies(m):
    for method in ("auto", "exact", "modular"):
        try:
            res = seprank.rank(m, method)
        except SeprankError as exc:
            assert str(exc) and "\n" not in str(exc)
            assert not _exact_ok(m) or (m and not m[0]), f"valid matrix refused: {exc}"
            continue
        assert _exact_ok(m), f"{m!r} should have been refused"
        truth = rank_q(m) if m and m[0] else 0
        if res.kind == "exact":
            assert res.value == truth
        else:
            assert res.kind == "lower_bound" and res.value <= truth


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(rows)
def test_float_method_never_crashes(m):
    try:
        res = seprank.rank(m, "float")
    except SeprankError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert res.kind == "float_estimate" and 0 <= res.value


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([np.int8, np.int64, np.uint16, np.float32, np.float64, np.complex64,
                        np.bool_, object]),
       st.integers(0, 3), st.integers(0, 3), st.integers(1, 3))
def test_numpy_dtypes(dtype, m, n, ndim):
    shape = (m, n) if ndim == 2 else ((m,) if ndim == 1 else (m, n, 2))
    a = np.ones(shape, dtype=dtype)
    try:
        res = seprank.rank(a)
    except SeprankError as exc:
        assert "\n" not in str(exc)
        return
    assert ndim == 2 and res.value == (1 if m and n else 0)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow,
                                                  HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=40), st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
                 rows.map(lambda m: json.dumps(m, default=str))))
def test_cli_text_and_json_files(tmp_path_factory, content):
    folder = tmp_path_factory.mktemp("fuzz")
    for suffix in (".txt", ".json"):
        path = folder / f"m{suffix}"
        path.write_text(content, encoding="utf-8")
        try:
            code = main(["rank", str(path)])
        except SystemExit as exc:  # argparse never exits here; a crash would be a bug
            raise AssertionError(f"CLI exited with {exc}") from exc
        assert code in (0, 2)


def test_huge_integers_are_exact():
    big = 10**200
    m = [[big, big + 1], [big - 1, big]]  # det = big^2 - (big^2 - 1) = 1
    assert seprank.rank(m).value == 2
    assert seprank.rank(m, "float").kind == "float_estimate"
    assert math.isfinite(seprank.rank([[1.0, 2.0]], "float").details["tolerance"])
