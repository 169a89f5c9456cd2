"""YAML read strictly: no scalar whose meaning depends on the YAML version, no repeated key.

Issue 32 item 4. PyYAML reads YAML 1.1, where a plain ``017`` is the octal number 15,
``1:30`` the base-60 number 90, ``0x1F`` 31, ``1_000`` 1000 and ``yes``, ``on``, ``off``
booleans; YAML 1.2 reads them as 17, the string "1:30", ... A sweep spec must never
mean what its author did not write, so :func:`load` takes only what both versions read
alike and refuses the rest in one line naming the line:

* integers in decimal without a leading zero (``0``, ``17``, ``-3``); floats in decimal
  with a dot (``2.5``, ``1.0e-3``, ``.inf``); booleans ``true`` and ``false``;
* a plain scalar that YAML 1.1 or 1.2 would read as a number, a boolean or a date in
  another way (octal, hexadecimal, binary, base 60, underscores, ``yes``/``no``/``on``/
  ``off``, ``2026-01-01``) is
  refused: write the number in decimal, or quote the text; explicit tags (``!!int``,
  ``!!float``, ``!!bool``) obey the same rules;
* a mapping that repeats a key is refused (PyYAML keeps the last value silently).

Everything else is PyYAML's ``SafeLoader`` (no Python objects are ever built).

Examples
--------
>>> load("d: 17\\nlam: [1, 2]\\nname: '017'\\n")
{'d': 17, 'lam': [1, 2], 'name': '017'}
>>> load("d: 017\\n")
Traceback (most recent call last):
...
seprank.sweep.strict_yaml.StrictYAMLError: line 1, column 4: 017 has a leading zero (octal \
15 in YAML 1.1, 17 in YAML 1.2); write 17, or quote it
"""

from __future__ import annotations

import re
from typing import Any

import yaml

__all__ = ["load", "StrictYAMLError", "StrictLoader"]

