"""The registry of every TA ID: the findings' rules and the diagnostics table.

Findings (``TA1xxx``, :data:`RULES`; ``hipify_like/findings.py`` makes them) are about the code being
translated; diagnostics (``TA2xxx``, :data:`DIAGNOSTICS`) about the machine and the command: a missing
tool, an unusable cache, a bad setting. A diagnostic row holds the message and the remedy; the raising code fills in the fields and raises its own
:class:`~torchada_build.core.errors.TorchadaError` subclass with the text, which every program prints on one
line its own way. ``docs/diagnostics.md`` is generated from this table.

    >>> NO_MCC.text(mcc="/opt/musa/bin/mcc", found_by="MUSA_HOME")
    "cannot find mcc (looked for /opt/musa/bin/mcc, from MUSA_HOME); set MUSA_HOME to the MUSA SDK root, or TORCHADA_BACKEND=loopback to verify the translation with NVIDIA's nvcc [TA2001]"
"""

from __future__ import annotations

import enum
from typing import NamedTuple

__all__ = ["DIAGNOSTICS", "RULES", "Diagnostic", "Rule", "Severity", "diagnostics_markdown", "registered_ids"]


class Severity(enum.Enum):
    WARNING = "warning"
    ERROR = "error"


class Rule(NamedTuple):
    """A finding's ID, how it prints by default, and what it reports."""

    id: str
    severity: Severity
    summary: str


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("TA1001", Severity.ERROR, "a CUDA API with no MUSA counterpart"),
        Rule("TA1002", Severity.WARNING, "a CUDA API that needs a human to port it (the note says what to do)"),
        Rule("TA1003", Severity.ERROR, "a CUDA header with no MUSA counterpart"),
        Rule("TA1004", Severity.WARNING, "a CUDA-style name that the mapping database does not know"),
        Rule("TA1101", Severity.ERROR, "inline assembly in device code (PTX), which mcc cannot compile (left as is)"),
        Rule("TA1201", Severity.WARNING, "code that assumes 32-lane warps"),
        Rule("TA1301", Severity.WARNING, "`__CUDA_ARCH__` used as a number, not compared with a literal"),
        Rule("TA1302", Severity.WARNING, "an architecture comparison with no exact MUSA counterpart"),
    )
}
"""The findings' rules, in ID order."""


class Diagnostic:
    """One row: its ID, what went wrong and what the user does about it (``{field}`` placeholders in
    both). A plain class: the driver's start-up imports no dataclasses."""

    __slots__ = ("id", "message", "remedy")

    def __init__(self, id: str, message: str, remedy: str) -> None:  # noqa: A002 - the table's column
        self.id = id
        self.message = message
        self.remedy = remedy

    def __repr__(self) -> str:
        return f"Diagnostic({self.id!r}, {self.message!r}, {self.remedy!r})"

    def text(self, **fields: object) -> str:
        """The one line: ``message; remedy [ID]``."""
        return f"{self.message.format(**fields)}; {self.remedy.format(**fields)} [{self.id}]"


# fmt: off
NO_MCC = Diagnostic("TA2001", "cannot find mcc (looked for {mcc}, from {found_by})",
                    "set MUSA_HOME to the MUSA SDK root, or TORCHADA_BACKEND=loopback to verify the translation "
                    "with NVIDIA's nvcc")
NO_NVCC = Diagnostic("TA2002", "the {backend} backend needs NVIDIA's nvcc, and none was found",
                     "set CUDA_HOME to the CUDA toolkit (for Moore Threads GPUs: MUSA_HOME, or TORCHADA_BACKEND=mcc)")
NO_TORCH_MUSA = Diagnostic("TA2003", "cannot build a torch extension for MUSA ({reason}): torch_musa is not installed",
                           "install torch_musa, or set TORCHADA_BACKEND=nvcc to build for CUDA")
UNSUPPORTED_TORCH = Diagnostic("TA2004", "torch {version}'s torch.utils.cpp_extension lacks {names}",
                               "use a torch that torchada supports (docs/runtime.md names them)")
NO_LAUNCHER = Diagnostic("TA2005", "cannot find the compiler launcher '{program}' named by TORCHADA_COMPILER_LAUNCHER",
                         "install it, or unset TORCHADA_COMPILER_LAUNCHER")
BAD_LAUNCHER = Diagnostic("TA2006", "cannot read TORCHADA_COMPILER_LAUNCHER ({error}): {value}",
                          "quote it as a shell would (ccache, or 'sccache --flag')")
