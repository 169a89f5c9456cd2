"""Fuzz the front door and the CLI with malformed matrices: a clear error or a right answer.

Every input either raises a SeprankError (a one-line message) or returns a
rank that a pure-Python reference confirms; never another exception, never a
wrong answer. Bounded here; ``SEPRANK_FUZZ=1`` runs a campaign 20 times as
long and ``SEPRANK_FUZZ=N`` one N times as long (``CAMPAIGN``; the counts are
scaled here because an explicit ``max_examples`` overrides the conftest profile).
"""

import json
import math
import os
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
#: Examples per test are multiplied by this: 1 in CI, 20 with SEPRANK_FUZZ=1, and
#: N with SEPRANK_FUZZ=N for a longer campaign.
_FUZZ = os.environ.get("SEPRANK_FUZZ", "")
CAMPAIGN = int(_FUZZ) if _FUZZ.isdigit() and int(_FUZZ) > 1 else (20 if _FUZZ == "1" else 1)

rows = st.lists(st.lists(scalars, min_size=0, max_size=4), min_size=0, max_size=4)


def _exact_ok(m) -> bool:
    """True when m is a well-formed rectangular matrix of ints/Fractions."""
    if not isinstance(m, list) or not all(isinstance(r, list) for r in m):
        return False
    if m and len({len(r) for r in m}) != 1:
        return False
    return all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for r in m for x in r)


@settings(max_examples=300 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=150 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
@given(rows)
def test_float_method_never_crashes(m):
    try:
        res = seprank.rank(m, "float")
    except SeprankError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert res.kind == "float_estimate" and 0 <= res.value


@settings(max_examples=60 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=80 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow,
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


# -- sweep specs -----------------------------------------------------------------------------

spec_values = st.recursive(
    st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=4), st.none(),
              st.booleans()),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["from", "to", "step", "x"]), inner,
                                            max_size=3)),
    max_leaves=6)
spec_dicts = st.fixed_dictionaries(
    {"computation": st.one_of(st.sampled_from(["hadamard_rank", "grid_rank", "lemma6", "check"]),
                              st.text(max_size=5), st.integers())},
    optional={"parameters": st.one_of(
        st.dictionaries(st.sampled_from(["d", "lam", "depth", "width", "id", "family", "seed",
                                         "method", "rows", "full", "heads", "da", "delay_s"]),
                        spec_values, max_size=5),
        spec_values),
        "store": st.one_of(st.text(max_size=5), st.integers()),
        "title": spec_values})


VALID_SPECS = [
    {"computation": "hadamard_rank", "parameters": {"d": 2, "lam": [1, 2]}},
    {"computation": "grid_rank", "parameters": {"depth": 1, "width": 2}},
    {"computation": "lemma6", "parameters": {"depth": 2}},
    {"computation": "check", "parameters": {"id": "L-Lemma4"}},
]
PARAM_NAMES = sorted({k for c in ("hadamard_rank", "grid_rank", "lemma6", "check")
                      for k in __import__("seprank.sweep.computations", fromlist=["x"])
                      .get_computation(c).defaults} | {"bogus"})


@st.composite
def perturbed_specs(draw):
    """A valid spec with one to three entries replaced by arbitrary values."""
    base = draw(st.sampled_from(VALID_SPECS))
    data = {"computation": base["computation"], "parameters": dict(base["parameters"])}
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["param", "param", "param", "store", "title",
                                      "computation"]))
        value = draw(spec_values)
        if where == "param":
            data["parameters"][draw(st.sampled_from(PARAM_NAMES))] = value
        else:
            data[where] = value
    return data


@settings(max_examples=300 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(spec_dicts, perturbed_specs()))
def test_sweep_specs_are_validated_with_clear_errors(data):
    from seprank.sweep import spec_from_dict

    try:
        spec = spec_from_dict(data)
    except SeprankError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    # Accepted: every task is fully specified and validated again on its own.
    for task in spec.tasks()[:5]:
        assert set(task.params) >= {"delay_s"}


@settings(max_examples=60 * CAMPAIGN, suppress_health_check=[HealthCheck.too_slow,
                                                  HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=60), st.sampled_from([".toml", ".yaml", ".yml"]))
def test_cli_sweep_broken_spec_files(tmp_path_factory, content, suffix):
    path = tmp_path_factory.mktemp("spec") / f"s{suffix}"
    path.write_bytes(content)
    assert main(["sweep", str(path), "--dry-run"]) in (0, 2)


def test_float_rank_survives_entries_near_the_float_limit():
    """Found by the long campaign: the SVD of entries near 1.7e308 overflowed to inf
    and the float rank came out 0 for a rank-1 matrix."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert seprank.rank([[1.7e308] * 3] * 3, "float").value == 1
        assert seprank.rank([[1e308, 0.0], [0.0, -1e308]], "float").value == 2
        res = seprank.rank([[1e308, 1e308, 1e308], [1e308, 1e308, -1e308], [1, 2, 3]],
                           "float")
    assert res.kind == "float_estimate" and res.details["scaled_by"] == 1e308
