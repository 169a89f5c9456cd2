"""What every ``seprank`` command shares: ``--json [PATH]``, subparsers, exit codes,
one-line errors, JSON output, and the spinner and progress bar drawn on a terminal.

Exit status (:data:`EXIT_OK`, :data:`EXIT_FAILED`, :data:`EXIT_USAGE`,
:data:`EXIT_INTERRUPTED`): 0 success; 1 a failed outcome (``lemma6`` when the identity
fails, ``prove --strict`` when a claim is open or false, a step that raised, an
incomplete sweep); 2 a user's error, printed as one line ``seprank: error: ...`` on
stderr (:func:`run`); 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from seprank.errors import SeprankError

__all__ = ["STDOUT", "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE", "EXIT_INTERRUPTED",
           "SPINNER_DELAY", "WIDTH", "emit_json", "json_option", "budget_options", "subparser",
           "spinner", "progress_bar", "run", "say", "wrap_lines", "Parser"]

#: the PATH of ``--json`` (and ``--markdown``) that means standard output
STDOUT = "-"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

#: the widest line a command prints (its output and its --help)
WIDTH = 80

#: a spinner appears on stderr only for work that runs longer than this (seconds)
SPINNER_DELAY = 2.0


def emit_json(data, where: str) -> None:
    """Print ``data`` as JSON (``where`` is '-') or write it to the file ``where``.

    >>> emit_json({"value": 1}, "-")
    {
      "value": 1
    }
    """
    from seprank.schemas.strict_json import dumps

    text = dumps(data, indent=2, default=str) + "\n"  # never NaN or Infinity: not JSON
    if where == STDOUT:
        from seprank.budget_guard import work_done

        work_done()
        sys.stdout.write(text)
    else:
        from seprank.files.output_files import write_text

        write_text(where, text)


def wrap_lines(text: str, width: int = WIDTH) -> list[str]:
    """``text`` as lines of at most ``width`` columns: each line longer than that is
    wrapped at spaces, its continuation indented two columns past the line's own indent
    (a word longer than the width, a path say, stays whole on its own line).

    >>> for line in wrap_lines("  note: " + "word " * 12, width=30):
    ...     print(line)
      note: word word word word
        word word word word word
        word word word
    >>> wrap_lines("short\\n\\n  kept")
    ['short', '', '  kept']
    """
    import textwrap

    out = []
    for line in text.split("\n"):
        line = line.rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        out += textwrap.wrap(line.lstrip(), width, initial_indent=indent,
                             subsequent_indent=indent + "  ", break_long_words=False,
                             break_on_hyphens=False)
    return out


def say(text: object = "", file=None) -> None:
    """Print ``text`` wrapped to :data:`WIDTH` columns (:func:`wrap_lines`).

    >>> say("rank 2 (exact over QQ)")
    rank 2 (exact over QQ)
    """
    print("\n".join(wrap_lines(str(text))), file=file or sys.stdout)


def json_option(parser: argparse.ArgumentParser, what: str, note: str = "") -> None:
    """``--json [PATH]``: one meaning in every subcommand (no value or '-': stdout).

    >>> p = argparse.ArgumentParser()
    >>> json_option(p, "the result")
    >>> p.parse_args(["--json"]).json, p.parse_args(["--json", "r.json"]).json
    ('-', 'r.json')
    """
    parser.add_argument("--json", nargs="?", const=STDOUT, default=None, metavar="PATH",
                        help=f"write {what} as JSON to PATH; with no PATH, or '-', print it "
                        "to standard output (and nothing else)." + note)


def budget_options(parser: argparse.ArgumentParser) -> None:
    """``--max-memory SIZE`` and ``--max-seconds S``: the budget of the command
    (:mod:`seprank.budget`), in force while it runs (:func:`run`).

    >>> p = argparse.ArgumentParser()
    >>> budget_options(p)
    >>> vars(p.parse_args(["--max-memory", "2G", "--max-seconds", "60"]))
    {'max_memory': '2G', 'max_seconds': '60'}
    """
    from seprank.cli.values import seconds, size

    group = parser.add_argument_group("budget (estimated before any work; refused past it)")
    group.add_argument("--max-memory", metavar="SIZE", default=None, type=size,
                       help="peak memory allowed, e.g. 2G or 500M (default: 80%% of the "
                       "memory free now)")
    group.add_argument("--max-seconds", metavar="S", default=None, type=seconds,
                       help="running time allowed by the estimate, in seconds (or 10m, 1h; "
                       "default: no limit)")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``--help`` within :data:`WIDTH` columns on any terminal (argparse would use the
    terminal's width); the description and the examples keep their line breaks.

    >>> p = argparse.ArgumentParser(formatter_class=HelpFormatter)
    >>> _ = p.add_argument("--x", help="word " * 40)
    >>> max(map(len, p.format_help().splitlines())) <= WIDTH
    True
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None):
        import shutil

        width = min(WIDTH, width or shutil.get_terminal_size().columns) - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    """argparse, with errors a person reads: at most three lines, the command's own short
    usage first (not the top level's), and a "did you mean" for a mistyped option, command
    or choice (:func:`seprank.errors.did_you_mean`).

    Examples
    --------
    >>> p = Parser(prog="seprank demo")
    >>> _ = p.add_argument("--method", choices=["exact", "float"])
    >>> p.readable("unrecognized arguments: --metod float")
    'unknown option --metod; did you mean --method?'
    >>> p.readable("argument --method: invalid choice: 'flot' (choose from 'exact', 'float')")
    "argument --method: invalid choice 'flot'; did you mean float? (choose from exact, float)"
    >>> p.short_usage()
    'usage: seprank demo [options]  (--help: every option)'
    """

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and " " in self.prog:   # a subcommand: its own usage, its own options
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    def short_usage(self) -> str:
        """One line: the command, what it requires, ``[options]``, where help is."""
        if " " not in self.prog:           # the top level
            return f"usage: {self.prog} COMMAND [options]  ({self.prog} --help: the commands)"
        words = []
        for a in self._actions:
            if not a.option_strings and a.nargs not in ("?", "*", argparse.SUPPRESS):
                words.append(a.metavar or a.dest.upper())
            elif a.option_strings and a.required:
                words.append(f"{a.option_strings[0]} {a.metavar or a.dest.upper()}")
        return f"usage: {self.prog} {' '.join(words + ['[options]'])}  (--help: every option)"

    def readable(self, message: str) -> str:
        """argparse's message, with the names it could have meant."""
        import re

        from seprank.errors import did_you_mean

        if message.startswith("unrecognized arguments: "):
            words = message.split(": ", 1)[1].split()
            options = [w.split("=")[0] for w in words if w.startswith("-")]
            known = [o for a in self._actions for o in a.option_strings]
            if options:
                return "; ".join(f"unknown option {o}{did_you_mean(o, known)}"
                                 for o in options)
            return f"unexpected argument{'s' * (len(words) > 1)}: {' '.join(words)}"
        m = re.fullmatch(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)",
                         message, re.S)
        if m:
            name, value, choices = m.group(1), m.group(2), re.findall(r"'([^']*)'", m.group(3))
            hint = did_you_mean(value, choices)
            if name == "COMMAND":
                return f"unknown command '{value}'{hint} ({self.prog} --help lists the commands)"
            return (f"argument {name}: invalid choice '{value}'{hint} (choose from "
                    f"{', '.join(choices)})")
        return message

    def error(self, message: str):
        """Print the short usage and the error, wrapped to 80 columns; exit with status 2.
        A bad value of a well-formed option (:mod:`seprank.cli.values`) is one line, as
        every bad parameter is: ``seprank: error: --lam: lambda (...) ..., got 0``."""
        import re

        from seprank.cli.values import is_value_message

        m = re.fullmatch(r"argument (\S+): (.*)", message, re.S)
        if m and is_value_message(m.group(2)):
            self.exit(EXIT_USAGE, f"seprank: error: {m.group(1)}: {m.group(2)}\n")
        lines = [self.short_usage(), *wrap_lines(f"{self.prog}: error: {self.readable(message)}")]
        self.exit(EXIT_USAGE, "\n".join(lines) + "\n")


