"""torch.compile: FlexAttention accepts the vendor's tensors (it checks device types by name)."""

from __future__ import annotations

import functools
from typing import Any, Callable

from .vendors import Vendor

__all__ = ["flex_validate_device"]


def flex_validate_device(original: Callable[..., None], vendor: Vendor) -> Callable[..., None]:
    @functools.wraps(original)
    def _validate_device(query: Any, key: Any, value: Any) -> None:
        if query.device.type != vendor.device:
            original(query, key, value)

    return _validate_device
