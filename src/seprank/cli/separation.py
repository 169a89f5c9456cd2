"""The separation-rank family: ``seprank sep-rank``, ``seprank grid-rank`` and
``seprank lemma6``, and the shape options they share.

One vocabulary for the network's shape: the long options spell the names out
(``--depth``, ``--width``, ``--heads``, ``--head-dim``, ``--seq-len``), the short ones
are the papers' symbols (``-L``, ``-d_x``, ``-H``, ``-d_a``, ``-N``); ``--da`` and
``--dx`` are old spellings that still work, with a note on stderr. ``sep-rank`` is
:func:`seprank.separation.plan_separation` then :func:`seprank.separation.execute`
(levine2020 eq. (3) networks); ``grid-rank`` the grid matricization of levine2020
Claim 1 (:func:`seprank.sweep.computations.grid_rank`); ``lemma6`` levine2020 Lemma 6's
identity (:func:`seprank.sweep.computations.lemma6_identity`).
"""

from __future__ import annotations

import argparse
import math
import sys

from seprank.cli.common import (
    STDOUT,
    budget_options,
    emit_json,
    json_option,
    say,
    spinner,
    subparser,
)
from seprank.cli.values import integer, seconds, seq_len_or_inf

__all__ = ["add_parsers"]


def _renamed(args: argparse.Namespace, new: str, old: str, old_flag: str, new_flag: str) -> None:
    """An option's old spelling (``--da``, ``--dx``) still works, with a note on stderr;
    refused when given together with the new one."""
    from seprank.errors import ParameterError

    value = getattr(args, old, None)
    if value is None:
        return
    if getattr(args, new) is not None:
        raise ParameterError(f"give {new_flag} or {old_flag} (its old name), not both")
    print(f"seprank: note: {old_flag} is deprecated; use {new_flag}", file=sys.stderr)
    setattr(args, new, value)


def _shape_args(args: argparse.Namespace) -> argparse.Namespace:
    """The shape options after their old spellings are folded in."""
    _renamed(args, "head_dim", "da", "--da", "--head-dim")
    if hasattr(args, "dx"):
        _renamed(args, "width", "dx", "--dx", "--width")
    return args


def _shape_options(p: argparse.ArgumentParser, *, depth_required: bool, width: bool,
                   width_required: bool = False, heads: int | None = None,
                   head_dim: int | None = None, seq_len=None) -> None:
    """One vocabulary: the long options spell the names out, the short ones are the papers'
    symbols (-L, -d_x, -H, -d_a, -N); --dx and --da are the old spellings (a note on use)."""
    p.add_argument("--depth", "-L", type=integer("depth"), required=depth_required, default=None,
                   metavar="L", help="number of self-attention layers L")
    if width:
        p.add_argument("--width", "-d_x", type=integer("width"), required=False, default=None,
                       metavar="DX", help="embedding dimension d_x"
                       + (" (required)" if width_required else ""))
        p.add_argument("--dx", type=integer("width"), default=None, metavar="DX",
                       help="old name of --width (deprecated)")
    p.add_argument("--heads", "-H", type=integer("heads"), default=heads, metavar="H",
                   help=f"heads per layer (default: {1 if heads is None else heads})")
    p.add_argument("--head-dim", "-d_a", dest="head_dim", type=integer("head_dim"), default=None,
                   metavar="DA", help="attention dimension d_a (default: "
                   + ("d_x / H)" if head_dim is None else f"{head_dim})"))
    p.add_argument("--da", type=integer("head_dim"), default=None, metavar="DA",
                   help="old name of --head-dim (deprecated)")
    p.add_argument("--seq-len", "-N", type=seq_len or integer("seq_len"), default=2,
                   metavar="N", help="sequence length N (default: %(default)s)"
                   + ("; 'inf': the limit N -> infinity" if seq_len is not None else ""))


def _partition_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--partition", default=None, metavar="I",
                   help="positions of I, 0-based, comma-separated (e.g. 0,1), or I|J (e.g. "
                   "0,2|1,3) (default: the first half)")
    p.add_argument("--position", type=integer("position"), default=0,
                   help="output position i (0-based)")
    p.add_argument("--coordinate", type=integer("coordinate"), default=0,
                   help="output coordinate (0-based)")