def subparser(sub, name: str, help: str, example: str) -> argparse.ArgumentParser:
    """A subcommand's parser: ``help`` as its description, ``example`` as its epilog.

    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> demo = subparser(sub, "demo", "a demo command", "seprank demo --json")
    >>> demo.description, demo.epilog
    ('A demo command.', 'example:\\n  seprank demo --json')
    """
    import textwrap

    description = textwrap.fill(help[:1].upper() + help[1:] + ".", WIDTH - 2)
    return sub.add_parser(name, help=help, description=description,
                          epilog="example:\n  " + example.replace("\n", "\n  "),
                          formatter_class=HelpFormatter)


@contextlib.contextmanager
def spinner(what: str, delay: float | None = None):
    """Show a rich spinner on stderr after ``delay`` seconds, only when stderr is a terminal.

    >>> with spinner("adding"):          # stderr is no terminal here: nothing is drawn
    ...     total = 1 + 1
    >>> total
    2
    """
    if not sys.stderr.isatty():
        yield
        return
    import threading

    from rich.console import Console

    status = Console(stderr=True).status(f"{what}...")
    lock = threading.Lock()
    state = {"started": False, "done": False}

    def start() -> None:
        with lock:
            if not state["done"]:
                status.start()
                state["started"] = True

    timer = threading.Timer(SPINNER_DELAY if delay is None else delay, start)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["started"]:
                status.stop()


