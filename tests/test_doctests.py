"""Run the examples in the public docstrings."""

import doctest
import importlib

import pytest

MODULES = [
    "seprank.combinatorics",
    "seprank.scalars.primes",
    "seprank.linalg.frontdoor",
    "seprank.linalg.verify",
    "seprank.proof",
    "seprank.constructions.omega",
    "seprank.constructions.builders",
    "seprank.linalg.modular_lu",
    "seprank.scalars.reconstruction",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
