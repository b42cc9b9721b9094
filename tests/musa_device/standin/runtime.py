"""The runtime bindings ``torch.musa.musart()`` returns (``torch.cuda.cudart()``'s counterpart).

Function names carry the vendor's prefix: ``musaHostRegister``, ``musaMemGetInfo``, ...
"""

from __future__ import annotations

import enum
from types import SimpleNamespace
from typing import Any

from . import _state, device

__all__ = ["runtime_handle"]

_handle: SimpleNamespace | None = None


class _Error(enum.IntEnum):
    success = 0
    invalid_value = 1
    host_memory_already_registered = 712
    host_memory_not_registered = 713


def _make() -> SimpleNamespace:
    prefix = _state.profile.runtime_prefix
    profiling = {"active": False}

    def host_register(ptr: int, size: int, flags: int) -> _Error:
        device._lazy_init()  # the runtime starts on its first call, as CUDA's does
        ok = _state.C.host_register(int(ptr), int(size))
        return _Error.success if ok else _Error.host_memory_already_registered

    def host_unregister(ptr: int) -> _Error:
        ok = _state.C.host_unregister(int(ptr))
        return _Error.success if ok else _Error.host_memory_not_registered

    def profiler_start() -> _Error:
        profiling["active"] = True
        return _Error.success

    def profiler_stop() -> _Error:
        profiling["active"] = False
        return _Error.success

    def mem_get_info(device: int) -> tuple[int, int]:
        return tuple(_state.C.memory_info(int(device)))

    def get_error_string(error: Any) -> str:
        return _Error(int(error)).name.replace("_", " ")

    functions = {
        "HostRegister": host_register,
        "HostUnregister": host_unregister,
        "ProfilerStart": profiler_start,
        "ProfilerStop": profiler_stop,
        "MemGetInfo": mem_get_info,
        "GetErrorString": get_error_string,
    }
    handle = SimpleNamespace(**{prefix + name: fn for name, fn in functions.items()})
    setattr(handle, prefix + "Error", _Error)
    handle.profiling = profiling
    return handle


def runtime_handle() -> SimpleNamespace:
    global _handle
    if _handle is None:
        _handle = _make()
    return _handle
