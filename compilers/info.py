"""``torchada-nvcc --torchada-info``: which backend runs and why, for a human; ``=cmake`` for the toolchain file.

``--version`` must stay nvcc's for CMake and torch (:mod:`.identity`), so this is where a person looks:

    $ torchada-nvcc --torchada-info
    torchada-nvcc 0.1.0: backend nvcc (MUSA_HOME='/opt/m' has no bin/mcc, and NVIDIA's nvcc is at '/usr/bin/nvcc')
    ...

``--torchada-info=cmake`` prints CMake code that ``TorchadaToolchain.cmake`` evaluates: for loopback, the
pip wheels' libraries as FindCUDAToolkit's ``CUDA_<name>_LIBRARY`` (so ``CUDA::cublas`` links the wheel's
``libcublas.so.13`` and CMake puts its folder on the RUNPATH); nothing for the other backends.
"""

from __future__ import annotations

from collections.abc import Mapping

from .backends import Backend, BackendChoice
from .cache import get_cache_dir
from .installations import find_cuda, find_musa

__all__ = ["DOCS", "cmake_lines", "info_lines", "package_version"]

DOCS = "README.md and docs/driver.md (torchada's source tree)"

_RUNS = {
    Backend.MCC: "CUDA sources are translated to MUSA and compiled by mcc",
    Backend.NVCC: "the real nvcc runs with the command line untouched",
    Backend.LOOPBACK: "CUDA sources are translated to MUSA and compiled by NVIDIA's nvcc (verification)",
}


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torchada")
    except PackageNotFoundError:
        return "(not installed)"


def backend_line(choice: BackendChoice) -> str:
    """``backend nvcc (why): what runs`` — also the one line ``-v`` prints on the nvcc backend."""
    return f"backend {choice.backend.value} ({choice.reason}): {_RUNS[choice.backend]}"


def info_lines(choice: BackendChoice, environ: Mapping[str, str]) -> list[str]:
    musa = find_musa(environ)
    cuda = find_cuda(environ)
    return [
        f"torchada-nvcc {package_version()}: {backend_line(choice)}",
        f"  {musa.describe()}",
        f"  {cuda.describe() if cuda else 'NVIDIA nvcc: none found (CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda)'}",
        f"  translation cache: {get_cache_dir(environ)} (TORCHADA_CACHE_DIR)",
        "  force a backend with TORCHADA_BACKEND=mcc|nvcc|loopback or --torchada-backend=",
        f"  docs: {DOCS}",
    ]


def cmake_lines(choice: BackendChoice) -> list[str]:
    lines = [f"# torchada-nvcc --torchada-info=cmake: backend {choice.backend.value}"]
    if choice.backend is Backend.LOOPBACK:
        from .toolchains.loopback import wheel_libraries

        lines += [
            f'set(CUDA_{name}_LIBRARY "{path}" CACHE FILEPATH "lib{name} of its pip wheel (torchada loopback)")'
            for name, path in sorted(wheel_libraries().items())
        ]
    return lines
