"""The examples in the packages' docstrings run, and say what they print (``python -m doctest`` style)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

PACKAGES = ("hipify_like", "torchada_build", "torchada_build.compilers", "torchada")


def _modules_with_examples() -> list[str]:
    """Every module of :data:`PACKAGES` whose source holds a ``>>>`` example."""
    found = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        modules = [package, *(info.name for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."))]
        for name in modules:
            spec = importlib.util.find_spec(name)
            if spec and spec.origin and spec.origin.endswith(".py") and ">>>" in Path(spec.origin).read_text():
                found.append(name)
    return sorted(found)


@pytest.mark.parametrize("name", _modules_with_examples())
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (see above)"
