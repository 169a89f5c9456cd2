"""One declared schema per file format, and one grammar of exact scalars (issue 23 item 2).

Each named case below misbehaved before (issue 23's adversarial campaign, issue 22):

* a saved answer with ``"residual": "false"`` ran a residual network (a non-empty
  string was taken as true): a wrong answer from a plausible file;
* the weights reader took ``"1_0"`` and non-ASCII digits (``Fraction("1_0")`` is 10,
  ``"٣"`` is 3) that ``seprank rank`` refuses;
* weights nested 500-990 deep ended in a ``RecursionError`` traceback (the shape was
  measured recursively);
* rational weights with a 200-digit denominator ended in an ``OverflowError`` traceback
  (``np.gcd`` on Python ints in the coefficient route);
* ``seprank report .`` ended in a ``ValueError`` traceback;
* ``seprank.rank([["1/2", "1/3"], ...])`` was refused by the API, which the CLI's JSON
  reads.

Then every exported schema is checked as JSON Schema (draft 2020-12, with ``jsonschema``)
and a good and a bad example of each format are checked against it, and against the
reader, which must agree.
"""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

import seprank
from seprank.cli import main
from seprank.errors import InputError, ParameterError, SeprankError
from seprank.separation import load_weights, separation_rank, weights_from_json

from .reference import rank_q

ROOT = Path(__file__).resolve().parents[1]


def _run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def _one_line(status: int, err: str) -> str:
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("seprank: error:"), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="module")
def answer() -> dict:
    """A saved sep-rank answer of a small network (not residual)."""
    return json.loads(json.dumps(separation_rank(1, 2, 1, seed=3).to_dict(), default=str))


# -- answers: residual is a JSON bool -------------------------------------------------------

@pytest.mark.parametrize("residual", ["false", "true", "False", 0, 1, None, [False]])
def test_residual_must_be_a_json_bool(tmp_path, capsys, answer, residual):
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(dict(answer, residual=residual)))
    line = _one_line(*_run(capsys, "sep-rank", "--weights", str(path))[::2])
    assert "residual: expected a JSON bool" in line


def test_residual_false_reads_as_false_and_true_as_true(tmp_path, answer):
    for flag in (False, True):
        path = tmp_path / f"answer_{flag}.json"
        path.write_text(json.dumps(dict(answer, residual=flag)))
        assert load_weights(path)[1]["residual"] is flag


def test_an_answer_whose_network_contradicts_its_weights_is_refused(answer):
    bad = dict(answer, network=dict(answer["network"], d_x=answer["network"]["d_x"] + 1))
    with pytest.raises(InputError, match="network: d_x"):
        weights_from_json(bad)


# -- one grammar of exact scalars -----------------------------------------------------------

BAD_TOKENS = ["1_0", "٣", "１", " 1", "1 ", "1/-2", "1 / 2", "0x1f", "1e3", "1.5", "nan", "",
              "1/0", "--1", "½"]
GOOD_TOKENS = {"7": 7, "-7": -7, "+7": 7, "007": 7, "2/4": Fraction(1, 2), "-6/4": Fraction(-3, 2),
               "4/2": 2, "0/5": 0, "9" * 5000: 10**5000 - 1}


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_weights_refuse_what_matrices_refuse(tmp_path, capsys, token):
    weights = {k: [[[["1"]]]] for k in "QKVO"}
    weights["V"][0][0][0][0] = token
    path = tmp_path / "w.json"
    path.write_text(json.dumps(weights))
    line = _one_line(*_run(capsys, "sep-rank", "--weights", str(path))[::2])
    assert "V[0][0][0][0]" in line
    matrix = tmp_path / "m.json"
    matrix.write_text(json.dumps([[1, token]]))
    assert "entry (0, 1)" in _one_line(*_run(capsys, "rank", str(matrix))[::2])
    with pytest.raises(InputError):
        seprank.rank([[1, token]])


@pytest.mark.parametrize("token", list(GOOD_TOKENS))
def test_weights_matrices_and_the_api_read_a_token_alike(tmp_path, token):
    value = GOOD_TOKENS[token]
    weights = {k: [[[[token]]]] for k in "QKVO"}
    assert weights_from_json(weights)[0]["Q"][0, 0, 0, 0] == value
    path = tmp_path / "m.json"
    path.write_text(json.dumps([[token, 1]]))
    from seprank.files.matrix_io import load_matrix

    assert load_matrix(path) == [[value, 1]]
    assert seprank.rank([[token, 1]]).value == 1


