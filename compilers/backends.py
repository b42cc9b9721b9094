"""Choosing the backend: forced by ``--torchada-backend=`` or ``TORCHADA_BACKEND``, else the platform's.

Without a choice, a MUSA SDK with ``bin/mcc`` means mcc; else a real nvcc (never torchada-nvcc
itself) means nvcc passthrough; else mcc, whose error then says how to point at the SDK.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .errors import UsageError
from .installations import find_cuda, find_musa

if TYPE_CHECKING:
    from .toolchain import Toolchain

__all__ = ["Backend", "make_toolchain", "requested_backend", "select_backend"]


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


def requested_backend(argv: Sequence[str], environ: Mapping[str, str]) -> Backend | None:
    """The backend the command line (last ``--torchada-backend``) or ``TORCHADA_BACKEND`` asks for."""
    value = None
    for i, word in enumerate(argv):
        if word.startswith(_OPTION + "="):
            value = word.partition("=")[2]
        elif word == _OPTION and i + 1 < len(argv):
            value = argv[i + 1]
    if value is not None:
        return _backend(value, _OPTION)
    if environ.get("TORCHADA_BACKEND"):
        return _backend(environ["TORCHADA_BACKEND"], "TORCHADA_BACKEND")
    return None


def select_backend(argv: Sequence[str], environ: Mapping[str, str]) -> Backend:
    requested = requested_backend(argv, environ)
    if requested is not None:
        return requested
    if find_musa(environ).is_valid:
        return Backend.MCC
    if find_cuda(environ) is not None:
        return Backend.NVCC
    return Backend.MCC


def make_toolchain(backend: Backend, environ: Mapping[str, str]) -> Toolchain:
    """The toolchain of a translating backend (imported only when a command line needs one)."""
    if backend is Backend.MCC:
        from .toolchain_mcc import MccToolchain

        return MccToolchain(environ)
    if backend is Backend.LOOPBACK:
        from .toolchain_loopback import LoopbackToolchain

        return LoopbackToolchain(environ)
    msg = "the nvcc backend passes the command line to the real nvcc and plans nothing"
    raise ValueError(msg)
