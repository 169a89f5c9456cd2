"""The result of every rank computation: a value and the kind of answer it is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seprank.linalg.certificates import RankCertificate
from seprank.linalg.kinds import EXACT, FLOAT_ESTIMATE, KINDS, LOWER_BOUND, UPPER_BOUND

__all__ = ["RankResult"]


@dataclass
class RankResult:
    """A rank with what it means.

    Attributes
    ----------
    value : int
        the rank, or the bound, according to ``kind``.
    kind : str
        one of ``exact``, ``lower_bound``, ``upper_bound``, ``probabilistic``,
        ``float_estimate`` (see :mod:`seprank.linalg.kinds`).
    method : str
        the engine that produced it (``flint-fmpz``, ``flint-nmod``, ``numpy-svd``).
    field : str
        where the rank is taken: ``QQ`` for integer/rational input, ``GF(p)``
        for a matrix given over GF(p), ``RR`` (float) for float estimates.
    shape : (m, n)
    certificate : RankCertificate or None
        present when ``certify=True`` was asked.
    primes : list of int
        every prime tried, in the order tried: ``auto``'s random primes, then
        those of its exact fallback (the multimodular method's, a certificate's).
    prime_trials : list of dict
        one entry per prime of ``primes``: ``prime``, ``step`` (``"rank mod p"``,
        ``"multimodular rank phase"``, ``"multimodular lifting"``,
        ``"certificate minor"``), ``engine`` (the registry engine it ran on, or
        None), ``method`` (the method label of its step) and ``rank_mod_p`` (the
        rank modulo it, or None for a lifting prime, which takes no rank).
    details : dict
        engine-specific facts: singular values' gap and tolerance (float), etc.
    note : str
        why the kind is what it is, in one sentence.
    seconds : float

    Examples
    --------
    >>> res = RankResult(value=1, kind="exact", method="flint-fmpz", field="QQ", shape=(2, 2))
    >>> int(res), res.is_exact
    (1, True)
    >>> str(res)
    'rank 1 (exact over QQ; 2 x 2; method flint-fmpz)'

    ``str`` stays one line: it names the primes of the method that answered
    (those of ``prime_trials`` whose ``method`` is the result's); ``to_dict``
    has them all.

    >>> trials = [{"prime": 7, "step": "rank mod p", "engine": "flint",
    ...            "method": "flint-nmod", "rank_mod_p": 1},
    ...           {"prime": 11, "step": "certificate minor", "engine": None,
    ...            "method": "flint-fmpz", "rank_mod_p": 2}]
    >>> res = RankResult(2, "exact", "flint-fmpz", "QQ", (2, 2), primes=[7, 11],
    ...                  prime_trials=trials)
    >>> str(res), res.to_dict()["primes"]
    ('rank 2 (exact over QQ; 2 x 2; method flint-fmpz; primes 11)', [7, 11])
    """

    value: int
    kind: str
    method: str
    field: str
    shape: tuple[int, int]
    certificate: RankCertificate | None = None
    primes: list[int] = field(default_factory=list)
    prime_trials: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown answer kind {self.kind!r}")

    @property
    def is_exact(self) -> bool:
        return self.kind == EXACT

    def __int__(self) -> int:
        return self.value

    @property
    def answer_primes(self) -> list[int]:
        """The primes of the method that gave the answer (all of ``primes`` when
        there is no trial log).

        >>> RankResult(1, "exact", "flint-nmod", "QQ", (1, 1), primes=[5]).answer_primes
        [5]
        """
        if not self.prime_trials:
            return list(self.primes)
        return [t["prime"] for t in self.prime_trials if t.get("method") == self.method]

    def __str__(self) -> str:
        words = {EXACT: "exact", LOWER_BOUND: "certified lower bound",
                 UPPER_BOUND: "certified upper bound", FLOAT_ESTIMATE: "float estimate"}
        text = (f"rank {self.value} ({words.get(self.kind, self.kind)} over {self.field}; "
                f"{self.shape[0]} x {self.shape[1]}; method {self.method}")
        shown = self.answer_primes
        if shown:
            text += f"; primes {', '.join(map(str, shown))}"
        if self.kind == FLOAT_ESTIMATE and "tolerance" in self.details:
            text += (f"; tolerance {self.details['tolerance']:.3g}, "
                     f"gap {self.details.get('gap', float('nan')):.3g}")
            if "input_rounding" in self.details:
                text += "; input rounded to float64"
        if self.certificate is not None:
            text += "; certificate attached"
        return text + ")"

    def _display_rows(self) -> list[list[Any]]:
        cert = "none" if self.certificate is None else "attached (seprank.verify re-checks it)"
        rows = [[self.value, self.kind, self.field, f"{self.shape[0]} x {self.shape[1]}",
                 self.method, cert]]
        return rows

    _DISPLAY_HEADER = ("rank", "kind", "over", "shape", "method", "certificate")

    def _repr_html_(self) -> str:
        """Jupyter's display: one row, the kind beside the value.

        >>> RankResult(1, "exact", "flint-fmpz", "QQ", (2, 2))._repr_html_()[:40]
        '<table><caption>rank 1 (exact)</caption>'
        """
        from seprank._display import html_table

        return html_table(f"rank {self.value} ({self.kind})", self._DISPLAY_HEADER,
                          self._display_rows())

    def _repr_markdown_(self) -> str:
        """Markdown display (JupyterLab, Markdown exports).

        >>> print(RankResult(2, "lower_bound", "flint-nmod", "QQ", (3, 3))._repr_markdown_())
        **rank 2 (lower_bound)**
        <BLANKLINE>
        | rank | kind | over | shape | method | certificate |
        |---|---|---|---|---|---|
        | 2 | lower_bound | QQ | 3 x 3 | flint-nmod | none |
        """
        from seprank._display import md_table

        return md_table(f"rank {self.value} ({self.kind})", self._DISPLAY_HEADER,
                        self._display_rows())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": self.value, "kind": self.kind, "method": self.method, "field": self.field,
            "shape": list(self.shape), "seconds": round(self.seconds, 6),
        }
        if self.primes:
            out["primes"] = list(self.primes)
        if self.prime_trials:
            out["prime_trials"] = [dict(t) for t in self.prime_trials]
        if self.details:
            out["details"] = dict(self.details)
        if self.note:
            out["note"] = self.note
        if self.certificate is not None:
            out["certificate"] = self.certificate.to_dict()
        return out