def test_the_api_reads_fraction_strings_as_the_cli_does(tmp_path, capsys):
    matrix = [["1/2", "1/3"], ["1/4", "1/6"]]  # row 0 = 2 x row 1: rank 1
    path = tmp_path / "m.json"
    path.write_text(json.dumps(matrix))
    status, out, err = _run(capsys, "rank", str(path), "--json")
    assert status == 0, err
    cli = json.loads(out)
    api = seprank.rank(matrix)
    truth = rank_q([[Fraction(x) for x in row] for row in matrix])
    assert (api.value, api.kind) == (cli["value"], cli["kind"]) == (truth, "exact")
    assert seprank.rank(matrix, "float").value == truth


# -- no traceback for any input -------------------------------------------------------------

@pytest.mark.parametrize("depth", [500, 600, 700, 800, 990])
def test_weights_nested_deep_are_one_line(tmp_path, capsys, depth):
    path = tmp_path / "w.json"
    path.write_text('{"Q": ' + "[" * depth + "1" + "]" * depth + ', "K": [], "V": [], "O": []}')
    _one_line(*_run(capsys, "sep-rank", "--weights", str(path))[::2])
    answer = tmp_path / "a.json"
    answer.write_text('{"weights": ' + path.read_text() + ', "residual": false}')
    _one_line(*_run(capsys, "sep-rank", "--weights", str(answer))[::2])


def test_rational_weights_with_a_200_digit_denominator_are_exact():
    """Dividing every weight by D multiplies the output polynomial by a nonzero constant
    (each layer is homogeneous: degree 1 in each of Q, K, V, O), so the separation rank
    is that of the integer network."""
    D = 10**199 + 7  # 200 digits
    integer = separation_rank(1, 2, 1, seed=5)
    scaled = {k: [[[[f"{x}/{D}" for x in row] for row in head] for head in layer]
                  for layer in integer.weights[k]] for k in "QKVO"}
    res = separation_rank(weights=scaled, route="coefficient")
    assert (res.value, res.kind) == (integer.value, integer.kind) == (integer.value, "exact")
    assert weights_from_json(scaled)[0]["O"][0, 0, 0, 0] == Fraction(
        integer.weights["O"][0][0][0][0], D)


@pytest.mark.parametrize("target", [".", "missing.json"])
def test_report_of_a_folder_or_nothing_is_one_line(tmp_path, capsys, monkeypatch, target):
    monkeypatch.chdir(tmp_path)
    line = _one_line(*_run(capsys, "report", target)[::2])
    assert ("folder" in line) if target == "." else ("no such file" in line)


def test_report_with_a_bad_field_is_one_line(tmp_path, capsys):
    data = json.loads((ROOT / "docs" / "report" / "report.json").read_text())
    data["checks"][1]["steps"][0]["status"] = True
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    line = _one_line(*_run(capsys, "report", str(path))[::2])
    assert f"checks[1] ({data['checks'][1]['id']}).steps[0].status: expected one of" in line


@pytest.mark.parametrize("content", [b"\xff\xfe\x00garbage", b"[" * 100000,
                                     b"{\"schema_version\": 3"])
def test_report_of_a_broken_file_is_one_line(tmp_path, capsys, content):
    path = tmp_path / "r.json"
    path.write_bytes(content)
    _one_line(*_run(capsys, "report", str(path))[::2])


# -- certificates in JSON -------------------------------------------------------------------

def test_certificate_json_reads_back_and_verifies(tmp_path, capsys):
    from seprank.linalg.certificates import certificate_from_json

    matrix = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(matrix))
    status, out, err = _run(capsys, "rank", str(path), "--certify", "--json")
    assert status == 0, err
    answer = json.loads(out)
    cert = certificate_from_json(answer)
    assert cert.proves_exact and seprank.verify(matrix, cert) is True
    assert cert.lower.bound == cert.upper.bound == rank_q(matrix)
    answer["certificate"]["upper"]["bound"] = 3  # the bounds no longer meet
    with pytest.raises(InputError, match="proves_exact"):
        certificate_from_json(answer)


# -- sweep specs ----------------------------------------------------------------------------

