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
* a wing (``seprank.papers.<key>``) never imports another wing;
* layers (issue 29, DESIGN "The house for wave 4"): each module belongs to a *room* (the
  first name under ``seprank``; the package facade ``seprank/__init__.py`` is the room
  ``seprank``); :data:`LAYERS` orders the rooms floor by floor, and every import reaches
  its own floor or a lower one; every room has a floor; the rooms form no loop;
* the verifier (``seprank.linalg.verifier``) imports nothing of the engines: of
  ``seprank.linalg`` only the records it checks (:data:`VERIFIER_MAY_IMPORT`);
* the routes of ``seprank.separation`` (one subpackage each, :data:`ROUTE_PACKAGES`)
  never import one another;
* no ``from X import _name`` of a private name across modules;
* no folder of the package holds more than :data:`MAX_MODULES_PER_FOLDER` modules;
* ``proofs/<a>`` never imports ``proofs/<b>`` (the check folders, ``seprank_proofs``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = "seprank"
WINGS = "seprank.papers"

#: The floors of the house, lowest first (rooms on one floor may import one another as
#: long as the rooms form no loop). DESIGN's order: the bottom (errors, process
#: environment, the paper core, plugin loading, the registry helper), scalars < schemas <
#: budgets < linalg < files < proof (the framework) < tensors < models < network_theory <
#: separation < constructions < hadamard < float_vs_exact < papers < sweep < the front
#: (facade, CLI).
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(floor) for floor in (
    {"errors", "_display", "_templates", "_moved", "combinatorics", "plugins", "registry",
     "runtime", "paper_hooks"},
    {"scalars"},
    {"schemas"},
    {"budget", "budget_guard"},
    {"linalg"},
    {"files"},
    {"proof"},
    {"tensors"},
    {"models"},
    {"network_theory"},
    {"separation"},
    {"constructions"},
    {"hadamard"},
    {"float_vs_exact"},
    {"papers"},
    {"sweep"},
    {"seprank", "cli", "__main__"},
))
#: what the verifier may import of seprank.linalg (records, not engines)
VERIFIER_MAY_IMPORT = frozenset({"seprank.linalg.certificates", "seprank.linalg.result",
                                 "seprank.linalg.kinds", "seprank.linalg.estimates"})
VERIFIER = "seprank.linalg.verifier"
#: one subpackage per separation route
ROUTE_PACKAGES = ("coefficient", "grid", "moment", "embedding")
MAX_MODULES_PER_FOLDER = 15



def module_files(src: Path, package: str, folder: Path | None = None) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``package`` (in ``src /
    package``, or in ``folder`` when the package is mapped to another folder)."""
    folder = src / package if folder is None else folder
    out = {}
    for path in sorted(folder.rglob("*.py")):
        parts = [package] + list(path.relative_to(folder).with_suffix("").parts)
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


def import_graph(src: Path = SRC, package: str = PACKAGE,
                 folder: Path | None = None) -> nx.DiGraph:
    """Module -> module edges of ``package`` (the rules of the module docstring)."""
    modules = module_files(src, package, folder)
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


def room(module: str) -> str:
    """The room of a module: the first name under the package (the facade: its own)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def floor_of(name: str, layers=LAYERS) -> int | None:
    return next((i for i, floor in enumerate(layers) if name in floor), None)


def layer_violations(graph: nx.DiGraph, layers=LAYERS) -> list[str]:
    """Imports that reach a higher floor, rooms without a floor, loops among rooms."""
    out = sorted({f"room without a floor: {room(m)}" for m in graph
                  if floor_of(room(m), layers) is None})
    rooms = nx.DiGraph()
    for a, b in sorted(graph.edges):
        ra, rb = room(a), room(b)
        if ra == rb:
            continue
        rooms.add_edge(ra, rb)
        fa, fb = floor_of(ra, layers), floor_of(rb, layers)
        if fa is not None and fb is not None and fb > fa:
            out.append(f"import up a floor: {a} -> {b}")
    out += [f"knot of rooms: {', '.join(sorted(c))}"
            for c in nx.strongly_connected_components(rooms) if len(c) > 1]
    return out


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def separation_violations(graph: nx.DiGraph) -> list[str]:
    """The verifier importing more than records; a route importing another route."""
    out = []
    routes = [f"seprank.separation.{r}" for r in ROUTE_PACKAGES]
    for a, b in sorted(graph.edges):
        if _under(a, VERIFIER) and _under(b, "seprank.linalg") \
                and not _under(b, VERIFIER) and b not in VERIFIER_MAY_IMPORT \
                and b != "seprank.linalg":
            out.append(f"the verifier imports an engine-side module: {a} -> {b}")
        ra = next((r for r in routes if _under(a, r)), None)
        rb = next((r for r in routes if _under(b, r)), None)
        if ra and rb and ra != rb:
            out.append(f"a route imports another route: {a} -> {b}")
    return out


