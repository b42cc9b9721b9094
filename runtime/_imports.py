"""Run a function when a module is imported (at once when it already is).

Redirects for modules a program may never import (Inductor, FlexAttention, Triton,
``torch.utils.cpp_extension``) wait for that import, so ``import torchada`` imports none of them.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

__all__ = ["when_imported"]

Action = Callable[[ModuleType], None]
_pending: defaultdict[str, list[Action]] = defaultdict(list)


def when_imported(name: str, action: Action) -> None:
    module = sys.modules.get(name)
    if module is not None:
        action(module)
        return
    _pending[name].append(action)
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


class _Loader(importlib.abc.Loader):
    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self._loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        for action in _pending.pop(module.__name__, ()):
            action(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _pending:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader)
                return spec
        return None
