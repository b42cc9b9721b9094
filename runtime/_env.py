"""CUDA environment variables (``CUDA_VISIBLE_DEVICES``) set for the vendor's runtime.

Each pair of the vendor's ``environment`` is copied when the CUDA variable is set before the
vendor reads it: at ``import torchada``, and again at the first uses of ``torch.cuda`` names and
``"cuda"`` devices until the runtime has started, so a script may still set
``PYTORCH_CUDA_ALLOC_CONF`` after its imports. A vendor that counts its devices when it is
imported (torch_musa: docs/torch_musa.md) has fixed the visible devices by then: a
``CUDA_VISIBLE_DEVICES`` set later is not applied, and one warning says so. A CUDA variable wins
over a different vendor value, since it is what the launcher or the user asked of the CUDA program.
"""

from __future__ import annotations

import os
import sys

from ._warn import warn_once
from .vendors import Vendor

__all__ = ["map_environment", "sync", "watching"]

watching = False  # True until the vendor's runtime has started
_vendor: Vendor | None = None
_VISIBLE_DEVICES = "CUDA_VISIBLE_DEVICES"


def _runtime_started(vendor: Vendor) -> bool:
    module = getattr(sys.modules.get("torch"), vendor.device, None)
    is_initialized = getattr(module, "is_initialized", None)
    return bool(is_initialized and is_initialized())


def sync() -> None:
    """Copy the variables again if the runtime has not started yet (cheap once it has)."""
    global watching
    if not watching or _vendor is None:
        return
    if _runtime_started(_vendor):
        watching = False
        return
    _copy(_vendor)


def map_environment(vendor: Vendor) -> None:
    """Copy the variables for ``vendor``; call it before the vendor's extension is imported."""
    global watching, _vendor
    _vendor = vendor
    _copy(vendor)
    watching = not _runtime_started(vendor)


def _too_late(vendor: Vendor, cuda_name: str) -> str | None:
    """Why setting the vendor's counterpart of ``cuda_name`` now would change nothing, or None."""
    device = vendor.device.upper()
    if _runtime_started(vendor):
        return f"the {device} runtime had already started"
    if cuda_name == _VISIBLE_DEVICES and vendor.counts_devices_at_import and vendor.module in sys.modules:
        return f"{vendor.module} counts its devices when it is imported, and it was imported before"
    return None


def _copy(vendor: Vendor) -> None:
    for cuda_name, vendor_name in vendor.environment:
        value = os.environ.get(cuda_name)
        if value is None or os.environ.get(vendor_name) == value:
            continue
        reason = _too_late(vendor, cuda_name)
        if reason is not None:
            warn_once(
                f"env:{cuda_name}",
                f"{cuda_name}={value} was not applied: {reason}; set it before importing torchada "
                f"(or set {vendor_name} before importing {vendor.module})",
            )
            continue
        previous = os.environ.get(vendor_name)
        if previous not in (None, "", "all"):
            warn_once(
                f"env:{vendor_name}",
                f"{vendor_name}={previous} is replaced by {cuda_name}={value}",
            )
        os.environ[vendor_name] = value
