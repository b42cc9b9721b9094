"""The toolkit mimic: a fake CUDA root whose shims resolve to MUSA libraries, found and used by build
systems, and never mistaken for the real nvcc."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from driver_support import cli_env
from torchada_build.compilers.installations import find_cuda
from torchada_build.compilers.toolkit import toolkit_root


def test_mcc_mimic_layout(cache_dir: Path) -> None:
    home = toolkit_root("mcc", cli_env(cache_dir, "mcc"))
    assert home == toolkit_root("mcc", cli_env(cache_dir, "mcc"))  # written once, reused
    assert os.access(home / "bin" / "nvcc", os.X_OK)
    assert (home / "nvvm" / "libdevice").is_dir()
    assert (home / "lib64" / "libcudart.so").read_text() == "INPUT(-lmusart)\n"
    assert (home / "lib64" / "libcudart_static.a").read_text() == "INPUT(-lmusart)\n"
    assert (home / "lib64" / "libcudadevrt.a").read_text() == "!<arch>\n"
    assert json.loads((home / "version.json").read_text())["cuda"]["version"] == "13.0.88"
    assert "#include <musa_runtime.h>" in (home / "include" / "cuda_runtime.h").read_text()


def test_shims_link_against_the_musa_runtime(tmp_path: Path, cache_dir: Path) -> None:
    """What CMake and torch link (``-lcudart_static -lcudadevrt``, ``-lcudart``) resolves to libmusart."""
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler")
    home = toolkit_root("mcc", cli_env(cache_dir, "mcc"))
    musa_lib = tmp_path / "musa" / "lib"
    musa_lib.mkdir(parents=True)
    (tmp_path / "musart.c").write_text("int musart_marker(void) { return 42; }\n")
    subprocess.run(
        [compiler, "-shared", "-fPIC", str(tmp_path / "musart.c"), "-o", str(musa_lib / "libmusart.so")], check=True
    )
    (tmp_path / "main.c").write_text("int musart_marker(void);\nint main(void) { return musart_marker() != 42; }\n")
    for libraries in (["-lcudadevrt", "-lcudart_static", "-lrt", "-lpthread", "-ldl"], ["-lcudart"]):
        program = tmp_path / "program"
        command = [
            compiler,
            str(tmp_path / "main.c"),
            f"-L{home / 'lib64'}",
            f"-L{musa_lib}",
            *libraries,
            "-o",
            str(program),
        ]
        subprocess.run(command, check=True)
        ldd = subprocess.run(["ldd", str(program)], env={"LD_LIBRARY_PATH": str(musa_lib)}, capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
        assert f"libmusart.so => {musa_lib}/libmusart.so" in ldd


@pytest.mark.nvcc
def test_loopback_mimic_points_at_the_real_toolkit(cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    env = cli_env(cache_dir, "loopback")
    home = toolkit_root("loopback", env)
    real = find_cuda(env)
    assert real is not None
    include = home / "include"
    assert (include / "cuda_runtime.h").resolve() == (real.include_dir / "cuda_runtime.h").resolve()
    cublas_v2 = (include / "cublas_v2.h").resolve()  # FindCUDAToolkit looks for it beside cuda_runtime.h
    assert cublas_v2.is_file() and "nvidia" in cublas_v2.parts, "the cuBLAS wheel's header"
    assert f"INPUT({real.lib_dir}/libcudart_static.a)" in (home / "lib64" / "libcudart_static.a").read_text()
    assert "libcublas.so.13)" in (home / "lib64" / "libcublas.so").read_text()  # the wheel has no libcublas.so


@pytest.mark.nvcc
def test_the_mimic_is_never_taken_for_the_real_nvcc(cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    env = cli_env(cache_dir, "loopback")
    home = toolkit_root("loopback", env)
    env.update(CUDA_HOME=str(home), PATH=f"{home / 'bin'}{os.pathsep}{env['PATH']}")
    found = find_cuda(env)
    assert found is not None and home not in found.nvcc.parents
    assert toolkit_root("nvcc", env) == found.home


def test_the_mimic_nvcc_runs_the_driver(cache_dir: Path, tmp_path: Path) -> None:
    env = cli_env(cache_dir, "mcc")
    home = toolkit_root("mcc", env)
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    done = subprocess.run([str(home / "bin" / "nvcc"), "--dryrun", "-c", "k.cu"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"#$ TOP={home}\n" in done.stderr and "--offload-arch=" in done.stderr
