"""The answer of every separation-rank computation: a value, its kind, and typed facts.

:class:`SeparationRankResult` is what :func:`seprank.separation_rank` and
:func:`seprank.separation.embedded_separation_rank` return. Its ``str`` is what
``seprank sep-rank`` prints (the CLI adds only the first ``VALUE KIND`` line),
``_repr_markdown_`` / ``_repr_html_`` are its Jupyter displays, and
:meth:`~SeparationRankResult.to_dict` is the ``--json`` object: the keys of every
earlier version (``details`` rebuilt from the typed fields) plus ``route_asked``,
``weights_seed``, ``points_seed``, ``points_digest`` and ``plan``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["SeparationRankResult"]

_VERDICT = {True: "respected", False: "VIOLATED", None: "undecided"}


@dataclass
class SeparationRankResult:
    """A separation rank with its kind, the instance, the bounds that apply, and facts.

    Attributes
    ----------
    value, kind : int, str
        the rank or a certified lower bound on it (``exact`` / ``lower_bound``).
    upper_bound : int
        a certified upper bound (equal to ``value`` when exact).
    partition, position, coordinate, seq_len, residual, network
        the instance: {"I", "J"} (0-based; None for N = inf: every partition with enough
        positions on each side, or the given I under ``facts``), the output y_p^i
        (0-based), N (``math.inf`` for the limit; ``"inf"`` in JSON), skip connections,
        {"L", "d_x", "H", "d_a"}.
    route, route_asked : str
        the route that gave the answer, and the one asked for (``auto``: chosen).
    bounds : dict
        the paper bounds that apply, each with whether the value respects it.
    weights : dict
        the weights as JSON (:mod:`seprank.models.weights`).
    blocks : list of dict
        one entry per block of the route's matricization.
    matrix_words, matrix_shape, matrix_points
        what the matrix is called, its shape (rows, columns), or the points per side
        of the grid route's square blocks.
    possible_terms, degree, terms
        monomials the output can have, its degree 3^L, terms of the expansion.
    prime, error_bound, probabilistic, evaluations, points_digest
        the grid route's prime, Schwartz-Zippel bound (and its sentence), network
        evaluations, SHA-256 prefix of its random points.
    first_route, first_value
        when ``auto`` ran a fallback: the route whose answer was not exact, and that
        answer (a certified lower bound).
    timings, seconds
        seconds per phase of the answering route; seconds in all.
    certificates_verified : bool or None
        with ``certify=True``: every rank certificate verified independently.
    matrix_rank
        the :class:`~seprank.linalg.RankResult` of a single matrix (template grid).
    template_certificate
        the templates' monomial certificate (template grid).
    embedding
        wies2021 embedding facts (:func:`~seprank.separation.embedded_separation_rank`).
    facts
        JSON-ready facts a route adds beyond these (``text``: lines ``str`` prints).
    weights_seed, points_seed
        the seed that drew the weights (None: given) and the seed of random points.
    plan
        the :class:`~seprank.separation.SeparationPlan` that ran.

    Examples
    --------
    >>> from seprank.separation import separation_rank
    >>> r = separation_rank(1, 1, 1, N=2, weights={k: [[[[1]]]] for k in "QKVO"})
    >>> r.value, r.kind, r.partition
    (2, 'exact', {'I': [0], 'J': [1]})
    >>> print(str(r).splitlines()[1])
    coefficient matrix: 2 x 2 in 2 blocks; certified upper bound 2; ... s
    """

    value: int
    kind: str
    upper_bound: int
    partition: dict | None
    position: int
    coordinate: int
    seq_len: int | float
    residual: bool
    network: dict
    route: str
    bounds: dict
    weights: dict
    blocks: list = field(default_factory=list)
    matrix_words: str = "matrix"
    matrix_shape: tuple[int, int] | None = None
    matrix_points: int | None = None
    possible_terms: int | None = None
    degree: int | None = None
    terms: int | None = None
    prime: int | None = None
    error_bound: float | None = None
    probabilistic: str | None = None
    evaluations: int | None = None
    points_digest: str | None = None
    first_route: str | None = None
    first_value: int | None = None
    timings: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    certificates_verified: bool | None = None
    matrix_rank: Any = None
    template_certificate: dict | None = None
    embedding: dict | None = None
    facts: dict = field(default_factory=dict)
    route_asked: str | None = None
    weights_seed: int | None = None
    points_seed: int | None = None
    plan: Any = field(default=None, repr=False)

    @property
    def is_exact(self) -> bool:
        return self.kind == "exact"

    def __int__(self) -> int:
        return self.value

    @property
    def details(self) -> dict[str, Any]:
        """The facts under the JSON keys of earlier versions (read-only view).

        ``possible_terms``, ``degree``, ``grid`` {prime, error_bound, probabilistic,
        evaluations, matrix_points}, ``grid_lower_bound`` (the first answer before a
        fallback), ``terms``, ``matrix_shape``, ``timing``, ``certificates_verified``,
        ``seconds``, the embedding's facts, and any route facts.
        """
        d: dict[str, Any] = dict(self.embedding or {})
        for key in ("possible_terms", "degree"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        if self.prime is not None:  # the key the grid route's facts have always had
            d["grid"] = {"prime": self.prime, "error_bound": self.error_bound,
                         "probabilistic": self.probabilistic,
                         "evaluations": self.evaluations, "matrix_points": self.matrix_points}
        if self.first_value is not None:
            d["grid_lower_bound"] = self.first_value
        if self.terms is not None:
            d["terms"] = self.terms
        if self.matrix_shape is not None:
            d["matrix_shape"] = list(self.matrix_shape)
        if self.timings:
            d["timing"] = dict(self.timings)
        if self.certificates_verified is not None:
            d["certificates_verified"] = self.certificates_verified
        if self.template_certificate is not None:
            d["template_certificate"] = self.template_certificate
        if self.matrix_rank is not None:
            d["matrix_rank"] = self.matrix_rank.to_dict()
        d.update(self.facts)
        d["seconds"] = self.seconds
        return d

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (the ``--json`` output of ``seprank sep-rank``).

        >>> from seprank.separation import separation_rank
        >>> sorted(separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"}
        ...                        ).to_dict())[:4]
        ['blocks', 'bounds', 'coordinate', 'details']
        """
        return {"value": self.value, "kind": self.kind, "upper_bound": self.upper_bound,
                "partition": self.partition, "position": self.position,
                "coordinate": self.coordinate,
                "seq_len": self.seq_len if isinstance(self.seq_len, int) else "inf",
                "residual": self.residual, "network": self.network, "route": self.route,
                "bounds": self.bounds, "blocks": self.blocks, "details": self.details,
                "weights": self.weights, "route_asked": self.route_asked,
                "weights_seed": self.weights_seed, "points_seed": self.points_seed,
                "points_digest": self.points_digest,
                "plan": None if self.plan is None else self.plan.to_dict()}

    # -- text and displays ------------------------------------------------------------

    def _headline(self) -> str:
        n = self.network
        return (f"separation rank {self.value} ({self.kind}"
                + ("" if self.kind == "exact" else f"; certified upper bound {self.upper_bound}")
                + f") of y[{self.position}][{self.coordinate}], L={n['L']}, d_x={n['d_x']}, "
                f"H={n['H']}, d_a={n['d_a']}, N={self.seq_len}"
                + (", residual" if self.residual else "")
                + f", {self._partition_text()}, route {self.route}")

    def _partition_text(self) -> str:
        if self.partition is None:   # N = inf: the given I, else every large partition
            given = self.facts.get("partition")
            return (f"I={given['I']} | J={given['J']}" if given else
                    "every partition with enough positions on each side")
        return f"I={self.partition['I']} | J={self.partition['J']}"

    def _shape_text(self) -> str:
        rows, cols = (self.matrix_shape if self.matrix_shape is not None
                      else (self.matrix_points, self.matrix_points))
        return f"{rows} x {cols}"

    def _bound_lines(self) -> list[str]:
        lines = []
        for name, b in self.bounds.items():
            ranks = f" with r = {b['r']}, r_e = {b['r_e']}" if "r" in b else ""
            lines.append(f"  {name} ({b['kind']}): {b['statement']}{ranks} = {b['value']}: "
                         f"{_VERDICT[b['respected']]}")
        return lines

    def __str__(self) -> str:
        """What ``seprank sep-rank`` prints after its ``VALUE KIND`` line.

        The headline, the matrix (size, blocks, certified upper bound, seconds), the
        Schwartz-Zippel sentence of a probabilistic equality, every bound with its
        verdict, and whether the certificates verified.
        """
        nonzero = sum(1 for b in self.blocks if not b.get("zero_by_parity"))
        in_blocks = f" in {nonzero} blocks" if self.blocks else ""
        lines = [self._headline(),
                 f"{self.matrix_words}: {self._shape_text()}{in_blocks}; certified upper bound "
                 f"{self.upper_bound}; {self.seconds} s"]
        if self.probabilistic is not None and self.first_route is None:
            lines.append(f"  {self.probabilistic}")
        lines += [f"  {line}" for line in self.facts.get("text", [])]
        lines += self._bound_lines()
        if self.certificates_verified is not None:
            lines.append(f"certificates independently verified: {self.certificates_verified}")
        return "\n".join(lines)

    _DISPLAY_HEADER = ("sep rank", "kind", "certified upper bound", "route", "matrix",
                       "network", "N", "I | J")

    def _display_rows(self) -> list[list[Any]]:
        n = self.network
        return [[self.value, self.kind, self.upper_bound, self.route,
                 f"{self.matrix_words} {self._shape_text()}",
                 f"L={n['L']} d_x={n['d_x']} H={n['H']} d_a={n['d_a']}"
                 + (" residual" if self.residual else ""), self.seq_len,
                 self._partition_text()]]

    def _bound_rows(self) -> list[list[Any]]:
        return [[name, b["kind"], b["value"], _VERDICT[b["respected"]]]
                for name, b in self.bounds.items()]

    def _caption(self) -> str:
        return f"separation rank {self.value} ({self.kind}) of y[{self.position}]" \
               f"[{self.coordinate}]"

    def _repr_html_(self) -> str:
        """Jupyter's display: the answer with its kind, then the bounds.

        >>> from seprank.separation import separation_rank
        >>> separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"}
        ...                 )._repr_html_()[:55]
        '<table><caption>separation rank 2 (exact) of y[0][0]</c'
        """
        from seprank._display import html_table

        out = html_table(self._caption(), self._DISPLAY_HEADER, self._display_rows())
        if self.bounds:
            out += html_table("bounds", ("bound", "kind", "value", "verdict"),
                              self._bound_rows())
        return out

    def _repr_markdown_(self) -> str:
        """Markdown display (JupyterLab, Markdown exports).

        >>> from seprank.separation import separation_rank
        >>> print(separation_rank(1, 1, 1, weights={k: [[[[1]]]] for k in "QKVO"}
        ...                       )._repr_markdown_().splitlines()[4][:50])
        | 2 | exact | 2 | coefficient | coefficient matrix
        """
        from seprank._display import md_table

        out = md_table(self._caption(), self._DISPLAY_HEADER, self._display_rows())
        if self.bounds:
            out += "\n\n" + md_table("bounds", ("bound", "kind", "value", "verdict"),
                                     self._bound_rows())
        return out
