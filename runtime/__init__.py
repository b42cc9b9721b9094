"""torchada: ``import torchada`` makes ``torch.cuda`` code run on Moore Threads GPUs (MUSA)."""

from __future__ import annotations

__all__: list[str] = []
