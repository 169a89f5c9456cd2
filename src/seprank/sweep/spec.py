"""Sweep specifications: a computation and the grid of its parameters.

A specification is a TOML or YAML file (or the same structure as a dict)::

    computation = "hadamard_rank"      # one of seprank.sweep.computations.COMPUTATIONS
    store = "hadamard.sqlite"          # optional; relative to the spec file
    title = "Omega family, d <= 5"     # optional

    [parameters]
    family = "omega"                   # a scalar: the same for every task
    d = [3, 4, 5]                      # a list: one axis of the grid
    lam = {from = 2, to = 4}           # an inclusive integer range (optional "step")

For the ``check`` computation, ``id = "*"`` is every registered proof check.

The file's form is the schema ``sweep-spec`` (:mod:`seprank.sweep.spec_schema`,
``seprank schema sweep-spec``): each computation's parameters with the types that
:mod:`seprank.sweep.parameters` declares, checked before anything else.

The tasks are the Cartesian product of the axes, in the order the axes are
written (the last axis varies fastest). Every task is the computation's
defaults updated with one point of the grid; names the computation does not
take are refused before anything runs, as are required names left out.
"""

from __future__ import annotations

import itertools
import json
import os
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from seprank.errors import InputError, ParameterError

__all__ = ["Task", "SweepSpec", "load_spec", "spec_from_dict", "canonical_json", "grid_size"]

#: Largest number of tasks one spec may expand to (a typo guard, not a hard limit of Dask).
MAX_TASKS = 100_000


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: equal parameters give equal text.

    Examples
    --------
    >>> canonical_json({"b": 1, "a": [2, 3]})
    '{"a":[2,3],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class Task:
    """One point of a sweep: the computation's name and its full parameter set.

    Examples
    --------
    >>> t = Task("hadamard_rank", {"d": 3, "lam": 2})
    >>> t.params_json
    '{"d":3,"lam":2}'
    """

    computation: str
    params: dict[str, Any]

    @property
    def params_json(self) -> str:
        return canonical_json(self.params)


@dataclass
class SweepSpec:
    """A parsed specification: computation, fixed values, grid axes and store path.

    Examples
    --------
    >>> spec = spec_from_dict({"computation": "hadamard_rank",
    ...                        "parameters": {"d": [2, 3], "lam": {"from": 1, "to": 3}}})
    >>> len(spec.tasks())          # 2 values of d times 3 values of lam
    6
    >>> spec.tasks()[0].params["d"], spec.tasks()[0].params["lam"]
    (2, 1)
    """

    computation: str
    fixed: dict[str, Any]
    axes: dict[str, list[Any]]
    store: Path
    title: str = ""
    source: Path | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    def size(self) -> int:
        """Number of tasks the grid expands to (counted: :func:`grid_size`)."""
        return grid_size(self.axes)

    def tasks(self) -> list[Task]:
        """Every task of the grid, the last axis varying fastest (minus skipped points)."""
        return self._expanded[0]

    def skipped(self) -> list[tuple[dict[str, Any], str]]:
        """Grid points the computation leaves out, with the reason (e.g. too large)."""
        return self._expanded[1]

    @cached_property
    def _expanded(self) -> tuple[list[Task], list[tuple[dict[str, Any], str]]]:
        """The grid expanded and every point validated, once per spec."""
        from seprank.sweep.computations import get_computation

        comp = get_computation(self.computation)
        names = list(self.axes)
        out, skipped = [], []
        for point in itertools.product(*(self.axes[n] for n in names)):
            params = dict(comp.defaults)
            params.update(self.fixed)
            params.update(zip(names, point, strict=True))
            params = comp.normalize(params)
            reason = comp.skip(params) if comp.skip is not None else None
            if reason:
                skipped.append((params, reason))
            else:
                out.append(Task(self.computation, params))
        return out, skipped


def _axis(name: str, value: Any) -> list[Any] | None:
    """The values of an axis, or None when ``value`` is a fixed scalar."""
    if isinstance(value, list):
        if not value:
            raise ParameterError(f"parameter {name!r}: an empty list gives no tasks")
        return value
    if isinstance(value, dict):
        unknown = set(value) - {"from", "to", "step"}
        if unknown or not {"from", "to"} <= set(value):
            raise ParameterError(f"parameter {name!r}: a range is written "
                                 "{from = A, to = B} with an optional step")
        start, stop, step = value["from"], value["to"], value.get("step", 1)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (start, stop, step)):
            raise ParameterError(f"parameter {name!r}: range bounds and step must be integers")
        if step < 1 or stop < start:
            raise ParameterError(f"parameter {name!r}: need from <= to and step >= 1, got "
                                 f"from={start}, to={stop}, step={step}")
        return range(start, stop + 1, step)  # counted by len(), listed once the grid fits
    return None


