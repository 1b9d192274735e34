"""The engine's docstrings run (STYLE.md: "Docstrings that run")."""

import doctest
import importlib
import pkgutil

import pytest

import matches.rules

MODULES = sorted(["matches.rules"] + [f"matches.rules.{info.name}"
                                      for info in pkgutil.iter_modules(matches.rules.__path__)])


def test_every_module_is_collected():
    assert {"matches.rules.tiles", "matches.rules.layout", "matches.rules.games",
            "matches.rules.match", "matches.rules.record", "matches.rules.simulate",
            "matches.rules.errors"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