_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)", re.ASCII)
# floats both versions read alike: a dot, and an exponent only with its sign (YAML 1.1)
_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?|\.[0-9]+(?:[eE][-+][0-9]+)?"
                    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)", re.ASCII)
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
# what YAML 1.1 (PyYAML) or 1.2 would read as a number or a boolean otherwise
_AMBIGUOUS = re.compile(
    r"[-+]?0[0-9_]+(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"     # leading zero: octal in 1.1
    r"|[-+]?0[xXoObB][0-9a-fA-F_]*"                        # hexadecimal, octal, binary
    r"|[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+"    # 1e3, 1.5e3: floats in 1.2 only
    r"|[-+]\.[0-9]+"                                        # -.5: a float in 1.2 only
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"   # base 60
    r"|[-+]?[0-9._]*_[0-9._]*(?:[eE][-+]?[0-9]+)?"         # underscores
    r"|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF"
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?", re.ASCII)  # a date: YAML 1.1 only

_AMBIGUOUS_TAG = "tag:seprank,2026:ambiguous"


class StrictYAMLError(yaml.YAMLError):
    """A scalar or mapping :func:`load` refuses; its message is one line with the line.

    >>> issubclass(StrictYAMLError, yaml.YAMLError)
    True
    """


def _where(node: yaml.Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _why(text: str) -> str:
    """Why the plain scalar ``text`` is ambiguous, and what to write instead."""
    core = text.lstrip("+-")
    if re.fullmatch(r"0[0-9]+", core):
        sign = "-" if text.startswith("-") else ""
        octal = f"octal {sign}{int(core, 8)} in YAML 1.1, " if set(core) <= set("01234567") \
            else ""
        return (f"{text} has a leading zero ({octal}{sign}{int(core)} in YAML 1.2); write "
                f"{sign}{int(core)}, or quote it")
    if re.fullmatch(r"[-+]\.[0-9]+", text):
        return (f"{text} is a number in YAML 1.2 and a string in 1.1; write a digit before "
                "the dot, or quote it")
    if re.fullmatch(r"[-+]?[0-9.]+[eE][-+]?[0-9]+", text):
        return (f"{text} is a number in YAML 1.2 and a string in 1.1; write it with a dot "
                "and a signed exponent (1.0e+3), or quote it")
    if re.match(r"[0-9]{4}-", text):
        return f"{text} is a date in YAML 1.1 and a string in 1.2; quote it"
    if ":" in text:
        return f"{text} is a base-60 number in YAML 1.1 and a string in 1.2; quote it"
    if "_" in text:
        return f"{text} has underscores (a number in YAML 1.1 only); write it without them"
    if re.fullmatch(r"0[xXoObB].*", core):
        return f"{text} is not a decimal number; write it in decimal, or quote it"
    return f"{text} is a boolean in YAML 1.1 and a string in 1.2; write true/false, or quote it"


class StrictLoader(yaml.SafeLoader):
    """PyYAML's ``SafeLoader`` with the resolvers and constructors of the module docstring.

    >>> yaml.load("[17, 2.5, true, '017']", Loader=StrictLoader)
    [17, 2.5, True, '017']
    """


StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag not in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
                           "tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
for _tag, _regexp, _first in (
        ("tag:yaml.org,2002:bool", _BOOL, "tTfF"),
        ("tag:yaml.org,2002:int", _INT, "-+0123456789"),
        ("tag:yaml.org,2002:float", _FLOAT, "-+0123456789."),
        (_AMBIGUOUS_TAG, _AMBIGUOUS, "-+0123456789._yYnNoO")):
    StrictLoader.add_implicit_resolver(_tag, re.compile(rf"^(?:{_regexp.pattern})$", re.ASCII),
                                       list(_first))


def _scalar(loader: StrictLoader, node: yaml.Node, pattern: re.Pattern, what: str) -> str:
    text = loader.construct_scalar(node)
    if not pattern.fullmatch(text):
        raise StrictYAMLError(f"{_where(node)}: {text!r} is not a {what} as seprank reads "
                              "YAML (decimal only)")
    return text


def _int(loader: StrictLoader, node: yaml.Node) -> int:
    return int(_scalar(loader, node, _INT, "decimal integer"))


def _float(loader: StrictLoader, node: yaml.Node) -> float:
    text = _scalar(loader, node, _FLOAT, "decimal number").lower()
    return float(text.replace(".inf", "inf").replace(".nan", "nan"))


def _bool(loader: StrictLoader, node: yaml.Node) -> bool:
    return _scalar(loader, node, _BOOL, "boolean (true or false)").lower() == "true"


def _ambiguous(loader: StrictLoader, node: yaml.Node) -> None:
    raise StrictYAMLError(f"{_where(node)}: {_why(loader.construct_scalar(node))}")


def _mapping(loader: StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[Any, yaml.Node] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            repeated = key in seen
        except TypeError:  # an unhashable key: PyYAML refuses it below
            continue
        if repeated:
            raise StrictYAMLError(f"{_where(key_node)}: the key {key!r} appears twice in one "
                                  f"mapping (first at {_where(seen[key])})")
        seen[key] = key_node
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


StrictLoader.add_constructor("tag:yaml.org,2002:int", _int)
StrictLoader.add_constructor("tag:yaml.org,2002:float", _float)
StrictLoader.add_constructor("tag:yaml.org,2002:bool", _bool)
StrictLoader.add_constructor(_AMBIGUOUS_TAG, _ambiguous)
StrictLoader.construct_mapping = _mapping


def load(text: str) -> Any:
    """The document in ``text``, read by :class:`StrictLoader`.

    Raises
    ------
    StrictYAMLError
        an ambiguous scalar or a repeated key (one line, with the line and column).
    yaml.YAMLError
        any other malformed YAML (PyYAML's own error).

    >>> load("t: 1:30")
    Traceback (most recent call last):
    ...
    seprank.sweep.strict_yaml.StrictYAMLError: line 1, column 4: 1:30 is a base-60 number in \
YAML 1.1 and a string in 1.2; quote it
    >>> load("a: 1\\na: 2")
    Traceback (most recent call last):
    ...
    seprank.sweep.strict_yaml.StrictYAMLError: line 2, column 1: the key 'a' appears twice in \
one mapping (first at line 1, column 1)
    """
    return yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a SafeLoader subclass
