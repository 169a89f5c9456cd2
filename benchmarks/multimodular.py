"""Benchmark: seprank's multi-modular exact rank against python-flint fmpz_mat.rank.

Run:  python benchmarks/multimodular.py [--quick] [--out benchmarks/results]

Two families of rank-deficient n x n integer matrices, each timed in the same
process on the same matrix:

* **random**: A (n x r) B (r x n) with entries uniform in [-10, 10]
  (``default_rng(n)``), r = n - 10 (a small kernel: 10 vectors);
* **gram**: G = (U U^T)^(Hadamard 7) with U an n x 5 matrix of integers uniform
  in [-3, 3] (``default_rng(n)``): rank ((5, 7)) = C(11, 7) = 330 < n, entries
  of ~37 bits, a large kernel (n - 330 vectors).

Per case: ``rank_multimodular`` (exact rank, both certificates; the kernel
vectors are verified by an exact product inside), python-flint's
``fmpz_mat.rank()`` (fraction-free elimination), whether the ranks agree,
and the ratio fmpz / multimodular (> 1: multimodular faster). Times are the
minimum over ``--repeat`` runs (1 run for cases over 20 s). Results: CSV, JSON
(with the machine: platform, cpu count, package versions) and a plot in --out.
"""

from __future__ import annotations

from seprank.runtime.openblas_kernels import choose_openblas_kernels

# before numpy loads OpenBLAS: its AVX-512 kernels on AMD Zen 5 (seprank.runtime.openblas_kernels)
choose_openblas_kernels()

import argparse
import csv
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import flint
import numpy as np

from seprank.constructions.omega import gram_hadamard_exact
from seprank.linalg.rational.multimodular import rank_multimodular

RANDOM_SIZES = [200, 400, 600, 800, 1000, 1200, 1600]
GRAM_SIZES = [400, 500, 700, 1000]
QUICK_RANDOM = [100, 200]
QUICK_GRAM = [360, 400]


def random_family(n: int) -> flint.fmpz_mat:
    rng = np.random.default_rng(n)
    r = n - 10
    a = flint.fmpz_mat(n, r, rng.integers(-10, 11, n * r).tolist())
    b = flint.fmpz_mat(r, n, rng.integers(-10, 11, r * n).tolist())
    return a * b


def gram_family(n: int) -> flint.fmpz_mat:
    rng = np.random.default_rng(n)
    return gram_hadamard_exact(rng.integers(-3, 4, (n, 5)).tolist(), 7)


def timed(fn, repeat: int):
    best, out = float("inf"), None
    for i in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
        if best > 20 and i == 0:
            break
    return out, best


def machine() -> dict:
    try:
        from threadpoolctl import threadpool_info

        blas = [{k: d.get(k) for k in ("internal_api", "version", "num_threads", "architecture")}
                for d in threadpool_info() if d.get("user_api") == "blas"]
    except Exception:  # pragma: no cover
        blas = None
    return {"platform": platform.platform(), "processor": platform.processor(),
            "cpu_count": os.cpu_count(), "python": sys.version.split()[0],
            "numpy": np.__version__, "python-flint": metadata.version("python-flint"),
            "numba": metadata.version("numba"), "seprank": metadata.version("seprank"),
            "blas": blas, "date": datetime.now(UTC).isoformat(timespec="seconds")}


def run_case(family: str, n: int, repeat: int) -> dict:
    z = random_family(n) if family == "random" else gram_family(n)
    bits = max(abs(int(x)) for x in z.entries()).bit_length()
    res, t_mm = timed(lambda: rank_multimodular(z), repeat)
    r_fmpz, t_fmpz = timed(z.rank, repeat)
    row = {"family": family, "n": n, "entry_bits": bits, "rank": res.rank,
           "kernel_dim": n - res.rank, "exact": res.exact, "fmpz_rank": r_fmpz,
           "agree": res.rank == r_fmpz, "primes": " ".join(map(str, res.primes)),
           "t_multimodular_s": round(t_mm, 4), "t_fmpz_rank_s": round(t_fmpz, 4),
           "speedup_vs_fmpz": round(t_fmpz / t_mm, 3)}
    print(f"{family:7s} n={n:5d} rank={res.rank:5d} exact={res.exact} "
          f"multimodular {t_mm:8.3f} s  fmpz_mat.rank {t_fmpz:8.3f} s  "
          f"ratio {t_fmpz / t_mm:5.2f}", flush=True)
    return row


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, family in zip(axes, ("random", "gram"), strict=True):
        sub = [r for r in rows if r["family"] == family]
        if not sub:
            continue
        ns = [r["n"] for r in sub]
        ax.plot(ns, [r["t_multimodular_s"] for r in sub], "o-", label="seprank multimodular")
        ax.plot(ns, [r["t_fmpz_rank_s"] for r in sub], "s--", label="flint fmpz_mat.rank")
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel("seconds")
        title = ("random A B, rank n - 10" if family == "random"
                 else "(U U^T)^(Hadamard 7), U n x 5, rank 330")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes only (seconds)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rank_multimodular(flint.fmpz_mat([[1, 2], [2, 4]]))  # compile the numba kernels first
    rank_multimodular(random_family(40))
    cases = ([("random", n) for n in (QUICK_RANDOM if args.quick else RANDOM_SIZES)]
             + [("gram", n) for n in (QUICK_GRAM if args.quick else GRAM_SIZES)])
    rows = [run_case(f, n, args.repeat) for f, n in cases]
    name = "multimodular_quick" if args.quick else "multimodular"
    with open(out / f"{name}.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    doc = {"benchmark": "seprank rank_multimodular vs python-flint fmpz_mat.rank",
           "families": {"random": "A (n x (n-10)) B ((n-10) x n), entries uniform in "
                                  "[-10, 10], default_rng(n)",
                        "gram": "(U U^T)^(Hadamard 7), U n x 5 uniform in [-3, 3], "
                                "default_rng(n); rank 330"},
           "timing": f"minimum of {args.repeat} runs (1 run when over 20 s)",
           "machine": machine(), "rows": rows}
    (out / f"{name}.json").write_text(json.dumps(doc, indent=2))
    plot(rows, out / f"{name}.png")
    print(f"wrote {out / name}.{{csv,json,png}}")


if __name__ == "__main__":
    main()
