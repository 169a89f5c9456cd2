"""What a proof's strength says: each step's evidence kind and scope, least versus least found.

A step of a check is verified by a computation; its *evidence kind* says what that
computation is (issue 30), and the *scope* for which sizes it settles the step's
statement (issue 21) follows from the kind:

* ``symbolic``: a symbolic identity in symbolic sizes that could have failed (its
  evidence shows the identity failing once the data or hypothesis it uses is changed,
  :meth:`seprank.proof.steps.StepHandle.could_fail`); scope ``all-sizes``;
* ``exhaustive``: a finite claim checked in every case (``sizes``: the range, when the
  claim is finite only through a reduction the step states); scope ``all-sizes``;
* ``certificate``: one instance certified (an exact rank, a certificate re-checked by an
  independent verifier); scope ``instance`` (``sizes`` may name it);
* ``computation``: a computation at the listed sizes only (a cross-check, or the
  evidence of an instance claim); scope ``sizes`` (or ``instance``);
* ``prose``: an argument the step's claim states in words, valid for every size; its
  computations (``sizes``: where they ran) only cross-check it; scope ``all-sizes``.

A step that states neither kind nor scope counts as verified only at the sizes it ran
("scope not stated"). A step with scope ``all-sizes`` names its kind (``symbolic``,
``exhaustive`` or ``prose``): "verified for all sizes" is never said of a computation at
listed sizes. A conclusion with strength ``proof`` and basis ``argument`` reports the
passed steps of its argument whose scope is not ``all-sizes`` (:func:`steps_at_sizes`);
it is "every step for all sizes" only when there are none (:func:`argument_text`), and
the kinds its all-sizes steps rest on are counted (:func:`argument_kinds`).

A smallest failing size is *the least* only when every smaller size and every structure
the statement quantifies over was searched; otherwise it is *the least found*. Checks
record one with :meth:`seprank.proof.framework.StepHandle.least` (which words it by
:func:`least_phrase`); :func:`unqualified_least` finds the size claims ("least",
"smallest", "minimal") a report's reasons, step claims and notes make otherwise.

Examples
--------
>>> steps = [{"claim": "an identity", "status": "passed", "scope": "all-sizes",
...           "kind": "symbolic"},
...          {"claim": "a sampled step", "status": "passed", "scope": "sizes",
...           "sizes": "L <= 3", "kind": "computation"}]
>>> argument_text(steps_at_sizes(steps))
'argument; step 2 verified only at listed sizes'
>>> argument_kinds(steps)
{'symbolic': 1}
>>> least_phrase("L", 7, proven=False)
'least found L = 7'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from seprank.proof.statuses import PASSED

__all__ = ["ALL_SIZES", "AT_SIZES", "INSTANCE", "SCOPES", "NOT_STATED", "EVIDENCE_KINDS",
           "KIND_SCOPE", "check_scope", "scope_of_kind", "kind_of_scope", "scope_text",
           "steps_at_sizes", "argument_text", "argument_kinds", "kinds_text", "least_phrase",
           "least_record", "size_claims", "unqualified_least"]

ALL_SIZES = "all-sizes"
AT_SIZES = "sizes"
INSTANCE = "instance"
#: the scopes a step may state (None: not stated)
SCOPES = (ALL_SIZES, AT_SIZES, INSTANCE)
#: what ``steps_at_sizes`` lists as the sizes of a step that states no scope
NOT_STATED = "scope not stated"

SYMBOLIC, EXHAUSTIVE, CERTIFICATE, COMPUTATION, PROSE = (
    "symbolic", "exhaustive", "certificate", "computation", "prose")
#: the evidence kinds a step may state (see the module docstring)
EVIDENCE_KINDS = (SYMBOLIC, EXHAUSTIVE, CERTIFICATE, COMPUTATION, PROSE)
#: the scopes each kind allows (the first is the one a step of that kind gets by default)
KIND_SCOPE = {SYMBOLIC: (ALL_SIZES,), EXHAUSTIVE: (ALL_SIZES,), PROSE: (ALL_SIZES,),
              CERTIFICATE: (INSTANCE, AT_SIZES), COMPUTATION: (AT_SIZES, INSTANCE)}


def check_scope(scope: str | None, sizes: str | None, kind: str | None = None) -> None:
    """Refuse a scope or kind outside the vocabularies, or ``sizes`` that do not fit them.

    ``sizes`` is required for scope ``sizes``, optional for ``instance`` (the instance),
    and for ``all-sizes`` allowed only with kind ``prose`` (where the cross-checks ran)
    or ``exhaustive`` (the range); a kind must agree with the scope (:data:`KIND_SCOPE`),
    and scope ``all-sizes`` names its kind.

    Examples
    --------
    >>> check_scope("sizes", "L <= 3, H <= 2")
    >>> check_scope("all-sizes", "L <= 3", kind="prose")
    >>> check_scope("sizes", None)
    Traceback (most recent call last):
    ...
    ValueError: scope 'sizes' lists the sizes verified (sizes="L <= 3, H <= 2")
    >>> check_scope("everything", None)
    Traceback (most recent call last):
    ...
    ValueError: scope 'everything' is not one of all-sizes, sizes, instance
    >>> check_scope("all-sizes", None)
    Traceback (most recent call last):
    ...
    ValueError: a step verified for all sizes names its evidence kind: symbolic, \
