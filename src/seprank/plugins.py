"""Importing plugins (paper wings, check packages) so that a broken one costs one line.

Issue 32 item 6. A plugin is code from another distribution, imported by name from an
entry point (``seprank.papers``: :mod:`seprank.paper_hooks`; ``seprank.checks``:
:mod:`seprank.proof.registry`). Importing it can fail in any way: a syntax error, an
exception at import, a missing dependency, even ``SystemExit``. :func:`import_plugin`
turns each into one :class:`PluginError` line naming the plugin and the cause
(``SyntaxError: invalid syntax (bad.py, line 3)``); ``KeyboardInterrupt`` still stops.

Where every installed plugin is loaded (``seprank papers``, ``prove --list``, reports), a
broken one is skipped and noted (:func:`note`); the others load. The command line
(:func:`seprank.cli.common.run`) prints each noted line after the command, as
``seprank: error: ...``, and exits with status 2 where the command itself succeeded.

Examples
--------
>>> import_plugin("check package 'none'", "no_such_module_for_seprank")
Traceback (most recent call last):
...
seprank.plugins.PluginError: check package 'none' (no_such_module_for_seprank) cannot be \
imported: ModuleNotFoundError: No module named 'no_such_module_for_seprank'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from seprank.errors import SeprankError

__all__ = ["PluginError", "import_plugin", "describe", "note", "noted", "forget"]

_NOTED: dict[str, None] = {}  # the lines noted during this command, in order, each once


class PluginError(SeprankError):
    """A plugin that cannot be loaded (one line: which plugin, why).

    >>> str(PluginError("paper wing 'x' (x) cannot be imported: ValueError: no"))
    "paper wing 'x' (x) cannot be imported: ValueError: no"
    """


def describe(exc: BaseException) -> str:
    """One line for an exception raised while importing: its type and first line; for a
    syntax error the file and line; for ``SystemExit`` its code.

    >>> describe(ZeroDivisionError("division by zero"))
    'ZeroDivisionError: division by zero'
    >>> describe(SystemExit(0))
    'SystemExit(0) while importing'
    """
    if isinstance(exc, SystemExit):
        return f"SystemExit({exc.code!r}) while importing"
    if isinstance(exc, SyntaxError):
        where = f" ({exc.filename}, line {exc.lineno})" if exc.filename else ""
        return f"{type(exc).__name__}: {exc.msg}{where}"
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    if len(first) > 200:
        first = first[:200] + "..."
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def import_plugin(what: str, module: str) -> ModuleType:
    """Import ``module`` (the plugin ``what``, as the line names it); any failure, even
    ``SystemExit``, is one :class:`PluginError` line.

    >>> import_plugin("paper wing 'levine2020'", "seprank.papers.levine2020").PAPER.key
    'levine2020'
    """
    try:
        return importlib.import_module(module)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin's failure, whatever it is
        raise PluginError(f"{what} ({module}) cannot be imported: {describe(exc)}") from None


def note(line: str) -> None:
    """Note a plugin skipped in this command (once per line).

    >>> forget(); note("paper wing 'x' (x) cannot be imported: ValueError: no; skipped")
    >>> noted()
    ["paper wing 'x' (x) cannot be imported: ValueError: no; skipped"]
    >>> forget()
    """
    _NOTED.setdefault(line, None)


def noted() -> list[str]:
    """The lines noted since :func:`forget`.

    >>> forget(); noted()
    []
    """
    return list(_NOTED)


def forget() -> None:
    """Start a new command: no plugin noted.

    >>> forget()
    """
    _NOTED.clear()