@contextlib.contextmanager
def progress_bar(what: str, enabled: bool):
    """A rich progress bar on stderr (a terminal only); yields its update(done, total, label).

    >>> with progress_bar("cases", enabled=True) as update:   # no terminal: no bar
    ...     print(update)
    None
    """
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)

        def update(done: int, total: int, label: str) -> None:
            bar.update(task, completed=done, total=total, description=f"{what}: {label}")

        yield update


def _budget(args: argparse.Namespace):
    """The command's budget: its ``--max-memory`` and ``--max-seconds``, else the machine's."""
    from seprank.budget import Budget

    return Budget(getattr(args, "max_memory", None), getattr(args, "max_seconds", None))


def run(args: argparse.Namespace, *, guard: bool = False) -> int:
    """Run the command ``args.func(args)``: a user's error is one line on stderr and
    exit status 2, an interruption 130, a reader that leaves a pipe early 0.

    ``guard``: when the command has ``--max-seconds`` or ``--max-memory``, run it under
    :mod:`seprank.budget_guard` (the ``seprank`` program does; ``main([...])`` does not).

    >>> def bad(args):
    ...     raise SeprankError("N must be >= 2")
    >>> run(argparse.Namespace(func=bad))     # stderr: seprank: error: N must be >= 2
    2
    >>> run(argparse.Namespace(func=lambda args: 0))
    0
    """
    # Printing exact answers (kernel vectors, big entries) must not stop at Python's
    # 4300-digit limit for int <-> str. Input digits are parsed by python-flint
    # (seprank.files.matrix_io.parse_integer), which has no quadratic-time risk to guard.
    sys.set_int_max_str_digits(0)
    try:
        budget = _budget(args)
    except SeprankError as exc:
        print(f"seprank: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if guard and (budget.max_seconds is not None or budget.max_memory is not None):
        from seprank.budget_guard import guard_available, run_guarded

        if guard_available():
            return run_guarded(budget, lambda: _run(args, budget),
                               f"seprank {getattr(args, 'command', '')}".strip())
    return _run(args, budget)


def _run(args: argparse.Namespace, budget) -> int:
    """:func:`run`'s work: the command inside its budget, errors as one line; then one line
    per plugin that could not be loaded (:mod:`seprank.plugins`), and status 2 for them
    where the command itself succeeded."""
    import seprank.plugins as plugins

    plugins.forget()
    status = _run_command(args, budget)
    for line in plugins.noted():
        print(f"seprank: error: {line}", file=sys.stderr)
    return EXIT_USAGE if plugins.noted() and status == EXIT_OK else status


def _run_command(args: argparse.Namespace, budget) -> int:
    try:
        with budget.active():
            return args.func(args)
    except SeprankError as exc:
        print(f"seprank: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("seprank: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `seprank ... | head`: the reader left, not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
