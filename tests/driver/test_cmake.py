"""CMake's CUDA language with ``CMAKE_CUDA_COMPILER`` set to torchada-nvcc (loopback backend),
configured and built with the Ninja and the Makefiles generators: CMake must identify the driver as
NVIDIA's nvcc, take the toolkit mimic as the CUDA root, detect a default architecture from ``-v``,
link with the host compiler from the driver's link line, and build a shared library, a mixed
CUDA/C++ executable and a separable-compilation (device-linked) static library and executable.

One generator runs the console script, the other the toolkit mimic's ``bin/nvcc`` (as
``torchada_build`` points CMake at it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from driver_support import REPO, TORCHADA_NVCC, cli_env
from torchada_build.compilers.toolkit import toolkit_root

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]
PROJECT = REPO / "tests" / "inputs" / "cmake_project"
GENERATORS = {"Ninja": "console script", "Unix Makefiles": "toolkit mimic"}


def _cmake(argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(["cmake", *argv], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"cmake {' '.join(argv)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module", params=sorted(GENERATORS))
def build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, cache_dir: Path, nvcc: str):  # noqa: ARG001
    generator = request.param
    if shutil.which("cmake") is None or (generator == "Ninja" and shutil.which("ninja") is None):
        pytest.skip(f"cmake or the {generator} generator's tool is not installed")
    env = cli_env(cache_dir, "loopback")
    mimic = toolkit_root("loopback", env)
    compiler = TORCHADA_NVCC if GENERATORS[generator] == "console script" else mimic / "bin" / "nvcc"
    build_dir = tmp_path_factory.mktemp(generator.replace(" ", "_"))
    configure = _cmake(
        ["-S", str(PROJECT), "-B", str(build_dir), "-G", generator, f"-DCMAKE_CUDA_COMPILER={compiler}"], env
    )
    built = _cmake(["--build", str(build_dir), "--verbose"], env)
    return build_dir, mimic, configure, built


def test_cmake_identifies_nvcc(build) -> None:
    _, _, configure, _ = build
    assert "The CUDA compiler identification is NVIDIA 13.0.88" in configure
    assert "Detecting CUDA compiler ABI info - done" in configure


def test_cmake_reads_the_driver_identity(build) -> None:
    build_dir, mimic, _, _ = build
    info = next(build_dir.glob("CMakeFiles/*/CMakeCUDACompiler.cmake")).read_text()

    def value(name: str) -> str:
        match = re.search(rf'set\({name} "([^"]*)"\)', info)
        assert match, name
        return match.group(1)

    assert value("CMAKE_CUDA_COMPILER_TOOLKIT_ROOT") == str(mimic)
    assert value("CMAKE_CUDA_COMPILER_LIBRARY_ROOT") == str(mimic)
    assert value("CMAKE_CUDA_HOST_LINK_LAUNCHER") == shutil.which("c++")
    assert str(mimic / "lib64") in value("CMAKE_CUDA_HOST_IMPLICIT_LINK_DIRECTORIES")
    assert value("CMAKE_CUDA_SIZEOF_DATA_PTR") == "8"  # the ABI build linked (it needs the cudart_static shim)
    cache = (build_dir / "CMakeCache.txt").read_text()
    assert "CMAKE_CUDA_ARCHITECTURES:STRING=75" in cache  # the default from `-v`'s -arch compute_75


def test_cmake_builds_every_target(build) -> None:
    build_dir, _, _, built = build
    for target in ("libscale.so", "app", "libparticles.a", "rdc_app"):
        assert (build_dir / target).is_file(), target
    assert str(TORCHADA_NVCC) in built or "/bin/nvcc" in built
    symbols = subprocess.run(["nm", str(build_dir / "rdc_app")], capture_output=True, text=True, check=True).stdout
    assert "__cudaRegisterLinkedBinary" in symbols  # the device link ran (cmake_device_link.o)


def test_cmake_dependency_files_name_original_headers(build) -> None:
    build_dir, _, _, _ = build
    if (build_dir / "build.ninja").is_file():  # ninja reads the .d files into its log, then deletes them
        command = ["ninja", "-C", str(build_dir), "-t", "deps"]
        text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    else:
        text = "\n".join(p.read_text() for p in build_dir.glob("CMakeFiles/scale.dir/*.d"))
    assert str(PROJECT / "scale.cuh") in text
    assert "/units/" not in text
