"""ccache and sccache as the tests run them: private caches, a private sccache server, their counts."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = ["cache_counts", "free_port", "private_caches"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def private_caches(launcher: str, env: Mapping[str, str], root: Path) -> Iterator[dict[str, str]]:
    """``env`` with ccache's and sccache's caches under ``root``; for ``launcher`` sccache, a server of
    its own (on a free port) running until the block ends."""
    env = {**env, "CCACHE_DIR": str(root / "ccache"), "SCCACHE_DIR": str(root / "sccache"),
           "SCCACHE_SERVER_PORT": str(free_port()), "SCCACHE_IDLE_TIMEOUT": "120"}  # fmt: skip
    sccache = shutil.which("sccache", path=env.get("PATH")) if launcher == "sccache" else None
    if sccache is not None:
        subprocess.run([sccache, "--start-server"], env=env, capture_output=True, check=True)
    try:
        yield env
    finally:
        if sccache is not None:
            subprocess.run([sccache, "--stop-server"], env=env, capture_output=True, check=False)


def cache_counts(launcher: str, env: Mapping[str, str], language: str | None = None) -> tuple[int, int]:
    """(hits, misses) of ``launcher`` (``ccache`` or ``sccache``) so far; sccache's of one ``language``
    (``"CUDA"``) where given, else of all."""
    program = shutil.which(launcher, path=env.get("PATH")) or launcher
    if Path(program).name == "ccache":
        shown = subprocess.run([program, "--print-stats"], env=dict(env), capture_output=True, text=True, check=True)
        counters = dict(line.split("\t") for line in shown.stdout.splitlines() if "\t" in line)
        return int(counters["direct_cache_hit"]) + int(counters["preprocessed_cache_hit"]), int(counters["cache_miss"])
    shown = subprocess.run([program, "--show-stats", "--stats-format", "json"], env=dict(env), capture_output=True,
                           text=True, check=True)  # fmt: skip
    stats = json.loads(shown.stdout)["stats"]
    hits, misses = stats["cache_hits"]["counts"], stats["cache_misses"]["counts"]
    if language is not None:
        return hits.get(language, 0), misses.get(language, 0)
    return sum(hits.values()), sum(misses.values())