exhaustive or prose
    >>> check_scope("all-sizes", None, kind="computation")
    Traceback (most recent call last):
    ...
    ValueError: evidence kind 'computation' goes with scope sizes or instance, not 'all-sizes'
    """
    if scope is not None and scope not in SCOPES:
        raise ValueError(f"scope {scope!r} is not one of {', '.join(SCOPES)}")
    if kind is not None and kind not in EVIDENCE_KINDS:
        raise ValueError(f"evidence kind {kind!r} is not one of {', '.join(EVIDENCE_KINDS)}")
    if sizes is not None and (not isinstance(sizes, str) or not sizes.strip()):
        raise ValueError("sizes is a non-empty string such as \"L <= 3, H <= 2\"")
    if scope == AT_SIZES and sizes is None:
        raise ValueError('scope \'sizes\' lists the sizes verified (sizes="L <= 3, H <= 2")')
    if kind is not None and scope is not None and scope not in KIND_SCOPE[kind]:
        raise ValueError(f"evidence kind {kind!r} goes with scope "
                         f"{' or '.join(KIND_SCOPE[kind])}, not {scope!r}")
    if scope == ALL_SIZES and kind is None:
        raise ValueError("a step verified for all sizes names its evidence kind: symbolic, "
                         "exhaustive or prose")
    if sizes is not None and (scope is None or (scope == ALL_SIZES
                                                and kind not in (PROSE, EXHAUSTIVE))):
        raise ValueError(f"sizes go with scope 'sizes' or 'instance' (or a prose or "
                         f"exhaustive step), not {scope!r}")


def scope_of_kind(kind: str | None, scope: str | None, sizes: str | None) -> str | None:
    """The scope a step of evidence ``kind`` has when it states none (None: not stated).

    Examples
    --------
    >>> scope_of_kind("symbolic", None, None), scope_of_kind("computation", None, "L <= 3")
    ('all-sizes', 'sizes')
    >>> scope_of_kind("computation", None, None), scope_of_kind(None, "sizes", "L <= 3")
    ('instance', 'sizes')
    """
    if scope is not None or kind not in KIND_SCOPE:
        return scope
    if kind == COMPUTATION and sizes is None:
        return INSTANCE
    return KIND_SCOPE[kind][0]


def kind_of_scope(scope: str | None, kind: str | None) -> str | None:
    """The evidence kind a step has when it states none: a computation at its sizes.

    >>> kind_of_scope("sizes", None), kind_of_scope("all-sizes", "prose"), kind_of_scope(None, None)
    ('computation', 'prose', None)
    """
    if kind is not None or scope is None:
        return kind
    return COMPUTATION if scope in (AT_SIZES, INSTANCE) else None


def scope_text(scope: str | None, sizes: str | None = None, kind: str | None = None
               ) -> str | None:
    """A step's evidence in words, for reports and the console (None: not stated).

    Examples
    --------
    >>> scope_text("all-sizes", kind="symbolic")
    'symbolic identity, all sizes (could have failed)'
    >>> scope_text("all-sizes", "s <= 12", kind="prose")
    'prose argument, all sizes; its computations cross-check at s <= 12'
    >>> scope_text("sizes", "L <= 3, H <= 2")
    'computation, verified only at L <= 3, H <= 2'
    >>> scope_text("instance", "d_x = 8, L = 9", kind="certificate"), scope_text(None)
    ('certificate, one instance: d_x = 8, L = 9', None)
    """
    kind = kind_of_scope(scope, kind)
    if kind == SYMBOLIC:
        return "symbolic identity, all sizes (could have failed)"
    if kind == EXHAUSTIVE:
        return "exhaustive finite check" + (f" ({sizes})" if sizes else "")
    if kind == PROSE:
        return "prose argument, all sizes" + (
            f"; its computations cross-check at {sizes}" if sizes else "")
    if scope == AT_SIZES:
        return f"{kind}, verified only at {sizes}"
    if scope == INSTANCE:
        return f"{kind}, one instance" + (f": {sizes}" if sizes else "")
    return None


def _get(step: Any, name: str) -> Any:
    return step.get(name) if isinstance(step, dict) else getattr(step, name, None)


def steps_at_sizes(steps: Sequence[Any], argument: Iterable[int] | None = None
                   ) -> list[dict[str, Any]]:
    """The passed steps of an argument whose scope is not ``all-sizes``, with their sizes.

    ``steps``: a check's steps (:class:`~seprank.proof.framework.Step` objects or their
    JSON dictionaries); ``argument``: the 0-based indices of the steps the argument
    consists of (default: every step). Each entry: ``step`` (1-based, as reports number
    steps), ``claim`` (its first 100 characters), ``scope`` (None: not stated) and
    ``sizes`` (:data:`NOT_STATED` when no scope is stated).

    Examples
    --------
    >>> steps = [{"claim": "a", "status": "passed", "scope": "all-sizes"},
    ...          {"claim": "b", "status": "failed"},
    ...          {"claim": "c", "status": "passed"}]
    >>> steps_at_sizes(steps)
    [{'step': 3, 'claim': 'c', 'scope': None, 'sizes': 'scope not stated'}]
    >>> steps_at_sizes(steps, argument=[0])
    []
    """
    wanted = set(range(len(steps))) if argument is None else set(argument)
    out = []
    for i, step in enumerate(steps):
        scope = _get(step, "scope")
        if i not in wanted or _get(step, "status") != PASSED or scope == ALL_SIZES:
            continue
        entry = {"step": i + 1, "claim": str(_get(step, "claim"))[:100], "scope": scope,
                 "sizes": _get(step, "sizes") or (NOT_STATED if scope is None else scope)}
        kind = kind_of_scope(scope, _get(step, "kind"))
        if kind is not None:
            entry["kind"] = kind
        out.append(entry)
    return out


def argument_kinds(steps: Sequence[Any], argument: Iterable[int] | None = None
                   ) -> dict[str, int]:
    """How many passed all-sizes steps of an argument are of each evidence kind.

    The all-sizes strength of a row rests on exactly these steps (issue 30): its
    symbolic identities, exhaustive checks and prose arguments, as they are.

    Examples
    --------
    >>> argument_kinds([{"status": "passed", "scope": "all-sizes", "kind": "prose"},
    ...                 {"status": "passed", "scope": "all-sizes", "kind": "symbolic"},
    ...                 {"status": "passed", "scope": "all-sizes", "kind": "prose"},
    ...                 {"status": "failed", "scope": "all-sizes", "kind": "symbolic"}])
    {'symbolic': 1, 'prose': 2}
    """
    wanted = set(range(len(steps))) if argument is None else set(argument)
    counts = {k: 0 for k in EVIDENCE_KINDS}
    for i, step in enumerate(steps):
        if i in wanted and _get(step, "status") == PASSED and _get(step, "scope") == ALL_SIZES:
            kind = _get(step, "kind")
            if kind in counts:
                counts[kind] += 1
    return {k: n for k, n in counts.items() if n}


def _numbers(entries: list[dict[str, Any]]) -> str:
    nums = [str(e["step"]) for e in entries]
    return ("step " if len(nums) == 1 else "steps ") + ", ".join(nums)


def kinds_text(kinds: dict[str, int] | None) -> str:
    """The evidence kinds of an argument's all-sizes steps in words ("" when unknown).

    >>> kinds_text({"symbolic": 2, "prose": 1}), kinds_text(None)
    ('symbolic 2, prose 1', '')
    """
    return ", ".join(f"{k} {n}" for k, n in (kinds or {}).items())


def argument_text(at_sizes: list[dict[str, Any]] | None, short: bool = False,
                  kinds: dict[str, int] | None = None) -> str:
    """How an argument's strength reads, from its :func:`steps_at_sizes`.

    ``short``: the few words a summary table has room for; ``kinds``: the evidence kinds
    of its all-sizes steps (:func:`argument_kinds`), named in the long form.

    Examples
    --------
    >>> argument_text([])
    'argument, every step for all sizes'
    >>> argument_text([], kinds={"symbolic": 3, "prose": 2})
    'argument, every step for all sizes (symbolic 3, prose 2)'
    >>> at = [{"step": 3, "scope": "sizes"}, {"step": 5, "scope": "instance"},
    ...       {"step": 1, "scope": None}]
    >>> argument_text(at)
    'argument; steps 3, 5 verified only at listed sizes; step 1 with no stated scope'
    >>> argument_text(at, short=True), argument_text([], short=True)
    ('argument, at sizes', 'argument, all sizes')
    >>> argument_text(None)                       # a report written before scopes
    'argument'
    """
    if at_sizes is None:
        return "argument"
    if short:
        return "argument, at sizes" if at_sizes else "argument, all sizes"
    named = f" ({kinds_text(kinds)})" if kinds else ""
    if not at_sizes:
        return "argument, every step for all sizes" + named
    stated = [e for e in at_sizes if e.get("scope") is not None]
    unstated = [e for e in at_sizes if e.get("scope") is None]
    parts = ["argument"]
    if stated:
        parts.append(f"{_numbers(stated)} verified only at listed sizes")
    if unstated:
        parts.append(f"{_numbers(unstated)} with no stated scope")
    if kinds:
        parts.append(f"all-sizes steps: {kinds_text(kinds)}")
    return "; ".join(parts)


def _value_text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} = {v}" for k, v in value.items())
    return str(value)


def least_phrase(name: str, value: Any, proven: bool) -> str:
    """The words for a smallest failing size: "least" when proven, else "least found".

    Examples
    --------
    >>> least_phrase("L", 9, proven=True)
    'least L = 9'
    >>> least_phrase("(d_x, L)", {"d_x": 8, "L": 7}, proven=False)
    'least found (d_x, L): d_x = 8, L = 7'
    """
    qualifier = "least" if proven else "least found"
    if isinstance(value, dict):
        return f"{qualifier} {name}: {_value_text(value)}"
    return f"{qualifier} {name} = {_value_text(value)}"


def least_record(name: str, value: Any, proven_by: str | None = None) -> dict[str, Any]:
    """What a step records for a smallest failing size (see the module docstring).

    ``proven_by``: the exhaustive search over every smaller size and every structure
    the statement quantifies over (its evidence is in the step); without it the size is
    the least *found*.

    Examples
    --------
    >>> least_record("L", 7)["phrase"]
    'least found L = 7'
    >>> least_record("L", 7, proven_by="every L < 7 and every weight pattern")["least"]
    True
    """
    if not isinstance(name, str) or not name:
        raise ValueError("least(name, value): name is the size, e.g. 'L' or '(d_x, L)'")
    if proven_by is not None and (not isinstance(proven_by, str) or not proven_by.strip()):
        raise ValueError("proven_by describes the exhaustive search (a non-empty string)")
    return {"name": name, "value": value, "least": proven_by is not None,
            "proven_by": proven_by, "phrase": least_phrase(name, value, proven_by is not None)}


#: "least", "smallest", "minimal", "minimum" as a size claim; "at least" is a bound
_SIZE_WORD = re.compile(r"(?<!\bat )(?<!\bAt )\b(least|smallest|minimal|minimum)\b", re.I)
#: uses that claim no size: "at least", a minimal correction, least squares, ...
_NOT_A_SIZE = re.compile(r"^\s*(correction|corrections|polynomial|squares|common|element|"
                         r"value|norm|eigenvalue|distance|slack|ratio|gap)\b", re.I)
_FOUND = re.compile(r"^(\s+[\w\-(),^]+){0,3}?\s+found\b", re.I)
#: a size claim names what is least: a word follows ("least L", "smallest case")
_NAMES_A_SIZE = re.compile(r"^\s+[A-Za-z_]")


def size_claims(text: str) -> list[str]:
    """The size claims in ``text`` not phrased as "least found" (each with its context).

    A size claim is "least", "smallest", "minimal" or "minimum" followed by what is
    least ("least L", "smallest case"; not "at least", not a minimal correction, a
    least-squares fit, "where the slack is smallest", ...); it is qualified when
    "found" follows within three words ("least L found", "least found").

    Examples
    --------
    >>> size_claims("fails from L = 7 (least L); at least 3 steps")
    ['fails from L = 7 (least L); at least 3 step']
    >>> size_claims("least depth found: L = 7; a minimal correction; least found L = 9")
    []
    >>> size_claims("where the gap is smallest; it attains the minimum ||x||")
    []
    """
    out = []
    for m in _SIZE_WORD.finditer(text):
        after = text[m.end():]
        if not _NAMES_A_SIZE.match(after) or _NOT_A_SIZE.match(after) or _FOUND.match(after):
            continue
        out.append(text[max(0, m.start() - 20): m.end() + 20].strip())
    return out


def unqualified_least(check: dict[str, Any]) -> list[str]:
    """The unqualified size claims of one check of a JSON report (empty: none).

    Read: the conclusion's ``reason`` and each step's claim and note (``message``). A
    step that records a proven least (:meth:`~seprank.proof.framework.StepHandle.least`
    with ``proven_by``) may say "least" in its claim and note, and the reason may use
    the phrase that record returned; everything else must read "least found".

    Examples
    --------
    >>> check = {"reason": "fails from least found L = 7", "steps": [
    ...     {"claim": "the least L with sep > bound, every L searched", "message": None,
    ...      "least": [{"least": True, "phrase": "least L = 7"}]},
    ...     {"claim": "smallest d_x with a failure: 8", "message": None}]}
    >>> unqualified_least(check)
    ['step 2 claim: smallest d_x with a failure:']
    """
    steps = check.get("steps") or []
    proven = [r["phrase"] for st in steps for r in st.get("least") or [] if r.get("least")]
    reason = check.get("reason") or ""
    for phrase in proven:
        reason = reason.replace(phrase, "")
    out = [f"reason: {hit}" for hit in size_claims(reason)]
    for i, st in enumerate(steps, 1):
        if any(r.get("least") for r in st.get("least") or []):
            continue
        for where in ("claim", "message"):
            out += [f"step {i} {where}: {hit}" for hit in size_claims(st.get(where) or "")]
    return out
