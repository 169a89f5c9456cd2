"""GPU benchmark: the CUDA engine on the Omega Gram matrices, device-resident.

Run:  python benchmarks/gpu.py [--max-n 48620] [--out benchmarks/results]

For lambda = 9 and d = 2..10 (n = ((d, 9)) = 10, 55, 220, 715, 2002, 5005,
11440, 24310, 48620; cases above --max-n are skipped) it builds
G = (U U^T)^(Hadamard 9) mod p, U = Omega^q rows with Omega = 2, p = 1048573,
on the device (seprank.linalg.engines.cuda_engine.gram_hadamard_mod_p_device) and
takes its rank with rank_profile_mod_p_cuda(G, p, overwrite=True): G is never
copied to the host. Timed separately, after a warm-up run that compiles the
kernels (each timing ends with cuda.synchronize()):

* transfer_in_s: host -> device copy of U mod p (n x d float64), the only input;
* build_s: the device builder (includes its own copy of U);
* elim_s: the elimination (rank, pivot rows, column rank profile; includes the
  one validation/reduction pass over G and the download of the pivots);
* transfer_out_s: device -> host copy of the answer (rows and columns);
* g_download_s: a device -> host copy of G, for scale only: what a host-built
  G would cost to move, which the device pipeline avoids (n <= --download-max-n).

Reference rates measured in the same run, on the same device:

* modular GEMM: the engine's own trailing-update kernel (C <- C - L U mod p,
  C --gemm-size square, inner dimension --gemm-k), via time_modular_gemm;
* plain float64 GEMM with the same tiling in numba (C = A B, --gemm-size square);
* cuBLAS DGEMM through CuPy, if CuPy is installed (else recorded as absent).

Elimination is reported as an equivalent rate (4/3) n^3 / elim_s (the flop
count of LU of a full-rank n x n matrix) and as fractions of those rates.
For n <= --check-max-n the answer is checked against the CPU engine
(seprank.linalg.engines.modular_lu.rank_profile_mod_p on gram_hadamard_mod_p_f64).

Outputs in --out: gpu.json (machine, device, rates, rows), gpu.csv, gpu.md.
Without a GPU it prints one line and exits with status 2. Under numba's
simulator (NUMBA_ENABLE_CUDASIM=1) it runs end to end with tiny sizes, as a
smoke test; its timings are meaningless and are marked as simulator output.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import platform
import sys
import time
from dataclasses import asdict
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import numpy as np

from seprank.combinatorics import multiset
from seprank.linalg.engines import cuda_engine as ce

P = 1048573
LAM = 9
DS = list(range(2, 11))  # n = ((d, 9)) up to 48620 at d = 10
COLUMNS = ["d", "lam", "n", "prime", "rank", "transfer_in_s", "build_s", "elim_s",
           "transfer_out_s", "g_download_s", "elim_gflops_equiv", "elim_over_modular_gemm",
           "elim_over_plain_gemm", "elim_over_cublas", "checked_against_cpu", "cpu_s"]

cuda = None  # numba.cuda, bound in main() (kernels need it as a global named cuda)

# tiling of the plain float64 GEMM (the engine's default: 16 x 16 threads, 4 x 4 each)
TT, TR, TK = 16, 4, 16


def _plain_gemm_kernel(tt: int, tr: int, tk: int):
    from numba import float64

    bm = tt * tr
    nt = tt * tt

    @cuda.jit
    def gemm(A, B, C):
        n = C.shape[0]
        As = cuda.shared.array((bm, tk), dtype=float64)
        Bs = cuda.shared.array((tk, bm), dtype=float64)
        acc = cuda.local.array((tr, tr), dtype=float64)
        av = cuda.local.array(tr, dtype=float64)
        bv = cuda.local.array(tr, dtype=float64)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        tid = ty * tt + tx
        bi = cuda.blockIdx.y * bm
        bj = cuda.blockIdx.x * bm
        for a in range(tr):
            for b in range(tr):
                acc[a, b] = 0.0
        for k0 in range(0, n, tk):
            for e in range(tid, bm * tk, nt):
                ii = e // tk
                kk = e - ii * tk
                i = bi + ii
                k = k0 + kk
                As[ii, kk] = A[i, k] if (i < n and k < n) else 0.0
            for e in range(tid, tk * bm, nt):
                kk = e // bm
                jj = e - kk * bm
                k = k0 + kk
                j = bj + jj
                Bs[kk, jj] = B[k, j] if (k < n and j < n) else 0.0
            cuda.syncthreads()
            for kk in range(min(tk, n - k0)):
                for a in range(tr):
                    av[a] = As[ty + tt * a, kk]
                for b in range(tr):
                    bv[b] = Bs[kk, tx + tt * b]
                for a in range(tr):
                    for b in range(tr):
                        acc[a, b] += av[a] * bv[b]
            cuda.syncthreads()
        for a in range(tr):
            i = bi + ty + tt * a
            for b in range(tr):
                j = bj + tx + tt * b
                if i < n and j < n:
                    C[i, j] = acc[a, b]

    return gemm, bm


def timed(fn, repeat=1):
    best, out = float("inf"), None
    for _ in range(repeat):
        cuda.synchronize()
        t = time.perf_counter()
        out = fn()
        cuda.synchronize()
        best = min(best, time.perf_counter() - t)
    return out, best


def plain_gemm_rate(size: int, launch: ce.LaunchConfig) -> float:
    gemm, bm = _plain_gemm_kernel(launch.tile_threads, launch.tile_regs, launch.tile_k)
    rng = np.random.default_rng(0)
    A = cuda.to_device(rng.random((size, size)))
    B = cuda.to_device(rng.random((size, size)))
    C = cuda.device_array((size, size), dtype=np.float64)
    grid = (-(-size // bm), -(-size // bm))
    block = (launch.tile_threads, launch.tile_threads)
    gemm[grid, block](A, B, C)  # compile
    _, t = timed(lambda: gemm[grid, block](A, B, C), repeat=3)
    host = C.copy_to_host()
    ref = A.copy_to_host() @ B.copy_to_host()
    assert np.allclose(host, ref), "plain GEMM kernel is wrong"
    return 2 * size**3 / t


def cublas_rate(size: int) -> float | None:
    try:
        import cupy
    except ImportError:
        return None
    a = cupy.random.random((size, size))
    b = cupy.random.random((size, size))
    a @ b
    cupy.cuda.Device().synchronize()
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        a @ b
        cupy.cuda.Device().synchronize()
        best = min(best, time.perf_counter() - t)
    return 2 * size**3 / best


def machine(info: dict) -> dict:
    out = {"platform": platform.platform(), "cpu_count": os.cpu_count(),
           "python": sys.version.split()[0], "numpy": np.__version__,
           "numba": metadata.version("numba"), "gpu": info,
           "date": datetime.now(UTC).isoformat(timespec="seconds")}
    try:
        out["cuda_driver_version"] = list(cuda.cudadrv.driver.driver.get_version())
    except Exception:  # noqa: BLE001 - not in the simulator / older numba-cuda
        out["cuda_driver_version"] = None
    try:
        import cupy

        out["cupy"] = cupy.__version__
    except ImportError:
        out["cupy"] = None
    return out


def run_case(d: int, args, launch, rates) -> dict:
    from seprank.constructions.omega import omega_rows_mod_p

    n = multiset(d, LAM)
    U = omega_rows_mod_p(d, LAM, 2, args.prime)
    row = {"d": d, "lam": LAM, "n": n, "prime": args.prime}
    _, row["transfer_in_s"] = timed(lambda: cuda.to_device(U.astype(np.float64)))
    G, row["build_s"] = timed(lambda: ce.gram_hadamard_mod_p_device(U, LAM, args.prime,
                                                                    launch=launch))
    G_host = None
    if n <= args.download_max_n or n <= args.check_max_n:
        G_host, row["g_download_s"] = timed(lambda: G.copy_to_host())
    else:
        row["g_download_s"] = None
    (r, rows, cols), row["elim_s"] = timed(
        lambda: ce.rank_profile_mod_p_cuda(G, args.prime, block=args.block, overwrite=True,
                                           launch=launch))
    row["rank"] = r
    # the answer's own download happened inside elim_s; time the same copy alone
    ans = cuda.to_device(np.array([rows, cols], dtype=np.int64).reshape(2, -1))
    _, row["transfer_out_s"] = timed(lambda: ans.copy_to_host())
    flops = 4 / 3 * n**3
    row["elim_gflops_equiv"] = flops / row["elim_s"] / 1e9
    row["elim_over_modular_gemm"] = flops / row["elim_s"] / rates["modular_gemm_flops"]
    row["elim_over_plain_gemm"] = flops / row["elim_s"] / rates["plain_gemm_flops"]
    row["elim_over_cublas"] = (flops / row["elim_s"] / rates["cublas_flops"]
                               if rates["cublas_flops"] else None)
    if G_host is not None and n <= args.check_max_n:
        from seprank.constructions.builders import gram_hadamard_mod_p_f64
        from seprank.linalg.engines.modular_lu import rank_profile_mod_p

        G_cpu = gram_hadamard_mod_p_f64(U, LAM, args.prime)
        assert np.array_equal(G_host, G_cpu), f"device builder differs at d={d}"
        t = time.perf_counter()
        r_cpu, _, cols_cpu = rank_profile_mod_p(G_cpu, args.prime)
        row["cpu_s"] = time.perf_counter() - t
        assert (r, cols) == (r_cpu, cols_cpu), f"CUDA and CPU engines differ at d={d}"
        row["checked_against_cpu"] = True
    else:
        row["checked_against_cpu"] = False
        row["cpu_s"] = None
    return row


def fmt(x, digits=3) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def write_md(path: Path, meta: dict, rows: list[dict]) -> None:
    gpu = meta["machine"]["gpu"]
    lines = ["# GPU benchmark: CUDA engine on the Omega Gram matrices (lambda = 9)", ""]
    if gpu.get("simulator"):
        lines += ["**SIMULATOR RUN (NUMBA_ENABLE_CUDASIM=1): a smoke test; the timings "
                  "below say nothing about a GPU.**", ""]
    lines += [f"Device: {gpu.get('name')} (compute capability {gpu.get('compute_capability')}, "
              f"{fmt((gpu.get('total_memory_bytes') or 0) / 2**30)} GiB), numba-cuda "
              f"{gpu.get('numba_cuda')}, date {meta['machine']['date']}.", "",
              f"Command: `{meta['command']}`", "",
              f"Reference rates: engine's modular GEMM kernel "
              f"{fmt(meta['rates']['modular_gemm_flops'] / 1e9)} GFLOP/s "
              f"(C {meta['rates']['gemm_size']} square, k = {meta['rates']['gemm_k']}); "
              f"plain float64 numba GEMM {fmt(meta['rates']['plain_gemm_flops'] / 1e9)} GFLOP/s; "
              f"cuBLAS DGEMM (CuPy) "
              + (f"{fmt(meta['rates']['cublas_flops'] / 1e9)} GFLOP/s."
                 if meta["rates"]["cublas_flops"] else "not measured (CuPy not installed)."),
              "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        lines.append("| " + " | ".join(fmt(r.get(c)) for c in COLUMNS) + " |")
    lines += ["", "elim_gflops_equiv = (4/3) n^3 / elim_s; elim_over_* = that rate over the "
              "reference rate. Times in seconds, best of one run after a warm-up.", ""]
    path.write_text("\n".join(lines))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-n", type=int, default=48620)
    ap.add_argument("--prime", type=int, default=P)
    ap.add_argument("--block", type=int, default=ce.DEFAULT_BLOCK)
    ap.add_argument("--gemm-size", type=int, default=None,
                    help="side of the reference GEMMs (default 8192; 16 in the simulator)")
    ap.add_argument("--gemm-k", type=int, default=None,
                    help="inner dimension of the modular GEMM (default 1024; 8 simulated)")
    ap.add_argument("--check-max-n", type=int, default=5005)
    ap.add_argument("--download-max-n", type=int, default=48620)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args(argv)

    global cuda
    if importlib.util.find_spec("numba_cuda") is None:
        print("gpu.py: numba-cuda is not installed (pip install 'seprank[cuda]'); this "
              "benchmark needs a CUDA GPU", file=sys.stderr)
        return 2
    if not ce.cuda_available():
        print("gpu.py: no CUDA GPU available (numba-cuda found no usable device); run it on a "
              "GPU machine, or with NUMBA_ENABLE_CUDASIM=1 for a simulator smoke test",
              file=sys.stderr)
        return 2
    cuda = ce._load_cuda()
    info = ce.gpu_info()
    sim = info["simulator"]
    if sim:
        sys.setswitchinterval(2e-4)  # the simulator busy-polls its Python threads
    launch = ce.default_launch()
    size = args.gemm_size or (16 if sim else 8192)
    k = args.gemm_k or (8 if sim else 1024)
    print(f"device: {info.get('name')}  (simulator: {sim})", flush=True)

    # warm-up: compile every kernel on a small case
    U = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]], dtype=np.int64)
    ce.rank_profile_mod_p_cuda(ce.gram_hadamard_mod_p_device(U, 2, args.prime), args.prime,
                               block=args.block, overwrite=True)
    t_mod = ce.time_modular_gemm(size, k, args.prime, launch=launch)
    rates = {"gemm_size": size, "gemm_k": k,
             "modular_gemm_s": t_mod, "modular_gemm_flops": 2 * size * size * k / t_mod,
             "plain_gemm_flops": plain_gemm_rate(size, launch),
             "cublas_flops": None if sim else cublas_rate(size)}
    cublas = "-" if not rates["cublas_flops"] else f"{rates['cublas_flops'] / 1e9:.1f}"
    print(f"modular GEMM {rates['modular_gemm_flops'] / 1e9:.1f} GFLOP/s, plain float64 GEMM "
          f"{rates['plain_gemm_flops'] / 1e9:.1f} GFLOP/s, cuBLAS {cublas} GFLOP/s", flush=True)

    rows = []
    for d in DS:
        n = multiset(d, LAM)
        if n > args.max_n:
            continue
        row = run_case(d, args, launch, rates)
        rows.append(row)
        print(f"d={d:2d} n={n:6d} rank={row['rank']:6d}  build {row['build_s']:8.3f}s  "
              f"elim {row['elim_s']:9.3f}s  ({row['elim_gflops_equiv']:8.1f} GFLOP/s equiv, "
              f"{row['elim_over_modular_gemm']:.2f} of modular GEMM)", flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"machine": machine(info), "prime": args.prime, "lambda": LAM, "omega": 2,
            "block": args.block, "launch": asdict(launch),
            "rates": rates, "simulator": sim,
            "command": "python benchmarks/gpu.py " + " ".join(
                sys.argv[1:] if argv is None else argv)}
    (out / "gpu.json").write_text(json.dumps({**meta, "rows": rows}, indent=1,
                                             default=str) + "\n")
    with open(out / "gpu.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows({c: r.get(c) for c in COLUMNS} for r in rows)
    write_md(out / "gpu.md", meta, rows)
    print(f"wrote {out}/gpu.json, gpu.csv, gpu.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
