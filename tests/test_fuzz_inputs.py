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
import re
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import seprank
from seprank.cli import main
from seprank.errors import SeprankError

from .reference import rank_q

scalars = st.one_of(
    st.integers(-10**30, 10**30),
    st.fractions(max_denominator=10**6),
    st.fractions(max_denominator=10**6).map(str),   # "p/q": read exactly, as the CLI does
    st.sampled_from(["1_0", "٣", " 1", "1/-2", "1/0", "+5", "007", "1e3"]),
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


_EXACT_TEXT = re.compile(r"([+-]?[0-9]+)(?:/([0-9]+))?", re.ASCII)


def _exact_value(x):
    """The test's own reading of an exact entry (None: not one): an int or a Fraction, or a
    string of ASCII digits with an optional sign and an optional /q, q > 0."""
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return x
    if isinstance(x, str):
        match = _EXACT_TEXT.fullmatch(x)
        if match and (match.group(2) is None or int(match.group(2)) != 0):
            return Fraction(int(match.group(1)), int(match.group(2) or 1))
    return None


def _exact_ok(m) -> bool:
    """True when m is a well-formed rectangular matrix of exact entries."""
    if not isinstance(m, list) or not all(isinstance(r, list) for r in m):
        return False
    if m and len({len(r) for r in m}) != 1:
        return False
    return all(_exact_value(x) is not None for r in m for x in r)


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
        truth = rank_q([[_exact_value(x) for x in r] for r in m]) if m and m[0] else 0
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


# -- every file format: structured mutations of a valid document ---------------------------
#
# One valid document per format (matrix, weights, answer, sweep spec, proof report,
# certificate) is mutated at random places: a value (often a leaf: a number, string, bool)
# replaced by another JSON value (bools, "false", "1_0", "٣", "2/4", huge integers, NaN,
# nested lists and objects), a member deleted or added, a value wrapped in a list, or
# buried up to 1500 lists deep. Reading the result
# must give a valid read or one SeprankError line; never another exception.

_ODD_TEXT = st.sampled_from(["false", "true", "1_0", "٣", "1/0", "2/4", "-3", "+7", "1e3",
                             "nan", "", " 1", "*", "1/-2", "9" * 50])
_KEYS = st.sampled_from(["Q", "K", "V", "O", "weights", "residual", "network", "value", "kind",
                         "lower", "upper", "prime", "rows", "vectors", "checks", "steps",
                         "parameters", "computation", "from", "to", "step", "d", "lam",
                         "schema_version", "binding", "severity", "x"])
_json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                         st.integers(10**30, 10**40), st.floats(allow_nan=True),
                         st.text(max_size=3), _ODD_TEXT)
json_values = st.recursive(_json_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.one_of(_KEYS, st.text(max_size=3)), inner,
                                                 max_size=3)), max_leaves=6)
_mutation = st.tuples(st.sampled_from(["leaf", "leaf", "replace", "delete", "add", "wrap",
                                       "bury"]),
                      st.integers(0, 10**6), json_values, _KEYS, st.integers(2, 1500))


def _places(doc, limit: int = 3000) -> list[tuple[object, object]]:
    """(container, key) of every value in ``doc``, breadth first, without recursion."""
    out, queue = [], [doc]
    while queue and len(out) < limit:
        node = queue.pop(0)
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, value in items:
            out.append((node, key))
            queue.append(value)
    return out


def _mutate(doc, mutations):
    doc = json.loads(json.dumps(doc))
    for op, at, value, key, depth in mutations:
        places = _places(doc)
        if op == "leaf":  # a number, string, bool or null: where the values are
            places = [(p, k) for p, k in places if not isinstance(p[k], (list, dict))]
        if not places:
            return value
        parent, where = places[at % len(places)]
        if op in ("replace", "leaf"):
            parent[where] = value
        elif op == "delete":
            del parent[where]
        elif op == "add":
            if isinstance(parent, dict):
                parent[key] = value
            else:
                parent.insert(where, value)
        elif op == "wrap":
            parent[where] = [parent[where]]
        else:  # bury it deep, built without recursion
            buried = parent[where]
            for _ in range(depth):
                buried = [buried]
            parent[where] = buried
    return doc


