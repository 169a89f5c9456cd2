"""Schemas ``weights`` and ``answer``: a network's weights, and a saved ``sep-rank`` answer.

``weights`` (``seprank sep-rank --weights FILE``; levine2020 sec. 2.2, l.81)::

    {"Q": [[[[1, 0]]]], "K": [[[[0, 1]]]], "V": [[[[1, 1]]]], "O": [[[["1/2"], [0]]]]}

Q, K and V are [layer][head][row][col] with each W^{Q,l,h}, W^{K,l,h}, W^{V,l,h}
d_a x d_x; O is [layer][head] of d_x x d_a matrices. Entries are exact scalars: JSON
integers or ``"p/q"`` strings (:mod:`seprank.scalars.exact_text`); no floats, no other
members.

``answer``: what ``seprank sep-rank --json`` writes; ``--weights`` reads its
``weights`` (the schema above), its ``residual`` (a JSON bool: ``"false"``, a string,
is refused, never taken as true) and checks its ``network`` shape against the weights.
``value`` and ``kind`` are declared for readers; the other members of an answer are
not read (they are allowed, undeclared).

The shape rules JSON Schema cannot say (every layer, head and row of one length; the
four kinds of one network) are checked by :func:`seprank.models.weights.weights_from_json`
after this schema.
"""

from __future__ import annotations

from fractions import Fraction  # noqa: F401 (the doctests' reprs)
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from seprank.schemas.scalars import ExactScalar, nested_list

__all__ = ["Weights", "Answer", "weights_adapter", "answer_adapter", "read_weights_document"]

_FOUR_D = "each of Q, K, V, O is 4-dimensional: [layer][head][row][col]"
_KINDS = ("exact", "lower_bound", "upper_bound", "probabilistic", "float_estimate")

Matrix4 = Annotated[nested_list(ExactScalar, 4),
                    Field(description="[layer][head][row][col] of exact scalars")]
Positive = Annotated[int, Field(ge=1)]


class Weights(BaseModel):
    """The four weight tensors of an eq. (3) network (levine2020 sec. 2.2, l.81).

    >>> Weights.model_validate({k: [[[["1/2"]]]] for k in "QKVO"}).O
    [[[[Fraction(1, 2)]]]]
    """

    model_config = ConfigDict(strict=True, extra="forbid", title="weights")

    Q: Matrix4 = Field(description="W^{Q,l,h}: [layer][head] of d_a x d_x")
    K: Matrix4 = Field(description="W^{K,l,h}: [layer][head] of d_a x d_x")
    V: Matrix4 = Field(description="W^{V,l,h}: [layer][head] of d_a x d_x")
    O: Matrix4 = Field(description="W^{O,l,h}: [layer][head] of d_x x d_a")


class NetworkShape(BaseModel):
    """The shape an answer says its network has.

    >>> NetworkShape.model_validate({"L": 1, "d_x": 2, "H": 1, "d_a": 2}).d_x
    2
    """

    model_config = ConfigDict(strict=True, extra="allow")

    L: Positive
    d_x: Positive
    H: Positive
    d_a: Positive


class Answer(BaseModel):
    """A saved ``seprank sep-rank --json`` answer, as ``--weights`` reads it.

    >>> Answer.model_validate({"weights": {k: [[[[1]]]] for k in "QKVO"}}).residual
    False
    """

    model_config = ConfigDict(strict=True, extra="allow", title="answer")

    weights: Weights
    residual: bool = Field(False, description="skip connections (levine2020 A.4); a JSON "
                           "bool, never a string")
    network: NetworkShape | None = None
    value: int | None = Field(None, description="the separation rank (or its bound)")
    kind: Literal[_KINDS] | None = Field(None, description="what the value is")


@cache
def weights_adapter() -> TypeAdapter:
    """The schema ``weights``.

    >>> sorted(weights_adapter().json_schema()["required"])
    ['K', 'O', 'Q', 'V']
    """
    return TypeAdapter(Weights)


@cache
def answer_adapter() -> TypeAdapter:
    """The schema ``answer``.

    >>> answer_adapter().json_schema()["properties"]["residual"]["type"]
    'boolean'
    """
    return TypeAdapter(Answer)


def read_weights_document(obj: Any, source: str | None = None
                          ) -> tuple[dict[str, list], bool | None, dict[str, int] | None]:
    """Validate a weights object or a saved answer: (weights, residual, network shape).

    An object with a ``weights`` member and no ``Q`` is an answer; anything else is read
    as weights. ``residual`` and the shape are None for bare weights.

    Raises
    ------
    InputError
        one line: ``SOURCE: PATH: expected ..., got ...``.

    Examples
    --------
    >>> w, residual, shape = read_weights_document(
    ...     {"weights": {k: [[[[1]]]] for k in "QKVO"}, "residual": True})
    >>> residual, w["O"]
    (True, [[[[1]]]])
    >>> read_weights_document({"weights": {k: [[[[1]]]] for k in "QKVO"},
    ...                        "residual": "false"}, "answer.json")
    Traceback (most recent call last):
    ...
    seprank.errors.InputError: answer.json: residual: expected a JSON bool, got the string "false"
    """
    from seprank.errors import InputError
    from seprank.schemas.validation import validate

    answer = isinstance(obj, dict) and "weights" in obj and "Q" not in obj
    try:
        doc = validate(answer_adapter() if answer else weights_adapter(), obj, source=source)
    except InputError as exc:
        text = str(exc)
        if "expected a list" in text or "deeper than the format" in text:
            raise InputError(f"{text} ({_FOUR_D})") from None
        raise
    weights = doc.weights if answer else doc
    arrays = {k: getattr(weights, k) for k in "QKVO"}
    if not answer:
        return arrays, None, None
    shape = None if doc.network is None else {  # the declared members only
        name: getattr(doc.network, name) for name in NetworkShape.model_fields}
    return arrays, doc.residual if "residual" in obj else None, shape
