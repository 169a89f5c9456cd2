"""``seprank sweep SPEC``: a grid of computations on Dask, kept task by task in a store.

The spec (TOML or YAML) is read by :func:`seprank.sweep.load_spec`; the sweep runs by
:func:`seprank.sweep.run_sweep` (a local cluster, or ``--scheduler``) and resumes from
its SQLite store; ``--dry-run`` says what would run and changes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from seprank.cli.common import EXIT_INTERRUPTED, say, subparser
from seprank.cli.values import integer
from seprank.errors import InputError, ParameterError

__all__ = ["add_parsers"]


def _params_text(params) -> str:
    """A task's parameters as the spec would write them: ``d=2, lam=1, family="omega"``.

    >>> _params_text({"d": 2, "family": "omega", "prime": None})
    'd=2, family="omega", prime=null'
    """
    if not isinstance(params, dict):
        return str(params)
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in params.items())


def _dry_run(spec, store: str) -> int:
    """``--dry-run``: count what is done and what would run; open the store read-only."""
    from seprank.sweep.runner import plan
    from seprank.sweep.store import ResultStore

    if Path(store).exists():  # read-only: a dry run changes no byte of the store
        with ResultStore(store, create=False, readonly=True) as db:
            todo, skipped = plan(spec, db)
    else:  # do not create a store just to say that nothing is in it
        todo, skipped = [(None, t) for t in spec.tasks()], 0
    say(f"{spec.computation}: {len(todo) + skipped} tasks, {skipped} already done in "
        f"{store}, {len(todo)} to run")
    left_out = spec.skipped()
    if left_out:
        say(f"  {len(left_out)} grid points left out, e.g. {_params_text(left_out[0][1])}")
    for _, task in todo[:10]:
        say(f"  {_params_text(json.loads(task.params_json))}")
    if len(todo) > 10:
        print(f"  ... and {len(todo) - 10} more")
    return 0


def _check_options(args: argparse.Namespace) -> None:
    """``--workers`` >= 1 and ``--retries`` >= 0, refused in one line (dry runs included).

    >>> _check_options(argparse.Namespace(workers=0, retries=3))
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: --workers must be an integer >= 1, got 0
    """
    if args.workers is not None and args.workers < 1:
        raise ParameterError(f"--workers must be an integer >= 1, got {args.workers}")
    if args.retries < 0:
        raise ParameterError(f"--retries must be an integer >= 0, got {args.retries}")
    if getattr(args, "scheduler", None) is not None:
        from seprank.runtime.cluster import check_address

        check_address(args.scheduler)  # its form, before any store is made


def _cmd_sweep(args: argparse.Namespace) -> int:
    """``seprank sweep``: run the tasks not yet in the store; exit 1 while some failed."""
    import os

    from rich.console import Console

    from seprank.sweep import load_spec, run_sweep

    _check_options(args)
    spec = load_spec(args.spec)
    store = args.store or spec.store
    if Path(store).is_dir():
        raise InputError(f"sweep store {str(store)!r} is a folder, not a file")
    if args.dry_run:
        return _dry_run(spec, store)
    if args.scheduler is not None:
        from seprank.runtime.cluster import probe

        probe(args.scheduler)  # unreachable, or not Dask: one line before anything else
    console = Console(highlight=False, stderr=True)
    where = args.scheduler or (f"a local Dask cluster of {args.workers or os.cpu_count()} "
                               "worker processes")
    console.print(f"sweep {spec.computation} on {where}; store {store}")
    left_out = spec.skipped()
    if left_out:
        console.print(f"{len(left_out)} grid points left out by the computation, e.g. "
                      f"{left_out[0][1]}")
    try:
        summary = run_sweep(spec, store=store, scheduler=args.scheduler, workers=args.workers,
                            retries=args.retries, progress=not args.no_progress,
                            console=console)
    except KeyboardInterrupt:
        print(f"seprank: interrupted; finished tasks are in {store}: rerun the same command "
              "to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    say(summary.line())
    for params, error in summary.failures[:5]:
        say(f"  failed: {_params_text(params)}: {error}")
    if summary.failed:
        print(f"  ({summary.failed} failed in all; rerun to retry them; "
              f"`seprank report {store}` lists them)")
    return 0 if summary.complete else 1


def add_parsers(sub) -> None:
    """Declare ``seprank sweep``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['sweep']
    """
    sweep = subparser(sub, "sweep", "run a grid of computations on Dask, resumably",
                       "seprank sweep docs/sweeps/float_vs_exact.toml --workers 2 --dry-run")
    sweep.add_argument("spec", help="a .toml or .yaml sweep specification")
    sweep.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: "
                       "start a local cluster on 127.0.0.1)")
    sweep.add_argument("--workers", type=integer("workers"), default=None, metavar="N",
                       help="local cluster size (default: one worker process per core)")
    sweep.add_argument("--store", metavar="PATH", default=None,
                       help="result store (default: from the spec, else SPEC.sqlite)")
    sweep.add_argument("--retries", type=integer("retries"), default=3, metavar="N",
                       help="Dask retries of a task that raised (default: %(default)s)")
    sweep.add_argument("--dry-run", action="store_true",
                       help="say what would run, run nothing")
    sweep.add_argument("--no-progress", action="store_true", help="no progress bar")
    sweep.set_defaults(func=_cmd_sweep)
