"""Which accelerator this process runs on, and the helpers that answer for CUDA and MUSA alike.

The platform is detected once: ``TORCHADA_PLATFORM`` (``musa``, ``mlu``, ``cuda``, ``cpu``) when
set, else the first vendor whose PyTorch extension is installed (``torch_musa``; no device is
needed, so build-only containers count), else CUDA when torch was built with it, else CPU.
"""

from __future__ import annotations

import enum
import functools
import importlib.util
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .vendors import Vendor

__all__ = [
    "Platform",
    "detect_platform",
    "detect_vendor",
    "get_cuda_home",
    "has_gpu",
    "is_cuda_platform",
    "is_gpu_device",
    "is_musa_platform",
]


class Platform(enum.Enum):
    CUDA = "cuda"
    MUSA = "musa"
    MLU = "mlu"
    CPU = "cpu"


def _forced() -> Platform | None:
    from torchada_build.core.settings import value

    forced = value("TORCHADA_PLATFORM", os.environ)
    return Platform(forced) if forced else None


@functools.cache
def detect_vendor() -> Vendor | None:
    """The vendor whose extension is present (or forced), without importing torch or it."""
    from .vendors import VENDORS, vendor_for

    forced = _forced()
    if forced is not None:
        return vendor_for(forced.value)
    torch = sys.modules.get("torch")
    for vendor in VENDORS:
        version = getattr(getattr(torch, "version", None), vendor.device, None)
        if version or vendor.module in sys.modules or importlib.util.find_spec(vendor.module):
            return vendor
    return None


@functools.cache
def detect_platform() -> Platform:
    """The platform of this process (cached; see the module docstring for the order)."""
    vendor = detect_vendor()
    if vendor is not None:
        return Platform(vendor.platform)
    forced = _forced()
    if forced is not None:
        return forced
    import torch

    if torch.version.cuda is not None or torch.version.hip is not None:
        return Platform.CUDA
    return Platform.CPU


def is_musa_platform() -> bool:
    return detect_platform() is Platform.MUSA


def is_cuda_platform() -> bool:
    return detect_platform() is Platform.CUDA


def _gpu_types() -> tuple[str, ...]:
    vendor = detect_vendor()
    return ("cuda",) if vendor is None else ("cuda", vendor.device)


def is_gpu_device(device: Any) -> bool:
    """Whether ``device`` (a torch.device, a tensor, a string) is a GPU: CUDA or the vendor's.

    Use it where CUDA code writes ``x.device.type == "cuda"``, which is False for MUSA tensors.
    """
    device = getattr(device, "device", device)
    kind = device.split(":", 1)[0] if isinstance(device, str) else getattr(device, "type", None)
    return kind in _gpu_types()


def has_gpu() -> bool:
    """Whether a GPU is usable: a vendor device under torchada, else ``torch.cuda.is_available()``.

    ``torch.cuda.is_available()`` stays False on MUSA (libraries take CUDA-only branches on it);
    write ``"cuda" if torchada.has_gpu() else "cpu"`` where code picks a device with it.
    """
    vendor = detect_vendor()
    if vendor is not None:
        return bool(vendor.device_module().device_count() > 0)
    import torch

    return torch.cuda.is_available()


def get_cuda_home() -> str | None:
    """The toolkit root: on MUSA the MUSA SDK, found as torchada-nvcc finds it
    (:func:`torchada_build.compilers.installations.find_musa`), when it exists; else torch's CUDA_HOME."""
    if detect_platform() is Platform.MUSA:
        from torchada_build.compilers.installations import find_musa

        home = find_musa(os.environ).home_path
        return home if os.path.isdir(home) else None
    from torch.utils.cpp_extension import CUDA_HOME

    return CUDA_HOME
