"""Helpers the checks use to conclude: instance counts, largest sizes, binding.

Not a check module (the leading underscore keeps the loader away). An instance
of an upper bound is *binding* when it could have violated the bound: the
largest rank its grid can show (the grid cap, at least the number of monomials
per side, see seprank.constructions.known_seprank) exceeds the bound.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def _num(value: Any) -> Fraction:
    if isinstance(value, str):
        return Fraction(value.split(" ")[0])
    return Fraction(value)


def bound_instances(ctx, step: str, bound_key: str,
                    size_keys: tuple[str, ...] = ("L", "d_x", "H", "N"),
                    rows_key: str = "cases") -> dict[str, Any]:
    """count / largest / binding of the instance rows recorded by a step.

    Each row holds the sizes, ``grid_cap`` and the bound under ``bound_key``.
    """
    rows = ctx.find_step(step).evidence.get(rows_key) or []
    binding = [r for r in rows if "grid_cap" in r and _num(r["grid_cap"]) > _num(r[bound_key])]
    largest = {k: max(r[k] for r in rows) for k in size_keys if rows and k in rows[0]}
    largest["grid_cap"] = max((r.get("grid_cap", 0) for r in rows), default=0)
    smallest_bound = min((_num(r[bound_key]) for r in rows), default=None)
    ctx.find_step(step).evidence["binding_instances"] = {
        "binding": len(binding), "of": len(rows),
        "rule": "binding when the grid cap exceeds the bound (the rank could have violated it)",
        "smallest_bound": None if smallest_bound is None else str(smallest_bound)}
    return {"count": len(rows), "largest": largest, "binding": bool(binding),
            "n_binding": len(binding)}


def consistent(info: dict[str, Any], what: str) -> str:
    """The reason line of an `open` conclusion from instance evidence."""
    b = (f"{info['n_binding']} of them binding" if info.get("n_binding")
         else "none of them binding (no tested instance could have violated the bound)")
    return f"consistent on {info['count']} instances ({b}); {what}"