CACHE_UNUSABLE = Diagnostic("TA2010", "cannot use the cache directory '{path}': {error}",
                            "set TORCHADA_CACHE_DIR to another")
CACHE_NOT_A_DIRECTORY = Diagnostic("TA2011", "the cache directory '{path}' is not a directory",
                                   "set TORCHADA_CACHE_DIR to a directory")
CACHE_OF_ANOTHER_USER = Diagnostic("TA2012", "the cache directory '{path}' belongs to another user (uid {uid})",
                                   "set TORCHADA_CACHE_DIR to your own")
CACHE_SHARED = Diagnostic("TA2013", "the cache directory '{path}' is writable by other users (mode {mode:o})",
                          "chmod go-w it, or set TORCHADA_CACHE_DIR to your own")
CACHE_READ_ONLY = Diagnostic("TA2014", "the cache directory '{path}' is not writable",
                             "set TORCHADA_CACHE_DIR to a writable directory")
BAD_MUSA_ARCH = Diagnostic("TA2020", "unknown MUSA architecture '{entry}' in TORCHADA_MUSA_ARCH",
                           "use one or more of {names}, separated by ';'")
BAD_TORCH_MUSA_ARCH_LIST = Diagnostic("TA2021", "unknown MUSA architecture '{entry}' in TORCH_MUSA_ARCH_LIST",
                                      "use one or more of {names}, separated by ';'")
BAD_SETTING = Diagnostic("TA2022", "{name} must be {choices}, not '{value}'", "unset it for its default (docs/settings.md)")
NO_BUILD_SCRIPT = Diagnostic("TA2030", "cannot run '{script}': no such file",
                             "give a build script such as setup.py, or 'doctor'")
OUTPUT_IS_SOURCE = Diagnostic("TA2031", "-o '{output}' is the source itself",
                              "use --inplace to rewrite it (with a backup)")
ISOLATED_BUILD = Diagnostic("TA2032", "cannot build a torch extension for MUSA ({reason}) in an isolated build "
                            "environment: it cannot see torch_musa, and its torch is the one pip installed there",
                            "build with --no-build-isolation (PIP_NO_BUILD_ISOLATION=0 for pip, "
                            "UV_NO_BUILD_ISOLATION=1 for uv)")
# fmt: on

DIAGNOSTICS: tuple[Diagnostic, ...] = (
    NO_MCC, NO_NVCC, NO_TORCH_MUSA, UNSUPPORTED_TORCH, NO_LAUNCHER, BAD_LAUNCHER, CACHE_UNUSABLE,
    CACHE_NOT_A_DIRECTORY, CACHE_OF_ANOTHER_USER, CACHE_SHARED, CACHE_READ_ONLY, BAD_MUSA_ARCH,
    BAD_TORCH_MUSA_ARCH_LIST, BAD_SETTING, NO_BUILD_SCRIPT, OUTPUT_IS_SOURCE, ISOLATED_BUILD,
)  # fmt: skip
"""Every row, in ID order."""


def registered_ids() -> list[str]:
    """Every TA ID, findings then diagnostics."""
    return [*RULES, *(d.id for d in DIAGNOSTICS)]


def diagnostics_markdown() -> str:
    """``docs/diagnostics.md``'s tables of every ID (the findings' measurements follow, from
    ``hipify_like/findings.py``)."""
    lines = [
        "<!-- generated by python -m torchada_build.generate -- do not edit -->",
        "# Diagnostics",
        "",
        "What torchada's programs print when the machine or the command needs fixing: one line,",
        "`message; remedy [ID]` (`torchada-nvcc fatal   : …`, `torchada: error: …`, `torchada-port: error: …`).",
        "`{field}` stands for what the message names. Findings about the code being translated (`TA1xxx`)",
        "come after them, with what they are measured to find. Both tables come from one registry",
        "(`torchada_build/core/diagnostics.py`).",
        "",
        "| ID | message | remedy |",
        "|---|---|---|",
    ]
    lines += [f"| {d.id} | {d.message} | {d.remedy} |".replace("{", "`{").replace("}", "}`") for d in DIAGNOSTICS]
    lines += ["", "| finding | severity | what |", "|---|---|---|"]
    lines += [f"| {r.id} | {r.severity.value} | {r.summary} |" for r in RULES.values()]
    return "\n".join(lines) + "\n"