def _cmd_lemma6(args: argparse.Namespace) -> int:
    from seprank.sweep.computations import lemma6_identity

    _shape_args(args)
    out = lemma6_identity(depth=args.depth, heads=args.heads,
                          da=3 if args.head_dim is None else args.head_dim,
                          seq_len=args.seq_len, half=args.half, seed=args.seed,
                          corrected=args.corrected)
    if args.json:
        emit_json(out, args.json)
    # with the JSON on stdout, the human lines go to stderr
    text = sys.stderr if args.json == STDOUT else sys.stdout
    verdict = "holds" if out.get("identity_holds") else "FAILS"
    say(f"Lemma 6 identity ({out['assignment']} assignment, L={out['depth']}, "
        f"H={out['heads']}, d_a={out['d_a']}, N={out['seq_len']}, M={out['M']}): {verdict}, "
        "exactly over Q(i)", file=text)
    for key in ("reason", "mismatch", "constants", "constant_formula_value",
                "constant_matches_formula"):
        if out.get(key) is not None:
            say(f"  {key.replace('_', ' ')}: {plain(out[key])}", file=text)
    return 0 if out.get("identity_holds") else 1


def plain(value) -> str:
    """A value as a person reads it, never a Python repr: lists comma-separated, dicts as
    ``key = value`` pairs, booleans as yes / no.

    >>> plain(["2"]), plain({"row": 1, "ok": False}), plain(True)
    ('2', 'row = 1, ok = no', 'yes')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} = {plain(v)}" for k, v in value.items())
    return str(value)


def separation_statement(value: int, kind: str, upper_bound: int | None = None) -> str:
    """The first line of every command whose answer bears on a separation rank: the
    statement about the separation rank, with its kind.

    >>> separation_statement(12, "lower_bound")
    'separation rank >= 12 (certified lower bound)'
    >>> separation_statement(68, "exact"), separation_statement(9, "upper_bound")
    ('separation rank = 68 (exact)', 'separation rank <= 9 (certified upper bound)')
    >>> separation_statement(15, "lower_bound", 18)
    'separation rank >= 15 (certified lower bound; <= 18 certified)'
    """
    words = {"exact": ("=", "exact"), "lower_bound": (">=", "certified lower bound"),
             "upper_bound": ("<=", "certified upper bound"),
             "probabilistic": ("=", "probabilistic: with high probability, not proven")}
    sign, what = words.get(kind, ("=", kind))
    if kind == "lower_bound" and upper_bound is not None and upper_bound != value:
        what += f"; <= {upper_bound} certified"
    return f"separation rank {sign} {value} ({what})"


def _lemma6_parser(sub) -> None:
    lem = subparser(sub, "lemma6", "levine2020 Lemma 6's identity, exactly over Q(i); "
                     "exit 1 when it fails", "seprank lemma6 -L 3 --corrected --json l6.json")
    _shape_options(lem, depth_required=True, width=False, heads=1, head_dim=3)
    lem.add_argument("--half", type=integer("half"), default=3, metavar="M2",
                     help="M/2, the sub-matrix size (default: %(default)s)")
    lem.add_argument("--seed", type=integer("seed"), default=0, help="seed of the sphere points V")
    which = lem.add_mutually_exclusive_group()
    which.add_argument("--printed", dest="corrected", action="store_false",
                       help="the assignment as printed (default)")
    which.add_argument("--corrected", dest="corrected", action="store_true",
                       help="the corrected assignment (see constructions/lemma6.py)")
    json_option(lem, "the result")
    budget_options(lem)
    lem.set_defaults(func=_cmd_lemma6, corrected=False)


def _cmd_grid_rank(args: argparse.Namespace) -> int:
    from seprank.separation.vocabulary import partition_from_text
    from seprank.sweep.computations import grid_rank

    _shape_args(args)
    if args.width is None:
        from seprank.errors import ParameterError

        raise ParameterError("give the embedding dimension: -d_x/--width DX")
    partition = None if args.partition is None else partition_from_text(args.partition)
    if isinstance(partition, tuple):
        partition = [partition[0], partition[1]]
    network = None
    if args.weights is not None:       # the same network sep-rank reads (issue 31, item 1)
        from seprank.models.weights import load_weights
        from seprank.separation.request import build_network

        arrs, dims = load_weights(args.weights)
        network = build_network(args.depth, args.width, args.heads, args.head_dim,
                                residual=args.residual, weights=arrs)
    out = grid_rank(depth=args.depth, width=args.width, heads=args.heads, da=args.head_dim,
                    residual=args.residual, seq_len=args.seq_len, templates=args.templates,
                    template_bound=args.template_bound, position=args.position,
                    coordinate=args.coordinate, partition=partition, seed=args.seed,
                    method=args.method, certify=args.certify, network=network)
    if args.json:
        emit_json(out, args.json)
    if args.json != STDOUT:
        res, sep = out["rank"], out["separation"]
        rows, cols = out["matrix_shape"]
        say(f"{separation_statement(sep['value'], sep['kind'])}: grid matricization rank "
            f"{res['value']}, {res['kind']}")
        say(f"grid matricization {rows} x {cols} (I = {{{plain(out['partition']['I'])}}}, "
            f"J = {{{plain(out['partition']['J'])}}}): rank {res['value']} ({res['kind']}, "
            f"{res['method']}, over {res['field']}); a lower bound on the separation rank "
            "(levine2020 Claim 1)" + ("" if sep["kind"] != "exact" else
                                      ", exact here: the templates' monomial matrices have "
                                      "full column rank"))
        if sep.get("upper_bound") is not None:
            say(f"certified upper bound: separation rank <= {sep['upper_bound']}")
        if "thm3_bound" in out:
            say(f"Theorem 3 bound (H(d_a+1))^C(L) = {out['thm3_bound']}; Theorem 4 bound = "
                f"{out['thm4_bound']}")
        for line in out.get("degenerate", []):
            say(f"degenerate network: {line}")
        if "certificate_verified" in out:
            print(f"certificate independently verified: {plain(out['certificate_verified'])}")
    return 0


def _grid_rank_parser(sub) -> None:
    grid = subparser(sub, "grid-rank", "exact rank of a random network's grid matricization",
                      "seprank grid-rank -L 2 --width 4 -H 2 -N 2 -M 12 --certify")
    _shape_options(grid, depth_required=True, width=True, width_required=True, heads=1)
    grid.add_argument("--residual", action="store_true", help="add the residual connections")
    grid.add_argument("--templates", "-M", type=integer("templates"), default=6, metavar="M",
                      help="number of templates M (default: %(default)s)")
    grid.add_argument("--template-bound", type=integer("template_bound"), default=3, metavar="B",
                      help="template entries uniform in [-B, B] (default: %(default)s)")
    _partition_option(grid)
    grid.add_argument("--seed", type=integer("seed"), default=0,
                      help="seed of the weights, the same draw as sep-rank's (the "
                      "templates: seed + 1)")
    grid.add_argument("--weights", metavar="FILE", default=None,
                      help="weights JSON {Q, K, V, O} (e.g. a saved --json answer of "
                      "sep-rank or grid-rank) instead of the seed's draw")
    grid.add_argument("--method", default="auto", choices=["auto", "exact", "modular"],
                      help="exact rank, or one prime (modular: a lower bound)")
    grid.add_argument("--certify", action="store_true",
                      help="attach certificates and verify them independently")
    json_option(grid, "the result")
    budget_options(grid)
    grid.set_defaults(func=_cmd_grid_rank)


def _sep_network(args: argparse.Namespace):
    """The network of ``sep-rank``, built once: from --weights FILE or the seeded draw."""
    from seprank.errors import ParameterError
    from seprank.separation import build_network, load_weights

    if args.weights:
        weights, dims = load_weights(args.weights)
        residual = args.residual or dims.get("residual", False)
        return build_network(args.depth, args.width, args.heads, args.head_dim,
                             residual=residual, weights=weights), None
    if args.depth is None or args.width is None:
        raise ParameterError("give -L/--depth and --width (and -H/--heads), or --weights FILE")
    seed = 0 if args.seed is None else args.seed
    return build_network(args.depth, args.width, args.heads, args.head_dim,
                         residual=args.residual, weights_seed=seed), seed


def _cmd_sep_rank(args: argparse.Namespace) -> int:
    from seprank.errors import ParameterError
    from seprank.separation import execute, plan_separation
    from seprank.separation.vocabulary import partition_from_text

    _shape_args(args)
    partition = None if args.partition is None else partition_from_text(args.partition)
    net, weights_seed = _sep_network(args)
    options = _task_options(args)
    if args.bounds_after is not None:
        if args.seq_len != math.inf:
            raise ParameterError(f"--bounds-after: the moment route's bounds within a time, "
                                 f"for -N inf only (got -N {args.seq_len})")
        from seprank.budget import parse_seconds

        options = (options or {}) | {"budget_seconds": parse_seconds(args.bounds_after,
                                                                     "bounds_after")}
    if args.embedding:   # the embedding route (finite N), the moment route (N = inf)
        emb = (_infinite_embedding(args, net) if args.seq_len == math.inf
               else _embedding(args, net))
        options = (options or {}) | {"embedding": emb}
    plan = plan_separation(network=net, weights_seed=weights_seed, N=args.seq_len,
                           partition=partition, position=args.position,
                           coordinate=args.coordinate, points_seed=args.points_seed,
                           route=args.route, prime=args.prime, certify=args.certify,
                           options=options)
    if args.explain:  # the plan only: checks and decisions, no rank work
        if args.json:
            emit_json(plan.to_dict(), args.json)
        if args.json != STDOUT:
            say(plan.explain())
        return 0
    compiling = [text for phase, text in plan.route_plan.estimate.phases
                 if phase == "compile"]
    if compiling and sys.stderr.isatty():   # said once, before the wait it explains
        print(f"compiling {compiling[0]}", file=sys.stderr)
    with spinner(f"separation rank ({plan.route})"):
        res = execute(plan)
    if args.json:
        emit_json(res.to_dict(), args.json)
        if args.json == STDOUT:
            return 0
    say(separation_statement(res.value, res.kind, getattr(res, "upper_bound", None)))
    say(res)
    return 0


def _task_options(args: argparse.Namespace) -> dict | None:
    """--scheduler / --workers / --store as moment-route options (-N inf only)."""
    from seprank.errors import ParameterError

    given = {k: getattr(args, k) for k in ("scheduler", "workers", "store")
             if getattr(args, k) is not None}
    if not given:
        return None
    if args.seq_len != math.inf:
        flags = ", ".join(f"--{k}" for k in given)
        raise ParameterError(f"{flags}: the moment route's blocks as tasks, for -N inf only "
                             f"(got -N {args.seq_len})")
    if "workers" in given and "scheduler" not in given:
        given["scheduler"] = "local"
    if given.get("scheduler", "local") != "local":
        from seprank.runtime.cluster import probe

        probe(given["scheduler"])  # its form, reachable, speaking Dask: before any work
    return given


def _infinite_embedding(args: argparse.Namespace, net):
    """The embedding of ``-N inf --embedding ...``: without positional part, else refused."""
    from seprank.errors import ParameterError
    from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding

    if args.pos_rank != 0:
        raise ParameterError(f"N = inf needs an embedding without positional part (--pos-rank "
                             f"0, got {args.pos_rank}): positional embeddings break the "
                             "permutation symmetry the moment form rests on")
    r = net.d_x if args.emb_rank is None else args.emb_rank
    if args.embedding == "vocabulary":   # N only sizes the (zero) positional part
        return VocabularyEmbedding.random(args.vocab, net.d_x, 2, r, 0, seed=args.embedding_seed)
    return ConvolutionalEmbedding.random(args.patch, args.d_input, net.d_x, 2, r, 0,
                                         seed=args.embedding_seed)


def _embedding(args: argparse.Namespace, net):
    """The wies2021 embedding of ``--embedding ...`` at a finite N, drawn from
    --embedding-seed (the embedding route's option: a convolution embedding's
    --partition is of its M = k N raw input positions)."""
    from seprank.models.embedding import ConvolutionalEmbedding, VocabularyEmbedding

    r = net.d_x if args.emb_rank is None else args.emb_rank
    if args.embedding == "vocabulary":
        return VocabularyEmbedding.random(args.vocab, net.d_x, args.seq_len, r, args.pos_rank,
                                          seed=args.embedding_seed)
    return ConvolutionalEmbedding.random(args.patch, args.d_input, net.d_x, args.seq_len, r,
                                         args.pos_rank, seed=args.embedding_seed)


def _sep_rank_parser(sub) -> None:
    from seprank.separation.routes import AUTO, route_names

    sep = subparser(sub, "sep-rank", "separation rank of one output of an eq. (3) network",
                     "seprank sep-rank -L 2 --width 4 -H 2 -N 2 --certify")
    _shape_options(sep, depth_required=False, width=True, seq_len=seq_len_or_inf)
    sep.add_argument("--residual", action="store_true",
                     help="add the skip connections (levine2020 A.4)")
    _partition_option(sep)
    src = sep.add_mutually_exclusive_group()
    src.add_argument("--seed", "--weights-seed", dest="seed", type=integer("seed"), default=None,
                     metavar="S", help="seed of the weights (default 0): nonzero integers drawn "
                     "uniformly from [-G, G], G = 2^20, 2^12, 2^3 for L = 1, 2, >= 3, the "
                     "same network in every command")
    src.add_argument("--weights", metavar="FILE", default=None,
                     help="weights JSON {Q, K, V, O} (e.g. a saved --json answer)")
    sep.add_argument("--points-seed", type=integer("seed"), default=None, metavar="S",
                     help="seed of the grid route's random points (default: the weights seed)")
    sep.add_argument("--route", default=AUTO, choices=[AUTO, *route_names()],
                     metavar="ROUTE",
                     help=f"one of {', '.join((AUTO, *route_names()))} (default {AUTO}: "
                     "by the number of output monomials; --explain says why)")
    sep.add_argument("--prime", type=integer("prime"), default=None, metavar="P",
                     help="prime of the grid route")
    sep.add_argument("--certify", action="store_true",
                     help="certify every block's rank and verify the certificates")
    sep.add_argument("--explain", action="store_true",
                     help="print the plan (route and why, prime, seeds, blocks, estimated work "
                     "and memory, answer kinds) and exit without computing; with --json, the "
                     "plan as JSON")
    json_option(sep, "the result")
    budget_options(sep)
    emb = sep.add_argument_group("wies2021 input embeddings (random, from --embedding-seed)")
    emb.add_argument("--embedding", choices=["vocabulary", "convolution"], default=None,
                     help="the network's input is a vocabulary or convolution embedding; the "
                     "partition is of the tokens (vocabulary) or of the M raw inputs")
    emb.add_argument("--vocab", type=integer("vocab"), default=8,
                     help="vocabulary size V (default 8)")
    emb.add_argument("--emb-rank", type=integer("emb_rank"), default=None,
                     help="inner rank r (default d_x)")
    emb.add_argument("--pos-rank", type=integer("pos_rank"), default=1,
                     help="positional rank r_e (default 1)")
    emb.add_argument("--patch", type=integer("patch"), default=2,
                     help="convolution: k = M/N (default 2)")
    emb.add_argument("--d-input", type=integer("d_input"), default=1,
                     help="convolution: d_input")
    emb.add_argument("--embedding-seed", type=integer("seed"), default=0,
                     help="seed of the random embedding (default 0)")
    big = sep.add_argument_group("-N inf: large instances (the blocks as Dask tasks)")
    big.add_argument("--scheduler", metavar="ADDRESS", default=None,
                     help="run the blocks' eliminations as Dask tasks: 'local' (a local "
                     "cluster) or a running scheduler, e.g. tcp://10.0.0.5:8786")
    big.add_argument("--workers", type=integer("workers"), default=None, metavar="N",
                     help="workers of the local cluster (default: one per core)")
    big.add_argument("--store", metavar="PATH", default=None,
                     help="JSON-lines store of the blocks' ranks: a rerun resumes from it")
    big.add_argument("--bounds-after", metavar="S", default=None, type=seconds,
                     help="degrade to certified bounds past S estimated seconds: blocks past "
                     "it are sampled or skipped (default 600; --max-seconds refuses instead)")
    sep.set_defaults(func=_cmd_sep_rank)



def add_parsers(sub) -> None:
    """Declare ``seprank lemma6``, ``seprank grid-rank`` and ``seprank sep-rank``.

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers()
    >>> add_parsers(sub)
    >>> sorted(sub.choices)
    ['grid-rank', 'lemma6', 'sep-rank']
    """
    _lemma6_parser(sub)
    _grid_rank_parser(sub)
    _sep_rank_parser(sub)