@pytest.mark.parametrize("params, words", [
    ({"depth": 1, "width": 2, "residual": "false"}, "parameters.residual: expected a bool"),
    ({"depth": 1, "width": 2, "seed": [0, True]}, "parameters.seed[1]: expected an integer"),
    ({"depth": 1, "width": 2, "templates": {"from": 1, "to": "3"}},
     "parameters.templates.to: expected an integer"),
    ({"depth": 1, "width": 2, "method": "fast"}, "parameters.method: expected one of"),
])
def test_spec_errors_name_the_field_and_the_type(params, words):
    from seprank.sweep import spec_from_dict

    with pytest.raises(ParameterError) as info:
        spec_from_dict({"computation": "grid_rank", "parameters": params})
    assert str(info.value).startswith(words) and "\n" not in str(info.value)


def test_the_project_sweep_specs_fit_their_schema():
    import yaml

    from seprank.sweep.spec_schema import check_spec

    files = sorted((ROOT / "docs" / "sweeps").glob("*.toml")) + sorted(
        (ROOT / "docs" / "sweeps").glob("*.yaml"))
    assert len(files) >= 4
    for f in files:
        data = tomllib.loads(f.read_text()) if f.suffix == ".toml" else yaml.safe_load(
            f.read_text())
        check_spec(data)


def test_task_parameters_are_declared_for_every_computation():
    from seprank.sweep.computations import COMPUTATIONS
    from seprank.sweep.parameters import parameter_model

    for name, comp in COMPUTATIONS.items():
        model = parameter_model(name, tuple(comp.defaults.items()), comp.required)
        assert set(model.model_fields) == set(comp.defaults)


# -- every schema: exported, valid JSON Schema, agreeing with its reader ---------------------

def _good_and_bad(answer: dict) -> dict[str, tuple[object, object]]:
    report = json.loads((ROOT / "docs" / "report" / "report.json").read_text())
    report = dict(report, checks=report["checks"][:3])
    bad_report = json.loads(json.dumps(report))
    bad_report["checks"][0]["binding"] = "true"
    spec = tomllib.loads((ROOT / "docs" / "sweeps" / "hadamard_omega.toml").read_text())
    cert = seprank.rank([[1, 2], [2, 4]], certify=True).to_dict()["certificate"]
    bad_cert = json.loads(json.dumps(cert))
    bad_cert["lower"]["prime"] = str(bad_cert["lower"]["prime"])
    return {
        "matrix": ([[1, "1/2"], ["-3", 4]], [[1, "1_0"]]),
        "weights": (answer["weights"], dict(answer["weights"], Q=[[[["٣"]]]])),
        "answer": (answer, dict(answer, residual="false")),
        "sweep-spec": (spec, dict(spec, parameters=dict(spec["parameters"], lam=["2"]))),
        "report": (report, bad_report),
        "certificate": (cert, bad_cert),
    }


def _reader(name: str):
    from seprank.linalg.certificates import certificate_from_json
    from seprank.proof.report.schema import validate_report
    from seprank.schemas.matrix import matrix_from_json
    from seprank.sweep import spec_from_dict

    def report(data):
        problems = validate_report(data)
        if problems:
            raise InputError(problems[0])

    return {"matrix": matrix_from_json, "weights": weights_from_json,
            "answer": weights_from_json, "sweep-spec": spec_from_dict, "report": report,
            "certificate": certificate_from_json}[name]


def test_every_format_is_exported_as_valid_json_schema_and_agrees_with_its_reader(answer):
    import jsonschema

    from seprank.schemas import json_schema, schema_names

    examples = _good_and_bad(answer)
    assert sorted(schema_names()) == sorted(examples)
    for name in schema_names():
        schema = json_schema(name)
        validator = jsonschema.validators.validator_for(schema)
        validator.check_schema(schema)
        assert validator is jsonschema.Draft202012Validator
        good, bad = examples[name]
        assert list(validator(schema).iter_errors(good)) == [], name
        assert list(validator(schema).iter_errors(bad)) != [], name
        _reader(name)(good)
        with pytest.raises(SeprankError) as info:
            _reader(name)(bad)
        assert "\n" not in str(info.value)


def test_seprank_schema_prints_each_format(capsys):
    status, out, _ = _run(capsys, "schema", "--list")
    assert status == 0
    names = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert names == ["matrix", "weights", "answer", "sweep-spec", "report", "certificate"]
    for name in names:
        status, out, _ = _run(capsys, "schema", name)
        assert status == 0 and json.loads(out)["$schema"].endswith("2020-12/schema")
    _one_line(*_run(capsys, "schema", "nope")[::2])
    _one_line(*_run(capsys, "schema")[::2])
