"""The notebooks under docs/notebooks run top to bottom (nbclient; the ``[notebook]`` extra).

Skipped when nbclient, nbformat or ipykernel is not installed (``[test]`` and
``[notebook]`` install them). Measured: tour.ipynb executes in about 7 s on the
shared 2-core machine (its cells take about 3 s; the kernel's start the rest).

The expectations come from theory, not from an earlier run: the rank 2 of a
matrix whose second row is twice its first; ((2, 8)) = C(9, 8) = 9 for the Omega
rows; the matricization convention's worked example (fig. 7.3 of the lecture
notes, by hand); Lemma 6's corrected constant from its closed form; the invertible
Vandermonde matrices.
"""

from __future__ import annotations

import ast
import re
from math import comb
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "docs" / "notebooks").glob("*.ipynb"))
TOUR = NOTEBOOKS[0].parent / "tour.ipynb"


def test_there_is_a_tour():
    assert any(p.name == "tour.ipynb" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_stored_outputs_are_one_real_run(path):
    """Every code cell holds the outputs of one top-to-bottom run (counts 1, 2, 3, ...)."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    cells = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    assert all(c.outputs for c in cells), "a code cell without output: run and save the notebook"
    assert not [o for c in cells for o in c.outputs if o.output_type == "error"]


def _executed(path: Path, tmp_path: Path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb


def _shown(nb, mime: str = "text/markdown") -> str:
    return "\n".join(o.get("data", {}).get(mime, "") for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = _executed(path, tmp_path)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    if path.name == "tour.ipynb":
        _check_tour(nb)


def _check_tour(nb) -> None:
    shown, plain = _shown(nb), _shown(nb, "text/plain")
    streams = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                        for o in c.outputs if o.output_type == "stream")
    # 1-2: the rich displays put the answer kind beside every number
    assert "| 2 | exact | QQ |" in shown and "| 2 | lower_bound | QQ |" in shown
    assert "claim holds-corrected" in shown        # W-Lemma4, issue 10's outcome
    # 3: the plan says its route and why before anything is computed; the typed result
    # is exact, meets its certified upper bound, equals the front door's answer, and
    # respects Theorem 3's bound (H (d_a + 1))^C(L) = (2 * 3)^4 for L = 2
    assert "route: coefficient (" in streams and "answers: exact" in streams
    value, kind, upper, route, again = next(
        ast.literal_eval(v) for v in plain.splitlines() if v.startswith("(") and "'coefficient'"
        in v)
    assert kind == "exact" and value == upper == again and route == "coefficient"
    assert value <= (2 * 3) ** 4 and f"**separation rank {value} (exact)" in shown
    assert "| L-Thm3 | upper | 1296 | respected |" in shown
    # 4: the Omega rows of levine2020 B.2 reach ((d, lam)) = C(d + lam - 1, lam) exactly
    assert f"| exact | {comb(2 + 8 - 1, 8)} | exact | QQ |" in shown
    assert "| float64 |" in shown and "float_estimate | RR | numpy-svd" in shown
    # 5: the matricization convention, worked by hand: I = (0, 2) are the row digits,
    # position 0 most significant; A[0, 1, 2] is row 0 * 3 + 2 = 2, column 1
    assert "| 2 | A113 | A123 |" in shown and "| 3 | A211 | A221 |" in shown
    assert "(row, col) = (2, 1)" in shown
    assert "grid tensor (4, 4, 4) -> matricization (16, 4)" in streams
    assert re.search(r"\| \d \| exact \| QQ \| 16 x 4 \| flint-fmpz \| attached", shown)
    # 6: Lemma 6 fails as printed; corrected, its constant is the closed form
    # i^(lam+1) 2^lam ((d_a - 1)/2)^(lam - 1) N^(-(lam+1)/2), d_a = 3, N = 2
    for L in (2, 3):
        lam = 3 ** (L - 2)
        c = (1j) ** (lam + 1) * 2 ** lam * 2 ** (-(lam + 1) / 2)
        assert abs(c.imag) < 1e-12
        c = round(c.real)
        assert f"| {L} | printed | FAILS |" in shown
        assert f"| {L} | corrected | holds | {c} | {c} | - |" in shown
    # 7: the Vandermonde matrix on 1..n is invertible: the exact rank is n at every size
    last = nb.cells[-1].outputs[-1]["data"]["text/plain"]
    rows = ast.literal_eval(last)                   # (n, exact, float) where they differ
    assert rows and all(n == e for n, e, _ in rows)
