"""``torch.musa.amp``: autocast and GradScaler bound to this backend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from . import _state

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd"]


class autocast(torch.amp.autocast_mode.autocast):
    def __init__(self, enabled: bool = True, dtype: torch.dtype = torch.float16,
                 cache_enabled: bool = True) -> None:
        super().__init__(_state.profile.device, dtype=dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


class GradScaler(torch.amp.GradScaler):
    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        super().__init__(_state.profile.device, init_scale=init_scale,
                         growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)


def custom_fwd(fwd: Callable[..., Any] | None = None, *,
               cast_inputs: torch.dtype | None = None) -> Any:
    return torch.amp.custom_fwd(fwd, device_type=_state.profile.device, cast_inputs=cast_inputs)


def custom_bwd(bwd: Callable[..., Any] | None = None) -> Any:
    return torch.amp.custom_bwd(bwd, device_type=_state.profile.device)
