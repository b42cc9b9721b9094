"""What ``torchada-port`` silences: ``--suppress`` and ``[tool.torchada]`` in the project's pyproject.toml.

    [tool.torchada]
    suppress = ["TA1004", "cudaFooBar"]    # a finding ID, or the name a finding is about

The configuration is the nearest ``pyproject.toml`` with a ``[tool.torchada]`` table, looked for from the
source upward, else from the current directory upward. A suppressed finding is not printed, not in the
report and not in the exit status; the summary counts it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from torchada_build.core.errors import TorchadaError

from .findings import RULES, Finding
from .report import PortedFile

__all__ = ["ConfigError", "Suppressions", "find_config", "load_config_suppress"]

_KEYS = frozenset({"suppress"})
_ID = re.compile(r"TA\d{4}")


class ConfigError(TorchadaError, ValueError):
    """A bad ``--suppress`` value or ``[tool.torchada]`` table; the message is one line."""


class Suppressions(NamedTuple):
    ids: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, values: Iterable[str], where: str) -> Suppressions:
        ids, names = set(), set()
        for value in values:
            if _ID.fullmatch(value):
                if value not in RULES:
                    raise ConfigError(f"{where}: unknown finding ID '{value}' (known: {', '.join(RULES)})")
                ids.add(value)
            elif value:
                names.add(value)
            else:
                raise ConfigError(f"{where}: an empty name")
        return cls(frozenset(ids), frozenset(names))

    def __or__(self, other: Suppressions) -> Suppressions:
        return Suppressions(self.ids | other.ids, self.names | other.names)

    def silences(self, finding: Finding) -> bool:
        return finding.rule in self.ids or finding.name in self.names

    def apply(self, files: Sequence[PortedFile]) -> tuple[list[PortedFile], int]:
        """The files without the silenced findings, and how many were silenced."""
        kept: list[PortedFile] = []
        silenced = 0
        for t in files:
            findings = tuple(f for f in t.findings if not self.silences(f))
            silenced += len(t.findings) - len(findings)
            kept.append(t if len(findings) == len(t.findings) else t._replace(findings=findings))
        return kept, silenced


def _table(path: Path) -> dict[str, object] | None:
    """The ``[tool.torchada]`` table of ``path``, or None when it has none."""
    if sys.version_info >= (3, 11):  # imported only where a pyproject.toml is found (it takes datetime too)
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"cannot read '{path}': {error}") from None
    table = document.get("tool", {}).get("torchada")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.torchada] must be a table")
    return table


def find_config(*starts: Path) -> tuple[Path, dict[str, object]] | None:
    """The nearest pyproject.toml with a ``[tool.torchada]`` table above each start in turn, and the table."""
    for start in starts:
        directory = start.absolute() if start.is_dir() else start.absolute().parent
        for candidate in (directory, *directory.parents):
            path = candidate / "pyproject.toml"
            if path.is_file():
                table = _table(path)
                if table is not None:
                    return path, table
    return None


def load_config_suppress(*starts: Path) -> Suppressions:
    found = find_config(*starts)
    if found is None:
        return Suppressions()
    path, table = found
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown key '{unknown[0]}' in [tool.torchada] (known: {', '.join(sorted(_KEYS))})")
    values = table.get("suppress", [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{path}: [tool.torchada] suppress must be a list of strings")
    return Suppressions.parse(values, str(path))
