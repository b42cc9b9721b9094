"""The MUSA architectures torchada-nvcc builds for when nothing names one: torch_musa's ``MUSAExtension``
default (v2.7.1 ``musa_extension.py:807-827``), every visible device's, each clamped to the newest of
``torch.musa.get_arch_list()``; read here from the test device, which impersonates torch_musa."""

from __future__ import annotations

from pathlib import Path

import pytest
from driver_support import REPO, cli_env, run_cli

MUSA_SITE = REPO / "tests" / "musa_device" / "sites" / "musa"


@pytest.mark.parametrize(
    ("capabilities", "expected"),
    [
        ("2.2,2.2", ["mp_22"]),
        ("3.2,2.1,2.2", ["mp_21", "mp_22", "mp_31"]),  # 3.2 is above the device's get_arch_list() (21, 22, 31)
        ("", ["mp_22"]),  # no device: sm_80's tier, the documented default
    ],
)
def test_every_visible_device_clamped(tmp_path: Path, capabilities: str, expected: list[str]) -> None:
    count = str(len(capabilities.split(","))) if capabilities else "0"
    env = cli_env(tmp_path / "cache", "mcc", PYTHONPATH=str(MUSA_SITE), TORCHADA_TEST_DEVICE_COUNT=count,
                  TORCHADA_TEST_DEVICE_CAPABILITIES=capabilities)  # fmt: skip
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    result = run_cli(["--dryrun", "-c", "k.cu"], env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (compile_line,) = [line for line in result.lines if line.split()[0].endswith("/bin/mcc")]
    assert [w for w in compile_line.split() if w.startswith("--offload-arch=")] == [f"--offload-arch={a}" for a in expected]


def test_a_named_architecture_does_not_ask_the_devices(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "cache", "mcc", PYTHONPATH=str(MUSA_SITE), TORCH_MUSA_ARCH_LIST="31",
                  TORCHADA_TEST_DEVICE_CAPABILITIES="2.1,2.1")  # fmt: skip
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    result = run_cli(["--dryrun", "-c", "k.cu"], env=env, cwd=tmp_path)
    assert "--offload-arch=mp_31" in result.stderr and "mp_21" not in result.stderr
