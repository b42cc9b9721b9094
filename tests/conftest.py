"""Shared fixtures. Tests that need a real tool skip with the reason when it is missing."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def nvcc() -> str:
    path = shutil.which("nvcc")
    if path is None:
        pytest.skip("nvcc is not on PATH")
    return path
