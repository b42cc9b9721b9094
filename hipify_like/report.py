"""What a port did: a summary line, and JSON and HTML reports, from a record of each translated file.

The HTML report groups findings by ID (with counts and what each ID means) and by file (paths relative to
the ported folder, each finding with its source line), so a large port reads from the top down.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from .findings import RULES, Finding, Severity
from .translate import Translation

__all__ = ["PortReport", "PortedFile"]


_STYLE = (
    "body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
    "text-align:left}code{white-space:pre}.error td{background:#fdd}.warning td{background:#ffd}"
    "summary{cursor:pointer;margin:4px 0}"
)


def _e(text: object) -> str:
    import html  # only HTML reports need it (it loads html.entities, a large table)

    return html.escape(str(text))


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


class PortedFile(NamedTuple):
    """What the report needs of one translated file: not its text (a tree's worth of originals and
    translations would fill memory, and workers would send them all back), only the source lines that
    findings point at."""

    path: str
    lines: int
    changed: bool
    renamed: Counter[str]
    findings: tuple[Finding, ...]
    finding_lines: dict[int, str]
    """Line number → the source line (stripped), for each line a finding is on."""

    @classmethod
    def of(cls, translation: Translation) -> PortedFile:
        numbers = {f.line for f in translation.findings}
        source = translation.original.decode("utf-8", "replace").splitlines() if numbers else []
        return cls(translation.path, _line_breaks(translation.original), translation.changed, translation.renamed,
                   translation.findings, {n: _line(source, n) for n in sorted(numbers)})  # fmt: skip


class PortReport(NamedTuple):
    translations: Sequence[PortedFile]
    root: Path | None = None
    """The folder paths are shown relative to (the ported folder, or a single source's folder)."""
    suppressed: int = 0
    """Findings silenced by ``--suppress`` or ``[tool.torchada]``."""

    @property
    def lines(self) -> int:
        return sum(t.lines for t in self.translations)

    @property
    def renamed(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for t in self.translations:
            total.update(t.renamed)
        return total

    @property
    def severities(self) -> Counter[Severity]:
        return Counter(f.severity for t in self.translations for f in t.findings)

    @property
    def has_errors(self) -> bool:
        return self.severities[Severity.ERROR] > 0

    def summary(self) -> str:
        changed = sum(t.changed for t in self.translations)
        renamed = ", ".join(f"{library} {count}" for library, count in sorted(self.renamed.items())) or "none"
        severities = self.severities
        silenced = f" ({self.suppressed} suppressed)" if self.suppressed else ""
        return (
            f"{len(self.translations)} files ({changed} changed), {self.lines} lines; "
            f"names translated: {renamed}; "
            f"findings: {severities[Severity.ERROR]} errors, {severities[Severity.WARNING]} warnings{silenced}"
        )

    def relative(self, path: str) -> str:
        if self.root is None:
            return path
        relative = os.path.relpath(path, self.root)
        return path if relative.startswith("..") else relative

    def to_json(self) -> str:
        import json  # only a JSON report needs it

        document = {
            "summary": {
                "files": len(self.translations),
                "changed": sum(t.changed for t in self.translations),
                "lines": self.lines,
                "renamed": dict(sorted(self.renamed.items())),
                "errors": self.severities[Severity.ERROR],
                "warnings": self.severities[Severity.WARNING],
                "suppressed": self.suppressed,
            },
            "files": [
                {
                    "path": t.path,
                    "changed": t.changed,
                    "lines": t.lines,
                    "renamed": dict(sorted(t.renamed.items())),
                    "findings": [f.to_json() for f in t.findings],
                }
                for t in self.translations
            ],
        }
        return json.dumps(document, indent=2) + "\n"

    def _by_id(self) -> str:
        findings: defaultdict[str, list[Finding]] = defaultdict(list)
        for t in self.translations:
            for f in t.findings:
                findings[f.rule].append(f)
        rows = "".join(
            f"<tr class='{RULES[rule].severity.value}'><td>{rule}</td><td>{RULES[rule].severity.value}</td>"
            f"<td>{_e(RULES[rule].summary)}</td><td>{len(found)}</td><td>{len({f.path for f in found})}</td></tr>"
            for rule, found in sorted(findings.items(), key=lambda item: (-len(item[1]), item[0]))
        )
        return ("<h2>Findings by ID</h2><table><tr><th>id</th><th>severity</th><th>what</th><th>findings</th>"
                f"<th>files</th></tr>{rows}</table>")

    def _by_file(self) -> str:
        sections = []
        with_findings = sorted((t for t in self.translations if t.findings), key=lambda t: (-len(t.findings), t.path))
        for t in with_findings:
            counts = Counter(f.rule for f in t.findings)
            rows = "".join(
                f"<tr class='{f.severity.value}'><td>{f.line}:{f.column}</td><td>{f.rule}</td>"
                f"<td>{_e(f.message)}</td><td><code>{_e(t.finding_lines.get(f.line, ''))}</code></td></tr>"
                for f in sorted(t.findings, key=lambda f: (f.line, f.column))
            )
            ids = ", ".join(f"{rule} {count}" for rule, count in sorted(counts.items()))
            sections.append(
                f"<details><summary><b>{_e(self.relative(t.path))}</b>: {len(t.findings)} findings ({ids})</summary>"
                "<table><tr><th>line:col</th><th>id</th><th>message</th><th>source line</th></tr>"
                f"{rows}</table></details>"
            )
        return f"<h2>Findings by file</h2>{''.join(sections)}"

    def to_html(self) -> str:
        rows = "".join(
            f"<tr><td>{_e(self.relative(t.path))}</td><td>{'yes' if t.changed else ''}</td>"
            f"<td>{sum(t.renamed.values())}</td><td>{len(t.findings)}</td></tr>"
            for t in self.translations
        )
        where = f"<p>Paths are relative to {_e(self.root)}.</p>" if self.root is not None else ""
        return (
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>torchada-port report</title>"
            f"<style>{_STYLE}</style></head><body>"
            f"<h1>torchada-port report</h1><p>{_e(self.summary())}</p>{where}"
            f"{self._by_id()}{self._by_file()}"
            "<h2>Files</h2><table><tr><th>file</th><th>changed</th><th>names translated</th><th>findings</th></tr>"
            f"{rows}</table></body></html>\n"
        )


def _line_breaks(data: bytes) -> int:
    """How many lines end in ``data`` (at ``\\n``, ``\\r\\n`` or ``\\r``)."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
