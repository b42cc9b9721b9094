"""The one error tree of torchada: every package raises a :class:`TorchadaError` subclass.

A :class:`TorchadaError` is a failure the user can fix; ``str(error)`` is its one-line message, which
each program prints its own way (``torchada-nvcc fatal   : …``, ``torchada-port: error: …``,
``torchada: error: …``). The translator, the driver (:mod:`torchada_build.compilers.errors`), the build
integration (:mod:`torchada_build.errors`) and the runtime add their own subclasses.
"""

from __future__ import annotations

__all__ = ["ReadError", "TorchadaError", "WriteError"]


class TorchadaError(Exception):
    """A failure the user can fix; ``str(error)`` is the one-line message."""


class _FileError(TorchadaError, OSError):
    """A file could not be read or written (:attr:`verb`); an :class:`OSError` too, with the file as
    ``filename``."""

    verb = ""

    def __init__(self, path: str, error: OSError) -> None:
        super().__init__(error.errno, error.strerror or str(error), path)
        self.message = f"cannot {self.verb} '{path}': {error.strerror or error}"

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[type[_FileError], tuple[str, OSError]]:
        """Pickled as it was made (a forked process sends it back)."""
        return type(self), (self.filename, OSError(self.errno, self.strerror))


class WriteError(_FileError):
    """A file could not be written (a full disk, a read-only directory); nothing half-written is left."""

    verb = "write"


class ReadError(_FileError):
    """A file the translation needs could not be read (a header without read permission)."""

    verb = "read"
