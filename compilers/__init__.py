"""torchada_build.compilers: the nvcc option model, the job planner and the backends (mcc, nvcc, loopback)."""

from __future__ import annotations

__all__: list[str] = []
