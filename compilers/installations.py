"""Finding the toolkits: the MUSA SDK (for mcc) and the real NVIDIA nvcc (for nvcc and loopback).

The MUSA SDK is looked for as torch_musa does (``musa_toolchain.md`` §2): ``MUSA_HOME``,
``MUSA_PATH``, the grandparent of ``mcc`` on ``PATH``, ``/usr/local/musa``, ``/opt/musa``. The real
nvcc is looked for as torch finds CUDA: ``CUDA_HOME``/``CUDA_PATH``, ``nvcc`` on ``PATH``,
``/usr/local/cuda`` — skipping torchada-nvcc itself, which may be installed as ``$CUDA_HOME/bin/nvcc``
(the toolkit mimic) or on ``PATH`` as ``nvcc``. Nothing here runs a program.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CudaInstallation",
    "MusaInstallation",
    "find_cuda",
    "find_musa",
    "is_torchada_program",
]

DEFAULT_MUSA_HOME = Path("/usr/local/musa")
_MARKER = b"torchada_build.compilers"
_MUSART_VERSION = re.compile(rb"#define\s+MUSART_VERSION\s+(\d+)")


@dataclass(frozen=True, slots=True)
class MusaInstallation:
    home: Path
    found_by: str
    """Where the home came from: ``MUSA_HOME``, ``PATH``, a default directory."""

    @property
    def mcc(self) -> Path:
        return self.home / "bin" / "mcc"

    @property
    def include_dir(self) -> Path:
        return self.home / "include"

    @property
    def lib_dir(self) -> Path:
        return self.home / "lib"

    @property
    def is_valid(self) -> bool:
        return os.access(self.mcc, os.X_OK)

    @property
    def version(self) -> str | None:
        """The SDK's runtime version from ``include/musart_version.h`` (``40300`` → ``4.3.0``)."""
        try:
            match = _MUSART_VERSION.search((self.include_dir / "musart_version.h").read_bytes())
        except OSError:
            return None
        if not match:
            return None
        number = int(match.group(1))
        return f"{number // 10000}.{number // 100 % 100}.{number % 100}"

    def describe(self) -> str:
        version = self.version
        state = f"MUSA {version}" if version else "version unknown"
        if not self.is_valid:
            state += ", no bin/mcc"
        return f"MUSA SDK {self.home} (from {self.found_by}; {state})"


@dataclass(frozen=True, slots=True)
class CudaInstallation:
    nvcc: Path
    home: Path

    @property
    def include_dir(self) -> Path:
        return self.home / "include"

    @property
    def lib_dir(self) -> Path:
        lib64 = self.home / "lib64"
        return lib64 if lib64.is_dir() else self.home / "lib"

    def describe(self) -> str:
        return f"CUDA toolkit {self.home} (nvcc {self.nvcc})"


def find_musa(environ: Mapping[str, str]) -> MusaInstallation:
    """The MUSA SDK to use; when none is installed, the first candidate (for ``--dryrun`` and errors)."""
    candidates: list[tuple[Path, str]] = []
    for variable in ("MUSA_HOME", "MUSA_PATH"):
        if environ.get(variable):
            candidates.append((Path(environ[variable]), variable))
    for directory in environ.get("PATH", "").split(os.pathsep):
        if directory and os.access(os.path.join(directory, "mcc"), os.X_OK):
            candidates.append((Path(directory).resolve().parent, "mcc on PATH"))
            break
    candidates += [(DEFAULT_MUSA_HOME, "the default /usr/local/musa"), (Path("/opt/musa"), "/opt/musa")]
    for home, found_by in candidates:
        installation = MusaInstallation(home, found_by)
        if installation.is_valid:
            return installation
    return MusaInstallation(*candidates[0])


def is_torchada_program(path: Path) -> bool:
    """Whether ``path`` is torchada-nvcc itself (its console script or the toolkit mimic's ``bin/nvcc``)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return _MARKER in head


def _cuda_home_of(nvcc: Path) -> Path | None:
    for bin_dir in (nvcc.parent, nvcc.resolve().parent):
        home = bin_dir.parent
        if (home / "include" / "cuda_runtime.h").is_file():
            return home
    return None


def find_cuda(environ: Mapping[str, str]) -> CudaInstallation | None:
    """The real NVIDIA toolkit, never torchada-nvcc itself; None when there is none."""
    candidates = [Path(environ[v]) / "bin" / "nvcc" for v in ("CUDA_HOME", "CUDA_PATH") if environ.get(v)]
    candidates += [Path(d) / "nvcc" for d in environ.get("PATH", "").split(os.pathsep) if d]
    candidates.append(Path("/usr/local/cuda/bin/nvcc"))
    fallback_home = Path("/usr/local/cuda")
    for nvcc in candidates:
        if not os.access(nvcc, os.X_OK) or nvcc.is_dir() or is_torchada_program(nvcc):
            continue
        home = _cuda_home_of(nvcc)
        if home is None and (fallback_home / "include" / "cuda_runtime.h").is_file():
            home = fallback_home
        if home is not None:
            return CudaInstallation(nvcc, home)
    return None
