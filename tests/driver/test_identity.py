"""What the driver says about itself, read the way CMake and torch read it (``docs/nvcc.md``, "What it prints")."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from driver_support import cli_env, run_cli
from torchada_build.compilers.toolkit import toolkit_root


def test_version_banner_matches_cmake_and_torch(driver) -> None:
    result = driver(["--version"])
    assert result.returncode == 0
    assert re.match(r"nvcc: NVIDIA \(R\) Cuda compiler driver\n", result.stdout)  # CMake 3.x, exactly
    assert re.search(r"V([0-9]+\.[0-9]+\.[0-9]+)", result.stdout).group(1) == "13.0.88"  # CMake's toolkit version
    assert re.search(r"release (\d+[.]\d+)", result.stdout).group(1) == "13.0"  # torch's check
    assert "mcc backend" in result.stdout


def test_loopback_reports_the_version_of_the_nvcc_it_compiles_with(driver, driver_env, tmp_path: Path) -> None:
    """torch 2.7.1 (CUDA 12.6) refuses an nvcc whose major version is not 12: through loopback, a CUDA 12
    nvcc must still say 12. The toolkit here is an nvcc that prints a CUDA 12.4 banner and nothing else."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda_runtime.h").write_text("")
    nvcc = tmp_path / "bin" / "nvcc"
    nvcc.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n")
    nvcc.chmod(0o755)
    driver_env("loopback", CUDA_HOME=str(tmp_path))
    result = driver(["--version"])
    assert re.search(r"release (\d+[.]\d+), V(\S+)", result.stdout).groups() == ("12.4", "12.4.131")
    assert "loopback backend" in result.stdout


def test_version_ignores_the_environment_flags(driver, driver_env) -> None:
    driver_env("mcc", NVCC_APPEND_FLAGS="-bogus")
    assert driver(["--version"]).returncode == 0


def test_cmake_determine_cuda(driver, cache_dir: Path) -> None:
    result = driver(["-v", "__cmake_determine_cuda"])
    assert result.returncode == 1  # as nvcc; CMake ignores the status
    top = re.search(r"^#\$ TOP=(.*)$", result.stderr, re.M).group(1)
    assert Path(top).parent == cache_dir / "toolkit" and (Path(top) / "bin" / "nvcc").is_file()
    assert f"#$ NVVMIR_LIBRARY_DIR={top}/nvvm/libdevice\n" in result.stderr
    assert result.stderr.endswith("torchada-nvcc fatal   : Don't know what to do with '__cmake_determine_cuda'\n")


def test_libraries_appear_word_for_word_on_the_link_line(
    driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = driver(["--dryrun", "k.o", "-o", "a.out"])
    libraries = re.search(r"^#\$ LIBRARIES= *(.*)$", result.stderr, re.M).group(1)
    link = [line for line in result.lines if "-o a.out" in line]
    assert len(link) == 1 and libraries in link[0]
    assert link[0].split()[0].startswith("/")  # CMake takes the first word as its link launcher


def test_one_arch_line_per_requested_architecture(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    argv = [
        "--dryrun",
        "-c",
        "k.cu",
        "-gencode=arch=compute_75,code=sm_75",
        "--generate-code=arch=compute_90,code=[sm_90]",
    ]
    arches = re.findall(r"-arch compute_([0-9]+)", driver(argv).stderr)  # CMake's own expression
    assert arches == ["75", "90"]


@pytest.mark.nvcc
def test_torch_accepts_the_toolkit_mimic(cache_dir: Path, monkeypatch: pytest.MonkeyPatch, nvcc: str) -> None:  # noqa: ARG001
    import torch
    import torch.utils.cpp_extension as cpp_extension

    home = toolkit_root("loopback", cli_env(cache_dir, "loopback"))
    monkeypatch.setattr(cpp_extension, "CUDA_HOME", str(home))
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    cpp_extension._check_cuda_version("c++", cpp_extension.TorchVersion("12.2.0"))  # no error: release 13.0
    monkeypatch.setattr(torch.version, "cuda", "12.8")
    with pytest.raises(RuntimeError):  # a different major version is refused: torch really read the banner
        cpp_extension._check_cuda_version("c++", cpp_extension.TorchVersion("12.2.0"))


def test_the_mimic_nvcc_keeps_its_backend(cache_dir: Path) -> None:
    env = cli_env(cache_dir, "mcc")
    home = toolkit_root("mcc", env)
    env["TORCHADA_BACKEND"] = "nvcc"  # the mimic's script fixes the backend whatever the environment says
    done = subprocess.run(
        [str(home / "bin" / "nvcc"), "--version"], env=env, capture_output=True, text=True, check=True
    )
    assert "mcc backend" in done.stdout


def test_passthrough_is_the_real_nvcc(cache_dir: Path, tmp_path: Path, nvcc: str) -> None:
    env = cli_env(cache_dir, "nvcc")
    real = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=True).stdout
    banner = run_cli(["--version"], env=env).stdout
    assert banner.startswith(real), "nvcc's own banner, unchanged, then one line naming torchada"
    assert banner[len(real):].startswith("Actually torchada-nvcc: the nvcc backend (TORCHADA_BACKEND=nvcc)")
    assert banner.count("\n") == real.count("\n") + 1
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    result = run_cli(["--torchada-backend=nvcc", "--dryrun", "-c", "k.cu"], env=env, cwd=tmp_path)
    ours = [line for line in result.stderr.splitlines() if "torchada" in line]
    assert result.returncode == 0 and "cicc" in result.stderr
    assert len(ours) == 1 and ours[0].startswith("#$ _TORCHADA_BACKEND_=nvcc backend"), ours  # CMake skips #$ NAME=


@pytest.mark.parametrize("query", [["-Xcompiler", "--version"], ["-Xcompiler", "-dumpfullversion -dumpversion"]])
def test_the_host_compiler_query_is_answered_by_the_host_compiler(query: list[str], cache_dir: Path, tmp_path: Path) -> None:
    """llama.cpp's Makefile and CMakeLists ask ``nvcc .c -Xcompiler --version`` for the CUDA host
    compiler (nvcc hands the words to it, whatever the input); torchada-nvcc answers the same."""
    host = subprocess.run(["c++", *query[1].split()], capture_output=True, text=True, check=True).stdout
    result = run_cli([".c", *query], env=cli_env(cache_dir, "loopback"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == host
