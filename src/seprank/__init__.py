"""seprank: exact checks of the separation-rank theory of self-attention.

The front door for ranks is :func:`seprank.rank`; every answer carries its kind
(``exact``, ``lower_bound``, ``upper_bound``, ``probabilistic`` or
``float_estimate``). :func:`seprank.verify` re-checks a certificate with code
that shares nothing with the engines.
"""

__version__ = "0.1.0"

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
from seprank.linalg.result import RankResult  # noqa: E402
from seprank.linalg.verify import verify  # noqa: E402
from seprank.separation import separation_rank  # noqa: E402

__all__ = [
    "rank",
    "verify",
    "separation_rank",
    "RankResult",
    "RankCertificate",
    "LowerBoundCertificate",
    "UpperBoundCertificate",
    "__version__",
]
