"""torch.compile: FlexAttention accepts the vendor's tensors (it checks device types by name),
and Inductor's modules that ask ``torch.cuda`` about the CUDA toolkit keep PyTorch's answers."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .vendors import Vendor

__all__ = ["constant_types", "flex_validate_device", "fx_builtins", "torch_with_cuda"]


class _TorchWithCuda(ModuleType):
    """``torch``, except that ``cuda`` is PyTorch's own ``torch.cuda``."""

    def __init__(self, torch: ModuleType, cuda: ModuleType) -> None:
        super().__init__(torch.__name__, torch.__doc__)
        self.__dict__.update(cuda=cuda, _torchada_torch=torch)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_torchada_torch"], name)


class _CudaWithoutRuntime(ModuleType):
    """PyTorch's ``torch.cuda`` on a torch built without CUDA, whose device queries raise the
    AssertionError of PyTorch's own lazy init even where a vendor has replaced ``_lazy_init``."""

    def __init__(self, cuda: ModuleType) -> None:
        super().__init__(cuda.__name__, cuda.__doc__)
        self.__dict__.update(_torchada_cuda=cuda, current_device=_not_compiled,
                             get_device_properties=_not_compiled)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_torchada_cuda"], name)


def _not_compiled(*args: Any, **kwargs: Any) -> Any:
    msg = "Torch not compiled with CUDA enabled"
    raise AssertionError(msg)


def torch_with_cuda(original: ModuleType, vendor: Vendor) -> ModuleType:
    """For a module's ``torch`` global: Inductor's cache key asks ``torch.cuda`` for the device's
    properties and, with no CUDA or ROCm version, reads ROCm's ``gcnArchName``; with PyTorch's
    torch.cuda it gets the "no CUDA" answer it handles."""
    from .apply import original_module

    cuda = original_module(sys.modules["torch.cuda"])
    if not hasattr(original._C, "_cuda_getDeviceCount"):  # a torch built without CUDA
        cuda = _CudaWithoutRuntime(cuda)
    return _TorchWithCuda(original, cuda)


def flex_validate_device(original: Callable[..., None], vendor: Vendor) -> Callable[..., None]:
    @functools.wraps(original)
    def _validate_device(query: Any, key: Any, value: Any) -> None:
        if query.device.type != vendor.device:
            original(query, key, value)

    return _validate_device


def constant_types(original: set[type], vendor: Vendor) -> set[type]:
    """Dynamo's set of constant types, built at its import from ``torch.device``: when that is
    torchada's factory, the real device type must be in it too, or Dynamo cannot treat device
    objects as constants (FlexAttention's masks fail to trace)."""
    from ._device import RealDevice

    original.add(RealDevice)
    return original


def fx_builtins(original: dict[str, Any], vendor: Vendor) -> dict[str, Any]:
    """FX's generated code names ``torch.device`` as the global ``device``, registered when
    torch.fx was imported; it must be the object ``torch.device`` is now, or FX leaves it out."""
    import torch
    import torch.fx.graph

    original["device"] = original["device"]._replace(obj=torch.device)
    torch.fx.graph._illegal_names["device"] = torch.device
    return original
