"""What a port did: a summary line, and JSON and HTML reports, from a list of translations."""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .findings import Severity
from .translate import Translation

__all__ = ["PortReport"]


@dataclass(frozen=True)
class PortReport:
    translations: Sequence[Translation]

    @property
    def lines(self) -> int:
        return sum(t.original.count(b"\n") for t in self.translations)

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
        return (
            f"{len(self.translations)} files ({changed} changed), {self.lines} lines; "
            f"names translated: {renamed}; "
            f"findings: {severities[Severity.ERROR]} errors, {severities[Severity.WARNING]} warnings"
        )

    def to_json(self) -> str:
        document = {
            "summary": {
                "files": len(self.translations),
                "changed": sum(t.changed for t in self.translations),
                "lines": self.lines,
                "renamed": dict(sorted(self.renamed.items())),
                "errors": self.severities[Severity.ERROR],
                "warnings": self.severities[Severity.WARNING],
            },
            "files": [
                {
                    "path": t.path,
                    "changed": t.changed,
                    "lines": t.original.count(b"\n"),
                    "renamed": dict(sorted(t.renamed.items())),
                    "findings": [f.to_json() for f in t.findings],
                }
                for t in self.translations
            ],
        }
        return json.dumps(document, indent=2) + "\n"

    def to_html(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(t.path)}</td><td>{'yes' if t.changed else ''}</td>"
            f"<td>{sum(t.renamed.values())}</td><td>{len(t.findings)}</td></tr>"
            for t in self.translations
        )
        findings = "".join(
            f"<tr class='{f.severity.value}'><td>{html.escape(f.path)}:{f.line}:{f.column}</td>"
            f"<td>{f.severity.value}</td><td>{f.rule}</td><td>{html.escape(f.message)}</td></tr>"
            for t in self.translations
            for f in t.findings
        )
        return (
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>torchada-port report</title><style>"
            "body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
            ".error td{background:#fdd}.warning td{background:#ffd}</style></head><body>"
            f"<h1>torchada-port report</h1><p>{html.escape(self.summary())}</p>"
            "<h2>Findings</h2><table><tr><th>where</th><th>severity</th><th>id</th><th>message</th></tr>"
            f"{findings}</table>"
            "<h2>Files</h2><table><tr><th>file</th><th>changed</th><th>names translated</th><th>findings</th></tr>"
            f"{rows}</table></body></html>\n"
        )
