"""Reports of a sweep store: a Markdown page, a self-contained HTML page, a plot.

One table row per task of the store (the parameters that vary across the
sweep, then the result with its answer kind), the failed tasks with their
errors, and for rank computations a plot of rank against the bound the
theory gives (``hadamard_rank``: ((d, lam)); ``grid_rank``: the Theorem 3
bound and the grid's size cap), or for ``float_vs_exact`` the map of where
numpy's float64 rank is wrong. Kinds are printed beside every number.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

from seprank._templates import render
from seprank.files.output_files import write_bytes, write_text
from seprank.sweep.store import ResultStore, StoredRow
from seprank.sweep.version import code_version

__all__ = ["summarize_row", "sweep_tables", "write_sweep_report"]


def summarize_row(row: StoredRow) -> dict[str, Any]:
    """The result columns shown for one row: value, kind, bound, and what they are.

    Examples
    --------
    >>> row = StoredRow("k", "hadamard_rank", {"d": 2, "lam": 2}, "v", "done",
    ...                 {"value": 3, "kind": "exact", "dim_bound": 3, "bound": 3,
    ...                  "method": "flint-fmpz", "field": "QQ"}, None, 1, None, 0.1, "t")
    >>> summarize_row(row)["rank"], summarize_row(row)["kind"]
    (3, 'exact')
    """
    r = row.result or {}
    if not row.ok:
        return {"status": "failed", "error": row.error}
    if row.computation == "hadamard_rank":
        return {"rank": r.get("value"), "kind": r.get("kind"), "bound": r.get("bound"),
                "rank = bound": r.get("value") == r.get("bound"), "method": r.get("method"),
                "field": r.get("field")}
    if row.computation == "grid_rank":
        rk = r.get("rank", {})
        return {"rank": rk.get("value"), "kind": rk.get("kind"), "grid cap": r.get("grid_cap"),
                "thm3 bound": r.get("thm3_bound"), "method": rk.get("method"),
                "field": rk.get("field")}
    if row.computation == "lemma6":
        return {"identity holds": r.get("identity_holds"), "kind": r.get("kind"),
                "constants": ", ".join(r.get("constants", []) or []),
                "reason": r.get("reason")}
    if row.computation == "float_vs_exact":
        ex, raw, nrm = r.get("exact", {}), r.get("raw", {}), r.get("normalized", {})
        return {"n": r.get("n"), "exact rank": ex.get("value"), "kind": ex.get("kind"),
                "float64 raw": "overflow" if r.get("raw_overflow") else raw.get("value"),
                "raw wrong": raw.get("wrong"), "float64 normalized": nrm.get("value"),
                "normalized wrong": nrm.get("wrong")}
    if row.computation == "check":
        findings = r.get("findings") or []
        return {"verdict": r.get("verdict"), "tier": r.get("tier"),
                "finding": findings[0] if findings else ""}
    return {"result": r}


def _varying(rows: list[StoredRow]) -> list[str]:
    names: list[str] = []
    for row in rows:
        for k in row.params:
            if k not in names:
                names.append(k)
    return [k for k in names if len({repr(r.params.get(k)) for r in rows}) > 1]


def sweep_tables(store: ResultStore) -> dict[str, Any]:
    """Rows of the report, grouped: ``done`` (params + result columns) and ``failed``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from seprank.sweep.spec import Task
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with ResultStore(pathlib.Path(tmp) / "s.sqlite") as store:
    ...         for lam in (1, 2):
    ...             t = Task("hadamard_rank", {"d": 2, "lam": lam})
    ...             _ = store.record(str(lam), t, "v", "done",
    ...                              result={"value": lam + 1, "kind": "exact", "bound": lam + 1})
    ...         tables = sweep_tables(store)
    >>> tables["varying"], [r["rank"] for r in tables["done"]]
    (['lam'], [2, 3])
    """
    rows = list(store.rows())
    varying = _varying(rows)

    def order(row: StoredRow) -> tuple:
        return tuple((0, v) if isinstance(v := row.params.get(k), int | float)
                     and not isinstance(v, bool) else (1, repr(v)) for k in varying)

    rows.sort(key=order)
    done, failed = [], []
    for row in rows:
        cells = {k: row.params.get(k) for k in varying}
        if row.ok:
            cells.update(summarize_row(row))
            cells["seconds"] = None if row.seconds is None else round(row.seconds, 3)
            done.append(cells)
        else:
            cells["error"] = row.error
            cells["attempts"] = row.attempts
            failed.append(cells)
    computations = sorted({r.computation for r in rows})
    versions = sorted({r.code_version for r in rows})
    return {"varying": varying, "done": done, "failed": failed, "computations": computations,
            "code_versions": versions, "counts": store.counts(), "meta": store.meta(),
            "rows": rows}


def _save(fig, path: Path) -> Path:
    """Write a figure as PNG through the safe output writer, and close it."""
    import io

    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120)
    plt.close(fig)
    write_bytes(path, buffer.getvalue())
    return path


def _float_map(rows: list[StoredRow], path: Path) -> Path | None:
    """The float-versus-exact map: one cell per (d, lam), red where float64 is wrong."""
    cells = [(r.params["d"], r.params["lam"], summarize_row(r)) for r in rows
             if r.ok and r.computation == "float_vs_exact"]
    if not cells:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9.5, 4.2), sharey=True)
    for ax, (label, key) in zip(axes, (("float64 of the exact integers", "raw wrong"),
                                       ("float64, row-normalized", "normalized wrong")),
                                strict=True):
        for d, lam, s in cells:
            wrong = s.get(key)
            color = "#c0392b" if wrong else ("#27ae60" if wrong is False else "#999999")
            ax.scatter([d], [lam], s=160, marker="s", color=color)
            ax.annotate(str(s.get("n")), (d, lam), ha="center", va="center", fontsize=6,
                        color="white")
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("d")
    axes[0].set_ylabel("lambda")
    fig.suptitle("numpy matrix_rank vs exact rank of (U U^T)^(Hadamard lambda): red = wrong, "
                 "green = right, grey = not comparable (label: n)", fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def _plot(tables: dict[str, Any], path: Path) -> Path | None:
    """Rank against its bound, one marker per kind; None when nothing to plot."""
    if any(r.computation == "float_vs_exact" for r in tables["rows"]):
        return _float_map(tables["rows"], path)
    points = []
    for row in tables["rows"]:
        if not row.ok:
            continue
        s = summarize_row(row)
        bound = s.get("bound")
        if bound is None and row.computation == "grid_rank":
            caps = [b for b in (s.get("grid cap"), s.get("thm3 bound")) if b is not None]
            bound = min(caps) if caps else None
        if isinstance(s.get("rank"), int) and isinstance(bound, int):
            points.append((bound, s["rank"], s.get("kind")))
    if not points:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    for kind, marker in (("exact", "o"), ("lower_bound", "^"), ("upper_bound", "v"),
                         ("probabilistic", "s"), ("float_estimate", "x")):
        pts = [(b, r) for b, r, k in points if k == kind]
        if pts:
            ax.scatter([b for b, _ in pts], [r for _, r in pts], marker=marker, label=kind)
    top = max(max(b, r) for b, r, _ in points)
    ax.plot([1, top], [1, top], color="grey", lw=0.8, ls="--", label="rank = bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("bound from the theory")
    ax.set_ylabel("computed rank (marker = answer kind)")
    ax.set_title("sweep: rank against bound")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def _fmt(value: Any) -> str:
    if value is None:
        return ""
    text = str(value).replace("\n", " ")
    return text if len(text) <= 160 else text[:157] + "..."


def _table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Columns (every key, first-seen order) and cells (:func:`_fmt`) of a table."""
    cols = list(dict.fromkeys(k for r in rows for k in r))
    return {"columns": cols, "rows": [[_fmt(r.get(c)) for c in cols] for r in rows]}


