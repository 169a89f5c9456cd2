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
    """count / largest / binding of the instance rows recorded by the steps whose claim
    starts with ``step`` (all of them, so that steps added later with more instances
    are counted too).

    Each row holds the sizes, ``grid_cap`` and the bound under ``bound_key``; rows
    without the bound are skipped.
    """
    steps = [st for st in ctx.steps if st.claim.startswith(step)]
    if not steps:
        raise ValueError(f"no step starts with {step!r}")
    rows = [r for st in steps for r in (st.evidence.get(rows_key) or [])
            if isinstance(r, dict) and bound_key in r]
    binding = [r for r in rows if "grid_cap" in r and _num(r["grid_cap"]) > _num(r[bound_key])]
    largest = {k: max(r[k] for r in rows if k in r) for k in size_keys
               if any(k in r for r in rows)}
    largest["grid_cap"] = max((r.get("grid_cap", 0) for r in rows), default=0)
    smallest_bound = min((_num(r[bound_key]) for r in rows), default=None)
    steps[0].evidence["binding_instances"] = {
        "binding": len(binding), "of": len(rows), "steps": len(steps),
        "rule": "binding when the grid cap exceeds the bound (the rank could have violated it)",
        "smallest_bound": None if smallest_bound is None else str(smallest_bound)}
    return {"count": len(rows), "largest": largest, "binding": bool(binding),
            "n_binding": len(binding)}


def consistent(info: dict[str, Any], what: str) -> str:
    """The reason line of an `open` conclusion from instance evidence."""
    b = (f"{info['n_binding']} of them binding" if info.get("n_binding")
         else "none of them binding (no tested instance could have violated the bound)")
    return f"consistent on {info['count']} instances ({b}); {what}"


def construction_instances(cases: list[tuple], names: tuple[str, ...]) -> dict[str, Any]:
    """count / largest of the sizes at which a corrected construction was checked.

    A repaired explicit construction checked exactly at every tested size is still
    sampling over the sizes: a universally quantified lemma ("for every L, H, d_a,
    ... these weights do X") checked this way is at best ``open``, consistent on the
    instances (MISSION_MAP: sampling never gives ``holds``). The instances are
    binding: the printed construction failed at the same sizes, so they could fail.
    """
    return {"count": len(cases),
            "largest": {n: max(c[k] for c in cases) for k, n in enumerate(names)}}