def _valid_documents() -> dict:
    from pathlib import Path

    from seprank.separation import separation_rank

    answer = json.loads(json.dumps(separation_rank(1, 2, 1, seed=3).to_dict(), default=str))
    report = json.loads((Path(__file__).resolve().parents[1] / "docs" / "report" /
                         "report.json").read_text())
    report["checks"] = report["checks"][:3]
    cert = seprank.rank([[1, 2, 3], [2, 4, 6], [1, 0, 1]], certify=True).to_dict()
    return {"matrix": [[1, "1/2", -3], [2, 1, "4/2"]], "weights": answer["weights"],
            "answer": answer, "certificate": cert["certificate"], "report": report,
            "sweep-spec": {"computation": "grid_rank", "parameters": {
                "depth": 1, "width": 2, "residual": False, "templates": {"from": 2, "to": 3},
                "partition": [[0]]}}}


_DOCS: dict = {}


def _one_line(exc: SeprankError) -> None:
    assert str(exc) and "\n" not in str(exc), repr(str(exc))


def _read_matrix(doc) -> None:
    from seprank.schemas.matrix import matrix_from_json

    try:
        rows = matrix_from_json(doc, "m.json")
    except SeprankError as exc:
        _one_line(exc)
        rows = None
    try:  # the API reads what the CLI's JSON reader reads, and refuses what it refuses
        api = seprank.rank(doc, "exact")
    except SeprankError as exc:
        _one_line(exc)
        assert rows is None, f"the CLI reads {doc!r}, the API refuses it: {exc}"
        return
    assert rows is not None, f"the API reads {doc!r}, the CLI refuses it"
    assert api.value == (rank_q(rows) if rows and rows[0] else 0)


def _read_certificate(doc) -> None:
    from seprank.linalg.certificates import certificate_from_json

    cert = certificate_from_json(doc)
    matrix = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    if seprank.verify(matrix, cert) and cert.lower is not None:
        assert cert.lower.bound <= 2  # a verified certificate cannot lie: the rank is 2


def _read_report(doc) -> None:
    from seprank.proof.report.schema import validate_report

    problems = validate_report(doc)  # never raises: a list of one-line problems
    assert all(isinstance(p, str) and p and "\n" not in p for p in problems)


def _huge_range(doc) -> bool:
    """A range of more than 10^6 values: expanding it is the range-expansion budget's
    business (counted before expanding: issue 23, helper "budgets"), not the schema's."""
    params = doc.get("parameters") if isinstance(doc, dict) else None
    for value in (params.values() if isinstance(params, dict) else ()):
        if isinstance(value, dict) and all(type(value.get(k, 1)) is int
                                           for k in ("from", "to", "step")):
            if value.get("to", 0) - value.get("from", 0) > 10**6:
                return True
    return False


def _read_spec(doc) -> None:
    from seprank.sweep import spec_from_dict

    spec_from_dict(doc).tasks()


def _readers():
    from seprank.separation import weights_from_json

    return {"matrix": _read_matrix, "weights": weights_from_json, "answer": weights_from_json,
            "certificate": _read_certificate, "report": _read_report,
            "sweep-spec": _read_spec}


FORMATS = ["matrix", "weights", "answer", "certificate", "report", "sweep-spec"]


@settings(max_examples=100 * CAMPAIGN, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(name=st.sampled_from(FORMATS), mutations=st.lists(_mutation, min_size=1, max_size=3))
def test_every_format_reads_a_mutation_or_refuses_it_in_one_line(name, mutations):
    if not _DOCS:
        _DOCS.update(_valid_documents())
    doc = _mutate(_DOCS[name], mutations)
    assume(name != "sweep-spec" or not _huge_range(doc))
    try:
        _readers()[name](doc)
    except SeprankError as exc:
        _one_line(exc)


def test_the_unmutated_documents_are_read():
    docs = _valid_documents()
    for name in FORMATS:
        _readers()[name](docs[name])
