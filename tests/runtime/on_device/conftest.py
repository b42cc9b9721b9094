"""The behavioural suite's process: the test device installed as the vendor in
``TORCHADA_TEST_VENDOR`` (``musa`` or ``mlu``), then ``import torchada``, as a user would.

The checks use only what a user of torchada would: ``torch``, ``torch.cuda`` and torchada's
public API, so benchmarks/runtime_compat.py runs them unchanged against another torchada.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DEVICE_DIR = HERE.parents[1] / "musa_device"
VENDOR = os.environ["TORCHADA_TEST_VENDOR"]


@dataclass(frozen=True)
class Vendor:
    device: str
    module: str
    collective: str
    visible_devices_env: str
    mapping_database: bool  # CUDA library names map to this vendor's (MUSA only)
    counts_devices_at_import: bool  # `import torch_musa` fixes the visible devices

    @property
    def upper(self) -> str:
        return self.device.upper()

    def env(self) -> dict[str, str]:
        """The environment of a child process that runs on the same test device."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(DEVICE_DIR / "sites" / self.device),
                                             env.get("PYTHONPATH", "")])
        return env


VENDORS = {
    "musa": Vendor("musa", "torch_musa", "mccl", "MUSA_VISIBLE_DEVICES", True, True),
    "mlu": Vendor("mlu", "torch_mlu", "cncl", "MLU_VISIBLE_DEVICES", False, False),
}

site = str(DEVICE_DIR / "sites" / VENDOR)
if site not in sys.path:
    sys.path.insert(0, site)
os.environ["PYTHONPATH"] = os.pathsep.join([site, os.environ.get("PYTHONPATH", "")])

import torch  # noqa: E402, F401  (imported first, as a user does)
from checkpoints import write_cuda_checkpoint  # noqa: E402

# Saved before torchada is imported: a checkpoint as a CUDA machine writes it.
_scratch = tempfile.mkdtemp(prefix="torchada-suite-")
atexit.register(shutil.rmtree, _scratch, ignore_errors=True)
CUDA_CHECKPOINT = write_cuda_checkpoint(Path(_scratch) / "cuda_checkpoint.pt")

import torchada  # noqa: E402, F401


@pytest.fixture(scope="session")
def vendor() -> Vendor:
    return VENDORS[VENDOR]


@pytest.fixture(scope="session")
def cuda_checkpoint() -> Path:
    return CUDA_CHECKPOINT


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "musa_only: the check needs the mapping database's names")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("musa_only") and not VENDORS[VENDOR].mapping_database:
            item.add_marker(pytest.mark.skip(reason=f"the {VENDOR} profile has no name tables"))
