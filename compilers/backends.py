"""Choosing the backend: forced by ``--torchada-backend=`` or ``TORCHADA_BACKEND``, else the platform's.

Without a choice, a MUSA SDK with ``bin/mcc`` means mcc; else a real nvcc (never torchada-nvcc
itself) means nvcc passthrough; else mcc, whose error then says how to point at the SDK.
"""

from __future__ import annotations

import enum

from .errors import UsageError
from .installations import find_cuda, find_musa

TYPE_CHECKING = False  # nvcc passthrough and --version import this module: no typing, no dataclasses
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["Backend", "BackendChoice", "choose_backend", "requested_backend", "select_backend"]


class Backend(enum.Enum):
    MCC = "mcc"
    NVCC = "nvcc"
    LOOPBACK = "loopback"


_OPTION = "--torchada-backend"


def _backend(value: str, where: str) -> Backend:
    try:
        return Backend(value)
    except ValueError:
        msg = f"{where} must be mcc, nvcc or loopback, not '{value}'"
        raise UsageError(msg) from None


class BackendChoice:
    """The backend, and why: one phrase (``TORCHADA_BACKEND=loopback``, ``a MUSA SDK is at '/usr/local/musa'``)."""

    __slots__ = ("backend", "reason")

    def __init__(self, backend: Backend, reason: str) -> None:
        self.backend = backend
        self.reason = reason

    def __repr__(self) -> str:
        return f"BackendChoice({self.backend}, {self.reason!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BackendChoice) and (self.backend, self.reason) == (other.backend, other.reason)

    def __hash__(self) -> int:
        return hash((self.backend, self.reason))


def _requested(argv: Sequence[str], environ: Mapping[str, str]) -> BackendChoice | None:
    value = None
    for i, word in enumerate(argv):
        if word.startswith(_OPTION + "="):
            value = word.partition("=")[2]
        elif word == _OPTION and i + 1 < len(argv):
            value = argv[i + 1]
    if value is not None:
        return BackendChoice(_backend(value, _OPTION), f"{_OPTION}={value}")
    from torchada_build.core.settings import value as setting

    chosen = setting("TORCHADA_BACKEND", environ)
    return BackendChoice(Backend(chosen), f"TORCHADA_BACKEND={chosen}") if chosen else None


def requested_backend(argv: Sequence[str], environ: Mapping[str, str]) -> Backend | None:
    """The backend the command line (last ``--torchada-backend``) or ``TORCHADA_BACKEND`` asks for."""
    requested = _requested(argv, environ)
    return None if requested is None else requested.backend


def choose_backend(argv: Sequence[str], environ: Mapping[str, str]) -> BackendChoice:
    """The backend and why; a ``MUSA_HOME`` (or ``MUSA_PATH``) without ``bin/mcc`` is named in the reason."""
    requested = _requested(argv, environ)
    if requested is not None:
        return requested
    musa = find_musa(environ)
    if musa.is_valid:
        return BackendChoice(Backend.MCC, f"a MUSA SDK is at '{musa.home_path}'")
    unusable = [f"{v}='{environ[v]}' has no bin/mcc" for v in ("MUSA_HOME", "MUSA_PATH") if environ.get(v)]
    no_musa = "; ".join(unusable) or "no MUSA SDK was found"
    cuda = find_cuda(environ)
    if cuda is not None:
        return BackendChoice(Backend.NVCC, f"{no_musa}, and NVIDIA's nvcc is at '{cuda.nvcc_path}'")
    return BackendChoice(Backend.MCC, f"{no_musa}, and no NVIDIA nvcc was found either")


def select_backend(argv: Sequence[str], environ: Mapping[str, str]) -> Backend:
    return choose_backend(argv, environ).backend
