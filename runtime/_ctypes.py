"""``ctypes.CDLL("libcudart.so")``: loads the vendor's library and finds CUDA names in it.

A CUDA library (``libcudart``, ``libcuda``, ``libnccl``, ``libcublas``, ``libcublasLt``,
``libcurand``) is replaced by its vendor counterpart from the mapping database (``libmusart`` ...),
and in it, or in a vendor library opened by name, ``lib.cudaMalloc`` finds ``musaMalloc``.
"""

from __future__ import annotations

import ctypes
import os
import re
from typing import Any, Callable

from . import names
from .vendors import MISSING, Vendor

__all__ = ["cdll", "library_loader"]

# Which converter answers for the symbols of each CUDA library.
_CONVERTERS: dict[str, Callable[[str], str]] = {
    "cudart": names.cuda_to_musa_name,
    "cuda": names.cuda_to_musa_name,
    "nccl": names.nccl_to_mccl_name,
    "cublas": names.cublas_to_mublas_name,
    "cublasLt": names.cublas_to_mublas_name,
    "curand": names.curand_to_murand_name,
}
_LIBRARY = re.compile(r"lib(?P<stem>[A-Za-z]+)(?P<suffix>\.so(?:\.[0-9]+)*)?")


def _resolve(name: Any) -> tuple[Any, Callable[[str], str] | None]:
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
        return MISSING

    class CDLL(original):  # type: ignore[misc, valid-type]
        __doc__ = original.__doc__
        _torchada_convert: Callable[[str], str] | None = None

        def __init__(self, name: Any, *args: Any, **kwargs: Any) -> None:
            name, self._torchada_convert = _resolve(name)
            super().__init__(name, *args, **kwargs)

        def __getitem__(self, name_or_ordinal: Any) -> Any:
            if self._torchada_convert is not None and isinstance(name_or_ordinal, str):
                name_or_ordinal = self._torchada_convert(name_or_ordinal)
            return super().__getitem__(name_or_ordinal)

    CDLL.__qualname__ = CDLL.__name__ = "CDLL"
    CDLL.__module__ = "ctypes"
    return CDLL


def library_loader(original: Any, vendor: Vendor) -> Any:
    """``ctypes.cdll.LoadLibrary`` uses the loader's own reference to the class: point it at the
    translating one (the ``ctypes.CDLL`` row comes first in the table)."""
    return ctypes.CDLL if vendor.mapping_database else MISSING
