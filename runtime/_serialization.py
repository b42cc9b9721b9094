"""Checkpoints saved on CUDA load onto the vendor's device.

A storage saved on ``cuda:N`` is tagged with that location; ``torch.load`` asks the registered
deserializers, in priority order, to restore it. The one registered here comes before CUDA's:
``cuda`` and ``cuda:N`` (the tag, or a ``map_location`` string) restore on the vendor's device N.
"""

from __future__ import annotations

from typing import Any

from .vendors import Vendor

__all__ = ["register"]

_PRIORITY = 19  # CUDA's deserializer has 20


def register(vendor: Vendor) -> None:
    import torch

    module = vendor.device_module()
    name = vendor.device.upper()

    def restore(storage: Any, location: str) -> Any:
        kind, colon, index = location.partition(":")
        if kind != "cuda" or (colon and not index.isdigit()):
            return None
        device = int(index) if colon else module.current_device()
        count = module.device_count()
        if device >= count:
            msg = (
                f"Attempting to deserialize object on {name} device {device} (saved on "
                f"{location!r}) but torch.{vendor.device}.device_count() is {count}. Please use "
                "torch.load with map_location to map your storages to an existing device."
            )
            raise RuntimeError(msg)
        return storage.to(device=torch.device(vendor.device, device))

    torch.serialization.register_package(_PRIORITY, lambda obj: None, restore)
