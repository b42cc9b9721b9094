"""Findings: what the translator could not translate, or translated but a human should check.

Each rule has a stable ID, in the one registry of TA IDs (``torchada_build/core/diagnostics.py``).
Findings are values; the command-line tools decide how to show them
(gcc-style lines or JSON) and what they do to the exit status.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from torchada_build.core.diagnostics import RULES, Rule, Severity

__all__ = ["RULES", "Finding", "Rule", "Severity", "findings_markdown"]


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


def findings_markdown(corpus: Mapping[str, Mapping[str, Mapping[str, int]]], warps: str) -> str:
    """The findings section of ``docs/diagnostics.md``: the IDs, what TA1101 and TA1201 look for (MUSA's
    warps are ``warps``), and the measured recall and precision of ``corpus`` (project → ID → counts,
    as ``benchmarks/findings_corpus.py`` records them)."""
    lines = [
        "## Findings",
        "",
        "Findings are about the code being translated: `file:line:col: warning: … [TA1201]`, or JSON",
        "(`--findings-format json`); the table above gives each ID.",
        "",
        "TA1101 is reported on every `asm` statement whose template is not host assembly (x86, ARM) or empty,",
        "whatever its string literals hold (a template split over many literals, video instructions, a macro),",
        "and not under a host instruction set's branch (`#ifdef __ARM_NEON`, `__x86_64__`, `__POWER9_VECTOR__`,",
        "also in a conjunction: `#if defined(__GNUC__) && defined(__x86_64__) && !defined(__APPLE__)`).",
        "torchada-host-compile does not print it: a host file's assembly is the host compiler's, never mcc's.",
        "TA1201 looks for 32-lane assumptions:",
        f"MUSA warps are {warps}. It finds a full mask in any spelling the compiler folds to `0xffffffff`",
        "(`~0u`, `-1`, `uint32_t(-1)`, a project macro or constant) given to a warp intrinsic; a warp size of",
        "32 (`#define WARP_SIZE 32`, `kWarpSize = 32`) or its logarithm 5;",
        "`% 32`, `& 31`, `>> 5`, `/ 32` on `threadIdx`, a name initialised with it, a name like `lane_id` in a",
        "file that shuffles, or in the initialiser of a lane or warp index.",
        "torchada-nvcc prints it only where an architecture the compile targets has warps wider than 32 lanes:",
        "a build for mp_31 alone (`TORCH_MUSA_ARCH_LIST=31`) has none; the translation is the same for every one.",
        "A macro, type or function the project defines itself, and a variable it declares, keep their names",
        "and are never reported, however CUDA-like they look. No finding is reported under a branch that only",
        "ROCm or an operating system other than Linux takes (`#ifdef USE_ROCM`, `_MSC_VER`, `_WIN32`, `__APPLE__`):",
        "MUSA's SDK and torch_musa are for Linux alone.",
        "",
        "### Measured on real code",
        "",
        "`python benchmarks/findings_corpus.py` ports pinned sdists from PyPI (`tests/findings_corpus.py`) and",
        "matches each finding against annotations written by reading the sources",
        "(`tests/findings/annotations/`): every `asm` statement, every 32-lane assumption and every",
        "`x.type().is_cuda()` of each project; the other findings were judged one by one. Recall is what was",
        "annotated and found; precision is what was found and annotated. The test suite holds recall 1.0 for",
        "TA1101 and TA1201 and precision 0.95 for every ID. NVlabs' nvdiffrast and Mask2Former, whose misses",
        "(video instructions, `~0u` masks, a project's `CUDA_KERNEL_LOOP`) led to this corpus, publish no",
        "sdist; their patterns are reproduced in `tests/translate/`. auto_gptq's four extra TA1201 are",
        "`threadIdx.x / 32` and `% 32` that fill a 64×32 table: no warp, but the same spelling as one.",
        "",
        "| project | ID | annotated | reported | matched | recall | precision |",
        "|---|---|---|---|---|---|---|",
    ]
    totals: dict[str, list[int]] = {}
    for project, scores in sorted(corpus.items()):
        for rule, s in sorted(scores.items()):
            lines.append(_score_row(project, rule, s["annotated"], s["reported"], s["matched"]))
            total = totals.setdefault(rule, [0, 0, 0])
            for k, key in enumerate(("annotated", "reported", "matched")):
                total[k] += s[key]
    lines += [_score_row("**all**", rule, *total) for rule, total in sorted(totals.items())]
    return "\n".join(lines) + "\n"


def _score_row(project: str, rule: str, annotated: int, reported: int, matched: int) -> str:
    recall = matched / annotated if annotated else 1.0
    precision = matched / reported if reported else 1.0
    return f"| {project} | {rule} | {annotated} | {reported} | {matched} | {recall:.2f} | {precision:.2f} |"
