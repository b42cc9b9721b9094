"""Device management, as ``torch_musa.core.device`` exposes it (torch_musa v2.7.1 ``torch_musa/core/device.py``; docs/torch_musa.md)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from . import _state

__all__ = [
    "_exchange_device", "_is_in_bad_fork", "_lazy_call", "_lazy_init",
    "_maybe_exchange_device", "can_device_access_peer", "current_device", "device", "device_count",
    "device_of", "get_amp_supported_dtype", "get_arch_list", "get_device_capability",
    "get_device_name", "get_device_properties", "is_available", "is_bf16_supported",
    "is_initialized", "is_tf32_supported", "set_device", "synchronize",
]

_queued_calls: list[Callable[[], None]] = []
_initialized = False


def _get_device_index(device: Any, optional: bool = False, allow_cpu: bool = False) -> int:
    """An index from an int, a string or a torch.device of this backend (-1 means current)."""
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if allow_cpu and device.type == "cpu":
            return -1
        if device.type != _state.profile.device:
            msg = f"Expected a {_state.profile.device} device, but got: {device}"
            raise ValueError(msg)
        device = device.index
    if device is None:
        if not optional:
            msg = f"Expected a {_state.profile.device} device with a specified index or an integer"
            raise ValueError(msg)
        return current_device()
    return int(device)


def _lazy_init() -> None:
    global _initialized
    if _initialized:
        return
    _initialized = True
    _state.C.lazy_init()
    calls, _queued_calls[:] = list(_queued_calls), []
    for call in calls:
        call()


def _lazy_call(callable: Callable[[], None], **kwargs: Any) -> None:
    if _initialized:
        callable()
    else:
        _queued_calls.append(callable)


def init() -> None:
    _lazy_init()


def is_initialized() -> bool:
    """True once ``_lazy_init`` has run, not when the C++ runtime started (core/_lazy_init.py:77)."""
    return _initialized


def _is_in_bad_fork() -> bool:
    return False


def is_available() -> bool:
    return device_count() > 0


@functools.lru_cache(maxsize=1)  # as torch_musa's (core/device.py:144)
def device_count() -> int:
    return _state.C.device_count()


def current_device() -> int:
    return _state.C.current_device()


def set_device(device: Any) -> None:
    index = _get_device_index(device, optional=True)
    if index >= 0:
        _state.C.set_device(index)


def _exchange_device(index: int) -> int:
    return _state.C.exchange_device(index)


def _maybe_exchange_device(index: int) -> int:
    return _state.C.exchange_device(index)


def synchronize(device: Any = None) -> None:
    _lazy_init()
    _state.C.synchronize(_get_device_index(device, optional=True))


class device:
    """Context manager that changes the current device (an int, a string or a torch.device)."""

    def __init__(self, device: Any) -> None:
        self.idx = _get_device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self) -> None:
        self.prev_idx = _state.C.exchange_device(self.idx)

    def __exit__(self, *exc: object) -> None:
        self.idx = _state.C.exchange_device(self.prev_idx)


class device_of(device):
    """Context manager that makes the device of a tensor current (a CPU tensor: no change)."""

    def __init__(self, obj: torch.Tensor) -> None:
        super().__init__(obj.get_device() if obj.device.type == _state.profile.device else -1)


@dataclass(frozen=True)
class _DeviceProperties:
    name: str
    major: int
    minor: int
    total_memory: int
    multi_processor_count: int = 48
    is_integrated: bool = False


def _capability(index: int) -> tuple[int, int]:
    """``TORCHADA_TEST_DEVICE_CAPABILITIES`` (``"2.1,3.2"``: one per visible device) or the profile's."""
    listed = os.environ.get("TORCHADA_TEST_DEVICE_CAPABILITIES", "").split(",")
    if index < len(listed) and listed[index]:
        major, minor = listed[index].split(".")
        return int(major), int(minor)
    return _state.profile.capability


def get_device_properties(device: Any = None) -> _DeviceProperties:
    index = _get_device_index(device, optional=True)
    major, minor = _capability(index)
    _, total = _state.C.memory_info(index)
    return _DeviceProperties(_state.profile.device_name, major, minor, total)


def get_device_name(device: Any = None) -> str:
    return get_device_properties(device).name


def get_device_capability(device: Any = None) -> tuple[int, int]:
    properties = get_device_properties(device)
    return properties.major, properties.minor


def can_device_access_peer(device: Any, peer_device: Any) -> bool:
    return _get_device_index(device) != _get_device_index(peer_device)


def get_arch_list() -> list[str]:
    return list(_state.profile.arch_list)


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return True


def is_tf32_supported() -> bool:
    return True


def get_amp_supported_dtype() -> list[torch.dtype]:
    return [torch.float16, torch.bfloat16]
