"""The separation front door: plan_separation -> route registry -> typed result (issue 19,
items 3 and 6; issue 23 item 5): the plan computes nothing, a toy route plugs in with one
registration, the two seeds, the displays, one vocabulary, partitions, edge checks."""

import ast
import json
import math
from pathlib import Path

import numpy as np
import pytest

import seprank
from seprank.errors import InputError, ParameterError
from seprank.models import SelfAttentionNetwork
from seprank.separation import (
    SeparationRoute,
    build_network,
    execute,
    plan_separation,
    register_route,
    route_names,
    separation_rank,
    unregister_route,
)
from seprank.separation.route import RouteOutcome, RoutePlan, WorkEstimate

ONES = {k: [[[[1]]]] for k in "QKVO"}
SEPARATION = Path(seprank.__file__).parent / "separation"


def _raise(*args, **kwargs):
    raise AssertionError("the plan must not compute")


@pytest.fixture
def no_computation(monkeypatch):
    """Every rank routine and every evaluation raises while the fixture is active."""
    import seprank.linalg
    import seprank.linalg.frontdoor
    from seprank.separation.coefficient import route as coefficient
    from seprank.separation.grid import route as gridroute
    from seprank.separation.grid import template as template_grid

    for mod in (seprank.linalg, seprank.linalg.frontdoor, coefficient, gridroute,
                template_grid):
        monkeypatch.setattr(mod, "rank", _raise)
    for mod in (seprank.linalg, coefficient, gridroute, template_grid):
        monkeypatch.setattr(mod, "verify", _raise)
    monkeypatch.setattr(coefficient, "network_polynomial", _raise)
    monkeypatch.setattr(gridroute, "grid_values_mod_p", _raise)
    monkeypatch.setattr(gridroute, "grid_values_moment", _raise)
    monkeypatch.setattr(template_grid, "grid_tensor", _raise)
    monkeypatch.setattr(seprank, "rank", _raise)


# -- the plan -------------------------------------------------------------------------------

def test_plan_does_no_rank_work(no_computation):
    # L = 2, d_x = 2, N = 2: C(4 + 9 - 1, 9) = 220 possible monomials -> coefficient
    plan = plan_separation(2, 2, 1, weights_seed=1)
    assert plan.route == "coefficient" and plan.fallback is None
    assert plan.request.possible_terms == math.comb(4 + 9 - 1, 9)
    assert plan.kinds == ("exact",) and plan.route_plan.blocks_known == "at most"
    # the grid route's blocks: I-degree k of 3^2 = 9 in |I| d_x = 2 variables, parity odd
    grid = plan_separation(2, 2, 1, weights_seed=1, route="grid")
    caps = [b.cap for b in grid.route_plan.blocks]
    assert caps == [min(math.comb(k + 1, k), math.comb(9 - k + 1, 9 - k)) if k % 2 else 0
                    for k in range(10)]
    assert grid.route_plan.prime == 2**31 - 1 and grid.kinds == ("exact", "lower_bound")
    assert grid.route_plan.estimate.peak_bytes > 0
    # L = 3, d_x = 4: above both cutoffs, the grid route and no fallback
    big = plan_separation(depth=3, width=4, heads=2)
    assert big.route == "grid" and big.fallback is None
    assert "AUTO_COEFFICIENT_MAX_TERMS" in big.route_reason
    tg = plan_separation(1, 1, 1, weights=ONES, templates=[[1], [2], [3], [4]])
    assert tg.route == "template-grid"
    json.dumps(tg.to_dict())  # JSON-ready


def test_auto_fallback_is_planned_between_the_cutoffs():
    from seprank.separation.coefficient import route as coefficient

    # L = 2, d_x = 3, N = 2: C(6 + 9 - 1, 9) = 2002 possible monomials
    terms = math.comb(14, 9)
    old = coefficient.AUTO_COEFFICIENT_MAX_TERMS
    try:
        coefficient.AUTO_COEFFICIENT_MAX_TERMS = terms - 1  # the cutoff beside the choice
        plan = plan_separation(2, 3, 1)
        assert (plan.route, plan.fallback) == ("grid", "coefficient")
        assert plan.kinds == ("exact", "lower_bound")
    finally:
        coefficient.AUTO_COEFFICIENT_MAX_TERMS = old
    assert plan_separation(2, 3, 1).route == "coefficient"


