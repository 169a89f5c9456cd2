"""Benchmark: the cost of ``seprank.verify`` against the cost of the certificate it checks.

Run:  python benchmarks/verify_cost.py [--quick] [--repeat K] [--out benchmarks/results]

Issue 12 asks that checking a certificate take at most 3x the time it took to
compute it. For each input below, in one process, the best of ``--repeat``
runs of

* ``seprank.rank(M, certify=True)`` (``auto``; the certificate's cost), and
* ``seprank.verify(M, result)`` (reads the matrix itself, checks the minor
  mod p by its own elimination and the kernel vectors by an exact product),

and their ratio (runs stop once 10 s are spent on one timing). Inputs, n x n:

* ``small-full``: random entries in [-3, 3] (full rank: a minor only);
* ``small-deficient``: a product of random n x (n - 5) and (n - 5) x n factors
  with entries in [-3, 3] (rank n - 5: minor and 5 kernel vectors; n <= 2000);
* ``residues-full``: a ResidueMatrix mod 1048573 (over GF(p): minor only);
* ``big-full``: entries of 200 bits, as an ``fmpz_mat`` (full rank);
* ``fmpz-full``: the small-full matrix given as an ``fmpz_mat``.

Results: verify_cost.{csv,json,png} in --out, with the machine.
"""

from __future__ import annotations

from seprank.runtime.openblas_kernels import choose_openblas_kernels

# before numpy loads OpenBLAS: its AVX-512 kernels on AMD Zen 5 (seprank.runtime.openblas_kernels)
choose_openblas_kernels()

import argparse  # noqa: E402
import csv  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from pathlib import Path  # noqa: E402

import flint  # noqa: E402
import numpy as np  # noqa: E402

import seprank  # noqa: E402
from seprank.linalg.residues import ResidueMatrix  # noqa: E402

P = 1048573
SIZES = (500, 1000, 2000, 3000)
QUICK_SIZES = (300, 1000)


def inputs(n: int, rng: np.random.Generator):
    """(name, matrix, expected rank) for size n."""
    a = rng.integers(-3, 4, size=(n, n))
    yield "small-full", a, n
    if n <= 2000:  # at 3000: 78 s to certify, 132 s to verify (ratio 1.68, 2026-11-23)
        k = n - 5
        d = rng.integers(-3, 4, size=(n, k)) @ rng.integers(-3, 4, size=(k, n))
        yield "small-deficient", d, k
    yield "residues-full", ResidueMatrix(rng.integers(0, P, size=(n, n)), P), n
    if n <= 2000:
        big = [[int.from_bytes(rng.bytes(25), "little") - 2**199 for _ in range(n)]
               for _ in range(n)]
        yield "big-full", flint.fmpz_mat(big), n
    yield "fmpz-full", flint.fmpz_mat(a.tolist()), n


def best(fn, repeat: int, budget: float = 10.0):
    """(result, best time) of up to ``repeat`` runs; no further run once ``budget``
    seconds have been spent (the multimodular certificates at n >= 2000)."""
    out, t, spent = None, float("inf"), 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        t, spent = min(t, dt), spent + dt
        if spent > budget:
            break
    return out, t


def run(sizes, repeat: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    seprank.rank(rng.integers(-3, 4, size=(700, 700)), certify=True)  # compile, warm
    rows = []
    for n in sizes:
        for name, m, expected in inputs(n, rng):
            res, t_cert = best(lambda m=m: seprank.rank(m, certify=True), repeat)
            ok, t_ver = best(lambda m=m, res=res: seprank.verify(m, res), repeat)
            assert res.value == expected and ok, (name, n, res.value, expected, ok)
            rows.append({"input": name, "n": n, "rank": res.value, "kind": res.kind,
                         "method": res.method, "prime": res.certificate.lower.prime,
                         "kernel_vectors": len(res.certificate.upper.vectors)
                         if res.certificate.upper is not None else 0,
                         "certify_s": t_cert, "verify_s": t_ver,
                         "verify_over_certify": t_ver / t_cert})
            print(f"{name:16s} n={n:5d} rank {res.value:5d} {res.method:13s} certify "
                  f"{t_cert:7.3f}s verify {t_ver:7.3f}s ratio {t_ver / t_cert:5.2f}",
                  flush=True)
    return rows


def machine() -> dict:
    from threadpoolctl import threadpool_info

    return {"platform": platform.platform(), "cpu_count": os.cpu_count(),
            "numpy": np.__version__, "python-flint": flint.__version__,
            "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
            "blas": [{k: i.get(k) for k in ("internal_api", "version", "architecture")}
                     for i in threadpool_info()],
            "loadavg_at_end": os.getloadavg(),
            "date": datetime.now(UTC).isoformat(timespec="seconds")}


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, name in enumerate(sorted({r["input"] for r in rows})):
        rs = sorted((r for r in rows if r["input"] == name), key=lambda r: r["n"])
        ax.plot([r["n"] for r in rs], [r["verify_over_certify"] for r in rs], "o-",
                c=f"C{i}", label=name)
    ax.axhline(3, c="k", ls=":", lw=1, label="target: 3x")
    ax.set(xscale="log", xlabel="n", ylabel="verify time / certify time",
           title="seprank.verify against seprank.rank(certify=True)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = run(QUICK_SIZES if args.quick else SIZES, args.repeat, args.seed)
    with open(out / "verify_cost.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (out / "verify_cost.json").write_text(json.dumps(
        {"machine": machine(), "rows": rows}, indent=1) + "\n")
    plot(rows, out / "verify_cost.png")
    print(f"wrote {out}/verify_cost.csv, .json, .png")


if __name__ == "__main__":
    main()
