"""Measure what the budgets assume: peak memory and seconds of each kind of work.

Runs each computation of :data:`CASES` in a fresh process under the memory probe of
``tests/budget_probe.py`` (peak RSS reset before the run) and prints, beside the
estimate of :mod:`seprank.budget` for the same computation: the measured peak, the
estimated peak and their ratio (the estimate must be above, and not 20 times above),
the measured seconds, the estimated seconds and their ratio. The rates of
:data:`seprank.budget.RATES` were set from its output (the slowest of three runs on
the 2-core machine at load 6-8, then halved); rerun it after changing an engine.

Usage::

    python benchmarks/budget_rates.py            # every case
    python benchmarks/budget_rates.py grid       # the cases whose name contains 'grid'
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from budget_probe import measure  # noqa: E402  (tests/ on the path above)

_ARRAY = ("import numpy as np, seprank\n"
          "rng = np.random.default_rng(0)\n"
          "seprank.rank(np.eye(700, dtype=np.int64), 'modular', engine='numba')\n"
          "seprank.rank(np.eye(20, dtype=np.int64))\n")

#: (name, setup, run, estimate)
CASES = [
    ("rank modular numba 2000", _ARRAY + "a = rng.integers(-3, 4, size=(2000, 2000))",
     "seprank.rank(a, 'modular')", "seprank.linalg.planner.plan_rank(a, 'modular').estimate"),
    ("rank auto numba 3000", _ARRAY + "a = rng.integers(-3, 4, size=(3000, 3000))",
     "seprank.rank(a)", "seprank.linalg.planner.plan_rank(a).estimate"),
    ("rank modular flint 500", _ARRAY + "a = rng.integers(-3, 4, size=(500, 500))",
     "seprank.rank(a, 'modular', engine='flint')",
     "seprank.linalg.planner.plan_rank(a, 'modular', engine='flint').estimate"),
    ("rank float 1000", _ARRAY + "a = rng.integers(-3, 4, size=(1000, 1000))",
     "seprank.rank(a, 'float')", "seprank.linalg.planner.plan_rank(a, 'float').estimate"),
    ("rank exact rank-deficient 500", _ARRAY + "a = rng.integers(-3, 4, size=(500, 80)) @ "
     "rng.integers(-3, 4, size=(80, 500))", "seprank.rank(a, 'exact')",
     "seprank.linalg.estimates.fmpz_estimate(a.shape, 80, "
     "seprank.linalg.estimates.entry_bits(a))"),
    ("rank multimodular 1500 r 100", _ARRAY + "a = rng.integers(-3, 4, size=(1500, 100)) @ "
     "rng.integers(-3, 4, size=(100, 1500))", "seprank.rank(a)",
     "seprank.linalg.estimates.multimodular_estimate(a.shape, 100, "
     "seprank.linalg.estimates.entry_bits(a)).plus(seprank.linalg.planner.plan_rank(a)"
     ".estimate)"),
    ("sep grid L3 dx4 H2", "import seprank\nseprank.separation_rank(2, 2, 1, route='grid')\n"
     "from seprank.separation import plan_separation\n"
     "plan = plan_separation(3, 4, 2, route='grid')", "seprank.separation.execute(plan)",
     "plan.estimate.as_estimate('grid')"),
    ("sep grid L2 dx2 N12", "import seprank\nseprank.separation_rank(2, 2, 1, route='grid')\n"
     "from seprank.separation import plan_separation\n"
     "plan = plan_separation(2, 2, 1, N=12, route='grid')", "seprank.separation.execute(plan)",
     "plan.estimate.as_estimate('grid')"),
    ("sep coefficient L2 dx4 H2 N3", "import seprank\nseprank.separation_rank(1, 2, 1)\n"
     "from seprank.separation import plan_separation\n"
     "plan = plan_separation(2, 4, 2, N=3, route='coefficient')",
     "seprank.separation.execute(plan)", "plan.estimate.as_estimate('coefficient')"),
    ("sep coefficient L2 dx3 N2", "import seprank\nseprank.separation_rank(1, 2, 1)\n"
     "from seprank.separation import plan_separation\n"
     "plan = plan_separation(2, 3, 1, N=2, route='coefficient')",
     "seprank.separation.execute(plan)", "plan.estimate.as_estimate('coefficient')"),
    ("template grid L2 dx4 M30", "import seprank, numpy as np\n"
     "seprank.separation_rank(1, 1, 1, templates=[[1], [2], [3], [4]])\n"
     "from seprank.separation import plan_separation\n"
     "T = np.random.default_rng(1).integers(-3, 4, size=(30, 4))\n"
     "plan = plan_separation(2, 4, 2, templates=T)", "seprank.separation.execute(plan)",
     "plan.estimate.as_estimate('template-grid')"),
    ("vocabulary V8 N5", "import seprank.separation\n"
     "from seprank.models import SelfAttentionNetwork\n"
     "from seprank.models.embedding import VocabularyEmbedding as E\n"
     "seprank.separation.embedded_separation_rank(SelfAttentionNetwork.random(1, 2, 1), "
     "E.random(2, 2, 2, 1))\n"
     "from seprank.models.embedding import VocabularyEmbedding\n"
     "from seprank.separation.embedding.route import vocabulary_estimate\n"
     "net = SelfAttentionNetwork.random(1, 2, 1, seed=1, nonzero=True)\n"
     "emb = VocabularyEmbedding.random(8, 2, 5, 2, 1, seed=2)",
     "seprank.separation.embedded_separation_rank(net, emb)",
     "vocabulary_estimate(net, 8, 5)"),
]


def main(argv: list[str]) -> int:
    pick = argv[0] if argv else ""
    print(f"{'case':34} {'peak MB':>8} {'est MB':>8} {'est/peak':>8} {'s':>7} {'est s':>7} "
          f"{'est/s':>6}")
    for name, setup, run, est in CASES:
        if pick not in name:
            continue
        r = measure(setup, run, est)
        mb = 2**20
        print(f"{name:34} {r['peak'] / mb:8.1f} {r['estimate'] / mb:8.1f} "
              f"{r['estimate'] / max(r['peak'], 1):8.2f} {r['seconds']:7.2f} "
              f"{r['estimate_seconds']:7.2f} {r['estimate_seconds'] / r['seconds']:6.2f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
