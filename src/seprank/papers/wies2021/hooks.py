"""wies2021's hook for the core: the bounds for a network behind an embedding.

Registered in :data:`seprank.papers.wies2021.HOOKS` and called through
:func:`seprank.paper_hooks.embedding_bounds` (the ``bounds`` of
``seprank.separation.embedded_separation_rank``). Source:
``wies2021_vocabulary_bottleneck.txt``. Why: the core must not import a
wing (tests/test_house.py), yet ``embedded_separation_rank`` reports Theorem 3's bound for
the vocabulary embedding and Theorem 4's for the convolution embedding (eqs. (9), (11),
A.2-A.3 l.375-520) beside its answer; this hook is the one place that does it.
"""

from __future__ import annotations

from seprank.paper_hooks import bound_entry
from seprank.papers.wies2021.bounds import thm3_bound, thm4_bound

__all__ = ["embedding_bounds"]

_SRC = "wies2021_vocabulary_bottleneck.txt "
#: embedding -> (bound id, bound function, where it is printed)
_THEOREMS = {"vocabulary": ("W-Thm3", thm3_bound, "A.2 eq. (9) l.381"),
             "convolution": ("W-Thm4", thm4_bound, "A.3 eq. (11) l.455")}


def embedding_bounds(L: int, r: int, r_e: int, embedding: str, value: int) -> dict:
    """Theorem 3 (vocabulary embedding) or 4 (convolution embedding) at the measured
    r and r_e, with whether ``value`` respects it.

    >>> embedding_bounds(1, 1, 0, "vocabulary", 2)
    {'W-Thm3': {'value': 80, 'kind': 'upper', 'statement': \
'sep <= ((r + r_e, 3^L)) ((4, 3^L)) (3^L + 1)^(r + r_e)', 'source': \
'wies2021_vocabulary_bottleneck.txt A.2 eq. (9) l.381', 'respected': True, 'r': 1, 'r_e': 0}}
    """
    if embedding not in _THEOREMS:
        return {}
    which, fn, where = _THEOREMS[embedding]
    b = fn(L, r, r_e)
    return {which: bound_entry(b, "sep <= ((r + r_e, 3^L)) ((4, 3^L)) (3^L + 1)^(r + r_e)",
                               _SRC + where, "upper", value <= b, r=r, r_e=r_e)}
