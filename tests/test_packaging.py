"""The package list of pyproject.toml names every package of the source tree.

``pip install .`` (the README's first quick-start command) installs only the
packages listed under ``[tool.setuptools] packages``; a subpackage missing there
works in an editable install and breaks a normal one. This test walks ``src/``
and ``proofs/`` (installed as ``seprank_proofs``) for ``__init__.py`` files and
compares.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _packages_on_disk() -> set[str]:
    found = set()
    for base, prefix in ((ROOT / "src", ()), (ROOT / "proofs", ("seprank_proofs",))):
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            found.add(".".join(prefix + rel))
    return found


def test_every_package_is_listed_for_installation():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = _packages_on_disk()
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - on_disk == set(), "these listed packages have no __init__.py"
