"""What the driver says about itself, so that CMake and torch take it for nvcc (``nvcc_driver.md`` §2–4).

Every line here exists for a reader that parses it:

* ``--version``: nvcc's five lines. CMake ≤ 3.x requires ``nvcc: NVIDIA (R) Cuda compiler driver``
  exactly and reads the toolkit version from ``V13.0.88``; torch's extension builder reads
  ``release 13.0`` (a major version other than ``torch.version.cuda``'s is an error; CPU and MUSA
  builds of torch have none). 13.0 is claimed because it is ≥ 12.0, below which CMake drops ``-MD``
  depfiles, response files or C++20. A sixth line says what is really answering.
* ``-v``/``--dryrun``, before the jobs (CMake's ``-v __cmake_determine_cuda`` and its compiler-id
  build read them; CMake deletes every ``#$ NAME=`` line before it looks for the link line):
  ``TOP`` (the toolkit root: the toolkit mimic), ``NVVMIR_LIBRARY_DIR`` (must end in
  ``nvvm/libdevice``, or CMake stops with "Couldn't find CUDA library root"), ``PATH``, ``INCLUDES``
  (the toolkit's include directories, which CMake keeps out of its implicit ones) and ``LIBRARIES``
  (the ``-L`` words that CMake then finds, word for word, on the host link line; that line's first
  word becomes CMake's link launcher and its ``-l`` words are added to every CUDA link).
* ``-arch compute_NN`` once per requested architecture (or the backend's default): CMake takes every
  match as ``CMAKE_CUDA_ARCHITECTURES``'s default and fails with "Failed to detect a default CUDA
  architecture" without one. nvcc prints it on its cicc lines; the driver prints it on a
  ``#$ _GPU_ARCH_=`` line, with the MUSA architecture it becomes.
* :data:`VERSION_MACROS` on mcc compiles: CMake's compiler-id source reads the compiler version from
  ``__CUDACC_VER_*`` (the translator turns its ``__NVCC__``/``__CUDACC__`` tests into ``__MUSACC__``,
  which mcc defines); without them CMake would see no version and fall back to nvcc < 10 behaviour.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

__all__ = ["CUDA_VERSION", "VERSION_MACROS", "arch_line", "library_flags", "variable_lines", "version_banner"]

CUDA_VERSION = (13, 0, 88)
VERSION_MACROS = tuple(
    f"-D__CUDACC_VER_{name}__={value}" for name, value in zip(("MAJOR", "MINOR", "BUILD"), CUDA_VERSION, strict=True)
)


def version_banner(backend: str) -> str:
    major, minor, build = CUDA_VERSION
    return (
        "nvcc: NVIDIA (R) Cuda compiler driver\n"
        "Copyright (c) 2005-2025 NVIDIA Corporation\n"
        "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
        f"Cuda compilation tools, release {major}.{minor}, V{major}.{minor}.{build}\n"
        f"Build cuda_{major}.{minor}.r{major}.{minor}/compiler.36424714_0\n"
        f"Actually torchada-nvcc: CUDA sources are translated and compiled by the {backend} backend\n"
    )


def library_flags(library_dirs: list[Path]) -> list[str]:
    """The ``LIBRARIES`` words; the host link line carries exactly these, in this order."""
    return [f"-L{d}" for d in library_dirs]


def variable_lines(
    *, describe: str, top: Path, include_dirs: list[Path], library_dirs: list[Path], path: str
) -> list[str]:
    return [
        f"#$ _TORCHADA_BACKEND_={describe}",
        f"#$ TOP={top}",
        f"#$ NVVMIR_LIBRARY_DIR={top / 'nvvm' / 'libdevice'}",
        f"#$ PATH={top / 'bin'}{os.pathsep}{path}",
        f"#$ INCLUDES={shlex.join(f'-I{d}' for d in include_dirs)}",
        f"#$ LIBRARIES=  {shlex.join(library_flags(library_dirs))}",
    ]


def arch_line(cuda_arch: int, becomes: str) -> str:
    return f"#$ _GPU_ARCH_=-arch compute_{cuda_arch}{' ' + becomes if becomes else ''}"
