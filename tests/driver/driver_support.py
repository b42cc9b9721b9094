"""Shared pieces of the driver tests (imported by name: the test folders are not packages)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FAKE_MUSA = REPO / "tests" / "inputs" / "musa"
TORCHADA_NVCC = Path(sys.executable).parent / "torchada-nvcc"
CLEARED = ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", "TORCHADA_MUSA_ARCH", "TORCH_MUSA_ARCH_LIST",
           "TORCHADA_COMPILER_LAUNCHER", "MUSA_PATH", "TORCHADA_DEBUG")  # fmt: skip


@dataclass(frozen=True)
class Result:
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        """The ``#$`` lines, without the prefix."""
        return [line[3:] for line in self.stderr.splitlines() if line.startswith("#$ ")]


def run_cli(argv: Sequence[str], *, env: dict[str, str], cwd: Path | None = None) -> Result:
    done = subprocess.run([str(TORCHADA_NVCC), *argv], env=env, cwd=cwd, capture_output=True, text=True, check=False)
    return Result(done.returncode, done.stdout, done.stderr)


def cli_env(cache_dir: Path, backend: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(TORCHADA_CACHE_DIR=str(cache_dir), TORCHADA_BACKEND=backend, MUSA_HOME=str(FAKE_MUSA), **extra)
    return env