def _staleness(tables: dict[str, Any]) -> str:
    """A note when the store's rows were computed by other code than the running one.

    A task's key includes the code version (:func:`seprank.sweep.code_version`), so
    rows of another version are not reused by ``seprank sweep``: the note says so.

    >>> _staleness({"code_versions": [code_version()]})
    ''
    >>> _staleness({"code_versions": ["0.0.1+000000000000"]}).startswith(" (this seprank is ")
    True
    """
    current = code_version()
    if not tables["code_versions"] or tables["code_versions"] == [current]:
        return ""
    return (f" (this seprank is {current}: rows of other versions are stale, and "
            "`seprank sweep SPEC` computes them again)")


def _listed(value) -> str:
    """A spec value as the report prints it: no Python reprs (``{2, 3, 4}``, ``omega``).

    >>> _listed([2, 3, 4]), _listed("omega"), _listed(True)
    ('{2, 3, 4}', 'omega', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "{" + ", ".join(_listed(v) for v in value) + "}"
    return str(value)


def write_sweep_report(store_path: str | os.PathLike, markdown_path: str | os.PathLike,
                       html_path: str | os.PathLike) -> tuple[Path, Path]:
    """Write the Markdown and HTML report of a store (plot beside the Markdown).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from seprank.sweep.spec import Task
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     tmp = pathlib.Path(tmp)
    ...     with ResultStore(tmp / "s.sqlite") as store:
    ...         _ = store.record("a", Task("check", {"id": "L-Lemma4"}), "v", "done",
    ...                          result={"verdict": "verified", "tier": "fast", "findings": []})
    ...     md, page = write_sweep_report(tmp / "s.sqlite", tmp / "s.md", tmp / "s.html")
    ...     "verified" in md.read_text() and "<table>" in page.read_text()
    True
    """
    with ResultStore(store_path, readonly=True) as store:
        tables = sweep_tables(store)
    md_path, html_path = Path(markdown_path), Path(html_path)
    meta = tables["meta"].get("spec", {})
    title = meta.get("title") or f"Sweep: {', '.join(tables['computations']) or 'empty'}"
    counts = tables["counts"]
    plot = _plot(tables, md_path.with_name(md_path.stem + "-plot.png"))
    intro = [f"Store: `{Path(store_path).name}`; computation(s): "
             f"{', '.join(tables['computations']) or 'none'}; code version(s): "
             f"{', '.join(tables['code_versions']) or 'none'}{_staleness(tables)}.",
             f"Rows: {counts.get('done', 0)} done, {counts.get('failed', 0)} failed.",
             "Every rank is printed with its answer kind: `exact` ranks are exact over the "
             "field named; `lower_bound` ranks are certified lower bounds only."]
    grid = ""
    if meta.get("axes"):
        grid = ("Grid: " + "; ".join(f"{k} in {_listed(v)}" for k, v in meta["axes"].items())
                + ("; fixed: " + ", ".join(f"{k} = {_listed(v)}" for k, v in
                                           meta["fixed"].items()) if meta.get("fixed") else ""))
    view = {"title": title, "intro": intro, "grid": grid, "plot": plot, "plot_uri": "",
            "done": _table(tables["done"]), "failed": _table(tables["failed"])}
    write_text(md_path, render("sweep_report.md.j2", **view))
    if plot is not None:
        view["plot_uri"] = "data:image/png;base64," + base64.b64encode(plot.read_bytes()).decode()
    page = render("sweep_report.html.j2", **view)
    write_text(html_path, page)
    return md_path, html_path
