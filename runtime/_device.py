"""Device arguments: ``"cuda"``, ``"cuda:N"`` and CUDA ``torch.device`` objects become the vendor's.

``torch.device`` and ``torch.Generator`` are replaced by factories that build the real objects
(``isinstance`` and pickling keep working); ``torch.Stream`` and ``torch.Event`` by subclasses
that translate their device (they may be subclassed in turn); methods and functions that take a
device get a wrapper that translates their device arguments, with a per-string cache.
"""

from __future__ import annotations

import copyreg
import functools
from collections.abc import Callable
from typing import Any

import torch

from . import _env
from .vendors import Vendor

__all__ = [
    "device_args",
    "device_class",
    "device_factory",
    "generator_factory",
    "set_vendor",
    "tensor_cuda",
    "tensor_is_cuda",
    "tensor_to",
    "translate",
]

RealDevice = torch._C.device
RealGenerator = torch._C.Generator
_vendor_type = "cuda"
_strings: dict[str, str] = {}
_devices: dict[Any, Any] = {}
_CACHE_LIMIT = 256


def set_vendor(vendor: Vendor) -> None:
    global _vendor_type
    _vendor_type = vendor.device


def _translate_string(value: str) -> str:
    _env.sync()
    kind, colon, index = value.partition(":")
    if kind == "cuda" and (not colon or index.isdigit()):
        result = _vendor_type + colon + index
    else:
        result = value
    if len(_strings) < _CACHE_LIMIT:
        _strings[value] = result
    return result


def translate(device: Any) -> Any:
    """``device`` with CUDA replaced by the vendor; anything else unchanged.

    Written with ``isinstance`` and attribute reads only, so Dynamo traces it like user code.
    """
    if isinstance(device, str):
        found = _strings.get(device)
        return found if found is not None else _translate_string(device)
    if getattr(device, "type", None) == "cuda" and isinstance(device, RealDevice):
        known = _devices.get(device)
        if known is None:
            known = _devices[device] = RealDevice(_vendor_type, device.index)
        return known
    return device


def _is_cuda(value: Any) -> bool:
    if isinstance(value, str):
        return value.startswith("cuda")
    return getattr(value, "type", None) == "cuda"


def device_args(original: Callable[..., Any], vendor: Vendor | None = None) -> Callable[..., Any]:
    """``original`` with CUDA devices translated in ``device=``/``device_type=`` and positions."""

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            for key in ("device", "device_type", "map_location"):
                value = kwargs.get(key)
                if value is not None:
                    kwargs[key] = translate(value)
        for value in args:
            if _is_cuda(value):
                args = tuple(translate(item) for item in args)
                break
        return original(*args, **kwargs)

    return wrapper


class _FactoryType(type):
    """Metaclass of the factories: calls build the real object, isinstance checks the real type."""

    _real: type

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls._real)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls._real)


class _DeviceType(_FactoryType):
    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs:
            value = args[0]
            if value.__class__ is str:
                found = _devices.get(value)
                if found is None:
                    _env.sync()
                    found = RealDevice(translate(value))
                    if len(_devices) < _CACHE_LIMIT:
                        _devices[value] = found
                return found
            return RealDevice(translate(value))
        if args and args[0] == "cuda":
            args = (_vendor_type, *args[1:])
        if kwargs.get("type") == "cuda":
            kwargs["type"] = _vendor_type
        return RealDevice(*args, **kwargs)


class _GeneratorType(_FactoryType):
    def __call__(cls, device: Any = "cpu", **kwargs: Any) -> Any:
        return RealGenerator(translate(device), **kwargs)


def _factory(metaclass: type, real: type, name: str) -> type:
    factory: type = metaclass(name, (), {"_real": real, "__doc__": real.__doc__, "__module__": "torch"})
    # Pickle the real objects by reference to the factory: the global ``torch.<name>`` that
    # pickle checks is the factory now, and in a process without torchada it is the real type.
    copyreg.pickle(real, lambda obj: (factory, *obj.__reduce__()[1:]))
    return factory


def device_factory(original: type, vendor: Vendor) -> type:
    factory = _factory(_DeviceType, original, "device")
    from torch.jit import _builtins

    _builtins._register_builtin(factory, "aten::device")
    return factory


def generator_factory(original: type, vendor: Vendor) -> type:
    return _factory(_GeneratorType, original, "Generator")


def device_class(original: type, vendor: Vendor) -> type:
    """``torch.Stream``/``torch.Event``: a subclass whose ``device`` argument is translated. Calling
    it builds the real class (C++ methods such as ``elapsed_time`` accept no subclass), whose
    instances are instances of it; a user's subclass of it gets instances of its own."""

    class Meta(type(original)):  # type: ignore[misc]
        def __instancecheck__(cls, instance: Any) -> bool:
            if cls is replacement:
                return isinstance(instance, original)
            return bool(super().__instancecheck__(instance))

        def __subclasscheck__(cls, subclass: type) -> bool:
            if cls is replacement:
                return issubclass(subclass, original)
            return bool(super().__subclasscheck__(subclass))

    def __new__(cls: type, device: Any = None, *args: Any, **kwargs: Any) -> Any:
        if device is not None:
            device = translate(device)
        if cls is replacement:  # the real class: C++ methods accept only exactly that type
            return original(device, *args, **kwargs)
        return original.__new__(cls, device, *args, **kwargs)

    replacement = Meta(original.__name__, (original,), {
        "__new__": __new__, "__doc__": original.__doc__, "__module__": "torch",
        "__qualname__": original.__qualname__})
    return replacement


def tensor_to(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    def to(self: torch.Tensor, *args: Any, **kwargs: Any) -> Any:
        if args and _is_cuda(args[0]):
            args = (translate(args[0]), *args[1:])
        if kwargs:
            device = kwargs.get("device")
            if device is not None:
                kwargs["device"] = translate(device)
        return original(self, *args, **kwargs)

    to.__doc__ = original.__doc__
    return to


def tensor_cuda(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """``Tensor.cuda(device=None, non_blocking=False, memory_format=torch.preserve_format)``."""
    to = torch._C.TensorBase.to  # the C method, not the translating wrapper on torch.Tensor
    current = RealDevice(vendor.device)
    preserve = torch.preserve_format

    def cuda(self: torch.Tensor, device: Any = None, non_blocking: bool = False,
             memory_format: torch.memory_format = preserve) -> torch.Tensor:
        if _env.watching:
            _env.sync()
        if device is None:
            device = current
        elif device.__class__ is int:
            device = RealDevice(vendor.device, device)
        else:
            device = translate(device)
        if non_blocking or memory_format is not preserve:
            return to(self, device, non_blocking=non_blocking, memory_format=memory_format)
        return to(self, device)

    cuda.__doc__ = original.__doc__
    return cuda


def tensor_is_cuda(original: Any, vendor: Vendor) -> property:
    """``Tensor.is_cuda``: True for CUDA tensors and for the vendor's (they come from ``.cuda()``)."""
    read = original.__get__
    kind = vendor.device
    return property(lambda self: read(self) or self.device.type == kind, doc=original.__doc__)
