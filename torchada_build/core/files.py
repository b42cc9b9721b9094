"""Files written so that nothing half-written is ever where a later reader looks: the one place
torchada writes files and directories atomically.

A file is written under a temporary name in its directory and renamed over the final one
(``os.replace``); a directory is filled under a temporary name and renamed into place, and one that
another process renamed there first wins (every such directory is named after a hash of what it
holds). A killed writer leaves at most a ``.tmp-*`` entry, which no reader opens; a later writer in
the same directory removes those older than :data:`STALE_AFTER_S`. Private directories (caches) are
made 0700 whatever the umask. Only :mod:`os` is imported here: the compile memo's replay writes
dependency files through this module.
"""

from __future__ import annotations

import os
import time

from .errors import ReadError, WriteError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

__all__ = [
    "SOURCE_LIMIT", "STALE_AFTER_S", "atomic_directory", "file_mode", "first_file", "make_work_dir", "locked", "make_private_dir", "read_file", "remove_stale",
    "write_atomically",
]  # fmt: skip

STALE_AFTER_S = 24 * 3600
"""A temporary entry older than this (a day) belongs to a writer that was killed."""
_PREFIX = ".tmp-"


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


def make_work_dir(cache_dir: str | os.PathLike[str]) -> str:
    """A new private (0700), unpredictably named work directory under ``<cache_dir>/tmp``, for one run's
    temporaries; those a killed run left there (older than :data:`STALE_AFTER_S`) are removed first."""
    parent = os.path.join(cache_dir, "tmp")
    make_private_dir(parent)
    remove_stale(parent, "torchada-nvcc-")
    while True:
        path = os.path.join(parent, "torchada-nvcc-" + os.urandom(6).hex())
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue


def remove_stale(directory: str | os.PathLike[str], prefix: str = _PREFIX) -> None:
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


def file_mode() -> int:
    """The mode a new file gets from ``open()``: 0666 less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _temporary_name(directory: str) -> str:
    return os.path.join(directory, _PREFIX + os.urandom(6).hex())


def write_atomically(path: str | os.PathLike[str], data: bytes | str, *, private: bool = False,
                     mode: int | None = None) -> None:  # fmt: skip
    """Write ``path`` through a temporary file renamed over it. Its mode: ``private`` (a cache file)
    0600, in directories made 0700; else ``mode`` when given, that of the file it replaces, or what
    ``open()`` would give a new one. A :class:`WriteError` names ``path`` when that fails, and nothing
    is left behind. Its directory is made when the temporary file finds none (a tree port writes
    thousands of files into directories that mostly exist)."""
    path = os.fspath(path)
    payload = data.encode() if isinstance(data, str) else data
    directory = os.path.dirname(os.path.abspath(path))
    try:
        if private:
            make_private_dir(directory)
            remove_stale(directory)
            mode = 0o600
        elif mode is None:
            try:
                mode = os.stat(path).st_mode & 0o7777
            except (FileNotFoundError, NotADirectoryError):
                mode = file_mode()
        temporary = _temporary_name(directory)
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileNotFoundError:
            os.makedirs(directory, exist_ok=True)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        raise WriteError(path, error) from None
    try:
        try:
            os.fchmod(fd, mode)
            with memoryview(payload) as view:
                while view:
                    view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise WriteError(path, error) from None
        raise


SOURCE_LIMIT = 64 << 20
"""The largest source torchada translates (64 MiB): translating takes about fifteen times a file's size
in memory (``benchmarks/port_memory.py``), and a generated source larger than this is better refused
with one line than translated at the cost of the machine's memory."""


def first_file(candidates: Iterable[str]) -> str | None:
    """The first of ``candidates`` that is a file, normalized (``a/../b`` is ``b``): where an include
    search, tried in order, finds its header."""
    return next((os.path.normpath(c) for c in candidates if os.path.isfile(c)), None)


def read_file(path: str | os.PathLike[str]) -> tuple[bytes, int]:
    """The bytes of the file ``path`` and its permission bits, in four system calls (``open()`` and
    ``shutil.copymode`` take a dozen); a :class:`ReadError` for a file over :data:`SOURCE_LIMIT`."""
    fd = os.open(path, os.O_RDONLY)
    try:
        status = os.fstat(fd)
        if status.st_size > SOURCE_LIMIT:
            size = f"it is {status.st_size / (1 << 20):.0f} MiB, and torchada translates files of at most {SOURCE_LIMIT >> 20} MiB"
            raise ReadError(os.fsdecode(path), OSError(27, size))  # EFBIG, without importing errno
        data = os.read(fd, status.st_size + 1)  # a regular file's short read is its end
        if len(data) > status.st_size:  # it grew since: read the rest
            pieces = [data]
            while piece := os.read(fd, 1 << 20):
                pieces.append(piece)
            data = b"".join(pieces)
    finally:
        os.close(fd)
    return data, status.st_mode & 0o7777


class locked:  # noqa: N801 - used as a function: with locked(path): read, change, write_atomically(path)
    """A context holding an exclusive lock for updating ``path`` (a read, then an atomic write): on
    ``path.lock`` beside it, private, held until the block ends. Readers need no lock."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.lock = os.fspath(path) + ".lock"

    def __enter__(self) -> None:
        import fcntl

        make_private_dir(os.path.dirname(os.path.abspath(self.lock)))
        self.fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        os.close(self.fd)  # releases the lock


class atomic_directory:  # noqa: N801 - used as a function: with atomic_directory(final) as temporary
    """A context: an empty private temporary directory beside ``final`` that becomes ``final`` when the
    block succeeds; when another process renamed its own there first, that one stays (same content)."""

    def __init__(self, final: Path) -> None:
        self.final = final

    def __enter__(self) -> Path:
        make_private_dir(self.final.parent)
        remove_stale(self.final.parent)
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
