"""The cache directory: where it is, whether it may be used, and the work directories under it.

The cache is private: its directories are made 0700 whatever the umask, and a cache directory that
another user owns or could write is refused (what it holds is compiled into the build). Everything in
it is written atomically (:mod:`torchada_build.core.files`); a run's work directory is a new unpredictably
named directory under ``tmp/``, and what a killed run leaves there is removed by a later run a day on.
"""

from __future__ import annotations

import os
import stat

from torchada_build.core import diagnostics
from torchada_build.core.files import make_private_dir

from .errors import CacheError
from .memo import cache_root

TYPE_CHECKING = False  # the compile memo's replay imports this module: nothing but os here
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = ["get_cache_dir", "open_cache_dir"]


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
        raise CacheError(diagnostics.CACHE_UNUSABLE.text(path=path, error=error.strerror or error)) from None
    msg = _refusal(path, status)
    if msg is None and not os.access(path, os.W_OK | os.X_OK):
        msg = diagnostics.CACHE_READ_ONLY.text(path=path)
    if msg is None:
        msg = _subdirectory_refusal(path)
    if msg is not None:
        raise CacheError(msg)
    return path


def _refusal(path: Path | str, status: os.stat_result) -> str | None:
    """Why the cache directory ``path`` (or one of its own) may not be used: not a directory, another
    user's, writable by others."""
    if not stat.S_ISDIR(status.st_mode):
        return diagnostics.CACHE_NOT_A_DIRECTORY.text(path=path)
    if status.st_uid != os.geteuid():
        return diagnostics.CACHE_OF_ANOTHER_USER.text(path=path, uid=status.st_uid)
    if status.st_mode & 0o022:
        return diagnostics.CACHE_SHARED.text(path=path, mode=stat.S_IMODE(status.st_mode))
    return None


_CHECKED_BELOW = ("compat", "toolkit")
"""The cache's directories whose own directories are checked too: they hold the headers and the
``nvcc`` that builds use as they are (a unit's tree is checked file by file when it is loaded)."""


def _subdirectory_refusal(root: Path) -> str | None:
    """Why a directory of the cache (``units/``, ``memo/``, ``compat/<version>``, the toolkit mimic) may
    not be used: one that another user could write would let them put code in this user's builds."""
    for parent in (str(root), *(os.path.join(root, name) for name in _CHECKED_BELOW)):
        try:
            entries = list(os.scandir(parent))
        except OSError:
            continue  # not made yet
        for entry in entries:
            if entry.is_symlink() or entry.is_dir(follow_symlinks=False):
                msg = _refusal(entry.path, entry.stat(follow_symlinks=False))
                if msg is not None:
                    return msg
    return None
