"""The one warning torchada gives: a CUDA API with no vendor counterpart was used (once per API)."""

from __future__ import annotations

import warnings

__all__ = ["TorchadaWarning", "warn_once"]

_warned: set[str] = set()


class TorchadaWarning(UserWarning):
    """Code used a CUDA API that torchada cannot redirect on this platform."""


def warn_once(key: str, message: str, stacklevel: int = 3) -> None:
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn(message, TorchadaWarning, stacklevel=stacklevel)
