"""Errors of the build integration: typed inside, one line outside.

Every message is one line that starts in lower case, quotes the user's value and ends with a remedy,
so that setuptools (``error: ...``), a JIT ``load()`` traceback and ``python -m torchada_build`` all show
the same sentence.
"""

from __future__ import annotations

__all__ = ["BuildConfigurationError", "TorchadaError", "UnsupportedTorchError"]


class TorchadaError(Exception):
    """Base class of the errors torchada_build raises for bad input or a broken installation."""


class BuildConfigurationError(TorchadaError):
    """The machine or the environment cannot build for the chosen backend (missing SDK, torch_musa, arch)."""


class UnsupportedTorchError(TorchadaError):
    """The installed torch lacks a cpp_extension name that the build hook needs."""
