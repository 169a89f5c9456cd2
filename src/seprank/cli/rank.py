"""``seprank rank FILE``: the rank of a matrix in a file, with its kind (and certificate).

The matrix is read by :func:`seprank.files.matrix_io.load_matrix` (``.npy``, ``.json``, ``.csv``
or text); the rank by :func:`seprank.rank`; ``--explain`` prints the plan of
:func:`seprank.linalg.planner.plan_rank` and computes nothing.
"""

from __future__ import annotations

import argparse

from seprank.cli.common import (
    STDOUT,
    budget_options,
    emit_json,
    json_option,
    say,
    spinner,
    subparser,
)
from seprank.cli.values import integer

__all__ = ["add_parsers"]


def _cmd_rank(args: argparse.Namespace) -> int:
    """``seprank rank``: print ``VALUE KIND`` and the result (or its JSON)."""
    import seprank
    from seprank.files.matrix_io import load_matrix

    matrix = load_matrix(args.file, allow_float=args.method == "float", method=args.method)
    if args.explain:  # the plan only: checks and decisions, no rank work
        from seprank.linalg.planner import plan_rank

        plan = plan_rank(matrix, args.method, prime=args.prime, certify=args.certify,
                         engine=args.engine)
        if args.json:
            emit_json(plan.to_dict(), args.json)
        if args.json != STDOUT:
            say(plan.explain())
        return 0
    with spinner(f"rank ({args.method})"):
        result = seprank.rank(matrix, args.method, prime=args.prime, certify=args.certify,
                              engine=args.engine)
    verified = None
    if args.certify and result.certificate is not None:
        with spinner("verifying the certificate"):
            verified = seprank.verify(matrix, result)
    if args.json:
        out = result.to_dict()
        if verified is not None:
            out["certificate_verified"] = verified
        emit_json(out, args.json)
    if args.json != STDOUT:
        print(f"{result.value} {result.kind}")
        say(result)
        if "input_rounding" in result.details:
            from seprank.linalg.coerce import rounding_text

            say(f"warning: {rounding_text(result.details['input_rounding'])}")
        if verified is not None:
            print(f"certificate independently verified: {verified}")
    return 0


def add_parsers(sub) -> None:
    """Declare ``seprank rank``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['rank']
    """
    from seprank.linalg.engines import METHOD_REGISTRY, REGISTRY

    rank = subparser(sub, "rank", "rank of a matrix in a .npy, .json or text file",
                     "seprank rank m.json --certify --json out.json")
    rank.add_argument("file", help="the matrix: .npy (integer dtype), .json (rows of integers "
                      "or 'p/q' strings) or whitespace-separated text")
    rank.add_argument("--method", default="auto", choices=list(METHOD_REGISTRY),
                      help="how to compute the rank (docs/ranks.md): " + "; ".join(
                          f"{m.name}: {m.kind.replace('`', '')}"
                          for m in METHOD_REGISTRY.values()))
    rank.add_argument("--engine", default=None, choices=list(REGISTRY),
                      help="engine for the modular work (default: by size): " + "; ".join(
                          f"{e.name}: {e.description}" for e in REGISTRY.values()))
    rank.add_argument("--prime", type=integer("prime"), default=None, metavar="P",
                      help="the prime of --method modular (default: 2^31 - 1)")
    rank.add_argument("--certify", action="store_true",
                      help="attach certificates and verify them independently")
    rank.add_argument("--explain", action="store_true",
                      help="print the plan (method, field, engine, primes, fallbacks, "
                      "certificate, answer kinds) and exit without computing; with --json, "
                      "the plan as JSON")
    json_option(rank, "the result")
    budget_options(rank)
    rank.set_defaults(func=_cmd_rank)
