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
    torch.__setattr__(profile.device, vendor)  # not _register_device_module (torch_musa/__init__.py:50)
    torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)
    sys.modules[profile.module] = vendor
    # torch's device lazy-init imports "torch.<device>"; the vendor's patched torch imports
    # "torch_<device>" instead (torch_patches/torch_csrc_utils_device_lazy_init.cpp.patch), which
    # this vanilla torch cannot: the one sys.modules name the vendor does not set.
    sys.modules[f"torch.{profile.device}"] = vendor
    sys.modules.update(_submodules(vendor, profile))
    setattr(torch.version, profile.device, profile.version)
    setattr(torch.profiler.ProfilerActivity, profile.upper, torch.profiler.ProfilerActivity.PrivateUse1)
    _state.C.register_graph_impl(profile.upper)

    from . import autocast, collective

    autocast.register()
    collective.register()
    setattr(vendor, profile.collective, collective.make_module(profile.module))
    if profile.counts_devices_at_import:
        vendor.device_count()
    torch.cuda._lazy_init = vendor._lazy_init  # torch_musa/__init__.py:199-204
    torch.cuda._lazy_call = vendor._lazy_call
    _installed = name
    return vendor


def _populate(vendor: ModuleType, profile: Any) -> None:
    """The vendor module's surface, laid out as in torch_musa: flat names on the module, plus
    ``amp``, ``memory``, ``random``, ``graphs``, ``core.{device,stream,memory,random,amp}``,
    ``core._lazy_init``, ``core._utils`` and the C module ``_MUSAC``."""
    import torch

    from . import _state, amp, device, graphs, inductor, memory, runtime, streams
    from . import random as rng
    from .tensor_types import legacy_types

    for module in (device, memory, streams, rng, graphs):
        for attr in module.__all__:
            setattr(vendor, attr, getattr(module, attr))
    graphs.graph.__signature__ = graphs._signature()  # type: ignore[attr-defined]
    graph_class = f"{profile.upper}Graph"
    graphs.Graph.__name__ = graphs.Graph.__qualname__ = graph_class
    for owner in (vendor, graphs):
        setattr(owner, graph_class, graphs.Graph)
    setattr(vendor, f"{profile.upper}PluggableAllocator", _PluggableAllocator)
    setattr(vendor, profile.runtime_handle, runtime.runtime_handle)
    setattr(streams.Stream, f"{profile.device}_stream", property(lambda s: s.stream_id))
    setattr(streams.Event, f"{profile.device}_event", property(lambda e: e._event_id))
    amp.common = _module(f"{profile.module}.amp.common",
                         amp_definitely_not_available=lambda: not device.is_available())
    core = _module(f"{profile.module}.core", device=device, stream=streams, memory=memory,
                   random=rng, amp=amp)
    core._lazy_init = _module(f"{profile.module}.core._lazy_init", _lazy_init=device._lazy_init,
                              _lazy_call=device._lazy_call, is_initialized=device.is_initialized)
    core._utils = _module(f"{profile.module}.core._utils", _get_device_index=torch._utils._get_device_index,
                          **{f"_get_{profile.device}_device_index": device._get_device_index})
    for name, value in dict(amp=amp, memory=memory, graphs=graphs, core=core,
                            OutOfMemoryError=torch.OutOfMemoryError,
                            __version__=profile.version).items():
        setattr(vendor, name, value)
    setattr(vendor, f"_{profile.upper}C", _state.C)
    for name, legacy in legacy_types().items():
        setattr(vendor, name, legacy)

    def __getattr__(attr: str) -> Any:
        if attr in inductor.ATTRIBUTES:
            return inductor.backend_attribute(attr)
        msg = f"module {profile.module!r} has no attribute {attr!r}"
        raise AttributeError(msg)

    vendor.__getattr__ = __getattr__


def _module(name: str, **attributes: Any) -> ModuleType:
    module = ModuleType(name)
    module.__dict__.update(attributes)
    return module


def _submodules(vendor: ModuleType, profile: Any) -> dict[str, ModuleType]:
    """Every submodule of the vendor module, by its import name (``torch_musa.core.stream``; torch_musa
    puts no ``torch.musa.*`` name in ``sys.modules``), so ``import`` statements find them."""
    found = {}
    for path in ("amp", "amp.common", "memory", "graphs", "core", "core.device",
                 "core.stream", "core.memory", "core.random", "core.amp", "core._lazy_init",
                 "core._utils"):
        module = vendor
        for part in path.split("."):
            module = getattr(module, part)
        found[f"{profile.module}.{path}"] = module
    return found


class _PluggableAllocator:
    """Placeholder for ``MUSAPluggableAllocator``: the test device has one fixed allocator."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        msg = "pluggable allocators are not supported by the test device"
        raise NotImplementedError(msg)
