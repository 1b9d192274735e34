"""The engine's docstrings run (STYLE.md: "Docstrings that run")."""

import doctest
import importlib

import pytest

from matches.rules import native

MODULES = ["matches.rules", "matches.rules.native"] + [
    f"matches.rules.{name}" for name in (*native.MODULES, *native.PLAIN)]


def test_every_module_is_collected_and_compiled_or_kept_plain():
    sources = {path.stem for path in native.PACKAGE_DIR.glob("*.py")}
    assert not set(native.MODULES) & set(native.PLAIN)
    assert sources == {"__init__", "native", *native.MODULES, *native.PLAIN}


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
