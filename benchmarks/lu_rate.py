"""The numba LU's rate against the short side, at the engine's own primes.

    python benchmarks/lu_rate.py                 # short sides 500 .. 11440, two runs each
    python benchmarks/lu_rate.py --sides 2000,11440 --repeats 3

For each short side n: a random m x n matrix mod a prime of [2^19, 2^20) (the numba
engine's fast range, what the moment route asks), m = n + 3% (a catalecticant row subset
is a little taller than its cap, as block 7 of L = 3, d_x = 4: 11783 x 11440), ranked by
``rank_profile_mod_p`` (the numba blocked LU) and, up to n = 4000, by python-flint's
``nmod_mat.rank`` (the peer) on the same matrix. The rate is m n min(m, n) multiply-adds a
second (what :func:`seprank.linalg.estimates.lu_rank_work` counts); the fastest of the
runs, and the load average before each. :data:`seprank.budget.RATES` (``lu_small``,
``lu``, ``lu_large``) are set from these rates (see there).

Rank-deficient rows (``--deficient``, default 4000 and 11440): the same shapes with rank
n/4 and n/2 (a product of random m x r and r x n matrices with entries 0..3), to measure
how the time falls with the rank (the column-recursive LU eliminates only the pivots it
finds, but reads and reduces every column): :data:`seprank.linalg.estimates.
LU_FIXED_SHARE` is the largest share of the full-rank time that a rank-deficient run took
beyond its rank's proportional share.

Results: ``benchmarks/results/lu_rate.json``, ``.md`` and ``.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "results"
SIDES = (500, 1000, 2000, 4000, 6000, 8000, 11440)
FLINT_MAX = 4000


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def measure(n: int, repeats: int, p: int, rank: int | None = None) -> dict:
    import flint

    from seprank.linalg.engines.modular_lu import rank_profile_mod_p

    m = n + max(1, (3 * n) // 100)
    rng = np.random.default_rng(n)
    if rank is None:
        A = rng.integers(0, p, size=(m, n))
    else:
        # float64 BLAS: entries <= 9 rank < 2^53, exact
        A = (rng.integers(0, 4, size=(m, rank)).astype(np.float64)
             @ rng.integers(0, 4, size=(rank, n)).astype(np.float64)).astype(np.int64) % p
    runs = []
    for _ in range(repeats):
        load = _load()
        t0 = time.perf_counter()
        r, _, _ = rank_profile_mod_p(A.astype(np.float64), p)
        runs.append({"seconds": round(time.perf_counter() - t0, 3), "load": load})
    best = min(x["seconds"] for x in runs)
    if rank is not None:
        assert r == rank, (r, rank)
        return {"short": n, "shape": [m, n], "prime": p, "rank": int(r), "runs": runs,
                "best_s": best}
    row = {"short": n, "shape": [m, n], "prime": p, "rank": int(r), "runs": runs,
           "best_s": best, "rate": float(f"{m * n * n / best:.3g}")}
    if n <= FLINT_MAX:
        M = flint.nmod_mat(m, n, A.ravel().tolist(), p)
        t0 = time.perf_counter()
        r2 = M.rank()
        row["flint_nmod_s"] = round(time.perf_counter() - t0, 3)
        row["flint_over_lu"] = round(row["flint_nmod_s"] / best, 2)
        assert r2 == r, (r2, r)
    return row


def _table(header: list[str], rows: list[dict], cells) -> list[str]:
    """A Markdown table: ``cells(row)`` gives a row's cells before the seconds of its runs
    and the load before each, which close every row."""
    out = ["| " + " | ".join(header + ["seconds (runs)", "load before each run"]) + " |",
           "|" + "---|" * (len(header) + 2)]
    for r in rows:
        runs = ", ".join(str(x["seconds"]) for x in r["runs"])
        loads = "; ".join(str(x["load"][0]) for x in r["runs"])
        out.append("| " + " | ".join([*map(str, cells(r)), runs, loads]) + " |")
    return out


def _md(res: dict) -> str:
    out = ["# The numba LU's rate against the short side (mod a prime of [2^19, 2^20))", "",
           f"Generated {res['generated']} on {res['machine']} ({res['cores']} cores), "
           f"load {res['load_start']} at the start, {res['load_end']} at the end. "
           "Rate: m n min(m, n) multiply-adds a second, the fastest of the runs. Peer: "
           "python-flint's `nmod_mat.rank` on the same matrix (up to n = 4000).", ""]
    out += _table(["short side", "shape", "rank", "rate", "flint s", "flint / LU"],
                  res["rows"], lambda r: [r["short"], f"{r['shape'][0]} x {r['shape'][1]}",
                                          r["rank"], f"{r['rate']:.3g}",
                                          r.get("flint_nmod_s", "-"),
                                          r.get("flint_over_lu", "-")])
    if res.get("deficient"):
        out += ["", "Rank-deficient matrices, same shapes: the time against the full-rank time "
                "(fastest runs), and the share beyond the rank's own share r / n "
                "((t_r / t_n - r / n) / (1 - r / n), the fixed part).", ""]
        out += _table(["short side", "rank", "t_r / t_n", "r / n", "fixed share"],
                      res["deficient"], lambda r: [r["short"], r["rank"], r["time_share"],
                                                   r["rank_share"], r["fixed_share"]])
    return "\n".join(out) + "\n"


def _plot(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from seprank.budget import RATES
    from seprank.linalg.estimates import lu_rank_work

    xs = [r["short"] for r in res["rows"]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(xs, [r["rate"] for r in res["rows"]], "o-", label="measured (fastest run)")
    model = []
    for n in xs:
        m = n + max(1, (3 * n) // 100)
        work = lu_rank_work(m, n)
        model.append(m * n * n / sum(o / RATES[k].per_second for o, k in work))
    ax.plot(xs, model, "s--", label="the estimate's rate (seprank.budget.RATES)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("short side n (matrix (1.03 n) x n)")
    ax.set_ylabel("multiply-adds mod p per second")
    ax.set_title("numba LU mod p < 2^20")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sides", default=",".join(map(str, SIDES)))
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--deficient", default="4000,11440",
                    help="short sides also ranked at rank n/4 and n/2 ('' for none)")
    args = ap.parse_args()
    from seprank.linalg.engines.modular_lu import rank_profile_mod_p
    from seprank.linalg.modarith import random_prime

    rank_profile_mod_p(np.eye(8, dtype=np.int64).astype(np.float64), 101)   # compile first
    p = random_prime(2**19, 2**20, random.Random(0))
    res = {"generated": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.processor()
           or platform.machine(), "cores": os.cpu_count(), "load_start": _load(), "rows": []}
    for n in (int(s) for s in args.sides.split(",")):
        res["rows"].append(measure(n, args.repeats, p))
        print(json.dumps(res["rows"][-1]), flush=True)
    full = {r["short"]: r["best_s"] for r in res["rows"]}
    res["deficient"] = []
    for n in (int(s) for s in args.deficient.split(",") if s):
        for share in (4, 2):
            row = measure(n, args.repeats, p, rank=n // share)
            if n not in full:
                full[n] = measure(n, args.repeats, p)["best_s"]
            t, q = row["best_s"] / full[n], (n // share) / n
            row.update(time_share=round(t, 3), rank_share=round(q, 3),
                       fixed_share=round((t - q) / (1 - q), 3))
            res["deficient"].append(row)
            print(json.dumps(row), flush=True)
    res["load_end"] = _load()
    OUT.mkdir(exist_ok=True)
    (OUT / "lu_rate.json").write_text(json.dumps(res, indent=1) + "\n")
    (OUT / "lu_rate.md").write_text(_md(res))
    _plot(res, OUT / "lu_rate.png")


if __name__ == "__main__":
    main()
