"""The findings corpus: real CUDA sources, from pinned PyPI sdists, annotated by hand with the statements a
MUSA port must change, and the score of torchada's findings against those annotations.

Each project's annotations (``tests/findings/annotations/<sdist>.tsv``: path, line, ID, why) were written by
reading the sources, not from torchada's output. They are exhaustive for the IDs of :data:`EXHAUSTIVE`: every
``asm`` statement in device code (TA1101), every 32-lane assumption of the kinds ``docs/diagnostics.md``
lists (TA1201). So is every device check ``x.type().is_cuda()`` (TA1002), which is false for MUSA
tensors. Every other finding was judged one by one and annotated when a port must act on it ("judged: …"),
so for those the precision is the measure. A finding counts as found when its file, line and ID match a row; two findings of one ID on one line
(``threadIdx.x / 32`` and ``% 32``) are one statement.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from sdists import fetch_pinned_sdist, unpack

__all__ = ["EXHAUSTIVE", "PROJECTS", "Score", "annotations", "findings_of", "score", "totals"]

ANNOTATIONS = Path(__file__).resolve().parent / "findings" / "annotations"
EXHAUSTIVE = ("TA1101", "TA1201")
"""The IDs annotated by reading every statement that could be one: their recall is the measure."""

Site = tuple[str, int, str]
"""A statement: path in the sdist, line, ID."""


@dataclass(frozen=True)
class Sdist:
    name: str
    version: str
    sha256: str
    why: str
    """What the project brings to the corpus."""

    @property
    def key(self) -> str:
        return f"{self.name}-{self.version}"

    def fetch(self) -> Path:
        return fetch_pinned_sdist(self.name, self.key, self.sha256)


PROJECTS = (
    Sdist("auto_gptq", "0.7.1", "5c61ad380e9b4c603757c254765e9083a90a820cd0aff1b5d2c6f7fd96c85e80",
          "IST-DASLab's marlin kernel: cp.async blocks whose first literal is \"{\\n\", mma, ldmatrix"),
    Sdist("deepspeed", "0.19.8", "9e491abd0827ea5c389dd702e15e11e13d83d904bac4a20d6c2a4cb37207a9af",
          "190 asm statements, warp reductions, WARP_SIZE and kWarpSize constants, lane arithmetic"),
    Sdist("mmcv", "2.2.0", "ac479247e808d8802f89eadf04d4118de86bdfe81361ec5aed0cc1bf731c67c9",
          "a project FULL_MASK macro, CUDA_1D_KERNEL_LOOP-style macros, 111 CUDA files"),
    Sdist("gsplat", "1.5.3", "343f080c470e891ba3c697c03bdf0952cb982d1d535fdc24adb23c2cb4fba906",
          "cooperative groups, ARM NEON host assembly in its copy of glm"),
    Sdist("causal_conv1d", "1.7.0", "3202758494eaa7b597ce1c282dfa188889506bfcb92cad3c407d26736bfcd32b",
          "a full mask spelled uint32_t(-1)"),
    Sdist("mamba_ssm", "2.3.2.post1", "104cc47e9101e5401a675fa2b784f2952b9b037f3b1dd83b5ac544394e95d028",
          "threadIdx.x % 32 without shuffles, WARP_THREADS in ROCm branches"),
    Sdist("neural_renderer_pytorch", "1.1.3", "d0d86b003c2cc1a4d8a909862fb52ff153641636471097651239764a428c9137",
          "x.type().is_cuda() in its CHECK_CUDA macros; a local variable named texture"),
    Sdist("exllamav2", "0.0.4", "c9eeba99d817c79a6271c3efb0e54f1c5f046a4cab874210fd3745d46b465f56",
          "WARP_SIZE 32, 0x1f and >> 5 in quantisation code (not lanes)"),
)  # fmt: skip


def annotations(project: Sdist) -> set[Site]:
    """The project's annotated statements."""
    rows = (ANNOTATIONS / f"{project.key}.tsv").read_text().splitlines()[1:]
    return {(path, int(line), rule) for path, line, rule, _ in (row.split("\t", 3) for row in rows if row)}


def findings_of(project: Sdist) -> set[Site]:
    """What ``torchada-port`` reports on the unpacked sdist, as a user would run it on the tree."""
    with tempfile.TemporaryDirectory() as work:
        root = unpack(project.fetch(), Path(work) / "src")
        ported = subprocess.run(
            [sys.executable, "-m", "hipify_like", str(root), "--out-root", str(Path(work) / "out"),
             "--findings-format", "json", "-q"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    lines = ported.stderr.splitlines()
    if ported.returncode not in (0, 1) or not all(line.startswith("{") for line in lines):
        raise RuntimeError(f"torchada-port failed on {project.key}: {ported.stderr[-2000:]}")
    findings = [json.loads(line) for line in lines]
    return {(str(Path(f["file"]).relative_to(root)), f["line"], f["id"]) for f in findings}


class Score(NamedTuple):
    annotated: int
    reported: int
    matched: int

    @property
    def recall(self) -> float:
        return self.matched / self.annotated if self.annotated else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.reported if self.reported else 1.0


def score(expected: set[Site], found: set[Site]) -> dict[str, Score]:
    """Recall and precision per ID."""
    result = {}
    for rule in sorted({rule for *_, rule in expected | found}):
        want = {site for site in expected if site[2] == rule}
        got = {site for site in found if site[2] == rule}
        result[rule] = Score(len(want), len(got), len(want & got))
    return result


def totals(scores: Iterable[dict[str, Score]]) -> dict[str, Score]:
    """Each ID's score over several projects."""
    result: dict[str, Score] = {}
    for by_rule in scores:
        for rule, s in by_rule.items():
            result[rule] = Score(*(a + b for a, b in zip(result.get(rule, Score(0, 0, 0)), s, strict=True)))
    return result
