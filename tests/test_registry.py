"""The one registry helper (issue 29, item 6): seprank.registry.Registry and its users.

The helper's own behaviour is tested on small throwaway tables: the order, built-ins
imported only when the table is first asked for something, refused duplicates, replace,
unregister, the did-you-mean, a name that is not a str, and a broken entry-point plugin
that is skipped in one line. Then one test per user (routes, engines, methods, paper
wings, check packages) shows that it goes through the helper.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from seprank import plugins
from seprank.errors import ParameterError, SeprankError
from seprank.registry import Registry, discover, load_spec


def part(name: str, **extra) -> SimpleNamespace:
    return SimpleNamespace(name=name, **extra)


def _module(tmp_path, monkeypatch, name: str, text: str) -> None:
    """A module ``name`` on sys.path, not imported yet."""
    (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)


def _entry_points(tmp_path, monkeypatch, group: str, lines: dict[str, str]) -> None:
    """An installed distribution (a bare .dist-info folder on sys.path) that declares
    ``lines`` (name -> value) under ``group``; importlib.metadata reads nothing else."""
    dist = tmp_path / "fake_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 0.1\n")
    body = "".join(f"{name} = {value}\n" for name, value in lines.items())
    (dist / "entry_points.txt").write_text(f"[{group}]\n{body}")
    monkeypatch.syspath_prepend(str(tmp_path))


# ---------------------------------------------------------------- the helper


def test_order_is_kept_and_first_puts_an_item_in_front():
    reg = Registry("shape")
    for name in ("square", "circle", "triangle"):
        reg.register(part(name))
    assert reg.names() == ("square", "circle", "triangle")
    reg.register(part("dot"), first=True)
    assert reg.names() == ("dot", "square", "circle", "triangle")
    assert [p.name for p in reg.items()] == list(reg.names())
    assert "circle" in reg and "hexagon" not in reg and 3 not in reg and len(reg) == 4


def test_a_builtin_spec_is_imported_only_when_the_table_is_asked(tmp_path, monkeypatch):
    _module(tmp_path, monkeypatch, "lazy_parts_for_seprank",
            "from types import SimpleNamespace\nPART = SimpleNamespace(name='lazy')\n")
    reg = Registry("part", builtins=("lazy_parts_for_seprank:PART",))
    assert "lazy_parts_for_seprank" not in sys.modules
    assert "not loaded" in repr(reg)
    assert reg.names() == ("lazy",)
    assert "lazy_parts_for_seprank" in sys.modules
    assert reg.get("lazy") is sys.modules["lazy_parts_for_seprank"].PART
    # after clear(), the built-ins come back on next use, in the same dict object
    table = reg.table
    reg.register(part("extra"))
    reg.clear()
    assert reg.table == {} and reg.names() == ("lazy",) and reg.table is table


def test_a_broken_builtin_raises_its_own_error(tmp_path, monkeypatch):
    _module(tmp_path, monkeypatch, "broken_parts_for_seprank", "raise RuntimeError('boom')\n")
    reg = Registry("part", builtins=("broken_parts_for_seprank:PART",))
    with pytest.raises(RuntimeError, match="boom"):
        reg.names()


def test_duplicates_are_refused_in_one_line_unless_replaced():
    reg = Registry("engine")
    first = reg.register(part("flint", v=1))
    reg.register(part("numba"))
    with pytest.raises(ParameterError) as err:
        reg.register(part("flint", v=2))
    assert str(err.value) == "an engine named 'flint' is registered already"
    assert reg.get("flint") is first
    second = reg.register(part("flint", v=2), replace=True)
    assert reg.get("flint") is second and reg.names() == ("flint", "numba")  # same place


def test_what_cannot_be_registered():
    reg = Registry("route", reserved=("auto",), of_type=SimpleNamespace)
    with pytest.raises(ParameterError, match="^a route must be a SimpleNamespace, got str$"):
        reg.register("grid")
    for bad in ("", None, 3):
        with pytest.raises(ParameterError, match="needs a non-empty str name"):
            reg.register(part(bad))
    with pytest.raises(ParameterError, match="'auto' is reserved; it cannot name a route"):
        reg.register(part("auto"))
    assert reg.names() == ()
    one_line = Registry("route", reserved=("auto",), refused=lambda n: f"no route {n!r}")
    one_line.register(part("grid"))
    for name in ("", "auto", "grid"):                    # one message for every refusal
        with pytest.raises(ParameterError, match=f"^no route '{name}'$"):
            one_line.register(part(name))


def test_unregister_returns_the_item_and_an_unknown_name_is_refused():
    reg = Registry("shape")
    square = reg.register(part("square"))
    reg.register(part("circle"))
    assert reg.unregister("square") is square and reg.names() == ("circle",)
    with pytest.raises(ParameterError, match="^unknown shape 'square'; choose one of circle$"):
        reg.unregister("square")


def test_an_unknown_name_gets_the_choices_and_a_did_you_mean():
    reg = Registry("shape")
    for name in ("square", "circle"):
        reg.register(part(name))
    with pytest.raises(ParameterError) as err:
        reg.get("cirle")
    assert str(err.value) == ("unknown shape 'cirle'; choose one of square, circle; "
                              "did you mean circle?")
    with pytest.raises(ParameterError) as err:
        reg.get("Square")                       # the same name in another case first
    assert str(err.value).endswith("; did you mean square?")
    with pytest.raises(ParameterError) as err:
        reg.get("zzz")                          # nothing close: no hint
    assert str(err.value) == "unknown shape 'zzz'; choose one of square, circle"
    custom = Registry("paper", unknown=lambda key, keys: f"no paper {key!r} among {keys}",
                      error=SeprankError)
    custom.register(part("levine2020"))
    with pytest.raises(SeprankError) as err:
        custom.get("levine2002")
    assert type(err.value) is SeprankError
    assert str(err.value) == ("no paper 'levine2002' among ('levine2020',); "
                              "did you mean levine2020?")


@pytest.mark.parametrize("name", [1, b"square", ["square"], None, 1.5])
def test_a_name_that_is_not_a_str_is_refused_without_coercion(name):
    reg = Registry("shape")
    reg.register(part("square"))
    reg.register(part("1"))
    with pytest.raises(ParameterError) as err:
        reg.get(name)
    assert str(err.value) == (f"shape must be a str, one of square, 1; got {name!r} "
                              f"({type(name).__name__})")
    assert reg.names() == ("square", "1")


def test_a_broken_entry_point_plugin_is_skipped_in_one_line(tmp_path, monkeypatch):
    group = "seprank.test_registry"
    _module(tmp_path, monkeypatch, "good_plugin_for_seprank",
            "from types import SimpleNamespace\nPART = SimpleNamespace(name='good')\n")
    _module(tmp_path, monkeypatch, "bad_plugin_for_seprank", "def f(:\n    pass\n")
    _module(tmp_path, monkeypatch, "exit_plugin_for_seprank", "raise SystemExit(3)\n")
    _module(tmp_path, monkeypatch, "twin_plugin_for_seprank",
            "from types import SimpleNamespace\nPART = SimpleNamespace(name='good')\n")
    _entry_points(tmp_path, monkeypatch, group, {
        "bad": "bad_plugin_for_seprank:PART",
        "exit": "exit_plugin_for_seprank:PART",
        "good": "good_plugin_for_seprank:PART",
        "nameless": "good_plugin_for_seprank:NOPE",
        "twin": "twin_plugin_for_seprank:PART",
    })
    reg = Registry("widget", group=group)
    plugins.forget()
    try:
        assert reg.names() == ("good",)                  # the broken ones cost no crash
        lines = reg.skipped()
        assert plugins.noted() == lines and len(lines) == 4
        assert all("\n" not in line and line.endswith("; skipped") for line in lines)
        bad, exit_, nameless, twin = lines               # entry points in name order
        assert bad.startswith("widget 'bad' (bad_plugin_for_seprank) cannot be imported: "
                              "SyntaxError")
        assert "SystemExit(3) while importing" in exit_
        assert nameless.startswith("widget 'nameless' (good_plugin_for_seprank) has no "
                                   "attribute 'NOPE'")
        assert twin == ("widget name 'good' registered twice (good_plugin_for_seprank:PART "
                        "and twin_plugin_for_seprank:PART); skipped")
        plugins.forget()
        reg.get("good")                                  # noted again in the next command
        assert plugins.noted() == lines
    finally:
        plugins.forget()


def test_discover_puts_builtins_first_and_lets_an_entry_point_stand_for_one():
    class EP:
        def __init__(self, name, value):
            self.name, self.value = name, value

    eps = [EP("zeta", "zeta_mod"), EP("errors2", "seprank.errors"), EP("alpha", "alpha_mod")]
    found = discover("g", {"plugins": "seprank.plugins", "errors": "seprank.errors",
                           "gone": "no_such_module_for_seprank"},
                     entry_points=lambda group: eps)
    # 'errors' is declared by an entry point under another name: taken once, from it
    assert found == {"plugins": "seprank.plugins", "alpha": "alpha_mod",
                     "errors2": "seprank.errors", "zeta": "zeta_mod"}
    assert "gone" in discover(None, {"gone": "no_such_module"}, findable_only=False)


def test_load_spec_names_a_module_or_an_attribute():
    import seprank.errors

    assert load_spec("seprank.errors") is seprank.errors
    assert load_spec(" seprank.errors : did_you_mean ") is seprank.errors.did_you_mean
    with pytest.raises(AttributeError):
        load_spec("seprank.errors:nope")                 # a built-in: the plain error


# ---------------------------------------------------------------- its users


def test_the_routes_go_through_the_helper():
    from seprank.separation import routes as r
    from seprank.separation.route import SeparationRoute

    class Toy(SeparationRoute):
        name = "toy-registry"

    assert isinstance(r.ROUTES, Registry) and r.route_names() == r.ROUTES.names()
    before = r.route_names()
    toy = Toy()
    r.register_route(toy, first=True)
    try:
        assert r.route_names() == ("toy-registry", *before) and r.get_route("toy-registry") is toy
        with pytest.raises(ParameterError) as err:
            r.register_route(Toy())
        assert str(err.value) == ("cannot register a route named 'toy-registry' (empty, "
                                  "'auto', or already registered)")
    finally:
        assert r.unregister_route("toy-registry") is toy
    assert r.route_names() == before
    with pytest.raises(ParameterError) as err:
        r.get_route("momnt")
    assert str(err.value) == ("route must be one of auto, coefficient, grid, template-grid, "
                              "embedding, moment; got 'momnt'; did you mean moment?")
    for name in ("auto", ""):
        with pytest.raises(ParameterError, match=f"cannot register a route named '{name}'"):
            r.register_route(type("Bad", (SeparationRoute,), {"name": name})())


def test_the_engines_go_through_the_helper():
    import dataclasses

    from seprank.linalg import engines as e

    assert isinstance(e.ENGINES, Registry) and e.REGISTRY is e.ENGINES.table
    assert "flint" in e.engine_names()
    with pytest.raises(ParameterError) as err:
        e.get_engine("flnt")
    assert str(err.value).endswith("; did you mean flint?")
    assert str(err.value).startswith("unknown engine 'flnt'; choose one of flint, numba")
    with pytest.raises(ParameterError, match=r"engine must be a str, .*got 1 \(int\)"):
        e.get_engine(1)
    twin = dataclasses.replace(e.get_engine("numba"), name="numba-twin")
    e.register_engine(twin)
    try:
        assert e.REGISTRY["numba-twin"] is twin and e.engine_names()[-1] == "numba-twin"
    finally:
        e.unregister_engine("numba-twin")
    assert "numba-twin" not in e.REGISTRY


def test_the_methods_go_through_the_helper():
    import seprank
    from seprank.linalg.engines import METHOD_REGISTRY, RANK_METHODS, method_names

    assert METHOD_REGISTRY is RANK_METHODS.table and method_names() == RANK_METHODS.names()
    with pytest.raises(ParameterError) as err:
        seprank.rank([[1]], method="modluar")
    assert str(err.value).startswith("unknown method 'modluar'; choose one of auto, exact")
    assert str(err.value).endswith("; did you mean modular?")


def test_the_paper_wings_go_through_the_helper(monkeypatch):
    from seprank import paper_hooks

    assert isinstance(paper_hooks.WINGS, Registry)
    paper_hooks.clear_cache()
    try:
        assert paper_hooks.WINGS.names()[:2] == ("levine2020", "wies2021")
        assert paper_hooks.wings() == paper_hooks.WINGS.items()
        with pytest.raises(SeprankError) as err:
            paper_hooks.paper("levine2002")
        assert str(err.value).startswith("unknown paper 'levine2002'; known: levine2020, ")
        assert str(err.value).endswith("; did you mean levine2020?")
        # a plugin wing arrives through the entry points the helper reads
        eps = [SimpleNamespace(name="nowhere", value="no_such_wing_for_seprank")]
        monkeypatch.setattr(paper_hooks, "entry_points", lambda group: eps)
        paper_hooks.clear_cache()
        assert paper_hooks.WINGS.names()[:2] == ("levine2020", "wies2021")
        (line,) = paper_hooks.skipped_wings()
        assert line.startswith("paper wing 'nowhere' (no_such_wing_for_seprank) cannot be "
                               "imported")
    finally:
        plugins.forget()
        paper_hooks.clear_cache()


def test_the_check_packages_are_found_by_the_helper(monkeypatch):
    from seprank.proof import registry as checks
    from seprank.registry import discover as real

    seen = []

    def spy(group, builtins=None, **kw):
        seen.append((group, dict(builtins or {})))
        return real(group, builtins, **kw)

    monkeypatch.setattr(checks, "discover", spy)
    assert checks.plugin_packages()["seprank_proofs"] == "seprank_proofs"
    assert seen == [("seprank.checks", {"seprank_proofs": "seprank_proofs"})]
