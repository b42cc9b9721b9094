"""``torch.utils.cpp_extension.CUDA_HOME`` on MUSA: the toolkit mimic, whose ``bin/nvcc`` answers
setup.py files' ``nvcc -V`` checks and whose ``include``/``lib64`` hold the MUSA SDK's headers and
libraries under the names CUDA code expects."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import torch.utils.cpp_extension as cpp_extension
from musa_standin import MusaStandIn

from torchada_build import cpp_extension as hook


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch, musa_standin: MusaStandIn, tmp_path: Path) -> Path:
    monkeypatch.syspath_prepend(str(musa_standin.site))
    monkeypatch.setenv("MUSA_HOME", str(musa_standin.home))
    monkeypatch.setenv("TORCHADA_BACKEND", "mcc")
    monkeypatch.setenv("TORCHADA_CACHE_DIR", str(tmp_path / "cache"))
    assert hook.install() is hook.InstallStatus.INSTALLED
    yield Path(cpp_extension.CUDA_HOME)
    hook.uninstall()


def test_cuda_home_is_the_toolkit_mimic(installed: Path, musa_standin: MusaStandIn) -> None:
    assert not installed.is_relative_to(musa_standin.home)  # not the MUSA SDK itself
    version = subprocess.run([str(installed / "bin" / "nvcc"), "-V"], capture_output=True,
                             text=True, check=True).stdout
    assert "Cuda compilation tools, release" in version
    # CUDA names, MUSA contents: the runtime header includes MUSA's, the library links MUSA's.
    assert "musa_runtime.h" in (installed / "include" / "cuda_runtime.h").read_text()
    assert "-lmusart" in (installed / "lib64" / "libcudart.so").read_text()
    assert "-lmublas" in (installed / "lib64" / "libcublas.so").read_text()
