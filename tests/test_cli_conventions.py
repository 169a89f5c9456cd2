"""The command line's conventions (issue 13): version, ``python -m``, help, JSON, exit codes."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

import seprank
from seprank.cli import build_parser, main


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_option_has_help_and_every_subcommand_an_example():
    subs = _subparsers()
    assert {"prove", "rank", "report", "errata", "sweep", "lemma6", "grid-rank"} <= set(subs)
    for name, sub in subs.items():
        assert sub.epilog and f"seprank {name}" in sub.epilog, f"{name}: no example"
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, \
                f"seprank {name}: {action.option_strings or action.dest} has no help text"


def test_json_option_means_the_same_everywhere():
    """--json [PATH]: no value or '-' is stdout, a value is a file, in every subcommand."""
    for name, sub in _subparsers().items():
        action = next((a for a in sub._actions if "--json" in a.option_strings), None)
        if action is None:
            continue
        assert action.nargs == "?" and action.const == "-" and action.default is None, name


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"seprank {seprank.__version__}"


def test_python_dash_m_runs_the_same_cli():
    out = subprocess.run([sys.executable, "-m", "seprank", "--version"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"seprank {seprank.__version__}"
    bad = subprocess.run([sys.executable, "-m", "seprank", "rank", "/no/such.json"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("seprank: error:")


def test_rank_json_to_stdout_or_to_a_file(tmp_path, capsys):
    m = tmp_path / "m.json"
    m.write_text(json.dumps([[1, 2], [2, 4]]))           # rank 1 by construction
    for flag in (["--json"], ["--json", "-"]):
        assert main(["rank", str(m), *flag]) == 0
        assert json.loads(capsys.readouterr().out)["value"] == 1   # stdout is only JSON
    out = tmp_path / "r.json"
    assert main(["rank", str(m), "--json", str(out)]) == 0
    assert capsys.readouterr().out.startswith("1 exact")            # the summary still prints
    assert json.loads(out.read_text())["kind"] == "exact"


def test_lemma6_exit_status_follows_the_identity(capsys):
    # as printed, l.750 names a row of V that does not exist: the identity fails -> 1
    assert main(["lemma6", "-L", "2", "--printed", "--half", "1"]) == 1
    assert "FAILS" in capsys.readouterr().out
    # corrected, it holds (levine2020 Lemma 6 with the corrected assignment) -> 0,
    # and `--json` alone prints only JSON on stdout
    assert main(["lemma6", "-L", "2", "--corrected", "--half", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["identity_holds"] is True and "holds" in captured.err


def test_strict_fails_on_a_claim_that_does_not_hold(capsys):
    # R-norm's composite norm is false as printed (rank_collapse l.68-70, issue 10);
    # A-nn's statement holds despite a notation erratum
    args = ["prove", "--no-deps", "--no-report", "--quiet", "--strict"]
    assert main(args + ["A-nn"]) == 0
    assert main(args + ["A-nn", "R-norm"]) == 1
    assert "R-norm (false)" in capsys.readouterr().out


def test_prove_package_restricts_and_refuses_unknown_packages(capsys):
    assert main(["prove", "--list", "--package", "seprank_proofs"]) == 0
    assert "[seprank_proofs]" in capsys.readouterr().out
    assert main(["prove", "--list", "--package", "no_such_checks"]) == 2
    assert "no installed check package" in capsys.readouterr().err
