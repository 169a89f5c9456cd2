"""Benchmark: seprank's numba modular LU against named peers, in one run.

Run:  python benchmarks/rank_engines.py [--quick] [--max-n N] [--out benchmarks/results]

For each matrix (the Omega family G = (U U^T)^(Hadamard lambda), U = Omega^q
rows with Omega = 2, and a random-row family with U uniform in [-3, 3]) it
times, in the same process and on the same matrix:

* seprank numba LU (``rank_profile_mod_p``, p = 1048573), rank + profile;
* python-flint ``nmod_mat.rank`` (same prime);
* python-flint ``fmpz_mat.rank`` on the exact integer matrix (n <= --fmpz-max-n);
* sympy ``DomainMatrix`` over GF(p) (n <= --sympy-max-n);
* galois (``np.linalg.matrix_rank`` on a ``galois.GF(p)`` array) if installed,
  n <= --galois-max-n, else recorded as not installed;
* numpy ``matrix_rank`` (float64 SVD; its rank is only a float estimate);
* the direct builder ``gram_hadamard_mod_p_f64`` (build time of G mod p).

The BLAS floor is measured in the same run: a float64 n x n product timed
with numpy gives the machine's rate R (flop/s); the floor for LU is
(2/3) n^3 multiply-adds = (4/3) n^3 flop at that rate. Results: CSV, JSON
(with the machine) and a plot in --out.
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

from seprank.combinatorics import multiset
from seprank.constructions.builders import gram_hadamard_mod_p_f64
from seprank.constructions.omega import omega_rows
from seprank.linalg.engines.modular_lu import rank_profile_mod_p

P = 1048573
OMEGA_CASES = [(6, 3), (10, 3), (6, 5), (12, 3), (5, 7), (15, 3), (6, 6), (20, 3), (6, 9),
               (25, 3), (12, 5), (30, 3), (13, 5)]
QUICK_CASES = [(6, 3), (10, 3), (12, 3), (15, 3)]


def timed(fn, repeat=1):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


def blas_rate(n: int) -> float:
    """Measured float64 GEMM rate (flop/s) at size n (best of 3)."""
    a = np.random.default_rng(0).random((n, n))
    b = np.random.default_rng(1).random((n, n))
    a @ b
    _, t = timed(lambda: a @ b, repeat=3)
    return 2 * n**3 / t


def family_rows(family: str, d: int, lam: int, rng) -> np.ndarray:
    n = multiset(d, lam)
    if family == "omega":
        return np.array(omega_rows(d, lam, 2), dtype=np.int64)
    return rng.integers(-3, 4, size=(n, d)).astype(np.int64)


def run(args) -> list[dict]:
    rng = np.random.default_rng(args.seed)
    cases = QUICK_CASES if args.quick else OMEGA_CASES
    rows = []
    try:
        import galois  # noqa: F401
        have_galois = True
    except ImportError:
        have_galois = False
    for family in ("omega", "random"):
        for d, lam in cases:
            n = multiset(d, lam)
            if n > args.max_n:
                continue
            U = family_rows(family, d, lam, rng)
            G, t_build = timed(lambda U=U, lam=lam: gram_hadamard_mod_p_f64(U, lam, P))
            row = {"family": family, "d": d, "lam": lam, "n": n, "prime": P,
                   "build_numba_s": t_build}
            (r_nb, _, _), t_nb = timed(lambda G=G: rank_profile_mod_p(G, P), repeat=3)
            row.update(rank_numba=r_nb, numba_s=t_nb)
            nm = flint.nmod_mat(n, n, G.astype(np.int64).ravel().tolist(), P)
            r_fl, t_fl = timed(lambda nm=nm: nm.rank(), repeat=2 if n <= 3000 else 1)
            row.update(rank_flint_nmod=int(r_fl), flint_nmod_s=t_fl)
            if n <= args.fmpz_max_n:
                from seprank.constructions.omega import gram_hadamard_exact

                Z = gram_hadamard_exact(U.tolist(), lam)
                r_z, t_z = timed(lambda Z=Z: Z.rank())
                row.update(rank_flint_fmpz=int(r_z), flint_fmpz_s=t_z)
            if n <= args.sympy_max_n:
                from sympy import GF
                from sympy.polys.matrices import DomainMatrix

                dm = DomainMatrix([[GF(P)(int(x)) for x in r] for r in G.astype(np.int64)],
                                  (n, n), GF(P))
                r_s, t_s = timed(lambda dm=dm: dm.rank())
                row.update(rank_sympy_gfp=int(r_s), sympy_gfp_s=t_s)
            if not have_galois:
                row["galois"] = "not installed"
            elif n <= args.galois_max_n:
                import galois

                field = galois.GF(P)
                fa = field(G.astype(np.int64))
                r_g, t_g = timed(lambda fa=fa: int(np.linalg.matrix_rank(fa)))
                row.update(rank_galois=r_g, galois_s=t_g, galois=galois.__version__)
            else:
                row["galois"] = f"not timed above n = {args.galois_max_n}"
            Gf = G.copy()  # the float path sees the residues (a float user has no better)
            r_np, t_np = timed(lambda Gf=Gf: int(np.linalg.matrix_rank(Gf)))
            row.update(rank_numpy_float_of_residues=r_np, numpy_svd_s=t_np)
            rate = blas_rate(n)
            floor = (4 / 3) * n**3 / rate
            row.update(blas_gflops=rate / 1e9, blas_floor_s=floor,
                       numba_over_floor=t_nb / floor,
                       flint_nmod_over_numba=t_fl / t_nb)
            assert r_nb == int(r_fl), f"engines disagree at {family} {d} {lam}"
            rows.append(row)
            print(f"{family:6s} d={d:2d} lam={lam} n={n:5d}  numba {t_nb:7.3f}s  "
                  f"flint-nmod {t_fl:7.3f}s  ratio {t_fl / t_nb:5.2f}x  floor {floor:6.3f}s "
                  f"({t_nb / floor:4.1f}x floor)  build {t_build:6.3f}s", flush=True)
    return rows


def _cpu_name() -> str:
    """The CPU's model name and family (Linux /proc/cpuinfo), or ''."""
    try:
        info = open("/proc/cpuinfo").read(1 << 16)
    except OSError:
        return ""
    get = {k.strip(): v.strip() for k, _, v in (ln.partition(":") for ln in info.splitlines())}
    return f"{get.get('model name', '')} (family {get.get('cpu family', '?')})"


