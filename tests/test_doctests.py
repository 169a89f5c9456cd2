"""Every public function and class of seprank carries an example, and every example runs.

"Public" means: defined in a ``seprank`` module (not imported into it), with a
name that does not start with an underscore. The examples are run with
:mod:`doctest` module by module, so a broken example fails the suite.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import seprank


def _module_names() -> list[str]:
    names = ["seprank"]
    for info in pkgutil.walk_packages(seprank.__path__, "seprank."):
        names.append(info.name)
    return sorted(names)


MODULES = _module_names()


def _public_objects(module) -> list[tuple[str, object]]:
    out = []
    for name, obj in vars(module).items():
        if name.startswith("_"):
            continue
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
            out.append((name, obj))
    return out


def test_module_list_is_complete():
    # Guards the walk itself: a package that fails to import would vanish silently.
    assert "seprank.linalg.frontdoor" in MODULES
    assert "seprank.proof.report" in MODULES
    assert len(MODULES) > 40


@pytest.mark.parametrize("name", MODULES)
def test_public_objects_have_examples(name):
    module = importlib.import_module(name)
    missing = [n for n, obj in _public_objects(module) if ">>>" not in (obj.__doc__ or "")]
    assert not missing, f"{name}: public objects without a docstring example: {missing}"


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} failing examples"
    if _public_objects(module):
        assert result.attempted > 0, f"{name} has public objects but no examples"
