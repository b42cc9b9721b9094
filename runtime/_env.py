"""CUDA environment variables (``CUDA_VISIBLE_DEVICES``) set for the vendor's runtime.

Each pair of the vendor's ``environment`` is copied when the CUDA variable is set before the
vendor's runtime starts (it reads them when it starts): at ``import torchada``, and again at the
first uses of ``torch.cuda`` names and ``"cuda"`` devices until the runtime has started, so a
script may still set ``CUDA_VISIBLE_DEVICES`` after its imports. A CUDA variable wins over a
different vendor value, since it is what the launcher or the user asked of the CUDA program.
"""

from __future__ import annotations

import os
import sys

from ._warn import warn_once
from .vendors import Vendor

__all__ = ["map_environment", "sync", "watching"]

watching = False  # True until the vendor's runtime has started
_vendor: Vendor | None = None


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
    global watching, _vendor
    _vendor = vendor
    _copy(vendor)
    watching = not _runtime_started(vendor)


def _copy(vendor: Vendor) -> None:
    for cuda_name, vendor_name in vendor.environment:
        value = os.environ.get(cuda_name)
        if value is None or os.environ.get(vendor_name) == value:
            continue
        if _runtime_started(vendor):
            warn_once(
                f"env:{cuda_name}",
                f"{cuda_name}={value} was not applied: the {vendor.device.upper()} runtime had "
                f"already started; set it before the first device call (or set {vendor_name})",
            )
            continue
        previous = os.environ.get(vendor_name)
        if previous not in (None, "", "all"):
            warn_once(
                f"env:{vendor_name}",
                f"{vendor_name}={previous} is replaced by {cuda_name}={value}",
            )
        os.environ[vendor_name] = value
