"""Paths a build system asks for: the CMake folder and the toolchain file (as ``pybind11.get_cmake_dir``).

    >>> (get_cmake_dir() / "TorchadaConfig.cmake").is_file()
    True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["get_cmake_dir", "get_toolchain_file"]


def get_cmake_dir() -> Path:
    """The folder holding ``TorchadaConfig.cmake``: pass it as ``-DTorchada_DIR=`` or on ``CMAKE_PREFIX_PATH``."""
    return Path(__file__).resolve().parent / "cmake"


def get_toolchain_file() -> Path:
    """The file to pass as ``-DCMAKE_TOOLCHAIN_FILE=``: it makes torchada-nvcc the CUDA compiler."""
    return get_cmake_dir() / "TorchadaToolchain.cmake"
