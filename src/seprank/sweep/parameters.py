"""The parameters each sweep computation takes, declared once as types (pydantic, strict).

One table, :func:`parameter_types`, says for every computation of
:mod:`seprank.sweep.computations` what each parameter is: an integer with its lower
bound, a choice among names, a bool, a number of seconds, a partition. Two things are
built from it:

* :func:`check_parameters`: the check of one task's full parameter set (the
  computation's defaults come from :data:`seprank.sweep.computations.COMPUTATIONS`;
  the rules that tie parameters together, such as d and lam together, or a prime
  being prime, stay in each computation's ``validate``);
* :mod:`seprank.sweep.spec_schema`: the schema of a sweep spec file, where every
  parameter may also be written as a list of values (an axis of the grid) or, for an
  integer, a range ``{from, to, step}``.

A bool is never an integer and a string never a bool (strict mode): ``residual = 1``
and ``lam = "3"`` are refused, in one line naming the parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    create_model,
)

__all__ = ["Parameter", "parameter_types", "parameter_model", "check_parameters"]


@dataclass(frozen=True)
class Parameter:
    """The declared type of one parameter.

    ``annotation`` is the pydantic type of one value; ``integer`` says that a range
    ``{from, to, step}`` may stand for a list of its values; ``list_valued`` that one
    value is itself a list (then a spec writes every value in a list: an axis).

    >>> parameter_types("grid_rank")["partition"].list_valued
    True
    """

    annotation: Any
    integer: bool = False
    list_valued: bool = False


def _int(low: int | None = None, *, optional: bool = False) -> Parameter:
    ann: Any = int if low is None else Annotated[int, Field(ge=low)]
    return Parameter(ann | None if optional else ann, integer=True)


def _choice(*names: str) -> Parameter:
    return Parameter(Literal[names])


def _partition_value(value: Any) -> Any:
    from seprank.schemas.validation import custom_error

    def side(x: Any) -> bool:
        return isinstance(x, list) and all(type(v) is int for v in x)

    if value is None or side(value) or (isinstance(value, list) and len(value) == 2
                                        and all(side(x) for x in value)):
        return value
    raise custom_error("partition", "expected a list of 0-based positions (I), or a pair "
                       "[I, J] of such lists")


_SIDE = {"type": "array", "items": {"type": "integer"}}
_PARTITION = Parameter(Annotated[Any, PlainValidator(_partition_value), WithJsonSchema({
    "anyOf": [{"type": "null"}, _SIDE,
              {"type": "array", "items": _SIDE, "minItems": 2, "maxItems": 2}],
    "description": "I (0-based positions), or [I, J]; null: the first half"})],
    list_valued=True)
_BOOL = Parameter(bool)
_DELAY = Parameter(Annotated[float, Field(ge=0, le=3600,
                                          description="seconds to sleep first (demonstrations)")])
_SEED = _int(0)


@cache
def parameter_types(computation: str) -> dict[str, Parameter]:
    """The declared type of every parameter of ``computation``.

    Examples
    --------
    >>> sorted(parameter_types("lemma6"))
    ['corrected', 'da', 'delay_s', 'depth', 'half', 'heads', 'seed', 'seq_len']
    >>> parameter_types("lemma6")["depth"].integer
    True
    """
    shape = {"depth": _int(1), "width": _int(1), "heads": _int(1), "seq_len": _int(1)}
    if computation == "hadamard_rank":
        return {"d": _int(1), "lam": _int(1), "family": _choice("omega", "random"),
                "omega": _int(), "entry_bound": _int(1), "rows": _int(1, optional=True),
                "seed": _SEED, "method": _choice("auto", "exact", "modular", "multimodular",
                                                 "float"),
                "exact_max_n": _int(0), "prime": _int(2, optional=True), "delay_s": _DELAY}
    if computation == "float_vs_exact":
        rtol = Annotated[float, Field(gt=0, lt=1)] | None
        return {"d": _int(1), "lam": _int(1), "family": _choice("omega", "random"),
                "seed": _SEED, "rtol": Parameter(rtol), "max_n": _int(1), "delay_s": _DELAY}
    if computation == "grid_rank":
        return shape | {"da": _int(1, optional=True), "residual": _BOOL,
                        "templates": _int(1), "template_bound": _int(1), "position": _int(0),
                        "coordinate": _int(0), "partition": _PARTITION, "seed": _SEED,
                        "method": _choice("auto", "exact", "modular"), "certify": _BOOL,
                        "delay_s": _DELAY}
    if computation == "lemma6":
        return {"depth": _int(1), "heads": _int(1), "da": _int(1), "seq_len": _int(1),
                "half": _int(1), "seed": _SEED, "corrected": _BOOL, "delay_s": _DELAY}
    if computation == "check":
        return {"id": Parameter(Annotated[str, Field(description="a check id, or '*': all")]),
                "full": _BOOL, "delay_s": _DELAY}
    if computation == "separation_rank":
        from seprank.separation.routes import AUTO, route_names
        from seprank.separation.structured import FAMILIES

        return shape | {"residual": _BOOL, "family": _choice(*FAMILIES), "seed": _SEED,
                        "route": _choice(AUTO, *route_names()), "delay_s": _DELAY}
    raise KeyError(computation)


@cache
def parameter_model(computation: str, defaults: tuple[tuple[str, Any], ...],
                    required: tuple[str, ...] = ()) -> type[BaseModel]:
    """The strict model of one task's parameters, with the computation's ``defaults``
    (pairs name, default) and its ``required`` names (no default).

    Examples
    --------
    >>> model = parameter_model("check", (("id", None), ("full", False), ("delay_s", 0)),
    ...                         ("id",))
    >>> schema = model.model_json_schema()
    >>> schema["properties"]["full"]["type"], schema["required"]
    ('boolean', ['id'])
    """
    types = parameter_types(computation)
    names = [name for name, _ in defaults]
    if set(types) != set(names):  # a computation and its declaration must agree
        raise RuntimeError(f"{computation}: declared {sorted(types)}, takes {sorted(names)}")
    fields = {name: (types[name].annotation, ... if name in required else default)
              for name, default in defaults}
    return create_model(f"{computation}_parameters", __config__=ConfigDict(
        strict=True, extra="forbid", title=f"{computation} parameters"), **fields)


def _parameter_path(steps: list[tuple[Any, Any]]) -> str:
    if not steps:
        return ""
    first, rest = steps[0][0], "".join(f"[{k}]" if isinstance(k, int) else f".{k}"
                                       for k, _ in steps[1:])
    return f"parameter {first!r}{rest}"


def check_parameters(computation: str, defaults: dict[str, Any], params: dict[str, Any],
                     required: tuple[str, ...] = ()) -> None:
    """Check one task's full parameter set against the declared types (``defaults`` and
    the ``required`` names are the computation's).

    Raises
    ------
    ParameterError
        one line naming the parameter and the expected type.

    Examples
    --------
    >>> from seprank.sweep.computations import get_computation
    >>> lemma6 = get_computation("lemma6")
    >>> check_parameters("lemma6", lemma6.defaults, dict(lemma6.defaults, depth="3"),
    ...                  lemma6.required)
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: parameter 'depth': expected an integer, got the string "3"
    """
    from seprank.errors import ParameterError
    from seprank.schemas.validation import first_error

    try:
        parameter_model(computation, tuple(defaults.items()), tuple(required)
                        ).model_validate(params)
    except ValidationError as exc:
        raise ParameterError(first_error(exc, params, language="TOML/YAML",
                                         path=_parameter_path)) from None
