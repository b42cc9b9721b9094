"""The cache directory and atomic writes: nothing half-written is ever where a later build reads it.

Files are written to a temporary name in the same directory and renamed over the final one
(``os.replace``); directories are filled under a temporary name and renamed into place, and a
directory that another process renamed there first wins (its content is the same: every cached
directory is named after a hash of what it holds). A killed run leaves at most a ``.tmp-*`` entry,
which no reader ever opens, and its work directory under ``tmp/``; the next run that writes beside
them removes those older than :data:`STALE_AFTER_S`.

The cache is private: its directories are made 0700 whatever the umask, and a cache directory that
another user owns or could write is refused (what it holds is compiled into the build).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from .errors import CacheError, WriteError

__all__ = [
    "STALE_AFTER_S", "atomic_directory", "file_mode", "get_cache_dir", "make_private_dir", "make_work_dir",
    "open_cache_dir", "write_atomically",
]  # fmt: skip

STALE_AFTER_S = 24 * 3600
"""A temporary entry of the cache older than this (a day) belongs to a run that was killed."""


def get_cache_dir(environ: Mapping[str, str]) -> Path:
    """``TORCHADA_CACHE_DIR``, else ``$XDG_CACHE_HOME/torchada``, else ``~/.cache/torchada``."""
    if environ.get("TORCHADA_CACHE_DIR"):
        return Path(environ["TORCHADA_CACHE_DIR"]).absolute()
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base).absolute() / "torchada"


def open_cache_dir(environ: Mapping[str, str]) -> Path:
    """:func:`get_cache_dir`, made when missing; a :class:`CacheError` when it cannot be used or is not
    this user's alone."""
    path = get_cache_dir(environ)
    try:
        make_private_dir(path)
        status = path.stat()
    except OSError as error:
        msg = f"cannot use the cache directory '{path}': {error.strerror or error}; set TORCHADA_CACHE_DIR to another"
        raise CacheError(msg) from None
    if not stat.S_ISDIR(status.st_mode):
        msg = f"the cache directory '{path}' is not a directory; set TORCHADA_CACHE_DIR to a directory"
    elif status.st_uid != os.geteuid():
        msg = (f"the cache directory '{path}' belongs to another user (uid {status.st_uid}); "
               "set TORCHADA_CACHE_DIR to your own")  # fmt: skip
    elif status.st_mode & 0o022:
        msg = (f"the cache directory '{path}' is writable by other users (mode {stat.S_IMODE(status.st_mode):o}); "
               "chmod go-w it, or set TORCHADA_CACHE_DIR to your own")  # fmt: skip
    elif not os.access(path, os.W_OK | os.X_OK):
        msg = f"the cache directory '{path}' is not writable; set TORCHADA_CACHE_DIR to a writable directory"
    else:
        return path
    raise CacheError(msg)


def make_private_dir(path: Path) -> None:
    """Make ``path`` and its missing parents, each 0700 (``Path.mkdir`` follows the umask)."""
    if path.is_dir():
        return
    if path.parent != path:
        make_private_dir(path.parent)
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)


def remove_stale(directory: Path, prefix: str) -> None:
    """Remove the entries of ``directory`` named ``prefix*`` that are older than :data:`STALE_AFTER_S`."""
    cutoff = time.time() - STALE_AFTER_S
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.name.startswith(prefix) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path)
                    else:
                        os.unlink(entry.path)


def make_work_dir(cache_dir: Path) -> Path:
    """A new private (0700), unpredictably named work directory under ``cache_dir/tmp``."""
    parent = cache_dir / "tmp"
    make_private_dir(parent)
    remove_stale(parent, "torchada-nvcc-")
    return Path(tempfile.mkdtemp(prefix="torchada-nvcc-", dir=parent))


def file_mode() -> int:
    """The mode a new file gets from ``open()``: 0666 less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write ``path`` through a temporary file renamed over it, with the mode ``open()`` would give
    it; ``private``: a cache file (0600, its missing directories 0700). A :class:`WriteError` names
    ``path`` when that fails, and nothing is left behind."""
    try:
        if private:
            make_private_dir(path.parent)
            remove_stale(path.parent, ".tmp-")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    except OSError as error:
        raise WriteError(f"cannot write '{path}': {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            if not private:
                os.fchmod(f.fileno(), file_mode())
            f.write(data)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise WriteError(f"cannot write '{path}': {error.strerror or error}") from None
        raise


@contextlib.contextmanager
def atomic_directory(final: Path) -> Iterator[Path]:
    """Yield an empty temporary directory that becomes ``final`` when the block succeeds."""
    make_private_dir(final.parent)
    remove_stale(final.parent, ".tmp-")
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
