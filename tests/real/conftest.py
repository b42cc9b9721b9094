"""The corpus tests use the MUSA stand-in of the build tests, and the build venv with the CUDA build of torch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1] / "build"))
from corpus import build_venv  # noqa: E402


@pytest.fixture(scope="module")
def venv(nvcc: str) -> Path:  # noqa: ARG001
    try:
        return build_venv()
    except RuntimeError as error:
        pytest.skip(f"cannot make the build venv with the CUDA build of torch: {error}")

