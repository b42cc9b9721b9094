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

import os
import stat
import time

from .errors import CacheError, WriteError
from .memo import cache_root

TYPE_CHECKING = False  # the compile memo's replay imports this module: nothing but os here
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = [
    "STALE_AFTER_S", "atomic_directory", "file_mode", "get_cache_dir", "make_private_dir", "make_work_dir",
    "open_cache_dir", "write_atomically",
]  # fmt: skip

STALE_AFTER_S = 24 * 3600
"""A temporary entry of the cache older than this (a day) belongs to a run that was killed."""


def get_cache_dir(environ: Mapping[str, str]) -> Path:
    """``TORCHADA_CACHE_DIR``, else ``$XDG_CACHE_HOME/torchada``, else ``~/.cache/torchada``."""
    from pathlib import Path

    return Path(cache_root(environ))


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


def make_private_dir(path: str | os.PathLike[str]) -> None:
    """Make ``path`` and its missing parents, each 0700 (``Path.mkdir`` follows the umask)."""
    path = os.fspath(path)
    if os.path.isdir(path):
        return
    parent = os.path.dirname(path)
    if parent != path:
        make_private_dir(parent)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass


def remove_stale(directory: str | os.PathLike[str], prefix: str) -> None:
    """Remove the entries of ``directory`` named ``prefix*`` that are older than :data:`STALE_AFTER_S`."""
    cutoff = time.time() - STALE_AFTER_S
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.name.startswith(prefix) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                if entry.is_dir(follow_symlinks=False):
                    import shutil

                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
        except OSError:
            pass


def make_work_dir(cache_dir: Path) -> Path:
    """A new private (0700), unpredictably named work directory under ``cache_dir/tmp``."""
    import tempfile

    parent = cache_dir / "tmp"
    make_private_dir(parent)
    remove_stale(parent, "torchada-nvcc-")
    return parent / os.path.basename(tempfile.mkdtemp(prefix="torchada-nvcc-", dir=parent))


def file_mode() -> int:
    """The mode a new file gets from ``open()``: 0666 less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _temporary_name(directory: str) -> str:
    return os.path.join(directory, ".tmp-" + os.urandom(6).hex())


def write_atomically(path: str | os.PathLike[str], data: bytes, *, private: bool = False) -> None:
    """Write ``path`` through a temporary file renamed over it, with the mode ``open()`` would give
    it; ``private``: a cache file (0600, its missing directories 0700). A :class:`WriteError` names
    ``path`` when that fails, and nothing is left behind."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        if private:
            make_private_dir(directory)
            remove_stale(directory, ".tmp-")
        else:
            os.makedirs(directory, exist_ok=True)
        temporary = _temporary_name(directory)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
    except OSError as error:
        raise WriteError(f"cannot write '{path}': {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise WriteError(f"cannot write '{path}': {error.strerror or error}") from None
        raise


class atomic_directory:  # noqa: N801 - used as a function: with atomic_directory(final) as temporary
    """A context: an empty temporary directory that becomes ``final`` when the block succeeds (a
    directory that another process renamed there first wins: its content is the same)."""

    def __init__(self, final: Path) -> None:
        self.final = final

    def __enter__(self) -> Path:
        make_private_dir(self.final.parent)
        remove_stale(self.final.parent, ".tmp-")
        self.temporary = self.final.parent / os.path.basename(_temporary_name(str(self.final.parent)))
        os.mkdir(self.temporary, 0o700)
        return self.temporary

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        import shutil

        if kind is None:
            try:
                os.rename(self.temporary, self.final)
                return
            except OSError:
                if not self.final.is_dir():
                    shutil.rmtree(self.temporary, ignore_errors=True)
                    raise
        shutil.rmtree(self.temporary, ignore_errors=True)  # failed, or another process got there first
