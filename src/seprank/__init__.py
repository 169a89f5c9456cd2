"""seprank: exact checks of the separation-rank theory of self-attention.

The front door for ranks is :func:`seprank.rank`; every answer carries its kind
(``exact``, ``lower_bound``, ``upper_bound``, ``probabilistic`` or
``float_estimate``). :func:`seprank.verify` re-checks a certificate with code
that shares nothing with the engines. :func:`seprank.hadamard_rank` ranks
G = (V V^T)^(Hadamard lam) for any V exactly, beside its float64 rank and the
bound ((d, lam)); :mod:`seprank.constructions` builds the papers' matrices.
"""

__version__ = "0.1.0"

# Before numpy is imported: on AMD Zen 5, which the OpenBLAS in numpy's wheels does not
# detect, let it use its AVX-512 kernels (1.7x faster products; seprank.openblas_kernels).
from seprank.openblas_kernels import choose_openblas_kernels  # noqa: E402

choose_openblas_kernels()

# Before any numba kernel is defined: compiled kernels go to a per-user cache folder,
# never into the installed package (see seprank.compiled_cache).
from seprank.compiled_cache import configure_numba_cache  # noqa: E402

configure_numba_cache()

from seprank.linalg.certificates import (  # noqa: E402
    LowerBoundCertificate,
    RankCertificate,
    UpperBoundCertificate,
)
from seprank.linalg.frontdoor import rank  # noqa: E402
from seprank.linalg.planner import RankPlan, plan_rank  # noqa: E402
from seprank.linalg.result import RankResult  # noqa: E402
from seprank.linalg.verify import verify  # noqa: E402

#: attributes imported on first use, so that ``import seprank`` loads no SymPy, numba,
#: Dask, matplotlib or networkx (tests/test_import_light.py); name -> module
_LAZY = {"separation_rank": "seprank.separation", "plan_separation": "seprank.separation",
         "SeparationPlan": "seprank.separation",
         "SeparationRankResult": "seprank.separation",
         "hadamard_rank": "seprank.gram_hadamard_rank",
         "HadamardRankResult": "seprank.gram_hadamard_rank"}


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
