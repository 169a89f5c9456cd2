"""The manual's examples are what the code does today, and the README is a front page.

Every fenced block of a page of ``docs/*.md`` (and of the README) that holds ``$ `` lines
is a terminal session: the command, then what it printed (standard output and standard
error, as a terminal shows them). Each ``seprank`` command of such a session is run, in a
fresh temporary folder holding the inputs the page shows (``m.json`` as the pages
describe it, the files that ``$ cat FILE`` lines print, copies of the sweep specs the
commands name), and its output compared with the page's. What varies from run to run is
masked on both sides: times in seconds and elapsed times, random primes, the
BLAS-dependent digits of a float estimate's tolerance and gap, the per-path times of the
float-vs-exact table, absolute paths of folders. Outputs are compared as words (lines
that wrap at 80 columns wrap where the numbers' widths put them); a session whose last
line is ``...`` compares only the lines above it. A command's exit status is the
``# exit N`` or ``(exit N)`` its line declares, else 2 when its output has an error line,
else 0. Commands over about 10 s on the shared 2-core machine run only in the full tier.

Every ``>>>`` example of a ``python`` block runs as a doctest, in a folder holding the
page's ``$ cat`` files. No example shows a path of the machine that made it. The README
stays a front page: at most 12 KB, the quick start as ``.ci/run`` reads it, the table of
commands, the answer kinds and the command that builds this manual.
"""

from __future__ import annotations

import doctest
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

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.glob("*.md"))
#: commands (their first words) that take over ~10 s here: full tier only
SLOW = ("seprank sep-rank -L 3", "seprank sweep", "seprank report docs/")


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


