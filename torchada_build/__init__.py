"""torchada_build: points existing build systems (setuptools, JIT, CMake, Make) at torchada-nvcc."""

from __future__ import annotations

__all__: list[str] = []
