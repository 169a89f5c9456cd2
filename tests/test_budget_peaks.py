"""Measured peaks stay within their estimates (issue 23 item 1).

Each computation runs in a fresh process under the probe of ``tests/budget_probe.py``:
inputs built and kernels warmed first, the peak resident size reset, the computation run,
the new peak read. The estimate that :mod:`seprank.budget` checks for the same computation
must be an upper bound on that peak, and not absurdly loose: peak <= estimate <= 20 peak
(a peak below 1 MiB counts as 1 MiB: what the interpreter's arenas move by itself).
The fast tier runs one size per route; ``--full`` adds larger ones.

Measured robustly (issue 31 item 5: ``sep grid`` failed at 126 MB against 71 MB on a
loaded machine, and passed alone). The peak is the child's own high-water mark
(``VmHWM`` after ``clear_refs``), less the library pages that other processes' memory
pressure evicted and the run faulted back in (``tests/budget_probe.py``). Other
processes can only add to a measurement, never take from the computation's own need, so
a case over its estimate is measured again, up to three times in all, and judged by its
smallest peak: a computation that truly needs more than its estimate fails every time.
"""

from __future__ import annotations

import pytest

from tests.budget_probe import measure, probe_available

pytestmark = pytest.mark.skipif(not probe_available(),
                                reason="needs Linux /proc/self/clear_refs to reset the peak")

_WARM = ("import numpy as np, seprank\n"
         "from seprank.separation import plan_separation, execute\n"
         "rng = np.random.default_rng(0)\n"
         "seprank.rank(np.eye(700, dtype=np.int64), 'modular', engine='numba')\n"
         "seprank.rank(np.eye(20, dtype=np.int64))\n")
_SEP_WARM = _WARM + ("seprank.separation_rank(2, 2, 1, route='grid')\n"
                     "seprank.separation_rank(1, 2, 1, route='coefficient')\n")


def _rank(n: int, r: int | None, method: str, extra: str = "") -> tuple[str, str, str]:
    make = (f"a = rng.integers(-3, 4, size=({n}, {n}))" if r is None else
            f"a = rng.integers(-3, 4, size=({n}, {r})) @ rng.integers(-3, 4, size=({r}, {n}))")
    run = f"seprank.rank(a, {method!r}{extra})"
    est = f"seprank.linalg.planner.plan_rank(a, {method!r}{extra}).estimate"
    if r is not None and method == "auto":  # the multimodular step, with the rank mod p
        est = (f"{est}.plus(seprank.linalg.estimates.multimodular_estimate(a.shape, {r}, "
               "seprank.linalg.estimates.entry_bits(a)))")
    if r is not None and method == "exact":
        est = (f"seprank.linalg.estimates.fmpz_estimate(a.shape, {r}, "
               "seprank.linalg.estimates.entry_bits(a))")
    return _WARM + make, run, est


def _sep(args: str) -> tuple[str, str, str]:
    return (_SEP_WARM + f"plan = plan_separation({args})", "execute(plan)",
            "plan.estimate.as_estimate(plan.route)")


CASES = {
    "rank modular numba": _rank(1500, None, "modular"),
    "rank modular flint": _rank(400, None, "modular", ", engine='flint'"),
    "rank auto multimodular": _rank(900, 60, "auto"),
    "rank exact fmpz": _rank(300, 50, "exact"),
    "rank float": _rank(800, None, "float"),
    "sep grid": _sep("3, 4, 2, route='grid'"),
    "sep coefficient": _sep("2, 4, 2, N=3, route='coefficient'"),
    "sep template-grid": _sep("2, 4, 2, templates=rng.integers(-3, 4, size=(30, 4))"),
    "vocabulary": (_WARM + "from seprank.models import SelfAttentionNetwork\n"
                   "from seprank.models.embedding import VocabularyEmbedding as E\n"
                   "from seprank.separation import embedded_separation_rank as emb_rank\n"
                   "from seprank.separation.embedding.route import vocabulary_estimate\n"
                   "emb_rank(SelfAttentionNetwork.random(1, 2, 1), E.random(2, 2, 2, 1))\n"
                   "net = SelfAttentionNetwork.random(1, 2, 1, seed=1, nonzero=True)\n"
                   "e = E.random(8, 2, 5, 2, 1, seed=2)",
                   "emb_rank(net, e)", "vocabulary_estimate(net, 8, 5)"),
    "hadamard mod p and float": (
        _WARM + "from seprank.constructions import omega_rows\n"
        "from seprank.hadamard.estimates import path_estimate\n"
        "seprank.hadamard_rank(omega_rows(2, 2, 2), 2)\nV = omega_rows(5, 8, 2)",
        "seprank.hadamard_rank(V, 8)",
        "path_estimate('mod_p', len(V), 5, 8, 2**8).plus(path_estimate('float', len(V), 5, 8, "
        "2**8))"),
    "lemma6": (_WARM + "from seprank.sweep.computations import lemma6_identity\n"
               "from seprank.constructions.lemma6 import lemma6_estimate\n"
               "lemma6_identity(depth=2, corrected=True)",
               "lemma6_identity(depth=3, half=40, corrected=True)",
               "lemma6_estimate(3, 1, 3, 2, 40)"),
}

def _verify(make: str) -> tuple[str, str, str]:
    return (_WARM + "from seprank.linalg.verifier.snapshot import read_claim\n"
            "from seprank.linalg.estimates import verify_estimate\n"
            "seprank.verify([[1, 2], [2, 4]], seprank.rank([[1, 2], [2, 4]], certify=True))\n"
            + make + "\nres = seprank.rank(a, certify=True)",
            "seprank.verify(a, res)", "verify_estimate(a, read_claim(res))")


CASES["verify full rank"] = _verify("a = rng.integers(-3, 4, size=(1200, 1200))")
CASES["verify zero"] = _verify("a = np.zeros((1500, 1200), dtype=np.int64)")

FULL_CASES = {
    "verify rank 100": _verify("a = rng.integers(-3, 4, size=(1200, 100)) @ "
                               "rng.integers(-3, 4, size=(100, 1200))"),
    "rank auto numba 3000": _rank(3000, None, "auto"),
    "rank auto multimodular 1500": _rank(1500, 100, "auto"),
    "sep grid N12": _sep("2, 2, 1, N=12, route='grid'"),
    "sep coefficient dx3": _sep("2, 3, 1, N=3, route='coefficient'"),
}


def _check(name: str, case: tuple[str, str, str]) -> None:
    r = measure(*case)
    for _ in range(2):                 # a loaded machine adds to a peak, never takes from it
        if r["peak"] <= r["estimate"]:
            break
        again = measure(*case)
        r = again if again["peak"] < r["peak"] else r
    peak = max(r["peak"], 2**20)
    assert r["peak"] <= r["estimate"], f"{name}: measured {r['peak']} > estimate {r['estimate']}"
    assert r["estimate"] <= 20 * peak, f"{name}: estimate {r['estimate']} > 20 x {peak}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_peak_within_estimate(name):
    _check(name, CASES[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FULL_CASES))
def test_peak_within_estimate_larger(name):
    _check(name, FULL_CASES[name])
