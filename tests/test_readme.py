"""The README's "real output" blocks are what the commands print today.

Every ``$ seprank rank|grid-rank|lemma6 ...`` line in a fenced block of the
README is run, and its output compared line by line with the lines that
follow it in the README (``prove`` and ``sweep`` print timings, so they are
not compared).
"""

from __future__ import annotations

import json
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
            if shlex.split(cmd)[0] == "seprank" and shlex.split(cmd)[1] in COMPARED]


EXAMPLES = _examples()


def test_readme_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_output_is_real(command, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text(json.dumps([[1, 2, 3], [2, 4, 6], [1, 0, 1]]))
    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines() == expected
