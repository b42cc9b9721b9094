"""Vendors as data: everything the redirects need to know about a vendor's PyTorch extension.

MUSA (torch_musa) is the product. MLU (Cambricon's Torch-MLU) proves that nothing else is
MUSA-specific: the redirect table is written with the placeholders of :meth:`Vendor.format`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

__all__ = ["MISSING", "VENDORS", "Vendor", "vendor_for"]

MISSING = object()  # what a redirect's builder returns when it does not apply to the vendor


@dataclass(frozen=True, slots=True)
class Vendor:
    platform: str  # a torchada.platform.Platform value: "musa", "mlu"
    module: str  # the extension's import name
    device: str  # its PrivateUse1 device name; also the torch.<device> module
    collective: str  # its process-group backend, the counterpart of "nccl"
    runtime_handle: str  # torch.<device>.<runtime_handle>() is the counterpart of cudart()
    environment: tuple[tuple[str, str], ...]  # (CUDA variable, vendor variable)
    mapping_database: bool  # whether hipify_like's CUDA->vendor names apply (cudart, ctypes)
    build_hooks: bool  # whether torchada_build's cpp_extension hooks apply
    counts_devices_at_import: bool  # its import fixes the visible devices (no later change applies)

    def format(self, template: str) -> str:
        """Fill a table template: ``{DEVICE}Graph`` -> ``MUSAGraph``."""
        return template.format(
            device=self.device,
            DEVICE=self.device.upper(),
            collective=self.collective,
            runtime=self.runtime_handle,
            visible_devices=self.visible_devices(),
        )

    def device_module(self) -> ModuleType:
        """The vendor's device module (``torch.musa``), importing the extension if needed."""
        import torch

        if not hasattr(torch, self.device):
            __import__(self.module)
        module: ModuleType = getattr(torch, self.device)
        return module

    def visible_devices(self) -> str:
        return dict(self.environment)["CUDA_VISIBLE_DEVICES"]


VENDORS = (
    # docs/torch_musa.md (torch_musa v2.7.1): torch.musa, musart(), mccl, MUSA_VISIBLE_DEVICES,
    # PYTORCH_MUSA_ALLOC_CONF; `import torch_musa` counts the devices (torch_musa/_dynamo/__init__.py:15)
    # and caches the count (torch_musa/core/device.py:144).
    Vendor(
        platform="musa",
        module="torch_musa",
        device="musa",
        collective="mccl",
        runtime_handle="musart",
        environment=(
            ("CUDA_VISIBLE_DEVICES", "MUSA_VISIBLE_DEVICES"),
            ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_MUSA_ALLOC_CONF"),
        ),
        mapping_database=True,
        build_hooks=True,
        counts_devices_at_import=True,
    ),
    # Cambricon torch_mlu's gpu_migration (Cambricon/torch_mlu, torch_mlu/utils/gpu_migration): torch.mlu, cncl, MLU_VISIBLE_DEVICES.
    Vendor(
        platform="mlu",
        module="torch_mlu",
        device="mlu",
        collective="cncl",
        runtime_handle="cnrt",
        environment=(
            ("CUDA_VISIBLE_DEVICES", "MLU_VISIBLE_DEVICES"),
            ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_MLU_ALLOC_CONF"),
        ),
        mapping_database=False,
        build_hooks=False,
        counts_devices_at_import=False,
    ),
)


def vendor_for(platform: str) -> Vendor | None:
    """The vendor of a :class:`torchada.platform.Platform` value, or None (cuda, cpu)."""
    for vendor in VENDORS:
        if vendor.platform == platform:
            return vendor
    return None


