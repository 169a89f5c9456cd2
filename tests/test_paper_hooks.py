"""The paper wings reach the core only through seprank.paper_hooks (issue 19).

A fake wing is registered by replacing the entry points the hook module reads, so
these tests need no installed plugin; every test leaves the cache cleared.
"""

from __future__ import annotations

import sys
import types
from fractions import Fraction

import pytest

from seprank import paper_hooks
from seprank.errors import SeprankError
from seprank.paper_hooks.paper_record import Paper

BUILTIN = ["levine2020", "wies2021", "chapter7", "rank_collapse", "amsel"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    paper_hooks.clear_cache()
    yield
    paper_hooks.clear_cache()


class _EntryPoint:
    def __init__(self, name, value):
        self.name, self.value = name, value


def _register(monkeypatch, **wings):
    """Make the entry-point group hold exactly ``wings`` (name -> module name)."""
    eps = [_EntryPoint(n, v) for n, v in wings.items()]
    monkeypatch.setattr(paper_hooks, "entry_points", lambda group: eps)
    paper_hooks.clear_cache()


def _fake_wing(monkeypatch, name, **attrs):
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    monkeypatch.setitem(sys.modules, name, mod)
    return mod


def test_builtin_wings_in_order_with_full_references():
    papers = paper_hooks.papers()
    assert list(papers)[:5] == BUILTIN
    for key in BUILTIN:
        p = papers[key]
        assert p.key == key and p.authors and p.reference().startswith(p.authors[0])
        assert p.year or key == "amsel"   # the talk is undated; its paper (2024) is in the note
    assert papers["levine2020"].arxiv == "2006.12467"
    assert papers["wies2021"].arxiv == "2105.03928"
    assert "pp. 215-248" in papers["chapter7"].reference()
    assert "2103.03404" in papers["rank_collapse"].reference()
    assert "2407.16153" in papers["amsel"].reference()


def test_citations_are_unchanged_by_the_bibliographic_fields():
    """Steps' sources must not change: cite() is the file name and the passage."""
    lev = paper_hooks.paper("levine2020")
    assert lev.cite("A.2 l.380-423") == \
        "levine2020_depth_to_width_self_attention.txt A.2 l.380-423"
    assert str(paper_hooks.paper("wies2021")) == "wies2021_vocabulary_bottleneck.txt"


def test_fallback_without_entry_points_imports_the_builtin_wings(monkeypatch):
    _register(monkeypatch)  # a source tree: nothing installed under the group
    assert [w.paper.key for w in paper_hooks.wings()] == BUILTIN


def test_unknown_paper_is_a_one_line_error():
    with pytest.raises(SeprankError, match="unknown paper 'nope'; known: levine2020"):
        paper_hooks.paper("nope")


def test_a_plugin_wing_adds_its_paper_and_its_bound(monkeypatch):
    def bounds(L, d_x, H, d_a, N, residual, value):
        return {"X-1": paper_hooks.bound_entry(Fraction(5, 2), "sep <= 5/2", "x.txt l.1",
                                               "upper", None if value is None else value <= 2)}

    _fake_wing(monkeypatch, "fake_wing", PAPER=Paper("x.txt", "X", key="x1"),
               HOOKS={"network_bounds": bounds})
    _register(monkeypatch, x1="fake_wing")
    assert list(paper_hooks.papers()) == BUILTIN + ["x1"]
    out = paper_hooks.network_bounds(1, 2, 1, 2, 2, False, value=3)
    assert list(out)[0] == "L-Thm3" and list(out)[-1] == "X-1"   # wing order
    assert out["X-1"] == {"value": "5/2", "kind": "upper", "statement": "sep <= 5/2",
                          "source": "x.txt l.1", "respected": False}
    from seprank.separation import network_bounds  # the core's function asks the hooks

    assert network_bounds(1, 2, 1, 2, 2, False, value=3) == out


def test_hook_given_as_module_function_string_loads_on_first_call(monkeypatch):
    calls = []
    _fake_wing(monkeypatch, "fake_hooks_impl",
               embedding_bounds=lambda *a: calls.append(a) or {"Y": {"value": 1}})
    _fake_wing(monkeypatch, "fake_wing2", PAPER=Paper("y.txt", key="y1"),
               HOOKS={"embedding_bounds": "fake_hooks_impl:embedding_bounds"})
    _register(monkeypatch, y1="fake_wing2")
    assert calls == []
    out = paper_hooks.embedding_bounds(1, 1, 0, "vocabulary", 2)
    assert list(out) == ["W-Thm3", "Y"] and calls == [(1, 1, 0, "vocabulary", 2)]


@pytest.mark.parametrize("attrs, message", [
    ({}, "defines no PAPER with a key"),
    ({"PAPER": Paper("z.txt")}, "defines no PAPER with a key"),
    ({"PAPER": Paper("z.txt", key="z"), "HOOKS": {"nope": "a:b"}}, "unknown hooks: nope"),
    ({"PAPER": Paper("z.txt", key="levine2020")}, "registered twice"),
])
def test_broken_wings_are_skipped_in_one_line(monkeypatch, attrs, message):
    """A broken wing is left out, with one line naming it and why (issue 32 item 6); the
    others load."""
    from seprank import plugins

    _fake_wing(monkeypatch, "broken_wing", **attrs)
    _register(monkeypatch, broken="broken_wing")
    plugins.forget()
    assert [w.paper.key for w in paper_hooks.wings()] == BUILTIN
    (line,) = plugins.noted()
    assert message in line and "\n" not in line and line.endswith("skipped")
    assert paper_hooks.skipped_wings() == [line]
    plugins.forget()


def test_a_wing_that_cannot_be_imported_is_named():
    with pytest.raises(SeprankError, match="paper wing 'gone'.*cannot be imported"):
        paper_hooks._load("gone", "no_such_module_for_seprank")


def test_unknown_hook_name_is_refused():
    with pytest.raises(SeprankError, match="unknown hook 'nope'"):
        paper_hooks.hook_functions("nope")


def test_seprank_papers_prints_one_block_per_paper(capsys):
    from seprank.cli import main

    assert main(["papers"]) == 0
    blocks = capsys.readouterr().out.rstrip("\n").split("\n\n")
    assert [b.splitlines()[0] for b in blocks][:5] == BUILTIN
    first = blocks[0].splitlines()        # the reference wraps at 80 columns
    assert " ".join(line.strip() for line in first[1:-1]) == \
        paper_hooks.paper("levine2020").reference()
    assert first[-1] == "  text: levine2020_depth_to_width_self_attention.txt"
    assert all(len(line) <= 80 for line in first)


def test_seprank_papers_json(capsys, tmp_path):
    import json

    from seprank.cli import main

    assert main(["papers", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)       # nothing but the JSON on stdout
    assert [p["key"] for p in data][:5] == BUILTIN
    assert data[1]["authors"][0] == "Noam Wies" and data[1]["year"] == 2021
    assert main(["papers", "--json", str(tmp_path / "p.json")]) == 0
    assert json.loads((tmp_path / "p.json").read_text()) == data
