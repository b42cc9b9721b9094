"""Fixtures for the driver tests: an isolated cache, the fake MUSA tree, and ways to run the driver.

``driver`` runs torchada-nvcc in this process (fast: no interpreter start-up, libclang loaded once);
``cli`` runs the installed console script as a build system would. Neither ever picks the nvcc
passthrough backend by accident: the backend is always set.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from torchada_build.compilers.cli import main

REPO = Path(__file__).resolve().parents[2]
FAKE_MUSA = REPO / "tests" / "inputs" / "musa"
TORCHADA_NVCC = Path(sys.executable).parent / "torchada-nvcc"
_CLEARED = ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", "TORCHADA_MUSA_ARCH", "TORCHADA_COMPILER_LAUNCHER",
            "MUSA_PATH", "TORCHADA_DEBUG")  # fmt: skip


@dataclass(frozen=True)
class Result:
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        """The ``#$`` lines, without the prefix."""
        return [line[3:] for line in self.stderr.splitlines() if line.startswith("#$ ")]


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("torchada-cache")


@pytest.fixture
def driver_env(monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> Callable[..., None]:
    """Set the environment for an in-process run: mcc on the fake MUSA tree unless told otherwise."""

    def apply(backend: str = "mcc", **extra: str) -> None:
        for name in _CLEARED:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("TORCHADA_CACHE_DIR", str(cache_dir))
        monkeypatch.setenv("TORCHADA_BACKEND", backend)
        monkeypatch.setenv("MUSA_HOME", str(FAKE_MUSA))
        for name, value in extra.items():
            monkeypatch.setenv(name, value)

    apply()
    return apply


@pytest.fixture
def driver(driver_env, capsys: pytest.CaptureFixture[str]) -> Callable[[Sequence[str]], Result]:  # noqa: ARG001
    def run(argv: Sequence[str]) -> Result:
        capsys.readouterr()
        returncode = main(list(argv))
        captured = capsys.readouterr()
        return Result(returncode, captured.out, captured.err)

    return run


def run_cli(argv: Sequence[str], *, env: dict[str, str], cwd: Path | None = None) -> Result:
    done = subprocess.run([str(TORCHADA_NVCC), *argv], env=env, cwd=cwd, capture_output=True, text=True, check=False)
    return Result(done.returncode, done.stdout, done.stderr)


def cli_env(cache_dir: Path, backend: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(TORCHADA_CACHE_DIR=str(cache_dir), TORCHADA_BACKEND=backend, MUSA_HOME=str(FAKE_MUSA), **extra)
    return env

