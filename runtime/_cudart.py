"""``torch.cuda.cudart()``: the vendor's runtime bindings under their CUDA names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .names import cuda_to_musa_name
from .vendors import MISSING, Vendor

__all__ = ["cudart"]


class Runtime:
    """Looks up ``cudaX`` as the vendor's name for it; each name is resolved once."""

    def __init__(self, handle: Any, convert: Callable[[str], str]) -> None:
        self._handle = handle
        self._convert = convert

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self._handle, self._convert(name))
        self.__dict__[name] = value
        return value

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._handle)) | set(self.__dict__))


def cudart(original: Any, vendor: Vendor) -> Any:
    if not vendor.mapping_database:
        return MISSING
    runtime: list[Runtime] = []

    def cudart() -> Runtime:
        if not runtime:
            handle = getattr(vendor.device_module(), vendor.runtime_handle)()
            runtime.append(Runtime(handle, cuda_to_musa_name))
        return runtime[0]

    cudart.__doc__ = original.__doc__
    return cudart
