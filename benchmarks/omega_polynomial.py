"""Timing of det A(Omega) as an exact integer polynomial (levine2020 B.2, l.714-718).

    python benchmarks/omega_polynomial.py             # about 30 s on 2 shared cores
    python benchmarks/omega_polynomial.py --repeat 3  # best of 3

For each (d, lambda): n = ((d, lambda)) (the size of A(Omega)), the degree of
det A(Omega), and the seconds of
:func:`seprank.papers.levine2020.omega_polynomial.omega_det_polynomial` (Kronecker
substitution: one exact ``fmpz_mat`` determinant), best of ``--repeat`` runs.
Single measurements on a machine whose cores may be shared with other jobs (the
load average is printed): treat them as upper bounds. Prints a Markdown table;
writes nothing.
"""

from __future__ import annotations

import argparse
import os
import time

from seprank.combinatorics import multiset
from seprank.papers.levine2020.omega_polynomial import omega_det_polynomial

#: (d, lambda): n = 35, 35, 56, 56, 55
CASES = [(5, 3), (4, 4), (6, 3), (4, 5), (3, 9)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}, CPUs: {os.cpu_count()}")
    print("| d | lambda | n | degree | seconds |")
    print("|---|---|---|---|---|")
    for d, lam in CASES:
        best, poly = None, None
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            poly = omega_det_polynomial(d, lam)
            seconds = time.perf_counter() - t0
            best = seconds if best is None else min(best, seconds)
        print(f"| {d} | {lam} | {multiset(d, lam)} | {poly.degree()} | {best:.3f} |")


if __name__ == "__main__":
    main()
