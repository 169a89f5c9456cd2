"""Schema ``sweep-spec``: a sweep specification (TOML or YAML), computation by computation.

::

    computation = "hadamard_rank"     # which computation (one branch of the schema each)
    store = "omega.sqlite"            # optional string
    title = "Omega family"            # optional string

    [parameters]                      # the computation's parameters, each written as
    family = "omega"                  #   one value (the same in every task),
    d = {from = 2, to = 8}            #   an inclusive integer range {from, to, step}, or
    lam = [1, 2, 3]                   #   a list of values (one axis of the grid)

Each parameter's type is the one :mod:`seprank.sweep.parameters` declares for the
computation (a range only for integers; a parameter whose value is itself a list,
``partition``, is written as a list of values). Required parameters are required here;
unknown ones and unknown top-level keys are refused. The rules that tie parameters
together (d with lam, a prime being prime, a check id being registered) are checked
task by task when the grid is expanded (:mod:`seprank.sweep.spec`).
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    create_model,
    model_validator,
)

from seprank.schemas.validation import custom_error, describe, first_error

__all__ = ["Range", "spec_model", "spec_adapter", "check_spec"]

_RANGE_FORM = "a range is written {from = A, to = B} with an optional step"


class Range(BaseModel):
    """An inclusive integer range: from, from + step, ..., up to ``to``.

    >>> r = Range.model_validate({"from": 2, "to": 8, "step": 3})
    >>> list(range(r.start, r.stop + 1, r.step))
    [2, 5, 8]
    """

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=False,
                              title="range")

    start: int = Field(alias="from")
    stop: int = Field(alias="to")
    step: Annotated[int, Field(ge=1)] = 1

    @model_validator(mode="before")
    @classmethod
    def _form(cls, data: Any) -> Any:
        if isinstance(data, dict) and not (set(data) <= {"from", "to", "step"}
                                           and {"from", "to"} <= set(data)):
            raise custom_error("range_form", _RANGE_FORM)
        return data

    @model_validator(mode="after")
    def _order(self) -> Range:
        if self.stop < self.start:
            raise custom_error("range_order", f"need from <= to and step >= 1, got "
                               f"from={self.start}, to={self.stop}, step={self.step}")
        return self


def _no_default(schema: dict[str, Any]) -> None:
    """A member that may be left out but is never null: no ``default: null`` in the schema."""
    schema.pop("default", None)


#: a member that may be left out (and is never null)
_ABSENT = Field(None, json_schema_extra=_no_default)


def _form_of(value: Any) -> str:
    return "list" if isinstance(value, list) else "range" if isinstance(value, dict) else "value"


def _axis_type(param: Any) -> Any:
    """One parameter as a spec writes it: a value, a list of values, or (integers) a range."""
    values = Annotated[list[param.annotation], Field(min_length=1)]
    if param.list_valued:
        return values | None
    members = [Annotated[param.annotation, Tag("value")], Annotated[values, Tag("list")]]
    if param.integer:
        members.append(Annotated[Range, Tag("range")])
    return Annotated[_union(members), Discriminator(_form_of)]


def _union(members: list[Any]) -> Any:
    out = members[0]
    for m in members[1:]:
        out = out | m
    return out


@cache
def spec_model(computation: str) -> type[BaseModel]:
    """The schema of a spec of ``computation`` (its parameters with their axis forms).

    Examples
    --------
    >>> schema = spec_model("lemma6").model_json_schema()
    >>> schema["required"], schema["properties"]["computation"]["const"]
    (['computation', 'parameters'], 'lemma6')
    """
    from seprank.sweep.computations import get_computation
    from seprank.sweep.parameters import parameter_types

    comp = get_computation(computation)
    types = parameter_types(computation)
    fields = {name: (_axis_type(types[name]), ... if name in comp.required else None)
              for name, default in comp.defaults.items()}
    params = create_model(f"{computation}_axes", __config__=ConfigDict(
        strict=True, extra="forbid", title=f"{computation} parameters"), **fields)
    needs_params = bool(comp.required)
    return create_model(
        f"{computation}_spec",
        __config__=ConfigDict(strict=True, extra="forbid", title=f"{computation} sweep"),
        computation=(Literal[computation], ...),
        parameters=(params, ... if needs_params else _ABSENT),
        store=(str, Field(None, json_schema_extra=_no_default, description="the result "
                          "store, relative to the spec file (default: SPEC.sqlite)")),
        title=(str, Field("", description="a title for the reports")))


@cache
def spec_adapter() -> TypeAdapter:
    """The schema ``sweep-spec``: one branch per computation, chosen by ``computation``.

    >>> branches = spec_adapter().json_schema()["oneOf"]
    >>> len(branches) >= 5
    True
    """
    from seprank.sweep.computations import COMPUTATIONS

    branches = tuple(Annotated[spec_model(name), Tag(name)] for name in COMPUTATIONS)
    union = _union(list(branches))
    return TypeAdapter(Annotated[union, Discriminator(
        lambda d: d.get("computation") if isinstance(d, dict) else None)])


def _legacy(errors: list[dict[str, Any]], comp: Any) -> str | None:
    """The spec's own words for unknown and missing names (as before the schema)."""
    missing = [e["loc"][1] for e in errors if e["type"] == "missing" and len(e["loc"]) == 2
               and e["loc"][0] == "parameters"]
    if any(e["type"] == "missing" and e["loc"] == ("parameters",) for e in errors):
        missing = list(comp.required)
    if missing:
        return f"{comp.name} needs the parameters {missing}"
    for e in errors:
        if e["type"] != "extra_forbidden":
            continue
        if len(e["loc"]) == 1:
            return (f"unknown top-level keys in the spec: [{e['loc'][0]!r}]; allowed: "
                    "computation, parameters, store, title")
        if len(e["loc"]) == 2 and e["loc"][0] == "parameters":
            return (f"{comp.name} takes no parameter {e['loc'][1]!r}; it takes: "
                    f"{', '.join(sorted(comp.defaults))}")
    return None


def check_spec(data: Any, source: str | None = None) -> None:
    """Validate a parsed spec (a dict) against the schema of its computation.

    ``source`` (the file's name) is put before the error.

    Raises
    ------
    ParameterError
        one line naming the key and the expected type; an unknown computation.

    Examples
    --------
    >>> check_spec({"computation": "hadamard_rank", "parameters": {"d": 2, "lam": [1, "2"]}})
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: parameters.lam[1]: expected an integer, got the string "2"
    >>> check_spec({"computation": "grid_rank", "parameters": {"depth": 1, "width": 2,
    ...                                                     "residual": "false"}})
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: parameters.residual: expected a bool (true or false), ...
    """
    from seprank.errors import ParameterError
    from seprank.sweep.computations import get_computation

    if "computation" not in data:
        raise ParameterError("the spec names no computation (key 'computation')")
    if not isinstance(data["computation"], str):
        from seprank.sweep.computations import COMPUTATIONS

        raise ParameterError(f"computation: expected one of {', '.join(COMPUTATIONS)}, got "
                             f"{describe(data['computation'])}")
    comp = get_computation(data["computation"])
    try:
        spec_model(comp.name).model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        line = _legacy(errors, comp) or first_error(
            exc, data, language="TOML/YAML")
        raise ParameterError(f"{source}: {line}" if source else line) from None
