"""Which backend a build targets, and where the MUSA SDK and torch_musa are; nothing is imported or run.

A machine is a **MUSA machine** when ``torch_musa`` is installed or a MUSA SDK is found
(``MUSA_HOME``, ``MUSA_PATH``, ``mcc`` on ``PATH``, ``/usr/local/musa``); it is a **CUDA machine**
otherwise. ``TORCHADA_BACKEND=mcc|nvcc|loopback`` overrides the guess:

* ``mcc`` — build for MUSA (the default on a MUSA machine);
* ``nvcc`` — pass everything through to the real CUDA toolchain, untouched (the default elsewhere);
* ``loopback`` — verification only: translate exactly as for MUSA, then compile the translated code with
  the real nvcc (how CI proves the MUSA path on a machine with neither a MUSA GPU nor its SDK).

    >>> detect_backend({"TORCHADA_BACKEND": "loopback"}).backend
    <Backend.LOOPBACK: 'loopback'>
"""

from __future__ import annotations

import enum
import importlib.util
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildConfigurationError

__all__ = [
    "Backend",
    "BackendChoice",
    "detect_backend",
    "find_musa_home",
    "find_torch_musa",
    "get_toolkit_root",
    "require_musa_home",
    "require_torch_musa",
]

DEFAULT_MUSA_HOMES = (Path("/usr/local/musa"), Path("/opt/musa"))


class Backend(enum.Enum):
    MCC = "mcc"
    NVCC = "nvcc"
    LOOPBACK = "loopback"

    @property
    def translates(self) -> bool:
        """Whether CUDA sources are translated to MUSA (``mcc`` and its stand-in ``loopback``)."""
        return self is not Backend.NVCC


@dataclass(frozen=True, slots=True)
class BackendChoice:
    backend: Backend
    reason: str
    """Why this backend: one phrase for ``-v`` output and error messages."""


def find_musa_home(environ: Mapping[str, str] | None = None) -> Path | None:
    """The MUSA SDK root, searched as torch_musa does: ``MUSA_HOME``, ``MUSA_PATH``, ``mcc``'s grandparent, defaults."""
    environ = os.environ if environ is None else environ
    for variable in ("MUSA_HOME", "MUSA_PATH"):
        if environ.get(variable):
            return Path(environ[variable])
    mcc = shutil.which("mcc", path=environ.get("PATH"))
    if mcc is not None:
        return Path(os.path.realpath(mcc)).parent.parent
    return next((home for home in DEFAULT_MUSA_HOMES if (home / "bin" / "mcc").is_file()), None)


def find_torch_musa() -> Path | None:
    """The installed ``torch_musa`` package folder, found without importing it."""
    try:
        spec = importlib.util.find_spec("torch_musa")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def detect_backend(environ: Mapping[str, str] | None = None) -> BackendChoice:
    """``TORCHADA_BACKEND`` if set, else ``mcc`` on a MUSA machine, else ``nvcc``."""
    environ = os.environ if environ is None else environ
    forced = environ.get("TORCHADA_BACKEND", "")
    if forced:
        try:
            return BackendChoice(Backend(forced), f"TORCHADA_BACKEND={forced}")
        except ValueError:
            choices = "|".join(b.value for b in Backend)
            msg = f"unknown backend 'TORCHADA_BACKEND={forced}'; use one of {choices}"
            raise BuildConfigurationError(msg) from None
    if find_torch_musa() is not None:
        return BackendChoice(Backend.MCC, "torch_musa is installed")
    home = find_musa_home(environ)
    if home is not None:
        return BackendChoice(Backend.MCC, f"a MUSA SDK is at '{home}'")
    return BackendChoice(Backend.NVCC, "no MUSA SDK or torch_musa was found")


def require_musa_home(choice: BackendChoice, environ: Mapping[str, str] | None = None) -> Path:
    """The MUSA SDK root for an ``mcc`` build, or one line saying how to point at it."""
    home = find_musa_home(environ)
    if home is None or not (home / "bin" / "mcc").is_file():
        where = f"'{home}' has no bin/mcc" if home is not None else "no MUSA SDK was found"
        msg = (
            f"cannot build for MUSA ({choice.reason}): {where}; set MUSA_HOME to the MUSA SDK root, "
            "or TORCHADA_BACKEND=loopback to verify the translation with nvcc"
        )
        raise BuildConfigurationError(msg)
    return home


def require_torch_musa(choice: BackendChoice) -> Path:
    """The torch_musa package folder for an ``mcc`` torch extension build, or one line saying what is missing."""
    package = find_torch_musa()
    if package is None:
        msg = (
            f"cannot build a torch extension for MUSA ({choice.reason}): torch_musa is not installed; "
            "install torch_musa, or set TORCHADA_BACKEND=nvcc to build for CUDA"
        )
        raise BuildConfigurationError(msg)
    return package


def get_toolkit_root(backend: Backend) -> Path:
    """The toolkit mimic of ``backend``: a CUDA root whose ``bin/nvcc`` is torchada-nvcc (made by the driver)."""
    from .compilers.toolkit import get_cuda_home

    return Path(get_cuda_home(backend.value))
