"""The house rules of the package layout, from the import graph of src/seprank (issue 19).

The graph is built from the source (``ast``), not by importing: every ``import`` and
``from ... import`` counts, inside functions and ``TYPE_CHECKING`` blocks included,
relative imports resolved; ``from pkg import name`` depends on ``pkg.name`` when that
is a module, and on ``pkg`` (its ``__init__``) in every case, as Python runs it.
Rules:

* no import cycles;
* the core (every module outside ``seprank.papers``) never imports a paper wing
  (``seprank.papers`` or anything under it); paper bounds reach the core through
  :mod:`seprank.paper_hooks`;
* a wing (``seprank.papers.<key>``) never imports another wing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "seprank"
WINGS = "seprank.papers"



def module_files(src: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``package`` under ``src``."""
    out = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The longest module name that is ``name`` or a prefix of it (None outside)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _targets(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        root = ".".join(base + ([node.module] if node.module else []))
    else:
        root = node.module or ""
    return [root] + [f"{root}.{alias.name}" for alias in node.names]


def import_graph(src: Path = SRC, package: str = PACKAGE) -> nx.DiGraph:
    """Module -> module edges of ``package`` (the rules of the module docstring)."""
    modules = module_files(src, package)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _targets(node, module, is_package):
                if target != package and not target.startswith(package + "."):
                    continue
                owner = _owner(target, modules)
                if owner is not None and owner != module:
                    graph.add_edge(module, owner)
    return graph


def _wing(module: str) -> str | None:
    """``seprank.papers.<key>`` for a module of a wing; ``seprank.papers`` itself is none."""
    parts = module.split(".")
    return ".".join(parts[:3]) if module.startswith(WINGS + ".") else None


def cycles(graph: nx.DiGraph) -> list[frozenset[str]]:
    """The strongly connected components with more than one module."""
    return [frozenset(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def house_violations(graph: nx.DiGraph) -> list[str]:
    """Every breach of the rules, one line each (empty: the house is in order)."""
    out = [f"import cycle: {', '.join(sorted(c))}" for c in cycles(graph)]
    for a, b in sorted(graph.edges):
        in_papers = b == WINGS or b.startswith(WINGS + ".")
        if in_papers and not (a == WINGS or a.startswith(WINGS + ".")):
            out.append(f"core imports a wing: {a} -> {b}")
        elif _wing(a) and _wing(b) and _wing(a) != _wing(b):
            out.append(f"a wing imports another wing: {a} -> {b}")
    return out


def test_the_house_is_in_order():
    graph = import_graph()
    assert graph.number_of_nodes() > 100 and graph.number_of_edges() > 200
    assert house_violations(graph) == []


def test_the_wings_and_the_core_modules_are_seen():
    graph = import_graph()
    for key in ("levine2020", "wies2021", "chapter7", "rank_collapse", "amsel"):
        assert f"seprank.papers.{key}" in graph
    # a wing's hook imports the core, and the core's hook module imports no wing
    assert graph.has_edge("seprank.papers.levine2020.hooks", "seprank.paper_hooks")
    assert not any(b.startswith(WINGS) for b in graph.successors("seprank.paper_hooks"))


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_rules_catch_a_cycle_through_a_function_level_relative_import(tmp_path):
    src = _write(tmp_path, {
        "seprank/__init__.py": "",
        "seprank/a.py": "from seprank import b\n",
        "seprank/b.py": "def f():\n    from . import a\n",
        "seprank/c.py": "from seprank import a\n",
    })
    found = house_violations(import_graph(src))
    assert found == ["import cycle: seprank.a, seprank.b"]


def test_the_rules_catch_core_to_wing_and_wing_to_wing_imports(tmp_path):
    src = _write(tmp_path, {
        "seprank/__init__.py": "",
        "seprank/core.py": "def f():\n    from seprank.papers.x import bounds\n",
        "seprank/papers/__init__.py": "",
        "seprank/papers/x/__init__.py": "",
        "seprank/papers/x/bounds.py": "from ..y.bounds import g\nfrom seprank import core\n",
        "seprank/papers/y/__init__.py": "",
        "seprank/papers/y/bounds.py": "def g():\n    pass\n",
    })
    found = house_violations(import_graph(src))
    assert "core imports a wing: seprank.core -> seprank.papers.x.bounds" in found
    assert ("a wing imports another wing: seprank.papers.x.bounds -> seprank.papers.y.bounds"
            in found)
    assert "import cycle: seprank.core, seprank.papers.x.bounds" in found
