"""Every ``$ seprank ...`` block of the README shows what the command prints today.

Each fenced block of the README that holds ``$ `` lines is a terminal session: the
command, then what it printed (standard output and standard error, as a terminal
shows them). Here every such ``seprank`` command is either run and compared, or is
compared by the test named in ``ELSEWHERE``, or is skipped for the reason in
``SKIPPED``; :func:`test_every_readme_command_is_accounted_for` fails on a new command
that is none of these, so no real-output block can drift unseen.

A session runs in a fresh temporary folder holding the inputs the README shows:
``m.json`` (the matrix the README names), the files that ``$ cat FILE`` lines print,
and copies of the sweep specs the commands name. A command's exit status is the
``# exit N`` or ``(exit N)`` its line declares, else 2 when its output is a one-line
``seprank: error:``, else 0. What varies from run to run is masked on both sides
before the comparison, with the masks of the older README tests
(``tests/test_readme.py``: the BLAS-dependent digits of a float estimate;
``tests/test_hadamard_rank.py``: random primes, times) plus timings in seconds,
elapsed times, and absolute paths. A session whose last line is ``...`` compares
only the lines above it. Lines that rich wraps at the terminal's width (the sweep's
first line, whose store path has any length) are compared as words, not lines.

Commands over about 10 s on the shared 2-core machine (a separation rank at L = 3,
a Dask sweep) run only in the full tier (``--full``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .test_hadamard_rank import _mask as _mask_primes_and_times
from .test_readme import _mask_float_digits

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: subcommands whose README sessions another test already runs and compares
ELSEWHERE = {
    "rank": "tests/test_readme.py",
    "grid-rank": "tests/test_readme.py",
    "lemma6": "tests/test_readme.py",
    "hadamard-rank": "tests/test_hadamard_rank.py",
    "float-vs-exact": "tests/test_float_vs_exact_cli.py",
}
#: subcommands not compared yet, and why
SKIPPED: dict[str, str] = {}
#: commands (their first words) that take over ~10 s here: full tier only
SLOW = ("seprank sep-rank -L 3", "seprank sweep", "seprank report")


def readme_sessions(text: str) -> list[list[tuple[str, list[str]]]]:
    """The ``$ `` sessions of the fenced blocks of a Markdown text: [(command, lines)].

    >>> readme_sessions("```\\n$ seprank papers\\nlevine2020\\n```\\n```python\\n>>> 1\\n```")
    [[('seprank papers', ['levine2020'])]]
    """
    sessions, inside, current = [], False, None
    for line in text.splitlines():
        if line.startswith("```"):
            inside = not inside
            current = None
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            if current is None:
                current = []
                sessions.append(current)
            current.append((line[2:], []))
        elif current is not None:
            current[-1][1].append(line)
    return sessions


SESSIONS = readme_sessions(README.read_text())


def _words(command: str) -> list[str]:
    """The command's words, without a pipe's tail or an output redirection."""
    return shlex.split(command.split(" | ")[0].split(" > ")[0], comments=True)


def _redirect(command: str) -> str | None:
    """The file a README command sends its standard output to (``cmd > file``)."""
    head = command.split(" | ")[0]
    return shlex.split(head.split(" > ")[1], comments=True)[0] if " > " in head else None


def _subcommand(command: str) -> str | None:
    words = _words(command)
    return words[1] if len(words) > 1 and words[0] == "seprank" else None


def _runs_here(session: list[tuple[str, list[str]]]) -> bool:
    subs = {_subcommand(c) for c, _ in session} - {None}
    return bool(subs) and not subs & (set(ELSEWHERE) | set(SKIPPED))


HERE = [s for s in SESSIONS if _runs_here(s)]


_DECLARED = re.compile(r"#.*?\bexit (\d+)\b|\(exit (\d+)\)")


def expected_status(command: str, lines: list[str]) -> int:
    """The exit status a README command shows: declared, else 2 for an error, else 0.

    >>> expected_status("seprank lemma6 -L 2   # exit 1: fails", [])
    1
    >>> expected_status("seprank sep-rank -N 1", ["seprank: error: N must be >= 2"])
    2
    """
    m = _DECLARED.search(command)
    if m:
        return int(m.group(1) or m.group(2))
    return 2 if lines and lines[-1].startswith("seprank: error:") else 0


_MASKS = [
    (re.compile(r"\b\d+\.\d+ s\b"), "<s>"),                 # seconds taken
    (re.compile(r"\b\d+\.\d+s\b"), "<s>"),                  # a check's or a step's time
    (re.compile(r"\b\d+:\d\d:\d\d\b"), "<h:mm:ss>"),        # elapsed / left (progress bar)
    (re.compile(r"(?<![\w.])/\S*?(?=/docs/)"), "<dir>"),    # absolute paths of the folder
]


def mask(line: str) -> str:
    """A line with its run-dependent parts replaced by placeholders.

    >>> mask("coefficient matrix: 409 x 291 in 5 blocks; 0.2873 s")
    'coefficient matrix: 409 x 291 in 5 blocks; <s>'
    >>> mask("49 tasks (/work/main/docs/sweeps/h.sqlite)")
    '49 tasks (<dir>/docs/sweeps/h.sqlite)'
    """
    line = _mask_primes_and_times(_mask_float_digits(line))
    for pattern, repl in _MASKS:
        line = pattern.sub(repl, line)
    return line.rstrip()


def _inputs(folder: Path, session: list[tuple[str, list[str]]]) -> None:
    """The files a session reads: m.json as the README describes it, specs it names."""
    (folder / "m.json").write_text(json.dumps([[1, 2, 3], [2, 4, 6], [1, 0, 1]]))
    for command, _ in session:
        for word in _words(command):
            if word.endswith((".toml", ".yaml")) and (ROOT / word).is_file():
                (folder / word).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / word, folder / word)


def _installed(package: str) -> bool:
    """Whether the package (a plugin the README installs) imports in a fresh interpreter
    (the commands run in one; a test may have put it on this process's path)."""
    return subprocess.run([sys.executable, "-c", f"import {package}"],
                          capture_output=True).returncode == 0


def _run(command: str, folder: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="80", TERM="dumb")
    env.pop("NO_COLOR", None)
    out = subprocess.run([sys.executable, "-m", "seprank", *_words(command)[1:]],
                         cwd=folder, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=600)
    if " | grep " in command:               # the shell's filter: lines holding the word
        word = shlex.split(command.split(" | grep ")[1], comments=True)[0]
        out.stdout = "".join(ln for ln in out.stdout.splitlines(True) if word in ln)
    target = _redirect(command)
    if target is not None:                  # the shell would have written it to a file
        (folder / target).write_text(out.stdout)
        out.stdout = ""
    return out


def _compare(command: str, got: list[str], expected: list[str]) -> None:
    if expected and expected[-1].strip() == "...":          # an elided tail
        expected = expected[:-1]
        got = got[:len(expected)]
    got_m, want_m = [mask(x) for x in got], [mask(x) for x in expected]
    if _subcommand(command) == "sweep":                       # rich wraps its first line
        assert " ".join(got_m).split() == " ".join(want_m).split(), command
    else:
        assert got_m == want_m, command


@pytest.mark.parametrize("session", HERE, ids=[s[0][0] for s in HERE])
def test_readme_session_output_is_real(session, full):
    if not full and any(c.startswith(SLOW) for c, _ in session if _subcommand(c)):
        only_slow = all(c.startswith(SLOW) for c, _ in session if _subcommand(c))
        if only_slow:
            pytest.skip("slow session (over ~10 s): run with --full")
    for command, _ in session:                  # a plugin the session installs first
        words = _words(command)
        if words[:3] == ["pip", "install", "-e"] and not _installed(Path(words[3]).name):
            pytest.skip(f"{words[3]} is not installed here (pip install -e {words[3]})")
    with tempfile.TemporaryDirectory(prefix="rdme") as tmp:      # short: paths rich wraps
        folder = Path(tmp)
        _inputs(folder, session)
        for command, expected in session:
            if _words(command)[0] == "pip":       # installed already (checked above)
                continue
            if _words(command)[0] == "cat":
                (folder / _words(command)[1]).write_text("\n".join(expected) + "\n")
                continue
            if not full and command.startswith(SLOW):
                continue
            out = _run(command, folder)
            assert out.returncode == expected_status(command, expected), (command, out.stdout)
            _compare(command, out.stdout.rstrip("\n").splitlines(), expected)


def test_every_readme_command_is_accounted_for():
    """Each ``$ seprank`` command is run here, compared elsewhere, or skipped with a reason."""
    commands = [c for s in SESSIONS for c, _ in s if _subcommand(c)]
    assert len(commands) >= 15
    here = {c for s in HERE for c, _ in s}
    for command in commands:
        sub = _subcommand(command)
        assert command in here or sub in ELSEWHERE or sub in SKIPPED, command
    for sub, test in ELSEWHERE.items():     # the tests named there still read the README
        assert "README" in (ROOT / test).read_text(), (sub, test)
    ran = {_subcommand(c) for c in here}
    assert {"sep-rank", "papers", "sweep", "report"} <= ran
