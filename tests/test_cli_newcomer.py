"""What a newcomer meets first (issue 31 items 2 and 4): every command's ``--help`` and a
small example of each fit 80 columns and print no Python repr; a mistyped option,
command, choice or check id gets a "did you mean" and the command's own short usage, in
at most three lines; each numeric parameter has one message in every command (N = 0),
and reads ASCII digits only; the commands about a separation rank say it first, with its
kind. Expectations come from the issue's wording and from argparse's and Python's own
behaviour (``int("٣") == 3``), not from the code's output."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from seprank.cli import build_parser, main
from seprank.cli.common import WIDTH

COMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)
#: a Python repr of a list, a dict or a string inside one
REPR = re.compile(r"\['|\{'|': |\[\]|\(\)|<[a-z_.]+ object at")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")        # our widths, not the terminal's
    (tmp_path / "m.json").write_text(json.dumps([[1, 2, 3], [2, 4, 6], [1, 0, 1]]))
    (tmp_path / "V.csv").write_text("1,2,0\n0,1,1\n2,0,1\n1,1,1\n")
    (tmp_path / "spec.toml").write_text('computation = "hadamard_rank"\n[parameters]\n'
                                        'family = "omega"\nd = 2\nlam = [1, 2]\n')
    return tmp_path


def _too_long(lines: list[str]) -> list[str]:
    """Lines over 80 columns that a wrap at spaces could have avoided (a path longer than
    the line, say a temporary folder's, cannot be broken)."""
    return [line for line in lines if len(line) > WIDTH
            and not any(len(word) > WIDTH // 2 for word in line.split())]


def _run(capsys, command: str) -> tuple[int, str, str]:
    try:
        status = main(shlex.split(command))
    except SystemExit as exc:                    # argparse's own exits (--help, errors)
        status = exc.code
    out = capsys.readouterr()
    return status, out.out, out.err


def test_every_command_is_covered():
    assert set(COMMANDS) == {c.split()[0] for c in EXAMPLES}


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_fits_80_columns(command, folder, capsys):
    status, out, _ = _run(capsys, f"{command} --help")
    assert status == 0 and out
    long = [line for line in out.splitlines() if len(line) > WIDTH]
    assert not long, long


#: one small example of each command (its human output, not its JSON)
EXAMPLES = [
    "prove A-nn R-norm --no-deps --no-report",
    "prove A-nn --no-deps --report-dir reports",
    "prove --list",
    "rank m.json --certify",
    "rank m.json --method float --explain",
    "report r.json --markdown r.md --html r.html",
    "errata amsel --from r.json --output sheet.md",
    "papers",
    "sweep spec.toml --dry-run",
    "lemma6 -L 2 --printed",
    "lemma6 -L 3 --corrected",
    "grid-rank -L 1 -d_x 2 -N 2 -M 4 --certify",
    "sep-rank -L 1 --width 2 -N 2",
    "hadamard-rank V.csv --lam 3 --certify",
    "hadamard-rank --omega 2 8",
    "float-vs-exact --d 2:3 --lam 7:8 --out fve --no-plot --no-progress",
    "schema --list",
]


@pytest.mark.parametrize("command", EXAMPLES)
def test_output_fits_80_columns_without_reprs(command, folder, capsys):
    if command.split()[0] in ("report", "errata"):   # they read a report: make one
        assert main(["prove", "A-nn", "--no-deps", "--no-report", "--json", "r.json"]) == 0
        capsys.readouterr()
    status, out, err = _run(capsys, command)
    assert status in (0, 1), (status, err)       # lemma6 --printed fails: exit 1
    assert out.strip()
    long = _too_long(out.splitlines())
    assert not long, long
    assert not REPR.search(out), REPR.search(out)


@pytest.mark.parametrize("command, hint", [
    ("rank m.json --metod float", "unknown option --metod; did you mean --method?"),
    ("rnak m.json", "unknown command 'rnak'; did you mean rank?"),
    ("rank m.json --method flot", "invalid choice 'flot'; did you mean float?"),
    ("grid-rank -L 1 -d_x 2 --templtes 3", "did you mean --templates?"),
    ("sep-rank -L 1 --width 2 --rute grid", "did you mean --route?"),
])
def test_usage_errors_say_what_was_meant_in_at_most_3_lines(command, hint, folder, capsys):
    status, out, err = _run(capsys, command)
    assert status == 2 and not out
    lines = err.rstrip("\n").splitlines()
    assert len(lines) <= 3 and all(len(line) <= WIDTH for line in lines), lines
    assert hint in " ".join(err.split())
    sub = command.split()[0]
    if sub in COMMANDS:                         # the command's own usage, not the top level's
        assert lines[0].startswith(f"usage: seprank {sub} ")


def test_a_mistyped_check_id_gets_one_line_and_a_suggestion(folder, capsys):
    status, _, err = _run(capsys, "prove L-lemma6")
    assert status == 2 and err.count("\n") == 1
    assert "did you mean L-Lemma6?" in err and "A-harm" not in err   # no list of 49 ids


@pytest.mark.parametrize("command", ["sep-rank -L 1 --width 2", "grid-rank -L 1 -d_x 2",
                                     "lemma6 -L 2"])
def test_n_zero_gets_one_message_everywhere(command, folder, capsys):
    status, _, err = _run(capsys, f"{command} -N 0")
    assert status == 2
    assert err == ("seprank: error: --seq-len/-N: N (the sequence length) must be an "
                   "integer >= 2, got 0\n")


@pytest.mark.parametrize("command", ["hadamard-rank V.csv --lam ٣", "hadamard-rank V.csv "
                                     "--lam 1_0", "grid-rank -L ١ -d_x 2",
                                     "float-vs-exact --lam ٣:4 --out x",
                                     "rank m.json --prime ٧",
                                     "rank m.json --max-memory ٢G",
                                     "sep-rank -L 1 -d_x 2 --max-seconds 1_0"])
def test_numbers_are_ascii_digits_only(command, folder, capsys):
    """Python's int() reads '٣' (Arabic-Indic three) and '1_0'; the command line does not."""
    assert int("٣") == 3 and int("1_0") == 10
    status, out, err = _run(capsys, command)
    assert status == 2 and not out and err.startswith("seprank: error:")


def test_grid_rank_says_the_separation_rank_first(folder, capsys):
    """A grid matricization's rank is a lower bound on the separation rank (levine2020
    Claim 1): the first line says so, with the kind, before the matrix rank."""
    status, out, _ = _run(capsys, "grid-rank -L 1 -d_x 2 -N 2 -M 4")
    first = out.splitlines()[0]
    m = re.fullmatch(r"separation rank (>=|=) (\d+) \((certified lower bound|exact)\): "
                     r"grid matricization rank (\d+), (exact|lower_bound)", first)
    assert status == 0 and m, first
    assert m.group(2) == m.group(4)
    assert (m.group(1) == "=") == (m.group(3) == "exact")


def test_sep_rank_says_the_separation_rank_first(folder, capsys):
    status, out, _ = _run(capsys, "sep-rank -L 1 --width 2 -N 2")
    assert status == 0
    assert re.fullmatch(r"separation rank = \d+ \(exact\)", out.splitlines()[0])
