"""``torch.cuda.cudart()``: the vendor's runtime bindings under their CUDA names.

torch_musa binds fewer runtime functions than torch's ``cudart()`` (docs/torch_musa.md): it has no
``musaProfilerStart``/``musaProfilerStop``, which torch's ``torch.cuda.profiler`` calls. Those two
take no arguments, so they are called in the vendor's runtime library itself (``libmusart.so``,
found as the dynamic loader finds it, else under ``$MUSA_HOME/lib``). Any other name the
bindings lack raises :class:`RuntimeFunctionMissing`, which says what is missing and where it was
looked for. ``torch.cuda.profiler`` and ``torch.cuda.check_error`` use this ``cudart()``.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .names import cuda_to_musa_name, library_name
from .vendors import MISSING, Vendor

__all__ = ["RuntimeFunctionMissing", "check_error", "cudart", "profiler"]

_LIBRARY_FUNCTIONS = frozenset({"cudaProfilerStart", "cudaProfilerStop"})  # () -> error code


class RuntimeFunctionMissing(AttributeError):
    """A CUDA runtime function with no counterpart in the vendor's bindings or library."""


class Runtime:
    """Looks up ``cudaX`` as the vendor's name for it; each name is resolved once."""

    def __init__(self, handle: Any, convert: Callable[[str], str], vendor: Vendor) -> None:
        self._handle = handle
        self._convert = convert
        self._vendor = vendor

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        vendor_name = self._convert(name)
        value = getattr(self._handle, vendor_name, MISSING)
        if value is MISSING:
            value = self._library_function(name, vendor_name)
        self.__dict__[name] = value
        return value

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._handle)) | set(self.__dict__))

    def _library_function(self, name: str, vendor_name: str) -> Any:
        device = self._vendor.device
        bindings = f"torch.{device}.{self._vendor.runtime_handle}()"
        where = f"torch.cuda.cudart().{name}: {self._vendor.module}'s runtime bindings ({bindings}) have no {vendor_name}"
        if name not in _LIBRARY_FUNCTIONS:
            raise RuntimeFunctionMissing(f"{where}, and torchada has no other way to call it", name=name, obj=self)
        library = f"lib{library_name('cudart')}.so"
        home = os.environ.get(f"{device.upper()}_HOME", f"/usr/local/{device}")
        errors = []
        for path in (library, os.path.join(home, "lib", library)):
            try:
                function = getattr(ctypes.CDLL(path), vendor_name)
            except (OSError, AttributeError) as error:
                errors.append(str(error))
                continue
            function.argtypes = []
            function.restype = ctypes.c_int
            return function
        raise RuntimeFunctionMissing(f"{where}, and {library} could not be loaded ({'; '.join(errors)})",
                                     name=name, obj=self)


def cudart(original: Any, vendor: Vendor) -> Any:
    if not vendor.mapping_database:
        return MISSING
    runtime: list[Runtime] = []

    def cudart() -> Runtime:
        if not runtime:
            handle = getattr(vendor.device_module(), vendor.runtime_handle)()
            runtime.append(Runtime(handle, cuda_to_musa_name, vendor))
        return runtime[0]

    cudart.__doc__ = original.__doc__
    return cudart


def check_error(original: Any, vendor: Vendor) -> Any:
    """``torch.cuda.check_error(result)``: raises for a vendor runtime error code (not 0)."""
    if not vendor.mapping_database:
        return MISSING

    def check_error(res: Any) -> None:
        code = int(res)
        if code != 0:
            msg = f"{vendor.device.upper()} runtime error {code}"
            raise RuntimeError(msg)

    check_error.__doc__ = original.__doc__
    return check_error


def profiler(original: ModuleType, vendor: Vendor) -> Any:
    """``torch.cuda.profiler``: torch's own module (``start``, ``stop``, ``profile``), calling the
    vendor's runtime through the redirected ``cudart()`` and ``check_error()``."""
    if not vendor.mapping_database:
        return MISSING
    cuda = sys.modules["torch.cuda"]
    for name in ("cudart", "check_error"):
        setattr(original, name, getattr(cuda, name))
    return original
