"""The vendors the test device can impersonate: one record each, selected by name at install."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PROFILES", "Profile"]


@dataclass(frozen=True, slots=True)
class Profile:
    """What a vendor's PyTorch extension looks like from Python."""

    device: str  # the PrivateUse1 name: "musa"
    module: str  # the extension's import name: "torch_musa"
    collective: str  # the process-group backend: "mccl"
    visible_devices_env: str  # read when the runtime starts: "MUSA_VISIBLE_DEVICES"
    runtime_handle: str  # torch.<device>.<handle>() returns the runtime's bindings: "musart"
    runtime_prefix: str  # prefix of the runtime's function names: "musaHostRegister"
    device_name: str  # get_device_name()
    capability: tuple[int, int]
    arch_list: tuple[str, ...]
    version: str  # torch.version.<device>
    counts_devices_at_import: bool  # the import calls device_count(), which caches the count

    @property
    def upper(self) -> str:
        """The name in class names and messages: "MUSA" (``MUSAGraph``)."""
        return self.device.upper()


PROFILES = {
    # torch_musa v2.7.1 (docs/torch_musa.md, with the vendor's file:line for each fact); MTT S4000 is compute capability 2.2 (mp_22).
    "musa": Profile(
        device="musa",
        module="torch_musa",
        collective="mccl",
        visible_devices_env="MUSA_VISIBLE_DEVICES",
        runtime_handle="musart",
        runtime_prefix="musa",
        device_name="MTT S4000 (torchada test device)",
        capability=(2, 2),
        arch_list=("21", "22", "31"),  # _musa_getArchFlags().split() (core/device.py:167-174)
        version="4.3.0",
        counts_devices_at_import=True,  # torch_musa/_dynamo/__init__.py:15, core/device.py:144
    ),
    # Cambricon's Torch-MLU (Cambricon/torch_mlu, torch_mlu/utils/gpu_migration).
    "mlu": Profile(
        device="mlu",
        module="torch_mlu",
        collective="cncl",
        visible_devices_env="MLU_VISIBLE_DEVICES",
        runtime_handle="cnrt",
        runtime_prefix="cnrt",
        device_name="MLU370-X8 (torchada test device)",
        capability=(3, 0),
        arch_list=("mtp_372",),
        version="1.24.0",
        counts_devices_at_import=False,
    ),
}
