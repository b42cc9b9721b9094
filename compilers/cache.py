"""The cache directory and atomic writes: nothing half-written is ever where a later build reads it.

Files are written to a temporary name in the same directory and renamed over the final one
(``os.replace``); directories are filled under a temporary name and renamed into place, and a
directory that another process renamed there first wins (its content is the same: every cached
directory is named after a hash of what it holds). A killed run leaves at most a ``.tmp-*`` entry,
which no reader ever opens.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = ["atomic_directory", "get_cache_dir", "write_atomically"]


def get_cache_dir(environ: Mapping[str, str]) -> Path:
    """``TORCHADA_CACHE_DIR``, else ``$XDG_CACHE_HOME/torchada``, else ``~/.cache/torchada``."""
    if environ.get("TORCHADA_CACHE_DIR"):
        return Path(environ["TORCHADA_CACHE_DIR"]).absolute()
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base).absolute() / "torchada"


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def atomic_directory(final: Path) -> Iterator[Path]:
    """Yield an empty temporary directory that becomes ``final`` when the block succeeds."""
    final.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=".tmp-", dir=final.parent))
    try:
        yield temporary
        try:
            os.rename(temporary, final)
        except OSError:
            if not final.is_dir():
                raise
            shutil.rmtree(temporary, ignore_errors=True)  # another process got there first
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
