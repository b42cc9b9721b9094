"""Shared fixtures. Tests that need a real tool skip with the reason when it is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

CUDA_TORCH = "torch==2.14.1"
"""The CUDA 13 build of torch, whose headers (unlike the CPU wheel's) are complete for CUDA code."""


@pytest.fixture(scope="session")
def nvcc() -> str:
    path = shutil.which("nvcc")
    if path is None:
        pytest.skip("nvcc is not on PATH")
    return path


@pytest.fixture(scope="session")
def ccache() -> str:
    """ccache, which the README's commands do not install (a system package; ``.ci/run`` installs it)."""
    path = shutil.which("ccache")
    if path is None:
        pytest.skip("ccache is not on PATH (apt-get install ccache)")
    return path


@pytest.fixture(scope="session")
def cuda_torch_include() -> Path:
    """``torch/include`` of the CUDA build of torch, unpacked once from its wheel (not installed).

    The installed CPU wheel lacks ``c10/cuda/impl/cuda_cmake_macros.h``, so its ``ATen/cuda`` headers
    cannot be compiled; the headers of the CUDA build can, by the real nvcc."""
    cache = Path(os.environ.get("TORCHADA_TEST_CACHE", Path.home() / ".cache" / "torchada-tests"))
    target = cache / CUDA_TORCH.replace("==", "-")
    include = target / "torch" / "include"
    if include.is_dir():
        return include
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as scratch:
        download = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "-d", scratch, CUDA_TORCH],
            capture_output=True, text=True, check=False,
        )
        wheels = list(Path(scratch).glob("torch-*.whl"))
        if download.returncode != 0 or not wheels:
            pytest.skip(f"cannot download {CUDA_TORCH} for its headers: {download.stderr.strip()[-500:]}")
        staging = Path(scratch) / "unpacked"
        with zipfile.ZipFile(wheels[0]) as wheel:
            wheel.extractall(staging, [m for m in wheel.namelist() if m.startswith("torch/include/")])
        try:
            os.replace(staging, target)
        except OSError:
            if not include.is_dir():  # else another test process unpacked it first
                raise
    return include
