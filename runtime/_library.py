"""``torch.library``: kernels registered for CUDA dispatch keys serve the vendor's device.

The vendor's device is PyTorch's PrivateUse1 backend, so each CUDA key has a PrivateUse1 twin.
``torch.library.impl(..., "cuda")``, ``register_kernel`` and ``custom_op(device_types="cuda")``
all end in ``Library.impl`` with the key ``CUDA`` and are covered by it.
"""

from __future__ import annotations

import functools
import typing
import warnings
from collections.abc import Callable
from typing import Any

from .vendors import Vendor

__all__ = ["DISPATCH_KEYS", "fallback", "impl", "library_init", "param_types"]

DISPATCH_KEYS = {
    "CUDA": "PrivateUse1",
    "AutogradCUDA": "AutogradPrivateUse1",
    "AutocastCUDA": "AutocastPrivateUse1",
    "SparseCUDA": "SparsePrivateUse1",
    "SparseCsrCUDA": "SparseCsrPrivateUse1",
    "QuantizedCUDA": "QuantizedPrivateUse1",
    "NestedTensorCUDA": "NestedTensorPrivateUse1",
}


def _key(key: Any) -> Any:
    return DISPATCH_KEYS.get(key, key) if isinstance(key, str) else key


def _qualified(library: Any, op_name: Any) -> str:
    if not isinstance(op_name, str):
        schema = op_name._schema
        op_name = schema.name + (f".{schema.overload_name}" if schema.overload_name else "")
    return op_name if "::" in op_name else f"{library.ns}::{op_name}"


def impl(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """Code that registers both a CUDA and a PrivateUse1 kernel (PyTorch's FSDP does) keeps its
    PrivateUse1 one, in either order; a CUDA kernel only fills an empty PrivateUse1 slot."""
    from torch._C import _dispatch_has_kernel_for_dispatch_key as has_kernel

    translated: set[tuple[str, str]] = set()

    @functools.wraps(original)
    def impl(self: Any, op_name: Any, fn: Any, dispatch_key: str = "", *args: Any,
             **kwargs: Any) -> Any:
        key = _key(dispatch_key)
        slot = (_qualified(self, op_name), key)
        if key != dispatch_key:
            if has_kernel(*slot):
                return None
            translated.add(slot)
        elif slot in translated:
            translated.discard(slot)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "Warning only once for all operators")
                return original(self, op_name, fn, key, *args, **kwargs)
        return original(self, op_name, fn, key, *args, **kwargs)

    return impl


def fallback(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(original)
    def fallback(self: Any, fn: Any, dispatch_key: str = "", *args: Any, **kwargs: Any) -> Any:
        return original(self, fn, _key(dispatch_key), *args, **kwargs)

    return fallback


def library_init(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """``Library(ns, kind, dispatch_key="CUDA")``: the library's default key."""

    @functools.wraps(original)
    def __init__(self: Any, ns: str, kind: str, dispatch_key: str = "") -> None:
        original(self, ns, kind, _key(dispatch_key))

    return __init__


def param_types(original: dict[Any, str], vendor: Vendor) -> dict[Any, str]:
    """``infer_schema``'s annotation table (so ``custom_op``'s): it was keyed by the real
    ``torch.device`` when torch was imported; annotations now name torchada's factory, and
    ``Optional[torch.device]`` is built from it, so each gets the entry of its real twin."""
    import torch

    from ._device import RealDevice

    for annotation, schema in list(original.items()):
        if annotation is RealDevice:
            original[torch.device] = schema
        elif RealDevice in typing.get_args(annotation) and hasattr(annotation, "copy_with"):
            twin = tuple(torch.device if arg is RealDevice else arg
                         for arg in typing.get_args(annotation))
            original[annotation.copy_with(twin)] = schema
    return original
