"""``--help`` of torchada's console scripts: what the tool is for first, where its docs are last."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["ToolParser"]


class ToolParser(argparse.ArgumentParser):
    def __init__(self, *, purpose: str, docs: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.purpose = purpose
        self.docs = docs

    def format_help(self) -> str:
        return f"{self.prog}: {self.purpose}\n\n{super().format_help()}\nDocs: {self.docs}\n"
