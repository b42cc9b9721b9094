"""Finding the toolkits: the MUSA SDK (for mcc) and the real NVIDIA nvcc (for nvcc and loopback).

The MUSA SDK is looked for as torch_musa does (``docs/reference/musa_toolchain.md`` §2): ``MUSA_HOME``,
``MUSA_PATH``, the grandparent of ``mcc`` on ``PATH``, ``/usr/local/musa``, ``/opt/musa``. The real
nvcc is looked for as torch finds CUDA: ``CUDA_HOME``/``CUDA_PATH``, ``nvcc`` on ``PATH``,
``/usr/local/cuda`` — skipping torchada-nvcc itself, which may be installed as ``$CUDA_HOME/bin/nvcc``
(the toolkit mimic) or on ``PATH`` as ``nvcc``. Nothing here runs a program.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # nvcc passthrough imports this module: paths are strings until asked for as Path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = [
    "CudaInstallation",
    "MusaInstallation",
    "discovery_paths",
    "find_cuda",
    "find_musa",
    "is_torchada_program",
]

DEFAULT_MUSA_HOME = "/usr/local/musa"
OTHER_MUSA_HOME = "/opt/musa"
_FALLBACK_CUDA_HOME = "/usr/local/cuda"
_MARKER = b"torchada_build.compilers"


def _path(value: str) -> Path:
    from pathlib import Path

    return Path(value)


class _Record:
    """Equality, hash and repr from the slots (what a frozen dataclass gives, without importing one)."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._values()!r}"


class MusaInstallation(_Record):
    __slots__ = ("_home", "found_by")

    def __init__(self, home: str | os.PathLike[str], found_by: str) -> None:
        self._home = os.fspath(home)
        self.found_by = found_by
        """Where the home came from: ``MUSA_HOME``, ``PATH``, a default directory."""

    @property
    def home(self) -> Path:
        return _path(self._home)

    @property
    def home_path(self) -> str:
        return self._home

    @property
    def mcc(self) -> Path:
        return _path(os.path.join(self._home, "bin", "mcc"))

    @property
    def include_dir(self) -> Path:
        return _path(os.path.join(self._home, "include"))

    @property
    def lib_dir(self) -> Path:
        """``lib64`` when the SDK has one, else ``lib``: torch_musa's choice (``musa_extension.py:899-906``)."""
        lib64 = os.path.join(self._home, "lib64")
        return _path(lib64 if os.path.isdir(lib64) else os.path.join(self._home, "lib"))

    @property
    def is_valid(self) -> bool:
        return os.access(os.path.join(self._home, "bin", "mcc"), os.X_OK)

    @property
    def version(self) -> str | None:
        """The SDK's runtime version from ``include/musart_version.h`` (``40300`` → ``4.3.0``)."""
        import re

        try:
            with open(os.path.join(self._home, "include", "musart_version.h"), "rb") as f:
                match = re.search(rb"#define\s+MUSART_VERSION\s+(\d+)", f.read())
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
        return f"MUSA SDK {self._home} (from {self.found_by}; {state})"


class CudaInstallation(_Record):
    __slots__ = ("_nvcc", "_home")

    def __init__(self, nvcc: str | os.PathLike[str], home: str | os.PathLike[str]) -> None:
        self._nvcc = os.fspath(nvcc)
        self._home = os.fspath(home)

    @property
    def nvcc(self) -> Path:
        return _path(self._nvcc)

    @property
    def nvcc_path(self) -> str:
        return self._nvcc

    @property
    def home(self) -> Path:
        return _path(self._home)

    @property
    def include_dir(self) -> Path:
        return _path(os.path.join(self._home, "include"))

    @property
    def lib_dir(self) -> Path:
        lib64 = os.path.join(self._home, "lib64")
        return _path(lib64 if os.path.isdir(lib64) else os.path.join(self._home, "lib"))

    def describe(self) -> str:
        return f"CUDA toolkit {self._home} (nvcc {self._nvcc})"


def _musa_candidates(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """Where a MUSA SDK may be, in order (``mcc`` on ``PATH``: the first directory that has one)."""
    candidates: list[tuple[str, str]] = []
    for variable in ("MUSA_HOME", "MUSA_PATH"):
        if environ.get(variable):
            candidates.append((environ[variable], variable))
    for directory in environ.get("PATH", "").split(os.pathsep):
        if directory and os.access(os.path.join(directory, "mcc"), os.X_OK):
            candidates.append((os.path.dirname(os.path.realpath(directory)), "mcc on PATH"))
            break
    return [*candidates, (DEFAULT_MUSA_HOME, "the default /usr/local/musa"), (OTHER_MUSA_HOME, OTHER_MUSA_HOME)]


def find_musa(environ: Mapping[str, str]) -> MusaInstallation:
    """The MUSA SDK to use; when none is installed, the first candidate (for ``--dryrun`` and errors)."""
    candidates = _musa_candidates(environ)
    for home, found_by in candidates:
        installation = MusaInstallation(home, found_by)
        if installation.is_valid:
            return installation
    return MusaInstallation(*candidates[0])


def is_torchada_program(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is torchada-nvcc itself (its console script or the toolkit mimic's ``bin/nvcc``)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return _MARKER in head


def _has_runtime_header(home: str) -> bool:
    return os.path.isfile(os.path.join(home, "include", "cuda_runtime.h"))


def _cuda_home_of(nvcc: str) -> str | None:
    for bin_dir in (os.path.dirname(nvcc), os.path.dirname(os.path.realpath(nvcc))):
        home = os.path.dirname(bin_dir)
        if _has_runtime_header(home):
            return home
    return None


def _nvcc_candidates(environ: Mapping[str, str]) -> list[str]:
    candidates = [os.path.join(environ[v], "bin", "nvcc") for v in ("CUDA_HOME", "CUDA_PATH") if environ.get(v)]
    candidates += [os.path.join(d, "nvcc") for d in environ.get("PATH", "").split(os.pathsep) if d]
    return [*candidates, os.path.join(_FALLBACK_CUDA_HOME, "bin", "nvcc")]


def find_cuda(environ: Mapping[str, str]) -> CudaInstallation | None:
    """The real NVIDIA toolkit, never torchada-nvcc itself; None when there is none."""
    for nvcc in _nvcc_candidates(environ):
        if not os.access(nvcc, os.X_OK) or os.path.isdir(nvcc) or is_torchada_program(nvcc):
            continue
        home = _cuda_home_of(nvcc)
        if home is None and _has_runtime_header(_FALLBACK_CUDA_HOME):
            home = _FALLBACK_CUDA_HOME
        if home is not None:
            return CudaInstallation(nvcc, home)
    return None


def discovery_paths(environ: Mapping[str, str]) -> list[str]:
    """Every file whose presence (or content) :func:`find_musa` and :func:`find_cuda` decide by: the
    ``bin/mcc`` of each MUSA candidate and of each ``PATH`` directory, and each nvcc candidate with the
    ``include/cuda_runtime.h`` that makes its toolkit root."""
    directories = [d for d in environ.get("PATH", "").split(os.pathsep) if d]
    paths = [os.path.join(home, "bin", "mcc") for home, _ in _musa_candidates(environ)]
    paths += [os.path.join(d, "mcc") for d in directories]
    for nvcc in _nvcc_candidates(environ):
        paths += [nvcc, os.path.join(os.path.dirname(os.path.dirname(nvcc)), "include", "cuda_runtime.h")]
    return [*paths, os.path.join(_FALLBACK_CUDA_HOME, "include", "cuda_runtime.h")]
