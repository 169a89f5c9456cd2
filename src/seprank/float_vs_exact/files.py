"""The files of a float-vs-exact study: CSV, JSON and a plot, in a folder the user names.

:func:`write_study` writes ``float_vs_exact.csv`` (one row per case,
:data:`seprank.float_vs_exact.ROW_FIELDS`), ``float_vs_exact.json`` (the
parameters, the machine, the summary, the cases left out and every row) and
``float_vs_exact.png`` (left: exact minus float64 rank against n, 0 = right;
right: the seconds of each path against n) into a folder that
:func:`seprank.float_vs_exact.check_output_folder` accepts. Every file goes
through :mod:`seprank.files.output_files` (atomic replace, no links followed).
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import os
import platform
from pathlib import Path
from typing import Any

import seprank.schemas.strict_json as strict_json

__all__ = ["write_study", "machine", "csv_text", "plot_png"]

#: the files a study writes, by kind
NAMES = {"csv": "float_vs_exact.csv", "json": "float_vs_exact.json", "png": "float_vs_exact.png"}


def machine() -> dict[str, Any]:
    """Where the study ran: platform, Python, numpy, python-flint, CPUs, date (UTC).

    >>> sorted(machine())[:3]
    ['cpu_count', 'date', 'numpy']
    """
    import flint
    import numpy as np

    from seprank.runtime.package import VERSION

    return {"platform": platform.platform(), "python": platform.python_version(),
            "numpy": np.__version__, "python_flint": flint.__version__,
            "seprank": VERSION, "cpu_count": os.cpu_count(),
            "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}


def csv_text(rows: list[dict[str, Any]]) -> str:
    """The rows as CSV text (header :data:`~seprank.float_vs_exact.ROW_FIELDS`; None is empty).

    >>> print(csv_text([{"family": "omega", "d": 2}]).splitlines()[1][:12])
    omega,2,,,,,
    """
    from seprank.float_vs_exact import ROW_FIELDS

    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=ROW_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else
                        f"{r[k]:.6g}" if isinstance(r.get(k), float) else r[k])
                    for k in ROW_FIELDS})
    return buf.getvalue()


def _deficit_panel(ax, rows: list[dict[str, Any]]) -> None:
    import matplotlib.pyplot as plt

    lams = sorted({r["lam"] for r in rows})
    cmap = plt.get_cmap("viridis", max(len(lams), 2))
    for variant, marker in (("raw", "o"), ("normalized", "^")):
        for k, lam in enumerate(lams):
            sel = [r for r in rows if r["lam"] == lam and r.get(f"{variant}_rank") is not None]
            if sel:
                ax.scatter([r["n"] for r in sel],
                           [r["exact_rank"] - r[f"{variant}_rank"] for r in sel],
                           marker=marker, s=28, color=cmap(k), alpha=0.85,
                           label=f"lam={lam}" if variant == "raw" else None)
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xlabel("n = rows of G (log)")
    ax.set_ylabel("exact rank - float64 rank (0 = right)")
    ax.set_title("o: float64 of the exact G; ^: row-normalized, built in float64", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, alpha=0.3)


def _time_panel(ax, rows: list[dict[str, Any]]) -> None:
    paths = (("build_s", "build of the exact G", "tab:gray"),
             ("exact_s", "exact rank (seprank.rank auto)", "tab:red"),
             ("float_raw_s", "float64 SVD of the exact G", "tab:blue"),
             ("float_normalized_s", "float64 row-normalized (build + SVD)", "tab:cyan"))
    for key, label, color in paths:
        sel = [r for r in rows if r.get(key)]
        if sel:
            ax.scatter([r["n"] for r in sel], [r[key] for r in sel], s=18, color=color,
                       label=label, alpha=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (log)")
    ax.set_ylabel("seconds (log)")
    ax.set_title("time of each path", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, alpha=0.3)


def plot_png(study: dict[str, Any]) -> bytes:
    """The study's plot as PNG bytes (matplotlib, Agg).

    >>> from seprank.float_vs_exact import run_study
    >>> plot_png(run_study("omega", [2], [2, 8]))[:4]
    b'\\x89PNG'
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, summary, params = study["rows"], study["summary"], study["parameters"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    if rows:
        _deficit_panel(left, rows)
        _time_panel(right, rows)
    fig.suptitle(f"float64 rank vs exact rank of G = (U U^T)^(Hadamard lam), family "
                 f"{params['family']}: {len(rows)} cases; float64 wrong: "
                 f"{summary['raw']['wrong']} (exact G rounded), "
                 f"{summary['normalized']['wrong']} (row-normalized); exact kinds "
                 f"{', '.join(f'{k} {v}' for k, v in summary['exact_kinds'].items())}",
                 fontsize=9.5)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def write_study(folder: str | os.PathLike, study: dict[str, Any], *,
                plot: bool = True) -> dict[str, Path]:
    """Write the study's CSV, JSON and (``plot``) PNG into ``folder``; return their paths.

    The folder is checked first (:func:`seprank.float_vs_exact.check_output_folder`),
    then created.

    >>> import tempfile
    >>> from seprank.float_vs_exact import run_study
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     paths = write_study(Path(tmp) / "out", run_study("omega", [2], [2]), plot=False)
    ...     sorted(p.name for p in paths.values())
    ['float_vs_exact.csv', 'float_vs_exact.json']
    """
    from seprank.files.output_files import prepare_folder, write_bytes, write_text
    from seprank.float_vs_exact import check_output_folder

    folder = prepare_folder(check_output_folder(folder))
    png = plot_png(study) if plot else None
    paths = {"csv": write_text(folder / NAMES["csv"], csv_text(study["rows"]))}
    data = {"study": "float_vs_exact", "machine": machine(), **study}
    paths["json"] = write_text(folder / NAMES["json"],
                               strict_json.dumps(data, indent=1, default=str) + "\n")
    if png is not None:
        paths["png"] = write_bytes(folder / NAMES["png"], png)
    return paths
