"""The legacy typed-tensor classes (``torch.musa.FloatTensor`` ...), for ``isinstance`` checks."""

from __future__ import annotations

from typing import Any

import torch

from . import _state

__all__ = ["legacy_types"]

_DTYPES = {
    "FloatTensor": torch.float32, "DoubleTensor": torch.float64, "HalfTensor": torch.float16,
    "BFloat16Tensor": torch.bfloat16, "LongTensor": torch.int64, "IntTensor": torch.int32,
    "ShortTensor": torch.int16, "CharTensor": torch.int8, "ByteTensor": torch.uint8,
    "BoolTensor": torch.bool,
}


class _LegacyType(type):
    dtype: torch.dtype

    def __instancecheck__(cls, instance: Any) -> bool:
        return (isinstance(instance, torch.Tensor) and instance.dtype == cls.dtype
                and instance.device.type == _state.profile.device)


def legacy_types() -> dict[str, type]:
    return {name: _LegacyType(name, (), {"dtype": dtype}) for name, dtype in _DTYPES.items()}
