"""Schema ``certificate``: a rank certificate in JSON, as ``seprank rank --certify --json``
writes it (the ``certificate`` member; :meth:`seprank.linalg.certificates.RankCertificate.to_dict`).

::

    {"lower": {"type": "lower_bound", "bound": 2, "prime": 2147483647,
               "rows": [0, 2], "cols": [0, 1]},
     "upper": {"type": "upper_bound", "bound": 2, "side": "right", "kernel_dimension": 1,
               "vectors": [[1, 1, -1]], "pivots": [2]},
     "proves_exact": true}

``lower``: det A[rows, cols] != 0 mod ``prime``, so rank >= ``bound`` = len(rows).
``upper``: ``kernel_dimension`` integer kernel vectors (right: A x = 0; left:
y^T A = 0; trivial: none, rank <= min(m, n)); the vectors and their pivots are written
when there are at most 8 of at most 64 entries each; ``modulus`` p for a matrix over
GF(p). ``proves_exact``: both present with equal bounds. Integers are JSON integers
of any size (never strings, never bools). The consistency rules (bound = len(rows) =
len(cols); one pivot per vector; the kernel dimension) are model validators.
:func:`seprank.linalg.certificates.certificate_from_json` reads it back into a
:class:`~seprank.linalg.certificates.RankCertificate` for :func:`seprank.verify`.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from seprank.schemas.validation import custom_error

__all__ = ["LowerBound", "UpperBound", "Certificate", "certificate_adapter"]

_STRICT = ConfigDict(strict=True, extra="forbid")
Index = Annotated[int, Field(ge=0)]
Count = Annotated[int, Field(ge=0)]


class LowerBound(BaseModel):
    """A minor nonzero modulo a prime: rank >= bound.

    >>> LowerBound.model_validate({"type": "lower_bound", "bound": 1, "prime": 7, "rows": [0],
    ...                            "cols": [1]}).prime
    7
    """

    model_config = _STRICT
    type: Literal["lower_bound"]
    bound: Count
    prime: Annotated[int, Field(ge=2)]
    rows: list[Index]
    cols: list[Index]

    @model_validator(mode="after")
    def _square(self) -> LowerBound:
        if not len(self.rows) == len(self.cols) == self.bound:
            raise custom_error("lower_bound", f"bound {self.bound} needs as many rows and "
                               f"columns, got {len(self.rows)} and {len(self.cols)}")
        return self


class UpperBound(BaseModel):
    """Kernel vectors: rank <= bound.

    >>> UpperBound.model_validate({"type": "upper_bound", "bound": 1, "side": "right",
    ...     "kernel_dimension": 1, "vectors": [[2, -1]], "pivots": [0]}).vectors
    [[2, -1]]
    """

    model_config = _STRICT
    type: Literal["upper_bound"]
    bound: Count
    side: Literal["right", "left", "trivial"]
    kernel_dimension: Count
    modulus: Annotated[int, Field(ge=2)] = None
    vectors: list[list[int]] = Field(None, description="present when small (at most 8 "
                                     "vectors of at most 64 entries)")
    pivots: list[Index] = None

    @model_validator(mode="after")
    def _kernel(self) -> UpperBound:
        if (self.vectors is None) != (self.pivots is None):
            raise custom_error("upper_bound", "vectors and pivots come together")
        if self.vectors is not None and not (len(self.vectors) == len(self.pivots)
                                             == self.kernel_dimension):
            raise custom_error("upper_bound", f"kernel_dimension {self.kernel_dimension} "
                               f"with {len(self.vectors)} vectors and {len(self.pivots)} pivots")
        if self.side == "trivial" and self.kernel_dimension:
            raise custom_error("upper_bound", "a trivial bound has no kernel vectors")
        return self


class Certificate(BaseModel):
    """A lower and an upper certificate of one rank.

    >>> Certificate.model_validate({"lower": None, "upper": None, "proves_exact": False}).lower
    >>> Certificate.model_json_schema()["properties"]["proves_exact"]["type"]
    'boolean'
    """

    model_config = ConfigDict(strict=True, extra="forbid", title="certificate")
    lower: LowerBound | None
    upper: UpperBound | None
    proves_exact: bool

    @model_validator(mode="after")
    def _exact(self) -> Certificate:
        meets = (self.lower is not None and self.upper is not None
                 and self.lower.bound == self.upper.bound)
        if self.proves_exact != meets:
            raise custom_error("certificate", f"proves_exact is {str(self.proves_exact).lower()}"
                               f" but the bounds {'meet' if meets else 'do not meet'}")
        return self


@cache
def certificate_adapter() -> TypeAdapter:
    """The schema ``certificate``.

    >>> certificate_adapter().json_schema()["required"]
    ['lower', 'upper', 'proves_exact']
    """
    return TypeAdapter(Certificate)
