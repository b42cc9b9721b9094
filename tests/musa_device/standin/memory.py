"""The memory API (``torch_musa.core.memory``), backed by the extension's device allocator."""

from __future__ import annotations

import collections
import contextlib
from typing import Any

from . import _state
from .device import _get_device_index

__all__ = [
    "empty_cache", "get_allocator_backend", "max_memory_allocated", "max_memory_reserved", "mem_get_info", "memory_allocated", "memory_reserved",
    "memory_snapshot", "memory_stats", "memory_stats_as_nested_dict", "memory_summary",
    "reset_accumulated_memory_stats", "reset_max_memory_allocated", "reset_max_memory_cached",
    "reset_peak_memory_stats", "set_per_process_memory_fraction", "use_mem_pool",
]


def empty_cache() -> None:
    _state.C.empty_cache()


def memory_stats(device: Any = None) -> dict[str, int]:
    stats = _state.C.memory_stats(_get_device_index(device, optional=True))
    return collections.OrderedDict(sorted(stats.items()))


def memory_stats_as_nested_dict(device: Any = None) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for key, value in memory_stats(device).items():
        node = nested
        *path, leaf = key.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node[leaf] = value
    return nested


def memory_allocated(device: Any = None) -> int:
    return memory_stats(device)["allocated_bytes.all.current"]


def max_memory_allocated(device: Any = None) -> int:
    return memory_stats(device)["allocated_bytes.all.peak"]


def memory_reserved(device: Any = None) -> int:
    return memory_stats(device)["reserved_bytes.all.current"]


def max_memory_reserved(device: Any = None) -> int:
    return memory_stats(device)["reserved_bytes.all.peak"]




def reset_peak_memory_stats(device: Any = None) -> None:
    _state.C.reset_peak_stats(_get_device_index(device, optional=True))


def reset_accumulated_memory_stats(device: Any = None) -> None:
    _state.C.reset_accumulated_stats(_get_device_index(device, optional=True))


reset_max_memory_allocated = reset_peak_memory_stats
reset_max_memory_cached = reset_peak_memory_stats


def mem_get_info(device: Any = None) -> tuple[int, int]:
    return tuple(_state.C.memory_info(_get_device_index(device, optional=True)))


def set_per_process_memory_fraction(fraction: float, device: Any = None) -> None:
    _state.C.set_memory_fraction(float(fraction), _get_device_index(device, optional=True))


def memory_snapshot() -> list[dict[str, Any]]:
    return []


def memory_summary(device: Any = None, abbreviated: bool = False) -> str:
    lines = [f"{key}: {value}" for key, value in memory_stats(device).items()]
    return "\n".join(lines)


def get_allocator_backend() -> str:
    return "native"


@contextlib.contextmanager
def use_mem_pool(pool: Any, device: Any = None) -> Any:
    yield
