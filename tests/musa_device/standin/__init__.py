"""The torchada test device: a CPU-backed PrivateUse1 backend that impersonates a vendor's
PyTorch extension (torch_musa, or Torch-MLU for the ``mlu`` profile). It exists to test
torchada's redirects for real on machines without the vendor's hardware; it is not a product.

``install(name)`` builds (once, cached) and loads the C extension, renames PrivateUse1 to the
profile's device name, and fills the vendor module (``torch_musa``, also ``torch.musa``) with the
vendor's Python surface. It does not start the device runtime: that happens on the first device
query, which reads the visible-devices variable, as a real runtime does.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

__all__ = ["PROFILES", "install"]

from .profiles import PROFILES

_installed: str | None = None
_FLATTENED = ("device", "memory", "streams", "random", "graphs")


def install(name: str, module: ModuleType | None = None) -> ModuleType:
    """Install the profile ``name`` into this process and return the vendor module."""
    global _installed
    profile = PROFILES[name]
    if _installed is not None:
        if _installed != name:
            msg = f"the test device is already installed as {_installed!r} in this process"
            raise RuntimeError(msg)
        return sys.modules[profile.module]

    import torch

    from . import _state
    from .build import load_extension

    _state.C = load_extension()
    _state.profile = profile
    _state.C.configure(profile.visible_devices_env)
    torch.utils.rename_privateuse1_backend(profile.device)
    vendor = module if module is not None else ModuleType(profile.module)
    _populate(vendor, profile)
    torch._register_device_module(profile.device, vendor)
    torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)
    sys.modules[profile.module] = vendor
    sys.modules[f"torch.{profile.device}"] = vendor
    for sub in ("amp", "memory"):
        sys.modules[f"{profile.module}.{sub}"] = getattr(vendor, sub)
        sys.modules[f"torch.{profile.device}.{sub}"] = getattr(vendor, sub)
    setattr(torch.version, profile.device, profile.version)
    setattr(torch.profiler.ProfilerActivity, profile.upper, torch.profiler.ProfilerActivity.PrivateUse1)
    _state.C.register_graph_impl(profile.upper)

    from . import autocast, collective

    autocast.register()
    collective.register()
    setattr(vendor, profile.collective, collective.make_module(profile.module))
    _installed = name
    return vendor


def _populate(vendor: ModuleType, profile: Any) -> None:
    import importlib

    from . import inductor, runtime

    for sub in _FLATTENED:
        submodule = importlib.import_module(f"{__name__}.{sub}")
        for attr in submodule.__all__:
            setattr(vendor, attr, getattr(submodule, attr))
    from . import amp, memory
    from . import random as rng

    vendor.amp = amp
    vendor.memory = memory
    vendor.random = rng
    vendor.OutOfMemoryError = __import__("torch").OutOfMemoryError
    vendor._utils = ModuleType(f"{profile.module}._utils")
    vendor._utils._get_device_index = vendor._get_device_index
    graphs = importlib.import_module(f"{__name__}.graphs")
    graphs.Graph.__name__ = graphs.Graph.__qualname__ = f"{profile.upper}Graph"
    setattr(vendor, f"{profile.upper}Graph", graphs.Graph)
    setattr(vendor, f"{profile.upper}PluggableAllocator", _PluggableAllocator)
    setattr(vendor, profile.runtime_handle, runtime.runtime_handle)
    streams = importlib.import_module(f"{__name__}.streams")
    setattr(streams.Stream, f"{profile.device}_stream", property(lambda s: s.stream_id))
    setattr(streams.Event, f"{profile.device}_event", property(lambda e: e.event_id))
    vendor.__version__ = profile.version

    def __getattr__(attr: str) -> Any:
        if attr in inductor.ATTRIBUTES:
            return inductor.backend_attribute(attr)
        msg = f"module {profile.module!r} has no attribute {attr!r}"
        raise AttributeError(msg)

    vendor.__getattr__ = __getattr__


class _PluggableAllocator:
    """Placeholder for ``MUSAPluggableAllocator``: the test device has one fixed allocator."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        msg = "pluggable allocators are not supported by the test device"
        raise NotImplementedError(msg)
