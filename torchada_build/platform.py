"""Which backend a torch extension build targets, and where torch_musa is; nothing is imported or run.

The backend is the driver's choice (:func:`~torchada_build.compilers.backends.select_backend`):
``TORCHADA_BACKEND=mcc|nvcc|loopback`` when set; else ``mcc`` when a MUSA SDK is found (``MUSA_HOME``,
``MUSA_PATH``, ``mcc`` on ``PATH``, ``/usr/local/musa``, ``/opt/musa``); else ``nvcc`` when a real nvcc is
found; else ``mcc``, whose error then says how to point at the SDK. For torch extensions an installed
``torch_musa`` also makes a **MUSA machine**, SDK or not.

* ``mcc`` — build for MUSA;
* ``nvcc`` — pass everything through to the real CUDA toolchain, untouched;
* ``loopback`` — verification only: translate exactly as for MUSA, then compile the translated code with
  the real nvcc (how CI proves the MUSA path on a machine with neither a MUSA GPU nor its SDK).

    >>> detect_backend({"TORCHADA_BACKEND": "loopback"}).backend
    <Backend.LOOPBACK: 'loopback'>
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from pathlib import Path

from torchada_build.core.diagnostics import NO_MCC, NO_TORCH_MUSA

from .compilers.backends import Backend, BackendChoice, choose_backend, requested_backend
from .compilers.installations import MusaInstallation, find_musa
from .errors import BuildConfigurationError

__all__ = [
    "Backend",
    "BackendChoice",
    "detect_backend",
    "find_torch_musa",
    "require_musa_home",
    "require_torch_musa",
]


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
    """``TORCHADA_BACKEND`` if set, else ``mcc`` where torch_musa is installed, else the driver's choice."""
    environ = os.environ if environ is None else environ
    if requested_backend([], environ) is None and find_torch_musa() is not None:
        return BackendChoice(Backend.MCC, "torch_musa is installed")
    return choose_backend([], environ)


def require_musa_home(choice: BackendChoice, environ: Mapping[str, str] | None = None) -> MusaInstallation:
    """The MUSA SDK of an ``mcc`` build, or one line saying how to point at it."""
    musa = find_musa(os.environ if environ is None else environ)
    if not musa.is_valid:
        msg = f"cannot build for MUSA ({choice.reason}): {NO_MCC.text(mcc=musa.mcc, found_by=musa.found_by)}"
        raise BuildConfigurationError(msg)
    return musa


def require_torch_musa(choice: BackendChoice) -> Path:
    """The torch_musa package folder for an ``mcc`` torch extension build, or one line saying what is missing."""
    package = find_torch_musa()
    if package is None:
        raise BuildConfigurationError(NO_TORCH_MUSA.text(reason=choice.reason))
    return package
