"""Figures for reports, drawn from the evidence of known checks (matplotlib, Agg).

* W-Thm3, the vocabulary bottleneck: exact grid rank against the inner
  dimension r of M_V = A B at fixed (L, d_x, H), one line per setting, with
  d_x marked (wies2021 Thm 3-4: the rank depends on r only through min(r, d_x));
* A-harm: the exact dimension N(d, l) of degree-l spherical harmonics in d
  dimensions (amsel talk l.648-674), one line per d.

Each figure is drawn only when its check is in the report; the figures'
numbers are the exact values recorded in the evidence. Any check may declare
its own figures: ``@check(..., figures=[Figure("name", "evidence_key", draw)])``
where ``draw(value, ax)`` plots the evidence value on a matplotlib Axes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seprank.files.output_files import prepare_folder, write_bytes

__all__ = ["Figure", "write_figures"]


@dataclass(frozen=True)
class Figure:
    """A figure a check declares: file ``name``, the evidence ``key`` it plots, ``draw``.

    ``draw(value, ax)`` receives the evidence value recorded under ``key`` (by
    the first step that has it) and a matplotlib Axes.

    Examples
    --------
    >>> fig = Figure("squares", "squares", lambda value, ax: ax.plot(value, "o-"))
    >>> fig.name, fig.key
    ('squares', 'squares')
    """

    name: str
    key: str
    draw: Callable[[Any, Any], None]


def _evidence(data: dict[str, Any], check_id: str, key: str) -> Any:
    for c in data["checks"]:
        if c["id"] == check_id:
            for s in c["steps"]:
                if key in s["evidence"]:
                    return s["evidence"][key]
    return None


def _bottleneck(table: list[dict[str, Any]], ax) -> None:
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for row in table:
        key = (row["L"], row["d_x"], row["H"], row["V"], row.get("r_e", 0), row["seed"])
        groups.setdefault(key, []).append(row)
    for (L, d_x, H, V, r_e, seed), rows in sorted(groups.items()):
        rows.sort(key=lambda r: r["inner_r"])
        ax.plot([r["inner_r"] for r in rows], [r["grid_rank"] for r in rows], "o-",
                label=f"L={L}, d_x={d_x}, H={H}, V={V}, r_e={r_e}, seed {seed}")
        ax.axvline(d_x, ls=":", lw=0.8, c=ax.lines[-1].get_color())
    ax.set(xlabel="inner dimension r of M_V = A B (dotted: d_x)",
           ylabel="grid rank (exact, = separation rank)",
           title="Vocabulary bottleneck (W-Thm3): no growth past r = d_x")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=7)


def _harmonics(table: dict[str, list[int]], ax) -> None:
    for name, values in sorted(table.items(), key=lambda kv: int(kv[0].split("=")[1])):
        ax.plot(range(len(values)), values, "o-", label=name)
    ax.set(yscale="symlog", xlabel="degree l", ylabel="N(d, l) (exact rank computation)",
           title="Dimension of degree-l spherical harmonics (A-harm)")
    ax.legend(fontsize=7)


#: the figures of the project's own checks (their modules predate Figure declarations)
_BUILTIN: list[tuple[str, Figure]] = [
    ("W-Thm3", Figure("bottleneck", "table", _bottleneck)),
    ("A-harm", Figure("harmonics", "table_N_by_d", _harmonics)),
]


def write_figures(data: dict[str, Any], folder: str | Path,
                  specs: Iterable[Any] | None = None) -> list[tuple[str, Path]]:
    """Draw the figures whose evidence is in ``data`` into ``folder``; (check id, path) each.

    ``specs``: check specs whose declared figures are drawn too (besides the
    project's built-in two).

    Returns an empty list when matplotlib is not installed.

    Examples
    --------
    Evidence of A-harm for d = 3, where N(3, l) = 2 l + 1, draws one figure;
    data without a known check draws none:

    >>> import tempfile
    >>> harm = {"id": "A-harm", "steps": [{"evidence": {"table_N_by_d": {"d=3": [1, 3, 5]}}}]}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     drawn = write_figures({"checks": [harm]}, folder)
    ...     none = write_figures({"checks": []}, folder)
    ...     [(cid, path.name, path.is_file()) for cid, path in drawn], none
    ([('A-harm', 'harmonics.png', True)], [])
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    out = []
    folder = Path(folder)
    if isinstance(specs, dict):
        specs = specs.values()
    declared = list(_BUILTIN) + [(spec.id, fig) for spec in specs or ()
                                 for fig in getattr(spec, "figures", ())]
    seen = set()
    for check_id, figure in declared:
        name, key, draw = figure.name, figure.key, figure.draw
        if name in seen:
            continue
        value = _evidence(data, check_id, key)
        if not value:
            continue
        seen.add(name)
        prepare_folder(folder)
        fig, ax = plt.subplots(figsize=(7, 4.5))
        draw(value, ax)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        path = folder / f"{name}.png"
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
        plt.close(fig)
        write_bytes(path, buffer.getvalue())
        out.append((check_id, path))
    return out
