"""Profiler: ``ProfilerActivity.CUDA`` and ``use_device="cuda"`` record the vendor's device."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .vendors import Vendor

__all__ = ["autograd_profile_init", "kineto_init"]


def _activities(activities: Any) -> Any:
    from torch.profiler import ProfilerActivity

    def one(activity: Any) -> Any:
        return ProfilerActivity.PrivateUse1 if activity == ProfilerActivity.CUDA else activity

    if activities is None:
        return None
    result = []
    for item in activities:
        if isinstance(item, dict):
            result.append({one(key): value for key, value in item.items()})
        else:
            result.append(one(item))
    return result


def kineto_init(original: Callable[..., None], vendor: Vendor) -> Callable[..., None]:
    """``torch.profiler.profile(activities=[ProfilerActivity.CUDA])`` (all of its subclasses)."""

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, activities: Any = None, **kwargs: Any) -> None:
        original(self, *args, activities=_activities(activities), **kwargs)

    return __init__


def autograd_profile_init(original: Callable[..., None], vendor: Vendor) -> Callable[..., None]:
    """``torch.autograd.profiler.profile(use_cuda=True)`` or ``use_device="cuda"``."""

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if kwargs.pop("use_cuda", False):
            kwargs["use_device"] = vendor.device
        if kwargs.get("use_device") == "cuda":
            kwargs["use_device"] = vendor.device
        original(self, *args, **kwargs)

    return __init__
