"""What torch reports about its CUDA support, answered for the vendor: ``is_built()``,
``_is_compiled()``, ``is_available()`` (opt-in), and the ``torch._C`` names CUDA code reads."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .vendors import Vendor

__all__ = ["FORCE_AVAILABLE_ENV", "allocator_state", "is_available", "is_built", "is_compiled",
           "raw_stream"]

FORCE_AVAILABLE_ENV = "TORCHADA_FORCE_CUDA_AVAILABLE"


def _true(original: Any, doc: str) -> Callable[[], bool]:
    def answer() -> bool:
        return True

    answer.__name__ = answer.__qualname__ = getattr(original, "__name__", "answer")
    answer.__doc__ = doc
    return answer


def is_built(original: Any, vendor: Vendor) -> Callable[[], bool]:
    """``torch.backends.cuda.is_built()``: torch was built with the vendor's device support."""
    return _true(original, f"True: this torch runs CUDA code on {vendor.device.upper()}.")


def is_compiled(original: Any, vendor: Vendor) -> Callable[[], bool]:
    """``torch.cuda._is_compiled()`` and the vendor's own ``_is_compiled()`` where it has none."""
    return _true(original, f"True: this torch was compiled with {vendor.device.upper()} support.")


def is_available(original: Callable[[], bool], vendor: Vendor) -> Callable[[], bool]:
    """``torch.cuda.is_available()``: PyTorch's answer (False), or the vendor's with
    ``TORCHADA_FORCE_CUDA_AVAILABLE=1`` at ``import torchada``."""
    from torchada_build.core.settings import is_on

    if is_on(FORCE_AVAILABLE_ENV, os.environ):
        available: Callable[[], bool] = vendor.device_module().is_available
        return available
    return original


def raw_stream(original: Any, vendor: Vendor) -> Callable[[int], int]:
    """``torch._C._cuda_getCurrentRawStream(device_index)``: the vendor's current raw stream."""
    module = vendor.device_module()
    attribute = f"{vendor.device}_stream"

    def _cuda_getCurrentRawStream(device_index: int) -> int:
        return int(getattr(module.current_stream(device_index), attribute))

    return _cuda_getCurrentRawStream


def allocator_state(original: Any, vendor: Vendor) -> type:
    """``torch._C._cuda_CUDAAllocator_AllocatorState``, which Inductor's CUDA-graph trees import
    once ``is_built()`` is True: the vendor's, else the empty class torch defines without CUDA."""
    module = vendor.device_module()
    C = getattr(module, f"_{vendor.device.upper()}C", None)
    name = f"_{vendor.device}_{vendor.device.upper()}Allocator_AllocatorState"
    found: type | None = getattr(C, name, None)
    if found is not None:
        return found

    class AllocatorState:
        pass

    return AllocatorState
