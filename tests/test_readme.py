"""The README's "real output" blocks are what the commands print today.

Every ``$ seprank rank|grid-rank|lemma6 ...`` line in a fenced block of the
README is run, and its output compared line by line with the lines that
follow it in the README (``prove`` and ``sweep`` print timings, so they are
not compared). A command may declare the exit status it expects at the end
of its line, ``$ seprank lemma6 -L 2 --printed   # exit 1`` (default 0).
Exact output is compared character for character; the digits
that floating point prints (the tolerance and singular-value gap of a
``float_estimate``) depend on the BLAS build and its round-off, so there only
their place in the line is compared, never their value.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from seprank.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
COMPARED = {"rank", "grid-rank", "lemma6"}


def _examples() -> list[tuple[str, list[str]]]:
    out, current, inside = [], None, False
    for line in README.read_text().splitlines():
        if line.startswith("```"):
            inside, current = not inside, None
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            current = (line[2:], [])
            out.append(current)
        elif current is not None:
            current[1].append(line)
    return [(cmd, lines) for cmd, lines in out
            if shlex.split(cmd, comments=True)[0] == "seprank"
            and shlex.split(cmd, comments=True)[1] in COMPARED]


_EXIT = re.compile(r"\s#\s*exit\s+(\d+)\b")


def _expected_status(command: str) -> int:
    """The exit status a README command declares (``# exit N`` at its end), else 0.

    >>> _expected_status("seprank lemma6 -L 2   # exit 1"), _expected_status("seprank rank m")
    (1, 0)
    """
    m = _EXIT.search(command)
    return int(m.group(1)) if m else 0


EXAMPLES = _examples()


def test_readme_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_output_is_real(command, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text(json.dumps([[1, 2, 3], [2, 4, 6], [1, 0, 1]]))
    assert main(shlex.split(command, comments=True)[1:]) == _expected_status(command)
    got = capsys.readouterr().out.rstrip("\n").splitlines()
    assert [_mask_float_digits(line) for line in got] == [_mask_float_digits(line)
                                                         for line in expected]


_FLOAT_FIELD = re.compile(r"\b(tolerance|gap) [-+0-9.e]+|\b(tolerance|gap) inf")


def _mask_float_digits(line: str) -> str:
    """Hide the BLAS-dependent digits of a float estimate's tolerance and gap.

    >>> _mask_float_digits("rank 2 (float estimate ...; tolerance 5.62e-15, gap 3.37e+15)")
    'rank 2 (float estimate ...; tolerance <float>, gap <float>)'
    """
    if "float estimate" not in line:
        return line
    return _FLOAT_FIELD.sub(lambda m: f"{m.group(1) or m.group(2)} <float>", line)


def test_float_digits_are_masked_only_in_float_lines():
    assert _mask_float_digits("rank 2 (exact over QQ; tolerance 1.0)") == (
        "rank 2 (exact over QQ; tolerance 1.0)")
    assert _mask_float_digits("x (float estimate; gap 1.73e+15)") != _mask_float_digits(
        "x (float estimate; rank 3)")
