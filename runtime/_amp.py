"""amp: ``torch.autocast("cuda")``, ``GradScaler("cuda")`` and the autocast state queries act on
the vendor's device, so ``autocast("cuda")`` casts the vendor's operators."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ._device import translate
from .vendors import Vendor

__all__ = ["autocast_init", "get_gpu_dtype", "gpu_default", "grad_scaler_init", "set_gpu_dtype"]


def autocast_init(original: Callable[..., None], vendor: Vendor) -> Callable[..., None]:
    """``autocast.__init__``: patched in place, so every alias of the class (``torch.autocast``,
    ``torch.amp.autocast``, subclasses, names bound before ``import torchada``) is covered."""

    @functools.wraps(original)
    def __init__(self: Any, device_type: str, *args: Any, **kwargs: Any) -> None:
        original(self, translate(device_type), *args, **kwargs)

    return __init__


def grad_scaler_init(original: Callable[..., None], vendor: Vendor) -> Callable[..., None]:
    """``GradScaler.__init__``, whose ``device`` defaults to ``"cuda"``."""

    @functools.wraps(original)
    def __init__(self: Any, device: str = "cuda", *args: Any, **kwargs: Any) -> None:
        original(self, translate(device), *args, **kwargs)

    return __init__


def gpu_default(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """Autocast state functions whose device is the first argument and defaults to the GPU:
    ``is_autocast_enabled()`` (no argument means CUDA) asks about the vendor's device."""

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if args and args[0].__class__ is str:
            return original(translate(args[0]), *args[1:], **kwargs)
        if "device_type" in kwargs:
            kwargs["device_type"] = translate(kwargs["device_type"])
            return original(*args, **kwargs)
        return original(vendor.device, *args, **kwargs)

    return wrapper


def get_gpu_dtype(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """``torch.get_autocast_gpu_dtype()``: the vendor device's autocast dtype."""
    import torch

    return functools.wraps(original)(lambda: torch.get_autocast_dtype(vendor.device))


def set_gpu_dtype(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """``torch.set_autocast_gpu_dtype(dtype)``: sets the vendor device's autocast dtype."""
    import torch

    return functools.wraps(original)(lambda dtype: torch.set_autocast_dtype(vendor.device, dtype))
