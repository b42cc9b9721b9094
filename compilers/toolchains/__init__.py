"""The toolchains, one module per backend: what runs for a command line.

* :mod:`.nvcc` (an NVIDIA machine): the real nvcc with the command line untouched;
* :mod:`.mcc` (a MUSA machine) and :mod:`.loopback` (verification): toolchains that translate each
  unit and render its commands, on :mod:`.base` (the build context, compile steps, the host link).

:func:`make_toolchain` is the one place a backend (chosen by :mod:`..backends`) becomes a toolchain;
a backend's module is imported only when it runs, so the nvcc passthrough stays light.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..backends import Backend, BackendChoice
    from .base import TranslatingToolchain

__all__ = ["Toolchain", "make_toolchain", "make_translating_toolchain"]

_CLASSES = {"mcc": ("mcc", "MccToolchain"), "loopback": ("loopback", "LoopbackToolchain"), "nvcc": ("nvcc", "NvccToolchain")}
"""Backend name → (module of this package, class)."""


class Toolchain:
    """What every backend's toolchain answers: which backend it is, what it uses, whether it is there."""

    backend: Backend

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ

    def describe(self) -> str:
        """One line for ``-v``: the backend and the toolkit it uses."""
        raise NotImplementedError

    def require_installed(self) -> None:
        """Raise :class:`~..errors.ToolNotFoundError` with the remedy when the backend compiler is missing."""
        raise NotImplementedError

    def passthrough(self, argv: Sequence[str], choice: BackendChoice) -> int | None:
        """Run ``argv`` without planning, and its exit status (a toolchain that exec()s never returns);
        None: the driver plans the command line (translating toolchains)."""
        return None


def make_toolchain(backend: Backend, environ: Mapping[str, str]) -> Toolchain:
    """The toolchain of ``backend``."""
    module, name = _CLASSES[backend.value]
    toolchain: Toolchain = getattr(importlib.import_module(f".{module}", __name__), name)(environ)
    return toolchain


def make_translating_toolchain(backend: Backend, environ: Mapping[str, str]) -> TranslatingToolchain:
    """The toolchain of a backend that translates and plans (mcc, loopback); a ValueError for nvcc."""
    from typing import cast

    if backend.value == "nvcc":
        msg = "the nvcc backend passes the command line to the real nvcc and plans nothing"
        raise ValueError(msg)
    return cast("TranslatingToolchain", make_toolchain(backend, environ))
