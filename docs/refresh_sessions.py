"""Re-run the terminal sessions of a manual page and write what the code prints today.

    python docs/refresh_sessions.py docs/separation-ranks.md --match "-N inf"

Each ``$ seprank ...`` line of the page's fenced blocks whose command contains every
``--match`` text is run as ``tests/test_docs_pages.py`` runs it (80 columns, no colour,
standard error merged, in an empty temporary folder) and the lines under it are replaced
by its output; a session that ends in ``...`` keeps as many lines as it showed, then
``...``. Commands with a redirection, a pipe or an input file, and ``pip``/``cat``
lines, are left alone: edit those by hand. Nothing else on the page changes. Prints one
line per command refreshed.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _output(command: str) -> list[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="80", TERM="dumb")
    env.pop("NO_COLOR", None)
    with tempfile.TemporaryDirectory(prefix="docs") as tmp:    # what it writes: thrown away
        out = subprocess.run([sys.executable, "-m", "seprank", *shlex.split(command)[1:]],
                             cwd=tmp, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=900)
    return out.stdout.rstrip("\n").splitlines()


def _simple(command: str) -> bool:
    return command.startswith("seprank ") and not any(c in command for c in "|<>")


def refresh(page: Path, match: list[str]) -> int:
    """Rewrite ``page``'s matching sessions in place; the number of commands refreshed."""
    lines, out, inside, done, i = page.read_text().splitlines(), [], False, 0, 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.startswith("```"):
            inside = not inside
            continue
        if not (inside and line.startswith("$ ")):
            continue
        command = line[2:]
        j = i
        while j < len(lines) and not lines[j].startswith(("$ ", "```")):
            j += 1
        shown = lines[i:j]
        if _simple(command) and all(m in command for m in match):
            got = _output(command)
            if shown and shown[-1].strip() == "...":
                got = got[:len(shown) - 1] + ["..."]
            out.extend(got)
            done += 1
            print(f"refreshed: {command}")
        else:
            out.extend(shown)
        i = j
    page.write_text("\n".join(out) + "\n")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", type=Path, help="a page of docs/ (or README.md)")
    parser.add_argument("--match", action="append", default=[],
                        help="refresh only commands containing this text (repeatable)")
    args = parser.parse_args(argv)
    if not args.page.is_file():
        parser.error(f"{args.page}: no such page")
    print(f"{refresh(args.page, args.match)} command(s) refreshed in {args.page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