def grid_size(axes: dict[str, Any]) -> int:
    """Tasks the grid expands to: the product of the axes' lengths, counted, not expanded
    (a range axis is a ``range``, whose length is arithmetic).

    >>> grid_size({"d": range(2, 10**11 + 1), "lam": [1, 2]})
    199999999998
    """
    n = 1
    for values in axes.values():
        if isinstance(values, range):  # len() stops at sys.maxsize: count it arithmetically
            n *= max(0, (values.stop - values.start + values.step - 1) // values.step)
        else:
            n *= len(values)
    return n


def _axis_lengths(axes: dict[str, Any]) -> str:
    return " x ".join(f"{grid_size({name: v})} {name}" for name, v in axes.items())


def spec_from_dict(data: dict[str, Any], *, source: Path | None = None) -> SweepSpec:
    """Validate a parsed specification and return a :class:`SweepSpec`.

    Examples
    --------
    >>> spec_from_dict({"computation": "no_such_thing", "parameters": {}})
    Traceback (most recent call last):
        ...
    seprank.errors.ParameterError: unknown computation 'no_such_thing'; known: ...
    """
    from seprank.sweep.computations import get_computation
    from seprank.sweep.spec_schema import check_spec

    if not isinstance(data, dict):
        raise InputError("a sweep spec must be a table (mapping) at the top level")
    # the schema sweep-spec: keys, and each parameter's declared type
    check_spec(data, source.name if source is not None else None)
    comp = get_computation(data["computation"])
    params = data.get("parameters", {})
    fixed, axes = {}, {}
    for name, value in params.items():
        values = comp.expand(name, value) if comp.expand is not None else None
        if values is None:
            values = _axis(name, value)
        if values is None:
            fixed[name] = value
        else:
            axes[name] = values
    base = source.parent if source is not None else Path.cwd()
    stem = source.stem if source is not None else comp.name
    store = Path(data.get("store", f"{stem}.sqlite"))
    if not store.is_absolute():
        store = base / store
    count = grid_size(axes)  # before any axis is expanded
    if count > MAX_TASKS:
        raise ParameterError(f"the grid has {count} tasks, more than {MAX_TASKS} (counted "
                             f"from its axes: {_axis_lengths(axes)}); split the sweep")
    axes = {name: list(values) for name, values in axes.items()}
    spec = SweepSpec(computation=comp.name, fixed=fixed, axes=axes, store=store,
                     title=str(data.get("title", "")), source=source, raw=data)
    spec.tasks()  # validates every point now, before any cluster starts
    return spec


def _yaml_words(exc: Exception) -> str:
    """One line for a YAML error: PyYAML's problem and where, or the first line."""
    problem, mark = getattr(exc, "problem", None), getattr(exc, "problem_mark", None)
    if problem and mark is not None:
        return f"{problem} (line {mark.line + 1}, column {mark.column + 1})"
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def load_spec(path: str | os.PathLike) -> SweepSpec:
    """Read a TOML (``.toml``) or YAML (``.yaml``/``.yml``) sweep specification.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = pathlib.Path(tmp) / "s.toml"
    ...     _ = f.write_text('computation = "hadamard_rank"\\n'
    ...                      '[parameters]\\nd = 3\\nlam = [1, 2]\\n')
    ...     spec = load_spec(f)
    ...     print(spec.size(), spec.store.name)
    2 s.sqlite
    """
    from seprank.files.bounded_read import read_bounded

    path = Path(path)
    if path.is_dir():
        raise InputError(f"sweep spec {str(path)!r} is a folder, not a file")
    if not path.exists():
        raise InputError(f"sweep spec {str(path)!r} does not exist or is not a file")
    try:
        text = read_bounded(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"sweep spec {path.name!r} is not UTF-8 text (byte {exc.start})"
                         ) from None
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            data = tomllib.loads(text)  # refuses a repeated key itself
        elif suffix in (".yaml", ".yml"):
            import seprank.sweep.strict_yaml as strict_yaml

            data = strict_yaml.load(text)  # no 017 or 1:30 (YAML 1.1), no repeated key
        else:
            raise InputError(f"sweep spec {path.name!r}: use a .toml, .yaml or .yml file")
    except RecursionError:
        raise InputError(f"sweep spec {path.name!r}: nested too deeply") from None
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"sweep spec {path.name!r} is not valid {suffix[1:].upper()}: "
                         f"{str(exc).splitlines()[0]}") from None
    except Exception as exc:  # yaml.YAMLError and relatives
        raise InputError(f"sweep spec {path.name!r} is not valid YAML: {_yaml_words(exc)}"
                         ) from None
    return spec_from_dict(data, source=path.resolve())
