"""The README and the package docstrings are executable documentation: run them."""

from __future__ import annotations

import doctest
import importlib
import pathlib
import pkgutil

import pytest

import powergrid

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_examples_run() -> None:
    """Every ``>>>`` example in README.md produces the output it shows."""
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0
    assert result.failed == 0


MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(powergrid.__path__, prefix="powergrid.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_module_docstring_examples_run(name: str) -> None:
    """Docstring examples in every module of the package run as shown."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
