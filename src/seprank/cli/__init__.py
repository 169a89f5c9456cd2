"""The ``seprank`` command line.

    seprank [--version] COMMAND ...      (also: python -m seprank COMMAND ...)
    seprank prove [ID ...] [--package NAME] [--full] [--report-dir DIR | --no-report]
                  [--json [PATH]] [--markdown PATH] [--list] [--no-deps] [--strict]
                  [-v | -vv | --quiet]
    seprank rank FILE [--method auto|exact|modular|multimodular|float|cuda] [--prime P]
                 [--engine flint|numba|cuda] [--certify] [--explain] [--json [PATH]]
    seprank report REPORT.json|STORE.sqlite [--markdown PATH] [--html PATH]
    seprank errata PAPER [--from REPORT.json] [--output PATH] [--full]
    seprank papers [--json [PATH]]
    seprank sweep SPEC.toml|SPEC.yaml [--scheduler ADDRESS] [--workers N] [--store PATH] ...
    seprank lemma6 -L/--depth L [-H/--heads H] [-d_a/--head-dim D] [-N/--seq-len N]
                   [--printed | --corrected] [--json [PATH]]
    seprank grid-rank -L/--depth L -d_x/--width DX [-H/--heads H] [-N/--seq-len N]
                      [--templates M] ... [--json [PATH]]
    seprank sep-rank -L/--depth L -d_x/--width DX [-H/--heads H] [--residual] [-N N]
                     [--seed S | --weights FILE] [--points-seed S] [--explain] ...
                     [--json [PATH]]
    seprank hadamard-rank (FILE --lam LAM | --omega D LAMBDA | --lemma6 L H DA HALF
                          | --equal-norm D LAMBDA) [--method M] [--certify] [--json [PATH]]
    seprank float-vs-exact --out DIR [--family omega|random|file] [--d FROM:TO]
                           [--lam FROM:TO] [--matrix FILE] [--max-n N] ...
    seprank schema NAME [-o PATH] | --list

One module per command or family of commands, each declaring its subparsers
(``add_parsers(sub)``), which :func:`build_parser` assembles:

* :mod:`seprank.cli.prove` -- ``prove``;
* :mod:`seprank.cli.reports` -- ``report``, ``errata``, ``papers``;
* :mod:`seprank.cli.rank` -- ``rank``;
* :mod:`seprank.cli.separation` -- ``sep-rank``, ``grid-rank``, ``lemma6`` (and the
  shape options they share);
* :mod:`seprank.cli.hadamard` -- ``hadamard-rank``, ``float-vs-exact``;
* :mod:`seprank.cli.sweep` -- ``sweep``;
* :mod:`seprank.cli.schema` -- ``schema`` (the JSON Schema of each file format);
* :mod:`seprank.cli.common` -- what they share: ``--json [PATH]``, subparsers, exit
  codes, one-line errors, JSON output, spinner and progress bar.

Shape options: the long names are spelled out, the short ones are the papers' symbols;
``--da`` and ``--dx`` are old spellings that still work (with a note on stderr).

``--json [PATH]`` means the same everywhere: write JSON to PATH; with no PATH
(or ``-``) print it to standard output and nothing else (``prove`` refuses a check id
as the PATH). Exit status: 0 success; 1 a failed outcome (``lemma6`` when the identity
fails, ``prove --strict`` when a claim is open or false, a step that raised, an
incomplete sweep); 2 a user's error.

Errors a user can cause (bad files, bad parameters) print one line starting
with ``seprank: error:`` and exit with status 2, without a traceback.
"""

from __future__ import annotations

import argparse
import sys

from seprank.cli.common import SPINNER_DELAY, HelpFormatter, Parser, run

__all__ = ["main", "build_parser", "SPINNER_DELAY"]

def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every ``seprank`` subcommand.

    Examples
    --------
    >>> args = build_parser().parse_args(["rank", "m.json", "--method", "exact"])
    >>> args.command, args.file, args.method, args.json
    ('rank', 'm.json', 'exact', None)
    >>> build_parser().parse_args(["lemma6", "-L", "2", "--json"]).json
    '-'
    """
    from seprank import __version__
    from seprank.cli import hadamard, prove, rank, reports, schema, separation, sweep

    parser = Parser(
        prog="seprank",
        description="Exact checks of the separation-rank theory of self-attention.",
        epilog="examples:\n  seprank rank m.json --certify\n  seprank prove --list\n"
        "  seprank hadamard-rank --omega 3 4 --certify\n"
        "  seprank prove L-Omega --strict\n\nexit status: 0 success; 1 a check or "
        "identity failed (prove --strict, lemma6)\nor a sweep is incomplete; 2 a user's error"
        "\n\nthe manual: docs/ (README.md says how to build it and where to open it)",
        formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"seprank {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (prove, rank, reports, sweep, separation, hadamard, schema):  # --help order
        module.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one ``seprank`` command; return its exit status (2 for a user's error).

    With no ``argv`` (the ``seprank`` program itself, reading ``sys.argv``), a command
    with a budget runs under :mod:`seprank.budget_guard`.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = pathlib.Path(tmp) / "m.json"
    ...     _ = f.write_text(json.dumps([[1, 2], [2, 4]]))    # second row = 2 x first
    ...     status = main(["rank", str(f), "--json"])
    {
      "value": 1,
      "kind": "exact",
    ...
    >>> status
    0
    >>> main(["rank", "/no/such/file.json"])                    # one line on stderr, no traceback
    2
    """
    return run(build_parser().parse_args(argv), guard=argv is None)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
