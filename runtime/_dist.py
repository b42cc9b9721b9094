"""torch.distributed: ``"nccl"`` means the vendor's collective backend (``"mccl"``); and
``torch.cuda.nccl``, torch's direct NCCL calls, answered by the vendor's collective module.

``get_backend()`` answers ``"nccl"`` for groups created by asking for ``"nccl"``, so code that
compares it with ``"nccl"`` keeps its CUDA path (Intel Gaudi's migration toolkit does the same);
groups created by asking for ``"mccl"`` answer ``"mccl"``.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any

from ._device import translate
from .vendors import Vendor

__all__ = ["get_backend", "init_process_group", "is_nccl_available", "nccl", "new_group"]

_asked_for_nccl: weakref.WeakSet[Any] = weakref.WeakSet()


def _backend(backend: Any, vendor: Vendor) -> tuple[Any, bool]:
    """The backend string for the vendor, and whether it named NCCL."""
    if not isinstance(backend, str):
        return backend, False
    parts = []
    named_nccl = False
    for part in backend.split(","):
        device, colon, name = part.strip().rpartition(":")
        if name.lower() == "nccl":
            name, named_nccl = vendor.collective, True
        parts.append(f"{translate(device)}{colon}{name}" if colon else name)
    return ",".join(parts), named_nccl


def init_process_group(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(original)
    def init_process_group(backend: Any = None, *args: Any, **kwargs: Any) -> Any:
        import torch.distributed as dist

        backend, named_nccl = _backend(backend, vendor)
        if "device_id" in kwargs:
            kwargs["device_id"] = translate(kwargs["device_id"])
        result = original(backend, *args, **kwargs)
        if named_nccl:
            _asked_for_nccl.add(dist.distributed_c10d._get_default_group())
        return result

    return init_process_group


def new_group(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(original)
    def new_group(*args: Any, **kwargs: Any) -> Any:
        named_nccl = False
        if len(args) > 2:
            backend, named_nccl = _backend(args[2], vendor)
            args = (*args[:2], backend, *args[3:])
        elif "backend" in kwargs:
            kwargs["backend"], named_nccl = _backend(kwargs["backend"], vendor)
        if "device_id" in kwargs:
            kwargs["device_id"] = translate(kwargs["device_id"])
        group = original(*args, **kwargs)
        if named_nccl and group is not None:
            _asked_for_nccl.add(group)
        return group

    return new_group


def get_backend(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(original)
    def get_backend(group: Any = None) -> Any:
        import torch.distributed as dist

        name = original(group)
        resolved = dist.distributed_c10d._get_default_group() if group is None else group
        if name == vendor.collective and resolved in _asked_for_nccl:
            return dist.Backend("nccl")
        return name

    return get_backend


def is_nccl_available(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(original)
    def is_nccl_available() -> bool:
        import torch.distributed as dist

        check = getattr(dist, f"is_{vendor.collective}_available", None)
        return bool(check()) if check is not None else original()

    return is_nccl_available


def nccl(original: ModuleType, vendor: Vendor) -> ModuleType:
    """``torch.cuda.nccl``: the vendor's collective module's names (torch_musa's ``mccl`` has
    ``version()`` only: docs/torch_musa.md); where it has none, ``is_available()`` is False (a CUDA
    build of torch would answer for NCCL, which the vendor's tensors never reach) and the direct
    collectives raise an error that says so."""
    collective = getattr(vendor.device_module(), vendor.collective)
    module = ModuleType(original.__name__, original.__doc__)
    for name, value in vars(original).items():
        direct = isinstance(value, FunctionType) and value.__module__ == original.__name__
        if direct and not name.startswith("_"):
            value = _not_available if name == "is_available" else _no_direct_collective(name, value, vendor)
        module.__dict__.setdefault(name, value)
    module.__dict__.update((name, value) for name, value in vars(collective).items() if not name.startswith("__"))
    return module


def _not_available(tensors: Any = ()) -> bool:
    """``torch.cuda.nccl.is_available(tensors)``: no direct collectives on the vendor's tensors."""
    return False


def _no_direct_collective(name: str, function: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(function)
    def unavailable(*args: Any, **kwargs: Any) -> Any:
        msg = (f"torch.cuda.nccl.{name} has no {vendor.device.upper()} counterpart: torch.{vendor.device}."
               f"{vendor.collective} offers no direct collectives; use torch.distributed with the \"nccl\" "
               f"backend (it runs {vendor.collective})")
        raise RuntimeError(msg)

    return unavailable