def _blocks(text: str, info: str) -> list[tuple[int, str]]:
    """The fenced blocks of ``text`` whose info string is ``info``: (line number, body)."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].strip() == f"```{info}":
            start, body = i + 1, []
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((start, "\n".join(body) + "\n"))
        i += 1
    return out


SESSIONS = [(page, s) for page in [README, *PAGES] for s in readme_sessions(page.read_text())]


def _words(command: str) -> list[str]:
    """The command's words, without a pipe's tail or an output redirection."""
    return shlex.split(command.split(" | ")[0].split(" > ")[0], comments=True)


def _redirect(command: str) -> str | None:
    """The file a command sends its standard output to (``cmd > file``)."""
    head = command.split(" | ")[0]
    return shlex.split(head.split(" > ")[1], comments=True)[0] if " > " in head else None


def _subcommand(command: str) -> str | None:
    words = _words(command)
    return words[1] if len(words) > 1 and words[0] == "seprank" else None


_DECLARED = re.compile(r"#.*?\bexit (\d+)\b|\(exit (\d+)\)")
_ERROR = re.compile(r"^seprank( [\w-]+)?: error: ")


def expected_status(command: str, lines: list[str]) -> int:
    """The exit status a command shows: declared, else 2 for an error, else 0.

    >>> expected_status("seprank lemma6 -L 2   # exit 1: fails", [])
    1
    >>> expected_status("seprank sep-rank -N 1", ["seprank: error: N must be >= 2"])
    2
    >>> expected_status("seprank rnak", ["usage: seprank ...", "seprank: error: unknown"])
    2
    """
    m = _DECLARED.search(command)
    if m:
        return int(m.group(1) or m.group(2))
    return 2 if any(_ERROR.match(line) for line in lines) else 0


_MASKS = [
    (re.compile(r"\b(tolerance|gap) ([-+0-9.e]+|inf)\b"), r"\1 <float>"),  # BLAS round-off
    (re.compile(r"\b(primes|mod p =) \d+(, \d+)*"), r"\1 <p>"),           # random primes
    (re.compile(r"\b\d+\.\d+ ?s\b"), "<s>"),                                # seconds taken
    (re.compile(r"\b\d+:\d\d:\d\d\b"), "<h:mm:ss>"),                        # progress bar
    (re.compile(r"(?<![\w.<])/[^\s,()]*?(?=/docs\b)"), "<dir>"),            # folders
]
_TABLE_TIMES = re.compile(r"\b\d+\.\d{4}\b")


def mask(text: str, subcommand: str | None = None) -> str:
    """The words of an output with their run-dependent parts replaced by placeholders.

    >>> mask("coefficient matrix: 409 x 291\\n  in 5 blocks; 0.2873 s")
    'coefficient matrix: 409 x 291 in 5 blocks; <s>'
    >>> mask("49 tasks (/work/main/docs/sweeps/h.sqlite), primes 2147483647, 3")
    '49 tasks (<dir>/docs/sweeps/h.sqlite), primes <p>'
    >>> mask("rank 2 (float estimate; tolerance 5.62e-15, gap\\n  1.73e+15)")
    'rank 2 (float estimate; tolerance <float>, gap <float>)'
    """
    text = " ".join(text.split())
    for pattern, repl in _MASKS:
        text = pattern.sub(repl, text)
    if subcommand == "float-vs-exact":                    # the table's seconds per path
        text = _TABLE_TIMES.sub("<t>", text)
    return text


def _inputs(folder: Path, session: list[tuple[str, list[str]]]) -> None:
    """The files a session reads: m.json as the pages describe it, specs it names."""
    (folder / "m.json").write_text(json.dumps([[1, 2, 3], [2, 4, 6], [1, 0, 1]]))
    for command, _ in session:
        for word in _words(command):
            if word.endswith((".toml", ".yaml")) and (ROOT / word).is_file():
                (folder / word).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / word, folder / word)


def _installed(package: str) -> bool:
    """Whether the package (a plugin a page installs) imports in a fresh interpreter."""
    return subprocess.run([sys.executable, "-c", f"import {package}"],
                          capture_output=True).returncode == 0


def _run(command: str, folder: Path) -> subprocess.CompletedProcess:
    """Run a page's command in ``folder`` (in the repository itself when its comment says
    ``in a checkout of seprank``: a refusal that writes nothing)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="80", TERM="dumb")
    env.pop("NO_COLOR", None)
    where = ROOT if "in a checkout of seprank" in command else folder
    out = subprocess.run([sys.executable, "-m", "seprank", *_words(command)[1:]],
                         cwd=where, env=env, stdout=subprocess.PIPE,
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
    sub = _subcommand(command)
    assert mask("\n".join(got), sub) == mask("\n".join(expected), sub), command


def _id(page: Path, session) -> str:
    return f"{page.name}: {session[0][0]}"


@pytest.mark.parametrize("page, session", SESSIONS, ids=[_id(*s) for s in SESSIONS])
def test_session_output_is_real(page, session, full):
    commands = [c for c, _ in session if _subcommand(c)]
    if not commands:
        pytest.skip("no seprank command")
    if not full and all(c.startswith(SLOW) for c in commands):
        pytest.skip("slow session (over ~10 s): run with --full")
    for command, _ in session:                  # a plugin the session installs first
        words = _words(command)
        if words[:3] == ["pip", "install", "-e"] and not _installed(Path(words[3]).name):
            pytest.skip(f"{words[3]} is not installed here (pip install -e {words[3]})")
    with tempfile.TemporaryDirectory(prefix="docs") as tmp:      # short: paths rich wraps
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


def test_the_sessions_cover_every_command():
    ran = {_subcommand(c) for _, s in SESSIONS for c, _ in s} - {None}
    assert ran >= {"prove", "rank", "report", "papers", "sweep", "lemma6", "grid-rank",
                   "sep-rank", "hadamard-rank", "float-vs-exact", "schema"}
    assert len(SESSIONS) >= 20


def _cat_files(text: str) -> dict[str, str]:
    return {_words(c)[1]: "\n".join(lines) + "\n" for s in readme_sessions(text)
            for c, lines in s if _words(c)[0] == "cat"}


DOCTESTS = [(page, line, body) for page in [README, *PAGES]
            for line, body in _blocks(page.read_text(), "python") if ">>>" in body]


@pytest.mark.parametrize("page, line, body", DOCTESTS,
                         ids=[f"{p.name}:{n}" for p, n, _ in DOCTESTS])
def test_python_examples_run(page, line, body, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in _cat_files(page.read_text()).items():
        (tmp_path / name).write_text(text)
    test = doctest.DocTestParser().get_doctest(body, {}, f"{page.name}:{line}", str(page),
                                               line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS
                                   | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{page.name}, block at line {line}: see the output above"


def test_there_are_python_examples():
    assert len(DOCTESTS) >= 4


_MACHINE_PATH = re.compile(r"(?<![\w.])/(work|home|root|tmp|Users|var/folders|mnt)/")


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_examples_show_no_path_of_the_machine_that_made_them(page):
    inside, bad = False, []
    for n, line in enumerate(page.read_text().splitlines(), 1):
        if line.startswith("```"):
            inside = not inside
        elif inside and _MACHINE_PATH.search(line):
            bad.append(f"{page.name}:{n}: {line}")
    assert not bad, bad


def test_every_page_is_in_the_table_of_contents():
    index = (DOCS / "index.md").read_text()
    listed = set(re.findall(r"^([\w-]+(?:/index)?)$", index, re.M))
    assert {p.stem for p in PAGES} - {"index"} <= listed and "api/index" in listed


def test_the_sections_other_work_edits_are_there():
    """Others edit these by name: the corrected theorems, the outcome table (rewritten by
    docs/regenerate.py), the atlas summary, the method table (generated)."""
    checks = (DOCS / "checks.md").read_text()
    assert "\n## The corrected theorems" in checks
    assert "<!-- outcomes:start -->" in checks and "<!-- outcomes:end -->" in checks
    assert "\n## The atlas" in (DOCS / "separation-ranks.md").read_text()
    assert "<!-- method-table:begin" in (DOCS / "ranks.md").read_text()


# ------------------------------------------------------------------ the README

def test_readme_is_a_front_page():
    text = README.read_text()
    assert len(text.encode()) <= 12 * 1024, len(text.encode())
    for heading in ("## Quick start", "## Which command answers which question",
                    "## What a number means: answer kinds", "## The manual"):
        assert f"\n{heading}\n" in text, heading
    from seprank.cli import build_parser

    table = text.split("## Which command answers which question", 1)[1].split("\n## ")[0]
    for command in build_parser()._subparsers._group_actions[0].choices:
        assert f"`seprank {command}" in table, command
    kinds = text.split("## What a number means", 1)[1].split("\n## ")[0]
    for kind in ("exact", "lower_bound", "upper_bound", "probabilistic", "float_estimate"):
        assert f"`{kind}`" in kinds
    manual = text.split("## The manual", 1)[1].split("\n## ")[0]
    assert "sphinx" in manual and "docs/_build/html/index.html" in manual


def test_quick_start_is_what_ci_reads():
    """The same rule as .ci/run: exactly two one-line bash blocks, prove then pytest."""
    section = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 2 and all(len(b.strip().splitlines()) == 1 for b in blocks)
    assert "seprank prove" in blocks[0] and "pytest" in blocks[1]
    assert "README.md" in (ROOT / ".ci" / "run").read_text()
