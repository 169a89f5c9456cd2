"""Differential run for refactors: the answers of a fixed corpus, timings aside.

Writes three canonical JSON files into ``--out DIR``:

* ``prove.json``: the default ``seprank prove`` report (fast tier), each check's
  outcome, strength, basis, verdict, reason, errata, findings and steps (claim,
  source, status, evidence, notes), with every timing and the environment removed;
* ``sep_rank.json``: ``seprank.separation_rank`` answers on a fixed list of networks
  (value, kind, upper bound, route, partition, blocks, bounds, weights);
* ``rank.json``: ``seprank.rank`` answers on a fixed list of matrices and methods
  (value, kind, field, method, primes, certificate);
* ``hadamard.json``: ``seprank.hadamard_rank`` answers on fixed V and lambda.

``sep_rank.json`` includes N -> infinity answers (the moment route).

Random primes are drawn from a seeded generator (``--prime-seed``), so two runs of the
same code give byte-identical files, and two versions of the code that behave the
same give identical files. ``--compare A B`` prints the differences of two such
folders and exits 1 when there are any.

Usage::

    python benchmarks/house_differential.py --out /tmp/before     # on the old code
    python benchmarks/house_differential.py --out /tmp/after      # on the new code
    python benchmarks/house_differential.py --compare /tmp/before /tmp/after
    python benchmarks/house_differential.py --compare /tmp/before /tmp/after --ignore-paper-keys
    python benchmarks/house_differential.py --compare /tmp/before /tmp/after --ignore citation

``--ignore KEY`` (repeatable) forgives a key that the AFTER side adds to an object whose
BEFORE side lacks it (e.g. ``citation``, which the report adds beside each ``source``
and erratum ``location``): such a key is not a difference; a key of that name present on
both sides is still compared, and one the AFTER side lost is still a difference.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

_TIMING_KEYS = {"seconds", "timing", "time", "elapsed", "environment", "wall", "cpu",
                "time_utc", "argv"}


def _is_timing(key: str, value) -> bool:
    """A timing field: a known name, ``*_seconds``, or a float under ``s`` / ``*_s``
    (the proofs' evidence also uses ``s`` for a width, an int)."""
    if key in _TIMING_KEYS or key.endswith("_seconds") or key.startswith("seconds"):
        return True
    return isinstance(value, float) and (key == "s" or key.endswith("_s"))


def _strip(obj):
    """Drop every timing field, recursively."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if not _is_timing(k, v)}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _seed_primes(seed: int) -> None:
    """Make the random primes of ``rank`` reproducible (wherever the generator lives)."""
    import importlib

    rng = random.Random(seed)
    for name in ("seprank.linalg.modarith", "seprank.linalg.primes_random",
                 "seprank.scalars.primes"):
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, "_SYS_RANDOM"):
            mod._SYS_RANDOM = rng
            return
    raise SystemExit("could not find the random-prime generator to seed")


def prove_corpus() -> dict:
    from seprank.proof import CheckRegistry, run_checks
    from seprank.proof.report import report_dict

    registry = CheckRegistry.from_plugins(["seprank_proofs"])
    sink = io.StringIO()
    with redirect_stdout(sink), redirect_stderr(sink):
        results = run_checks(registry.specs())
    data = report_dict(results)
    return _strip(data)


def _sep_cases():
    one = {k: [[[[1]]]] for k in "QKVO"}
    yield "ones L1", dict(L=1, d_x=1, H=1, weights=one)
    for route in ("coefficient", "grid"):
        yield f"L2 dx2 H1 seed1 {route}", dict(L=2, d_x=2, H=1, seed=1, route=route)
        yield f"L2 dx2 H2 residual seed7 {route}", dict(L=2, d_x=2, H=2, residual=True,
                                                         seed=7, route=route)
        yield f"L1 dx3 H1 N3 I=[0,2] {route}", dict(L=1, d_x=3, H=1, N=3, partition=[0, 2],
                                                    seed=2, route=route)
        yield f"L2 dx2 H1 N4 pos1 coord1 {route}", dict(L=2, d_x=2, H=1, N=4, position=1,
                                                        coordinate=1, seed=3, route=route)
    yield "L2 dx4 H2 auto", dict(L=2, d_x=4, H=2, seed=0)
    yield "L3 dx2 H1 grid", dict(L=3, d_x=2, H=1, seed=4, route="grid")
    yield "L2 dx3 H1 da2 auto", dict(L=2, d_x=3, H=1, d_a=2, seed=5)
    yield "L2 dx2 H1 grid certify", dict(L=2, d_x=2, H=1, seed=1, route="grid", certify=True)
    # N -> infinity (the moment route): plain, residual, a given partition, generic draw
    yield "Ninf L1 dx2 H1 seed1", dict(L=1, d_x=2, H=1, N=math.inf, seed=1)
    yield "Ninf L2 dx2 H1 seed0", dict(L=2, d_x=2, H=1, N=math.inf, seed=0)
    yield "Ninf L2 dx2 H2 residual seed3", dict(L=2, d_x=2, H=2, N=math.inf, residual=True,
                                                 seed=3)
    yield "Ninf L2 dx3 H1 seed2", dict(L=2, d_x=3, H=1, N=math.inf, seed=2)
    yield "Ninf L2 dx2 H1 ones", dict(L=2, d_x=2, H=1, N=math.inf,
                                      weights={k: [[[[1, 1], [1, 1]]]] * 2 for k in "QKVO"})


def _embedded_cases():
    """(name, network, embedding) built from the model classes (seeded)."""
    from seprank.models import SelfAttentionNetwork
    from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding

    net = SelfAttentionNetwork.random(1, 2, 1, residual=False, seed=1, nonzero=True)
    yield "vocabulary V3 r2", net, VocabularyEmbedding.random(3, 2, 2, 2, 1, seed=2)
    yield "convolution k2 r2", net, ConvolutionalEmbedding.random(2, 2, 2, 2, 2, 1, seed=2)
    net2 = SelfAttentionNetwork.random(2, 2, 1, residual=False, seed=3, nonzero=True)
    yield "vocabulary V2 N3 L2", net2, VocabularyEmbedding.random(2, 2, 3, 2, 1, seed=4)


def _answer(d: dict) -> dict:
    keep = ("value", "kind", "upper_bound", "partition", "position", "coordinate", "seq_len",
            "residual", "network", "route", "bounds", "blocks", "weights", "embedding")
    return _strip({k: d[k] for k in keep if k in d})


def sep_rank_corpus() -> dict:
    import seprank

    out = {}
    for name, kw in _sep_cases():
        try:
            out[name] = _answer(seprank.separation_rank(**kw).to_dict())
        except Exception as exc:  # noqa: BLE001 - the message is part of the behaviour
            out[name] = {"error": f"{type(exc).__name__}: {exc}"}
    from seprank.separation import embedded_separation_rank

    for name, net, emb in _embedded_cases():
        try:
            out["embedded " + name] = _answer(embedded_separation_rank(net, emb).to_dict())
        except Exception as exc:  # noqa: BLE001
            out["embedded " + name] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _matrices():
    import numpy as np

    rng = np.random.default_rng(11)
    yield "3x3 rank 2", [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    yield "2x2 diag", [[2, 0], [0, 3]]
    yield "zero 4x3", [[0] * 3 for _ in range(4)]
    a = rng.integers(-5, 6, size=(30, 7))
    yield "30x30 rank 7", (a @ rng.integers(-5, 6, size=(7, 30))).tolist()
    yield "40x25 random", rng.integers(-9, 10, size=(40, 25)).tolist()
    yield "fractions", [["1/2", "1/3"], ["1/4", "1/6"]]
    b = rng.integers(-3, 4, size=(250, 40))
    yield "250x250 rank 40", (b @ rng.integers(-3, 4, size=(40, 250))).tolist()
    yield "700x700 rank 690", (rng.integers(-2, 3, size=(700, 690))
                               @ rng.integers(-2, 3, size=(690, 700))).astype(np.int64)


def hadamard_corpus() -> dict:
    """``seprank.hadamard_rank`` on fixed V and lambda (auto, modular, certify)."""
    import numpy as np

    import seprank

    rng = np.random.default_rng(5)
    cases = [("V 6x2 lam2", rng.integers(-3, 4, size=(6, 2)).tolist(), 2),
             ("V 12x3 lam3", rng.integers(-3, 4, size=(12, 3)).tolist(), 3),
             ("V 40x3 lam4", rng.integers(-2, 3, size=(40, 3)).tolist(), 4),
             ("V 5x5 lam1 rank2", (rng.integers(-2, 3, size=(5, 2))
                                   @ rng.integers(-2, 3, size=(2, 5))).tolist(), 1)]
    out = {}
    for name, v, lam in cases:
        for method, kw in (("auto", {}), ("modular", {}), ("auto", {"certify": True})):
            key = f"{name} | {method} {sorted(kw.items())}"
            try:
                out[key] = _rank_answer(seprank.hadamard_rank(v, lam, method=method, **kw))
            except Exception as exc:  # noqa: BLE001
                out[key] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _rank_answer(r) -> dict:
    d = r.to_dict() if hasattr(r, "to_dict") else {"str": str(r)}
    return _strip(d)


def rank_corpus() -> dict:
    from fractions import Fraction

    import seprank

    out = {}
    for name, m in _matrices():
        if name == "fractions":
            m = [[Fraction(x) for x in row] for row in m]
        for method, kw in (("auto", {}), ("auto", {"certify": True}), ("exact", {}),
                           ("modular", {}), ("multimodular", {}), ("float", {}),
                           ("modular", {"engine": "numba"})):
            key = f"{name} | {method} {sorted(kw.items())}"
            try:
                out[key] = _rank_answer(seprank.rank(m, method, **kw))
            except Exception as exc:  # noqa: BLE001
                out[key] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _dump(path: Path, obj) -> None:
    path.write_text(json.dumps(obj, indent=1, sort_keys=True, default=str) + "\n")


def _diff(a, b, where="", out=None, ignore=frozenset()):
    out = [] if out is None else out
    if type(a) is not type(b):
        out.append(f"{where}: {a!r:.120} != {b!r:.120}")
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a and k in ignore:
                continue  # a key the after side adds, forgiven by --ignore
            if k not in a or k not in b:
                out.append(f"{where}/{k}: only in {'after' if k in b else 'before'}")
            else:
                _diff(a[k], b[k], f"{where}/{k}", out, ignore)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(f"{where}: length {len(a)} != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _diff(x, y, f"{where}[{i}]", out, ignore)
    elif a != b:
        out.append(f"{where}: {a!r:.120} != {b!r:.120}")
    return out


#: issue 19: the paper a schema-2 report implied by a check id's prefix
_V2_PAPER_OF_PREFIX = {"L-": "levine2020", "W-": "wies2021", "C7-": "chapter7",
                       "R-": "rank_collapse", "A-": "amsel"}


def _drop_paper_keys(before: dict, after: dict) -> list[str]:
    """Remove from ``after`` what schema 3 added to a schema-2 report (each check's
    ``paper``, the top-level ``papers``, the version number), checking on the way that
    every check's paper is the one its id prefix implied and that ``papers`` describes
    exactly those; returns the mismatches (as differences)."""
    out = []
    if before.get("schema_version") != 2 or after.get("schema_version") != 3:
        return out  # nothing to forgive between two reports of the same version
    after["schema_version"] = 2
    described = after.pop("papers", None)
    used = set()
    for c in after.get("checks", []):
        key = c.pop("paper", None)
        used.add(key)
        want = next((k for p, k in _V2_PAPER_OF_PREFIX.items() if c["id"].startswith(p)), None)
        if key != want:
            out.append(f"prove.json/{c['id']}/paper: {key!r}, its prefix implies {want!r}")
    if described is not None and set(described) != used:
        out.append(f"prove.json/papers: {sorted(described)} != the checks' {sorted(used)}")
    return out


def compare(before: Path, after: Path, ignore_paper_keys: bool = False,
            ignore: tuple[str, ...] = ()) -> int:
    total = 0
    for name in ("prove.json", "sep_rank.json", "rank.json", "hadamard.json"):
        if not (before / name).exists() and not (after / name).exists():
            continue  # an older corpus without it
        a = json.loads((before / name).read_text())
        b = json.loads((after / name).read_text())
        notes = _drop_paper_keys(a, b) if ignore_paper_keys and name == "prove.json" else []
        diffs = notes + _diff(a, b, name, ignore=frozenset(ignore))
        total += len(diffs)
        print(f"{name}: {len(diffs)} differences")
        for line in diffs[:40]:
            print("  " + line)
    return 1 if total else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path,
                    help="folder to write prove/sep_rank/rank/hadamard .json into")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                    help="compare two output folders; exit 1 on any difference")
    ap.add_argument("--ignore-paper-keys", action="store_true",
                    help="with --compare: ignore what report schema 3 adds to a schema-2 "
                    "prove.json (each check's paper, the papers, the version), after checking "
                    "that each paper is the one the check id's prefix implied")
    ap.add_argument("--ignore", action="append", default=[], metavar="KEY",
                    help="with --compare: a key the AFTER side adds to an object that lacks "
                    "it on the BEFORE side is not a difference (repeatable; e.g. citation)")
    ap.add_argument("--prime-seed", type=int, default=20261125,
                    help="seed of the random primes (default 20261125)")
    ap.add_argument("--only", choices=("prove", "sep_rank", "rank", "hadamard"), action="append",
                    help="write only these corpora (repeatable)")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare, ignore_paper_keys=args.ignore_paper_keys,
                       ignore=tuple(args.ignore))
    if args.out is None:
        ap.error("give --out DIR or --compare BEFORE AFTER")
    args.out.mkdir(parents=True, exist_ok=True)
    for name, fn in (("prove", prove_corpus), ("sep_rank", sep_rank_corpus),
                     ("rank", rank_corpus), ("hadamard", hadamard_corpus)):
        if args.only and name not in args.only:
            continue
        _seed_primes(args.prime_seed)
        _dump(args.out / f"{name}.json", fn())
        print(f"wrote {args.out / (name + '.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
