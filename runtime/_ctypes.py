"""``ctypes.CDLL("libcudart.so")``: loads the vendor's library and finds CUDA names in it.

A CUDA library (``libcudart``, ``libcuda``, ``libnccl``, ``libcublas``, ``libcublasLt``,
``libcurand``) is replaced by its vendor counterpart from the mapping database (``libmusart`` ...),
and in it, or in a vendor library opened by name, ``lib.cudaMalloc`` finds ``musaMalloc``: the
mapped name first, then the mechanical prefix rename (``cublasCreate_v2`` is ``mublasCreate``,
else ``mublasCreate_v2``); the name found is remembered per library.
"""

from __future__ import annotations

import ctypes
import os
import re
from collections.abc import Callable
from typing import Any

from . import names
from .vendors import MISSING, Vendor

__all__ = ["cdll", "library_loader"]

Converter = Callable[[str], tuple[str, ...]]


def _candidates(convert: Callable[[str], str], family: str) -> Converter:
    def candidates(name: str) -> tuple[str, ...]:
        mapped = convert(name)
        mechanical = names.prefix_renamed(name, family)
        return (mapped,) if mechanical == mapped else (mapped, mechanical)

    return candidates


# Which names to look up, in order, for the symbols of each CUDA library.
_CONVERTERS: dict[str, Converter] = {
    "cudart": _candidates(names.cuda_to_musa_name, "runtime"),
    "cuda": _candidates(names.cuda_to_musa_name, "runtime"),
    "nccl": _candidates(names.nccl_to_mccl_name, "nccl"),
    "cublas": _candidates(names.cublas_to_mublas_name, "cublas"),
    "cublasLt": _candidates(names.cublas_to_mublas_name, "cublas"),
    "curand": _candidates(names.curand_to_murand_name, "curand"),
}
_LIBRARY = re.compile(r"lib(?P<stem>[A-Za-z]+)(?P<suffix>\.so(?:\.[0-9]+)*)?")


def _resolve(name: Any) -> tuple[Any, Converter | None]:
    """The library to open instead of ``name``, and the converter for its symbols."""
    if not isinstance(name, (str, os.PathLike)):
        return name, None
    folder, base = os.path.split(os.fspath(name))
    match = _LIBRARY.fullmatch(base)
    if match is None:
        return name, None
    stem = match["stem"]
    renamed = {cuda: names.library_name(cuda) for cuda in _CONVERTERS}
    renamed = {cuda: musa for cuda, musa in renamed.items() if musa != cuda}
    for cuda, musa in renamed.items():
        if stem == musa:  # a vendor library, opened by its own name
            return name, _CONVERTERS[cuda]
    if stem not in renamed:
        return name, None
    replacement = f"lib{renamed[stem]}.so"
    if folder and os.path.exists(os.path.join(folder, replacement)):
        replacement = os.path.join(folder, replacement)
    return replacement, _CONVERTERS[stem]


def cdll(original: type, vendor: Vendor) -> type:
    """A ``ctypes.CDLL`` subclass (``isinstance`` still holds) that translates for the vendor."""
    if not vendor.mapping_database:
        return MISSING  # type: ignore[return-value]  # the redirect table's "leave it" marker

    class CDLL(original):  # type: ignore[misc]
        __doc__ = original.__doc__
        _torchada_convert: Converter | None = None

        def __init__(self, name: Any, *args: Any, **kwargs: Any) -> None:
            name, self._torchada_convert = _resolve(name)
            self._torchada_found: dict[str, str] = {}
            super().__init__(name, *args, **kwargs)

        def __getitem__(self, name_or_ordinal: Any) -> Any:
            if self._torchada_convert is None or not isinstance(name_or_ordinal, str):
                return super().__getitem__(name_or_ordinal)
            found = self._torchada_found.get(name_or_ordinal)
            if found is not None:
                return super().__getitem__(found)
            candidates = self._torchada_convert(name_or_ordinal)
            for candidate in candidates[:-1]:
                try:
                    function = super().__getitem__(candidate)
                except AttributeError:
                    continue
                self._torchada_found[name_or_ordinal] = candidate
                return function
            function = super().__getitem__(candidates[-1])
            self._torchada_found[name_or_ordinal] = candidates[-1]
            return function

    CDLL.__qualname__ = CDLL.__name__ = "CDLL"
    CDLL.__module__ = "ctypes"
    return CDLL


def library_loader(original: Any, vendor: Vendor) -> Any:
    """``ctypes.cdll.LoadLibrary`` uses the loader's own reference to the class: point it at the
    translating one (the ``ctypes.CDLL`` row comes first in the table)."""
    return ctypes.CDLL if vendor.mapping_database else MISSING
