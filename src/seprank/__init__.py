"""seprank: exact checks of the separation-rank theory of self-attention.

Every number comes with its answer kind (``exact``, ``lower_bound``,
``upper_bound``, ``probabilistic`` or ``float_estimate``). The public jobs, each
with its command (``seprank COMMAND --help``):

Ranks and certificates
    :func:`seprank.rank` (planned by :func:`seprank.plan_rank`; ``seprank rank``);
    :func:`seprank.verify` re-checks a certificate with code that shares nothing
    with the engines (:mod:`seprank.linalg`).
Separation ranks
    :func:`seprank.separation_rank` of one output of a levine2020 eq. (3) network,
    i.e. ``execute(plan_separation(...))`` (:func:`seprank.plan_separation`, a typed
    :class:`~seprank.separation.SeparationRankResult`; ``seprank sep-rank``,
    ``seprank grid-rank``; :mod:`seprank.separation`).
Hadamard-power ranks
    :func:`seprank.hadamard_rank`: G = (V V^T)^(Hadamard lam) for any V, exactly,
    beside its float64 rank and the bound ((d, lam)) (``seprank hadamard-rank``).
Float64 against exact
    :mod:`seprank.float_vs_exact`: where numpy's float64 rank of such a G is wrong
    (``seprank float-vs-exact --out DIR``).
Proofs
    :mod:`seprank.proof`: the step-by-step checks of the papers' lemmas, with the
    claim's outcome, the strength of the evidence and the errata
    (``seprank prove``, ``seprank errata PAPER``, ``seprank papers``; the papers'
    own knowledge: :mod:`seprank.papers`).
Sweeps
    :mod:`seprank.sweep`: grids of computations on Dask with a resumable store
    (``seprank sweep SPEC``, ``seprank report STORE``).
Constructions
    :mod:`seprank.constructions` builds the papers' matrices; :mod:`seprank.tensors`
    holds grid tensors and the one matricization convention; :mod:`seprank.models`
    the analyzed network.
"""

# Before numpy is imported: on AMD Zen 5, which the OpenBLAS in numpy's wheels does not
# detect, let it use its AVX-512 kernels (1.7x faster products; seprank.runtime.openblas_kernels).
from seprank.runtime.openblas_kernels import choose_openblas_kernels  # noqa: E402
from seprank.runtime.package import VERSION as __version__  # noqa: E402

choose_openblas_kernels()

# Before any numba kernel is defined: compiled kernels go to a per-user cache folder,
# never into the installed package (see seprank.runtime.compiled_cache).
from seprank.runtime.compiled_cache import configure_numba_cache  # noqa: E402

configure_numba_cache()

# Modules that moved in the house's second step keep their old import paths, with a
# DeprecationWarning (seprank._moved).
from seprank._moved import install as _install_moved_names  # noqa: E402

_install_moved_names()

from seprank.linalg.certificates import (  # noqa: E402
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.frontdoor import rank  # noqa: E402
from seprank.linalg.planner import RankPlan, plan_rank  # noqa: E402
from seprank.linalg.result import RankResult  # noqa: E402
from seprank.linalg.verifier.verify import verify  # noqa: E402

#: attributes imported on first use, so that ``import seprank`` loads no SymPy, numba,
#: Dask, matplotlib or networkx (tests/test_import_light.py); name -> module
_LAZY = {"separation_rank": "seprank.separation", "plan_separation": "seprank.separation",
         "SeparationPlan": "seprank.separation",
         "SeparationRankResult": "seprank.separation",
         "hadamard_rank": "seprank.hadamard.rank",
         "HadamardRankResult": "seprank.hadamard.rank"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        try:
            value = getattr(importlib.import_module(_LAZY[name]), name)
        except ImportError as exc:
            raise AttributeError(f"seprank.{name} is not available: {exc}") from None
        globals()[name] = value
        return value
    raise AttributeError(f"module 'seprank' has no attribute {name!r}")


__all__ = [
    "rank",
    "plan_rank",
    "RankPlan",
    "verify",
    "separation_rank",
    "plan_separation",
    "SeparationPlan",
    "SeparationRankResult",
    "hadamard_rank",
    "HadamardRankResult",
    "RankResult",
    "RankCertificate",
    "LowerBoundCertificate",
    "UpperBoundCertificate",
    "__version__",
]
