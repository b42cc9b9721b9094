"""Typed errors inside the driver; one nvcc-style line outside.

Library code raises a :class:`TorchadaError` subclass with a message built first; the console script
prints it as ``torchada-nvcc fatal   : <message>`` (nvcc's three spaces: tools grep ``nvcc fatal``)
and exits 1. Warnings print as ``torchada-nvcc warning : <message>``.
"""

from __future__ import annotations

import sys

from torchada_build.core.errors import TorchadaError, WriteError

TYPE_CHECKING = False  # imported on the driver's fast paths: nothing beyond sys
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "PROGRAM",
    "CacheError",
    "CannotRunError",
    "FailedProcessError",
    "InputError",
    "ToolNotFoundError",
    "TorchadaError",
    "TranslationError",
    "UnsupportedOptionError",
    "UsageError",
    "WriteError",
    "format_fatal",
    "warn",
]

PROGRAM = "torchada-nvcc"


class UsageError(TorchadaError):
    """A bad command line: an unknown option, a bad value, a missing argument (nvcc's wording)."""


class UnsupportedOptionError(UsageError):
    """An option the chosen backend refuses, with the reason from the option table."""


class InputError(TorchadaError):
    """A missing or unreadable input file, or one the driver does not know what to do with."""


class CacheError(TorchadaError):
    """The cache directory cannot be used, or is not the user's alone."""


class ToolNotFoundError(TorchadaError):
    """A backend compiler (mcc, nvcc) or the host compiler is missing."""


class TranslationError(TorchadaError):
    """The translator could not produce a unit (or findings failed the build under -Werror)."""


class CannotRunError(TorchadaError):
    """A job's command could not be started: its program is gone, or its command line is longer than
    ``exec`` takes."""


class FailedProcessError(TorchadaError):
    """A job's command exited non-zero; its own output already reached the user."""

    def __init__(self, argv: Sequence[str], returncode: int) -> None:
        self.argv = tuple(argv)
        self.returncode = returncode
        super().__init__(f"'{argv[0]}' exited with status {returncode}")


def format_fatal(message: str) -> str:
    return f"{PROGRAM} fatal   : {message}"


def warn(message: str) -> None:
    print(f"{PROGRAM} warning : {message}", file=sys.stderr)