def private_imports(src: Path = SRC, package: str = PACKAGE) -> list[str]:
    """``from seprank... import _name`` statements (a private name crossing a module)."""
    out = []
    for module, path in module_files(src, package).items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and _under(node.module, package):
                out += [f"{module} imports {node.module}.{a.name}" for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")]
    return out


def crowded_folders(src: Path = SRC, package: str = PACKAGE,
                    limit: int = MAX_MODULES_PER_FOLDER) -> list[str]:
    """Folders of the package holding more than ``limit`` modules (``__init__`` counted)."""
    out = []
    for folder in sorted({p.parent for p in (src / package).rglob("*.py")}):
        n = len(list(folder.glob("*.py")))
        if n > limit:
            out.append(f"{folder.relative_to(src)}: {n} modules > {limit}")
    return out


def test_the_house_is_in_order():
    graph = import_graph()
    assert graph.number_of_nodes() > 100 and graph.number_of_edges() > 200
    assert house_violations(graph) == []


def test_every_import_reaches_its_own_floor_or_a_lower_one():
    assert layer_violations(import_graph()) == []


def test_the_verifier_and_the_routes_keep_to_themselves():
    graph = import_graph()
    assert separation_violations(graph) == []
    # the rules look at real edges: the verifier does import its records, routes the door
    assert graph.has_edge("seprank.linalg.verifier.verify", "seprank.linalg.certificates")
    assert graph.has_edge("seprank.separation.moment.route", "seprank.separation.route")


def test_no_private_name_crosses_a_module_and_no_folder_is_crowded():
    assert private_imports() == []
    assert crowded_folders() == []


def _old_name_imports(root: Path, package: str, folder: Path) -> list[str]:
    from seprank._moved import MOVED

    out = []
    for module, path in module_files(root, package, folder).items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _targets(node, module, path.name == "__init__.py"):
                if target in MOVED:
                    out.append(f"{module} imports the old name {target}")
    return out


def test_moved_modules_answer_their_old_names_and_nothing_here_uses_them():
    import importlib
    import sys
    import warnings

    from seprank._moved import MOVED

    assert len(MOVED) > 40
    for old, new in sorted(MOVED.items()):
        assert old not in module_files(SRC, PACKAGE)          # really gone
        assert new in module_files(SRC, PACKAGE), new          # and really there
    old, new = "seprank.gram_hadamard_rank", "seprank.hadamard.rank"
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new) and module.__spec__.name == new
    assert any(issubclass(w.category, DeprecationWarning) and new in str(w.message)
               for w in caught)
    assert _old_name_imports(SRC, PACKAGE, SRC / PACKAGE) == []
    assert _old_name_imports(ROOT, "seprank_proofs", ROOT / "proofs") == []
    assert _old_name_imports(ROOT, "tests", ROOT / "tests") == []


def test_no_check_folder_imports_another():
    """proofs/<a> never imports proofs/<b> (shared helpers live in the package)."""
    graph = import_graph(ROOT, "seprank_proofs", ROOT / "proofs")
    assert graph.number_of_nodes() > 20
    crossing = [f"{a} -> {b}" for a, b in graph.edges
                if len(a.split(".")) > 2 and len(b.split(".")) > 2
                and a.split(".")[1] != b.split(".")[1]]
    assert crossing == []


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


def test_the_layer_rules_catch_an_import_up_a_floor_a_knot_and_a_homeless_room(tmp_path):
    src = _write(tmp_path, {
        "seprank/__init__.py": "",
        "seprank/low.py": "def f():\n    from seprank import high\n",
        "seprank/high.py": "from seprank import low\n",
        "seprank/mid/__init__.py": "",
        "seprank/mid/a.py": "from seprank.side import b\n",
        "seprank/side.py": "def g():\n    from seprank.mid import a\n",
        "seprank/stray.py": "",
    })
    layers = (frozenset({"low"}), frozenset({"high", "mid", "side"}), frozenset({"seprank"}))
    found = layer_violations(import_graph(src), layers)
    assert "import up a floor: seprank.low -> seprank.high" in found
    assert "room without a floor: stray" in found
    assert "knot of rooms: mid, side" in found
    assert "knot of rooms: high, low" in found


def test_the_route_verifier_and_private_rules_catch_breaches(tmp_path):
    src = _write(tmp_path, {
        "seprank/__init__.py": "",
        "seprank/linalg/__init__.py": "",
        "seprank/linalg/engines/__init__.py": "",
        "seprank/linalg/engines/lu.py": "def _pivot():\n    pass\n",
        "seprank/linalg/verifier/__init__.py": "",
        "seprank/linalg/verifier/verify.py": "from seprank.linalg.engines.lu import _pivot\n",
        "seprank/separation/__init__.py": "",
        "seprank/separation/grid/__init__.py": "",
        "seprank/separation/grid/route.py": "from seprank.separation.moment import plan\n",
        "seprank/separation/moment/__init__.py": "",
        "seprank/separation/moment/plan.py": "",
    })
    found = separation_violations(import_graph(src))
    assert ("the verifier imports an engine-side module: seprank.linalg.verifier.verify -> "
            "seprank.linalg.engines.lu") in found
    assert ("a route imports another route: seprank.separation.grid.route -> "
            "seprank.separation.moment.plan") in found
    assert private_imports(src) == [
        "seprank.linalg.verifier.verify imports seprank.linalg.engines.lu._pivot"]
    many = {f"seprank/crowd/m{i}.py": "" for i in range(16)}
    assert crowded_folders(_write(tmp_path / "b", {"seprank/__init__.py": "", **many})) == [
        "seprank/crowd: 16 modules > 15"]
