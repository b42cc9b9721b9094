"""``torch.cuda.nvtx``: annotations only, so they are no-ops where there is no NVTX."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from .vendors import Vendor

__all__ = ["nvtx"]


def range_push(msg: str) -> int:
    return 0


def range_pop() -> int:
    return 0


def range_start(msg: str) -> int:
    return 0


def range_end(range_id: int) -> None:
    pass


def mark(msg: str) -> None:
    pass


@contextlib.contextmanager
def range(msg: str, *args: Any, **kwargs: Any) -> Iterator[None]:
    yield


def nvtx(original: Any, vendor: Vendor) -> ModuleType:
    module = ModuleType("torch.cuda.nvtx", __doc__)
    for function in (range_push, range_pop, range_start, range_end, mark, range):
        setattr(module, function.__name__, function)
    return module
