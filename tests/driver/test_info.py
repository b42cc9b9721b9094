"""A human can see which backend runs and why: ``--torchada-info``, one ``-v`` line, a line after ``--version``.

The nvcc passthrough is checked against a stand-in CUDA toolkit whose ``nvcc`` echoes its arguments, so
the tests see exactly what reaches it and what torchada adds around it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from driver_support import CLEARED, run_cli
from torchada_build.compilers.toolchains.loopback import wheel_libraries


@pytest.fixture
def passthrough_env(tmp_path: Path) -> dict[str, str]:
    """No backend forced, a MUSA_HOME without bin/mcc, and a stand-in NVIDIA toolkit as CUDA_HOME."""
    cuda = tmp_path / "cuda"
    (cuda / "bin").mkdir(parents=True)
    (cuda / "include").mkdir()
    (cuda / "include" / "cuda_runtime.h").write_text("")
    (cuda / "bin" / "nvcc").write_text('#!/bin/sh\necho "nvcc got: $*"\n')
    (cuda / "bin" / "nvcc").chmod(0o755)
    (tmp_path / "musa").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in (*CLEARED, "TORCHADA_BACKEND", "CUDA_PATH")}
    return {**env, "MUSA_HOME": str(tmp_path / "musa"), "CUDA_HOME": str(cuda), "TORCHADA_CACHE_DIR": str(tmp_path / "c")}


def test_info_says_musa_home_has_no_mcc_and_nvcc_runs(passthrough_env: dict[str, str]) -> None:
    result = run_cli(["--torchada-info"], env=passthrough_env)
    assert result.returncode == 0, result.stderr
    first, *rest = result.stdout.splitlines()
    nvcc = Path(passthrough_env["CUDA_HOME"]) / "bin" / "nvcc"
    assert first.startswith("torchada-nvcc ") and (
        f"backend nvcc (MUSA_HOME='{passthrough_env['MUSA_HOME']}' has no bin/mcc, and NVIDIA's nvcc is at '{nvcc}')"
        in first
    ), first
    assert any("no bin/mcc" in line and passthrough_env["MUSA_HOME"] in line for line in rest)
    assert any(line.strip() == f"translation cache: {passthrough_env['TORCHADA_CACHE_DIR']} (TORCHADA_CACHE_DIR)"
               for line in rest), rest


def test_info_names_a_forced_backend(driver, driver_env) -> None:
    driver_env("loopback")
    result = driver(["--torchada-info"])
    assert result.returncode == 0
    assert "backend loopback (TORCHADA_BACKEND=loopback): " in result.stdout.splitlines()[0]
    assert "backend mcc (--torchada-backend=mcc): " in driver(["--torchada-info", "--torchada-backend=mcc"]).stdout


def test_bad_info_value_is_one_line(driver) -> None:
    result = driver(["--torchada-info=json"])
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == "torchada-nvcc fatal   : --torchada-info takes no value or 'cmake', not 'json'\n"


def test_verbose_says_why_a_translating_backend_runs(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    (line,) = [line for line in driver(["--dryrun", "-c", "k.cu"]).lines if line.startswith("_TORCHADA_BACKEND_=")]
    assert line.startswith("_TORCHADA_BACKEND_=mcc backend, ") and line.endswith("; chosen because TORCHADA_BACKEND=mcc")


def test_passthrough_verbose_prints_one_line_first(passthrough_env: dict[str, str]) -> None:
    result = run_cli(["-v", "-c", "k.cu"], env=passthrough_env)
    assert result.stdout == "nvcc got: -v -c k.cu\n", "the command line reaches nvcc untouched"
    (line,) = result.stderr.splitlines()
    assert line.startswith("#$ _TORCHADA_BACKEND_=nvcc backend, the real nvcc ") and "has no bin/mcc" in line


def test_passthrough_version_is_nvccs_then_one_torchada_line(passthrough_env: dict[str, str]) -> None:
    result = run_cli(["--version"], env=passthrough_env)
    nvcc_said, torchada_said = result.stdout.splitlines()
    assert nvcc_said == "nvcc got: --version", "nvcc's own banner comes first, unchanged (CMake and torch read it)"
    assert torchada_said.startswith("Actually torchada-nvcc: the nvcc backend (MUSA_HOME=")
    assert result.returncode == 0 and run_cli(["-c", "k.cu"], env=passthrough_env).stdout == "nvcc got: -c k.cu\n"


def test_cmake_info_gives_loopback_the_wheel_libraries(driver, driver_env) -> None:
    assert driver(["--torchada-info=cmake"]).stdout == "# torchada-nvcc --torchada-info=cmake: backend mcc\n"
    driver_env("loopback")
    printed = driver(["--torchada-info=cmake"]).stdout
    libraries = wheel_libraries()
    if not libraries:
        pytest.skip("no NVIDIA pip wheel libraries are installed (the test extra installs nvidia-cublas)")
    assert f'set(CUDA_cublas_LIBRARY "{libraries["cublas"]}" CACHE FILEPATH ' in printed
