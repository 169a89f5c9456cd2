"""``seprank schema NAME``: the JSON Schema of one of seprank's file formats.

The formats and their schemas are declared in :mod:`seprank.schemas` (pydantic, strict);
``seprank schema --list`` names them with one line each, ``seprank schema weights``
prints the schema of the weights files as JSON Schema (draft 2020-12), which any
JSON Schema validator (``jsonschema``, an editor) can check a file against.
"""

from __future__ import annotations

import argparse

from seprank.cli.common import emit_json, subparser

__all__ = ["add_parsers"]


def _cmd_schema(args: argparse.Namespace) -> int:
    """``seprank schema``: print the list of formats, or one format's JSON Schema."""
    from seprank.errors import ParameterError
    from seprank.schemas import SCHEMAS, json_schema

    if args.list:
        import textwrap

        from seprank.cli.common import WIDTH

        width = max(map(len, SCHEMAS))
        for name, (_, _, description) in SCHEMAS.items():
            print(textwrap.fill(f"{name:<{width}}  {description}", WIDTH,
                                subsequent_indent=" " * (width + 4)))
        return 0
    if args.name is None:
        raise ParameterError(f"give a format: {', '.join(SCHEMAS)} (or --list)")
    emit_json(json_schema(args.name), args.output)
    return 0


def add_parsers(sub) -> None:
    """Declare ``seprank schema``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['schema']
    """
    schema = subparser(sub, "schema", "the JSON Schema of a file format (weights, answer, "
                       "sweep-spec, report, certificate, matrix)",
                       "seprank schema weights\nseprank schema --list")
    schema.add_argument("name", nargs="?", default=None, metavar="NAME",
                        help="the format: matrix, weights, answer, sweep-spec, report, "
                        "certificate")
    schema.add_argument("--list", action="store_true", help="name every format, one a line")
    schema.add_argument("--output", "-o", metavar="PATH", default="-",
                        help="write the schema to PATH (default '-': standard output)")
    schema.set_defaults(func=_cmd_schema)
