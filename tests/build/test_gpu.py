"""On a machine with an NVIDIA GPU: loopback-built samples run and print what the untranslated builds print."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_sample, run
from test_cmake_make import cmake_build, with_wheel_libs

from torchada_build.commands import get_toolchain_file


def gpu_visible() -> bool:
    if shutil.which("nvidia-smi") is None:
        return False
    listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False)
    return listing.returncode == 0 and "GPU " in listing.stdout


pytestmark = [pytest.mark.gpu, pytest.mark.slow,
              pytest.mark.skipif(not gpu_visible(), reason="no NVIDIA GPU is visible (nvidia-smi -L)")]


def test_makefile_sample_matches_nvcc(tmp_path: Path, build_env, loopback_env) -> None:
    outputs = {}
    for label, nvcc, env in (("nvcc", "nvcc", build_env), ("loopback", "torchada-nvcc", loopback_env)):
        directory = copy_sample("makefile", tmp_path / label)
        run(["make", f"NVCC={nvcc}"], directory, env).check()
        outputs[label] = run([directory / "saxpy"], directory, env).check().output
    assert outputs["loopback"] == outputs["nvcc"] == "saxpy: 0 errors\n"


def test_cmake_sample_matches_nvcc(tmp_path: Path, build_env, loopback_env) -> None:
    outputs = {}
    for label, args, env in (("nvcc", [], build_env),
                             ("loopback", [f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}"], loopback_env)):
        source = copy_sample("cmake_cublas", tmp_path / label)
        cmake_build(source, source / "build", env, "-G", "Ninja", *args).check()
        outputs[label] = run([source / "build" / "gemm"], source, with_wheel_libs(env)).check().output
    assert outputs["loopback"] == outputs["nvcc"] == "gemm: 0 errors\n"


def test_vector_add_extension_computes_on_the_gpu(tmp_path: Path, loopback_env) -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch cannot use the GPU (a CPU build)")
    directory = copy_sample("vector_add", tmp_path)
    run([sys.executable, "-m", "torchada_build", "setup.py", "build_ext", "--inplace"], directory, loopback_env).check()
    code = ("import torch, vector_add\n"
            "a = torch.arange(1000, dtype=torch.float32, device='cuda')\n"
            "print(bool(torch.equal(vector_add.add(a, a), a + a)))\n")
    assert run([sys.executable, "-c", code], directory, loopback_env).check().output.strip() == "True"
