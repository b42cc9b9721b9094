"""The runtime bindings ``torch.musa.musart()`` returns (``torch_musa._MUSAC._musart``).

Exactly what torch_musa v2.7.1 binds (torch_musa/csrc/core/musart.cpp:14-51): the ``musaError``
enum (``success`` only), ``musaGetErrorString``, ``musaHostRegister``/``Unregister``,
``musaStreamCreate``/``Destroy`` and ``musaMemGetInfo``; no profiler functions. Names carry the
profile's prefix (``musa``, ``cnrt``).
"""

from __future__ import annotations

import ctypes
import enum
from types import ModuleType
from typing import Any

from . import _state, device

__all__ = ["runtime_handle"]

_handle: ModuleType | None = None


class _Error(enum.IntEnum):
    """The vendor's error enum names ``success`` only; other codes are unnamed values."""

    success = 0

    @classmethod
    def _missing_(cls, value: object) -> _Error:
        member = int.__new__(cls, int(value))  # type: ignore[call-overload]
        member._name_ = f"error_{int(value)}"
        member._value_ = int(value)
        return member


_HOST_MEMORY_ALREADY_REGISTERED = 712
_HOST_MEMORY_NOT_REGISTERED = 713


def _make() -> ModuleType:
    prefix = _state.profile.runtime_prefix
    streams: dict[int, Any] = {}

    def host_register(ptr: int, size: int, flags: int) -> _Error:
        device._lazy_init()
        ok = _state.C.host_register(int(ptr), int(size))
        return _Error(0 if ok else _HOST_MEMORY_ALREADY_REGISTERED)

    def host_unregister(ptr: int) -> _Error:
        ok = _state.C.host_unregister(int(ptr))
        return _Error(0 if ok else _HOST_MEMORY_NOT_REGISTERED)

    def stream_create(ptr: int) -> _Error:
        from .streams import Stream

        stream = Stream()
        streams[stream.stream_id] = stream
        ctypes.c_int64.from_address(int(ptr)).value = stream.stream_id
        return _Error.success

    def stream_destroy(handle: int) -> _Error:
        streams.pop(int(handle), None)
        return _Error.success

    def mem_get_info(index: int) -> tuple[int, int]:
        free, total = _state.C.memory_info(int(index))
        return free, total

    def get_error_string(error: Any) -> str:
        return "no error" if int(error) == 0 else f"error {int(error)}"

    module = ModuleType(f"{_state.profile.module}._{_state.profile.upper}C._{prefix}rt")
    functions = {"GetErrorString": get_error_string, "HostRegister": host_register,
                 "HostUnregister": host_unregister, "StreamCreate": stream_create,
                 "StreamDestroy": stream_destroy, "MemGetInfo": mem_get_info}
    for name, function in functions.items():
        setattr(module, prefix + name, function)
    setattr(module, prefix + "Error", _Error)
    return module


def runtime_handle() -> ModuleType:
    """``musart()``: initialises the runtime, then returns the bindings (core/_lazy_init.py:140)."""
    global _handle
    device._lazy_init()
    if _handle is None:
        _handle = _make()
    return _handle
