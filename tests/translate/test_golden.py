"""Golden tests in the HIPIFY style: each ``golden/<name>`` is a CUDA input that carries its own
expectations, written and reviewed by hand, never by the translator:

* ``// CHECK: <text>``: a run of these says what the next as many lines that are not annotations
  translate to, line for line (a run before a multi-line macro covers all of its lines);
* ``// FINDING: [+K:]COL: <severity> <ID> ['<name>']``: the translator reports that finding at that
  column of the first line after the run (``+K``: of the K-th line after it), naming ``'<name>'``;
* every other line, the annotations included, must come out exactly as it went in, and there must be
  no finding that no ``FINDING`` line expects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hipify_like import translate_source

GOLDEN = Path(__file__).parent / "golden"
INPUTS = sorted(p for p in GOLDEN.iterdir() if p.suffix in {".cu", ".cuh", ".cpp", ".h"})

_ANNOTATION = re.compile(r"^\s*// (?P<kind>CHECK|FINDING):(?: (?P<text>.*))?$")
_FINDING = re.compile(r"^(?:\+(?P<offset>\d+):)?(?P<column>\d+): (?P<severity>\w+) (?P<id>TA\d+)(?: '(?P<name>.+)')?$")


@dataclass
class Expectation:
    lines: list[str] = field(default_factory=list)
    """What each line of the input translates to."""
    findings: list[tuple[int, int, str, str, str | None]] = field(default_factory=list)
    """(line, column, severity, ID, name) of each finding, lines counted from 1."""


def expectation(text: str) -> Expectation:
    """Read the annotations of one input."""
    expected = Expectation()
    checks: list[str] = []
    findings: list[tuple[int, int, str, str, str | None]] = []
    code_lines_after_run = 0
    for number, line in enumerate(text.split("\n"), 1):
        annotation = _ANNOTATION.match(line)
        expected.lines.append(line)
        if annotation is None:
            if checks:
                expected.lines[-1] = checks.pop(0)
            for offset, column, severity, finding_id, name in findings:
                if offset == code_lines_after_run:
                    expected.findings.append((number, column, severity, finding_id, name))
            code_lines_after_run += 1
            continue
        if code_lines_after_run:  # a new run of annotations
            assert not checks, f"line {number}: a CHECK run longer than the lines it describes"
            findings, code_lines_after_run = [], 0
        if annotation["kind"] == "CHECK":
            checks.append(annotation["text"] or "")
        else:
            finding = _FINDING.match(annotation["text"] or "")
            assert finding, f"line {number}: not a FINDING line: {line}"
            findings.append((int(finding["offset"] or 0), int(finding["column"]), finding["severity"],
                             finding["id"], finding["name"]))  # fmt: skip
    assert not checks, "a CHECK run at the end describes no line"
    return expected


@pytest.mark.parametrize("source", INPUTS, ids=[p.name for p in INPUTS])
def test_golden(source: Path) -> None:
    text = source.read_text()
    expected = expectation(text)
    translation = translate_source(text.encode(), str(source))
    assert translation.text.decode().split("\n") == expected.lines
    found = sorted((f.line, f.column, f.severity.value, f.rule, f.message) for f in translation.findings)
    assert [f[:4] for f in found] == sorted(f[:4] for f in expected.findings)
    for (*_, message), (*_, name) in zip(found, sorted(expected.findings), strict=True):
        assert name is None or f"'{name}'" in message, message


def test_the_annotations_are_read_as_documented() -> None:
    text = "\n".join([
        "// CHECK: #define A musaFoo(x) \\",
        "// CHECK:   + 1",
        "// FINDING: +1:5: warning TA1002 'cudaBar'",
        "#define A cudaFoo(x) \\",
        "  + 1",
        "int unchanged;",
    ])  # fmt: skip
    got = expectation(text)
    assert got.lines[3:] == ["#define A musaFoo(x) \\", "  + 1", "int unchanged;"]
    assert got.lines[:3] == text.split("\n")[:3]
    assert got.findings == [(5, 5, "warning", "TA1002", "cudaBar")]
