"""Host C/C++ compiles of a CUDA project: a gcc-style command line, rewritten to compile the translation.

torch compiles an extension's ``.cpp`` files with the host compiler (``c++``, often behind ccache), not
nvcc, and a CMake project its ``CXX`` sources, yet they use the CUDA API too
(``at::cuda::getCurrentCUDAStream()``, ``<c10/cuda/CUDAGuard.h>``, ``cudaMalloc``, cuBLAS handles).
For a command that compiles one C or C++ source, :func:`plan_host_compile` translates the source and the
project headers it includes into torchada-nvcc's cache (the same units: :mod:`.units`), and rewrites
the command to compile the translated copy: each ``-I``/``-isystem`` directory's translated copy first,
the original directories as ``-idirafter`` (for untranslated siblings), the backend's own flags (the
MUSA SDK's include directory; for loopback the compat prelude and headers), and a ``-MF`` dependency
file rewritten afterwards to name the original files. A source that translation leaves as it is, with
its headers, compiles unchanged; so does any other command (a link, a precompiled header, nvcc), and
every command on the ``nvcc`` backend. ``torchada-host-compile`` (:mod:`torchada_build.host_compile`)
is the program in front of the compiler.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from torchada_build.core.inputs import GCC_SOURCES

from .backends import Backend
from .cache import open_cache_dir
from .jobs import Job, JobKind
from .reads import ReadsCheck
from .toolchains import make_translating_toolchain
from .toolchains.base import host_searches, redirect_host_words
from .units import CachedUnit, UnitRequest, get_unit, translate_command

__all__ = ["HostPlan", "is_host_compile", "plan_host_compile"]

_HOST_LANGUAGES = frozenset({"c", "c++"})
_COMPILERS_NOT_HOST = frozenset({"nvcc", "torchada-nvcc", "mcc", "hipcc"})
_SEPARATE_VALUE = frozenset(
    {
        "-o", "-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-MF", "-MT", "-MQ", "-x",
        "-D", "-U", "-L", "-l", "-Xlinker", "-Xpreprocessor", "-Xassembler", "-aux-info", "--param",
        "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib", "-T", "-u", "-z", "-e",
        "-dumpdir", "-dumpbase", "-dumpbase-ext",
    }
)  # fmt: skip
"""gcc options whose value is the next word when it is not glued on."""


@dataclass
class _Scan:
    """What a gcc command line says, by word index."""

    words: list[str]
    sources: list[int] = field(default_factory=list)
    values: dict[int, str] = field(default_factory=dict)
    """index of an option → its value (the option's own word, glued or not)."""
    other_language: bool = False
    """An input is given a language other than C or C++ with ``-x``."""


def _scan(words: Sequence[str]) -> _Scan:
    scan = _Scan(list(words))
    language = None
    i = 0
    while i < len(words):
        word = words[i]
        if word in _SEPARATE_VALUE and i + 1 < len(words):
            scan.values[i] = words[i + 1]
            if word == "-x":
                language = None if words[i + 1] == "none" else words[i + 1]
            i += 2
            continue
        if word.startswith("-x") and len(word) > 2:
            language = None if word[2:] == "none" else word[2:]
        elif not word.startswith("-"):
            if language is None and PurePath(word).suffix in GCC_SOURCES or language in _HOST_LANGUAGES:
                scan.sources.append(i)
            elif language is not None:
                scan.other_language = True
        i += 1
    return scan


def _program_words(words: Sequence[str]) -> list[str]:
    """The launcher and compiler words before the first option (``ccache c++``)."""
    program = []
    for word in words:
        if word.startswith("-"):
            break
        program.append(word)
    return program


def is_host_compile(words: Sequence[str]) -> bool:
    """Whether ``words`` is a host compiler compiling exactly one C/C++ source (what gets translated)."""
    if any(PurePath(w).name in _COMPILERS_NOT_HOST for w in _program_words(words)):
        return False
    scan = _scan(words)
    return len(scan.sources) == 1 and not scan.other_language


def _absolute(path: str) -> Path:
    return Path(os.path.normpath(Path(path).absolute()))


def _depfile(scan: _Scan) -> Path | None:
    words = scan.words
    if not {"-MD", "-MMD", "-M", "-MM"} & set(words):
        return None
    for i, word in enumerate(words):
        if word == "-MF" and i in scan.values:
            return _absolute(scan.values[i])
        if word.startswith("-MF") and len(word) > 3:
            return _absolute(word[3:])
    if "-MD" not in words and "-MMD" not in words:
        return None  # -M/-MM without -MF print the rule
    output = next((scan.values[i] for i, w in enumerate(words) if w == "-o" and i in scan.values), None)
    source = words[scan.sources[0]]
    return _absolute(str(PurePath(output).with_suffix(".d")) if output else PurePath(source).stem + ".d")


def _rewritten(scan: _Scan, unit: CachedUnit, before: list[str], after: list[str]) -> list[str]:
    """The command compiling ``unit``'s translation: the toolchain's flags before the first option, each
    search directory's translated copy before it and each forced include as its translated copy (as
    torchada-nvcc gives ``-Xcompiler`` ones), the original directories last."""
    words = list(scan.words)
    words[scan.sources[0]] = str(unit.main)
    first_option = next((i for i, w in enumerate(words) if w.startswith("-")), len(words))
    originals = [w for directory in unit.original_dirs for w in ("-idirafter", directory)]
    return [*words[:first_option], *before, *redirect_host_words(unit, words[first_option:]), *originals, *after]


@dataclass(frozen=True)
class HostPlan:
    """What :func:`plan_host_compile` prepared and planned."""

    jobs: list[Job]
    units: tuple[CachedUnit, ...]
    """The translated unit (none where ``words`` run unchanged)."""


def plan_host_compile(words: Sequence[str], backend: Backend, environ: Mapping[str, str]) -> HostPlan:
    """The jobs to run in place of ``words``: translate (its findings print), then the compile of the
    translation and the rewrite of its dependency file; or ``words`` unchanged (on the ``nvcc``
    backend, which is CUDA's own toolchain, always)."""
    if backend is Backend.NVCC or not is_host_compile(words):
        return HostPlan([Job(JobKind.COMPILE, tuple(words))], ())
    scan = _scan(words)
    source = scan.words[scan.sources[0]]
    include_dirs, pre_include_values = host_searches(scan.words)
    request = UnitRequest.of(_absolute(source), [_absolute(d) for d in include_dirs], pre_include_values)
    cache_dir = open_cache_dir(environ)
    unit = get_unit(request, cache_dir)
    jobs = [Job(JobKind.TRANSLATE, translate_command(request), report=lambda executing: _report(unit, executing))]
    if unit.cuda_free:
        return HostPlan([*jobs, Job(JobKind.COMPILE, tuple(words))], (unit,))
    before, after = make_translating_toolchain(backend, environ).host_flags(cache_dir, unit)
    depfile = _depfile(scan)
    check = None
    if depfile is not None and unit.manifest is not None:  # what the compiler read, from the rule it writes
        check = ReadsCheck.of(unit, request, str(depfile), cache_dir)
    output = next((scan.values[i] for i, w in enumerate(scan.words) if w == "-o" and i in scan.values), None)
    jobs.append(Job(JobKind.COMPILE, tuple(_rewritten(scan, unit, before, after)), (output,) if output else (), check=check))
    if depfile is not None:
        rewrite = unit.rewrite(str(depfile), str(depfile), None, "-MP" in scan.words, str(request.source))
        jobs.append(Job(JobKind.FILTER_DEPENDENCIES, (), rewrite=rewrite, display=f"-- Filter Dependencies -- > {depfile}"))
    return HostPlan(jobs, (unit,))


HOST_LEFT_OUT = ("TA1101",)
"""Findings that do not apply to a host compile: its inline assembly is the host compiler's, never mcc's
(stb_image.h's MSVC ``__asm { cpuid }`` in llama.cpp's host files)."""


def _report(unit: CachedUnit, executing: bool) -> None:
    """Print the translator's findings gcc-style, as torchada-nvcc does for ``.cu`` files, less
    :data:`HOST_LEFT_OUT`."""
    from hipify_like.findings import Severity

    for finding in unit.findings_to_print(HOST_LEFT_OUT) if executing else unit.findings_applying(HOST_LEFT_OUT):
        print(finding.format(Severity.WARNING), file=sys.stderr)