def test_execute_of_the_plan_is_separation_rank():
    plan = plan_separation(2, 2, 1, weights_seed=3, route="grid")
    a, b = execute(plan), separation_rank(2, 2, 1, weights_seed=3, route="grid")
    assert (a.value, a.kind, a.blocks, a.points_digest) == (b.value, b.kind, b.blocks,
                                                            b.points_digest)
    assert a.plan is plan and a.to_dict()["plan"]["route"] == "grid"


def test_explain_prints_the_plan_and_computes_nothing(capsys, no_computation):
    from seprank.cli import main

    assert main(["sep-rank", "-L", "3", "--width", "4", "-H", "2", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "route: grid" in out and "AUTO_COEFFICIENT_MAX_TERMS = 200000" in out
    assert "answers: exact or lower_bound" in out and "peak memory" in out
    assert main(["sep-rank", "-L", "2", "--width", "2", "--explain", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["route"] == "coefficient" and plan["kinds"] == ["exact"]
    assert plan["weights_seed"] == 0 and plan["points_seed"] == 0


# -- the registry ---------------------------------------------------------------------------

class ToyRoute(SeparationRoute):
    """Answers 0 for every finite request, and always wants to run."""

    name = "toy"
    summary = "a route for the registry test"
    matrix_words = "toy matrix"

    def should_run(self, request, *, fallback=False):
        return (not fallback), "the toy always wants to run"

    def plan(self, request):
        return RoutePlan((), WorkEstimate((("nothing", "no work"),), 0, 0), ("exact",))

    def run(self, request, plan):
        return RouteOutcome(0, "exact", 0, [], self.matrix_words, matrix_shape=(0, 0))


def test_a_registered_toy_route_is_planned_run_and_removed():
    before = plan_separation(1, 1, 1, weights=ONES)
    register_route(ToyRoute(), first=True)
    try:
        assert route_names()[0] == "toy"
        assert plan_separation(1, 1, 1, weights=ONES).route == "toy"
        res = separation_rank(1, 1, 1, weights=ONES, route="toy")
        assert (res.route, res.value, res.kind) == ("toy", 0, "exact")
        assert "toy matrix: 0 x 0" in str(res)
        with pytest.raises(ParameterError, match="cannot register"):
            register_route(ToyRoute())
    finally:
        unregister_route("toy")
    after = plan_separation(1, 1, 1, weights=ONES)
    assert "toy" not in route_names()
    assert (after.route, after.route_reason) == (before.route, before.route_reason)
    with pytest.raises(ParameterError, match="route must be one of"):
        separation_rank(1, 1, 1, weights=ONES, route="toy")


def test_a_toy_route_asked_last_does_not_displace_the_cutoffs():
    register_route(ToyRoute())
    try:
        assert plan_separation(1, 1, 1, weights=ONES).route == "coefficient"
    finally:
        unregister_route("toy")


def test_routes_that_cannot_run_say_why():
    with pytest.raises(ParameterError, match="template-grid.*needs templates"):
        separation_rank(1, 1, 1, weights=ONES, route="template-grid")
    with pytest.raises(ParameterError, match="does not take templates"):
        separation_rank(1, 1, 1, weights=ONES, route="grid", templates=[[1]])


def test_nothing_branches_on_a_route_name_outside_its_module():
    names = set(route_names())
    for path in [*SEPARATION.glob("*.py"), *(SEPARATION.parent / "cli").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                consts = [c.value for c in (node.left, *node.comparators)
                          if isinstance(c, ast.Constant)]
                assert not names & set(consts), f"{path.name}:{node.lineno} compares a route name"


def test_the_separation_package_never_imports_the_top_level_package():
    for path in SEPARATION.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert all(a.name != "seprank" for a in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module != "seprank", path.name


# -- the two seeds --------------------------------------------------------------------------

def test_points_seed_moves_the_points_not_an_exact_value():
    # identity weights, d_x = 2: sep = d_x + 1 = 3 (tests/test_separation.py), and the grid
    # value meets the blocks' caps, so it is certified exact whatever the points
    eye = np.eye(2, dtype=np.int64).tolist()
    w = {k: [[eye]] for k in "QKVO"}
    a = separation_rank(weights=w, route="grid", points_seed=1)
    b = separation_rank(weights=w, route="grid", points_seed=5)
    assert (a.points_seed, b.points_seed) == (1, 5) and a.points_digest != b.points_digest
    assert (a.value, a.kind) == (b.value, b.kind) == (3, "exact")
    # random weights: the weights stay, the points move; both values equal the exact one
    # unless the points are unlucky (Schwartz-Zippel: probability below 1e-6 here)
    c = separation_rank(2, 2, 1, weights_seed=1, route="grid")
    d = separation_rank(2, 2, 1, weights_seed=1, points_seed=5, route="grid")
    assert (c.weights_seed, c.points_seed, d.points_seed) == (1, 1, 5)
    assert c.weights == d.weights and c.points_digest != d.points_digest
    exact = separation_rank(2, 2, 1, weights_seed=1, route="coefficient")
    assert c.value == d.value == exact.value <= c.upper_bound


def test_the_older_single_seed_still_works():
    old = separation_rank(2, 2, 1, seed=4, route="grid")
    new = separation_rank(2, 2, 1, weights_seed=4, route="grid")
    assert (old.weights, old.points_digest, old.value) == (new.weights, new.points_digest,
                                                           new.value)
    with pytest.raises(ParameterError, match="not both"):
        separation_rank(2, 2, 1, seed=1, weights_seed=1)
    # with given weights, seed only sets the points (as before); weights_seed is checked
    given = separation_rank(weights=new.weights, seed=4, route="grid")
    assert given.weights_seed is None and given.points_digest == new.points_digest
    assert separation_rank(weights=new.weights, weights_seed=4).weights_seed == 4
    with pytest.raises(ParameterError, match="does not draw these weights"):
        separation_rank(weights=new.weights, weights_seed=5)


def test_cli_points_seed(capsys):
    from seprank.cli import main

    outs = []
    for extra in ([], ["--points-seed", "9"]):
        assert main(["sep-rank", "-L", "2", "--width", "2", "--route", "grid", "--seed", "1",
                     *extra, "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert [o["points_seed"] for o in outs] == [1, 9]
    assert outs[0]["weights"] == outs[1]["weights"] and outs[0]["weights_seed"] == 1
    assert outs[0]["points_digest"] != outs[1]["points_digest"]


# -- the typed result -----------------------------------------------------------------------

OLD_KEYS = {"value", "kind", "upper_bound", "partition", "position", "coordinate", "seq_len",
            "residual", "network", "route", "bounds", "blocks", "details", "weights"}


def test_typed_result_text_displays_and_json():
    r = separation_rank(1, 1, 1, weights=ONES, certify=True)
    text = str(r)
    assert text.splitlines()[0].startswith("separation rank 2 (exact) of y[0][0]")
    assert "coefficient matrix: 2 x 2 in 2 blocks; certified upper bound 2" in text
    assert "L-Thm3 (upper)" in text and text.endswith("verified: True")
    md, html = r._repr_markdown_(), r._repr_html_()
    assert "| sep rank | kind |" in md and "| 2 | exact |" in md and "bounds" in md
    assert html.startswith("<table><caption>separation rank 2 (exact)") and "L-Thm3" in html
    d = r.to_dict()
    assert OLD_KEYS <= set(d) and d["details"]["matrix_shape"] == [2, 2]
    assert d["details"]["terms"] == r.terms == 2 and r.certificates_verified is True
    # default=str as the CLI writes it: the coefficient blocks' degrees are flint fmpz
    # (printed as strings since the first version; reported, kept for the differential)
    assert json.loads(json.dumps(d, default=str))["value"] == 2
    g = separation_rank(1, 1, 1, weights=ONES, route="grid")
    assert g.details["grid"]["prime"] == g.prime == 2**31 - 1
    assert "Schwartz-Zippel" in str(g) and g.matrix_shape is None and g.matrix_points == 2


# -- one vocabulary -------------------------------------------------------------------------

def test_both_spellings_give_the_same_answer():
    a = separation_rank(2, 2, 1)
    b = separation_rank(depth=2, width=2, heads=1)
    assert (a.value, a.kind, a.weights) == (b.value, b.kind, b.weights)
    c = separation_rank(1, 2, 1, d_a=1, N=3, seed=2)
    d = separation_rank(depth=1, width=2, heads=1, head_dim=1, seq_len=3, seed=2)
    assert (c.value, c.network, c.seq_len) == (d.value, d.network, d.seq_len) == (
        c.value, {"L": 1, "d_x": 2, "H": 1, "d_a": 1}, 3)


@pytest.mark.parametrize("symbol, name", [("L", "depth"), ("d_x", "width"), ("H", "heads"),
                                          ("d_a", "head_dim"), ("N", "seq_len")])
def test_one_parameter_in_both_spellings_is_refused(symbol, name):
    kw = {"depth": 1, "width": 2}
    kw.pop(name, None)
    with pytest.raises(ParameterError, match=f"give {symbol} or {name}, not both"):
        separation_rank(**kw, **{symbol: 2, name: 2})


def test_cli_long_and_short_spellings(capsys):
    from seprank.cli import main

    values = []
    for args in (["--depth", "1", "--width", "2", "--heads", "2", "--head-dim", "1",
                  "--seq-len", "3"],
                 ["-L", "1", "-d_x", "2", "-H", "2", "-d_a", "1", "-N", "3"],
                 ["-L", "1", "--dx", "2", "-H", "2", "--da", "1", "-N", "3"]):
        assert main(["sep-rank", *args, "--json"]) == 0
        out = capsys.readouterr()
        values.append(json.loads(out.out)["value"])
        if "--da" in args:  # the old spellings still work, with a note
            assert "--da is deprecated" in out.err and "--dx is deprecated" in out.err
    assert len(set(values)) == 1
    assert main(["sep-rank", "-L", "1", "-d_x", "2", "--da", "2", "--head-dim", "2"]) == 2
    assert "not both" in capsys.readouterr().err


def test_cli_vocabulary_of_grid_rank_and_lemma6(capsys):
    from seprank.cli import main

    assert main(["grid-rank", "--depth", "1", "-d_x", "2", "-M", "3", "--json"]) == 0
    new = json.loads(capsys.readouterr().out)
    assert main(["grid-rank", "-L", "1", "--dx", "2", "-M", "3", "--json"]) == 0
    old = json.loads(capsys.readouterr().out)
    assert (old["rank"]["value"], old["matrix_shape"]) == (new["rank"]["value"],
                                                           new["matrix_shape"])
    assert main(["lemma6", "-L", "2", "--head-dim", "3", "--corrected", "--half", "1"]) == 0
    assert main(["lemma6", "-L", "2", "-d_a", "3", "--corrected", "--half", "1"]) == 0
    assert main(["lemma6", "-L", "2", "--da", "3", "--corrected", "--half", "1"]) == 0
    assert "--da is deprecated" in capsys.readouterr().err


# -- partitions and edge checks -------------------------------------------------------------

def test_partitions_in_both_forms():
    want = separation_rank(1, 1, 1, N=3, weights=ONES, partition=[0, 2])
    for part in (([0, 2], [1]), [[0, 2], [1]], {"I": [0, 2], "J": [1]}, (0, 2)):
        got = separation_rank(1, 1, 1, N=3, weights=ONES, partition=part)
        assert (got.value, got.partition) == (want.value, {"I": [0, 2], "J": [1]})


@pytest.mark.parametrize("part, words", [
    (([0, 1, 2], []), "both sides"), ([0, 0], "repeats"), (([0, 1], [1, 2]), "both"),
    (([0], [1]), "neither"), ("0,1", "partition must be"), ([True], "partition must be"),
    ([[0, 1]], "partition must be"), ([0, 5], "outside"),
])
def test_bad_partitions(part, words):
    with pytest.raises(ParameterError, match=words):
        separation_rank(1, 1, 1, N=3, weights=ONES, partition=part)


def test_cli_partition_text(capsys):
    from seprank.cli import main

    assert main(["sep-rank", "-L", "1", "--width", "1", "-N", "3", "--partition", "1|0,2",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["partition"] == {"I": [1], "J": [0, 2]}
    for text in ("0,,1", "0,", "|1", "0|1|2"):
        assert main(["sep-rank", "-L", "1", "--width", "1", "-N", "3", "--partition",
                     text]) == 2
        err = capsys.readouterr().err
        assert err.startswith("seprank: error: --partition") and err.count("\n") == 1


@pytest.mark.parametrize("flag, value", [("residual", "false"), ("residual", 1),
                                         ("certify", "yes")])
def test_no_coerced_bools(flag, value):
    with pytest.raises(ParameterError, match=f"{flag} must be True or False"):
        separation_rank(1, 1, 1, weights=ONES, **{flag: value})


def test_residual_must_agree_with_the_network():
    net = SelfAttentionNetwork.random(1, 1, 1, residual=True, seed=0, nonzero=True)
    assert separation_rank(network=net).residual is True
    with pytest.raises(InputError, match="residual"):
        separation_rank(network=net, residual=False)


def test_infinite_N_is_the_moment_route(capsys):
    from seprank.cli import main

    assert plan_separation(1, 2, 1, N=math.inf).route == "moment"
    assert main(["sep-rank", "-L", "1", "--width", "2", "-N", "inf", "--route", "grid"]) == 2
    err = capsys.readouterr().err
    assert "needs a finite N" in err and err.count("\n") == 1


def test_network_passed_through_without_json(monkeypatch):
    from seprank.models import weights as weights_module

    net = SelfAttentionNetwork.random(1, 2, 1, seed=3, nonzero=True)
    monkeypatch.setattr(weights_module, "weights_from_json", _raise)
    assert build_network(network=net) is net
    arrays = {k: np.array(net.weights[k]) for k in "QKVO"}
    assert build_network(weights=arrays).weights["Q"].tolist() == net.weights["Q"].tolist()
    with pytest.raises(InputError, match="float"):
        build_network(weights=dict(arrays, O=arrays["O"].astype(float)))


# -- the template-grid route ----------------------------------------------------------------

def test_template_grid_route_against_the_coefficient_route():
    net = SelfAttentionNetwork.random(1, 2, 1, seed=2, nonzero=True)
    exact = separation_rank(network=net, route="coefficient")
    # 10 = monomials of degree <= 3 in 2 variables: certified templates give the exact value
    from seprank.constructions.known_seprank import certified_templates

    T = certified_templates(np.random.default_rng(0), 2, 10, 2, 3)[0]
    full = separation_rank(network=net, templates=T)
    assert full.route == "template-grid" and full.template_certificate["ok"]
    assert (full.value, full.kind) == (exact.value, "exact")
    few = separation_rank(network=net, templates=T[:2])  # too few: a certified lower bound
    assert few.kind == "lower_bound" and few.value < exact.value <= few.upper_bound
    # three templates reach the size cap 3: a lower bound that meets the certified upper
    # bound is exact, though the templates' certificate fails
    three = separation_rank(network=net, templates=T[:3])
    assert not three.template_certificate["ok"]
    assert (three.value, three.kind) == (exact.value, "exact") == (three.upper_bound, "exact")


def test_exported_from_the_top_level_package():
    assert seprank.plan_separation is plan_separation
    assert seprank.SeparationPlan.__name__ == "SeparationPlan"
    assert seprank.SeparationRankResult.__name__ == "SeparationRankResult"


def test_template_grid_is_exact_when_its_rank_meets_the_cap():
    """A matrix rank (a certified lower bound of sep) equal to the size cap (a certified
    upper bound) is the separation rank, whatever the templates' certificate says; the
    grid route already said so, the template route said lower_bound (issue 29, noticed)."""
    import numpy as np

    from seprank.separation.monomials import size_cap

    seen = {"exact": 0, "lower_bound": 0}
    for seed in range(3):
        T = np.random.default_rng(seed).integers(-3, 4, size=(3, 1))
        r = seprank.separation_rank(1, 1, 1, N=2, templates=T, weights_seed=seed)
        cap = size_cap(1, 1, 2, (0,), 0, False)
        assert r.route == "template-grid" and r.upper_bound == cap
        assert (r.kind == "exact") == (r.value == cap)
        seen[r.kind] += 1
    assert seen["exact"] and seen["lower_bound"]    # both branches met
