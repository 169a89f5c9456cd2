"""One declared schema per file format that seprank reads or writes (issue 23).

Every format is a pydantic v2 model validated in strict mode (a string is never a bool,
a bool never a number, a float never an exact value), and every error is one line that
names the field path and the expected type (:mod:`seprank.schemas.validation`). Exact
scalars in every format follow one grammar (:mod:`seprank.scalars.exact_text`).

========================  ==========================================================
name                      format (module)
========================  ==========================================================
``matrix``                a matrix in JSON (:mod:`seprank.schemas.matrix`)
``weights``               network weights, ``sep-rank --weights`` (:mod:`~.weights`)
``answer``                a saved ``sep-rank --json`` answer (:mod:`~.weights`)
``sweep-spec``            a sweep specification, TOML or YAML (:mod:`~.sweep_spec`)
``report``                the JSON proof report, schema 3 or 2 (:mod:`~.report`)
``certificate``           a rank certificate in JSON (:mod:`~.certificate`)
========================  ==========================================================

:func:`json_schema` exports each as JSON Schema (draft 2020-12), which ``seprank schema
NAME`` prints. Importing this package loads no pydantic: each schema module is
imported when its schema is first asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["SCHEMAS", "schema_names", "json_schema"]

#: name -> (module, function returning the TypeAdapter, one-line description)
SCHEMAS: dict[str, tuple[str, str, str]] = {
    "matrix": ("seprank.schemas.matrix", "matrix_adapter",
               "a matrix in JSON: a list of rows of integers or 'p/q' strings"),
    "weights": ("seprank.models.weights_schema", "weights_adapter",
                "network weights {Q, K, V, O} (seprank sep-rank --weights FILE)"),
    "answer": ("seprank.models.weights_schema", "answer_adapter",
               "a saved seprank sep-rank --json answer (--weights reads it too)"),
    "sweep-spec": ("seprank.sweep.spec_schema", "spec_adapter",
                   "a sweep specification, TOML or YAML (seprank sweep SPEC)"),
    "report": ("seprank.proof.report.model", "report_adapter",
               "the JSON proof report, schema version 3 (or 2) (seprank prove --json)"),
    "certificate": ("seprank.linalg.certificate_schema", "certificate_adapter",
                    "a rank certificate in JSON (seprank rank --certify --json)"),
}

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_names() -> list[str]:
    """The names of the declared formats.

    >>> schema_names()
    ['matrix', 'weights', 'answer', 'sweep-spec', 'report', 'certificate']
    """
    return list(SCHEMAS)


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the format ``name``.

    Parameters
    ----------
    name : str
        one of :func:`schema_names`.

    Returns
    -------
    dict
        the schema, with ``$schema``, ``$id``-like ``title`` and ``description``.

    Raises
    ------
    ParameterError
        an unknown name (one line with the known ones).

    Examples
    --------
    >>> json_schema("weights")["properties"]["Q"]["type"]
    'array'
    >>> json_schema("nope")
    Traceback (most recent call last):
    ...
    seprank.errors.ParameterError: no schema 'nope'; known: matrix, weights, answer, ...
    """
    from seprank.errors import ParameterError

    if not isinstance(name, str) or name not in SCHEMAS:
        said = repr(name) if isinstance(name, str) else f"of type {type(name).__name__}"
        raise ParameterError(f"no schema {said}; known: {', '.join(SCHEMAS)}")
    module, function, description = SCHEMAS[name]
    adapter = getattr(importlib.import_module(module), function)()
    schema = adapter.json_schema()
    return {"$schema": _DIALECT, "title": f"seprank {name}", "description": description,
            **{k: v for k, v in schema.items() if k not in ("title", "description")}}
