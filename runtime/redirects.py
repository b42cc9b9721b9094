"""The redirect table: one row per CUDA attribute, saying what it becomes on the vendor.

``cuda_name`` is the attribute's dotted path (a template, as ``torch.{device}._is_compiled``,
where the vendor's module lacks a name CUDA code asks it for). ``musa_name`` is the vendor's attribute, a
:meth:`Vendor.format` template resolved on the vendor's device module (``torch.musa``) unless it
starts with ``torch.`` or ``triton.``. ``via`` names the builder of the replacement
(``module:function``, called with the CUDA original and the vendor) where one is needed.
``without`` says what the user gets where torch_musa lacks ``musa_name`` (its inventory,
tests/musa_device/vendor, is checked against the table).

Names under ``torch.cuda`` with no row resolve to the vendor's attribute of the same name; a
public CUDA function the vendor lacks still runs, after one :class:`TorchadaWarning`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["REDIRECTS", "Kind", "Redirect", "factory_redirects"]


class Kind(enum.Enum):
    MODULE = "module"  # a torch.cuda namespace answered by the vendor's (lazily, per name)
    ALIAS = "alias"  # the vendor's attribute `musa_name`
    KEEP = "keep"  # the CUDA attribute itself
    WRAP = "wrap"  # what `via(original, vendor)` builds
    DEVICE_ARGS = "device_args"  # the original, with CUDA device arguments translated
    PROPERTY = "property"  # on a vendor class, reads the vendor's attribute `musa_name`
    FALLBACK = "fallback"  # the vendor's attribute (or what `via` builds), only where torch has none
    REPLACE = "replace"  # what `via` builds, whether torch has the attribute (a CUDA build) or not
    CONSTANT = "constant"  # the string `musa_name`


@dataclass(frozen=True, slots=True)
class Redirect:
    cuda_name: str
    musa_name: str | None
    kind: Kind
    via: str | None = None
    without: str | None = None


def _rows(kind: Kind, names: tuple[str, ...], via: str | None = None) -> tuple[Redirect, ...]:
    return tuple(Redirect(name, None, kind, via) for name in names)


R = Redirect
K = Kind

REDIRECTS: tuple[Redirect, ...] = (
    # torch.cuda and its submodules: resolved on first use, then plain attributes.
    R("torch.cuda", "", K.MODULE),
    R("torch.cuda.amp", "amp", K.MODULE),
    R("torch.cuda.memory", "memory", K.MODULE),
    R("torch.cuda.random", "random", K.MODULE,
      without="names resolve on torch.musa, which re-exports torch_musa.core.random's"),
    R("torch.cuda.graphs", "graphs", K.MODULE),
    R("torch.cuda.streams", "streams", K.MODULE,
      without="names resolve on torch.musa, which re-exports torch_musa.core.stream's"),
    # False on MUSA (see torchada.has_gpu()), unless TORCHADA_FORCE_CUDA_AVAILABLE=1.
    R("torch.cuda.is_available", None, K.WRAP, "_backends:is_available"),
    R("torch.cuda._is_compiled", None, K.WRAP, "_backends:is_compiled"),
    R("torch.{device}._is_compiled", None, K.FALLBACK, "_backends:is_compiled"),
    R("torch.backends.cuda.is_built", None, K.WRAP, "_backends:is_built"),
    R("torch._C._cuda_getCurrentRawStream", None, K.REPLACE, "_backends:raw_stream"),
    R("torch._C._cuda_CUDAAllocator_AllocatorState", None, K.FALLBACK,
      "_backends:allocator_state"),
    R("torch.cuda.CUDAGraph", "{DEVICE}Graph", K.WRAP, "_graphs:graph_class"),
    R("torch.cuda.graph", "graph", K.WRAP, "_graphs:graph"),
    R("torch.cuda.CUDAPluggableAllocator", "{DEVICE}PluggableAllocator", K.ALIAS),
    R("torch.cuda.cudart", "{runtime}", K.WRAP, "_cudart:cudart"),
    R("torch.cuda.check_error", None, K.WRAP, "_cudart:check_error"),
    R("torch.cuda.profiler", None, K.WRAP, "_cudart:profiler"),
    R("torch.cuda.nccl", "{collective}", K.WRAP, "_dist:nccl"),
    R("torch.cuda.nvtx", None, K.WRAP, "_nvtx:nvtx"),
    R("torch.cuda._device_count_nvml", "device_count", K.ALIAS),
    R("torch.cuda._get_device_index", "core._utils._get_{device}_device_index", K.ALIAS),
    R("torch.cuda.memory_cached", "memory_reserved", K.ALIAS),
    R("torch.cuda.max_memory_cached", "max_memory_reserved", K.ALIAS),
    R("torch.cuda.Stream.cuda_stream", "{device}_stream", K.PROPERTY),
    R("torch.cuda.Event.cuda_event", "{device}_event", K.PROPERTY),
    # Devices: strings, torch.device, generators, tensors and modules.
    R("torch.device", None, K.WRAP, "_device:device_factory"),
    R("torch.Generator", None, K.WRAP, "_device:generator_factory"),
    R("torch.Stream", None, K.WRAP, "_device:device_class"),
    R("torch.Event", None, K.WRAP, "_device:device_class"),
    R("torch.fx.graph._custom_builtins", None, K.WRAP, "_compile:fx_builtins"),
    R("torch.Tensor.to", None, K.WRAP, "_device:tensor_to"),
    R("torch.Tensor.cuda", None, K.WRAP, "_device:tensor_cuda"),
    R("torch.Tensor.is_cuda", None, K.WRAP, "_device:tensor_is_cuda"),
    *_rows(K.DEVICE_ARGS, tuple(f"torch.Tensor.new_{name}" for name in (
        "empty", "empty_strided", "full", "ones", "tensor", "zeros"))),
    R("torch.nn.Module.cuda", None, K.KEEP),  # calls Tensor.cuda
    R("torch.distributed.device_mesh.init_device_mesh", None, K.DEVICE_ARGS),
    # amp.
    R("torch.amp.autocast_mode.autocast.__init__", None, K.WRAP, "_amp:autocast_init"),
    R("torch.amp.grad_scaler.GradScaler.__init__", None, K.WRAP, "_amp:grad_scaler_init"),
    *_rows(K.WRAP, ("torch.is_autocast_enabled", "torch.set_autocast_enabled",
                    "torch.get_autocast_dtype", "torch.set_autocast_dtype"), "_amp:gpu_default"),
    R("torch.get_autocast_gpu_dtype", None, K.WRAP, "_amp:get_gpu_dtype"),
    R("torch.set_autocast_gpu_dtype", None, K.WRAP, "_amp:set_gpu_dtype"),
    *_rows(K.DEVICE_ARGS, ("torch.amp.is_autocast_available", "torch.amp.custom_fwd",
                           "torch.amp.custom_bwd", "torch.amp.autocast_mode.is_autocast_available",
                           "torch.amp.autocast_mode.custom_fwd",
                           "torch.amp.autocast_mode.custom_bwd")),
    # Dispatch keys, profiler.
    R("torch.library.Library.__init__", None, K.WRAP, "_library:library_init"),
    R("torch._library.infer_schema.SUPPORTED_PARAM_TYPES", None, K.WRAP, "_library:param_types"),
    R("torch.jit.script", None, K.WRAP, "_jit:script"),
    R("torch.library.Library.impl", None, K.WRAP, "_library:impl"),
    R("torch.library.Library.fallback", None, K.WRAP, "_library:fallback"),
    R("torch.profiler.profiler._KinetoProfile.__init__", None, K.WRAP, "_profiler:kineto_init"),
    R("torch.autograd.profiler.profile.__init__", None, K.WRAP, "_profiler:autograd_profile_init"),
    # torch.distributed: "nccl" is the vendor's collective backend.
    *(R(f"{module}.{name}", None, K.WRAP, f"_dist:{name}")
      for module in ("torch.distributed", "torch.distributed.distributed_c10d")
      for name in ("init_process_group", "new_group", "get_backend", "is_nccl_available")),
    # torch.accelerator: the vendor's implementation where torch has none.
    *(R(f"torch.accelerator.{name}", target, K.FALLBACK) for name, target in (
        ("Stream", "Stream"), ("Event", "Event"), ("stream", "stream"),
        ("device_index", "device"), ("synchronize", "synchronize"),
        ("manual_seed", "manual_seed"), ("manual_seed_all", "manual_seed_all"),
        ("initial_seed", "initial_seed"),
        ("empty_cache", "empty_cache"), ("memory_stats", "memory_stats"),
        ("memory_allocated", "memory_allocated"), ("max_memory_allocated", "max_memory_allocated"),
        ("memory_reserved", "memory_reserved"), ("max_memory_reserved", "max_memory_reserved"),
        ("reset_peak_memory_stats", "reset_peak_memory_stats"),
        ("reset_accumulated_memory_stats", "reset_accumulated_memory_stats"),
        ("get_memory_info", "mem_get_info"))),
    # Modules a program may never import: applied when they are.
    R("torch._inductor.autotune_process.CUDA_VISIBLE_DEVICES", "{visible_devices}", K.CONSTANT),
    R("torch._inductor.codecache.torch", None, K.WRAP, "_compile:torch_with_cuda"),
    R("torch._dynamo.utils.common_constant_types", None, K.WRAP, "_compile:constant_types"),
    R("torch.nn.attention.flex_attention._validate_device", None, K.WRAP,
      "_compile:flex_validate_device"),
    R("triton.language.extra.cuda", "triton.language.extra.{device}", K.ALIAS),
    # ctypes (the loader's class reference after the class).
    R("ctypes.CDLL", None, K.WRAP, "_ctypes:cdll"),
    R("ctypes.cdll._dlltype", None, K.WRAP, "_ctypes:library_loader"),
)


def factory_redirects() -> tuple[Redirect, ...]:
    """One DEVICE_ARGS row per tensor factory of this torch (``torch.zeros``, ``torch.arange`` ...):
    those ``with torch.device(...)`` knows, their ``*_like`` twins, and a few more."""
    import torch
    from torch.utils._device import _device_constructors

    names = {function.__name__ for function in _device_constructors()}
    names |= {f"{name}_like" for name in names if hasattr(torch, f"{name}_like")}
    names |= {"from_file", "normal", "asarray", "as_tensor"}
    return tuple(Redirect(f"torch.{name}", None, Kind.DEVICE_ARGS)
                 for name in sorted(names) if hasattr(torch, name))
