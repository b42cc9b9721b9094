"""Errors of the build integration, on the driver's base class: typed inside, one line outside.

Every message is one line that starts in lower case, quotes the user's value and ends with a remedy,
so that setuptools, a JIT ``load()`` traceback and ``python -m torchada_build`` all show the same sentence;
``python -m torchada_build`` prints any :class:`TorchadaError` (the driver's too) as ``torchada: error: ...``.
"""

from __future__ import annotations

from torchada_build.core.errors import TorchadaError

__all__ = ["BuildConfigurationError", "TorchadaError", "UnsupportedTorchError"]


class BuildConfigurationError(TorchadaError):
    """The machine or the environment cannot build for the chosen backend (missing SDK, torch_musa, arch)."""


class UnsupportedTorchError(TorchadaError):
    """The installed torch lacks a cpp_extension name that the build hook needs."""
