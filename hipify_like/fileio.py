"""Writing files so that a reader never sees half of one."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: Path, data: bytes | str) -> None:
    """Write to a temporary file beside ``path``, then rename it over ``path``: with ``path``'s mode when
    it exists, else the mode ``open()`` gives (0666 less the umask). A failed write leaves nothing."""
    payload = data.encode() if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from error
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), _mode_for(path))
            f.write(payload)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):  # say which file (a full disk's error names none)
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise


def _mode_for(path: Path) -> int:
    with contextlib.suppress(OSError):
        return stat.S_IMODE(path.stat().st_mode)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask
