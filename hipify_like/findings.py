"""Findings: what the translator could not translate, or translated but a human should check.

Each rule has a stable ID. Findings are values; the command-line tools decide how to show them
(gcc-style lines or JSON) and what they do to the exit status.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

__all__ = ["RULES", "Finding", "Rule", "Severity"]


class Severity(enum.Enum):
    WARNING = "warning"
    ERROR = "error"


class Rule(NamedTuple):
    id: str
    severity: Severity
    summary: str


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("TA1001", Severity.ERROR, "a CUDA API with no MUSA counterpart"),
        Rule("TA1002", Severity.WARNING, "a CUDA API that needs a human to port it"),
        Rule("TA1003", Severity.ERROR, "a CUDA header with no MUSA counterpart"),
        Rule("TA1004", Severity.WARNING, "a CUDA-style name that the mapping database does not know"),
        Rule("TA1101", Severity.ERROR, "inline assembly (PTX), which mcc cannot compile"),
        Rule("TA1201", Severity.WARNING, "code that assumes 32-lane warps"),
        Rule("TA1301", Severity.WARNING, "__CUDA_ARCH__ used as a number, not compared with a literal"),
        Rule("TA1302", Severity.WARNING, "an architecture comparison with no exact MUSA counterpart"),
    )
}


class Finding(NamedTuple):
    rule: str
    path: str
    line: int
    column: int
    name: str
    message: str

    @property
    def severity(self) -> Severity:
        return RULES[self.rule].severity

    def format(self, severity: Severity | None = None) -> str:
        """A gcc-style line: ``file:line:col: warning: message [TA1001]``."""
        shown = (severity or self.severity).value
        return f"{self.path}:{self.line}:{self.column}: {shown}: {self.message} [{self.rule}]"

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.rule,
            "severity": self.severity.value,
            "file": self.path,
            "line": self.line,
            "column": self.column,
            "name": self.name,
            "message": self.message,
        }
