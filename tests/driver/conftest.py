"""Fixtures for the driver tests: an isolated cache, the fake MUSA tree, and ways to run the driver.

``driver`` runs torchada-nvcc in this process (fast: no interpreter start-up, libclang loaded once);
``driver_support.run_cli`` runs the installed console script as a build system would. Neither ever picks the nvcc
passthrough backend by accident: the backend is always set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from driver_support import CLEARED, FAKE_MUSA, Result
from torchada_build.compilers.cli import main


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("torchada-cache")


@pytest.fixture
def driver_env(monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> Callable[..., None]:
    """Set the environment for an in-process run: mcc on the fake MUSA tree unless told otherwise."""

    def apply(backend: str = "mcc", **extra: str) -> None:
        for name in CLEARED:
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