def machine() -> dict:
    try:
        from threadpoolctl import threadpool_info

        blas = [{k: i.get(k) for k in ("internal_api", "version", "num_threads", "architecture")}
                for i in threadpool_info()]
    except ImportError:  # pragma: no cover
        blas = None
    return {"platform": platform.platform(), "processor": platform.processor(),
            "cpu_count": os.cpu_count(), "python": sys.version.split()[0],
            "numpy": np.__version__, "python-flint": metadata.version("python-flint"),
            "numba": metadata.version("numba"), "blas": blas,
            "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
            "cpu": _cpu_name(),
            "loadavg_at_start": os.getloadavg(),
            "date": datetime.now(UTC).isoformat(timespec="seconds")}


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 2, figsize=(13, 5))
    for family, marker in (("omega", "o"), ("random", "^")):
        rs = sorted((r for r in rows if r["family"] == family), key=lambda r: r["n"])
        if not rs:
            continue
        n = [r["n"] for r in rs]
        ax[0].plot(n, [r["numba_s"] for r in rs], marker, ls="-", c="C0",
                   label=f"seprank numba LU ({family})")
        ax[0].plot(n, [r["flint_nmod_s"] for r in rs], marker, ls="-", c="C1",
                   label=f"flint nmod_mat.rank ({family})")
        ax[0].plot(n, [r["blas_floor_s"] for r in rs], marker, ls=":", c="k",
                   label=f"BLAS floor (4/3 n^3 flop at measured rate) ({family})")
        g = [r for r in rs if "galois_s" in r]
        if g:
            ax[0].plot([r["n"] for r in g], [r["galois_s"] for r in g], marker, ls="-.",
                       c="C2", label=f"galois GF(p) matrix_rank ({family})")
        z = [r for r in rs if "flint_fmpz_s" in r]
        if z:
            ax[0].plot([r["n"] for r in z], [r["flint_fmpz_s"] for r in z], marker, ls="--",
                       c="C3", label=f"flint fmpz_mat.rank, exact over Q ({family})")
        ax[1].plot(n, [r["flint_nmod_over_numba"] for r in rs], marker, ls="-", c="C1",
                   label=f"flint nmod time / numba time ({family})")
        ax[1].plot(n, [r["numba_over_floor"] for r in rs], marker, ls="-", c="C0",
                   label=f"numba time / BLAS floor ({family})")
    ax[0].set(xscale="log", yscale="log", xlabel="n", ylabel="seconds",
              title=f"rank of G = (U U^T)^(Hadamard lambda) mod p = {P}")
    ax[1].set(xscale="log", yscale="log", xlabel="n", ylabel="ratio",
              title="speed-up over flint (higher is better); distance to floor (lower)")
    ax[1].axhline(5, c="C1", ls=":", lw=0.8)
    ax[1].axhline(2, c="C0", ls=":", lw=0.8)
    for a in ax:
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--max-n", type=int, default=7000)
    ap.add_argument("--fmpz-max-n", type=int, default=400)
    ap.add_argument("--sympy-max-n", type=int, default=300)
    ap.add_argument("--galois-max-n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    ap.add_argument("--tag", default="", help="suffix of the result files' names "
                    "(e.g. a run with another BLAS kernel: rank_engines-TAG.csv)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # warm the numba kernels so that compile time is not measured
    rank_profile_mod_p(gram_hadamard_mod_p_f64(np.array(omega_rows(3, 3, 2)), 3, P), P)
    rows = run(args)
    keys = sorted({k for r in rows for k in r})
    stem = "rank_engines" + (f"-{args.tag}" if args.tag else "")
    with open(out / f"{stem}.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    (out / f"{stem}.json").write_text(json.dumps(
        {"machine": machine(), "prime": P, "rows": rows}, indent=1) + "\n")
    plot(rows, out / f"{stem}.png")
    print(f"wrote {out}/{stem}.csv, .json, .png")


if __name__ == "__main__":
    main()
