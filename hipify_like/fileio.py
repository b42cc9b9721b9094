"""Writing files so that a reader never sees half of one."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: Path, data: bytes | str) -> None:
    """Write to a temporary file beside ``path``, then rename it over ``path`` (keeping its mode)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode() if isinstance(data, str) else data
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
        f.write(payload)
    try:
        if path.exists():
            shutil.copymode(path, f.name)
        os.replace(f.name, path)
    except BaseException:
        Path(f.name).unlink(missing_ok=True)
        raise
